/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_json.c: a buffered output file for the profile, with JSON string
   escaping.  It records the first write error instead of stopping, so the
   writer can finish, report once and remove the incomplete file. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_vki.h"
#include "vp_global.h"

Bool VP_(out_open)(VP_Out* o, const HChar* path, Int flags)
{
   SysRes r = VG_(open)(path, flags,
                        VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP | VKI_S_IWGRP
                        | VKI_S_IROTH | VKI_S_IWOTH);
   o->used = 0;
   if (sr_isError(r)) {
      o->fd  = -1;
      o->err = (Int)sr_Err(r);
      return False;
   }
   o->fd  = (Int)sr_Res(r);
   o->err = 0;
   return True;
}

static void flush(VP_Out* o)
{
   UInt done = 0;
   while (o->err == 0 && done < o->used) {
      Int n = VG_(write)(o->fd, o->buf + done, o->used - done);
      if (n <= 0)
         o->err = n < 0 ? -n : VKI_EIO;
      else
         done += n;
   }
   o->used = 0;
}

void VP_(out_raw)(VP_Out* o, const HChar* s, SizeT n)
{
   while (n > 0) {
      SizeT room = sizeof o->buf - o->used;
      SizeT k    = n < room ? n : room;
      VG_(memcpy)(o->buf + o->used, s, k);
      o->used += k;
      s += k;
      n -= k;
      if (o->used == sizeof o->buf)
         flush(o);
   }
}

void VP_(out_s)(VP_Out* o, const HChar* s)
{
   VP_(out_raw)(o, s, VG_(strlen)(s));
}

void VP_(out_u64)(VP_Out* o, ULong v)
{
   HChar tmp[24];
   VG_(sprintf)(tmp, "%llu", v);
   VP_(out_s)(o, tmp);
}

/* Length of the well-formed UTF-8 sequence at s, or 0 if there is none:
   no overlong forms, no surrogates, nothing above U+10FFFF. */
static Int utf8_len(const UChar* s)
{
   Int   n, i;
   UChar lo = 0x80, hi = 0xBF;   /* range of the second byte */
   if (s[0] < 0x80)                      return 1;
   else if (s[0] >= 0xC2 && s[0] <= 0xDF) n = 2;
   else if (s[0] >= 0xE0 && s[0] <= 0xEF) n = 3;
   else if (s[0] >= 0xF0 && s[0] <= 0xF4) n = 4;
   else                                   return 0;
   if (s[0] == 0xE0) lo = 0xA0;   /* overlong */
   if (s[0] == 0xED) hi = 0x9F;   /* surrogates */
   if (s[0] == 0xF0) lo = 0x90;   /* overlong */
   if (s[0] == 0xF4) hi = 0x8F;   /* above U+10FFFF */
   if (s[1] < lo || s[1] > hi)
      return 0;
   for (i = 2; i < n; i++)
      if ((s[i] & 0xC0) != 0x80)
         return 0;
   return n;
}

/* Paths and symbols are bytes, JSON is UTF-8: a byte that is not part of
   valid UTF-8 is written as the Latin-1 character of the same value, so
   the profile always parses. */
void VP_(out_json_str)(VP_Out* o, const HChar* s)
{
   const UChar* p = (const UChar*)s;
   HChar        esc[8];
   VP_(out_raw)(o, "\"", 1);
   while (*p) {
      Int n = utf8_len(p);
      if (n == 1 && *p >= 0x20 && *p != '"' && *p != '\\') {
         VP_(out_raw)(o, (const HChar*)p, 1);
      } else if (n == 1 && (*p == '"' || *p == '\\')) {
         esc[0] = '\\'; esc[1] = *p;
         VP_(out_raw)(o, esc, 2);
      } else if (n > 1) {
         VP_(out_raw)(o, (const HChar*)p, n);
         p += n;
         continue;
      } else {
         VG_(sprintf)(esc, "\\u%04x", (UInt)*p);
         VP_(out_s)(o, esc);
      }
      p++;
   }
   VP_(out_raw)(o, "\"", 1);
}

Bool VP_(out_close)(VP_Out* o)
{
   flush(o);
   if (o->fd >= 0)
      VG_(close)(o->fd);
   o->fd = -1;
   return o->err == 0;
}

/* Linux's numbers for errors that vki-linux.h does not define. */
#define VP_ENAMETOOLONG 36
#define VP_EDQUOT       122

const HChar* VP_(errno_text)(Int err)
{
   static HChar other[32];

   switch (err) {
      case VKI_ENOENT:  return "No such file or directory";
      case VKI_EACCES:  return "Permission denied";
      case VKI_EPERM:   return "Operation not permitted";
      case VKI_ENOSPC:  return "No space left on device";
      case VKI_EROFS:   return "Read-only file system";
      case VKI_EISDIR:  return "Is a directory";
      case VKI_ENOTDIR: return "Not a directory";
      case VKI_EEXIST:  return "File exists";
      case VKI_EIO:     return "Input/output error";
      case VKI_EFBIG:   return "File too large";
      case VKI_EXDEV:   return "Invalid cross-device link";
      case VP_ENAMETOOLONG: return "File name too long";
      case VP_EDQUOT:   return "Disk quota exceeded";
      case VKI_ELOOP:   return "Too many levels of symbolic links";
      case VKI_EPIPE:   return "Broken pipe";
      default:
         VG_(sprintf)(other, "system error %d", err);
         return other;
   }
}
