/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_data.c: the data objects that data accesses are booked to
   (vp_data.h), how an address outside the heap and the running thread's
   stack is classified, and what collection control and the writer need.

   Heap sites count per offset in their blocks: in 8-byte buckets while
   all the site's blocks are at most 1 KiB (DHAT's limit for its access
   histogram), else per 64-byte cache line, and never more than 4096
   buckets: a site whose blocks are larger gets buckets twice as wide,
   each holding two of the narrower ones, as often as needed.  Globals
   count per offset in the same way by the size of their symbol.

   An address outside the heap and the running thread's stack is looked
   up in the data symbols of every loaded object, read from their symbol
   tables (a stripped object has only its exported ones), once per
   16-byte granule, or once per page for a page without a symbol;
   outside a symbol, it is an object's unnamed data (by the permissions
   of the mapping of its file, or its bss), another thread's stack, or
   "other".  The caches forget a range when it is mapped, unmapped or its
   protection changes, and the symbols are read again when the debug
   info changed. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"
#include "vp_data.h"

Bool           VP_(data_on);
VP_DataObj*    VP_(data_alloc_obj);
VP_DataObj*    VP_(data_stack_obj);
ULong          VP_(data_stack_acc)[2];
Addr           VP_(data_near_lo);
UWord          VP_(data_near_span);
Addr           VP_(data_stack_lo), VP_(data_stack_hi);
VP_DataGranule VP_(data_granules)[VP_DATA_GRANULES];
VP_DataGranule VP_(data_granules_old)[VP_DATA_GRANULES];
VP_DataPage    VP_(data_pages)[VP_DATA_PAGES];

static VP_DataObj*  other_obj;
static XArray*      all_objs;     /* of VP_DataObj*: every object made */
static VgHashTable* named_objs;   /* globals and unnamed data, by identity */
static VgHashTable* fn_table;     /* VP_FnData, by (fn, object) */
static XArray*      all_fns;      /* of VP_FnData* */

/* Offsets are counted in buckets of 8 bytes while the blocks (or the
   symbol) are at most SMALL_LIMIT bytes, else of a cache line at least,
   and in at most MAX_BUCKETS buckets. */
#define SMALL_SHIFT 3
#define LINE_SHIFT  6
#define SMALL_LIMIT 1024
#define MAX_BUCKETS 4096

/*------------------------------------------------------------*/
/*--- Objects                                              ---*/
/*------------------------------------------------------------*/

static VP_DataObj* new_obj(VP_DataKind kind)
{
   VP_DataObj* o = VG_(calloc)("vp.data.obj", 1, sizeof(VP_DataObj));
   o->kind = kind;
   VG_(addToXA)(all_objs, &o);
   return o;
}

/* Buckets [0, n) of the counts, zeroed. */
static void alloc_buckets(VP_DataObj* o, UInt n)
{
   o->acc    = VG_(calloc)("vp.data.acc", 2 * (SizeT)n, sizeof(ULong));
   o->acc_w  = o->acc + n;
   o->miss   = VG_(calloc)("vp.data.miss", 4 * (SizeT)n, sizeof(ULong));
   o->n_rows = n;
}

/* An object counted as a whole: one bucket. */
static VP_DataObj* new_whole_obj(VP_DataKind kind)
{
   VP_DataObj* o = new_obj(kind);
   alloc_buckets(o, 1);
   o->shift = 63;
   return o;
}

static UWord buckets_for(SizeT size, UInt shift)
{
   return (size + ((SizeT)1 << shift) - 1) >> shift;
}

/* The bucket width, as a shift, for `size` bytes, no narrower than `shift`. */
static UInt shift_for(SizeT size, UInt shift)
{
   if (size > SMALL_LIMIT && shift < LINE_SHIFT)
      shift = LINE_SHIFT;
   while (buckets_for(size, shift) > MAX_BUCKETS)
      shift++;
   return shift;
}

/* Adds buckets [0, n) of `shift` (counts acc and miss, laid out as an
   object's of n buckets) into o's, each into the bucket that holds it
   (o's buckets are as wide or wider). */
static void add_buckets_into(VP_DataObj* o, const ULong* acc, const ULong* miss, UInt n,
                             UInt shift)
{
   UInt i, k;
   for (i = 0; i < n; i++) {
      UWord to = VP_(data_bucket_at)(o, (SizeT)i << shift);
      for (k = 0; k < 2; k++) VP_(data_acc)(o, k)[to] += acc[k * n + i];
      for (k = 0; k < 4; k++) o->miss[4 * to + k] += miss[4 * i + k];
   }
}

VP_DataObj* VP_(data_new_site)(VP_Site* s)
{
   VP_DataObj* o = new_obj(VP_DK_HEAP);
   o->site  = s;
   o->shift = SMALL_SHIFT;
   return o;
}

void VP_(data_site_covers)(VP_DataObj* o, SizeT size)
{
   if (size <= o->size)
      return;
   UInt   shift = shift_for(size, o->shift);
   ULong* acc   = o->acc;
   ULong* miss  = o->miss;
   UInt   old_n = o->n_rows, old_shift = o->shift;
   alloc_buckets(o, (UInt)buckets_for(size, shift));
   o->shift = shift;
   o->size  = size;
   if (acc != NULL) {
      add_buckets_into(o, acc, miss, old_n, old_shift);
      VG_(free)(acc);
      VG_(free)(miss);
   }
}

static UWord hash_words(UWord a, UWord b, UWord c)
{
   return ((a * 0x9E3779B97F4A7C15UL) ^ b) * 0x100000001B3UL ^ c;
}

static VP_DataObj probe_obj;

static Word cmp_named(const void* x, const void* y)
{
   const VP_DataObj* a = x;
   const VP_DataObj* b = y;
   return !(a->kind == b->kind && a->obj == b->obj && a->name == b->name && a->addr == b->addr);
}

/* The object named by (kind, object path, symbol, address), made on
   first use. */
static VP_DataObj* named_obj(VP_DataKind kind, UInt obj, UInt name, Addr addr, SizeT size)
{
   probe_obj.kind = kind;
   probe_obj.obj  = obj;
   probe_obj.name = name;
   probe_obj.addr = addr;
   probe_obj.key  = hash_words(obj, name, addr) ^ kind;
   VP_DataObj* o  = VG_(HT_gen_lookup)(named_objs, &probe_obj, cmp_named);
   if (o != NULL)
      return o;
   if (kind == VP_DK_GLOBAL) {
      o = new_obj(kind);
      o->shift = shift_for(size, SMALL_SHIFT);
      o->size  = size;
      alloc_buckets(o, (UInt)buckets_for(size, o->shift));
   } else {
      o = new_whole_obj(kind);
   }
   o->key  = probe_obj.key;
   o->obj  = obj;
   o->name = name;
   o->addr = addr;
   VG_(HT_add_node)(named_objs, o);
   return o;
}

/*------------------------------------------------------------*/
/*--- (function, object) pairs                             ---*/
/*------------------------------------------------------------*/

static VP_FnData probe_fn;

static Word cmp_fn(const void* x, const void* y)
{
   const VP_FnData* a = x;
   const VP_FnData* b = y;
   return !(a->fn == b->fn && a->obj == b->obj);
}

VP_FnData* VP_(data_fn_entry)(UInt fn, VP_DataObj* obj)
{
   probe_fn.fn  = fn;
   probe_fn.obj = obj;
   probe_fn.key = hash_words(fn, (UWord)obj, 0);
   VP_FnData* f = VG_(HT_gen_lookup)(fn_table, &probe_fn, cmp_fn);
   if (f == NULL) {
      f = VG_(calloc)("vp.data.fn", 1, sizeof(VP_FnData));
      f->key = probe_fn.key;
      f->fn  = fn;
      f->obj = obj;
      VG_(HT_add_node)(fn_table, f);
      VG_(addToXA)(all_fns, &f);
   }
   return f;
}

/*------------------------------------------------------------*/
/*--- Data symbols                                         ---*/
/*------------------------------------------------------------*/

/* The data symbols of every loaded object, sorted by address and made
   disjoint (of symbols that overlap, the one starting first, or the
   larger, or the first by name, is kept), read again when the debug
   info changes.  Names and paths belong to the debug info: they are
   used only while its epoch is current. */
typedef struct {
   Addr         start;
   SizeT        size;
   const HChar* name;
   const HChar* path;
   VP_DataObj*  obj;    /* once found */
} Sym;

static Sym* syms;
static UInt n_syms;
static UInt syms_epoch;   /* 0: never read */

static Int cmp_sym(const void* x, const void* y)
{
   const Sym* a = x;
   const Sym* b = y;
   if (a->start != b->start) return a->start < b->start ? -1 : 1;
   if (a->size != b->size)   return a->size > b->size ? -1 : 1;
   return VG_(strcmp)(a->name, b->name);
}

static void add_object_syms(const DebugInfo* di, XArray* out)
{
   Int          i, n = VG_(DebugInfo_syms_howmany)(di);
   const HChar* path = VG_(DebugInfo_get_filename)(di);
   for (i = 0; i < n; i++) {
      SymAVMAs      avmas;
      UInt          size;
      const HChar*  pri;
      const HChar** sec;
      Bool          is_text, is_ifunc, is_global;
      VG_(DebugInfo_syms_getidx)(di, i, &avmas, &size, &pri, &sec, &is_text, &is_ifunc,
                                 &is_global);
      if (is_text || size == 0 || pri == NULL)
         continue;
      Sym s = { avmas.main, size, pri, path ? path : VP_(unknown), NULL };
      VG_(addToXA)(out, &s);
   }
}

/* A page entry's tag when empty: no page has that number (a granule
   entry is empty with lo = hi). */
#define NO_PAGE (~(UWord)0)

/* What lies outside the symbols of a page (outside_symbols), by page:
   a page holding both symbols and gaps is classified once, not at every
   miss of a granule in a gap. */
static VP_DataPage outside_pages[VP_DATA_PAGES];

static void clear_all_caches(void)
{
   UInt i;
   VG_(memset)(VP_(data_granules), 0, sizeof VP_(data_granules));
   VG_(memset)(VP_(data_granules_old), 0, sizeof VP_(data_granules_old));
   for (i = 0; i < VP_DATA_PAGES; i++)
      VP_(data_pages)[i].tag = outside_pages[i].tag = NO_PAGE;
}

static void read_symbols(void)
{
   XArray*          all = VG_(newXA)(VG_(malloc), "vp.data.syms", VG_(free), sizeof(Sym));
   const DebugInfo* di;
   Word             i;
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di))
      add_object_syms(di, all);
   VG_(setCmpFnXA)(all, cmp_sym);
   VG_(sortXA)(all);
   VG_(free)(syms);
   syms   = VG_(malloc)("vp.data.symtab", (VG_(sizeXA)(all) + 1) * sizeof(Sym));
   n_syms = 0;
   for (i = 0; i < VG_(sizeXA)(all); i++) {
      const Sym* s = VG_(indexXA)(all, i);
      if (n_syms > 0 && s->start < syms[n_syms - 1].start + syms[n_syms - 1].size)
         continue;
      syms[n_syms++] = *s;
   }
   VG_(deleteXA)(all);
}

static void symbols_current(void)
{
   UInt epoch = VG_(current_DiEpoch)().n;
   if (epoch == syms_epoch)
      return;
   syms_epoch = epoch;
   read_symbols();
   clear_all_caches();
}

/* The last symbol starting at or below a, or -1. */
static Int sym_below(Addr a)
{
   Int lo = 0, hi = (Int)n_syms;
   while (lo < hi) {
      Int mid = lo + (hi - lo) / 2;
      if (syms[mid].start <= a) lo = mid + 1; else hi = mid;
   }
   return lo - 1;
}

/* The symbol's object, found once per reading of the symbols. */
static VP_DataObj* global_obj(Sym* s)
{
   if (s->obj == NULL) {
      const HChar* name = s->name;
      VG_(demangle)(True, False, s->name, &name);
      s->obj = named_obj(VP_DK_GLOBAL, VP_(intern_str)(s->path), VP_(intern_str)(name),
                         s->start, s->size);
   }
   return s->obj;
}

/*------------------------------------------------------------*/
/*--- Outside the heap and the running thread's stack      ---*/
/*------------------------------------------------------------*/

/* Outside the data symbols, what an address is depends only on its page
   (mappings, stacks and the objects' bss are whole pages), so that a
   page without a symbol is classified once: another thread's stack
   (every page of the mapping its stack pointer started in, as for the
   running thread), an object's unnamed data, named by the mapping's
   permissions (a mapping of the object's file, or the bss of an object
   beyond its file's end), or "other". */

/* Whether a lies in the stack of a thread other than the running one. */
static Bool other_threads_stack(Addr a)
{
   ThreadId tid;
   Addr     sp, max;
   VG_(thread_stack_reset_iter)(&tid);
   while (VG_(thread_stack_next)(&tid, &sp, &max)) {
      SizeT size = VG_(thread_get_stack_size)(tid);
      if (a <= max && max - a < size)
         return True;
   }
   return False;
}

/* The object whose bss holds a, beyond its file's end. */
static const HChar* bss_object_at(Addr a)
{
   const DebugInfo* di;
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
      Addr  b    = VG_(DebugInfo_get_bss_avma)(di);
      SizeT n    = VG_(DebugInfo_get_bss_size)(di);
      Addr  page = ((Addr)1 << VP_PAGE_SHIFT) - 1;
      Addr  lo   = b & ~page, hi = (b + n + page) & ~page;
      if (n > 0 && lo <= a && a < hi)
         return VG_(DebugInfo_get_filename)(di);
   }
   return NULL;
}

static VP_DataObj* unnamed_obj(const HChar* path, const HChar* part)
{
   return named_obj(VP_DK_UNNAMED, VP_(intern_str)(path), VP_(intern_str)(part), 0, 0);
}

/* What holds a, outside any data symbol. */
static VP_DataObj* outside_symbols(Addr a)
{
   const NSegment* seg  = VG_(am_find_nsegment)(a);
   const HChar*    path = NULL;
   if (seg != NULL && seg->kind == SkFileC && (path = VG_(am_get_filename)(seg)) != NULL)
      return unnamed_obj(path, seg->hasX ? "code" : seg->hasW ? "writable data"
                                                              : "read-only data");
   if ((path = bss_object_at(a)) != NULL)
      return unnamed_obj(path, "writable data");
   if (other_threads_stack(a))
      return VP_(data_stack_obj);
   return other_obj;
}

static VP_DataObj* outside_symbols_cached(Addr a)
{
   UWord        p  = a >> VP_PAGE_SHIFT;
   VP_DataPage* pe = &outside_pages[p & (VP_DATA_PAGES - 1)];
   if (pe->tag != p) {
      pe->tag = p;
      pe->obj = outside_symbols(a);
   }
   return pe->obj;
}

static Addr max_addr(Addr a, Addr b) { return a > b ? a : b; }
static Addr min_addr(Addr a, Addr b) { return a < b ? a : b; }

/* a's page is o's, its offsets counted from base. */
static void remember_page(Addr a, Addr base, VP_DataObj* o)
{
   VP_DataPage* pe = &VP_(data_pages)[(a >> VP_PAGE_SHIFT) & (VP_DATA_PAGES - 1)];
   pe->tag   = a >> VP_PAGE_SHIFT;
   pe->base  = base;
   pe->obj   = o;
   pe->shift = o->shift;
}

/* a's page, if it lies wholly in [lo, hi), or else a's granule, is o's
   within [lo, hi).  The granule's entry replaces the older of its index's
   two. */
static void remember(Addr a, Addr lo, Addr hi, Addr base, VP_DataObj* o)
{
   Addr plo = a & ~(((Addr)1 << VP_PAGE_SHIFT) - 1), phi = plo + ((Addr)1 << VP_PAGE_SHIFT);
   if (lo <= plo && phi <= hi && phi != 0) {
      remember_page(a, base, o);
      return;
   }
   UWord           g = a >> VP_DATA_GRANULE_SHIFT;
   Addr            glo = g << VP_DATA_GRANULE_SHIFT;
   UWord           i = g & (VP_DATA_GRANULES - 1);
   VP_DataGranule* e = &VP_(data_granules)[i];
   VP_(data_granules_old)[i] = *e;
   e->tag  = g;
   e->lo   = max_addr(lo, glo);
   e->hi   = min_addr(hi, glo + (1 << VP_DATA_GRANULE_SHIFT));
   e->base = base;
   e->obj  = o;
}

VP_DataPlace VP_(data_static_slow)(Addr a)
{
   symbols_current();
   Int i = sym_below(a);
   if (i >= 0 && a - syms[i].start < syms[i].size) {
      VP_DataObj* o = global_obj(&syms[i]);
      remember(a, syms[i].start, syms[i].start + syms[i].size, syms[i].start, o);
      return VP_(data_place_at)(o, a - syms[i].start);
   }
   /* The gap between symbols a lies in: [gap_lo, gap_hi). */
   Addr gap_lo = i >= 0 ? syms[i].start + syms[i].size : 0;
   Addr gap_hi = (UInt)(i + 1) < n_syms ? syms[i + 1].start : ~(Addr)0;
   VP_DataObj* o = outside_symbols_cached(a);
   remember(a, gap_lo, gap_hi, 0, o);   /* base 0: every offset in bucket 0 */
   return VP_(data_whole)(o);
}

/* Empties granule entry e if its tag is in [g_lo, g_hi]. */
static void forget_granule(VP_DataGranule* e, UWord g_lo, UWord g_hi)
{
   if (e->tag >= g_lo && e->tag <= g_hi)
      e->hi = e->lo;
}

/* Forgets what the caches know of [a, a + len): entry by entry for a
   small range, else by looking at every entry (a large munmap should not
   cost the caches what they know of the rest). */
static void forget_range(Addr a, SizeT len)
{
   UWord g, p, i;
   if (len == 0)
      return;
   UWord g_lo = a >> VP_DATA_GRANULE_SHIFT, g_hi = (a + len - 1) >> VP_DATA_GRANULE_SHIFT;
   UWord p_lo = a >> VP_PAGE_SHIFT, p_hi = (a + len - 1) >> VP_PAGE_SHIFT;
   if (g_hi - g_lo < VP_DATA_GRANULES) {
      for (g = g_lo; g <= g_hi; g++) {
         i = g & (VP_DATA_GRANULES - 1);
         forget_granule(&VP_(data_granules)[i], 0, ~(UWord)0);
         forget_granule(&VP_(data_granules_old)[i], 0, ~(UWord)0);
      }
   } else {
      for (i = 0; i < VP_DATA_GRANULES; i++) {
         forget_granule(&VP_(data_granules)[i], g_lo, g_hi);
         forget_granule(&VP_(data_granules_old)[i], g_lo, g_hi);
      }
   }
   for (i = 0; i < VP_DATA_PAGES; i++) {
      p = VP_(data_pages)[i].tag;
      if (p >= p_lo && p <= p_hi)
         VP_(data_pages)[i].tag = NO_PAGE;
      p = outside_pages[i].tag;
      if (p >= p_lo && p <= p_hi)
         outside_pages[i].tag = NO_PAGE;
   }
}

static void mem_mapped(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di_handle)
{
   forget_range(a, len);
}

static void mem_unmapped(Addr a, SizeT len) { forget_range(a, len); }

static void mem_protected(Addr a, SizeT len, Bool rr, Bool ww, Bool xx)
{
   forget_range(a, len);
}

/* The running thread's stack, [lo, hi], and the range every heap block
   lies in, [blocks_lo, blocks_hi).  Inside a call of the allocator every
   access is the allocator's wherever it falls (no heap block is found
   meanwhile), so neither the near range nor the stack's holds any
   address then.  Outside, the stack is the near range unless a heap
   block may lie in it. */
static Addr stack_lo, stack_hi;
static Addr blocks_lo = 1, blocks_hi = 0;   /* none yet */

static void publish_stack(void)
{
   Bool in_alloc = VP_(in_alloc) != 0;
   Bool shared   = blocks_lo < blocks_hi && blocks_lo <= stack_hi && stack_lo < blocks_hi;
   /* An empty range is [~0, ~0]: no access can start at the last byte. */
   VP_(data_near_lo)   = in_alloc || shared ? ~(Addr)0 : stack_lo;
   VP_(data_near_span) = in_alloc || shared ? 0 : stack_hi - stack_lo;
   VP_(data_stack_lo)  = !in_alloc && shared ? stack_lo : ~(Addr)0;
   VP_(data_stack_hi)  = !in_alloc && shared ? stack_hi : ~(Addr)0;
}

/* The allocator's object's counts of accesses (vp_data.h's
   data_book_alloc): while the running thread is inside a call of the
   allocator, VP_(total)'s Dr and Dw when it entered, or when they were
   last added to the object. */
static Bool  alloc_counting;
static ULong alloc_from[2];

static ULong accesses_so_far(UInt w)
{
   return VP_(total)[w ? VP_EV_DW : VP_EV_DR];
}

/* Adds the accesses made inside the allocator since they were last
   added, before the counts are read or the thread leaves. */
static void settle_alloc(void)
{
   UInt w;
   if (!alloc_counting)
      return;
   for (w = 0; w < 2; w++) {
      ULong now = accesses_so_far(w);
      VP_(data_acc)(VP_(data_alloc_obj), w)[0] += now - alloc_from[w];
      alloc_from[w] = now;
   }
}

static void start_alloc_counting(Bool inside)
{
   UInt w;
   settle_alloc();
   alloc_counting = inside;
   for (w = 0; w < 2; w++)
      alloc_from[w] = accesses_so_far(w);
}

void VP_(data_heap_range)(Addr lo, Addr hi)
{
   blocks_lo = lo;
   blocks_hi = hi;
   if (VP_(data_on))
      publish_stack();
}

void VP_(data_thread_runs)(ThreadId tid)
{
   if (!VP_(data_on))
      return;
   Addr  hi   = VG_(thread_get_stack_max)(tid);
   SizeT size = VG_(thread_get_stack_size)(tid);
   stack_hi = hi;
   stack_lo = size > 0 && size <= hi ? hi - size + 1 : hi;
   publish_stack();
}

void VP_(data_alloc_entered)(Bool inside)
{
   if (!VP_(data_on))
      return;
   start_alloc_counting(inside);
   publish_stack();
}

/*------------------------------------------------------------*/
/*--- Set-up                                               ---*/
/*------------------------------------------------------------*/

void VP_(data_post_clo_init)(void)
{
   VP_(data_on) = VP_(clo).data && VP_(clo).cache_sim && VP_(clo).heap;
   if (!VP_(data_on))
      return;
   all_objs   = VG_(newXA)(VG_(malloc), "vp.data.objs", VG_(free), sizeof(VP_DataObj*));
   all_fns    = VG_(newXA)(VG_(malloc), "vp.data.fns", VG_(free), sizeof(VP_FnData*));
   named_objs = VG_(HT_construct)("vp.data.named");
   fn_table   = VG_(HT_construct)("vp.data.fntab");
   VP_(data_alloc_obj) = new_whole_obj(VP_DK_ALLOC);
   VP_(data_stack_obj) = new_whole_obj(VP_DK_STACK);
   VG_(free)(VP_(data_stack_obj)->acc);
   VP_(data_stack_obj)->acc   = VP_(data_stack_acc);
   VP_(data_stack_obj)->acc_w = VP_(data_stack_acc) + 1;
   other_obj           = new_whole_obj(VP_DK_OTHER);
   publish_stack();
   clear_all_caches();
   VG_(track_new_mem_mmap)(mem_mapped);
   VG_(track_die_mem_munmap)(mem_unmapped);
   VG_(track_change_mem_mprotect)(mem_protected);
}

/*------------------------------------------------------------*/
/*--- Collection control                                   ---*/
/*------------------------------------------------------------*/

static VP_DataObj* obj_at(Word i) { return *(VP_DataObj**)VG_(indexXA)(all_objs, i); }
static VP_FnData*  fn_at(Word i)  { return *(VP_FnData**)VG_(indexXA)(all_fns, i); }

static ULong* copy_of(const ULong* a, SizeT n)
{
   ULong* c = VG_(malloc)("vp.data.saved", n * sizeof(ULong));
   VG_(memcpy)(c, a, n * sizeof(ULong));
   return c;
}

static void free_saved(VP_DataObj* o)
{
   VG_(free)(o->saved_acc);
   VG_(free)(o->saved_miss);
   o->saved_acc = o->saved_miss = NULL;
}

static void zero_buckets(VP_DataObj* o)
{
   VG_(memset)(o->acc, 0, 2 * (SizeT)o->n_rows * sizeof(ULong));
   VG_(memset)(o->miss, 0, 4 * (SizeT)o->n_rows * sizeof(ULong));
}

static void save_counts(void)
{
   Word i;
   settle_alloc();
   for (i = 0; i < VG_(sizeXA)(all_objs); i++) {
      VP_DataObj* o = obj_at(i);
      free_saved(o);
      if (o->n_rows == 0)
         continue;
      o->saved_acc   = copy_of(o->acc, 2 * (SizeT)o->n_rows);
      o->saved_miss  = copy_of(o->miss, 4 * (SizeT)o->n_rows);
      o->saved_rows  = o->n_rows;
      o->saved_shift = o->shift;
   }
   for (i = 0; i < VG_(sizeXA)(all_fns); i++)
      VG_(memcpy)(fn_at(i)->saved, fn_at(i)->miss, sizeof fn_at(i)->miss);
}

/* The counts as they were saved (zero for what was made since), in the
   objects' present layout. */
static void restore_counts(void)
{
   Word i;
   settle_alloc();
   for (i = 0; i < VG_(sizeXA)(all_objs); i++) {
      VP_DataObj* o = obj_at(i);
      zero_buckets(o);
      if (o->saved_acc)
         add_buckets_into(o, o->saved_acc, o->saved_miss, o->saved_rows, o->saved_shift);
   }
   for (i = 0; i < VG_(sizeXA)(all_fns); i++)
      VG_(memcpy)(fn_at(i)->miss, fn_at(i)->saved, sizeof fn_at(i)->miss);
}

void VP_(data_forget_saved)(void)
{
   Word i;
   if (!VP_(data_on))
      return;
   for (i = 0; i < VG_(sizeXA)(all_objs); i++)
      free_saved(obj_at(i));
   for (i = 0; i < VG_(sizeXA)(all_fns); i++)
      VG_(memset)(fn_at(i)->saved, 0, sizeof fn_at(i)->saved);
}

void VP_(data_set_collecting)(Bool on)
{
   if (!VP_(data_on))
      return;
   if (on) {
      restore_counts();
      VP_(data_forget_saved)();
   } else {
      save_counts();
   }
}

void VP_(data_settle)(void)
{
   if (VP_(data_on) && !VP_(collecting))
      restore_counts();
}

void VP_(data_zero)(void)
{
   Word i;
   if (!VP_(data_on))
      return;
   settle_alloc();
   for (i = 0; i < VG_(sizeXA)(all_objs); i++)
      zero_buckets(obj_at(i));
   for (i = 0; i < VG_(sizeXA)(all_fns); i++)
      VG_(memset)(fn_at(i)->miss, 0, sizeof fn_at(i)->miss);
}

/*------------------------------------------------------------*/
/*--- What the writer reads                                ---*/
/*------------------------------------------------------------*/

static VP_DataObj** out_objs;
static UInt         n_out_objs;
static VP_FnData**  out_fns;
static UInt         n_out_fns;

void VP_(data_bucket_cost)(const VP_DataObj* o, UInt i, VP_DataCost* out)
{
   UInt w;
   for (w = 0; w < 2; w++) {
      out->c[3 * w]     = VP_(data_acc)(o, w)[i];
      out->c[3 * w + 1] = o->miss[4 * i + 2 * w];
      out->c[3 * w + 2] = o->miss[4 * i + 2 * w + 1];
   }
}

void VP_(data_obj_total)(const VP_DataObj* o, VP_DataCost* out)
{
   UInt i, e;
   VG_(memset)(out, 0, sizeof *out);
   for (i = 0; i < o->n_rows; i++) {
      VP_DataCost b;
      VP_(data_bucket_cost)(o, i, &b);
      for (e = 0; e < VP_DATA_EVENTS; e++)
         out->c[e] += b.c[e];
   }
}

static Bool counted(const VP_DataCost* c)
{
   UInt e;
   for (e = 0; e < VP_DATA_EVENTS; e++)
      if (c->c[e]) return True;
   return False;
}

static Bool any_miss(const VP_FnData* f)
{
   UInt e;
   for (e = 0; e < VP_DATA_MISSES; e++)
      if (f->miss[e]) return True;
   return False;
}

static Int cmp_u(UWord x, UWord y) { return x < y ? -1 : x > y ? 1 : 0; }

/* Heap sites by their output number, globals by (object, name,
   address), unnamed data by (object, section), then the stack, the
   allocator and the rest. */
static Int cmp_out_obj(const void* x, const void* y)
{
   const VP_DataObj* a = *(VP_DataObj* const*)x;
   const VP_DataObj* b = *(VP_DataObj* const*)y;
   Int c;
   if (a->kind != b->kind) return cmp_u(a->kind, b->kind);
   if (a->kind == VP_DK_HEAP)
      return cmp_u(VP_(heap_site_number)(a->site), VP_(heap_site_number)(b->site));
   if (a->kind != VP_DK_GLOBAL && a->kind != VP_DK_UNNAMED) return 0;
   if ((c = VG_(strcmp)(VP_(str)(a->obj), VP_(str)(b->obj))) != 0) return c;
   if ((c = VG_(strcmp)(VP_(str)(a->name), VP_(str)(b->name))) != 0) return c;
   return cmp_u(a->addr, b->addr);
}

void VP_(data_prepare_dump)(void)
{
   Word i;
   tl_assert(VP_(data_on));
   settle_alloc();
   out_objs   = VG_(malloc)("vp.data.out", (VG_(sizeXA)(all_objs) + 1) * sizeof(VP_DataObj*));
   n_out_objs = 0;
   for (i = 0; i < VG_(sizeXA)(all_objs); i++) {
      VP_DataCost t;
      VP_(data_obj_total)(obj_at(i), &t);
      obj_at(i)->number = VP_NO_ID;
      if (counted(&t))
         out_objs[n_out_objs++] = obj_at(i);
   }
   VG_(ssort)(out_objs, n_out_objs, sizeof(VP_DataObj*), cmp_out_obj);
   for (i = 0; i < n_out_objs; i++)
      out_objs[i]->number = (UInt)i;
   out_fns   = VG_(malloc)("vp.data.outfns", (VG_(sizeXA)(all_fns) + 1) * sizeof(VP_FnData*));
   n_out_fns = 0;
   for (i = 0; i < VG_(sizeXA)(all_fns); i++)
      if (any_miss(fn_at(i))) {
         tl_assert(fn_at(i)->obj->number != VP_NO_ID);
         out_fns[n_out_fns++] = fn_at(i);
      }
}

void VP_(data_finish_dump)(void)
{
   VG_(free)(out_objs);
   VG_(free)(out_fns);
   out_objs = NULL;
   out_fns  = NULL;
   n_out_objs = n_out_fns = 0;
}

UInt              VP_(data_n_objs)(void)    { return n_out_objs; }
const VP_DataObj* VP_(data_obj)(UInt i)     { return out_objs[i]; }
UInt              VP_(data_n_fns)(void)     { return n_out_fns; }
const VP_FnData*  VP_(data_fn)(UInt i)      { return out_fns[i]; }
