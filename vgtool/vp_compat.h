/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_compat.h: the one place that knows how the tool API differs between
   the Valgrind versions vgprof builds with (3.19 to 3.24).  configure tries
   each form against the headers at hand and says which compiled
   (VGTOOL_API_CFLAGS); the rest of the tool calls the forms below. */

#ifndef VP_COMPAT_H
#define VP_COMPAT_H

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_mallocfree.h"
#include "vp_global.h"
#include "valgrind.h"

/* Memory for the tool's own large tables, NULL when there is none:
   VG_(am_shadow_alloc) returns the address in 3.19 and a SysRes later. */
static inline void* VP_(shadow_alloc)(SizeT size, UWord* err)
{
#if defined(VP_SHADOW_ALLOC_SYSRES)
   SysRes r = VG_(am_shadow_alloc)(size);
   *err = sr_isError(r) ? sr_Err(r) : 0;
   return sr_isError(r) ? NULL : (void*)sr_Res(r);
#else
   *err = 0;
   return VG_(am_shadow_alloc)(size);
#endif
}

/* Later versions name the system's error in the out-of-memory message. */
static inline __attribute__((noreturn))
void VP_(out_of_memory)(const HChar* who, SizeT size, UWord err)
{
#if defined(VP_OUT_OF_MEMORY_ERR)
   VG_(out_of_memory_NORETURN)(who, size, err);
#else
   VG_(out_of_memory_NORETURN)(who, size);
#endif
}

/* vgprof's exit summary reads as its Valgrind's cachegrind's, whose first
   labels lost their padding ("I   refs:" in 3.19, "I refs:" in 3.24; the
   cachegrind rework of 3.21 is taken as the change).  Same width. */
#if __VALGRIND_MAJOR__ > 3 || (__VALGRIND_MAJOR__ == 3 && __VALGRIND_MINOR__ >= 21)
#  define VP_SUMMARY_I_REFS "I refs:       "
#  define VP_SUMMARY_D_REFS "D refs:       "
#else
#  define VP_SUMMARY_I_REFS "I   refs:     "
#  define VP_SUMMARY_D_REFS "D   refs:     "
#endif

#endif /* VP_COMPAT_H */
