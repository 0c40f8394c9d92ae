/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_data.h: what data each access touched, for the data section of the
   profile: the types and the hot path shared by the data-access helpers
   (vp_events.c), the heap (vp_heap.c), collection control (vp_collect.c)
   and the writer (vp_dump.c).

   Every simulated data access, miss or hit, is booked to one data object
   as well as to its instruction: a heap allocation site (and the offset
   in the block), a global or static variable (and the offset in it), the
   data of an object outside any symbol, the stack, the allocator's own
   bookkeeping, or "other".  The objects therefore add up to the
   program's Dr, D1mr, DLmr, Dw, D1mw and DLmw event by event.  Each
   miss is also booked to the (function, object) pair, which links the
   code that misses to the data it misses on. */

#ifndef VP_DATA_H
#define VP_DATA_H

#include "vp_heap.h"

/* The events of a data row, in this order: those of an access's kind
   (read or write) come as one, its D1 and LL misses after it. */
#define VP_DATA_EVENTS 6
enum { VP_DR = 0, VP_D1MR, VP_DLMR, VP_DW, VP_D1MW, VP_DLMW };
typedef struct { ULong c[VP_DATA_EVENTS]; } VP_DataCost;

typedef enum {
   VP_DK_HEAP = 0,   /* an allocation site's blocks */
   VP_DK_GLOBAL,     /* a data symbol of an object */
   VP_DK_UNNAMED,    /* an object's data outside any data symbol */
   VP_DK_STACK,      /* any thread's stack */
   VP_DK_ALLOC,      /* anything, while inside a call of the allocator */
   VP_DK_OTHER       /* the rest: anonymous mappings, thread-local storage */
} VP_DataKind;

/* A data object: its counts per offset bucket of 1 << shift bytes (one
   bucket for the kinds without offsets), in two arrays: the accesses,
   touched by every access and kept small so that they stay in the host's
   caches, and the misses, touched only on a miss.  Keeping the six counts
   of a bucket together made cache-simulated bzip2 4% slower: its large
   blocks spread the accesses over 4096 buckets.  The accesses are the Dr
   of every bucket, then the Dw of every bucket: a bucket's count is then
   one indexed addition to the start of its kind's half. */
typedef struct _VP_DataObj {
   struct _VP_DataObj* next;   /* hash chain; must come first */
   UWord        key;           /* hash key; must come second */
   ULong*       acc;           /* [2 * n_rows]: Dr of each bucket, then Dw */
   ULong*       acc_w;         /* acc + n_rows: the Dw half */
   ULong*       miss;          /* [4 * n_rows]: D1mr, DLmr, D1mw, DLmw */
   UInt         n_rows;
   UInt         shift;
   VP_DataKind  kind;
   UInt         name;          /* global: string id of the symbol; unnamed:
                                  of the section */
   UInt         obj;           /* global, unnamed: string id of the object */
   Addr         addr;          /* global: the symbol's address */
   SizeT        size;          /* bytes the buckets cover: the symbol's
                                  size, or the site's largest block */
   VP_Site*     site;          /* heap */
   /* The counts when collection went off, in the layout they had then. */
   ULong*       saved_acc;
   ULong*       saved_miss;
   UInt         saved_rows, saved_shift;
   UInt         number;        /* in the profile, while it is written */
} VP_DataObj;

/* One (function, data object) pair's misses: D1mr, DLmr, D1mw, DLmw. */
#define VP_DATA_MISSES 4
typedef struct _VP_FnData {
   struct _VP_FnData* next;    /* hash chain; must come first */
   UWord        key;           /* hash key; must come second */
   UInt         fn;
   VP_DataObj*  obj;
   ULong        miss[VP_DATA_MISSES];
   ULong        saved[VP_DATA_MISSES];
} VP_FnData;

/*------------------------------------------------------------*/
/*--- from vp_data.c                                       ---*/
/*------------------------------------------------------------*/

/* Whether data accesses are booked to data objects: --data=yes with the
   cache simulated and the heap profiled. */
extern Bool VP_(data_on);

/* The fixed objects, and the near range, [near_lo, near_lo + near_span],
   tested before anything else: the running thread's stack, whose
   accesses are all booked to the stack object.  The stack is near only
   while no heap block can lie in it (a pool carved out of a stack array
   by client requests could); otherwise its range is [stack_lo, stack_hi],
   tested after the heap's.  While the running thread is inside a call of
   the allocator (VP_(in_alloc)), every access is the allocator's object's
   wherever it falls, and both ranges are empty. */
extern VP_DataObj* VP_(data_alloc_obj);
extern VP_DataObj* VP_(data_stack_obj);
/* The stack object's counts of accesses, Dr and Dw, at a fixed address:
   its arrays are these for good. */
extern ULong       VP_(data_stack_acc)[2];
extern Addr        VP_(data_near_lo);
extern UWord       VP_(data_near_span);
extern Addr        VP_(data_stack_lo), VP_(data_stack_hi);

/* What lies outside the heap and the running thread's stack, cached by
   4 KiB page for pages that lie wholly in one object (a symbol's, or
   data outside any symbol), and by 16-byte granule: an entry serves the
   addresses of its granule within [lo, hi).  Offsets are counted from
   base (0 for an object without offsets: its one bucket).  The granules
   are two ways: the entry last made for an index, and the one it
   replaced, so that a granule that two objects share (a 4-byte symbol
   and the string literal after it, read in turn) is not looked up again
   at every other access. */
#define VP_DATA_GRANULE_SHIFT 4
#define VP_DATA_GRANULES      (1 << 12)
#define VP_DATA_PAGES         (1 << 10)
typedef struct {
   UWord       tag;
   Addr        lo, hi, base;
   VP_DataObj* obj;
} VP_DataGranule;
typedef struct {
   UWord       tag;
   Addr        base;
   VP_DataObj* obj;
   UInt        shift;   /* obj's, which does not change: one load fewer */
} VP_DataPage;
extern VP_DataGranule VP_(data_granules)[VP_DATA_GRANULES];
extern VP_DataGranule VP_(data_granules_old)[VP_DATA_GRANULES];
extern VP_DataPage    VP_(data_pages)[VP_DATA_PAGES];

VP_FnData*   VP_(data_fn_entry)(UInt fn, VP_DataObj* obj);

static inline __attribute__((always_inline))
UWord VP_(data_bucket_at)(const VP_DataObj* o, SizeT offset)
{
   UWord i = offset >> o->shift;
   return i < o->n_rows ? i : o->n_rows - 1;
}

/* The access counts of o's buckets for reads (w 0) or writes (w 1). */
static inline __attribute__((always_inline)) ULong* VP_(data_acc)(const VP_DataObj* o, UInt w)
{
   return w ? o->acc_w : o->acc;
}

/* Where an access falls: an object, and the bucket of its offset. */
typedef struct {
   VP_DataObj* obj;
   UWord       bucket;
} VP_DataPlace;

/* offset is within the object's buckets: a heap site's cover its largest
   block, a global's its symbol. */
static inline __attribute__((always_inline)) VP_DataPlace VP_(data_place_at)(VP_DataObj* o, SizeT offset)
{
   VP_DataPlace p = { o, offset >> o->shift };
   return p;
}

static inline __attribute__((always_inline)) VP_DataPlace VP_(data_whole)(VP_DataObj* o)
{
   VP_DataPlace p = { o, 0 };
   return p;
}

VP_DataPlace VP_(data_static_slow)(Addr a);

/* Whether a is in the near range: no heap block holds it then. */
static inline __attribute__((always_inline)) Bool VP_(data_is_near)(Addr a)
{
   return a - VP_(data_near_lo) <= VP_(data_near_span);
}

/* Whether granule entry e serves a (in granule g). */
static inline __attribute__((always_inline))
Bool VP_(data_granule_serves)(const VP_DataGranule* e, UWord g, Addr a)
{
   return e->tag == g && a - e->lo < e->hi - e->lo;
}

/* Whether the caches (or the stack's range) say where an access at a,
   in no heap block and outside the near range, falls: *out. */
static inline __attribute__((always_inline)) Bool VP_(data_place_cached)(Addr a, VP_DataPlace* out)
{
   if (UNLIKELY(a - VP_(data_stack_lo) <= VP_(data_stack_hi) - VP_(data_stack_lo))) {
      *out = VP_(data_whole)(VP_(data_stack_obj));
      return True;
   }
   UWord           g = a >> VP_DATA_GRANULE_SHIFT;
   UWord           i = g & (VP_DATA_GRANULES - 1);
   VP_DataGranule* e = &VP_(data_granules)[i];
   if (LIKELY(VP_(data_granule_serves)(e, g, a))) {
      *out = VP_(data_place_at)(e->obj, a - e->base);
      return True;
   }
   UWord        p  = a >> VP_PAGE_SHIFT;
   VP_DataPage* pe = &VP_(data_pages)[p & (VP_DATA_PAGES - 1)];
   if (LIKELY(pe->tag == p)) {
      VP_DataPlace q = { pe->obj, (a - pe->base) >> pe->shift };
      *out = q;
      return True;
   }
   e = &VP_(data_granules_old)[i];
   if (VP_(data_granule_serves)(e, g, a)) {
      *out = VP_(data_place_at)(e->obj, a - e->base);
      return True;
   }
   return False;
}

/* Where an access at a outside the near range falls; b is the heap block
   holding a (NULL: none). */
static inline __attribute__((always_inline))
VP_DataPlace VP_(data_place)(Addr a, VP_Block* b)
{
   VP_DataPlace p;
   if (b != NULL)
      return VP_(data_place_at)(b->data, a - b->start);
   if (LIKELY(VP_(data_place_cached)(a, &p)))
      return p;
   return VP_(data_static_slow)(a);
}

/* The misses of a data access (w: 0 a read, 1 a write), m1 D1 and mL
   LL, at place p: counted to its bucket and to the (function, object)
   pair f (data_count_miss), or booked (data_book_miss) for the
   instruction whose cell's last pair is *last (VP_(cc_data_fn)) and fn
   its function, the pair found first.  Misses are rare: counting every
   access per pair too made cache-simulated bzip2 5% slower.  The cell
   remembers the pair it last booked to: an instruction mostly misses on
   one object. */
static inline __attribute__((always_inline))
void VP_(data_count_miss)(VP_FnData* f, VP_DataPlace p, UInt w, ULong m1, ULong mL)
{
   p.obj->miss[4 * p.bucket + 2 * w]     += m1;
   p.obj->miss[4 * p.bucket + 2 * w + 1] += mL;
   f->miss[2 * w]     += m1;
   f->miss[2 * w + 1] += mL;
}

static inline __attribute__((always_inline))
void VP_(data_book_miss)(VP_FnData** last, UInt fn, VP_DataPlace p, UInt w, ULong m1, ULong mL)
{
   VP_FnData* f = *last;
   if (UNLIKELY(f == NULL || f->obj != p.obj))
      *last = f = VP_(data_fn_entry)(fn, p.obj);
   VP_(data_count_miss)(f, p, w, m1, mL);
}

/* Books a data access, a read or a write (w: 0 or 1) with its D1 and LL
   misses, at place p: its count to the bucket of its offset in its
   object, its misses as above. */
static inline __attribute__((always_inline))
void VP_(data_book_at)(VP_FnData** last, UInt fn, VP_DataPlace p, UInt w, ULong m1, ULong mL)
{
   VP_(data_acc)(p.obj, w)[p.bucket]++;
   if (UNLIKELY(m1))
      VP_(data_book_miss)(last, fn, p, w, m1, mL);
}

/* The same, of an access at a outside the near range, b the heap block
   holding a (or NULL). */
static inline __attribute__((always_inline))
void VP_(data_book)(VP_FnData** last, UInt fn, Addr a, VP_Block* b, UInt w, ULong m1, ULong mL)
{
   VP_(data_book_at)(last, fn, VP_(data_place)(a, b), w, m1, mL);
}

/* The same, of an access in the near range: the count at a fixed
   address. */
static inline __attribute__((always_inline))
void VP_(data_book_near)(VP_FnData** last, UInt fn, UInt w, ULong m1, ULong mL)
{
   VP_(data_stack_acc)[w]++;
   if (UNLIKELY(m1))
      VP_(data_book_miss)(last, fn, VP_(data_whole)(VP_(data_stack_obj)), w, m1, mL);
}

/* The same, of an access made inside a call of the allocator: its
   misses alone.  The allocator's object counts no access one by one:
   every data access made meanwhile is its, so its counts are those of
   all the program's accesses (VP_(total)'s Dr and Dw) over the time
   spent inside, added up when the thread leaves the allocator or the
   counts are read (vp_data.c's settle_alloc).  A fresh block's zeroing
   by calloc can be most of a program's accesses: counting them one by
   one took 4% of the time of the bench's chunks. */
static inline __attribute__((always_inline))
void VP_(data_book_alloc)(VP_FnData** last, UInt fn, UInt w, ULong m1, ULong mL)
{
   if (UNLIKELY(m1))
      VP_(data_book_miss)(last, fn, VP_(data_whole)(VP_(data_alloc_obj)), w, m1, mL);
}

void VP_(data_post_clo_init)(void);
/* A thread starts running: its stack is the one tested inline; and
   the running thread entered or left a call of the allocator. */
void VP_(data_thread_runs)(ThreadId tid);
void VP_(data_alloc_entered)(Bool inside);
/* Every heap block lies in [lo, hi) now. */
void VP_(data_heap_range)(Addr lo, Addr hi);
/* The data object of a new allocation site, and making it cover blocks
   of size bytes. */
VP_DataObj* VP_(data_new_site)(VP_Site* s);
void        VP_(data_site_covers)(VP_DataObj* o, SizeT size);
/* Collection control: the counts are saved when it goes off and put
   back when it resumes, as the instruction cells' are. */
void VP_(data_set_collecting)(Bool on);
void VP_(data_settle)(void);
void VP_(data_forget_saved)(void);
void VP_(data_zero)(void);

/* What the writer reads, between data_prepare_dump and data_finish_dump:
   the objects with a count, in the order they are written. */
void               VP_(data_prepare_dump)(void);
void               VP_(data_finish_dump)(void);
UInt               VP_(data_n_objs)(void);
const VP_DataObj*  VP_(data_obj)(UInt i);
/* The (function, object) pairs with a count, in no particular order. */
UInt               VP_(data_n_fns)(void);
const VP_FnData*   VP_(data_fn)(UInt i);
/* The counts of an object's bucket i, and of the whole object. */
void               VP_(data_bucket_cost)(const VP_DataObj* o, UInt i, VP_DataCost* out);
void               VP_(data_obj_total)(const VP_DataObj* o, VP_DataCost* out);

#endif /* VP_DATA_H */
