/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_instr.c: instruments superblocks to count executed instructions and,
   with the call graph on, to tell vp_callgraph.c where control went.

   A superblock is cut into segments at its side exits, exactly where
   cachegrind flushes its pending events.  Each segment gets one 64-bit
   counter, bumped by inline IR (load, add, store) when control reaches the
   segment's end; no helper call is made for counting.  Every instruction
   of a segment has executed once per increment, so an instruction's Ir is
   the sum of its segments' counters over all the translations that held
   it.  Counters are folded into per-instruction cells when a translation
   is discarded and at exit.  With the cache simulated too: most
   instructions then make no simulated fetch (vp_events.c elides those
   that stay in the line the one before them ended in), so no helper runs
   for them to count them.

   With the heap profiled and no call graph, each segment also adds its
   length to the instruction clock VP_(heap_time); the first instruction
   of each function of the allocator, and every return, get the calls by
   which vp_alloc.c sees the allocator at work.

   With the call graph on, each segment also adds its length to the running
   total VP_(total), each exit stores its number in VP_(cur_exit), and one
   helper call at the start of the superblock receives the stack pointer:
   that is all the call tracking needs to see calls, returns and jumps.
   The call is guarded: a block entered by a plain jump from its own
   function, with the top frame not left, needs none, and an inline test
   of what the exit stored tells it so. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "vp_data.h"

ULong  VP_(total)[VP_MAX_EVENTS];
UInt   VP_(n_events) = 1;
UWord  VP_(cur_exit) = VP_NO_CONTEXT << VP_EXIT_BITS;
VP_SB* VP_(cur_sb);
VP_InstrCC* VP_(call_cc);
Addr   VP_(entry_sp_limit);

/* Live translations, by (code address, address before redirection): two
   functions redirected to one replacement have one code address, and
   Valgrind names a translation by the address before redirection when it
   discards it. */
static VgHashTable* sb_table;
static VgHashTable* instr_table;  /* VP_InstrCC, by instruction address */
/* Cells replaced by a wider one (an instruction translated again with
   accesses its first translation did not have): translations made before
   still count into them, and what they count is moved into the wider
   cell, their next, whenever the cells are listed.  In the order of
   replacement, so that a cell replaced twice passes its counts on. */
static XArray*      narrow_ccs;
/* Translations Valgrind never reports discarding (those made without
   redirection, for function wrapping, share both addresses with another):
   kept, never freed, so their counters stay valid. */
static XArray*      sb_twins;

static UWord sb_key(Addr orig_addr, Addr nraddr)
{
   return orig_addr ^ (nraddr * 0x9E3779B97F4A7C15UL);
}

static Word cmp_sb(const void* a, const void* b)
{
   const VP_SB* x = a;
   const VP_SB* y = b;
   return !(x->orig_addr == y->orig_addr && x->nraddr == y->nraddr);
}

void VP_(init_instr)(void)
{
   sb_table    = VG_(HT_construct)("vp.instr.sbs");
   instr_table = VG_(HT_construct)("vp.instr.ccs");
   narrow_ccs  = VG_(newXA)(VG_(malloc), "vp.instr.narrow", VG_(free),
                            sizeof(VP_InstrCC*));
   sb_twins    = VG_(newXA)(VG_(malloc), "vp.instr.twins", VG_(free),
                            sizeof(VP_SB*));
}

static VP_SB* new_sb(Addr orig_addr, UInt n_instrs, UInt n_exits, UInt n_switches)
{
   /* At most one segment ends at each exit and each switch of function. */
   UInt   max_segs = n_exits + n_switches;
   tl_assert(n_instrs <= 0xFFFF && n_exits <= 0xFFFF && max_segs <= 0xFFFF);
   VP_SB* sb = VG_(calloc)("vp.instr.sb", 1, VP_(sb_bytes)(n_instrs, n_exits, max_segs));

   sb->orig_addr  = orig_addr;
   sb->nraddr     = orig_addr;
   sb->n_instrs   = (UShort)n_instrs;
   sb->n_exits    = (UShort)n_exits;
   sb->max_segs   = (UShort)max_segs;
   return sb;
}

void* VP_(perm_alloc)(SizeT size)
{
   static UChar* chunk;
   static SizeT  left;
   const SizeT   chunk_size = 256 * 1024;
   size = (size + 7) & ~(SizeT)7;
   if (size > chunk_size / 16)
      return VG_(calloc)("vp.perm.big", 1, size);
   if (size > left) {
      /* Not zeroed as a whole: the newest chunk's pages are touched only
         as records are carved out of them. */
      chunk = VG_(malloc)("vp.perm", chunk_size);
      left  = chunk_size;
   }
   void* p = chunk;
   chunk += size;
   left  -= size;
   VG_(memset)(p, 0, size);
   return p;
}

static Word cmp_cc_epoch(const void* a, const void* b)
{
   return ((const VP_InstrCC*)a)->epoch != ((const VP_InstrCC*)b)->epoch;
}

static Word cmp_cc_loc(const void* a, const void* b)
{
   const VP_Loc* x = &((const VP_InstrCC*)a)->loc;
   const VP_Loc* y = &((const VP_InstrCC*)b)->loc;
   return !(x->fn == y->fn && x->file == y->file && x->line == y->line && x->inl == y->inl);
}

static Word cmp_cc_same(const void* a, const void* b) { return a != b; }

/* Whether a cell of n_costs counters is preceded by its pair of the data
   objects: only one that may access data needs it (most cells hold an
   instruction that touches no data). */
static Bool cc_has_data_fn(UInt n_costs)
{
   return VP_(data_on) && VP_(cc_width_has_data)(n_costs);
}

/* A cell like model (its pair of the data objects aside), zeroed. */
static VP_InstrCC* new_cc(const VP_InstrCC* model, UInt n_costs)
{
   SizeT       pre = cc_has_data_fn(n_costs) ? sizeof(struct _VP_FnData*) : 0;
   UChar*      p   = VP_(perm_alloc)(pre + sizeof(VP_InstrCC) + n_costs * sizeof(ULong));
   VP_InstrCC* cc  = (VP_InstrCC*)(p + pre);
   cc->addr    = model->addr;
   cc->len     = model->len;
   cc->epoch   = model->epoch;
   cc->loc     = model->loc;
   cc->n_costs = (UShort)n_costs;
   VG_(HT_add_node)(instr_table, cc);
   return cc;
}

/* A wider cell takes narrow's place for the translations to come. */
static VP_InstrCC* widen(VP_InstrCC* narrow, UInt n_costs)
{
   VG_(HT_gen_remove)(instr_table, narrow, cmp_cc_same);
   VP_InstrCC* cc = new_cc(narrow, n_costs);
   if (cc_has_data_fn(narrow->n_costs))
      *VP_(cc_data_fn)(cc) = *VP_(cc_data_fn)(narrow);
   narrow->next = cc;
   VG_(addToXA)(narrow_ccs, &narrow);
   return cc;
}

/* Moves what the replaced cells counted into the cells that replaced them. */
static void merge_narrow_ccs(void)
{
   Word i;
   UInt e;
   for (i = 0; i < VG_(sizeXA)(narrow_ccs); i++) {
      VP_InstrCC* cc = *(VP_InstrCC**)VG_(indexXA)(narrow_ccs, i);
      for (e = 0; e < cc->n_costs; e++) {
         cc->next->cost[e] += cc->cost[e];
         cc->cost[e] = 0;
      }
   }
}

/* The cell for an instruction at its current debug-info location, with
   at least n_costs counters; code unloaded and replaced at the same
   address gets a cell of its own. */
static VP_InstrCC* instr_cc_for(Addr a, UInt len, UInt n_costs)
{
   VP_InstrCC  probe;
   VP_InstrCC* cc;
   probe.addr  = a;
   probe.len   = (UShort)len;
   probe.epoch = VG_(current_DiEpoch)().n;

   /* Code is translated again and again (evictions, discards); while the
      debug info has not changed, the location found last time stands,
      and the debug-info queries, the costliest part of translating, are
      skipped. */
   cc = VG_(HT_gen_lookup)(instr_table, &probe, cmp_cc_epoch);
   if (cc == NULL) {
      probe.loc = VP_(loc_of_instr)(a);
      cc = VG_(HT_gen_lookup)(instr_table, &probe, cmp_cc_loc);
      if (cc == NULL)
         return new_cc(&probe, n_costs);
      cc->epoch = probe.epoch;
   }
   return cc->n_costs < n_costs ? widen(cc, n_costs) : cc;
}

IRExpr* VP_(ir_atom)(IRSB* sbOut, IRExpr* value)
{
   IRTemp t = newIRTemp(sbOut->tyenv, typeOfIRExpr(sbOut->tyenv, value));
   addStmtToIRSB(sbOut, IRStmt_WrTmp(t, value));
   return IRExpr_RdTmp(t);
}

/* The tool's own globals (the running totals, the exit word, the block
   running) lie in its image, below 2 GB, within reach of a sign-extended
   32-bit displacement.  VEX's amd64 back end has no absolute addressing:
   an access through a constant address loads the 64-bit address into a
   register first (10 bytes), twice for a counter's load and store.  So
   a block reads a zero word into a register once, at its first access to
   a global, and addresses every global as that register plus the
   global's address: 6 bytes less per access, for one load per block
   (sqlite3's translated code: 39 bytes less per block on average). */
static const HWord zero_word = 0;
static IRSB*       zero_sb;     /* the block zero_reg belongs to */
static IRExpr*     zero_reg;    /* its temporary holding zero_word, or NULL */

/* The address where, in the block being built. */
static IRExpr* ir_addr(IRSB* sbOut, const void* where)
{
   if (sizeof(HWord) != 8 || (HWord)where >= 0x80000000UL)
      return mkIRExpr_HWord((HWord)where);
   if (sbOut != zero_sb || zero_reg == NULL) {
      zero_sb  = sbOut;
      zero_reg = VP_(ir_atom)(sbOut, IRExpr_Load(VP_ENDIAN, Ity_I64,
                                                 mkIRExpr_HWord((HWord)&zero_word)));
   }
   /* Used once, the sum becomes the access's displacement and base. */
   return VP_(ir_atom)(sbOut, IRExpr_Binop(Iop_Add64, zero_reg, mkIRExpr_HWord((HWord)where)));
}

IRExpr* VP_(ir_load_word)(IRSB* sbOut, const void* where)
{
   IRType ty = sizeof(HWord) == 8 ? Ity_I64 : Ity_I32;
   return VP_(ir_atom)(sbOut, IRExpr_Load(VP_ENDIAN, ty, ir_addr(sbOut, where)));
}

/* *counter += delta, as inline IR. */
static void add_increment(IRSB* sbOut, ULong* counter, ULong delta)
{
   IRTemp old = newIRTemp(sbOut->tyenv, Ity_I64);
   IRTemp new = newIRTemp(sbOut->tyenv, Ity_I64);
   addStmtToIRSB(sbOut, IRStmt_WrTmp(old, IRExpr_Load(VP_ENDIAN, Ity_I64,
                                                       ir_addr(sbOut, counter))));
   addStmtToIRSB(sbOut, IRStmt_WrTmp(new, IRExpr_Binop(Iop_Add64,
                           IRExpr_RdTmp(old), IRExpr_Const(IRConst_U64(delta)))));
   addStmtToIRSB(sbOut, IRStmt_Store(VP_ENDIAN, ir_addr(sbOut, counter), IRExpr_RdTmp(new)));
}

static void store_word(IRSB* sbOut, void* where, HWord value)
{
   addStmtToIRSB(sbOut, IRStmt_Store(VP_ENDIAN, ir_addr(sbOut, where), mkIRExpr_HWord(value)));
}

/* The block context a block entered through this exit must have to be
   settled inline: vp_callgraph.c's own test for a jump that changes
   nothing (a plain jump, into the function the block ended in, between
   code of one kind in one object), whose half about this block is known
   now.  A return, a call by the final exit and a PLT stub's jump (not the
   lazy-binding resolver's) are marked as such: their hook then reads
   little or nothing of the block they left. */
static UWord exit_context(const VP_SB* sb, UInt exit, VP_JumpKind jk)
{
   if (jk == VP_JK_RET)
      return VP_RET_CONTEXT;
   if (jk == VP_JK_CALL && exit == sb->n_exits - 1)
      return VP_CALL_CONTEXT;
   if (jk == VP_JK_JUMP && sb->in_plt && !sb->pop_on_jump)
      return VP_PLT_JUMP_CONTEXT;
   if (jk != VP_JK_JUMP || VP_(fn)(sb->end_fn)->obj != sb->obj)
      return VP_NO_CONTEXT;
   return VP_(block_context)(sb->end_fn, sb->in_plt);
}

static void add_exit_number(IRSB* sbOut, const VP_SB* sb, UInt exit, VP_JumpKind jk)
{
   UWord context = exit_context(sb, exit, jk);
   if (context == VP_CALL_CONTEXT)
      store_word(sbOut, &VP_(call_cc), (HWord)VP_(sb_instr_cc)(sb)[VP_(sb_exit_instr)(sb)[exit]]);
   store_word(sbOut, &VP_(cur_exit), (context << VP_EXIT_BITS) | exit);
}

/* Ends the current segment: count it, and its length into the total. */
static void end_segment(IRSB* sbOut, VP_SB* sb, UInt length)
{
   sb->n_segs++;
   if (VP_(clo).heap && !VP_(clo).call_graph)
      add_increment(sbOut, &VP_(heap_time), length);
   add_increment(sbOut, &VP_(sb_seg_count)(sb)[sb->n_segs - 1], 1);
   if (VP_(clo).call_graph)
      add_increment(sbOut, &VP_(total)[VP_EV_IR], length);
}

static VP_JumpKind jump_kind(IRJumpKind jk)
{
   return jk == Ijk_Call ? VP_JK_CALL : jk == Ijk_Ret ? VP_JK_RET : VP_JK_JUMP;
}

/* What the call tracking needs to know about where the block is; fn and
   end_fn are the functions of its first and last instructions. */
static void describe_sb(VP_SB* sb, Addr a, UInt fn, UInt end_fn)
{
   DiEpoch      ep = VG_(current_DiEpoch)();
   const HChar* name;
   PtrdiffT     offset;

   sb->fn          = fn;
   sb->end_fn      = end_fn;
   sb->obj         = VP_(fn)(sb->fn)->obj;
   sb->is_entry    = VP_(is_fn_entry)(a);
   sb->in_plt      = VG_(DebugInfo_sect_kind)(NULL, a) == Vg_SectPLT;
   sb->pop_on_jump = VG_(get_fnname)(ep, a, &name)
                     && VG_(strncmp)(name, "_dl_runtime_resolve", 19) == 0;
   (void)offset;
}

/* Whether the block must call VP_(sb_entry): most blocks are entered by
   a plain jump from a block of their own function, with the top frame's
   stack pointer not left, and need no call-graph work at all; that is
   tested here, inline, from what the exit taken stored (VP_(cur_exit))
   and VP_(entry_sp_limit), so the call is made only when it is needed.
   Computed with 64-bit arithmetic: a mismatch in either test makes the
   word nonzero.  The context's test shifts the exit number out of the
   difference; the stack pointer's takes the sign of limit - sp (both are
   user-space addresses, or the limit 0), shorter code than a comparison
   made a word. */
static IRExpr* entry_needs_call(IRSB* sbOut, const VP_SB* sb, IRExpr* sp)
{
   UWord   want  = VP_(block_context)(sb->fn, sb->in_plt) << VP_EXIT_BITS;
   IRExpr* word  = VP_(ir_load_word)(sbOut, &VP_(cur_exit));
   IRExpr* limit = VP_(ir_load_word)(sbOut, &VP_(entry_sp_limit));
   IRExpr* diff  = VP_(ir_atom)(sbOut, IRExpr_Binop(Iop_Xor64, word,
                                                    IRExpr_Const(IRConst_U64(want))));
   IRExpr* other = VP_(ir_atom)(sbOut, IRExpr_Binop(Iop_Shr64, diff,
                                                    IRExpr_Const(IRConst_U8(VP_EXIT_BITS))));
   IRExpr* room  = VP_(ir_atom)(sbOut, IRExpr_Binop(Iop_Sub64, limit, sp));
   IRExpr* above = VP_(ir_atom)(sbOut, IRExpr_Binop(Iop_Shr64, room, IRExpr_Const(IRConst_U8(63))));
   IRExpr* any   = VP_(ir_atom)(sbOut, IRExpr_Binop(Iop_Or64, other, above));
   return VP_(ir_atom)(sbOut, IRExpr_Binop(Iop_CmpNE64, any, IRExpr_Const(IRConst_U64(0))));
}

/* The call-graph hook at the block's start, and the block's record as
   the one running: a block that starts a function always calls the hook. */
static void add_entry_call(IRSB* sbOut, VP_SB* sb, const VexGuestLayout* layout,
                           IRType hWordTy)
{
   /* Helper arguments must be atoms: read the stack pointer into a temp. */
   IRExpr*  sp   = VP_(ir_atom)(sbOut, IRExpr_Get(layout->offset_SP, hWordTy));
   UWord    flags  = (sb->in_plt ? VP_ENTERED_IN_PLT : 0) | (sb->is_entry ? VP_ENTERED_IS_ENTRY : 0);
   tl_assert(((HWord)sb & VP_ENTERED_FLAGS) == 0);
   IRExpr** args = mkIRExprVec_2(mkIRExpr_HWord((HWord)sb | flags), sp);
   IRDirty* di = unsafeIRDirty_0_N(0, "vgprof_sb_entry",
                                   VG_(fnptr_to_fnentry)(&VP_(sb_entry)), args);
   if (!sb->is_entry)
      di->guard = entry_needs_call(sbOut, sb, sp);
   addStmtToIRSB(sbOut, IRStmt_Dirty(di));
   /* Exit 0 until another is taken, in case the block faults before. */
   store_word(sbOut, &VP_(cur_sb), (HWord)sb);
   store_word(sbOut, &VP_(cur_exit), VP_NO_CONTEXT << VP_EXIT_BITS);
}

/* A block whose code runs on into another function's (no call, no
   jump: the first function ends where the second begins) tells the call
   graph where that happens. */
static void add_fn_switch(IRSB* sbOut, UInt fn)
{
   IRExpr** args = mkIRExprVec_1(mkIRExpr_HWord((HWord)fn));
   IRDirty* di   = unsafeIRDirty_0_N(1, "vgprof_fn_switch",
                                     VG_(fnptr_to_fnentry)(&VP_(fn_switch)), args);
   addStmtToIRSB(sbOut, IRStmt_Dirty(di));
}

IRSB* VP_(instrument)(VgCallbackClosure* closure, IRSB* sbIn,
                      const VexGuestLayout* layout,
                      const VexGuestExtents* vge,
                      const VexArchInfo* archinfo_host,
                      IRType gWordTy, IRType hWordTy)
{
   Int  i, first;
   UInt n_instrs = 0, n_side_exits = 0, instr = 0, pending = 0, exit = 0;

   if (gWordTy != hWordTy)
      VG_(tool_panic)("host/guest word size mismatch");
   if (!VP_(instrumenting))
      return sbIn;

   IRSB* sbOut = deepCopyIRSBExceptStmts(sbIn);
   zero_reg = NULL;

   /* The preamble before the first IMark belongs to no instruction. */
   for (i = 0; i < sbIn->stmts_used && sbIn->stmts[i]->tag != Ist_IMark; i++)
      addStmtToIRSB(sbOut, sbIn->stmts[i]);
   first = i;
   /* A block translated because a call went there, or a jump from another
      object's code (as a JIT runtime's builtins enter its code), starts a
      function, which code without a symbol or a map is named by.  The
      exit taken last is the one that led here: translation happens when
      a jump finds no translation. */
   if (VP_(clo).call_graph) {
      UWord ctx = VP_(cur_exit) >> VP_EXIT_BITS;
      if (ctx == VP_CALL_CONTEXT
          || (ctx != VP_RET_CONTEXT && VP_(cur_sb) != NULL
              && VP_(cur_sb)->obj != VP_(intern_str)(VP_(unknown))))
         VP_(note_call_target)((Addr)closure->readdr);
   }
   UInt n_switches = 0, fn = VP_NO_ID, first_fn = VP_NO_ID;
   for (i = first; i < sbIn->stmts_used; i++) {
      const IRStmt* st = sbIn->stmts[i];
      if (st->tag == Ist_IMark) {
         UInt len = VP_(imark_len)(st);
         UInt now = instr_cc_for(st->Ist.IMark.addr, len,
                                 VP_(events_cost_width)(sbIn, i))->loc.fn;
         if (n_instrs > 0 && now != fn) n_switches++;
         if (n_instrs == 0) first_fn = now;
         fn = now;
         n_instrs++;
      }
      if (st->tag == Ist_Exit)  n_side_exits++;
   }
   tl_assert(n_instrs > 0);
   if (!VP_(clo).call_graph) n_switches = 0;

   VP_SB* sb = new_sb((Addr)closure->readdr, n_instrs, n_side_exits + 1, n_switches);
   sb->nraddr = (Addr)closure->nraddr;
   sb->key    = sb_key(sb->orig_addr, sb->nraddr);
   Bool   simulate = VP_(clo).cache_sim || VP_(clo).branch_sim || VP_(clo).heap;
   if (VP_(clo).call_graph) {
      describe_sb(sb, sb->orig_addr, first_fn, fn);
      add_entry_call(sbOut, sb, layout, hWordTy);
   }
   if (simulate)
      VP_(events_begin)(sbOut, layout->offset_SP);

   for (i = first; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      Bool    alloc_entry = False;
      if (st->tag == Ist_IMark) {
         UInt len = VP_(imark_len)(st);
         VP_(sb_instr_cc)(sb)[instr]  = instr_cc_for(st->Ist.IMark.addr, len,
                                             VP_(events_cost_width)(sbIn, i));
         if (n_switches > 0 && instr > 0
             && VP_(sb_instr_cc)(sb)[instr]->loc.fn != VP_(sb_instr_cc)(sb)[instr - 1]->loc.fn) {
            /* Code falling through into another function's: what ran
               before is counted, then the call graph is told. */
            if (simulate)
               VP_(events_flush)();
            if (pending > 0)
               end_segment(sbOut, sb, pending);
            pending = 0;
            add_fn_switch(sbOut, VP_(sb_instr_cc)(sb)[instr]->loc.fn);
         }
         VP_(sb_instr_seg)(sb)[instr] = sb->n_segs;
         /* The accesses queued before a call of the allocator starts are
            the program's: they go out before the call is seen. */
         alloc_entry = VP_(clo).heap && VP_(alloc_is_entry)(st->Ist.IMark.addr);
         if (alloc_entry)
            VP_(events_flush)();
         if (simulate)
            VP_(events_instr)(VP_(sb_instr_cc)(sb)[instr], st->Ist.IMark.addr, len);
         instr++;
         pending++;
      } else if (simulate) {
         VP_(events_stmt)(st, sbIn->tyenv, hWordTy);
      }
      if (st->tag == Ist_Exit) {
         /* Control may leave here: count what ran before it. */
         if (pending > 0)
            end_segment(sbOut, sb, pending);
         pending = 0;
         VP_(sb_exit_jk)(sb)[exit]    = jump_kind(st->Ist.Exit.jk);
         VP_(sb_exit_instr)(sb)[exit] = instr - 1;
         if (VP_(clo).call_graph)
            add_exit_number(sbOut, sb, exit, VP_(sb_exit_jk)(sb)[exit]);
         exit++;
      }
      addStmtToIRSB(sbOut, st);
      if (alloc_entry)
         VP_(alloc_add_entry_hook)(sbOut, st->Ist.IMark.addr, layout);
   }
   if (simulate)
      VP_(events_end)(sbIn);
   if (pending > 0)
      end_segment(sbOut, sb, pending);
   if (VP_(clo).heap)
      VP_(alloc_add_return_hook)(sbOut, sbIn, layout);
   VP_(sb_exit_jk)(sb)[exit]    = jump_kind(sbIn->jumpkind);
   VP_(sb_exit_instr)(sb)[exit] = instr - 1;
   if (VP_(clo).call_graph)
      add_exit_number(sbOut, sb, exit, VP_(sb_exit_jk)(sb)[exit]);

   tl_assert(instr == n_instrs && exit == n_side_exits);
   if (VG_(HT_gen_lookup)(sb_table, sb, cmp_sb) == NULL)
      VG_(HT_add_node)(sb_table, sb);
   else
      VG_(addToXA)(sb_twins, &sb);
   return sbOut;
}

static void clear_sb(VP_SB* sb)
{
   VG_(memset)(VP_(sb_seg_count)(sb), 0, sb->n_segs * sizeof(ULong));
}

static void fold_sb(VP_SB* sb)
{
   UInt i;
   for (i = 0; i < sb->n_instrs; i++)
      VP_(sb_instr_cc)(sb)[i]->cost[VP_EV_IR] += VP_(sb_seg_count)(sb)[VP_(sb_instr_seg)(sb)[i]];
   clear_sb(sb);
}

static void for_each_sb(void (*f)(VP_SB*))
{
   VP_SB* sb;
   Word   i;
   VG_(HT_ResetIter)(sb_table);
   while ((sb = VG_(HT_Next)(sb_table)) != NULL)
      f(sb);
   for (i = 0; i < VG_(sizeXA)(sb_twins); i++)
      f(*(VP_SB**)VG_(indexXA)(sb_twins, i));
}

void VP_(discard_sb)(Addr orig_addr, VexGuestExtents vge)
{
   VP_SB  probe;
   probe.orig_addr = vge.base[0];
   probe.nraddr    = orig_addr;
   probe.key       = sb_key(probe.orig_addr, probe.nraddr);
   VP_SB* sb = VG_(HT_gen_remove)(sb_table, &probe, cmp_sb);
   if (sb == NULL)
      return;
   if (VP_(collecting))
      fold_sb(sb);
   VP_(forget_sb)(sb);
   VG_(free)(sb);
}

void VP_(fold_all)(void)         { for_each_sb(fold_sb); }

/* Clears the live counters without keeping what they counted. */
void VP_(drop_live_counts)(void) { for_each_sb(clear_sb); }

/* Forgets every cost counted so far, live counters and cells alike. */
void VP_(zero_all)(void)
{
   XArray* all = VP_(all_instr_ccs)();
   Word    i;
   VP_(drop_live_counts)();
   VP_(forget_saved_counts)();
   for (i = 0; i < VG_(sizeXA)(all); i++) {
      VP_InstrCC* cc = *(VP_InstrCC**)VG_(indexXA)(all, i);
      VG_(memset)(cc->cost, 0, cc->n_costs * sizeof(ULong));
   }
   VG_(deleteXA)(all);
   VP_(data_zero)();
}

XArray* VP_(all_instr_ccs)(void)
{
   XArray*     all = VG_(newXA)(VG_(malloc), "vp.instr.all", VG_(free),
                                sizeof(VP_InstrCC*));
   VP_InstrCC* cc;
   merge_narrow_ccs();
   /* Sized at once: a copy of every cell's address is the largest
      transient the tool makes, at the end of the run. */
   VG_(hintSizeXA)(all, (Word)VG_(HT_count_nodes)(instr_table));
   VG_(HT_ResetIter)(instr_table);
   while ((cc = VG_(HT_Next)(instr_table)) != NULL)
      VG_(addToXA)(all, &cc);
   return all;
}

void VP_(cc_costs)(const VP_InstrCC* cc, ULong* costs)
{
   UInt e;
   for (e = 0; e < VP_(n_events); e++)
      costs[e] = VP_(cc_cost)(cc, e);
}
