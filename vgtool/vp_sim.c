/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_sim.c: the state of the cache and branch simulation and its set
   up.  The references themselves are inline functions in vp_sim.h. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "vp_sim.h"

VP_Cache VP_(I1);
VP_Cache VP_(D1);
VP_Cache VP_(LL);

UWord VP_(bp_history);
UChar VP_(bp_counters)[VP_BP_N_COUNTERS];
Addr  VP_(bp_targets)[VP_BP_N_TARGETS];

/* I1's tags in the tool's own image when they fit (a 32 KB I1 of 64-byte
   lines needs 512): translated code loads the most recently used line of
   a set for its inline fetch tests, and an address there is in reach of
   a 32-bit displacement from a register (vp_instr.c's ir_addr), where
   one in the heap takes a 64-bit constant per test. */
#define N_I1_STATIC_TAGS 8192
static UWord i1_static_tags[N_I1_STATIC_TAGS];

/* static_tags: where the tags go if there are at most n_static, or NULL. */
static void init_cache(VP_Cache* c, const VP_CacheConfig* config,
                       const HChar* cost_centre, UWord* static_tags, SizeT n_static)
{
   Int   sets = config->size / config->line_size / config->assoc;
   SizeT n_tags = (SizeT)sets * config->assoc;
   SizeT i;

   tl_assert(VG_(log2)(sets) >= 0 && VG_(log2)(config->line_size) >= 0);
   c->config    = *config;
   c->assoc     = config->assoc;
   c->set_mask  = (UWord)sets - 1;
   c->line_bits = VG_(log2)(config->line_size);
   /* Every tag starts as block 0, as cachegrind's do (see vp_sim.h). */
   c->tags = static_tags && n_tags <= n_static
             ? static_tags : VG_(malloc)(cost_centre, n_tags * sizeof(UWord));
   for (i = 0; i < n_tags; i++)
      c->tags[i] = 0;
}

void VP_(sim_init)(const VP_CacheConfig* I1, const VP_CacheConfig* D1,
                   const VP_CacheConfig* LL)
{
   Int i;

   VP_(sim_fini)();
   init_cache(&VP_(I1), I1, "vp.sim.I1", i1_static_tags, N_I1_STATIC_TAGS);
   init_cache(&VP_(D1), D1, "vp.sim.D1", NULL, 0);
   init_cache(&VP_(LL), LL, "vp.sim.LL", NULL, 0);

   VP_(bp_history) = 0;
   for (i = 0; i < VP_BP_N_COUNTERS; i++)
      VP_(bp_counters)[i] = 0;
   for (i = 0; i < VP_BP_N_TARGETS; i++)
      VP_(bp_targets)[i] = 0;
}

Int VP_(sim_min_line_size)(void)
{
   Int min = VP_(I1).config.line_size;

   if (VP_(D1).config.line_size < min) min = VP_(D1).config.line_size;
   if (VP_(LL).config.line_size < min) min = VP_(LL).config.line_size;
   return min;
}

void VP_(sim_fini)(void)
{
   VP_Cache* caches[3] = { &VP_(I1), &VP_(D1), &VP_(LL) };
   Int i;

   for (i = 0; i < 3; i++) {
      if (caches[i]->tags && caches[i]->tags != i1_static_tags)
         VG_(free)(caches[i]->tags);
      caches[i]->tags = NULL;
   }
}
