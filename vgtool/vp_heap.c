/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_heap.c: heap profiling.  The program's own allocator runs; what it
   does is seen as its outermost calls return (vp_alloc.c) or as client
   requests say.  Every block is kept in an index by address, and every
   allocation site (the allocating stack) gathers what its blocks did:
   bytes and blocks allocated, lifetimes, what was live at the global peak
   and at the end, bytes read and written inside its blocks and, for
   blocks of up to 1024 bytes, how often each byte offset was accessed.

   The figures follow DHAT's definitions so that the two can be compared
   number by number: time is counted in instructions executed, a realloc
   counts as one more block of the new size charged to the block's
   original site (plus a read and a write of the bytes it copies), a
   zero-sized request is a 1-byte block, a failing one is not counted.

   Reads and writes reach here from the memory-access helpers of
   vp_events.c (the cache simulation's, when it runs) through
   VP_(heap_find), which answers most lookups from two small direct-mapped
   caches: one of 4 KiB pages, each wholly inside one block or touching
   none, and one of 16-byte granules, each holding a block that overlaps
   it, or known to overlap none.
   Allocating and freeing clear the entries of the range they touch.

   Blocks a client request makes (a pool's, carved out of a block of the
   allocator's) are kept in an index of their own: an access inside one
   counts for it, not for the block around it. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_wordfm.h"
#include "vp_data.h"

/* Blocks up to this size keep a per-byte access count, as DHAT's do. */
#define ACC_LIMIT 1024

#if defined(__SSE2__)
const VP_AccLanes VP_(acc_first)[9] = {
   { 0 }, { 1 }, { 1, 1 }, { 1, 1, 1 }, { 1, 1, 1, 1 }, { 1, 1, 1, 1, 1 },
   { 1, 1, 1, 1, 1, 1 }, { 1, 1, 1, 1, 1, 1, 1 }, { 1, 1, 1, 1, 1, 1, 1, 1 }
};
#endif

ULong           VP_(heap_time);
ULong           VP_(heap_stopped_at);
Addr            VP_(heap_lo) = 1, VP_(heap_hi) = 0;  /* empty range */
UWord           VP_(heap_span) = (UWord)0 - 1;   /* heap_hi - heap_lo */
VP_GranuleEntry VP_(pages)[VP_PAGE_CACHE];
VP_GranuleEntry VP_(granules)[VP_GRANULE_CACHE];

/*------------------------------------------------------------*/
/*--- Sites                                                ---*/
/*------------------------------------------------------------*/

/* One frame of an allocation stack: an address (the allocator's own
   instruction for the first frame, the calling instruction for the
   others) and where it is. */
typedef struct _VP_Frame {
   struct _VP_Frame* next;   /* hash chain; must come first */
   UWord             addr;   /* hash key; must come second */
   UInt              n_levels;
   VP_Loc            levels[0];  /* the inlined calls at addr, innermost
                                    first, then addr's own function */
} VP_Frame;

/* Inlined calls kept per frame: deeper nesting is cut, the outermost
   levels kept as the frame's own function. */
#define VP_MAX_INLINED 32

enum { XSIZE_UNKNOWN, XSIZE_EXACT, XSIZE_MIXED };

struct _VP_Site {
   struct _VP_Site* next;    /* hash chain; must come first */
   UWord            key;     /* hash of the stack; must come second */
   UInt             n_ips;   /* as unwound: the identity of the site */
   UInt             n_shown; /* frames written: up to main, as DHAT shows them */
   Addr*            ips;
   VP_Frame**       frames;  /* [n_shown] */
   ULong tot_bytes, tot_blocks, lifetimes;
   ULong cur_bytes, cur_blocks, max_bytes, max_blocks;
   ULong gmax_bytes, gmax_blocks, gmax_epoch;
   ULong reads, writes;      /* of the blocks retired so far */
   UInt  xsize_state;        /* do all retired blocks have one size? */
   SizeT xsize;
   UInt* acc;                /* [xsize]: access counts of retired blocks */
   VP_DataObj* data;         /* what its blocks' accesses are booked to */
   struct _VP_Change* ch;    /* what it allocated and freed over time */
   UInt  n_ch, cap_ch;
};

static VgHashTable* sites;
static VgHashTable* frames;
static UInt         n_sites;

/* Global figures, as DHAT's summary gives them, of the period a profile
   describes: since the last zero or dump (or the start), as its costs
   are.  Blocks live when the period began count in what is live (at the
   peak, at the end) but not as allocated in it. */
static ULong tot_bytes, tot_blocks, cur_bytes, cur_blocks;
static ULong freed_bytes, freed_blocks;
static ULong gmax_bytes, gmax_blocks, gmax_time;
static ULong period_start, start_bytes, start_blocks;

/* The whole run's figures, kept apart: what the periods before this one
   added up to, and the run's own peak. */
static ULong run_tot_bytes, run_tot_blocks, run_freed_bytes, run_freed_blocks;
static ULong run_reads, run_writes;
static ULong run_gmax_bytes, run_gmax_blocks, run_gmax_time;

/* The birth time of a block allocated before the period began: its
   lifetime is not the period's. */
#define BORN_BEFORE (~0ULL)

/* Each time the live bytes leave a peak (equal to the greatest so far),
   every site's live figures at that moment become its "at t-gmax"
   figures.  Rather than visiting every site then, the epoch counts those
   moments, and a site catches up before its live figures next change:
   if an epoch has passed since it last changed, its figures then were
   the ones at the peak. */
static ULong peak_epoch;

static void sync_peak(VP_Site* s)
{
   if (s->gmax_epoch != peak_epoch) {
      s->gmax_bytes  = s->cur_bytes;
      s->gmax_blocks = s->cur_blocks;
      s->gmax_epoch  = peak_epoch;
   }
}

static void leaving_peak(void)
{
   if (cur_bytes == gmax_bytes)
      peak_epoch++;
}

static UWord hash_ips(const Addr* ips, UInt n)
{
   UWord h = n;
   UInt  i;
   for (i = 0; i < n; i++)
      h = (h ^ ips[i]) * 0x100000001B3UL;
   return h;
}

static VP_Site* probe_site;

static Word cmp_site(const void* a, const void* b)
{
   const VP_Site* x = a;
   const VP_Site* y = b;
   UInt i;
   if (x->n_ips != y->n_ips) return 1;
   for (i = 0; i < x->n_ips; i++)
      if (x->ips[i] != y->ips[i]) return 1;
   return 0;
}

static VP_Frame* frame_at(Addr a)
{
   VP_Frame* f = VG_(HT_lookup)(frames, a);
   if (f == NULL) {
      VP_Loc levels[VP_MAX_INLINED];
      UInt   n = VP_(frames_at)(a, levels, VP_MAX_INLINED);
      f = VG_(malloc)("vp.heap.frame", sizeof(VP_Frame) + n * sizeof(VP_Loc));
      f->addr     = a;
      f->n_levels = n;
      VG_(memcpy)(f->levels, levels, n * sizeof(VP_Loc));
      VG_(HT_add_node)(frames, f);
   }
   return f;
}

/* Frames below main are not shown (as Valgrind shows stacks), but they
   still tell sites apart, as they do for DHAT. */
static UInt frames_shown(const Addr* ips, UInt n)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   Int     i;
   for (i = (Int)n - 1; i >= 0; i--) {
      Vg_FnNameKind kind = VG_(get_fnname_kind_from_IP)(ep, ips[i]);
      if (kind == Vg_FnNameMain)
         return (UInt)i + 1;
      if (kind == Vg_FnNameBelowMain)
         n = (UInt)i + 1;
   }
   return n;
}

VP_Site* VP_(heap_site_of_stack)(const Addr* ips, UInt n)
{
   UInt i;
   probe_site->n_ips = n;
   probe_site->ips   = (Addr*)ips;
   probe_site->key   = hash_ips(ips, n);
   VP_Site* s = VG_(HT_gen_lookup)(sites, probe_site, cmp_site);
   if (s != NULL)
      return s;

   s = VG_(calloc)("vp.heap.site", 1, sizeof(VP_Site));
   s->key     = probe_site->key;
   s->n_ips   = n;
   s->ips     = VG_(malloc)("vp.heap.ips", (n ? n : 1) * sizeof(Addr));
   VG_(memcpy)(s->ips, ips, n * sizeof(Addr));
   s->n_shown = frames_shown(ips, n);
   s->frames  = VG_(malloc)("vp.heap.frames", (s->n_shown ? s->n_shown : 1) * sizeof(VP_Frame*));
   for (i = 0; i < s->n_shown; i++)
      s->frames[i] = frame_at(ips[i]);
   s->gmax_epoch  = peak_epoch;
   s->xsize_state = XSIZE_UNKNOWN;
   s->data        = VP_(data_on) ? VP_(data_new_site)(s) : NULL;
   VG_(HT_add_node)(sites, s);
   n_sites++;
   return s;
}

/*------------------------------------------------------------*/
/*--- The block index                                      ---*/
/*------------------------------------------------------------*/

/* Records of one size, made and dropped at every allocation and free
   (the blocks, and the index's tree nodes): dropped ones are kept on a
   list for the next, sparing the arena's search and its per-record
   overhead. */
typedef struct _Spare { struct _Spare* next; } Spare;
typedef struct { SizeT size; Spare* spare; } Recycler;
static Recycler block_records, node_records;

static void* recycled(Recycler* r, SizeT size)
{
   tl_assert(r->size == 0 || r->size == size);
   r->size = size;
   if (r->spare == NULL)
      return VG_(malloc)("vp.heap.record", size < sizeof(Spare) ? sizeof(Spare) : size);
   Spare* x = r->spare;
   r->spare = x->next;
   return x;
}

static void recycle(Recycler* r, void* p)
{
   Spare* x = p;
   x->next  = r->spare;
   r->spare = x;
}

/* The index's allocator: its tree nodes are recycled, the index's own
   record (made first, while making_index) is not. */
static Bool making_index;

static void* node_alloc(const HChar* cc, SizeT size)
{
   return making_index ? VG_(malloc)(cc, size) : recycled(&node_records, size);
}

static void node_free(void* p) { recycle(&node_records, p); }

/* Live blocks by address, in two indexes: the allocator's blocks, and
   the blocks client requests make, which may lie inside the former.  The
   blocks of one index never overlap; each is keyed by its start address,
   compared as a plain word (no comparison function to call at each level
   of the tree, which made wordfreq's lookups twice as slow): the block
   holding an address is the one starting last at or below it. */
static WordFM* blocks;
static WordFM* inner_blocks;
static UWord   n_inner;

/* The blocks of index around a: the one starting last at or below a and
   the one starting first above it (NULL: none), in one descent of the
   tree; when a block starts at a, that block (and no block above). */
typedef struct { VP_Block* below; VP_Block* above; } Around;

static Around around(WordFM* index, Addr a)
{
   UWord k, below = 0, above = 0;
   if (!VG_(findBoundsFM)(index, &k, &below, &k, &above, 0, 0, ~(UWord)0, 0, a)) {
      VG_(lookupFM)(index, &k, &below, a);
      above = 0;
   }
   Around r = { (VP_Block*)below, (VP_Block*)above };
   return r;
}

/* The block around a holding a, or NULL. */
static VP_Block* holding(Around r, Addr a)
{
   return r.below != NULL && a - r.below->start < r.below->size ? r.below : NULL;
}

/* Whether no block of the index lies in [lo, lo + n), given the blocks
   around an address of it that none holds. */
static Bool none_in(Around r, Addr lo, SizeT n)
{
   return (r.below == NULL || r.below->start + r.below->size <= lo)
          && (r.above == NULL || r.above->start - lo >= n);
}

/* The lowest block of index overlapping [start, start + size). */
static VP_Block* overlapping_in(WordFM* index, Addr start, SizeT size)
{
   Around    r = around(index, start);
   VP_Block* b = holding(r, start);
   if (b != NULL)
      return b;
   return r.above != NULL && r.above->start - start < size ? r.above : NULL;
}

static VP_Block* inner_overlapping(Addr start, SizeT size)
{
   return n_inner > 0 ? overlapping_in(inner_blocks, start, size) : NULL;
}

/* Forgets what a cache of entries 1 << shift bytes wide (n of them) knows
   of [start, start + size). */
static void clear_entries(VP_GranuleEntry* cache, UWord n, UInt shift, Addr start, SizeT size)
{
   UWord e    = start >> shift;
   UWord last = (start + size - 1) >> shift;
   if (last - e >= n) {
      VG_(memset)(cache, 0, n * sizeof(VP_GranuleEntry));
      return;
   }
   for (; e <= last; e++)
      cache[e & (n - 1)].tag = 0;
}

static void clear_caches(Addr start, SizeT size)
{
   clear_entries(VP_(pages), VP_PAGE_CACHE, VP_PAGE_SHIFT, start, size);
   clear_entries(VP_(granules), VP_GRANULE_CACHE, VP_GRANULE_SHIFT, start, size);
}

/* Makes the entries of units [first, last] of a cache of n entries hold
   b; of a range longer than the cache, only the last n units have an
   entry left to hold. */
static void set_entries(VP_GranuleEntry* cache, UWord n, UWord first, UWord last, VP_Block* b)
{
   if (last - first >= n)
      first = last - n + 1;
   for (;; first++) {
      VP_GranuleEntry* e = &cache[first & (n - 1)];
      e->tag = first;
      e->blk = b;
      if (first == last)
         break;
   }
}

/* A new block, where no block of a client request lies: the entries of
   its range are made to hold it rather than cleared (the pages it covers
   whole, and all its granules), so that its first access to each granule
   is not one more search of the index.  A program touches most of the
   blocks it allocates, soon: Debian's sqlite3 searched the index for 1
   in 20 of its heap accesses when the entries were only cleared. */
static void fill_caches(VP_Block* b)
{
   Addr  end   = b->start + b->size;
   UWord first = b->start >> VP_PAGE_SHIFT, last = (end - 1) >> VP_PAGE_SHIFT;
   UWord whole = (b->start + ((Addr)1 << VP_PAGE_SHIFT) - 1) >> VP_PAGE_SHIFT;
   UWord after = end >> VP_PAGE_SHIFT;   /* the first page not wholly b's */
   if (whole < after)
      set_entries(VP_(pages), VP_PAGE_CACHE, whole, after - 1, b);
   if (first < whole)
      VP_(pages)[first & (VP_PAGE_CACHE - 1)].tag = 0;
   if (last >= after)
      VP_(pages)[last & (VP_PAGE_CACHE - 1)].tag = 0;
   set_entries(VP_(granules), VP_GRANULE_CACHE, b->start >> VP_GRANULE_SHIFT,
               (end - 1) >> VP_GRANULE_SHIFT, b);
}

/* b may stand for every address of [lo, lo + n) it holds: it is an inner
   block, or no inner block lies there. */
static Bool alone_in(const VP_Block* b, Addr lo, SizeT n)
{
   return b->inner || inner_overlapping(lo, n) == NULL;
}

/* Whether no block at all, of either index, lies in [lo, lo + n), given
   the allocator's blocks around an address of it that none holds. */
static Bool empty_range(Around r, Addr lo, SizeT n)
{
   return none_in(r, lo, n) && inner_overlapping(lo, n) == NULL;
}

/* A miss in both caches: the block holding a, found in the index, fills
   the page entry when it covers the whole page (or no block touches the
   page), else the granule entry.  The allocator's blocks around a, found
   once, answer all three questions. */
VP_Block* VP_(heap_find_slow)(Addr a)
{
   UWord            p  = a >> VP_PAGE_SHIFT;
   Addr             lo = p << VP_PAGE_SHIFT;
   SizeT            n  = (SizeT)1 << VP_PAGE_SHIFT;
   VP_GranuleEntry* pe = &VP_(pages)[p & (VP_PAGE_CACHE - 1)];
   Around           r  = around(blocks, a);
   VP_Block*        in = inner_overlapping(a, 1);
   VP_Block*        b  = in != NULL ? in : holding(r, a);
   if (b != NULL ? b->start <= lo && lo + n - b->start <= b->size && alone_in(b, lo, n)
                 : empty_range(r, lo, n)) {
      pe->tag = p;
      pe->blk = b;
      return b;
   }
   UWord            g  = a >> VP_GRANULE_SHIFT;
   Addr             glo = g << VP_GRANULE_SHIFT;
   SizeT            gn = (SizeT)1 << VP_GRANULE_SHIFT;
   VP_GranuleEntry* e  = &VP_(granules)[g & (VP_GRANULE_CACHE - 1)];
   if (b != NULL ? alone_in(b, glo, gn) : empty_range(r, glo, gn)) {
      e->tag = g;
      e->blk = b;   /* NULL: no block anywhere in the granule */
   }
   return b;
}

/* The range every block lies in, and whether the running thread's
   accesses count: while not, an empty range is shown to the helpers. */
static Addr real_lo = 1, real_hi = 0;
static Bool counting = True;

static void publish_range(void)
{
   /* lo = hi = 0 holds no address: a - lo >= hi - lo for every a. */
   VP_(heap_lo) = counting ? real_lo : 0;
   VP_(heap_hi) = counting ? real_hi : 0;
   VP_(heap_span) = VP_(heap_hi) - VP_(heap_lo);
}

void VP_(heap_count_accesses)(Bool on)
{
   counting = on;
   publish_range();
}

static void free_block(VP_Block* b);

/* A new block where the index still has one: the allocator has reused
   memory whose freeing was not seen (freed by a path no known function
   takes, or while instrumentation was off).  That block is taken as
   freed now. */
static void add_block(VP_Block* b)
{
   WordFM*   index = b->inner ? inner_blocks : blocks;
   VP_Block* stale;
   while ((stale = overlapping_in(index, b->start, b->size)) != NULL)
      free_block(stale);
   Bool present = VG_(addToFM)(index, b->start, (UWord)b);
   tl_assert(!present);
   if (b->inner) n_inner++;
   Addr lo = real_lo, hi = real_hi;
   if (b->start < real_lo || real_lo > real_hi) real_lo = b->start;
   if (b->start + b->size > real_hi) real_hi = b->start + b->size;
   if (real_lo != lo || real_hi != hi)
      VP_(data_heap_range)(real_lo, real_hi);
   publish_range();
   if (n_inner == 0)
      fill_caches(b);
   else
      clear_caches(b->start, b->size);
}

static void remove_block(VP_Block* b)
{
   UWord key, val;
   Bool  found = VG_(delFromFM)(b->inner ? inner_blocks : blocks, &key, &val, b->start);
   tl_assert(found && val == (UWord)b);
   if (b->inner) n_inner--;
   clear_caches(b->start, b->size);
}

/*------------------------------------------------------------*/
/*--- The timeline                                         ---*/
/*------------------------------------------------------------*/

/* Live bytes over time, as the highest point of each interval: the
   intervals start one instruction wide and double whenever the samples
   fill the buffer, so a run of any length keeps at most TL_MAX samples.
   The global peak is the highest point of its interval, so it is always
   kept. */
#define TL_MAX 2048
typedef struct { ULong time, bytes, blocks; } Sample;
static Sample tl[TL_MAX];
static UInt   tl_used;
static ULong  tl_width = 1;

static void tl_halve(void)
{
   UInt i, k = 0;
   tl_width *= 2;
   for (i = 0; i < tl_used; i++) {
      if (k > 0 && tl[k - 1].time / tl_width == tl[i].time / tl_width) {
         if (tl[i].bytes >= tl[k - 1].bytes) tl[k - 1] = tl[i];
      } else {
         tl[k++] = tl[i];
      }
   }
   tl_used = k;
}

static void tl_record(void)
{
   ULong now = VP_(heap_now)();
   if (tl_used > 0 && tl[tl_used - 1].time / tl_width == now / tl_width) {
      Sample* s = &tl[tl_used - 1];
      if (cur_bytes >= s->bytes) {
         s->time = now; s->bytes = cur_bytes; s->blocks = cur_blocks;
      }
      return;
   }
   while (tl_used == TL_MAX)
      tl_halve();
   tl[tl_used].time   = now;
   tl[tl_used].bytes  = cur_bytes;
   tl[tl_used].blocks = cur_blocks;
   tl_used++;
}

/* Snapshots of the largest sites, taken every snap_width instructions;
   when SNAP_MAX are held, every other one goes and the width doubles. */
#define SNAP_MAX  16
#define SNAP_TOP  VP_SNAP_ROWS
typedef struct { VP_Site* site; ULong bytes, blocks; } SnapRow;
typedef struct {
   ULong   time, bytes, blocks;
   UInt    n_rows;
   SnapRow rows[SNAP_TOP];
} Snapshot;
static Snapshot snaps[SNAP_MAX];
static UInt     snaps_used;
static ULong    snap_width = 1 << 20;
static ULong    snap_next  = 1 << 20;

/* Keeps rows[] the n largest by bytes (ties: the earlier site first,
   by the order of their stacks, so identical runs agree). */
static Int cmp_ips(const VP_Site* x, const VP_Site* y)
{
   UInt i, n = x->n_ips < y->n_ips ? x->n_ips : y->n_ips;
   for (i = 0; i < n; i++)
      if (x->ips[i] != y->ips[i]) return x->ips[i] < y->ips[i] ? -1 : 1;
   return x->n_ips < y->n_ips ? -1 : x->n_ips > y->n_ips ? 1 : 0;
}

static Bool row_before(const SnapRow* a, const SnapRow* b)
{
   if (a->bytes != b->bytes) return a->bytes > b->bytes;
   return cmp_ips(a->site, b->site) < 0;
}

static void top_insert(SnapRow* rows, UInt* n, SnapRow r)
{
   Int i;
   if (*n == SNAP_TOP && !row_before(&r, &rows[SNAP_TOP - 1]))
      return;
   if (*n < SNAP_TOP) (*n)++;
   for (i = (Int)*n - 1; i > 0 && row_before(&r, &rows[i - 1]); i--)
      rows[i] = rows[i - 1];
   rows[i] = r;
}

static void take_snapshot(Snapshot* sn)
{
   VP_Site* s;
   sn->time   = VP_(heap_now)();
   sn->bytes  = cur_bytes;
   sn->blocks = cur_blocks;
   sn->n_rows = 0;
   VG_(HT_ResetIter)(sites);
   while ((s = VG_(HT_Next)(sites)) != NULL)
      if (s->cur_bytes > 0) {
         SnapRow r = { s, s->cur_bytes, s->cur_blocks };
         top_insert(sn->rows, &sn->n_rows, r);
      }
}

static void snap_maybe(void)
{
   UInt i;
   if (VP_(heap_now)() < snap_next)
      return;
   if (snaps_used == SNAP_MAX) {
      for (i = 0; i < SNAP_MAX / 2; i++) snaps[i] = snaps[2 * i + 1];
      snaps_used = SNAP_MAX / 2;
      snap_width *= 2;
   }
   take_snapshot(&snaps[snaps_used++]);
   snap_next = (VP_(heap_now)() / snap_width + 1) * snap_width;
}

/*------------------------------------------------------------*/
/*--- Each site's changes over time                        ---*/
/*------------------------------------------------------------*/

/* What each site allocated and freed, per stretch of ch_width
   instructions in which it did either: from these the live bytes of any
   site at any stretch's edge, and what a range of time allocated, are
   exact.  Stretches start one instruction wide, so a short run keeps
   every change at its instruction; they double whenever the rows would
   exceed --heap-changes plus two per site, merging each site's
   neighbours: a program with more sites than that bound keeps two
   stretches a site rather than one for the whole run. */
typedef struct _VP_Change {
   ULong stretch;             /* its time / ch_width */
   ULong bytes, blocks;       /* allocated (a realloc's new size) */
   ULong freed_bytes, freed_blocks;
} VP_Change;

static ULong ch_width = 1;
static ULong ch_rows;         /* in every site */
static ULong ch_sites;        /* sites with a row */

static void ch_widen(void)
{
   VP_Site* s;
   ch_width *= 2;
   ch_rows = 0;
   VG_(HT_ResetIter)(sites);
   while ((s = VG_(HT_Next)(sites)) != NULL) {
      UInt i, k = 0;
      for (i = 0; i < s->n_ch; i++) {
         VP_Change c = s->ch[i];
         c.stretch /= 2;
         if (k > 0 && s->ch[k - 1].stretch == c.stretch) {
            VP_Change* m = &s->ch[k - 1];
            m->bytes += c.bytes;             m->blocks += c.blocks;
            m->freed_bytes += c.freed_bytes; m->freed_blocks += c.freed_blocks;
         } else {
            s->ch[k++] = c;
         }
      }
      s->n_ch = k;
      ch_rows += k;
   }
}

/* Whether the site's last row is the stretch holding instruction now. */
static Bool last_row_holds(const VP_Site* s, ULong now)
{
   return s->n_ch > 0 && s->ch[s->n_ch - 1].stretch == now / ch_width;
}

static void site_changes(VP_Site* s, ULong bytes, ULong blocks, ULong freed_bytes,
                         ULong freed_blocks)
{
   ULong now = VP_(heap_now)();
   VP_Change* c;
   /* A new row, unless the last one holds now: first widen while the rows
      fill their bound, which ends once every stretch holds the whole run
      so far. */
   if (!last_row_holds(s, now))
      while (s->n_ch > 0 && ch_rows >= VP_(clo).heap_changes + 2 * ch_sites && ch_width <= now)
         ch_widen();
   if (!last_row_holds(s, now)) {
      if (s->n_ch == s->cap_ch) {
         s->cap_ch = s->cap_ch ? 2 * s->cap_ch : 4;
         s->ch = VG_(realloc)("vp.heap.changes", s->ch, s->cap_ch * sizeof(VP_Change));
      }
      if (s->n_ch == 0) ch_sites++;
      c = &s->ch[s->n_ch++];
      ch_rows++;
      c->stretch = now / ch_width;
      c->bytes = c->blocks = c->freed_bytes = c->freed_blocks = 0;
   }
   c = &s->ch[s->n_ch - 1];
   c->bytes += bytes;             c->blocks += blocks;
   c->freed_bytes += freed_bytes; c->freed_blocks += freed_blocks;
}

/*------------------------------------------------------------*/
/*--- Allocation and freeing                               ---*/
/*------------------------------------------------------------*/

static void new_peak_check(VP_Site* s)
{
   /* ">=": of equal peaks the latest counts, as for DHAT. */
   if (cur_bytes >= gmax_bytes) {
      gmax_bytes  = cur_bytes;
      gmax_blocks = cur_blocks;
      gmax_time   = VP_(heap_now)();
   }
   if (cur_bytes >= run_gmax_bytes) {
      run_gmax_bytes  = cur_bytes;
      run_gmax_blocks = cur_blocks;
      run_gmax_time   = VP_(heap_now)();
   }
   if (s->cur_bytes > s->max_bytes
       || (s->cur_bytes == s->max_bytes && s->cur_blocks > s->max_blocks)) {
      s->max_bytes  = s->cur_bytes;
      s->max_blocks = s->cur_blocks;
   }
}

void VP_(heap_alloc)(VP_Site* s, Addr a, SizeT size, Bool inner)
{
   if (size == 0)
      size = 1;   /* a zero-sized block would be invisible to the index */
   VP_Block* b = recycled(&block_records, sizeof(VP_Block));
   b->start  = a;
   b->size   = size;
   b->site   = s;
   b->born   = VP_(heap_now)();
   b->reads  = b->writes = 0;
   b->acc    = size <= ACC_LIMIT ? VG_(calloc)("vp.heap.acc", size, sizeof(UShort)) : NULL;
   b->inner  = inner;
   b->data   = s->data;
   if (b->data) VP_(data_site_covers)(b->data, size);
   add_block(b);

   sync_peak(s);
   tot_bytes += size; tot_blocks++;
   cur_bytes += size; cur_blocks++;
   s->tot_bytes += size; s->tot_blocks++;
   s->cur_bytes += size; s->cur_blocks++;
   site_changes(s, size, 1, 0, 0);
   new_peak_check(s);
   tl_record();
   snap_maybe();
}

/* What a block leaves to its site when it is freed, or (into a copy of
   the site, at a dump) when the run ends with it live. */
static void retire_into(VP_Site* s, const VP_Block* b, ULong now)
{
   if (b->born != BORN_BEFORE)
      s->lifetimes += now - b->born;
   s->reads     += b->reads;
   s->writes    += b->writes;
   switch (s->xsize_state) {
      case XSIZE_UNKNOWN:
         s->xsize_state = XSIZE_EXACT;
         s->xsize = b->size;
         if (b->acc)
            s->acc = VG_(calloc)("vp.heap.siteacc", b->size, sizeof(UInt));
         break;
      case XSIZE_EXACT:
         if (b->size != s->xsize) {
            s->xsize_state = XSIZE_MIXED;
            if (s->acc) VG_(free)(s->acc);
            s->acc = NULL;
         }
         break;
      default:
         break;
   }
   if (s->xsize_state == XSIZE_EXACT && s->acc && b->acc) {
      SizeT i;
      for (i = 0; i < s->xsize; i++)
         if (s->acc[i] <= 0xFFFE0000u)   /* saturate rather than wrap */
            s->acc[i] += b->acc[i];
   }
}

/* The block that starts at a: the innermost, when a client request's
   block starts where the allocator's block around it does. */
static VP_Block* block_at(Addr a)
{
   UWord k, v;
   if (a == 0)
      return NULL;
   if (n_inner > 0 && VG_(lookupFM)(inner_blocks, &k, &v, a))
      return (VP_Block*)v;
   return VG_(lookupFM)(blocks, &k, &v, a) ? (VP_Block*)v : NULL;
}

Bool VP_(heap_is_block)(Addr a) { return block_at(a) != NULL; }

static void free_block(VP_Block* b)
{
   VP_Site* s = b->site;
   leaving_peak();
   sync_peak(s);
   cur_bytes -= b->size; cur_blocks--;
   freed_bytes += b->size; freed_blocks++;
   s->cur_bytes -= b->size; s->cur_blocks--;
   site_changes(s, 0, 0, b->size, 1);
   retire_into(s, b, VP_(heap_now)());
   remove_block(b);
   if (b->acc) VG_(free)(b->acc);
   recycle(&block_records, b);
   tl_record();
   snap_maybe();
}

/* Anything but a block's start (NULL, an address inside a block, one
   freed already or allocated while nothing was watching) is left alone:
   the allocator itself decides what such a call does. */
Bool VP_(heap_free)(Addr a)
{
   VP_Block* b = block_at(a);
   if (b != NULL)
      free_block(b);
   return b != NULL;
}

Bool VP_(heap_resize)(Addr old_a, Addr new_a, SizeT new_size, Bool copies)
{
   VP_Block* b = block_at(old_a);
   if (b == NULL)
      return False;
   if (new_size == 0)
      new_size = 1;
   VP_Site* s = b->site;
   /* The copy realloc makes (or, shrinking in place, would make) is a
      read and a write of what it keeps; the access counts per byte are
      dropped, as the block's shape changed. */
   if (copies) {
      SizeT kept = new_size < b->size ? new_size : b->size;
      b->reads  += kept;
      b->writes += kept;
   }
   if (b->acc) { VG_(free)(b->acc); b->acc = NULL; }

   if (new_size < b->size)
      leaving_peak();
   sync_peak(s);
   remove_block(b);
   /* The old block freed, as the new one is allocated. */
   freed_bytes += b->size; freed_blocks++;
   if (b->born == BORN_BEFORE)
      b->born = VP_(heap_now)();
   cur_bytes   += new_size; cur_bytes   -= b->size;
   s->cur_bytes += new_size; s->cur_bytes -= b->size;
   tot_bytes   += new_size; tot_blocks++;
   s->tot_bytes += new_size; s->tot_blocks++;
   site_changes(s, new_size, 1, b->size, 1);
   b->start = new_a;
   b->size  = new_size;
   if (b->data) VP_(data_site_covers)(b->data, new_size);
   add_block(b);
   new_peak_check(s);
   tl_record();
   snap_maybe();
   return True;
}

/*------------------------------------------------------------*/
/*--- A new period                                         ---*/
/*------------------------------------------------------------*/

/* A live block's accesses so far go to the whole run's; the period
   counts from zero, and its lifetime is not the period's. */
static void block_into_run(WordFM* index)
{
   UWord key, val;
   VG_(initIterFM)(index);
   while (VG_(nextIterFM)(index, &key, &val)) {
      VP_Block* b = (VP_Block*)val;
      run_reads  += b->reads;
      run_writes += b->writes;
      b->reads = b->writes = 0;
      if (b->acc) VG_(memset)(b->acc, 0, b->size * sizeof(UShort));
      b->born = BORN_BEFORE;
   }
   VG_(doneIterFM)(index);
}

/* The sites' figures start again: what is live stays live, and is the
   site's highest so far. */
static void site_into_run(VP_Site* s)
{
   sync_peak(s);
   run_reads  += s->reads;
   run_writes += s->writes;
   s->tot_bytes = s->tot_blocks = s->lifetimes = 0;
   s->reads = s->writes = 0;
   s->max_bytes  = s->cur_bytes;
   s->max_blocks = s->cur_blocks;
   s->xsize_state = XSIZE_UNKNOWN;
   if (s->acc) VG_(free)(s->acc);
   s->acc = NULL;
   s->n_ch = 0;
}

/* A zero or a dump: the heap's figures describe the period from now on,
   as the costs do (the timeline and snapshots too), the whole run's
   being kept apart.  The period's peak starts as what is live now. */
void VP_(heap_zero)(void)
{
   VP_Site* s;
   ULong    now = VP_(heap_now)();
   if (!VP_(clo).heap)
      return;
   VG_(HT_ResetIter)(sites);
   while ((s = VG_(HT_Next)(sites)) != NULL)
      site_into_run(s);
   block_into_run(blocks);
   block_into_run(inner_blocks);
   run_tot_bytes   += tot_bytes;   run_tot_blocks   += tot_blocks;
   run_freed_bytes += freed_bytes; run_freed_blocks += freed_blocks;
   tot_bytes = tot_blocks = freed_bytes = freed_blocks = 0;
   period_start = now;
   start_bytes  = cur_bytes;
   start_blocks = cur_blocks;
   gmax_bytes   = cur_bytes;
   gmax_blocks  = cur_blocks;
   gmax_time    = now;
   peak_epoch++;
   tl_used  = 0;
   tl_width = 1;
   tl_record();
   ch_width = 1;
   ch_rows = ch_sites = 0;
   snaps_used = 0;
   snap_width = 1 << 20;
   snap_next  = (now / snap_width + 1) * snap_width;
}

/*------------------------------------------------------------*/
/*--- Accesses the kernel makes for the client             ---*/
/*------------------------------------------------------------*/

/* A system call reading or writing client memory touches the block the
   range starts in, as an instruction's access does. */
static void noninsn_read(CorePart part, ThreadId tid, const HChar* s, Addr a, SizeT n)
{
   if (part == Vg_CoreSysCall)
      VP_(heap_access)(a, n, False);
}

static void noninsn_read_asciiz(CorePart part, ThreadId tid, const HChar* s, Addr str)
{
   if (part == Vg_CoreSysCall)
      VP_(heap_access)(str, VG_(strlen)((const HChar*)str) + 1, False);
}

static void noninsn_write(CorePart part, ThreadId tid, Addr a, SizeT n)
{
   if (part == Vg_CoreSysCall || part == Vg_CoreClientReq)
      VP_(heap_access)(a, n, True);
}

/*------------------------------------------------------------*/
/*--- Set-up                                               ---*/
/*------------------------------------------------------------*/

void VP_(heap_post_clo_init)(void)
{
   if (!VP_(clo).heap)
      return;
   /* Run glibc's and libstdc++'s clean-up at exit, as DHAT does, so the
      buffers they keep for the whole run (stdio's, the exception pool)
      are not reported as never freed.  Its costs are not the program's:
      vp_alloc.c stops collecting them when it starts. */
   VG_(needs_libc_freeres)();
   VG_(needs_cxx_freeres)();
   sites      = VG_(HT_construct)("vp.heap.sites");
   frames     = VG_(HT_construct)("vp.heap.frames");
   making_index = True;
   blocks       = VG_(newFM)(node_alloc, "vp.heap.blocks", node_free, NULL);
   inner_blocks = VG_(newFM)(node_alloc, "vp.heap.inner", node_free, NULL);
   making_index = False;
   probe_site = VG_(calloc)("vp.heap.probe", 1, sizeof(VP_Site));
   VG_(track_pre_mem_read)(noninsn_read);
   VG_(track_pre_mem_read_asciiz)(noninsn_read_asciiz);
   VG_(track_post_mem_write)(noninsn_write);
}

/*------------------------------------------------------------*/
/*--- What the writer reads                                ---*/
/*------------------------------------------------------------*/

/* The sites as they stand if the run ended now: copies, with each live
   block retired into its site's copy (in address order, as the
   per-offset counts depend on the order), so a dump in mid-run leaves
   the live state untouched. */
typedef struct {
   VP_Site  s;          /* the copy; s.acc is owned by the copy */
   VP_Site* orig;
} SiteOut;

static SiteOut* outs;
static UInt     n_outs;

static Int cmp_site_out(const void* a, const void* b)
{
   return cmp_ips(((const SiteOut*)a)->orig, ((const SiteOut*)b)->orig);
}

static SiteOut* out_of(VP_Site* s)
{
   UInt lo = 0, hi = n_outs;
   while (lo < hi) {
      UInt mid = (lo + hi) / 2;
      Int  c   = cmp_ips(outs[mid].orig, s);
      if (c == 0) return &outs[mid];
      if (c < 0) lo = mid + 1; else hi = mid;
   }
   tl_assert(0);
   return NULL;
}

/* Each live block of an index into its site's copy, in address order. */
static void retire_live(WordFM* index)
{
   UWord key, val;
   VG_(initIterFM)(index);
   while (VG_(nextIterFM)(index, &key, &val)) {
      const VP_Block* b = (const VP_Block*)val;
      retire_into(&out_of(b->site)->s, b, VP_(heap_now)());
   }
   VG_(doneIterFM)(index);
}

void VP_(heap_prepare_dump)(void)
{
   VP_Site* s;
   UInt     i = 0;

   tl_assert(VP_(clo).heap);
   outs   = VG_(malloc)("vp.heap.outs", (n_sites ? n_sites : 1) * sizeof(SiteOut));
   n_outs = n_sites;
   VG_(HT_ResetIter)(sites);
   while ((s = VG_(HT_Next)(sites)) != NULL) {
      /* Catch up with a peak left since the site last changed, and with
         the peak the run may end at. */
      sync_peak(s);
      outs[i].s = *s;
      if (cur_bytes == gmax_bytes) {
         /* The run ends at a peak: the live figures are the peak's. */
         outs[i].s.gmax_bytes  = s->cur_bytes;
         outs[i].s.gmax_blocks = s->cur_blocks;
      }
      outs[i].orig = s;
      if (s->acc) {
         outs[i].s.acc = VG_(malloc)("vp.heap.accout", s->xsize * sizeof(UInt));
         VG_(memcpy)(outs[i].s.acc, s->acc, s->xsize * sizeof(UInt));
      }
      i++;
   }
   VG_(ssort)(outs, n_outs, sizeof(SiteOut), cmp_site_out);
   retire_live(blocks);
   retire_live(inner_blocks);
}

void VP_(heap_finish_dump)(void)
{
   UInt i;
   for (i = 0; i < n_outs; i++)
      if (outs[i].s.acc) VG_(free)(outs[i].s.acc);
   VG_(free)(outs);
   outs = NULL;
   n_outs = 0;
}

UInt VP_(heap_n_sites)(void) { return n_outs; }

void VP_(heap_site)(UInt i, VP_HeapSite* out)
{
   const VP_Site* s = &outs[i].s;
   UInt f;
   out->n_frames    = 0;
   for (f = 0; f < s->n_shown; f++)
      out->n_frames += s->frames[f]->n_levels;
   out->tot_bytes   = s->tot_bytes;   out->tot_blocks  = s->tot_blocks;
   out->lifetimes   = s->lifetimes;
   out->max_bytes   = s->max_bytes;   out->max_blocks  = s->max_blocks;
   out->gmax_bytes  = s->gmax_bytes;  out->gmax_blocks = s->gmax_blocks;
   out->end_bytes   = s->cur_bytes;   out->end_blocks  = s->cur_blocks;
   out->reads       = s->reads;       out->writes      = s->writes;
   out->acc_size    = s->xsize_state == XSIZE_EXACT && s->acc ? s->xsize : 0;
   out->acc         = s->acc;
}

/* Frame i of the site's stack with each address's inlined calls
   expanded, as DHAT shows them. */
void VP_(heap_frame)(UInt site, UInt i, Addr* addr, VP_Loc* loc)
{
   VP_Frame* const* f = outs[site].s.frames;
   while (i >= (*f)->n_levels) {
      i -= (*f)->n_levels;
      f++;
   }
   *addr = (*f)->addr;
   *loc  = (*f)->levels[i];
}

/* The site's output number, for snapshot rows and data objects. */
static UInt out_number(VP_Site* s) { return (UInt)(out_of(s) - outs); }

UInt VP_(heap_site_number)(VP_Site* s) { return out_number(s); }

void VP_(heap_totals)(VP_HeapTotals* t)
{
   UInt i;
   t->tot_bytes   = tot_bytes;   t->tot_blocks  = tot_blocks;
   t->gmax_bytes  = gmax_bytes;  t->gmax_blocks = gmax_blocks;
   t->gmax_time   = gmax_time;
   t->end_bytes   = cur_bytes;   t->end_blocks  = cur_blocks;
   t->end_time    = VP_(heap_now)();
   t->start_time  = period_start;
   t->start_bytes = start_bytes; t->start_blocks = start_blocks;
   t->freed_bytes = freed_bytes; t->freed_blocks = freed_blocks;
   t->reads = t->writes = 0;
   for (i = 0; i < n_outs; i++) {
      t->reads  += outs[i].s.reads;
      t->writes += outs[i].s.writes;
   }
}

void VP_(heap_whole_run)(VP_HeapTotals* t)
{
   VP_(heap_totals)(t);
   t->tot_bytes   += run_tot_bytes;   t->tot_blocks   += run_tot_blocks;
   t->freed_bytes += run_freed_bytes; t->freed_blocks += run_freed_blocks;
   t->reads       += run_reads;       t->writes       += run_writes;
   t->gmax_bytes   = run_gmax_bytes;  t->gmax_blocks   = run_gmax_blocks;
   t->gmax_time    = run_gmax_time;
   t->start_time   = t->start_bytes = t->start_blocks = 0;
}

UInt VP_(heap_n_samples)(void) { return tl_used; }

void VP_(heap_sample)(UInt i, ULong* time, ULong* bytes, ULong* blocks)
{
   *time = tl[i].time; *bytes = tl[i].bytes; *blocks = tl[i].blocks;
}

/* Snapshots: the periodic ones, then the peak's and the end's, built
   from the sites' figures at those moments. */
UInt VP_(heap_n_snapshots)(void) { return snaps_used; }

void VP_(heap_snapshot)(UInt i, VP_HeapSnapshot* out)
{
   const Snapshot* sn = &snaps[i];
   UInt r;
   out->time = sn->time; out->bytes = sn->bytes; out->blocks = sn->blocks;
   out->n_rows = sn->n_rows;
   for (r = 0; r < sn->n_rows; r++) {
      out->site[r]   = out_number(sn->rows[r].site);
      out->rbytes[r] = sn->rows[r].bytes;
      out->rblocks[r] = sn->rows[r].blocks;
   }
}

/* The largest sites at the peak (at_peak) or at the end. */
void VP_(heap_top_sites)(Bool at_peak, VP_HeapSnapshot* out)
{
   SnapRow rows[SNAP_TOP];
   UInt    n = 0, i;
   for (i = 0; i < n_outs; i++) {
      const VP_Site* s = &outs[i].s;
      SnapRow r = { outs[i].orig, at_peak ? s->gmax_bytes : s->cur_bytes,
                    at_peak ? s->gmax_blocks : s->cur_blocks };
      if (r.bytes > 0) top_insert(rows, &n, r);
   }
   out->time   = at_peak ? gmax_time : VP_(heap_now)();
   out->bytes  = at_peak ? gmax_bytes : cur_bytes;
   out->blocks = at_peak ? gmax_blocks : cur_blocks;
   out->n_rows = n;
   for (i = 0; i < n; i++) {
      out->site[i]    = out_number(rows[i].site);
      out->rbytes[i]  = rows[i].bytes;
      out->rblocks[i] = rows[i].blocks;
   }
}

ULong VP_(heap_sample_width)(void) { return tl_width; }

ULong VP_(heap_changes_width)(void) { return ch_width; }

UInt VP_(heap_site_n_changes)(UInt site) { return outs[site].orig->n_ch; }

void VP_(heap_site_change)(UInt site, UInt i, ULong* time, ULong* bytes, ULong* blocks,
                           ULong* freed_bytes, ULong* freed_blocks)
{
   const VP_Change* c = &outs[site].orig->ch[i];
   *time = c->stretch * ch_width;
   *bytes = c->bytes;             *blocks = c->blocks;
   *freed_bytes = c->freed_bytes; *freed_blocks = c->freed_blocks;
}

/* The heap live now, for the monitor's status command. */
void VP_(heap_live)(ULong* bytes, ULong* blocks)
{
   *bytes  = cur_bytes;
   *blocks = cur_blocks;
}
