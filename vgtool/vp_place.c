/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_place.c: where the profile goes and how it gets there.  The file is
   written under a temporary name in the destination directory and renamed
   into place once complete, so a run that cannot finish it leaves what
   was there before; a symbolic link is followed, and a device or a FIFO
   written in place.  The destination is tried before the client runs. */

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

/* The file a chain of symbolic links ends at (a relative target taken
   from its link's directory), or NULL when path is not a link.  A chain
   that cannot be read to its end stops at the last link read. */
static HChar* link_target(const HChar* path)
{
   HChar* target = NULL;
   HChar* buf    = VG_(malloc)("vp.dump.link", VKI_PATH_MAX);
   Int    depth;
   for (depth = 0; depth < 40; depth++) {   /* the kernel's MAXSYMLINKS */
      const HChar* link = target ? target : path;
      SSizeT       n    = VG_(readlink)(link, buf, VKI_PATH_MAX - 1);
      if (n < 0)
         break;
      buf[n] = '\0';
      const HChar* slash = VG_(strrchr)(link, '/');
      SizeT        dir   = buf[0] != '/' && slash ? (SizeT)(slash - link) + 1 : 0;
      HChar*       next  = VG_(malloc)("vp.dump.link", dir + n + 1);
      VG_(memcpy)(next, link, dir);
      VG_(strcpy)(next + dir, buf);
      VG_(free)(target);
      target = next;
   }
   VG_(free)(buf);
   return target;
}

/* A destination that is a device or a FIFO is written in place: renaming
   over it would replace /dev/null with a regular file.  So is a link
   still, which only a chain of links with no end leaves: opening it says
   so, and renaming over it would replace the link. */
static Bool write_in_place(const HChar* path)
{
   struct vg_stat st;
   HChar          target[8];
   if (VG_(readlink)(path, target, sizeof target) >= 0)
      return True;
   return !sr_isError(VG_(stat)(path, &st)) && !VKI_S_ISREG(st.mode);
}

static void say_written(const HChar* path, const VP_Dump* d)
{
   if (VG_(clo_verbosity) > 0 && !d->quiet)
      VG_(umsg)("vgprof: profile written to %s\n", path);
}

static Bool write_direct(const HChar* path, const VP_Dump* d, VP_Out* o)
{
   if (!VP_(out_open)(o, path)) {
      VG_(umsg)("vgprof: error: cannot open '%s' for the profile: %s\n",
                path, VP_(errno_text)(o->err));
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

static HChar* temp_path(const HChar* path)
{
   const HChar* slash = VG_(strrchr)(path, '/');
   SizeT        dir   = slash ? (SizeT)(slash - path) + 1 : 0;
   SizeT        name  = VG_(strlen)(path + dir);
   HChar*       tmp   = VG_(malloc)("vp.dump.tmp", VG_(strlen)(path) + 32);
   if (name <= VP_NAME_MAX && name + 16 > VP_NAME_MAX) {
      VG_(memcpy)(tmp, path, dir);
      VG_(sprintf)(tmp + dir, ".vgprof.tmp.%d", VG_(getpid)());
   } else
      VG_(sprintf)(tmp, "%s.tmp.%d", path, VG_(getpid)());
   return tmp;
}

/* Written beside the destination, so the rename cannot cross file
   systems, and renamed into place only when complete. */
static Bool write_atomically(const HChar* path, const VP_Dump* d, VP_Out* o)
{
   HChar* tmp     = temp_path(path);
   Bool   written = False;
   if (!VP_(out_open)(o, tmp)) {
      VG_(umsg)("vgprof: error: cannot create the profile '%s': %s\n",
                path, VP_(errno_text)(o->err));
      VG_(umsg)("vgprof: no profile was written.\n");
   } else {
      VP_(write_document)(o, d);
      if (!VP_(out_close)(o)) {
         VG_(umsg)("vgprof: error: cannot write the profile '%s': %s\n",
                   path, VP_(errno_text)(o->err));
         VG_(umsg)("vgprof: the incomplete file was removed; no profile was written.\n");
         VG_(unlink)(tmp);
      } else if (VG_(rename)(tmp, path) != 0) {
         VG_(umsg)("vgprof: error: cannot rename '%s' to '%s'\n", tmp, path);
         VG_(umsg)("vgprof: the incomplete file was removed; no profile was written.\n");
         VG_(unlink)(tmp);
      } else {
         say_written(path, d);
         written = True;
      }
   }
   VG_(free)(tmp);
   return written;
}

/* A symbolic link is followed, and the file it ends at replaced as any
   other: the link stays, and a profile that cannot be written whole
   leaves the old file as it was. */
Bool VP_(place_profile)(const HChar* path, const VP_Dump* d)
{
   VP_Out* o      = VG_(malloc)("vp.dump.out", sizeof(VP_Out));
   HChar*  target = link_target(path);
   const HChar* dest = target ? target : path;
   Bool    written = write_in_place(dest) ? write_direct(dest, d, o)
                                          : write_atomically(dest, d, o);
   VG_(free)(target);
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
   HChar*       path   = VP_(profile_path)(&d);
   HChar*       target = link_target(path);
   const HChar* dest   = target ? target : path;
   if (!write_in_place(dest)) {
      VP_Out* o   = VG_(malloc)("vp.dump.out", sizeof(VP_Out));
      HChar*  tmp = temp_path(dest);
      if (!VP_(out_open)(o, tmp)) {
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
   VG_(free)(target);
   VG_(free)(path);
}
