/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_callgraph.c: the shadow call stacks, and what they record: call
   edges, inclusive cost per function and the call-path tree.

   VP_(sb_entry) runs at the start of every superblock with the stack
   pointer, but for the most common kind, a plain jump within a function
   that leaves no frame, which the block settles by an inline test
   (vp_instr.c).  From how the previous superblock was left (a call, a
   return, a jump) and from the stack pointer it decides, as callgrind
   does, what happened:
   - a call instruction, or a jump into the first instruction of a
     function, another object or between a PLT stub and ordinary code,
     pushes a frame (a PLT stub's frame is "skipped": it belongs to no
     function, so the caller appears to call the stub's target);
   - a return pops the frame it returns from;
   - any frame whose entry stack pointer lies below the current one has
     been left (longjmp, exceptions, a return that skipped frames) and is
     popped too.
   Costs are differences of a running total: a frame remembers the total
   at entry and adds the difference on exit.  A function's own code can
   also run while the function has no frame: a PLT stub, code another
   function jumps into without a call or runs on into (libc's strcasecmp
   ends where strcasecmp_l begins; the block that crosses tells
   VP_(fn_switch)), code still running after the stack pointer left its
   frame.  That code runs as a "guest" in the context of
   the function on the stack, and its cost is added to its own function's
   inclusive cost as well, so that a function's inclusive cost always
   holds its self cost.  Each thread, and each signal
   handler running on it, has a context of its own whose clock stops while
   another context runs, so inclusive costs never include another
   thread's or an interrupting handler's work. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "vp_compat.h"
#include "vp_heap.h"
#include "libvex_guest_amd64.h"

/* The block being entered, as its hook is told: its record, and the
   facts about it the hook reads.  Its flags come in the low bits of the
   record's address, a constant of its code; its function and object are
   read from the record's last fields, in the line of its first segment
   counter, which the block bumps right after the hook anyway. */
typedef struct {
   VP_SB* sb;
   UInt   fn, obj;
   Bool   is_entry, in_plt;
} Entered;

/* Where a call was made: the calling instruction's cell, which holds its
   address and location (NULL for a root).  A call that repeats reads
   nothing of it: the cell is mostly not in the cache. */
typedef const VP_InstrCC* CallSite;

typedef struct {
   Addr  sp;          /* stack pointer at the callee's first instruction */
   UInt  fn;          /* the function entered */
   UInt  node;        /* its call-path node; VP_NO_ID for a skipped frame */
   UInt  edge;        /* the call edge; VP_NO_ID for a root or skipped frame */
   CallSite site;     /* where the call came from */
   UInt  incl_row;    /* the fn-inclusive row this frame adds to, if outermost */
   Bool  ret_after_site; /* a call instruction's: it returns to the
                            instruction after site (not if emulated) */
   Bool  skip;        /* a PLT stub: no function, no edge */
   Bool  inside;      /* a call below a [truncated] node, which stays in it */
   Bool  outermost;   /* the outermost active frame of fn in this context */
   Bool  uncounted;   /* a call whose edge and node have not counted it yet */
   Bool  strfn;       /* a libc string function's (vp_strfn.c) */
   UChar strfn_count; /* VP_StrFn: the outermost such frame counts its call */
   UWord strfn_arg[3];
   ULong span_start;  /* VP_(heap_now)() at entry, or at the last dump */
   UInt  below;       /* frames of functions below it on its thread's stack,
                         the interrupted contexts' included: its span's depth */
   ULong enter[VP_MAX_EVENTS];
} Frame;

/* A context's record of one function: its active frames there, and the
   fn-inclusive row of its thread (found once, not at every call). */
typedef struct {
   UInt active;
   UInt incl_row;
} FnState;

/* A thread, or a signal handler running on it. */
typedef struct _Context {
   struct _Context* outer;   /* the interrupted context, for a handler */
   UInt    tid;              /* its thread, or 0 unless --separate-threads=yes */
   ThreadId thread;          /* its thread, always */
   Bool    is_handler;
   /* For a handler: the stack pointer of the code it interrupted.  The
      handler has been left (by a longjmp) only once the stack pointer is
      back at or above it: its own return, or the return of a function it
      tail-called, lands in the sigreturn stub on the signal frame, below,
      and on an alternate signal stack everything the handler does lies
      below it too, whatever the two stacks' addresses. */
   Addr    interrupted_sp;
   /* VP_(cur_sb), VP_(cur_exit) and VP_(call_cc) while another context
      runs: the superblock that ran last here (NULL: none known), its exit
      and the cell of its call. */
   VP_SB*  saved_sb;
   UWord   saved_exit;
   VP_InstrCC* saved_call_cc;
   ULong   offset[VP_MAX_EVENTS];  /* this context's clock: total - offset */
   ULong   out_at[VP_MAX_EVENTS];  /* the total when it stopped running */
   Frame*  frames;           /* frames[0] is the root */
   UInt    depth, cap;
   UInt    in_strfn;         /* frames of string functions active here */
   FnState* fns;             /* per fn */
   UInt    n_fns;
   /* The function whose code is running while it has no frame here
      (VP_NO_ID when none), the fn-inclusive row its cost goes to, and
      this context's clock when it started running. */
   UInt    guest_fn;
   UInt    guest_row;
   ULong   guest_enter[VP_MAX_EVENTS];
} Context;

static Context** contexts;  /* [VG_N_THREADS]: innermost context per thread */
static Context* running;                  /* the context whose clock runs */
static ThreadId running_tid = VG_INVALID_THREADID;

/* Records of one kind, with their costs, side by side: the base is kept
   beside the array so that a record is found by inline arithmetic, not a
   call, at every call and return.  The array is a mapping of its own,
   reserved large and touched only as records fill it, so that it grows
   without a copy: as an XArray in Valgrind's core arena, sqlite3's path
   nodes left a 1.17 MB array beside the 1.75 MB one that replaced it,
   a third of which stayed unused. */
typedef struct {
   UChar*       base;   /* the first record */
   SizeT        size;   /* of a record with its costs */
   UInt         n;
   SizeT        room;   /* bytes mapped at base */
   const HChar* what;
} Records;

#define RECORDS_FIRST_ROOM (64UL << 20)

static Records      edges;        /* VP_Edge */
static Records      nodes;        /* VP_PathNode */
static Records      fn_incl;      /* VP_FnIncl, one per (fn, thread) */

static inline void* record(const Records* r, UInt id)
{
   return r->base + (SizeT)id * r->size;
}

/* A mapping twice as large (the first: RECORDS_FIRST_ROOM), the records
   moved into it. */
static __attribute__((noinline)) void grow_records(Records* r)
{
   SizeT  room = r->room ? 2 * r->room : RECORDS_FIRST_ROOM;
   UWord  err;
   UChar* base = VP_(shadow_alloc)(room, &err);
   if (base == NULL)
      VP_(out_of_memory)(r->what, room, err);
   if (r->base) {
      VG_(memcpy)(base, r->base, (SizeT)r->n * r->size);
      VG_(am_munmap_valgrind)((Addr)r->base, r->room);
   }
   r->base = base;
   r->room = room;
}

static UInt add_record(Records* r, const void* rec)
{
   if ((SizeT)(r->n + 1) * r->size > r->room)
      grow_records(r);
   VG_(memcpy)(record(r, r->n), rec, r->size);
   return r->n++;
}

static Word n_records(const Records* r)
{
   return r->n;
}

static void init_records(Records* r, const HChar* what, SizeT size)
{
   r->base = NULL;
   r->size = size;
   r->n    = 0;
   r->room = 0;
   r->what = what;
}

/*------------------------------------------------------------*/
/*--- Tables keyed by small tuples                         ---*/
/*------------------------------------------------------------*/

/* Five numbers and an address (an edge's call instruction; 0 for a
   path node). */
typedef struct {
   UInt k[5];
   Addr addr;
} Key;

/* The key of a table's record id, read from the record itself. */
typedef void (*KeyOf)(UInt id, Key* out);

/* A table's index: the ids of its records by the hash of their keys, by
   open addressing.  Only ids are stored (slot: id + 1; 0: empty), the
   keys being in the records: a key of its own beside each of the tens
   of thousands of records cost more than the records' index. */
typedef struct {
   UInt* slot;
   UInt  mask;   /* slots - 1, a power of two - 1 */
   UInt  used;
   KeyOf key_of;
} Index;

static Index edge_index, node_index, fn_incl_index;

static void set_key(Key* key, UInt a, UInt b, UInt c, UInt d, UInt e, Addr addr)
{
   key->k[0] = a; key->k[1] = b; key->k[2] = c; key->k[3] = d; key->k[4] = e;
   key->addr = addr;
}

static UWord hash_key(const Key* key)
{
   UWord h = 14695981039346656037UL;
   Int   i;
   for (i = 0; i < 5; i++) h = (h ^ key->k[i]) * 1099511628211UL;
   h = (h ^ key->addr) * 1099511628211UL;
   return h ^ (h >> 29);
}

static Bool same_key(const Key* x, const Key* y)
{
   return x->addr == y->addr && VG_(memcmp)(x->k, y->k, sizeof x->k) == 0;
}

static void init_index(Index* t, KeyOf key_of)
{
   t->mask   = 1023;
   t->used   = 0;
   t->key_of = key_of;
   t->slot   = VG_(calloc)("vp.cg.index", t->mask + 1, sizeof(UInt));
}

/* The slot holding key's id, or the empty slot where it would go. */
static UInt* slot_of(const Index* t, const Key* key)
{
   UWord i = hash_key(key) & t->mask;
   for (;; i = (i + 1) & t->mask) {
      Key here;
      if (t->slot[i] == 0)
         return &t->slot[i];
      t->key_of(t->slot[i] - 1, &here);
      if (same_key(&here, key))
         return &t->slot[i];
   }
}

/* Twice the slots, so that at most half are used. */
static void grow_index(Index* t)
{
   UInt* old   = t->slot;
   UInt  n_old = t->mask + 1, i;
   t->mask = 2 * n_old - 1;
   t->slot = VG_(calloc)("vp.cg.index", t->mask + 1, sizeof(UInt));
   for (i = 0; i < n_old; i++) {
      Key key;
      if (old[i] == 0) continue;
      t->key_of(old[i] - 1, &key);
      *slot_of(t, &key) = old[i];
   }
   VG_(free)(old);
}

/* The id stored for k, or VP_NO_ID. */
static UInt lookup(const Index* t, UInt a, UInt b, UInt c, UInt d, UInt e, Addr addr)
{
   Key probe;
   set_key(&probe, a, b, c, d, e, addr);
   UInt s = *slot_of(t, &probe);
   return s ? s - 1 : VP_NO_ID;
}

/* Records id, whose record holds the key, as not yet in the index. */
static void insert(Index* t, UInt id)
{
   Key key;
   if (2 * (t->used + 1) > t->mask + 1)
      grow_index(t);
   t->key_of(id, &key);
   *slot_of(t, &key) = id + 1;
   t->used++;
}

/* Each table's key, as lookup is asked for it: a path node by parent,
   function and, for a root, thread (other nodes belong to their root's). */
static void edge_key(UInt id, Key* out)
{
   const VP_Edge* r = record(&edges, id);
   set_key(out, r->caller, r->callee, r->file, r->line, r->tid, r->addr);
}

static void node_key(UInt id, Key* out)
{
   const VP_PathNode* r = record(&nodes, id);
   set_key(out, r->parent, r->fn, r->parent == VP_NO_ID ? r->tid : 0, 0, 0, 0);
}

static void fn_incl_key(UInt id, Key* out)
{
   const VP_FnIncl* r = record(&fn_incl, id);
   set_key(out, r->fn, r->tid, 0, 0, 0, 0);
}

/* The edge and node of recent calls: a call repeats where it was made
   before far more often than it is new, and the hash tables' generic
   lookups cost more than this probe.  The site is its cell (one cell has
   one address and location), so that an entry fills half a cache line.
   A call's set, one cache line of two entries, follows from the site and
   the caller alone, not the callee: a call through a PLT stub knows them
   when it enters the stub, and fetches the line into the cache while the
   stub's jump runs (the table is mostly not in the cache); the two ways
   keep an indirect call's two most recent callees. */
typedef struct {
   const VP_InstrCC* site;
   UInt caller_node, caller_fn, callee, tid;
   UInt edge, node;
} CallCacheEntry;

#define CALL_CACHE_SETS 8192
static CallCacheEntry call_cache[CALL_CACHE_SETS][2] __attribute__((aligned(64)));

static inline CallCacheEntry* call_set(UInt caller_node, CallSite s, UInt tid)
{
   UInt h = caller_node * 2654435761u ^ (UInt)((UWord)s >> 4) * 40503u ^ tid * 9973u;
   return call_cache[(h ^ h >> 15) & (CALL_CACHE_SETS - 1)];
}

/* A record made on the stack before it is added to its table: the
   largest of them with VP_MAX_EVENTS costs, zeroed. */
static ULong blank[(sizeof(VP_PathNode) + VP_MAX_EVENTS * sizeof(ULong)) / sizeof(ULong) + 2];

static void* blank_record(void)
{
   VG_(memset)(blank, 0, sizeof blank);
   return blank;
}

/* Whether any --toggle-collect pattern was given: when none was, as
   usual, entering and leaving a function asks nothing about it. */
static Bool any_toggles;

/* After the events are chosen: each record has room for their costs only. */
void VP_(init_callgraph)(void)
{
   Int   i;
   SizeT costs = VP_(n_events) * sizeof(ULong);
   tl_assert(sizeof(VP_Edge) + costs <= sizeof blank && sizeof(VP_FnIncl) + costs <= sizeof blank);
   init_records(&edges, "vp.cg.edges", sizeof(VP_Edge) + costs);
   init_records(&nodes, "vp.cg.nodes", sizeof(VP_PathNode) + costs);
   init_records(&fn_incl, "vp.cg.fnincl", sizeof(VP_FnIncl) + costs);
   init_index(&fn_incl_index, fn_incl_key);
   init_index(&edge_index, edge_key);
   contexts   = VG_(calloc)("vp.cg.contexts", VG_N_THREADS, sizeof(Context*));
   for (i = 0; i < CALL_CACHE_SETS; i++) call_cache[i][0].edge = call_cache[i][1].edge = VP_NO_ID;
   any_toggles = VG_(sizeXA)(VP_(clo).toggle_collect) > 0;
   init_index(&node_index, node_key);
}

/*------------------------------------------------------------*/
/*--- Clocks                                               ---*/
/*------------------------------------------------------------*/

/* Whether costs are being collected: while not, every clock stands. */
static Bool clocks_on = True;

/* What a context's clock reads: its cost so far in event e is
   clock_of(c)[e] - c->offset[e]. */
static inline const ULong* clock_of(const Context* c)
{
   return c == running && clocks_on ? VP_(total) : c->out_at;
}

/* A context's clock stands from freeze to thaw: whatever the totals grow
   by meanwhile is not its cost. */
static void freeze(Context* c)
{
   Int e;
   for (e = 0; e < (Int)VP_(n_events); e++) c->out_at[e] = VP_(total)[e];
}

static void thaw(Context* c)
{
   Int e;
   for (e = 0; e < (Int)VP_(n_events); e++) c->offset[e] += VP_(total)[e] - c->out_at[e];
}

/* No block is settled inline until VP_(sb_entry) has looked at the
   running context again: called whenever the running context, its frames
   or VP_(ending) may change outside VP_(sb_entry). */
static void entry_checks_off(void)
{
   VP_(entry_sp_limit) = 0;
}

static void stop_clock(Context* c)
{
   if (clocks_on) freeze(c);
   c->saved_sb      = VP_(cur_sb);
   c->saved_exit    = VP_(cur_exit);
   c->saved_call_cc = VP_(call_cc);
   entry_checks_off();
}

static void start_clock(Context* c)
{
   if (clocks_on) thaw(c);
   VP_(cur_sb)   = c->saved_sb;
   VP_(cur_exit) = c->saved_exit;
   VP_(call_cc)  = c->saved_call_cc;
   running = c;
}

/* The context's last block is not known (none yet, or it went away). */
static void forget_last_sb(Context* c)
{
   if (c == running) {
      VP_(cur_sb)   = NULL;
      VP_(cur_exit) = VP_NO_CONTEXT << VP_EXIT_BITS;
   } else {
      c->saved_sb   = NULL;
      c->saved_exit = VP_NO_CONTEXT << VP_EXIT_BITS;
   }
}

void VP_(callgraph_set_collecting)(Bool on)
{
   entry_checks_off();   /* VP_(ending) may change with it */
   if (on == clocks_on)
      return;
   if (running) {
      if (on) thaw(running);
      else    freeze(running);
   }
   clocks_on = on;
}

static Context* new_context(Context* outer, Bool is_handler, ThreadId tid)
{
   Context* c = VG_(calloc)("vp.cg.ctx", 1, sizeof(Context));
   Int      e;
   c->outer      = outer;
   c->is_handler = is_handler;
   c->tid        = VP_(clo).separate_threads ? tid : 0;
   c->thread     = tid;
   c->guest_fn   = VP_NO_ID;
   c->saved_exit = VP_NO_CONTEXT << VP_EXIT_BITS;
   for (e = 0; e < (Int)VP_(n_events); e++) c->out_at[e] = c->offset[e] = VP_(total)[e];
   return c;
}

/* Makes tid's innermost context the running one. */
static void switch_to_thread(ThreadId tid)
{
   if (running)
      stop_clock(running);
   if (contexts[tid] == NULL)
      contexts[tid] = new_context(NULL, False, tid);
   start_clock(contexts[tid]);
   running_tid = tid;
}

/*------------------------------------------------------------*/
/*--- Records                                              ---*/
/*------------------------------------------------------------*/

static UInt incl_row_for(UInt fn, UInt tid)
{
   UInt id = lookup(&fn_incl_index, fn, tid, 0, 0, 0, 0);
   if (id == VP_NO_ID) {
      VP_FnIncl* r = blank_record();
      r->fn  = fn;
      r->tid = tid;
      id = add_record(&fn_incl, r);
      insert(&fn_incl_index, id);
   }
   return id;
}

static UInt edge_for(UInt caller, UInt callee, UInt file, UInt line, UInt tid, Addr addr)
{
   UInt id = lookup(&edge_index, caller, callee, file, line, tid, addr);
   if (id == VP_NO_ID) {
      VP_Edge* e = blank_record();
      e->caller = caller; e->callee = callee; e->file = file; e->line = line; e->tid = tid;
      e->addr = addr;
      id = add_record(&edges, e);
      insert(&edge_index, id);
   }
   return id;
}

/* Roots are told apart by thread too (tid is 0 unless the threads are
   separated); other nodes belong to their root's thread. */
static UInt new_node(UInt parent, UInt fn, UInt tid)
{
   VP_PathNode* n = blank_record();
   n->parent = parent;
   n->fn     = fn;
   n->tid    = tid;
   UInt id = add_record(&nodes, n);
   insert(&node_index, id);
   return id;
}

/* The child of parent for fn; past --max-path-nodes, the parent's
   [truncated] child, which also stands for everything below it. */
static UInt node_for(UInt parent, UInt fn, UInt tid)
{
   if (parent != VP_NO_ID
       && ((VP_PathNode*)record(&nodes, parent))->fn == VP_NO_ID)
      return parent;
   UInt id = lookup(&node_index, parent, fn, parent == VP_NO_ID ? tid : 0, 0, 0, 0);
   if (id != VP_NO_ID)
      return id;
   if ((UInt)n_records(&nodes) < VP_(clo).max_path_nodes || parent == VP_NO_ID)
      return new_node(parent, fn, tid);
   id = lookup(&node_index, parent, VP_NO_ID, 0, 0, 0, 0);
   return id != VP_NO_ID ? id : new_node(parent, VP_NO_ID, tid);
}

/*------------------------------------------------------------*/
/*--- Pushing and popping frames                           ---*/
/*------------------------------------------------------------*/

/* The frames of functions at and below f: kept in each frame as it is
   pushed, so that a span's depth costs nothing however deep a stack grows
   (a loop that jumps back to its function's start pushes a frame each
   time round). */
static inline UInt outer_depth_of(const Frame* f)
{
   return f->below + (f->skip ? 0 : 1);
}

/* The frames of functions in context c and the ones it interrupted. */
static UInt outer_depth(const Context* c)
{
   for (; c; c = c->outer)
      if (c->depth > 0) return outer_depth_of(&c->frames[c->depth - 1]);
   return 0;
}

static Frame* push_frame(Context* c)
{
   if (c->depth == c->cap) {
      c->cap    = c->cap ? 2 * c->cap : 64;
      c->frames = VG_(realloc)("vp.cg.frames", c->frames, c->cap * sizeof(Frame));
   }
   Frame* f = &c->frames[c->depth++];
   f->below = c->depth > 1 ? outer_depth_of(&c->frames[c->depth - 2]) : outer_depth(c->outer);
   /* Field by field, what the callers do not set themselves: a frame is
      pushed at most calls, returns and jumps between functions.  enter[]
      is set when a function is entered, and unused otherwise; strfn_arg[]
      with strfn_count. */
   f->ret_after_site = False;
   f->fn          = 0;
   f->incl_row    = 0;
   f->skip        = False;
   f->inside      = False;
   f->outermost   = False;
   f->uncounted   = False;
   f->strfn       = False;
   f->strfn_count = VP_SF_NONE;
   return f;
}

static __attribute__((noinline)) void grow_fn_states(Context* c, UInt fn)
{
   UInt n = fn + 1 > 2 * c->n_fns ? fn + 1 : 2 * c->n_fns;
   UInt i;
   c->fns = VG_(realloc)("vp.cg.fns", c->fns, n * sizeof(FnState));
   for (i = c->n_fns; i < n; i++) {
      c->fns[i].active   = 0;
      c->fns[i].incl_row = VP_NO_ID;
   }
   c->n_fns = n;
}

static inline FnState* fn_state(Context* c, UInt fn)
{
   if (UNLIKELY(fn >= c->n_fns))
      grow_fn_states(c, fn);
   return &c->fns[fn];
}

/* The innermost frame that belongs to a function. */
static Frame* context_frame(Context* c)
{
   Int i;
   for (i = (Int)c->depth - 1; i >= 0; i--)
      if (!c->frames[i].skip) return &c->frames[i];
   return NULL;
}

static void enter_fn(Context* c, Frame* f, UInt fn, UInt node)
{
   Int e;
   f->fn   = fn;
   f->node = node;
   FnState* st = fn_state(c, fn);
   f->outermost = st->active++ == 0;
   if (f->outermost) {
      if (st->incl_row == VP_NO_ID)
         st->incl_row = incl_row_for(fn, c->tid);
      f->incl_row = st->incl_row;
   }
   if (f->outermost && any_toggles && VP_(fn_toggles_collection)(fn))
      VP_(set_collecting)(!VP_(collecting));
   const ULong* clock = clock_of(c);
   for (e = 0; e < (Int)VP_(n_events); e++) f->enter[e] = clock[e] - c->offset[e];
   f->span_start = VP_(heap_now)();
}

static void push_root(Context* c, UInt fn, Addr sp)
{
   Frame* f = push_frame(c);
   f->sp   = sp;
   f->site = NULL;
   f->edge = VP_NO_ID;
   enter_fn(c, f, fn, node_for(VP_NO_ID, fn, c->tid));
}


/* The node a call made from inlined code hangs from: below the caller's
   node, one node per inlined call the calling code lies in, outermost
   first, each named after its inlined function.  Those nodes are never
   entered (their code's cost is the caller's own) and hold what their
   calls cost. */
static UInt inlined_node(UInt caller_node, UInt inl, UInt tid)
{
   if (inl == VP_NO_INL)
      return caller_node;
   const VP_Inl* call = VP_(inl)(inl);
   return node_for(inlined_node(caller_node, call->parent, tid), call->fn, tid);
}

/* The probe is hashed from the site's cell's address, not from what the
   cell holds, so that a hit reads nothing of the cell. */
static inline Bool cache_entry_is(const CallCacheEntry* e, CallSite s, UInt caller_node,
                                  UInt caller_fn, UInt callee, UInt tid)
{
   return e->site == s && e->caller_node == caller_node && e->caller_fn == caller_fn
          && e->callee == callee && e->tid == tid && e->edge != VP_NO_ID;
}

static void fill_cache_entry(CallCacheEntry* e, CallSite s, UInt caller_node, UInt caller_fn,
                             UInt callee, UInt tid)
{
   e->site        = s;
   e->caller_node = caller_node;
   e->caller_fn   = caller_fn;
   e->callee      = callee;
   e->tid         = tid;
   e->edge        = edge_for(caller_fn, callee, s->loc.file, s->loc.line, tid, s->addr);
   e->node        = node_for(inlined_node(caller_node, s->loc.inl, tid), callee, tid);
}

static void edge_and_node(UInt caller_node, UInt caller_fn, UInt callee,
                          CallSite s, UInt tid, UInt* edge, UInt* node)
{
   CallCacheEntry* set = call_set(caller_node, s, tid);
   CallCacheEntry* e   = &set[0];
   if (!cache_entry_is(e, s, caller_node, caller_fn, callee, tid)) {
      e = &set[1];
      if (!cache_entry_is(e, s, caller_node, caller_fn, callee, tid)) {
         set[1] = set[0];   /* the most recent first */
         e = &set[0];
         fill_cache_entry(e, s, caller_node, caller_fn, callee, tid);
      }
   }
   *edge = e->edge;
   *node = e->node;
}

/* A call of a string function takes its arguments now, at its first
   instruction; one made inside another is part of the outer one's, and
   one made inside a call of the allocator (calloc's memset, realloc's
   memcpy) is the allocator's, even when it returns for it.  The dynamic
   linker calls the function's IFUNC resolver, named as the function
   (libc's "memcpy" picks __memmove_avx_unaligned_erms): that call has no
   string arguments, and taking the registers as such made it touch
   whatever heap blocks lay in a range of up to gigabytes (the first call
   of memcpy through a lazily bound PLT entry, a module loaded later). */
static void enter_strfn(Context* c, Frame* f, UInt caller_fn)
{
   VP_StrFn fam = VP_(strfn_family)(f->fn);
   if (fam == VP_SF_NONE || VP_(strfn_caller_is_linker)(caller_fn))
      return;
   f->strfn = True;
   if (c->in_strfn++ > 0 || VP_(in_alloc))
      return;
   f->strfn_count = (UChar)fam;
   VG_(get_shadow_regs_area)(running_tid, (UChar*)&f->strfn_arg[0], 0,
                             offsetof(VexGuestAMD64State, guest_RDI), sizeof(UWord));
   VG_(get_shadow_regs_area)(running_tid, (UChar*)&f->strfn_arg[1], 0,
                             offsetof(VexGuestAMD64State, guest_RSI), sizeof(UWord));
   VG_(get_shadow_regs_area)(running_tid, (UChar*)&f->strfn_arg[2], 0,
                             offsetof(VexGuestAMD64State, guest_RDX), sizeof(UWord));
}

static void push_call(Context* c, const Entered* callee, Addr sp, Bool ret_after_site,
                      CallSite site)
{
   Frame* caller = context_frame(c);
   Frame* f;
   tl_assert(caller);
   UInt   caller_fn = caller->fn, caller_node = caller->node;

   f = push_frame(c);
   f->sp        = sp;
   f->ret_after_site = ret_after_site;
   f->site      = site;
   if (callee->in_plt) {
      f->skip = True;
      f->node = f->edge = VP_NO_ID;
      /* The stub's jump makes this call, from this site and caller. */
      __builtin_prefetch(call_set(caller_node, site, c->tid));
      return;
   }
   UInt node;
   edge_and_node(caller_node, caller_fn, callee->fn, site, c->tid, &f->edge, &node);
   /* Inside a [truncated] node the outermost call alone counts for it,
      or its cost would be counted once per level. */
   f->inside = node == caller_node;
   enter_fn(c, f, callee->fn, node);
   if (VP_(clo).heap)
      enter_strfn(c, f, caller_fn);
   /* Counted when the frame's costs are first added to its records, in
      the cache lines that adds to (they are mostly not in the cache at
      the call), whether or not costs are being collected, as callgrind
      counts; an edge all of whose calls cost nothing is left out when the
      profile is written.  The calls of the C library's clean-up that
      Valgrind runs after the program has ended are not the program's:
      not counted (callgrind does not see them either). */
   f->uncounted = !VP_(ending);
}

/* Adds what frame f has cost since it was entered (or last checkpointed)
   to its records. */
static void account_frame(Context* c, Frame* f)
{
   Int e, n = (Int)VP_(n_events);
   if (f->skip) return;
   ULong*       node = f->inside ? NULL : ((VP_PathNode*)record(&nodes, f->node))->incl;
   ULong*       edge = f->edge == VP_NO_ID ? NULL
                       : ((VP_Edge*)record(&edges, f->edge))->incl;
   ULong*       row  = f->outermost ? ((VP_FnIncl*)record(&fn_incl, f->incl_row))->incl
                       : NULL;
   const ULong* clock = clock_of(c);
   if (f->uncounted) {
      ((VP_Edge*)record(&edges, f->edge))->count++;
      if (node) ((VP_PathNode*)record(&nodes, f->node))->count++;
      f->uncounted = False;
   }
   for (e = 0; e < n; e++) {
      ULong d = clock[e] - c->offset[e] - f->enter[e];
      f->enter[e] += d;
      if (node) node[e] += d;
      if (edge) edge[e] += d;
      if (row)  row[e]  += d;
   }
}

/* Adds what the guest's code has cost since it started running (or was
   last accounted) to its function's inclusive cost. */
static void account_guest(Context* c)
{
   Int e;
   if (c->guest_fn == VP_NO_ID) return;
   ULong*       row   = ((VP_FnIncl*)record(&fn_incl, c->guest_row))->incl;
   const ULong* clock = clock_of(c);
   for (e = 0; e < (Int)VP_(n_events); e++) {
      ULong d = clock[e] - c->offset[e] - c->guest_enter[e];
      c->guest_enter[e] += d;
      row[e] += d;
   }
}

/* The block about to run is fn's code: it runs as a guest when fn has no
   active frame in this context. */
static void settle_guest(Context* c, UInt fn)
{
   Int e;
   if (fn == c->guest_fn) return;
   account_guest(c);
   c->guest_fn = VP_NO_ID;
   if (c->depth == 0) return;
   FnState* st = fn_state(c, fn);
   if (st->active > 0) return;
   if (st->incl_row == VP_NO_ID)
      st->incl_row = incl_row_for(fn, c->tid);
   c->guest_fn  = fn;
   c->guest_row = st->incl_row;
   const ULong* clock = clock_of(c);
   for (e = 0; e < (Int)VP_(n_events); e++) c->guest_enter[e] = clock[e] - c->offset[e];
}

static void end_guest(Context* c)
{
   account_guest(c);
   c->guest_fn = VP_NO_ID;
}

/* Calls visit on every context of every thread, a signal handler's and
   the ones it interrupted alike. */
static void each_context(void (*visit)(Context*))
{
   Int t;
   Context* c;
   for (t = 0; t < VG_N_THREADS; t++)
      for (c = contexts[t]; c; c = c->outer) visit(c);
}

/*------------------------------------------------------------*/
/*--- Spans of the timeline                                ---*/
/*------------------------------------------------------------*/

/* Whether the frames being popped are cut, not returning: a thread's
   end, the program's, or instrumentation switched off. */
static Bool cutting;

/* Frame i of c's depth on its thread's stack: the frames of functions
   below it, the interrupted contexts' included (a PLT stub's frame is
   none). */
static inline UInt span_depth(const Context* c, UInt i)
{
   return c->frames[i].below;
}

/* Frame i of c as a span ending now, with what it cost since it was
   entered or last accounted: what account_frame is about to add to its
   path node. */
static void add_span(Context* c, UInt i, Bool open)
{
   const Frame* f = &c->frames[i];
   ULong        cost[VP_MAX_EVENTS];
   const ULong* clock = clock_of(c);
   Int          e;
   for (e = 0; e < (Int)VP_(n_events); e++) cost[e] = clock[e] - c->offset[e] - f->enter[e];
   VP_(timeline_add_span)(c->thread, span_depth(c, i), f->fn, f->node, f->span_start,
                          VP_(heap_now)(), open, cost);
}

/* Only a frame that lasted at least the threshold, or is cut, is looked
   at further. */
static inline void span_on_pop(Context* c)
{
   const Frame* f = &c->frames[c->depth - 1];
   if (f->skip) return;
   if (cutting || VP_(heap_now)() - f->span_start >= VP_(span_threshold))
      add_span(c, c->depth - 1, cutting);
   else
      VP_(spans_offered)++;
}

static void cut_context_spans(Context* c)
{
   UInt i;
   for (i = 0; i < c->depth; i++)
      if (!c->frames[i].skip) add_span(c, i, True);
}

void VP_(callgraph_cut_spans)(void)
{
   each_context(cut_context_spans);
}

static void pop_frame(Context* c)
{
   Frame* f = &c->frames[c->depth - 1];
   if (VP_(clo).timeline)
      span_on_pop(c);
   account_frame(c, f);
   if (f->strfn) {
      c->in_strfn--;
      if (f->strfn_count != VP_SF_NONE)
         VP_(strfn_account)((VP_StrFn)f->strfn_count, f->strfn_arg, f->sp);
   }
   if (!f->skip) {
      fn_state(c, f->fn)->active--;
      if (f->outermost && any_toggles && VP_(fn_toggles_collection)(f->fn))
         VP_(set_collecting)(!VP_(collecting));
   }
   c->depth--;
}

/* A handler context whose frames are all gone: its signal handler was
   left, by a return or a longjmp; continue in the interrupted context. */
static void leave_handler(ThreadId tid)
{
   Context* h = contexts[tid];
   tl_assert(h->is_handler && h->depth == 0);
   end_guest(h);
   stop_clock(h);
   contexts[tid] = h->outer;
   start_clock(h->outer);
   VG_(free)(h->frames);
   VG_(free)(h->fns);
   VG_(free)(h);
}

/* Pops the frames the stack pointer has left, and at least min_pops
   frames entered at exactly sp.  Returns how many were popped. */
static Int unwind(ThreadId tid, Addr sp, Int min_pops)
{
   Int n = 0;
   for (;;) {
      Context* c = contexts[tid];
      Bool     handler_root = c->is_handler && c->depth == 1;
      if (c->depth == 0 || (c->depth == 1 && !c->is_handler))
         break;
      if (handler_root && sp < c->interrupted_sp)
         break;
      Frame* top = &c->frames[c->depth - 1];
      if (!(top->sp < sp || (top->sp == sp && min_pops > 0)))
         break;
      pop_frame(c);
      min_pops--;
      n++;
      if (handler_root)
         leave_handler(tid);
   }
   return n;
}

/* A return with no call to return from: start a new root for the
   function returned into, as callgrind does on a call-stack underflow. */
static void underflow(Context* c, const Entered* sb)
{
   while (c->depth > 0)
      pop_frame(c);
   push_root(c, sb->fn, ~(Addr)0);
}

/*------------------------------------------------------------*/
/*--- The superblock-entry hook                            ---*/
/*------------------------------------------------------------*/

/* Where frame f's call instruction returns to; 0 if the call was emulated. */
static Addr frame_ret_addr(const Frame* f)
{
   return f->ret_after_site ? f->site->addr + f->site->len : 0;
}

/* A real return pops at least the top frame: its stack pointer was left,
   or it is the same and this block is the return address of the top
   frame (or of frames below it entered at the same stack pointer). */
static Int pops_for_return(Context* c, const Entered* sb, Addr sp)
{
   Int i   = (Int)c->depth - 1;
   Int pops = 1;
   if (sp < c->frames[i].sp) return 0;
   if (sp > c->frames[i].sp) return 1;
   for (;;) {
      if (frame_ret_addr(&c->frames[i]) == sb->sb->orig_addr) return pops;
      if (i > 1 && c->frames[i - 1].sp == sp) { i--; pops++; continue; }
      return 0;
   }
}

/* The core's own variable, read directly: this runs for every block and
   VG_(get_running_tid) would cost a call to return it. */
extern ThreadId VG_(running_tid);

static void follow(const Entered* sb, Addr sp);

/* Whether the running context is the running thread's innermost, with
   a frame: what a block's inline entry test (vp_instr.c) takes for
   granted while VP_(entry_sp_limit) is not 0. */
static Bool running_is_current(void)
{
   Context* c = running;
   return c != NULL && VG_(running_tid) == running_tid && c == contexts[running_tid]
          && c->depth > 0;
}

/* Whatever happened, the block now running is the last one seen by the
   context now running (the block stores that itself once this returns):
   leaving a signal handler (a longjmp out of it) switches context in the
   middle of follow(). */
static __attribute__((noinline)) void entry_slow(const Entered* sb, Addr sp)
{
   follow(sb, sp);
   settle_guest(running, sb->fn);
}

/* Called by the blocks the inline entry test cannot settle.  Some of
   them still follow a jump inside one function and leave no frame (nor
   change which function's code runs): the test was off (a new time
   slice, a signal), or the block starts a function; they are settled
   here, and everything else goes on to follow().  Then the inline test
   is switched on for the blocks to come if it can hold. */
void VP_(sb_entry)(UWord sb_flags, Addr sp)
{
   VP_SB* block = (VP_SB*)(sb_flags & ~(UWord)VP_ENTERED_FLAGS);
   UWord  flags = sb_flags & VP_ENTERED_FLAGS;
   if (UNLIKELY(VP_(ending)))
      VP_(save_sb_cells)(block);
   Entered sb = { block, block->fn, block->obj,
                  (flags & VP_ENTERED_IS_ENTRY) != 0, (flags & VP_ENTERED_IN_PLT) != 0 };
   Bool settled = False;
   /* The exit word holds the context a block entered through it must
      have (a plain jump from fn's code in fn's object, of the same kind),
      so the test reads nothing of the block left. */
   if (LIKELY(running_is_current())) {
      Context* c = running;
      settled = VP_(cur_sb) != NULL && !sb.is_entry
                && VP_(cur_exit) >> VP_EXIT_BITS == VP_(block_context)(sb.fn, sb.in_plt)
                && c->frames[c->depth - 1].sp >= sp;
   }
   if (!settled)
      entry_slow(&sb, sp);
   VP_(entry_sp_limit) = !VP_(ending) && running_is_current()
                         ? running->frames[running->depth - 1].sp : 0;
}

VG_REGPARM(1) void VP_(fn_switch)(UWord fn)
{
   if (running != NULL)
      settle_guest(running, (UInt)fn);
}

const VP_SB* VP_(callgraph_current_sb)(void)
{
   return running != NULL ? VP_(cur_sb) : NULL;
}

/* The call made by a block's exit, which returns to the instruction
   after it (its frame finds where from the cell).  A call by the final
   exit that the exit word marked as such has its cell in VP_(call_cc),
   so that neither the block's arrays nor the cell are read at the call;
   any other (seldom: a call by a side exit, or after the exit word was
   reset) is found through the block's arrays. */
static CallSite exit_site(VP_SB* last, UWord exit, Bool marked_call)
{
   return marked_call ? VP_(call_cc) : VP_(sb_instr_cc)(last)[VP_(sb_exit_instr)(last)[exit]];
}

static void follow(const Entered* sb, Addr sp)
{
   ThreadId tid = VG_(running_tid);
   if (UNLIKELY(tid != running_tid || running != contexts[tid]))
      switch_to_thread(tid);
   Context* c    = running;
   VP_SB*   last = VP_(cur_sb);
   UWord    exit = VP_(cur_exit) & VP_EXIT_MASK;
   UWord    ctx  = VP_(cur_exit) >> VP_EXIT_BITS;

   if (c->depth == 0) {           /* a thread's or a handler's first block */
      push_root(c, sb->fn, c->is_handler ? sp : ~(Addr)0);
      return;
   }
   if (last == NULL)
      return;
   /* The exit word tells returns and calls: the record of the block
      left is mostly not in the cache. */
   VP_JumpKind exit_jk;
   if (ctx == VP_RET_CONTEXT)
      exit_jk = VP_JK_RET;
   else if (ctx == VP_CALL_CONTEXT)
      exit_jk = VP_JK_CALL;
   else if (ctx == VP_PLT_JUMP_CONTEXT)
      exit_jk = VP_JK_JUMP;
   else {
      tl_assert(exit < last->n_exits);
      exit_jk = VP_(sb_exit_jk)(last)[exit];
   }
   VP_JumpKind jk = exit_jk;
   /* A PLT stub's jump out of the PLT: a call whatever else holds. */
   Bool plt_out = ctx == VP_PLT_JUMP_CONTEXT && !sb->in_plt;

   /* Most blocks follow a jump inside one function and leave no frame:
      settle them before anything else is looked at. */
   if (LIKELY(jk == VP_JK_JUMP && !plt_out && !sb->is_entry && last->in_plt == sb->in_plt
              && last->obj == sb->obj && c->frames[c->depth - 1].sp >= sp))
      return;

   Bool        emulated  = False, resolved = False;
   CallSite    resolved_site = NULL;
   Int         pops      = 1;
   Bool        has_calls = c->depth > 1;

   if (jk == VP_JK_RET && has_calls) {
      pops = pops_for_return(c, sb, sp);
      if (pops == 0) jk = VP_JK_JUMP;
   }
   if (jk == VP_JK_JUMP
       && (plt_out || jk != exit_jk || sb->is_entry
           || last->in_plt != sb->in_plt || last->obj != sb->obj)) {
      /* The lazy-binding resolver jumps to the function it resolved: that
         is the caller's call, not the resolver's. */
      if (!plt_out && last->pop_on_jump && has_calls && !c->frames[c->depth - 1].skip) {
         resolved_site = c->frames[c->depth - 1].site;
         resolved = True;
         sp = c->frames[c->depth - 1].sp;
         pop_frame(c);
      }
      jk = VP_JK_CALL;
      emulated = True;
   }

   if (jk == VP_JK_RET) {
      /* A handler's return lands in Valgrind's sigreturn stub, which still
         runs in the handler's context, as in callgrind. */
      if (has_calls)
         unwind(tid, sp, pops);
      else
         underflow(c, sb);
      return;
   }
   /* Mostly no frame was left: unwind() would stop at the top frame. */
   if (c->frames[c->depth - 1].sp < sp && unwind(tid, sp, 0) > 0)
      return;                      /* left frames: a return, not a call */
   if (jk != VP_JK_CALL)
      return;

   c = contexts[tid];
   Frame*   top = emulated && c->depth > 1 ? &c->frames[c->depth - 1] : NULL;
   CallSite site;
   Bool     ret_after_site = False;
   if (top)
      sp = top->sp;
   if (top && top->skip)           /* a PLT stub jumping on: the call is the caller's */
      site = top->site;
   else if (resolved)
      site = resolved_site;
   else {
      site = exit_site(last, exit, ctx == VP_CALL_CONTEXT);
      ret_after_site = !emulated;
   }
   push_call(c, sb, sp, ret_after_site, site);
}

/* A translation is going away: no context may keep pointing at it. */
void VP_(forget_sb)(VP_SB* sb)
{
   Int t;
   for (t = 0; t < VG_N_THREADS; t++) {
      Context* c;
      for (c = contexts[t]; c; c = c->outer)
         if ((c == running ? VP_(cur_sb) : c->saved_sb) == sb) forget_last_sb(c);
   }
}

/*------------------------------------------------------------*/
/*--- Threads and signals                                  ---*/
/*------------------------------------------------------------*/

void VP_(callgraph_pre_signal)(ThreadId tid)
{
   if (tid != running_tid || running != contexts[tid])
      switch_to_thread(tid);
   Context* h = new_context(contexts[tid], True, tid);
   h->interrupted_sp = VG_(get_SP)(tid);
   stop_clock(contexts[tid]);
   contexts[tid] = h;
   start_clock(h);
}

void VP_(callgraph_post_signal)(ThreadId tid)
{
   Context* h = contexts[tid];
   entry_checks_off();
   if (h == NULL || !h->is_handler)
      return;   /* the handler was already left by a longjmp */
   if (tid != running_tid || running != h)
      switch_to_thread(tid);
   while (h->depth > 0)
      pop_frame(h);
   leave_handler(tid);
}

/* Every frame of the thread returns; a later thread with the same id
   starts afresh. */
static void thread_exit(ThreadId tid)
{
   entry_checks_off();
   if (contexts[tid] == NULL)
      return;
   if (tid != running_tid || running != contexts[tid])
      switch_to_thread(tid);
   cutting = True;
   for (;;) {
      Context* c = contexts[tid];
      while (c->depth > 0)
         pop_frame(c);
      end_guest(c);
      if (!c->is_handler)
         break;
      leave_handler(tid);
   }
   cutting = False;
   forget_last_sb(contexts[tid]);
}

/* Another thread may have run since this one's last block: its exit is
   not this thread's. */
void VP_(callgraph_thread_runs)(ThreadId tid)
{
   entry_checks_off();
}

void VP_(register_callgraph_tracking)(void)
{
   VG_(track_pre_thread_ll_exit)(thread_exit);
}

/*------------------------------------------------------------*/
/*--- Dumps                                                ---*/
/*------------------------------------------------------------*/

/* Brings every record up to date with the frames still active, as if
   they returned now, without popping them. */
static void checkpoint_context(Context* c)
{
   UInt i;
   for (i = 0; i < c->depth; i++)
      account_frame(c, &c->frames[i]);
   account_guest(c);
}

void VP_(callgraph_checkpoint)(void)
{
   each_context(checkpoint_context);
}

static void restart_context_spans(Context* c)
{
   UInt i;
   for (i = 0; i < c->depth; i++)
      c->frames[i].span_start = VP_(heap_now)();
}

/* Forgets every cost and count recorded, keeping the active frames,
   whose spans start again now. */
void VP_(callgraph_zero)(void)
{
   Word i;
   VP_(callgraph_checkpoint)();   /* restarts the active frames' clocks */
   each_context(restart_context_spans);
   for (i = 0; i < n_records(&edges); i++) {
      VP_Edge* e = record(&edges, i);
      e->count = 0;
      VG_(memset)(e->incl, 0, VP_(n_events) * sizeof(ULong));
   }
   for (i = 0; i < n_records(&nodes); i++) {
      VP_PathNode* n = record(&nodes, i);
      n->count = 0;
      VG_(memset)(n->incl, 0, VP_(n_events) * sizeof(ULong));
   }
   for (i = 0; i < n_records(&fn_incl); i++) {
      VP_FnIncl* r = record(&fn_incl, i);
      VG_(memset)(r->incl, 0, VP_(n_events) * sizeof(ULong));
   }
}

/* Instrumentation was switched on or off, or the program ends: every
   frame returns, and the first block of each thread starts a new root. */
void VP_(callgraph_reset_stacks)(void)
{
   Int t;
   for (t = 0; t < VG_N_THREADS; t++) {
      if (!contexts[t]) continue;
      thread_exit(t);
   }
}

UInt VP_(n_edges)(void)            { return (UInt)n_records(&edges); }
const VP_Edge* VP_(edge)(UInt i)   { return record(&edges, i); }
/* An inlined function's node is never entered: what it holds is what
   its children hold.  Children come after their parents, so one pass
   from the last node back settles every level. */
void VP_(settle_inlined_nodes)(void)
{
   Word i;
   Int  e, n = (Int)VP_(n_events);
   for (i = 0; i < n_records(&nodes); i++) {
      VP_PathNode* p = record(&nodes, i);
      if (p->fn != VP_NO_ID && VP_(fn)(p->fn)->inlined)
         VG_(memset)(p->incl, 0, n * sizeof(ULong));
   }
   for (i = n_records(&nodes) - 1; i >= 0; i--) {
      const VP_PathNode* p = record(&nodes, i);
      if (p->parent == VP_NO_ID) continue;
      VP_PathNode* up = record(&nodes, p->parent);
      if (up->fn != VP_NO_ID && VP_(fn)(up->fn)->inlined)
         for (e = 0; e < n; e++) up->incl[e] += p->incl[e];
   }
}

UInt VP_(n_path_nodes)(void)       { return (UInt)n_records(&nodes); }
const VP_PathNode* VP_(path_node)(UInt i) { return record(&nodes, i); }

UInt VP_(n_fn_incl)(void)               { return (UInt)n_records(&fn_incl); }
const VP_FnIncl* VP_(fn_incl)(UInt i)   { return record(&fn_incl, i); }
