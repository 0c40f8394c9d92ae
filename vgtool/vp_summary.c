/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_summary.c: the summary printed at exit, in cachegrind's layout for
   the counts and the cache and branch simulations and in DHAT's for the
   heap, followed by the allocators seen. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "vp_global.h"
#include "vp_compat.h"
#include "vp_heap.h"

static Int ulong_width(ULong n)
{
   Int w = 1;
   while (n >= 10) { n /= 10; w++; }
   return w + (w - 1) / 3;   /* room for the thousands separators */
}

static ULong total_of(const ULong* totals, const HChar* event)
{
   Int e = VP_(event_index)(event);
   return e < 0 ? 0 : totals[e];
}

static ULong max_u64(ULong a, ULong b) { return a > b ? a : b; }

/* The allocators whose calls made or freed blocks. */
static void print_allocators(void)
{
   UInt  i, n = VP_(alloc_n_families_seen)();
   HChar line[512];
   SizeT used = 0;
   line[0] = '\0';
   for (i = 0; i < n && used < sizeof line; i++)
      used += VG_(snprintf)(line + used, sizeof line - used, "%s%s", i ? ", " : "",
                            VP_(alloc_family_seen)(i));
   VG_(umsg)("Allocators: %s\n", n ? line : "none seen");
   if (n == 0)
      VP_(alloc_report_unknown)();
}

/* "%s %,Nllu" style lines: the widths come from the largest figure of
   each column, as cachegrind computes them. */
void VP_(print_summary)(const ULong* totals)
{
   HChar fmt[128];
   ULong ir = total_of(totals, "Ir"), i1 = total_of(totals, "I1mr"), il = total_of(totals, "ILmr");
   ULong dr = total_of(totals, "Dr"), d1r = total_of(totals, "D1mr"), dlr = total_of(totals, "DLmr");
   ULong dw = total_of(totals, "Dw"), d1w = total_of(totals, "D1mw"), dlw = total_of(totals, "DLmw");
   ULong bc = total_of(totals, "Bc"), bcm = total_of(totals, "Bcm"), bi = total_of(totals, "Bi"), bim = total_of(totals, "Bim");
   Int   l1 = ulong_width(ir), l2 = ulong_width(max_u64(dr, bc)), l3 = ulong_width(max_u64(dw, bi));

   if (VG_(clo_verbosity) == 0)
      return;
   VG_(sprintf)(fmt, "%%s %%,%dllu\n", l1);
   VG_(umsg)(fmt, VP_SUMMARY_I_REFS, ir);

   if (VP_(clo).cache_sim) {
      ULong d = dr + dw, d1 = d1r + d1w, dl = dlr + dlw;
      ULong ll = d1r + d1w + i1, llr = d1r + i1, llw = d1w;
      ULong llm = dlr + dlw + il, llmr = dlr + il, llmw = dlw;
      ULong ir_div = ir ? ir : 1;
      VG_(umsg)(fmt, "I1  misses:   ", i1);
      VG_(umsg)(fmt, "LLi misses:   ", il);
      VG_(umsg)("I1  miss rate: %*.2f%%\n", l1, i1 * 100.0 / ir_div);
      VG_(umsg)("LLi miss rate: %*.2f%%\n", l1, il * 100.0 / ir_div);
      VG_(umsg)("\n");

      VG_(sprintf)(fmt, "%%s %%,%dllu  (%%,%dllu rd   + %%,%dllu wr)\n", l1, l2, l3);
      VG_(umsg)(fmt, VP_SUMMARY_D_REFS, d, dr, dw);
      VG_(umsg)(fmt, "D1  misses:   ", d1, d1r, d1w);
      VG_(umsg)(fmt, "LLd misses:   ", dl, dlr, dlw);
      ULong d_div = d ? d : 1, dr_div = dr ? dr : 1, dw_div = dw ? dw : 1;
      VG_(umsg)("D1  miss rate: %*.1f%% (%*.1f%%     + %*.1f%%  )\n",
                l1, d1 * 100.0 / d_div, l2, d1r * 100.0 / dr_div, l3, d1w * 100.0 / dw_div);
      VG_(umsg)("LLd miss rate: %*.1f%% (%*.1f%%     + %*.1f%%  )\n",
                l1, dl * 100.0 / d_div, l2, dlr * 100.0 / dr_div, l3, dlw * 100.0 / dw_div);
      VG_(umsg)("\n");

      VG_(umsg)(fmt, "LL refs:      ", ll, llr, llw);
      VG_(umsg)(fmt, "LL misses:    ", llm, llmr, llmw);
      /* The same divisors as cachegrind, which has replaced a zero D or
         Dr or Dw total by 1 above; Ir is divided as it is. */
      VG_(umsg)("LL miss rate:  %*.1f%% (%*.1f%%     + %*.1f%%  )\n",
                l1, llm * 100.0 / (ir_div + d_div), l2, llmr * 100.0 / (ir_div + dr_div),
                l3, llmw * 100.0 / dw_div);
   }

   if (VP_(clo).heap) {
      VP_HeapTotals t;
      VP_(heap_totals)(&t);
      VG_(umsg)("\n");
      VG_(umsg)("Total:     %'llu bytes in %'llu blocks\n", t.tot_bytes, t.tot_blocks);
      VG_(umsg)("At t-gmax: %'llu bytes in %'llu blocks\n", t.gmax_bytes, t.gmax_blocks);
      VG_(umsg)("At t-end:  %'llu bytes in %'llu blocks\n", t.end_bytes, t.end_blocks);
      VG_(umsg)("Reads:     %'llu bytes\n", t.reads);
      VG_(umsg)("Writes:    %'llu bytes\n", t.writes);
      print_allocators();
   }

   if (VP_(clo).branch_sim) {
      ULong bc_div = bc ? bc : 1, bi_div = bi ? bi : 1;
      ULong b = bc_div + bi_div, bm = bcm + bim;
      VG_(sprintf)(fmt, "%%s %%,%dllu  (%%,%dllu cond + %%,%dllu ind)\n", l1, l2, l3);
      VG_(umsg)("\n");
      VG_(umsg)(fmt, "Branches:     ", b, bc_div, bi_div);
      VG_(umsg)(fmt, "Mispredicts:  ", bm, bcm, bim);
      VG_(umsg)("Mispred rate:  %*.1f%% (%*.1f%%     + %*.1f%%   )\n",
                l1, bm * 100.0 / b, l2, bcm * 100.0 / bc_div, l3, bim * 100.0 / bi_div);
   }
}
