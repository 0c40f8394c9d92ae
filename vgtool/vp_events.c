/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_events.c: feeds the cache and branch simulators (vp_sim.c) with the
   same references, in the same order, as cachegrind 3.19 does, so their
   figures are cachegrind's.

   While a superblock is instrumented, each instruction fetch and data
   access is queued as an event; the queue is flushed into helper calls at
   every side exit, at the end of the block and when it is full, in the
   order the references are made.  A store to the address a load of the
   same instruction just read, with the same size, becomes a "modify",
   which the simulation counts as one read.

   Same-line fetches are elided.  Inside a superblock, instructions run
   in order until a side exit leaves it, and only fetches touch I1; so an
   instruction that starts in the I1 line in which the one before it in
   the block ended finds that line the most recently used of its set,
   and its lookup would be a hit that changes nothing (vp_sim.h).  Such
   an instruction gets no fetch at all when it lies wholly in that line,
   and a lookup of its last line alone when it runs on into the next.
   Only the block's first instruction, and one that follows a jump inside
   the block to another line, are fetched whole.  A fetch left is tested
   inline first: the helper is called only when a line it looks up is not
   the most recently used of its set, which in code that loops in a few
   lines is seldom.  (Cachegrind merges a fetch with the data access that
   follows it into one call; with most fetches gone, a data access is
   cheaper alone.)  The figures are cachegrind's all the same: only
   lookups that change nothing are left out.  Instructions (Ir), which a
   fetch no longer marks, are counted by vp_instr.c's segment counters,
   with or without the cache simulation.  The helpers count references,
   misses and branches into the instruction's cell and, with the call
   graph, into the running totals its inclusive costs are measured with.

   With the heap profiled, the same data-access helpers also count each
   access against the heap block it falls in (vp_heap.c); without the
   cache simulation, heap-only helpers are called for data accesses
   instead, for the addresses that may be in a block. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"
#include "vp_data.h"
#include "vp_sim.h"

/* Positions of the simulated events in a cost array.  The cache events,
   when simulated, always follow Ir; constants spare the helpers a load. */
enum { ev_I1mr = 1, ev_ILmr, ev_Dr, ev_D1mr, ev_DLmr, ev_Dw, ev_D1mw, ev_DLmw };
STATIC_ASSERT(ev_Dr == VP_EV_DR);   /* cells that may access data are told by it */
STATIC_ASSERT(ev_Dw == VP_EV_DW);   /* the allocator's data object is counted by both */
static UInt ev_Bc, ev_Bcm, ev_Bi, ev_Bim;

/* Smallest line size of the three caches: cachegrind caps the size of a
   data reference there, so that one reference touches at most two lines. */
static UInt min_line_size;

static void choose_helpers(void);

static const HChar* const cache_event_names[] =
   { "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw" };
static const HChar* const branch_event_names[] = { "Bc", "Bcm", "Bi", "Bim" };

void VP_(init_events)(void)
{
   UInt n = 1;   /* Ir */
   if (VP_(clo).cache_sim) {
      n += 8;
      min_line_size = VP_(sim_min_line_size)();
   }
   if (VP_(clo).branch_sim) {
      ev_Bc = n++; ev_Bcm = n++; ev_Bi = n++; ev_Bim = n++;
   }
   VP_(n_events) = n;
   choose_helpers();
}

Int VP_(event_index)(const HChar* name)
{
   UInt e;
   for (e = 0; e < VP_(n_events); e++)
      if (VG_(strcmp)(VP_(event_name)(e), name) == 0) return (Int)e;
   return -1;
}

const HChar* VP_(event_name)(UInt e)
{
   if (e == VP_EV_IR) return "Ir";
   if (VP_(clo).cache_sim) {
      if (e <= 8) return cache_event_names[e - 1];
      e -= 8;
   }
   return branch_event_names[e - 1];
}

/*------------------------------------------------------------*/
/*--- Helpers called from translated code                  ---*/
/*------------------------------------------------------------*/

/* Counted whether or not costs are being collected: while collection is
   off the simulation runs on, so the caches and predictors stay as warm
   as the hardware's would, and vp_collect.c takes back what was counted
   meanwhile when collection resumes.  Testing the collection state here
   instead made bzip2 under cache simulation 40% slower. */
static inline __attribute__((always_inline))
void add(VP_InstrCC* n, UInt ev, ULong v, Bool totals)
{
   n->cost[ev] += v;
   if (totals)
      VP_(total)[ev] += v;
}

/* An instruction's address and length, packed into one argument of the
   fetch helpers: one 64-bit constant of the translated code, not two
   (guest addresses take at most FETCH_ADDR_BITS bits; an instruction
   has at most a few dozen bytes). */
#define FETCH_ADDR_BITS (VG_WORDSIZE == 8 ? 48 : 26)
static UWord fetch_word(Addr a, UInt len)
{
   tl_assert(a >> FETCH_ADDR_BITS == 0);
   return a | (UWord)len << FETCH_ADDR_BITS;
}

/* The fetch of instruction n, of len bytes at a (packed in a_len): of
   its last line alone (LAST: its other line was found the most recently
   used when translating), or whole.  The address and length come as an
   argument, so that only a miss reaches the cell: with much code, cells
   are seldom in the host's caches. */
static inline __attribute__((always_inline))
void fetch(VP_InstrCC* n, UWord a_len, Bool last, Bool totals)
{
   Addr  a   = a_len & (((UWord)1 << FETCH_ADDR_BITS) - 1);
   UWord len = a_len >> FETCH_ADDR_BITS;
   ULong m1 = 0, mL = 0;
   if (last)
      VP_(sim_I1_ref_last)(a, len, &m1, &mL);
   else
      VP_(sim_I1_ref)(a, len, &m1, &mL);
   if (UNLIKELY(m1)) {
      add(n, ev_I1mr, m1, totals);
      add(n, ev_ILmr, mL, totals);
   }
}

static inline __attribute__((always_inline))
void cond_branch(VP_InstrCC* n, UWord taken, Bool totals)
{
   add(n, ev_Bc, 1, totals);
   if (VP_(sim_cond_branch)(n->addr, taken))
      add(n, ev_Bcm, 1, totals);
}

static inline __attribute__((always_inline))
void ind_branch(VP_InstrCC* n, Addr target, Bool totals)
{
   add(n, ev_Bi, 1, totals);
   if (VP_(sim_ind_branch)(n->addr, target))
      add(n, ev_Bim, 1, totals);
}

/* The heap's count of a read (R), write (W) or modify of data, DHAT's
   way: not in the stack window, and against the block b holding a. */
static inline __attribute__((always_inline))
void heap_bytes(VP_Block* b, Addr a, UWord size, Addr sp, Bool r, Bool w)
{
   if (b == NULL || VP_(in_stack_window)(a, sp))
      return;
   if (r) VP_(heap_access_in)(b, a, size, False);
   if (w) VP_(heap_access_in)(b, a, size, True);
}

/* The booking of a data access to its data object, with the heap's count
   of it when HEAP: one lookup of the block serves both, and none is made
   in the near range (the stack's) or inside the allocator, where no block
   is found.  The whole booking, for the cases the caches do not know. */
static inline __attribute__((always_inline))
void book(VP_InstrCC* n, Addr a, UWord size, Addr sp, Bool r, Bool w, Bool heap, ULong m1,
          ULong mL)
{
   if (VP_(data_is_near)(a)) {
      VP_(data_book_near)(VP_(cc_data_fn)(n), n->loc.fn, r ? 0 : 1, m1, mL);
      return;
   }
   if (VP_(in_alloc)) {
      VP_(data_book_alloc)(VP_(cc_data_fn)(n), n->loc.fn, r ? 0 : 1, m1, mL);
      return;
   }
   VP_Block* b = VP_(heap_find)(a);
   VP_(data_book)(VP_(cc_data_fn)(n), n->loc.fn, a, b, r ? 0 : 1, m1, mL);
   if (heap) heap_bytes(b, a, size, sp, r, w);
}

/* The whole booking out of line, for each kind of access. */
#define BOOK_FAR(SUFFIX, HEAP) \
static __attribute__((noinline)) \
void book_far_r##SUFFIX(VP_InstrCC* n, Addr a, UWord size, Addr sp, ULong m1, ULong mL) \
   { book(n, a, size, sp, True, False, HEAP, m1, mL); } \
static __attribute__((noinline)) \
void book_far_w##SUFFIX(VP_InstrCC* n, Addr a, UWord size, Addr sp, ULong m1, ULong mL) \
   { book(n, a, size, sp, False, True, HEAP, m1, mL); } \
static __attribute__((noinline)) \
void book_far_m##SUFFIX(VP_InstrCC* n, Addr a, UWord size, Addr sp, ULong m1, ULong mL) \
   { book(n, a, size, sp, True, True, HEAP, m1, mL); }
BOOK_FAR(, False)
BOOK_FAR(_h, True)

/* The misses of an access at place p, found inline.  Out of line: misses
   are rare, and inlined their booking made every helper save a sixth
   register and keep a stack frame.  The (function, object) pair is mostly
   the one the instruction last booked to; only the lookup of another
   (a call, and registers to save) is further out of line. */
static __attribute__((noinline))
void book_miss_new_pair(VP_InstrCC* n, VP_DataPlace p, UInt w, ULong m1, ULong mL)
{
   VP_(data_book_miss)(VP_(cc_data_fn)(n), n->loc.fn, p, w, m1, mL);
}

static __attribute__((noinline))
void book_miss(VP_InstrCC* n, VP_DataPlace p, UInt w, ULong m1, ULong mL)
{
   VP_FnData* f = *VP_(cc_data_fn)(n);
   if (UNLIKELY(f == NULL || f->obj != p.obj))
      book_miss_new_pair(n, p, w, m1, mL);
   else
      VP_(data_count_miss)(f, p, w, m1, mL);
}

/* Whether the caches know the block holding a: *b (NULL: none). */
static inline __attribute__((always_inline)) Bool block_known(Addr a, VP_Block** b)
{
   *b = NULL;
   return !VP_(in_heap_range)(a) || VP_(heap_known)(a, b);
}

/* The booking of a data access with m1 D1 and mL LL misses, inline
   where the caches know its place: the place found once serves the
   access's count, its misses' booking and the heap's count.  The rest
   goes to the whole booking, out of line.  The heap's accesses (HEAP) are
   those not known, while translating, to be relative to the stack
   pointer: outside the stack window, which the heap's count tests anyway,
   their heap block is looked for first, the near range after (no block
   lies in it, and inside the allocator the heap's range is empty, so
   either order books the same); inside it, and the other accesses, mostly
   the stack's, test the near range first.  Inside the allocator the near
   range is empty too, and every access is the allocator's object's. */
static inline __attribute__((always_inline))
void book_data(VP_InstrCC* n, Addr a, UWord size, Addr sp, Bool r, Bool w, Bool heap, ULong m1,
               ULong mL)
{
   UInt         k = r ? 0 : 1;
   Bool         heap_first = heap && !VP_(in_stack_window)(a, sp);
   VP_Block*    b = NULL;
   VP_DataPlace p;
   if (heap_first && !block_known(a, &b))
      goto whole;
   if (b == NULL && VP_(data_is_near)(a)) {
      VP_(data_stack_acc)[k]++;
      if (UNLIKELY(m1))
         book_miss(n, VP_(data_whole)(VP_(data_stack_obj)), k, m1, mL);
      return;
   }
   if (b == NULL && VP_(in_alloc)) {
      if (UNLIKELY(m1))
         book_miss(n, VP_(data_whole)(VP_(data_alloc_obj)), k, m1, mL);
      return;
   }
   if (!heap_first && !block_known(a, &b))
      goto whole;
   if (b != NULL)
      p = VP_(data_place_at)(b->data, a - b->start);
   else if (!VP_(data_place_cached)(a, &p))
      goto whole;
   VP_(data_acc)(p.obj, k)[p.bucket]++;
   if (heap) heap_bytes(b, a, size, sp, r, w);
   if (UNLIKELY(m1))
      book_miss(n, p, k, m1, mL);
   return;
whole:
   if (heap)
      (r && w ? book_far_m_h : r ? book_far_r_h : book_far_w_h)(n, a, size, sp, m1, mL);
   else
      (r && w ? book_far_m : r ? book_far_r : book_far_w)(n, a, size, sp, m1, mL);
}

/* A read (R), write (W) or modify (R and W: the simulation counts one
   read) of data, with the heap's count of it when HEAP, and booked to
   the data object it touched when DATA.  The simulation sees at most
   min_line_size bytes, as cachegrind caps them; the heap profile counts
   them all, as DHAT does. */
static inline __attribute__((always_inline))
void data(VP_InstrCC* n, Addr a, UWord size, Addr sp, Bool r, Bool w, Bool totals, Bool heap,
          Bool dat)
{
   UInt  ev = r ? ev_Dr : ev_Dw;
   ULong m1 = 0, mL = 0;
   VP_(sim_D1_ref)(a, size > min_line_size ? min_line_size : size, &m1, &mL);
   /* The running totals of Dr and Dw also give the allocator's object
      its counts (vp_data.h's data_book_alloc). */
   add(n, ev, 1, totals || dat);
   if (UNLIKELY(m1)) {
      add(n, ev + 1, m1, totals);
      add(n, ev + 2, mL, totals);
   }
   if (dat) {
      /* A copy with no miss: the common path need not test it again. */
      if (LIKELY(m1 == 0))
         book_data(n, a, size, sp, r, w, heap, 0, 0);
      else
         book_data(n, a, size, sp, r, w, heap, m1, mL);
   } else if (heap) {
      if (r) VP_(heap_access_at)(a, size, False, sp);
      if (w) VP_(heap_access_at)(a, size, True, sp);
   }
}

/* The helpers, in sets: one keeps the running totals the call graph's
   inclusive costs are measured with, another, for --call-graph=no,
   spares every reference that store (3% of a cache-simulated bzip2);
   each also with the heap's accounting of data accesses, which takes the
   stack pointer at the access (0 without the heap) as a fourth argument,
   and with the booking of data accesses to data objects. */
#define HELPERS(SUFFIX, TOTALS, HEAP, DATA) \
static VG_REGPARM(2) void log_1I##SUFFIX(VP_InstrCC* n, UWord a_len) \
   { fetch(n, a_len, True, TOTALS); } \
static VG_REGPARM(2) void log_1I_gen##SUFFIX(VP_InstrCC* n, UWord a_len) \
   { fetch(n, a_len, False, TOTALS); } \
static VG_REGPARM(3) void log_1Dr##SUFFIX(VP_InstrCC* n, Addr a, UWord size, Addr sp) \
   { data(n, a, size, sp, True, False, TOTALS, HEAP, DATA); } \
static VG_REGPARM(3) void log_1Dw##SUFFIX(VP_InstrCC* n, Addr a, UWord size, Addr sp) \
   { data(n, a, size, sp, False, True, TOTALS, HEAP, DATA); } \
static VG_REGPARM(3) void log_1Dm##SUFFIX(VP_InstrCC* n, Addr a, UWord size, Addr sp) \
   { data(n, a, size, sp, True, True, TOTALS, HEAP, DATA); } \
static VG_REGPARM(2) void log_cond_branch##SUFFIX(VP_InstrCC* n, UWord taken) \
   { cond_branch(n, taken, TOTALS); } \
static VG_REGPARM(2) void log_ind_branch##SUFFIX(VP_InstrCC* n, Addr target) \
   { ind_branch(n, target, TOTALS); } \
static const HelperSet helpers##SUFFIX = { \
   log_1I##SUFFIX, log_1I_gen##SUFFIX, \
   log_1Dr##SUFFIX, log_1Dw##SUFFIX, log_1Dm##SUFFIX, \
   log_cond_branch##SUFFIX, log_ind_branch##SUFFIX };

typedef struct {
   void* i1; void* i1_gen;
   void* dr; void* dw; void* dm; void* cond; void* ind;
} HelperSet;

HELPERS(_t, True, False, False)
HELPERS(_nt, False, False, False)
HELPERS(_t_h, True, True, False)
HELPERS(_nt_h, False, True, False)
HELPERS(_t_d, True, False, True)
HELPERS(_nt_d, False, False, True)
HELPERS(_t_h_d, True, True, True)
HELPERS(_nt_h_d, False, True, True)

static const HelperSet* helpers = &helpers_t;
static const HelperSet* helpers_no_heap = &helpers_t;   /* for string functions */

/* Every data access is booked to its data object, those of the string
   functions too; only the heap's byte counts leave those out. */
static void choose_helpers(void)
{
   Bool cg = VP_(clo).call_graph;
   if (VP_(data_on)) {
      helpers_no_heap = cg ? &helpers_t_d : &helpers_nt_d;
      helpers = cg ? &helpers_t_h_d : &helpers_nt_h_d;
   } else {
      helpers_no_heap = cg ? &helpers_t : &helpers_nt;
      helpers = !VP_(clo).heap ? helpers_no_heap : cg ? &helpers_t_h : &helpers_nt_h;
   }
}

/* Without the cache simulation, data accesses are only the heap's:
   helpers of their own, called only for addresses that may be in it. */
static VG_REGPARM(3) void heap_read(Addr a, UWord size, Addr sp)
   { VP_(heap_access_at)(a, size, False, sp); }
static VG_REGPARM(3) void heap_write(Addr a, UWord size, Addr sp)
   { VP_(heap_access_at)(a, size, True, sp); }

/*------------------------------------------------------------*/
/*--- The event queue                                      ---*/
/*------------------------------------------------------------*/

typedef enum { EV_FETCH, EV_FETCH_GEN, EV_READ, EV_WRITE, EV_MODIFY, EV_COND, EV_IND } EventKind;

typedef struct {
   EventKind   kind;
   VP_InstrCC* instr;
   IRExpr*     addr;    /* data address, or branch target / taken flag */
   UInt        size;
   IRExpr*     sp;      /* the stack pointer at a data access, for the heap */
   Bool        heap;    /* a data access the heap counts */
} Event;

#define QUEUE_SIZE 16

typedef struct {
   IRSB*  sbOut;
   Int    used;
   Event  ev[QUEUE_SIZE];
   VP_InstrCC* instr;   /* the instruction being translated */
   Addr   instr_addr;
   UInt   instr_len;
   Int    offset_sp;    /* of the guest state's stack pointer */
   Bool   heap_here;    /* the heap counts the instruction's data accesses */
   UWord  last_line;    /* the I1 line the block's last instruction ended in */
} Queue;

/* No line: before the block's first instruction.  Line numbers are
   addresses shifted right, so none is all ones. */
#define NO_LINE (~(UWord)0)

static Queue q;

/* The helpers for a data access, and their last argument: without the
   heap's accounting in libc's string functions, whose calls vp_strfn.c
   counts as a whole. */
static const HelperSet* helpers_for(Bool heap) { return heap ? helpers : helpers_no_heap; }
static const HelperSet* for_data(const Event* e) { return helpers_for(e->heap); }
static IRExpr* sp_now(void);
static IRExpr* sp_arg(Bool heap) { return heap ? sp_now() : mkIRExpr_HWord(0); }
static Bool heap_counts(IRExpr* addr);

static void call(const HChar* name, void* fn, Int regparms, IRExpr** args, IRExpr* guard)
{
   IRDirty* di = unsafeIRDirty_0_N(regparms, name, VG_(fnptr_to_fnentry)(fn), args);
   if (guard)
      di->guard = guard;
   addStmtToIRSB(q.sbOut, IRStmt_Dirty(di));
}

static IRExpr* cc_expr(VP_InstrCC* n) { return mkIRExpr_HWord((HWord)n); }

/* A test, inline, that line is not the most recently used of its set. */
static IRExpr* not_mru(UWord line)
{
   IRExpr* mru = VP_(ir_load_word)(q.sbOut, VP_(sim_I1_mru)(line));
   return VP_(ir_atom)(q.sbOut, IRExpr_Binop(sizeof(UWord) == 8 ? Iop_CmpNE64 : Iop_CmpNE32,
                                             mru, mkIRExpr_HWord(line)));
}

/* The call of a fetch helper, made only when a line it looks up is not
   the most recently used of its set: the lookups would otherwise be hits
   that change nothing.  An EV_FETCH looks up the instruction's last
   line, an EV_FETCH_GEN both of its lines (in two sets, unless the cache
   has one: then they cannot both be the most recently used). */
static void fetch_call(const Event* e)
{
   VP_InstrCC* n     = e->instr;
   UWord       last  = VP_(sim_I1_line)(n->addr + n->len - 1);
   IRExpr*     guard = not_mru(last);
   IRExpr**    args  = mkIRExprVec_2(cc_expr(n), mkIRExpr_HWord(fetch_word(n->addr, n->len)));
   if (e->kind == EV_FETCH) {
      call("vgprof_log_1I", helpers->i1, 2, args, guard);
      return;
   }
   IRExpr* either = VP_(ir_atom)(q.sbOut, IRExpr_Binop(Iop_Or1, guard,
                                                       not_mru(VP_(sim_I1_line)(n->addr))));
   call("vgprof_log_1I_gen", helpers->i1_gen, 2, args, either);
}

static void flush(void)
{
   Int i;
   for (i = 0; i < q.used; i++) {
      const Event* e = &q.ev[i];
      switch (e->kind) {
         case EV_FETCH:
         case EV_FETCH_GEN:
            fetch_call(e);
            break;
         case EV_READ:
            call("vgprof_log_1Dr", for_data(e)->dr, 3,
                 mkIRExprVec_4(cc_expr(e->instr), e->addr, mkIRExpr_HWord(e->size), e->sp), NULL);
            break;
         case EV_MODIFY:
            call("vgprof_log_1Dm", for_data(e)->dm, 3,
                 mkIRExprVec_4(cc_expr(e->instr), e->addr, mkIRExpr_HWord(e->size), e->sp), NULL);
            break;
         case EV_WRITE:
            call("vgprof_log_1Dw", for_data(e)->dw, 3,
                 mkIRExprVec_4(cc_expr(e->instr), e->addr, mkIRExpr_HWord(e->size), e->sp), NULL);
            break;
         case EV_COND:
            call("vgprof_log_cond_branch", helpers->cond, 2,
                 mkIRExprVec_2(cc_expr(e->instr), e->addr), NULL);
            break;
         case EV_IND:
            call("vgprof_log_ind_branch", helpers->ind, 2,
                 mkIRExprVec_2(cc_expr(e->instr), e->addr), NULL);
            break;
      }
   }
   q.used = 0;
}

/* The stack pointer as it stands at the access being translated, read
   there (the queue may go out after later instructions have moved it),
   for the heap's test of stack accesses; 0 without the heap. */
static IRExpr* sp_now(void)
{
   return VP_(ir_atom)(q.sbOut, IRExpr_Get(q.offset_sp, sizeof(Addr) == 8 ? Ity_I64 : Ity_I32));
}

/*------------------------------------------------------------*/
/*--- Accesses at a distance from the stack pointer known  ---*/
/*--- while translating                                    ---*/
/*------------------------------------------------------------*/

/* The heap's test of stack accesses needs the stack pointer at the
   access, but when the access's address is the stack pointer plus a
   constant (a push, a pop, a call's return address, a local addressed
   from the stack pointer), the test's answer is known while
   translating: an access inside the window then needs neither a heap
   helper nor the stack pointer read into IR.  Values are followed
   through the block as "the value of temporary base, plus off": the
   stack pointer's is known from its first read or write in the block
   until a write it cannot follow (a constant, a helper's effects). */
typedef struct { IRTemp base; Addr off; } SpRel;   /* base IRTemp_INVALID: not known */

static const SpRel unknown_rel = { IRTemp_INVALID, 0 };
static SpRel* tmp_rel;      /* per temporary of the block being translated */
static Int    tmp_rel_cap;
static Int    tmp_rel_used;
static SpRel  sp_rel;       /* the guest's stack pointer as it now stands */

static void track_begin(const IRSB* sbOut)
{
   Int i, n = sbOut->tyenv->types_used;
   if (n > tmp_rel_cap) {
      tmp_rel_cap = n + 64;
      tmp_rel = VG_(realloc)("vp.events.rel", tmp_rel, tmp_rel_cap * sizeof(SpRel));
   }
   for (i = 0; i < n; i++)
      tmp_rel[i] = unknown_rel;
   tmp_rel_used = n;
   sp_rel = unknown_rel;
}

static SpRel rel_of(const IRExpr* e)
{
   if (e->tag != Iex_RdTmp || (Int)e->Iex.RdTmp.tmp >= tmp_rel_used)
      return unknown_rel;
   return tmp_rel[e->Iex.RdTmp.tmp];
}

/* Temporary t is assigned e: a read of the stack pointer, or a known
   value plus or minus a constant. */
static void track_tmp(IRTemp t, const IRExpr* e)
{
   SpRel r = unknown_rel;
   if ((Int)t >= tmp_rel_used)
      return;
   if (e->tag == Iex_Get && e->Iex.Get.offset == q.offset_sp && e->Iex.Get.ty == Ity_I64) {
      if (sp_rel.base == IRTemp_INVALID)
         sp_rel = (SpRel){ t, 0 };
      r = sp_rel;
   } else if (e->tag == Iex_Binop
              && (e->Iex.Binop.op == Iop_Add64 || e->Iex.Binop.op == Iop_Sub64)) {
      const IRExpr* x = e->Iex.Binop.arg1;
      const IRExpr* c = e->Iex.Binop.arg2;
      if (e->Iex.Binop.op == Iop_Add64 && x->tag == Iex_Const) {
         const IRExpr* swap = x; x = c; c = swap;
      }
      if (c->tag == Iex_Const && c->Iex.Const.con->tag == Ico_U64) {
         r = rel_of(x);
         if (r.base != IRTemp_INVALID)
            r.off += e->Iex.Binop.op == Iop_Add64 ? c->Iex.Const.con->Ico.U64
                                                  : -c->Iex.Const.con->Ico.U64;
      }
   }
   tmp_rel[t] = r;
}

static Bool touches_sp(Int offset, Int size)
{
   return offset < q.offset_sp + (Int)sizeof(Addr) && q.offset_sp < offset + size;
}

/* A write of the guest state: of the stack pointer whole, by a
   temporary (whose value, if not followed, becomes the new base), or
   any other that may change it. */
static void track_put(Int offset, const IRExpr* data, IRTypeEnv* tyenv)
{
   Int size = sizeofIRType(typeOfIRExpr(tyenv, data));
   if (!touches_sp(offset, size))
      return;
   if (offset != q.offset_sp || size != (Int)sizeof(Addr) || data->tag != Iex_RdTmp) {
      sp_rel = unknown_rel;
      return;
   }
   sp_rel = rel_of(data);
   if (sp_rel.base == IRTemp_INVALID)
      sp_rel = (SpRel){ data->Iex.RdTmp.tmp, 0 };
}

static void track_dirty(const IRDirty* d)
{
   Int i;
   if (d->tmp != IRTemp_INVALID && (Int)d->tmp < tmp_rel_used)
      tmp_rel[d->tmp] = unknown_rel;
   for (i = 0; i < d->nFxState; i++)
      if (d->fxState[i].fx != Ifx_Read
          && touches_sp(d->fxState[i].offset,
                        d->fxState[i].size + d->fxState[i].nRepeats * d->fxState[i].repeatLen))
         sp_rel = unknown_rel;
}

/* What statement st does to the values followed, after its accesses. */
static void track_stmt(const IRStmt* st, IRTypeEnv* tyenv)
{
   switch (st->tag) {
      case Ist_WrTmp: track_tmp(st->Ist.WrTmp.tmp, st->Ist.WrTmp.data); break;
      case Ist_Put:   track_put(st->Ist.Put.offset, st->Ist.Put.data, tyenv); break;
      case Ist_PutI:  sp_rel = unknown_rel; break;
      case Ist_Dirty: track_dirty(st->Ist.Dirty.details); break;
      default:        break;   /* other temporaries written stay not known */
   }
}

/* Whether the heap counts an access at addr: not in a string function
   counted whole, nor where its stack test is known to leave it out. */
static Bool heap_counts(IRExpr* addr)
{
   if (!q.heap_here)
      return False;
   SpRel a = rel_of(addr);
   return a.base == IRTemp_INVALID || a.base != sp_rel.base
          || !VP_(in_stack_window)(a.off, sp_rel.off);
}

static Event* push(EventKind kind, IRExpr* addr, UInt size)
{
   if (q.used == QUEUE_SIZE)
      flush();
   Event* e = &q.ev[q.used++];
   e->kind  = kind;
   e->instr = q.instr;
   e->addr  = addr;
   e->size  = size;
   e->heap  = (kind == EV_READ || kind == EV_WRITE) && heap_counts(addr);
   e->sp    = kind == EV_READ || kind == EV_WRITE ? sp_arg(e->heap) : NULL;
   return e;
}

static Bool same_atom(const IRExpr* a, const IRExpr* b)
{
   if (a->tag == Iex_RdTmp && b->tag == Iex_RdTmp)
      return a->Iex.RdTmp.tmp == b->Iex.RdTmp.tmp;
   if (a->tag == Iex_Const && b->tag == Iex_Const)
      return eqIRConst(a->Iex.Const.con, b->Iex.Const.con);
   return False;
}

/* A heap-only access helper call, made only for addresses within
   [VP_(heap_lo), VP_(heap_hi)), where every block lies: two loads and a
   comparison turn away stack and static data before any call (the helper
   then applies DHAT's test of stack accesses).  A guarded access is
   tested by its own guard only. */
static void heap_call(IRExpr* addr, UInt size, Bool is_write, IRExpr* guard)
{
   IRTypeEnv* env = q.sbOut->tyenv;
   IRType     ty  = typeOfIRExpr(env, addr);
   tl_assert(ty == Ity_I64 || ty == Ity_I32);
   if (guard == NULL) {
      Bool    w64  = ty == Ity_I64;
      IROp    sub  = w64 ? Iop_Sub64 : Iop_Sub32;
      IRExpr* lo   = VP_(ir_load_word)(q.sbOut, &VP_(heap_lo));
      IRExpr* hi   = VP_(ir_load_word)(q.sbOut, &VP_(heap_hi));
      IRExpr* off  = VP_(ir_atom)(q.sbOut, IRExpr_Binop(sub, addr, lo));
      IRExpr* span = VP_(ir_atom)(q.sbOut, IRExpr_Binop(sub, hi, lo));
      guard = VP_(ir_atom)(q.sbOut, IRExpr_Binop(w64 ? Iop_CmpLT64U : Iop_CmpLT32U, off, span));
   }
   IRExpr** args = mkIRExprVec_3(addr, mkIRExpr_HWord(size), sp_now());
   if (is_write)
      call("vgprof_heap_write", heap_write, 3, args, guard);
   else
      call("vgprof_heap_read", heap_read, 3, args, guard);
}

static void data_read(IRExpr* addr, UInt size)
{
   tl_assert(isIRAtom(addr) && size >= 1);
   if (VP_(clo).cache_sim)
      push(EV_READ, addr, size);
   else if (heap_counts(addr))
      heap_call(addr, size, False, NULL);
}

static void data_write(IRExpr* addr, UInt size)
{
   tl_assert(isIRAtom(addr) && size >= 1);
   if (!VP_(clo).cache_sim) {
      if (heap_counts(addr))
         heap_call(addr, size, True, NULL);
      return;
   }
   if (q.used > 0) {
      Event* last = &q.ev[q.used - 1];
      if (last->kind == EV_READ && last->size == size && last->instr == q.instr
          && same_atom(last->addr, addr)) {
         last->kind = EV_MODIFY;
         return;
      }
   }
   push(EV_WRITE, addr, size);
}

/* Guarded accesses go out at once, with their guard, after the queue. */
static void data_guarded(IRExpr* addr, UInt size, IRExpr* guard, Bool is_write)
{
   tl_assert(isIRAtom(addr) && isIRAtom(guard) && size >= 1);
   Bool heap = heap_counts(addr);
   if (!VP_(clo).cache_sim) {
      if (heap)
         heap_call(addr, size, is_write, guard);
      return;
   }
   flush();
   const HelperSet* h = helpers_for(heap);
   IRExpr** args = mkIRExprVec_4(cc_expr(q.instr), addr, mkIRExpr_HWord(size), sp_arg(heap));
   if (is_write)
      call("vgprof_log_1Dw", h->dw, 3, args, guard);
   else
      call("vgprof_log_1Dr", h->dr, 3, args, guard);
}

/*------------------------------------------------------------*/
/*--- What vp_instr.c calls while it translates            ---*/
/*------------------------------------------------------------*/

void VP_(events_flush)(void) { flush(); }

void VP_(events_begin)(IRSB* sbOut, Int offset_sp)
{
   q.sbOut = sbOut;
   q.offset_sp = offset_sp;
   track_begin(sbOut);
   q.used  = 0;
   q.instr = NULL;
   q.last_line = NO_LINE;
}

/* Whether the instruction of len bytes at addr is fetched at all, after
   one that ended in line last_line: not when it lies wholly in that line. */
static Bool is_fetched(UWord last_line, Addr addr, UInt len)
{
   UWord first = VP_(sim_I1_line)(addr);
   return first != last_line || VP_(sim_I1_line)(addr + len - 1) != first;
}

/* The fetch of the instruction of len bytes at addr, after the block's
   instructions before it: none when it lies in the line the one before
   ended in, the lookup of its last line when it starts there or lies in
   one line, else the whole fetch (see the head of this file). */
static void fetch_event(Addr addr, UInt len)
{
   UWord first = VP_(sim_I1_line)(addr);
   UWord last  = VP_(sim_I1_line)(addr + len - 1);
   if (is_fetched(q.last_line, addr, len))
      push(first == q.last_line || first == last ? EV_FETCH : EV_FETCH_GEN, NULL, 0);
   q.last_line = last;
}

void VP_(events_instr)(VP_InstrCC* cc, Addr addr, UInt len)
{
   /* Without the call graph no call of a string function is seen whole:
      its accesses are counted as they are made. */
   q.heap_here  = VP_(clo).heap
                  && !(VP_(clo).call_graph && VP_(strfn_family)(cc->loc.fn) != VP_SF_NONE);
   q.instr      = cc;
   q.instr_addr = addr;
   q.instr_len  = len;
   if (VP_(clo).cache_sim)
      fetch_event(addr, len);
}

/* A conditional exit's taken-ness: the guard, inverted when the optimiser
   turned the branch around (its target is then the next instruction). */
static IRExpr* taken_flag(IRStmt* exit, IRType hWordTy)
{
   IRConst* dst = exit->Ist.Exit.dst;
   Addr     sea = hWordTy == Ity_I32 ? dst->Ico.U32 : dst->Ico.U64;
   Bool     inverted = sea == q.instr_addr + q.instr_len;
   IRExpr*  one = hWordTy == Ity_I32 ? IRExpr_Const(IRConst_U32(1)) : IRExpr_Const(IRConst_U64(1));
   IRExpr*  g1  = VP_(ir_atom)(q.sbOut, exit->Ist.Exit.guard);
   IRExpr*  gw  = VP_(ir_atom)(q.sbOut, IRExpr_Unop(hWordTy == Ity_I32 ? Iop_1Uto32 : Iop_1Uto64,
                                                    g1));
   return inverted ? VP_(ir_atom)(q.sbOut, IRExpr_Binop(hWordTy == Ity_I32 ? Iop_Xor32 : Iop_Xor64,
                                                        gw, one))
                   : gw;
}

/* Called for every statement after the first IMark, before it is copied. */
void VP_(events_stmt)(IRStmt* st, IRTypeEnv* tyenv, IRType hWordTy)
{
   switch (st->tag) {
      case Ist_WrTmp:
         if (st->Ist.WrTmp.data->tag == Iex_Load)
            data_read(st->Ist.WrTmp.data->Iex.Load.addr,
                      sizeofIRType(st->Ist.WrTmp.data->Iex.Load.ty));
         break;
      case Ist_Store:
         data_write(st->Ist.Store.addr, sizeofIRType(typeOfIRExpr(tyenv, st->Ist.Store.data)));
         break;
      case Ist_StoreG: {
         IRStoreG* sg = st->Ist.StoreG.details;
         data_guarded(sg->addr, sizeofIRType(typeOfIRExpr(tyenv, sg->data)), sg->guard, True);
         break;
      }
      case Ist_LoadG: {
         IRLoadG* lg = st->Ist.LoadG.details;
         IRType   ty = Ity_INVALID, wide = Ity_INVALID;
         typeOfIRLoadGOp(lg->cvt, &wide, &ty);
         data_guarded(lg->addr, sizeofIRType(ty), lg->guard, False);
         break;
      }
      case Ist_Dirty: {
         IRDirty* d = st->Ist.Dirty.details;
         if (d->mFx != Ifx_None) {
            UInt size = d->mSize;
            if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)  data_read(d->mAddr, size);
            if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify) data_write(d->mAddr, size);
         }
         break;
      }
      case Ist_CAS: {
         IRCAS* cas  = st->Ist.CAS.details;
         UInt   size = sizeofIRType(typeOfIRExpr(tyenv, cas->dataLo));
         if (cas->dataHi) size *= 2;
         data_read(cas->addr, size);
         data_write(cas->addr, size);
         break;
      }
      case Ist_LLSC:
         if (st->Ist.LLSC.storedata == NULL) {
            data_read(st->Ist.LLSC.addr, sizeofIRType(typeOfIRTemp(tyenv, st->Ist.LLSC.result)));
            flush();   /* as cachegrind: helps the store-conditional succeed */
         } else {
            data_write(st->Ist.LLSC.addr,
                       sizeofIRType(typeOfIRExpr(tyenv, st->Ist.LLSC.storedata)));
         }
         break;
      case Ist_Exit:
         if (VP_(clo).branch_sim
             && (st->Ist.Exit.jk == Ijk_Boring || st->Ist.Exit.jk == Ijk_Call
                 || st->Ist.Exit.jk == Ijk_Ret))
            push(EV_COND, taken_flag(st, hWordTy), 0);
         flush();   /* control may leave here */
         break;
      default:
         break;
   }
   track_stmt(st, tyenv);
}

/* At the end of the block: an indirect jump or call is a branch to an
   unknown target (returns are assumed predicted), then the last flush. */
void VP_(events_end)(IRSB* sbIn)
{
   if (VP_(clo).branch_sim
       && (sbIn->jumpkind == Ijk_Boring || sbIn->jumpkind == Ijk_Call)
       && sbIn->next->tag == Iex_RdTmp)
      push(EV_IND, sbIn->next, 0);
   flush();
}

/* Whether instruction i of sbIn (the statement index of its IMark) is
   fetched, as fetch_event decides while the block is translated. */
static Bool imark_is_fetched(const IRSB* sbIn, Int i)
{
   const IRStmt* mark = sbIn->stmts[i];
   UWord         last_line = NO_LINE;
   Int           j;
   for (j = i - 1; j >= 0; j--) {
      const IRStmt* before = sbIn->stmts[j];
      if (before->tag == Ist_IMark) {
         last_line = VP_(sim_I1_line)(before->Ist.IMark.addr + VP_(imark_len)(before) - 1);
         break;
      }
   }
   return is_fetched(last_line, mark->Ist.IMark.addr, VP_(imark_len)(mark));
}

/* The counters an instruction's cell needs: the fetch events, then the
   read events if it may read data, then the write events if it may
   write (the order of the events, so the helpers' constant positions
   hold); Ir alone for one that is neither fetched (most lie in the line
   the one before them ended in) nor touches data.  The statements are
   those events_stmt turns into accesses.  Without the cache simulation,
   or with branches simulated (their events come last), every cell has
   them all. */
UInt VP_(events_cost_width)(const IRSB* sbIn, Int i)
{
   Bool reads = False, writes = False;
   Int  mark = i;
   if (!VP_(clo).cache_sim || VP_(clo).branch_sim)
      return VP_(n_events);
   for (i++; i < sbIn->stmts_used && sbIn->stmts[i]->tag != Ist_IMark; i++) {
      const IRStmt* st = sbIn->stmts[i];
      switch (st->tag) {
         case Ist_WrTmp:  reads  |= st->Ist.WrTmp.data->tag == Iex_Load; break;
         case Ist_LoadG:  reads  = True; break;
         case Ist_Store:
         case Ist_StoreG:
         case Ist_CAS:
         case Ist_LLSC:   writes = True; break;
         case Ist_Dirty:
            reads  |= st->Ist.Dirty.details->mFx == Ifx_Read;
            writes |= st->Ist.Dirty.details->mFx == Ifx_Write
                      || st->Ist.Dirty.details->mFx == Ifx_Modify;
            break;
         default: break;
      }
   }
   if (!reads && !writes && !imark_is_fetched(sbIn, mark))
      return VP_EV_IR + 1;
   return writes ? VP_(n_events) : reads ? ev_Dw : ev_Dr;
}
