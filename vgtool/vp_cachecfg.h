/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_cachecfg.h: the geometry of the simulated caches and the options
   that choose it (vp_cachecfg.c), apart from the simulation itself
   (vp_sim.h), as cachegrind keeps its cg_arch.h apart from cg_sim.c. */

#ifndef VP_CACHECFG_H
#define VP_CACHECFG_H

#include "pub_tool_basics.h"

#ifndef VP_
#  define VP_(str) VGAPPEND(vgprof_, str)
#endif

/* One cache's geometry, as given with --I1=size,assoc,line_size.
   Int, like the option values: anything bigger is rejected. */
typedef struct {
   Int size;        /* bytes */
   Int assoc;       /* ways per set; 1: direct-mapped */
   Int line_size;   /* bytes */
} VP_CacheConfig;

/*------------------------------------------------------------*/
/*--- from vp_cachecfg.c                                   ---*/
/*------------------------------------------------------------*/

/* The cache options as given.  Zero-fill or VP_(cache_clo_init). */
typedef struct {
   Bool           from_host;   /* --cache-from-host=yes */
   Bool           I1_given;    /* --I1 was given: I1 holds it */
   Bool           D1_given;
   Bool           LL_given;
   VP_CacheConfig I1, D1, LL;
} VP_CacheClo;

/* vgprof's fixed default geometry, used unless --cache-from-host=yes. */
#define VP_DEFAULT_I1 { 32768,    8, 64 }
#define VP_DEFAULT_D1 { 32768,    8, 64 }
#define VP_DEFAULT_LL { 8388608, 16, 64 }

void VP_(cache_clo_init)(VP_CacheClo* clo);

/* Handles --I1=, --D1=, --LL= (and cachegrind's old spelling --L2=)
   and --cache-from-host=yes|no.  Returns False if arg is none of
   them.  A bad value is reported with VG_(fmsg_bad_option), which ends
   the run while options are being read at startup. */
Bool VP_(cache_clo_option)(const HChar* arg, VP_CacheClo* clo);

/* Usage lines for these options, in the --help layout. */
void VP_(cache_clo_usage)(void);

/* Parses "size,assoc,line_size" (decimal) into c and checks it with
   VP_(check_cache).  Returns NULL if good, else a message ending in a
   newline; c is then unspecified. */
const HChar* VP_(parse_cache_spec)(const HChar* spec, VP_CacheConfig* c);

/* Can the simulator model c?  NULL if so, else why not, as a message
   ending in a newline.  The rules are cachegrind 3.19's. */
const HChar* VP_(check_cache)(const VP_CacheConfig* c);

/* If LL's number of sets is not a power of two, lowers it to the
   power of two below and raises the associativity to keep about the
   same capacity, as cachegrind does with the caches a host reports.
   Returns True (and warns with VG_(dmsg)) if LL was changed. */
Bool VP_(fit_LL_to_sim)(VP_CacheConfig* LL);

/* The geometry to simulate: vgprof's fixed default, or the host's
   caches as cachegrind takes them with --cache-from-host=yes, then any
   --I1/--D1/--LL.  Ends the run with a message if the host's caches
   cannot be simulated and no option replaces them, or if a line is
   smaller than the largest guest register. */
void VP_(configure_caches)(const VP_CacheClo* clo, VP_CacheConfig* I1,
                           VP_CacheConfig* D1, VP_CacheConfig* LL);

/* Formats one cache as cachegrind's "desc:" lines do, e.g.
   "32768 B, 64 B, 8-way associative" or "... direct-mapped". */
void VP_(cache_desc)(const VP_CacheConfig* c, HChar* buf, Int bufsize);

/* Formats the profile's meta.cache object, e.g.
   {"I1":[32768,8,64],"D1":[32768,8,64],"LL":[8388608,16,64],"branches":false}
   each array being [size,assoc,line_size]. */
void VP_(cache_json)(HChar* buf, Int bufsize, const VP_CacheConfig* I1,
                     const VP_CacheConfig* D1, const VP_CacheConfig* LL,
                     Bool branch_sim);

#endif /* VP_CACHECFG_H */
