/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_shim.h: what the simulator tests can see of the libc-backed stand-ins
   for Valgrind's core (vp_shim.c), so that vgtool/vp_sim.c and
   vgtool/vp_cachecfg.c run as a plain program.  The tool sources still
   compile against Valgrind's own headers; only the functions behind
   VG_(...) are replaced. */

#ifndef VP_SHIM_H
#define VP_SHIM_H

#include "pub_tool_basics.h"
#include "libvex.h"

/* Messages the code under test printed (umsg, dmsg, fmsg, bad options),
   concatenated, and how the last one began. */
extern char shim_messages[8192];
void        shim_clear_messages(void);

/* What VG_(machine_get_VexArchInfo) reports, and the largest register. */
extern VexCacheInfo shim_host_caches;
extern Int          shim_largest_register;

/* Runs f(arg).  Returns -1 if it returned, else the status it passed to
   VG_(exit) (1 for a fatal VG_(fmsg_bad_option)). */
int shim_run(void (*f)(void*), void* arg);

#endif
