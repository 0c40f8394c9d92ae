/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_place.c: where the profile goes and how it gets there.  The file is
   written under a temporary name beside the destination, created
   exclusively and never through a link, and renamed over the destination
   once complete, so a run that cannot finish it leaves what was there
   before.  The rename replaces the name itself: a symbolic link there is
   replaced, never written through, so a link planted in a shared
   directory cannot send the profile over another file.  A descriptor's
   name (/dev/stdout), a device, a FIFO, and a link to a character device
   or a FIFO are written in place.  The destination is tried before the
   client runs. */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "vp_global.h"

/* The file a profile goes to: the expanded --vgprof-out-file, with a
   dump's number put before a ".json" ending (or after the name). */
HChar* VP_(profile_path)(const VP_Dump* d)
{
   HChar* base = VG_(expand_file_name)("--vgprof-out-file", VP_(clo).out_file);
   if (d->number == 0)
      return base;
   SizeT  len  = VG_(strlen)(base);
   HChar* path = VG_(malloc)("vp.dump.path", len + 16);
   if (len > 5 && VG_(strcmp)(base + len - 5, ".json") == 0) {
      base[len - 5] = '\0';
      VG_(sprintf)(path, "%s.%d.json", base, d->number);
   } else {
      VG_(sprintf)(path, "%s.%d", base, d->number);
   }
   VG_(free)(base);
   return path;
}

/* Linux's value on x86, amd64 and arm64, which vki-amd64-linux.h lacks. */
#ifndef VKI_O_NOFOLLOW
#define VKI_O_NOFOLLOW 0400000
#endif

/* The core's system call entry: VG_(rename) drops the cause of a failure,
   which the message needs (a sticky directory's refusal). */
extern SysRes VG_(do_syscall)(UWord sysno, RegWord a1, RegWord a2, RegWord a3, RegWord a4,
                              RegWord a5, RegWord a6, RegWord a7, RegWord a8);

/* 0, or the errno of the rename's failure. */
static Int rename_over(const HChar* from, const HChar* to)
{
#if defined(__NR_rename)
   SysRes r = VG_(do_syscall)(__NR_rename, (RegWord)from, (RegWord)to, 0, 0, 0, 0, 0, 0);
#else
   SysRes r = VG_(do_syscall)(__NR_renameat, (RegWord)VKI_AT_FDCWD, (RegWord)from,
                              (RegWord)VKI_AT_FDCWD, (RegWord)to, 0, 0, 0, 0);
#endif
   return sr_isError(r) ? (Int)sr_Err(r) : 0;
}

static Bool is_link(const HChar* path)
{
   HChar target[8];
   return VG_(readlink)(path, target, sizeof target) >= 0;
}

static Bool all_digits(const HChar* s)
{
   if (*s == '\0')
      return False;
   for (; *s; s++)
      if (*s < '0' || *s > '9')
         return False;
   return True;
}

/* The names of a descriptor the process holds: the user means its
   standard output (or the file it was redirected to), whatever it is. */
static Bool names_a_descriptor(const HChar* path)
{
   return VG_(strcmp)(path, "/dev/stdout") == 0 || VG_(strcmp)(path, "/dev/stderr") == 0
          || (VG_(strncmp)(path, "/dev/fd/", 8) == 0 && all_digits(path + 8))
          || (VG_(strncmp)(path, "/proc/self/fd/", 14) == 0 && all_digits(path + 14));
}

/* A destination that is a device or a FIFO is written in place: renaming
   over it would replace /dev/null with a regular file.  So is a link to a
   character device, a FIFO or a socket; a link to anything else, or to
   nothing, is replaced. */
static Bool write_in_place(const HChar* path)
{
   struct vg_stat st;
   if (names_a_descriptor(path))
      return True;
   if (sr_isError(VG_(stat)(path, &st)))
      return False;
   if (is_link(path))
      return VKI_S_ISCHR(st.mode) || VKI_S_ISFIFO(st.mode) || VKI_S_ISSOCK(st.mode);
   return !VKI_S_ISREG(st.mode);
}

static void say_written(const HChar* path, const VP_Dump* d)
{
   if (VG_(clo_verbosity) > 0 && !d->quiet)
      VG_(umsg)("vgprof: profile written to %s\n", path);
}

/* Opened neither created nor truncated unless it is a descriptor's name:
   what is opened must be what was looked at, and is checked again, so a
   regular file put there meanwhile is not written over. */
static Bool write_direct(const HChar* path, const VP_Dump* d, VP_Out* o)
{
   struct vg_stat st;
   Bool descriptor = names_a_descriptor(path);
   if (!VP_(out_open)(o, path, VKI_O_WRONLY | (descriptor ? VKI_O_TRUNC : 0))) {
      VG_(umsg)("vgprof: error: cannot open '%s' for the profile: %s\n",
                path, VP_(errno_text)(o->err));
      VG_(umsg)("vgprof: no profile was written.\n");
      return False;
   }
   if (!descriptor && (VG_(fstat)(o->fd, &st) != 0 || VKI_S_ISREG(st.mode))) {
      VP_(out_close)(o);
      VG_(umsg)("vgprof: error: '%s' became a regular file while being opened; "
                "it was left as it was.\n", path);
      VG_(umsg)("vgprof: no profile was written.\n");
      return False;
   }
   VP_(write_document)(o, d);
   if (!VP_(out_close)(o)) {
      VG_(umsg)("vgprof: error: cannot write the profile to '%s': %s\n",
                path, VP_(errno_text)(o->err));
      return False;
   }
   say_written(path, d);
   return True;
}

/* The temporary file beside the destination: its name with ".tmp.PID"
   added.  A name that fits a file name (NAME_MAX, 255 bytes) only without
   the suffix gets a short hidden name in the same directory instead, so
   every name the system accepts can be written; a name too long in itself
   keeps the suffix, and creating the file says so. */
#define VP_NAME_MAX 255

static HChar* temp_path(const HChar* path, Int attempt)
{
   const HChar* slash = VG_(strrchr)(path, '/');
   SizeT        dir   = slash ? (SizeT)(slash - path) + 1 : 0;
   SizeT        name  = VG_(strlen)(path + dir);
   HChar*       tmp   = VG_(malloc)("vp.dump.tmp", VG_(strlen)(path) + 40);
   if (name <= VP_NAME_MAX && name + 16 > VP_NAME_MAX) {
      VG_(memcpy)(tmp, path, dir);
      VG_(sprintf)(tmp + dir, ".vgprof.tmp.%d", VG_(getpid)());
   } else
      VG_(sprintf)(tmp, "%s.tmp.%d", path, VG_(getpid)());
   if (attempt > 0)
      VG_(sprintf)(tmp + VG_(strlen)(tmp), ".%d", attempt);
   return tmp;
}

/* The temporary file, created exclusively and not through a link: a name
   someone else holds (even a link planted under it) is never opened, and
   the next number is tried instead.  NULL, with o->err set, when none can
   be created. */
static HChar* create_temp(const HChar* path, VP_Out* o)
{
   Int attempt;
   for (attempt = 0; attempt <= 100; attempt++) {
      HChar* tmp = temp_path(path, attempt);
      if (VP_(out_open)(o, tmp, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_EXCL | VKI_O_NOFOLLOW))
         return tmp;
      VG_(free)(tmp);
      if (o->err != VKI_EEXIST)
         break;
   }
   return NULL;
}

/* Written beside the destination, so the rename cannot cross file
   systems, and renamed into place only when complete. */
static Bool write_atomically(const HChar* path, const VP_Dump* d, VP_Out* o)
{
   HChar* tmp     = create_temp(path, o);
   Bool   written = False;
   Int    err;
   if (tmp == NULL) {
      VG_(umsg)("vgprof: error: cannot create the profile '%s': %s\n",
                path, VP_(errno_text)(o->err));
      VG_(umsg)("vgprof: no profile was written.\n");
      return False;
   }
   VP_(write_document)(o, d);
   if (!VP_(out_close)(o)) {
      VG_(umsg)("vgprof: error: cannot write the profile '%s': %s\n",
                path, VP_(errno_text)(o->err));
      VG_(umsg)("vgprof: the incomplete file was removed; no profile was written.\n");
      VG_(unlink)(tmp);
   } else if ((err = rename_over(tmp, path)) != 0) {
      VG_(umsg)("vgprof: error: cannot replace '%s' with the profile: %s%s\n", path,
                VP_(errno_text)(err),
                err == VKI_EPERM ? " (it is another user's, in a directory where only a"
                                   " file's owner may replace it)"
                                 : "");
      VG_(umsg)("vgprof: the new file was removed; no profile was written.\n");
      VG_(unlink)(tmp);
   } else {
      say_written(path, d);
      written = True;
   }
   VG_(free)(tmp);
   return written;
}

/* A symbolic link at the destination is replaced like any other file;
   the file it pointed to is left as it was. */
Bool VP_(place_profile)(const HChar* path, const VP_Dump* d)
{
   VP_Out* o       = VG_(malloc)("vp.dump.out", sizeof(VP_Out));
   Bool    written = write_in_place(path) ? write_direct(path, d, o)
                                          : write_atomically(path, d, o);
   VG_(free)(o);
   return written;
}

/* Whether the profile could be created where it goes, tried before the
   client runs so that a destination that cannot be written stops the
   run at once instead of after it (as callgrind checks its own output
   file): the temporary file the profile would be written to is created
   and removed.  A device or a FIFO written in place is left alone:
   opening a FIFO would wait for its reader. */
void VP_(check_profile_destination)(void)
{
   VP_Dump d;
   VG_(memset)(&d, 0, sizeof d);
   HChar* path = VP_(profile_path)(&d);
   if (!write_in_place(path)) {
      VP_Out* o   = VG_(malloc)("vp.dump.out", sizeof(VP_Out));
      HChar*  tmp = create_temp(path, o);
      if (tmp == NULL) {
         HChar* opt = VG_(malloc)("vp.dump.opt", VG_(strlen)(VP_(clo).out_file) + 32);
         VG_(sprintf)(opt, "--vgprof-out-file=%s", VP_(clo).out_file);
         /* A message only, after the options were read: the exit is ours. */
         VG_(fmsg_bad_option)(opt, "vgprof: cannot create the profile '%s': %s\n",
                              path, VP_(errno_text)(o->err));
         VG_(exit)(1);
      }
      VP_(out_close)(o);
      VG_(unlink)(tmp);
      VG_(free)(tmp);
      VG_(free)(o);
   }
   VG_(free)(path);
}
