/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_collect.c: collection control, with the meaning callgrind gives it.

   Instrumentation (--instr-atstart, VGPROF_START/STOP_INSTRUMENTATION):
   while off, code runs uninstrumented and nothing is seen at all; turning
   it on or off retranslates everything and starts the call stacks afresh.

   Collection (--collect-atstart, VGPROF_TOGGLE_COLLECT, --toggle-collect):
   while off, calls are still followed but no cost is kept.  Live segment
   counters always count; switching collection off folds them into the
   instruction cells (keeping what ran while collecting) and switching it
   on clears them (dropping what ran while not), so the inline counting
   never has to test a flag.  The data objects' counts (vp_data.c) are
   saved and put back in the same way as the cells' simulated counts. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_seqmatch.h"
#include "pub_tool_transtab.h"
#include "vp_data.h"

Bool VP_(instrumenting) = True;
Bool VP_(collecting)    = True;

/* Per function: 0 not yet matched, 1 toggles collection, 2 does not. */
static XArray* toggles;

void VP_(init_collect)(void)
{
   VP_(instrumenting) = VP_(clo).instr_atstart;
   VP_(collecting)    = VP_(clo).collect_atstart;
   VP_(callgraph_set_collecting)(VP_(collecting));
   toggles = VG_(newXA)(VG_(malloc), "vp.collect.toggles", VG_(free), sizeof(UChar));
}

void VP_(set_instrumenting)(Bool on, const HChar* why)
{
   if (on == VP_(instrumenting))
      return;
   VP_(instrumenting) = on;
   /* Code translated in the other state must go; its counters are folded
      by the discard callback. */
   VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "vgprof");
   VP_(callgraph_reset_stacks)();
   if (VG_(clo_verbosity) > 1)
      VG_(message)(Vg_DebugMsg, "vgprof: %s: instrumentation switched %s\n",
                   why, on ? "on" : "off");
}

/* The simulated events' counts of every cell when collection went off.
   The simulation helpers count into the cells whatever the collection
   state; while it is off, this is what the cells should hold. */
typedef struct {
   VP_InstrCC* cc;
   ULong       cost[VP_MAX_EVENTS];
} Saved;

static XArray* saved;   /* of Saved; NULL: nothing saved (all zero) */

static void save_simulated_counts(void)
{
   XArray* all = VP_(all_instr_ccs)();
   Word    i;
   saved = VG_(newXA)(VG_(malloc), "vp.collect.saved", VG_(free), sizeof(Saved));
   for (i = 0; i < VG_(sizeXA)(all); i++) {
      Saved s;
      s.cc = *(VP_InstrCC**)VG_(indexXA)(all, i);
      VG_(memcpy)(s.cost, s.cc->cost, VP_(n_events) * sizeof(ULong));
      VG_(addToXA)(saved, &s);
   }
   VG_(deleteXA)(all);
}

/* Puts the cells' simulated counts back as they were saved: what was
   counted while collection was off goes.  Ir is among them when the
   cache is simulated (the fetch helpers count it); otherwise it lives in
   the live segment counters until folded, and is not touched here. */
static void restore_simulated_counts(void)
{
   XArray* all   = VP_(all_instr_ccs)();
   UInt    first = VP_(clo).cache_sim ? 0 : 1;
   SizeT   bytes = (VP_(n_events) - first) * sizeof(ULong);
   Word    i;
   for (i = 0; i < VG_(sizeXA)(all); i++) {
      VP_InstrCC* cc = *(VP_InstrCC**)VG_(indexXA)(all, i);
      VG_(memset)(cc->cost + first, 0, bytes);
   }
   VG_(deleteXA)(all);
   for (i = 0; saved && i < VG_(sizeXA)(saved); i++) {
      Saved* s = VG_(indexXA)(saved, i);
      VG_(memcpy)(s->cc->cost + first, s->cost + first, bytes);
   }
}

void VP_(set_collecting)(Bool on)
{
   if (on == VP_(collecting))
      return;
   if (on) {
      VP_(drop_live_counts)();
      restore_simulated_counts();
      if (saved) VG_(deleteXA)(saved);
      saved = NULL;
   } else {
      VP_(fold_all)();
      save_simulated_counts();
   }
   VP_(data_set_collecting)(on);
   VP_(callgraph_set_collecting)(on);
   VP_(collecting) = on;
}

/* Everything counted so far is forgotten: if collection is off, so is
   what was saved when it went off. */
void VP_(forget_saved_counts)(void)
{
   if (saved) VG_(deleteXA)(saved);
   saved = NULL;
   VP_(data_forget_saved)();
}

/* Brings the instruction cells up to date, whatever the collection state. */
void VP_(settle_counts)(void)
{
   if (VP_(collecting)) {
      VP_(fold_all)();
   } else {
      VP_(drop_live_counts)();
      restore_simulated_counts();
   }
   VP_(data_settle)();
}

Bool VP_(fn_toggles_collection)(UInt fn)
{
   UChar unknown = 0;
   Word  i;
   if (VG_(sizeXA)(VP_(clo).toggle_collect) == 0)
      return False;
   while ((UInt)VG_(sizeXA)(toggles) <= fn)
      VG_(addToXA)(toggles, &unknown);
   UChar* t = VG_(indexXA)(toggles, fn);
   if (*t == 0) {
      const HChar* name = VP_(str)(VP_(fn)(fn)->name);
      *t = 2;
      for (i = 0; i < VG_(sizeXA)(VP_(clo).toggle_collect); i++)
         if (VG_(string_match)(*(const HChar**)VG_(indexXA)(VP_(clo).toggle_collect, i), name))
            *t = 1;
   }
   return *t == 1;
}
