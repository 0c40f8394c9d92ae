/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_bench.c: how long the simulator takes per reference, to decide
   whether its hot functions must be inlined (see the head of
   vgtool/vp_sim.h for the figures).  Build it twice, as is and with
   -D'VP_SIM_INLINE=static __attribute__((noinline, unused))', and compare.
   The stream mixes instruction fetches (fast path) and data references
   of 1-8 bytes over a 16 MB footprint, so D1 and LL both miss. */

#include <stdio.h>
#include <time.h>

#include "vp_sim.h"
#include "vp_shim.h"

int main(void)
{
   VP_CacheConfig I1 = VP_DEFAULT_I1, D1 = VP_DEFAULT_D1, LL = VP_DEFAULT_LL;
   ULong  im1 = 0, imL = 0, dm1 = 0, dmL = 0, x = 12345;
   Addr   pc = 0x400000;
   long   i, n = 1L << 27;
   struct timespec t0, t1;

   VP_(sim_init)(&I1, &D1, &LL);
   clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
   for (i = 0; i < n; i++) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      pc = 0x400000 + ((pc + 4) & 0xffff);
      VP_(sim_I1_ref_last)(pc & ~(Addr)3, 4, &im1, &imL);
      /* Mostly near references, one in eight anywhere in 16 MB. */
      Addr a = 0x10000000 + ((x >> 40) & ((x & 7) ? 0xffff : 0xffffff));
      VP_(sim_D1_ref)(a, 1 + ((x >> 20) & 7), &dm1, &dmL);
   }
   clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
   printf("%ld fetches + %ld data refs: %.3f s CPU (I1 %llu/%llu, D1 %llu/%llu misses)\n",
          n, n, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
          im1, imL, dm1, dmL);
   return 0;
}
