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
#include "pub_tool_hashtable.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_seqmatch.h"
#include "pub_tool_transtab.h"
#include "vp_data.h"

Bool VP_(instrumenting) = True;
Bool VP_(collecting)    = True;
Bool VP_(ending)        = False;

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
   state; while it is off, this is what the cells should hold.  Each
   record is the cell's address followed by the simulated counts it has
   room for, in one block allocated to size: collection goes off at the
   end of every run with the heap on (vp_alloc.c, for the C library's
   clean-up), when the cells are most numerous.  Only cells with a count
   are saved, the others being put back as zero: most cells hold an
   instruction that touches no data and never missed I1. */
static ULong* saved;        /* NULL: nothing saved (all zero) */
static Word   saved_words;

/* The first event the simulation helpers count: not Ir, which lives in
   the live segment counters until folded (vp_instr.c). */
static UInt first_simulated(void) { return VP_EV_IR + 1; }

/* A cell's simulated counts from event first on, zeros past its own. */
static void copy_counts(ULong* to, const VP_InstrCC* cc, UInt first)
{
   UInt e;
   for (e = first; e < VP_(n_events); e++)
      to[e - first] = VP_(cc_cost)(cc, e);
}

/* Puts them back. */
static void put_counts(VP_InstrCC* cc, const ULong* from, UInt first)
{
   UInt e;
   for (e = first; e < cc->n_costs; e++)
      cc->cost[e] = from[e - first];
}

/* How many simulated counts a cell has room for. */
static UInt n_simulated(const VP_InstrCC* cc, UInt first)
{
   return cc->n_costs > first ? cc->n_costs - first : 0;
}

static Bool any_simulated(const VP_InstrCC* cc, UInt first)
{
   UInt e;
   for (e = first; e < cc->n_costs; e++)
      if (cc->cost[e]) return True;
   return False;
}

static void save_simulated_counts(void)
{
   XArray* all   = VP_(all_instr_ccs)();
   UInt    first = first_simulated();
   Word    i, words = 0;
   ULong*  r;
   for (i = 0; i < VG_(sizeXA)(all); i++) {
      const VP_InstrCC* cc = *(VP_InstrCC**)VG_(indexXA)(all, i);
      if (any_simulated(cc, first))
         words += 1 + n_simulated(cc, first);
   }
   saved_words = words;
   saved = r = VG_(malloc)("vp.collect.saved", (words > 0 ? words : 1) * sizeof(ULong));
   for (i = 0; i < VG_(sizeXA)(all); i++) {
      VP_InstrCC* cc = *(VP_InstrCC**)VG_(indexXA)(all, i);
      if (!any_simulated(cc, first))
         continue;
      r[0] = (ULong)(Addr)cc;
      VG_(memcpy)(r + 1, cc->cost + first, n_simulated(cc, first) * sizeof(ULong));
      r += 1 + n_simulated(cc, first);
   }
   VG_(deleteXA)(all);
}

/* Once collection has ended, only the cells that ran since are saved,
   each as the first block holding it was entered (before any of the
   block's helpers count), with its simulated counts. */
typedef struct {
   VgHashNode  node;   /* key: the cell's address */
   ULong       cost[VP_MAX_EVENTS];
} SavedCell;

static VgHashTable* saved_cells;

void VP_(save_sb_cells)(const VP_SB* sb)
{
   UInt first = first_simulated();
   UInt i;
   for (i = 0; i < sb->n_instrs; i++) {
      VP_InstrCC* cc = VP_(sb_instr_cc)(sb)[i];
      if (VG_(HT_lookup)(saved_cells, (UWord)cc) != NULL)
         continue;
      SavedCell* s = VG_(malloc)("vp.collect.cell", sizeof(SavedCell));
      s->node.key = (UWord)cc;
      copy_counts(s->cost, cc, first);
      VG_(HT_add_node)(saved_cells, s);
   }
}

void VP_(collection_ends)(void)
{
   const VP_SB* now = VP_(callgraph_current_sb)();
   /* Without the call graph no block announces itself: all is saved. */
   if (!VP_(collecting) || !VP_(clo).call_graph || now == NULL) {
      VP_(set_collecting)(False);
      return;
   }
   VP_(fold_all)();
   saved_cells = VG_(HT_construct)("vp.collect.cells");
   VP_(ending) = True;
   VP_(save_sb_cells)(now);
   /* The data objects are few beside the cells: saved whole, as always. */
   VP_(data_set_collecting)(False);
   VP_(callgraph_set_collecting)(False);
   VP_(collecting) = False;
}

static void restore_saved_cells(void)
{
   UInt       first = first_simulated();
   SavedCell* s;
   VG_(HT_ResetIter)(saved_cells);
   while ((s = VG_(HT_Next)(saved_cells)) != NULL)
      put_counts((VP_InstrCC*)s->node.key, s->cost, first);
}

static void forget_saved_cells(void)
{
   VG_(HT_destruct)(saved_cells, VG_(free));
   saved_cells = NULL;
}

/* Every cell's simulated counts put back as they were saved. */
static void restore_all_cells(void)
{
   XArray* all   = VP_(all_instr_ccs)();
   UInt    first = first_simulated();
   Word    i;
   for (i = 0; i < VG_(sizeXA)(all); i++) {
      VP_InstrCC* cc = *(VP_InstrCC**)VG_(indexXA)(all, i);
      VG_(memset)(cc->cost + first, 0, n_simulated(cc, first) * sizeof(ULong));
   }
   VG_(deleteXA)(all);
   for (i = 0; saved && i < saved_words; i += 1 + n_simulated((VP_InstrCC*)(Addr)saved[i], first))
      put_counts((VP_InstrCC*)(Addr)saved[i], saved + i + 1, first);
}

/* Puts the cells' simulated counts back as they were saved: what was
   counted while collection was off goes. */
static void restore_simulated_counts(void)
{
   if (VP_(ending))
      restore_saved_cells();
   else
      restore_all_cells();
}

static void drop_saved_counts(void)
{
   if (saved) VG_(free)(saved);
   saved       = NULL;
   saved_words = 0;
}

void VP_(set_collecting)(Bool on)
{
   if (on == VP_(collecting))
      return;
   if (on) {
      VP_(drop_live_counts)();
      restore_simulated_counts();
      drop_saved_counts();
      if (VP_(ending)) {
         forget_saved_cells();
         VP_(ending) = False;
      }
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
   drop_saved_counts();
   if (VP_(ending))
      forget_saved_cells();
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
