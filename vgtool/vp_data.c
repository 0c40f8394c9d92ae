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
   up once per 16-byte granule (and once per page for pages wholly of
   one object without offsets) in the data symbols of every loaded
   object, read from their symbol tables (a stripped object has only its
   exported ones); outside a symbol, it is another thread's stack, or the
   object's unnamed data when it lies in one of an object's sections or
   in a mapping of a file, or "other".  The caches forget a range when
   it is mapped, unmapped or its protection changes, and the symbols are
   read again when the debug info changed. */

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
Addr           VP_(data_stack_lo), VP_(data_stack_hi);
VP_DataGranule VP_(data_granules)[VP_DATA_GRANULES];
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

/* An object counted as a whole: one row. */
static VP_DataObj* new_whole_obj(VP_DataKind kind)
{
   VP_DataObj* o = new_obj(kind);
   o->rows   = VG_(calloc)("vp.data.rows", 1, sizeof(VP_DataCost));
   o->n_rows = 1;
   o->shift  = 63;
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

/* Adds rows [0, n) of `shift` into o's rows, each into the bucket that
   holds it (o's buckets are as wide or wider). */
static void add_rows_into(VP_DataObj* o, const VP_DataCost* rows, UInt n, UInt shift)
{
   UInt i, e;
   for (i = 0; i < n; i++) {
      VP_DataCost* to = VP_(data_row_at)(o, (SizeT)i << shift);
      for (e = 0; e < VP_DATA_EVENTS; e++)
         to->c[e] += rows[i].c[e];
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
   UInt         shift = shift_for(size, o->shift);
   UWord        n     = buckets_for(size, shift);
   VP_DataCost* old   = o->rows;
   UInt         old_n = o->n_rows, old_shift = o->shift;
   o->rows   = VG_(calloc)("vp.data.rows", n, sizeof(VP_DataCost));
   o->n_rows = (UInt)n;
   o->shift  = shift;
   o->size   = size;
   if (old != NULL) {
      add_rows_into(o, old, old_n, old_shift);
      VG_(free)(old);
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
      o->shift  = shift_for(size, SMALL_SHIFT);
      o->n_rows = (UInt)buckets_for(size, o->shift);
      o->rows   = VG_(calloc)("vp.data.rows", o->n_rows, sizeof(VP_DataCost));
      o->size   = size;
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
      Sym s = { avmas.main, size, pri, path ? path : "???" };
      VG_(addToXA)(out, &s);
   }
}

/* A page entry's tag when empty: no page has that number (a granule
   entry is empty with lo = hi). */
#define NO_PAGE (~(UWord)0)

static void clear_all_caches(void)
{
   UInt i;
   VG_(memset)(VP_(data_granules), 0, sizeof VP_(data_granules));
   for (i = 0; i < VP_DATA_PAGES; i++)
      VP_(data_pages)[i].tag = NO_PAGE;
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

static VP_DataObj* global_obj(const Sym* s)
{
   const HChar* name = s->name;
   VG_(demangle)(True, False, s->name, &name);
   return named_obj(VP_DK_GLOBAL, VP_(intern_str)(s->path), VP_(intern_str)(name),
                    s->start, s->size);
}

/*------------------------------------------------------------*/
/*--- Outside the heap and the running thread's stack      ---*/
/*------------------------------------------------------------*/

/* The live stack of a thread holding a: [lo, hi]. */
static Bool thread_stack_at(Addr a, Addr* lo, Addr* hi)
{
   ThreadId tid;
   VG_(thread_stack_reset_iter)(&tid);
   while (VG_(thread_stack_next)(&tid, lo, hi))
      if (*lo <= a && a <= *hi)
         return True;
   return False;
}

static const NSegment* file_mapping_at(Addr a)
{
   const NSegment* seg = VG_(am_find_nsegment)(a);
   return seg != NULL && seg->kind == SkFileC ? seg : NULL;
}

/* The name of the part of an object that holds data outside any
   symbol: the section Valgrind's debug info knows it to be in, or
   "file" for the rest of a mapping of the object's file (read-only
   data among it). */
static const HChar* section_name(VgSectKind kind)
{
   switch (kind) {
      case Vg_SectText:   return ".text";
      case Vg_SectData:   return ".data";
      case Vg_SectBSS:    return ".bss";
      case Vg_SectGOT:    return ".got";
      case Vg_SectPLT:    return ".plt";
      case Vg_SectGOTPLT: return ".got.plt";
      case Vg_SectOPD:    return ".opd";
      default:            return "file";
   }
}

static VP_DataObj* unnamed_obj(const HChar* path, VgSectKind kind)
{
   return named_obj(VP_DK_UNNAMED, VP_(intern_str)(path), VP_(intern_str)(section_name(kind)),
                    0, 0);
}

/* What holds a, outside any data symbol. */
static VP_DataObj* outside_symbols(Addr a)
{
   Addr            lo, hi;
   const HChar*    path;
   const NSegment* seg;
   VgSectKind      kind;
   if (thread_stack_at(a, &lo, &hi))
      return VP_(data_stack_obj);
   if ((kind = VG_(DebugInfo_sect_kind)(&path, a)) != Vg_SectUnknown)
      return unnamed_obj(path, kind);
   if ((seg = file_mapping_at(a)) != NULL && (path = VG_(am_get_filename)(seg)) != NULL)
      return unnamed_obj(path, Vg_SectUnknown);
   return other_obj;
}

/* No object's section (bss included, which may lie in an anonymous
   mapping after the file's) touches [lo, hi). */
static Bool no_section_in(Addr lo, Addr hi)
{
   const DebugInfo* di;
   if (VG_(DebugInfo_sect_kind)(NULL, lo) != Vg_SectUnknown
       || VG_(DebugInfo_sect_kind)(NULL, hi - 1) != Vg_SectUnknown)
      return False;
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
      Addr  b = VG_(DebugInfo_get_bss_avma)(di);
      SizeT n = VG_(DebugInfo_get_bss_size)(di);
      if (n > 0 && b < hi && lo < b + n)
         return False;
   }
   return True;
}

/* Whether the whole page [lo, hi), in which no symbol lies, is o. */
static Bool page_is_wholly(const VP_DataObj* o, Addr a, Addr lo, Addr hi)
{
   Addr slo, shi;
   if (o == VP_(data_stack_obj))
      return thread_stack_at(a, &slo, &shi) && slo <= lo && hi - 1 <= shi;
   if (o != other_obj)
      return False;
   const NSegment* seg = VG_(am_find_nsegment)(a);
   if (seg == NULL || seg->kind == SkFileC || seg->start > lo || seg->end < hi - 1)
      return False;
   if (thread_stack_at(lo, &slo, &shi) || thread_stack_at(hi - 1, &slo, &shi))
      return False;
   return no_section_in(lo, hi);
}

static Addr max_addr(Addr a, Addr b) { return a > b ? a : b; }
static Addr min_addr(Addr a, Addr b) { return a < b ? a : b; }

static void remember(Addr a, Addr lo, Addr hi, Addr base, VP_DataObj* o)
{
   UWord           g = a >> VP_DATA_GRANULE_SHIFT;
   Addr            glo = g << VP_DATA_GRANULE_SHIFT;
   VP_DataGranule* e = &VP_(data_granules)[g & (VP_DATA_GRANULES - 1)];
   e->tag  = g;
   e->lo   = max_addr(lo, glo);
   e->hi   = min_addr(hi, glo + (1 << VP_DATA_GRANULE_SHIFT));
   e->base = base;
   e->obj  = o;
}

VP_DataCost* VP_(data_static_slow)(Addr a, VP_DataObj** obj)
{
   symbols_current();
   Int i = sym_below(a);
   if (i >= 0 && a - syms[i].start < syms[i].size) {
      VP_DataObj* o = global_obj(&syms[i]);
      remember(a, syms[i].start, syms[i].start + syms[i].size, syms[i].start, o);
      *obj = o;
      return VP_(data_row_at)(o, a - syms[i].start);
   }
   /* The gap between symbols a lies in: [gap_lo, gap_hi). */
   Addr gap_lo = i >= 0 ? syms[i].start + syms[i].size : 0;
   Addr gap_hi = (UInt)(i + 1) < n_syms ? syms[i + 1].start : ~(Addr)0;
   VP_DataObj* o = outside_symbols(a);
   remember(a, gap_lo, gap_hi, a, o);
   Addr plo = a & ~(((Addr)1 << VP_PAGE_SHIFT) - 1), phi = plo + ((Addr)1 << VP_PAGE_SHIFT);
   if (gap_lo <= plo && phi <= gap_hi && page_is_wholly(o, a, plo, phi)) {
      VP_DataPage* pe = &VP_(data_pages)[(a >> VP_PAGE_SHIFT) & (VP_DATA_PAGES - 1)];
      pe->tag = a >> VP_PAGE_SHIFT;
      pe->obj = o;
   }
   *obj = o;
   return o->rows;
}

/* Forgets what the caches know of [a, a + len). */
static void forget_range(Addr a, SizeT len)
{
   UWord g, p;
   if (len == 0)
      return;
   if (len >> VP_DATA_GRANULE_SHIFT >= VP_DATA_GRANULES) {
      clear_all_caches();
      return;
   }
   for (g = a >> VP_DATA_GRANULE_SHIFT; g <= (a + len - 1) >> VP_DATA_GRANULE_SHIFT; g++) {
      VP_DataGranule* e = &VP_(data_granules)[g & (VP_DATA_GRANULES - 1)];
      e->hi = e->lo;
   }
   for (p = a >> VP_PAGE_SHIFT; p <= (a + len - 1) >> VP_PAGE_SHIFT; p++)
      VP_(data_pages)[p & (VP_DATA_PAGES - 1)].tag = NO_PAGE;
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

void VP_(data_thread_runs)(ThreadId tid)
{
   if (!VP_(data_on))
      return;
   Addr  hi   = VG_(thread_get_stack_max)(tid);
   SizeT size = VG_(thread_get_stack_size)(tid);
   VP_(data_stack_hi) = hi;
   VP_(data_stack_lo) = size > 0 && size <= hi ? hi - size + 1 : hi;
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
   other_obj           = new_whole_obj(VP_DK_OTHER);
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

static void save_counts(void)
{
   Word i;
   for (i = 0; i < VG_(sizeXA)(all_objs); i++) {
      VP_DataObj* o = obj_at(i);
      VG_(free)(o->saved);
      o->saved = NULL;
      if (o->n_rows == 0)
         continue;
      o->saved = VG_(malloc)("vp.data.saved", o->n_rows * sizeof(VP_DataCost));
      VG_(memcpy)(o->saved, o->rows, o->n_rows * sizeof(VP_DataCost));
      o->saved_rows  = o->n_rows;
      o->saved_shift = o->shift;
   }
   for (i = 0; i < VG_(sizeXA)(all_fns); i++)
      fn_at(i)->saved = fn_at(i)->cost;
}

/* The counts as they were saved (zero for what was made since), in the
   objects' present layout. */
static void restore_counts(void)
{
   Word i;
   for (i = 0; i < VG_(sizeXA)(all_objs); i++) {
      VP_DataObj* o = obj_at(i);
      VG_(memset)(o->rows, 0, o->n_rows * sizeof(VP_DataCost));
      if (o->saved)
         add_rows_into(o, o->saved, o->saved_rows, o->saved_shift);
   }
   for (i = 0; i < VG_(sizeXA)(all_fns); i++)
      fn_at(i)->cost = fn_at(i)->saved;
}

void VP_(data_forget_saved)(void)
{
   Word i;
   if (!VP_(data_on))
      return;
   for (i = 0; i < VG_(sizeXA)(all_objs); i++) {
      VG_(free)(obj_at(i)->saved);
      obj_at(i)->saved = NULL;
   }
   for (i = 0; i < VG_(sizeXA)(all_fns); i++)
      VG_(memset)(&fn_at(i)->saved, 0, sizeof(VP_DataCost));
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
   for (i = 0; i < VG_(sizeXA)(all_objs); i++)
      VG_(memset)(obj_at(i)->rows, 0, obj_at(i)->n_rows * sizeof(VP_DataCost));
   for (i = 0; i < VG_(sizeXA)(all_fns); i++)
      VG_(memset)(&fn_at(i)->cost, 0, sizeof(VP_DataCost));
}

/*------------------------------------------------------------*/
/*--- What the writer reads                                ---*/
/*------------------------------------------------------------*/

static VP_DataObj** out_objs;
static UInt         n_out_objs;
static VP_FnData**  out_fns;
static UInt         n_out_fns;

void VP_(data_obj_total)(const VP_DataObj* o, VP_DataCost* out)
{
   UInt i, e;
   VG_(memset)(out, 0, sizeof *out);
   for (i = 0; i < o->n_rows; i++)
      for (e = 0; e < VP_DATA_EVENTS; e++)
         out->c[e] += o->rows[i].c[e];
}

static Bool counted(const VP_DataCost* c)
{
   UInt e;
   for (e = 0; e < VP_DATA_EVENTS; e++)
      if (c->c[e]) return True;
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
      if (counted(&fn_at(i)->cost)) {
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
