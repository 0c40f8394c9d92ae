/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_instr.c: instruments superblocks to count executed instructions.

   A superblock is cut into segments at its side exits, exactly where
   cachegrind flushes its pending events.  Each segment gets one 64-bit
   counter, bumped by three inline IR statements (load, add, store) when
   control reaches the segment's end; no helper call is made.  Every
   instruction of a segment has executed once per increment, so an
   instruction's Ir is the sum of its segments' counters over all the
   translations that held it.  Counters are folded into per-instruction
   cells when a translation is discarded and at exit. */

#include "pub_tool_basics.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "vp_global.h"

/* Static information about one translation, allocated in one piece. */
typedef struct _SBInfo {
   struct _SBInfo* next;        /* hash chain; must come first */
   UWord           orig_addr;   /* hash key; must come second */
   UInt            n_instrs;
   UInt            n_segs;
   ULong*          seg_count;   /* [n_segs] completions of each segment */
   VP_InstrCC**    instr_cc;    /* [n_instrs] */
   UInt*           instr_seg;   /* [n_instrs] segment of each instruction */
} SBInfo;

static VgHashTable* sb_table;     /* live translations, by guest address */
static VgHashTable* instr_table;  /* VP_InstrCC, by instruction address */
/* Translations whose address was already in sb_table (Valgrind can hold a
   redirected and an unredirected translation of one address).  Never
   freed: nothing tells us when they die, and their counters must stay. */
static XArray*      sb_twins;

void VP_(init_instr)(void)
{
   sb_table    = VG_(HT_construct)("vp.instr.sbs");
   instr_table = VG_(HT_construct)("vp.instr.ccs");
   sb_twins    = VG_(newXA)(VG_(malloc), "vp.instr.twins", VG_(free),
                            sizeof(SBInfo*));
}

static SBInfo* new_sb_info(Addr orig_addr, UInt n_instrs, UInt max_segs)
{
   SizeT   sz = sizeof(SBInfo) + max_segs * sizeof(ULong)
                + n_instrs * (sizeof(VP_InstrCC*) + sizeof(UInt));
   SBInfo* sb = VG_(malloc)("vp.instr.sb", sz);
   UChar*  p  = (UChar*)(sb + 1);

   sb->orig_addr = orig_addr;
   sb->n_instrs  = n_instrs;
   sb->n_segs    = 0;
   sb->seg_count = (ULong*)p;           p += max_segs * sizeof(ULong);
   sb->instr_cc  = (VP_InstrCC**)p;     p += n_instrs * sizeof(VP_InstrCC*);
   sb->instr_seg = (UInt*)p;
   VG_(memset)(sb->seg_count, 0, max_segs * sizeof(ULong));
   return sb;
}

/* The cell for an instruction at its current debug-info location; code
   unloaded and replaced at the same address gets a cell of its own. */
static VP_InstrCC* instr_cc_for(Addr a)
{
   VP_Loc      loc   = VP_(loc_of_instr)(a);
   VP_InstrCC* first = VG_(HT_lookup)(instr_table, a);
   VP_InstrCC* cc;

   for (cc = first; cc; cc = cc->same_addr_next)
      if (cc->loc.fn == loc.fn && cc->loc.file == loc.file
          && cc->loc.line == loc.line)
         return cc;

   cc = VG_(calloc)("vp.instr.cc", 1, sizeof(VP_InstrCC));
   cc->addr = a;
   cc->loc  = loc;
   if (first) {
      cc->same_addr_next    = first->same_addr_next;
      first->same_addr_next = cc;
   } else {
      VG_(HT_add_node)(instr_table, cc);
   }
   return cc;
}

static void add_segment_increment(IRSB* sbOut, ULong* counter)
{
   IRExpr* addr = mkIRExpr_HWord((HWord)counter);
   IRTemp  old  = newIRTemp(sbOut->tyenv, Ity_I64);
   IRTemp  new  = newIRTemp(sbOut->tyenv, Ity_I64);
   addStmtToIRSB(sbOut, IRStmt_WrTmp(old, IRExpr_Load(VP_ENDIAN, Ity_I64, addr)));
   addStmtToIRSB(sbOut, IRStmt_WrTmp(new, IRExpr_Binop(Iop_Add64,
                           IRExpr_RdTmp(old), IRExpr_Const(IRConst_U64(1)))));
   addStmtToIRSB(sbOut, IRStmt_Store(VP_ENDIAN, mkIRExpr_HWord((HWord)counter),
                                     IRExpr_RdTmp(new)));
}

IRSB* VP_(instrument)(VgCallbackClosure* closure, IRSB* sbIn,
                      const VexGuestLayout* layout,
                      const VexGuestExtents* vge,
                      const VexArchInfo* archinfo_host,
                      IRType gWordTy, IRType hWordTy)
{
   Int  i, first;
   UInt n_instrs = 0, n_exits = 0, instr = 0, pending = 0;

   if (gWordTy != hWordTy)
      VG_(tool_panic)("host/guest word size mismatch");

   IRSB* sbOut = deepCopyIRSBExceptStmts(sbIn);

   /* The preamble before the first IMark belongs to no instruction. */
   for (i = 0; i < sbIn->stmts_used && sbIn->stmts[i]->tag != Ist_IMark; i++)
      addStmtToIRSB(sbOut, sbIn->stmts[i]);
   first = i;
   for (i = first; i < sbIn->stmts_used; i++) {
      if (sbIn->stmts[i]->tag == Ist_IMark) n_instrs++;
      if (sbIn->stmts[i]->tag == Ist_Exit)  n_exits++;
   }

   SBInfo* sb = new_sb_info((Addr)closure->readdr, n_instrs, n_exits + 1);

   for (i = first; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      if (st->tag == Ist_IMark) {
         sb->instr_cc[instr]  = instr_cc_for(st->Ist.IMark.addr);
         sb->instr_seg[instr] = sb->n_segs;
         instr++;
         pending++;
      } else if (st->tag == Ist_Exit && pending > 0) {
         /* Control may leave here: count what ran before it. */
         add_segment_increment(sbOut, &sb->seg_count[sb->n_segs++]);
         pending = 0;
      }
      addStmtToIRSB(sbOut, st);
   }
   if (pending > 0)
      add_segment_increment(sbOut, &sb->seg_count[sb->n_segs++]);

   tl_assert(instr == n_instrs);
   if (VG_(HT_lookup)(sb_table, sb->orig_addr) == NULL)
      VG_(HT_add_node)(sb_table, sb);
   else
      VG_(addToXA)(sb_twins, &sb);
   return sbOut;
}

static void fold_sb(SBInfo* sb)
{
   UInt i;
   for (i = 0; i < sb->n_instrs; i++)
      sb->instr_cc[i]->cost[VP_EV_IR] += sb->seg_count[sb->instr_seg[i]];
   VG_(memset)(sb->seg_count, 0, sb->n_segs * sizeof(ULong));
}

void VP_(discard_sb)(Addr orig_addr, VexGuestExtents vge)
{
   SBInfo* sb = VG_(HT_remove)(sb_table, vge.base[0]);
   if (sb == NULL)
      return;
   fold_sb(sb);
   VG_(free)(sb);
}

void VP_(fold_all)(void)
{
   SBInfo* sb;
   Word    i;
   VG_(HT_ResetIter)(sb_table);
   while ((sb = VG_(HT_Next)(sb_table)) != NULL)
      fold_sb(sb);
   for (i = 0; i < VG_(sizeXA)(sb_twins); i++)
      fold_sb(*(SBInfo**)VG_(indexXA)(sb_twins, i));
}

/* Forgets every cost counted so far, live counters and cells alike. */
void VP_(zero_all)(void)
{
   XArray* all = VP_(all_instr_ccs)();
   Word    i;
   VP_(fold_all)();   /* folding also clears the live counters */
   for (i = 0; i < VG_(sizeXA)(all); i++) {
      VP_InstrCC* cc = *(VP_InstrCC**)VG_(indexXA)(all, i);
      VG_(memset)(cc->cost, 0, sizeof cc->cost);
   }
   VG_(deleteXA)(all);
}

XArray* VP_(all_instr_ccs)(void)
{
   XArray*     all = VG_(newXA)(VG_(malloc), "vp.instr.all", VG_(free),
                                sizeof(VP_InstrCC*));
   VP_InstrCC* head;
   VP_InstrCC* cc;
   VG_(HT_ResetIter)(instr_table);
   while ((head = VG_(HT_Next)(instr_table)) != NULL)
      for (cc = head; cc; cc = cc->same_addr_next)
         VG_(addToXA)(all, &cc);
   return all;
}
