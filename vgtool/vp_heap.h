/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_heap.h: the heap profile's types and hot path, shared by the files
   that watch the program's allocator (vp_alloc.c), keep its blocks and
   allocation sites (vp_heap.c), count data accesses against the blocks
   (vp_events.c, vp_strfn.c) and write the profile (vp_dump.c). */

#ifndef VP_HEAP_H
#define VP_HEAP_H

#include "pub_tool_debuginfo.h"
#include "vp_global.h"

/* Not in the tool headers, but exported by libcoregrind: an object's
   symbol table, all its names included (the redirection of functions
   reads it so), and the demangler.  vp_alloc.c finds the allocator's
   functions there, vp_data.c the data symbols. */
typedef struct { Addr main; } SymAVMAs;
extern Int  VG_(DebugInfo_syms_howmany)(const DebugInfo* di);
extern void VG_(DebugInfo_syms_getidx)(const DebugInfo* di, Int idx, SymAVMAs* avmas,
                                       UInt* size, const HChar** pri_name,
                                       const HChar*** sec_names, Bool* is_text,
                                       Bool* is_ifunc, Bool* is_global);
extern void VG_(demangle)(Bool do_cxx_demangling, Bool do_z_demangling, const HChar* orig,
                          const HChar** result);

/*------------------------------------------------------------*/
/*--- from vp_heap.c                                       ---*/
/*------------------------------------------------------------*/

/* A live heap block.  The fields each data access reads or writes come
   first, those it reads first of all, so that they share a host cache
   line: records are 16-byte aligned, and a block's data object, read
   right after its start, once lay in the record's second line. */
typedef struct _VP_Block {
   Addr             start;
   struct _VP_DataObj* data; /* its site's data object (vp_data.h), or
                                NULL when accesses are not booked to data */
   SizeT            size;    /* as requested; at least 1 */
   UShort*          acc;     /* [size] accesses per byte, small blocks only */
   ULong            reads, writes;   /* bytes */
   struct _VP_Site* site;
   ULong            born;    /* VP_(heap_now)() at allocation */
   Bool             inner;   /* made by a client request: may lie inside
                                a block of the allocator's */
} VP_Block;

/* An allocation site: the stack a block was allocated from. */
typedef struct _VP_Site VP_Site;

/* Instructions executed so far: the clock of lifetimes and of the
   timeline.  The allocator's own instructions are counted, as every
   instruction is.  With the call graph on, the running total of Ir
   counts exactly that; otherwise VP_(heap_time) is bumped inline with
   each segment while the heap is profiled.  The clock stops, at
   VP_(heap_stopped_at), when the program has ended and only Valgrind's
   clean-up of libc is left to run. */
extern ULong VP_(heap_time);
extern ULong VP_(heap_stopped_at);   /* 0 while the clock runs */
static inline ULong VP_(heap_now)(void)
{
   if (UNLIKELY(VP_(heap_stopped_at) != 0))
      return VP_(heap_stopped_at);
   return VP_(clo).call_graph ? VP_(total)[VP_EV_IR] : VP_(heap_time);
}

/* Two direct-mapped caches in front of the block index.  A page entry
   (4 KiB) holds the block that covers the whole page, or NULL when no
   block touches it: large blocks and gaps are found with one probe.  A
   granule entry (16 bytes) holds a block that overlaps the granule (an
   address of the granule outside it is looked up again: another block may
   share the granule), or NULL when none does: it serves pages shared by
   small blocks.  Neither holds a block that another block lies inside. */
#define VP_PAGE_SHIFT    12
#define VP_PAGE_CACHE    (1 << 11)
#define VP_GRANULE_SHIFT 4
#define VP_GRANULE_CACHE (1 << 13)
typedef struct { UWord tag; VP_Block* blk; } VP_GranuleEntry;
extern VP_GranuleEntry VP_(pages)[VP_PAGE_CACHE];
extern VP_GranuleEntry VP_(granules)[VP_GRANULE_CACHE];
/* Every block lies in [heap_lo, heap_hi): most stack and static data
   addresses are turned away by one comparison.  While the running
   thread is inside a call of the allocator, the range is empty, so that
   none of the allocator's own accesses is counted (its bookkeeping is
   not the program's reading and writing) at no cost to the others. */
extern Addr VP_(heap_lo), VP_(heap_hi);
extern UWord VP_(heap_span);   /* heap_hi - heap_lo: one load fewer per test */

/* Whether a lies in [VP_(heap_lo), VP_(heap_hi)). */
static inline __attribute__((always_inline)) Bool VP_(in_heap_range)(Addr a)
{
   return a - VP_(heap_lo) < VP_(heap_span);
}

VP_Block* VP_(heap_find_slow)(Addr a);

/* Whether the caches know which block holds a (in the heap's range):
   *out, or NULL for none. */
static inline __attribute__((always_inline)) Bool VP_(heap_known)(Addr a, VP_Block** out)
{
   UWord            p  = a >> VP_PAGE_SHIFT;
   VP_GranuleEntry* pe = &VP_(pages)[p & (VP_PAGE_CACHE - 1)];
   if (LIKELY(pe->tag == p)) {
      *out = pe->blk;
      return True;
   }
   UWord            g = a >> VP_GRANULE_SHIFT;
   VP_GranuleEntry* e = &VP_(granules)[g & (VP_GRANULE_CACHE - 1)];
   if (LIKELY(e->tag == g)) {
      VP_Block* b = e->blk;
      if (b == NULL || LIKELY(a - b->start < b->size)) {
         *out = b;
         return True;
      }
   }
   return False;
}

/* The block holding a, or NULL: as the caches know it, else as the
   index says. */
static inline __attribute__((always_inline)) VP_Block* VP_(heap_find)(Addr a)
{
   VP_Block* b;
   if (!VP_(in_heap_range)(a))
      return NULL;
   return VP_(heap_known)(a, &b) ? b : VP_(heap_find_slow)(a);
}

/* Adds one to each of the counts [off, end) of acc that is not
   saturated (0xFFFF), one at a time. */
static inline __attribute__((always_inline)) void VP_(acc_add_each)(UShort* acc, SizeT off, SizeT end)
{
   for (; off < end; off++)
      if (acc[off] != 0xFFFF) acc[off]++;
}

/* The same of the k counts from acc[off].  With SSE2, eight counts are
   read and written as one vector: its saturating addition of 16-bit
   lanes (paddusw) is the counts' own rule, so an access of up to eight
   bytes is counted by one addition of the increments VP_(acc_first)[k]
   (one in each of the first k lanes), with no test of the counts; it
   may touch counts past the k, adding nothing to them.  Elsewhere, one
   count at a time. */
#if defined(__SSE2__)
typedef short VP_AccLanes __attribute__((vector_size(16)));
typedef short VP_AccOcta __attribute__((vector_size(16), may_alias, aligned(2)));
extern const VP_AccLanes VP_(acc_first)[9];

static inline __attribute__((always_inline)) void VP_(acc_add)(UShort* acc, SizeT off, SizeT k)
{
   VP_AccOcta* o = (VP_AccOcta*)&acc[off];
   *o = __builtin_ia32_paddusw128(*o, VP_(acc_first)[k]);
}
#else
static inline __attribute__((always_inline)) void VP_(acc_add)(UShort* acc, SizeT off, SizeT k)
{
   VP_(acc_add_each)(acc, off, off + k);
}
#endif

/* Adds one to each of the counts [off, end) of acc[0, size) that is not
   saturated.  The vector may reach past end but not past size: lanes
   past end add nothing. */
static inline __attribute__((always_inline))
void VP_(acc_bump)(UShort* acc, SizeT off, SizeT end, SizeT size)
{
   if (LIKELY(end - off <= 8 && off + 8 <= size)) {
      VP_(acc_add)(acc, off, end - off);
      return;
   }
   for (; end - off >= 8; off += 8)
      VP_(acc_add)(acc, off, 8);
   VP_(acc_add_each)(acc, off, end);
}

/* A read or write of n bytes at a, counted against the block b holding
   a (all n bytes, as DHAT counts them; per byte only those inside it). */
static inline __attribute__((always_inline))
void VP_(heap_access_in)(VP_Block* b, Addr a, SizeT n, Bool write)
{
   if (write) b->writes += n;
   else       b->reads  += n;
   if (b->acc) {
      SizeT off = a - b->start, end = off + n < b->size ? off + n : b->size;
      VP_(acc_bump)(b->acc, off, end, b->size);
   }
}

/* A read or write of n bytes at a: counted against the block holding a. */
static inline __attribute__((always_inline)) void VP_(heap_access)(Addr a, SizeT n, Bool write)
{
   VP_Block* b = VP_(heap_find)(a);
   if (b != NULL)
      VP_(heap_access_in)(b, a, n, write);
}

/* A data access of the client's code: DHAT leaves out every access
   within 16 KiB above the stack pointer less the red zone, taking it for
   the stack's, and so does this (a block mapped just above a thread's
   stack loses those accesses in both). */
#define VP_STACK_WINDOW 16384
static inline __attribute__((always_inline)) Bool VP_(in_stack_window)(Addr a, Addr sp)
{
   return a - (sp - VG_STACK_REDZONE_SZB) <= VP_STACK_WINDOW;
}

static inline __attribute__((always_inline))
void VP_(heap_access_at)(Addr a, SizeT n, Bool write, Addr sp)
{
   if (VP_(in_stack_window)(a, sp))
      return;
   VP_(heap_access)(a, n, write);
}

void VP_(heap_post_clo_init)(void);
/* A zero or a dump: a new period begins. */
void VP_(heap_zero)(void);

/* The site of a stack (ips[0] the allocator's entry, then its callers). */
VP_Site* VP_(heap_site_of_stack)(const Addr* ips, UInt n);

/* What the allocator did, as seen when its outermost call returned (or
   as a client request said).  A block of an inner kind (made by a client
   request) may lie inside an allocator's block: both count, as massif
   counts them. */
void VP_(heap_alloc)(VP_Site* s, Addr a, SizeT size, Bool inner);
/* Whether a was a block's start. */
Bool VP_(heap_free)(Addr a);
/* The block at old_a now lies at new_a with new_size bytes; copies: its
   kept bytes were copied (read and written), as a realloc copies them.
   Whether old_a was a block's start. */
Bool VP_(heap_resize)(Addr old_a, Addr new_a, SizeT new_size, Bool copies);
Bool VP_(heap_is_block)(Addr a);
/* Whether the accesses of the running thread count: False while it is
   inside a call of the allocator. */
void VP_(heap_count_accesses)(Bool on);

/* What the writer reads, between heap_prepare_dump and heap_finish_dump:
   sites in a stable order (by stack), as they stand if the run ended now. */
typedef struct {
   UInt   n_frames;
   ULong  tot_bytes, tot_blocks, lifetimes, max_bytes, max_blocks;
   ULong  gmax_bytes, gmax_blocks, end_bytes, end_blocks, reads, writes;
   SizeT  acc_size;      /* 0: no per-offset counts */
   const UInt* acc;
} VP_HeapSite;

typedef struct {
   ULong start_time, start_bytes, start_blocks;   /* the period's start */
   ULong tot_bytes, tot_blocks, freed_bytes, freed_blocks, gmax_bytes, gmax_blocks, gmax_time;
   ULong end_bytes, end_blocks, end_time, reads, writes;
} VP_HeapTotals;

#define VP_SNAP_ROWS 10
typedef struct {
   ULong time, bytes, blocks;
   UInt  n_rows;
   UInt  site[VP_SNAP_ROWS];
   ULong rbytes[VP_SNAP_ROWS], rblocks[VP_SNAP_ROWS];
} VP_HeapSnapshot;

void  VP_(heap_prepare_dump)(void);
void  VP_(heap_finish_dump)(void);
UInt  VP_(heap_n_sites)(void);
void  VP_(heap_site)(UInt i, VP_HeapSite* out);
void  VP_(heap_frame)(UInt site, UInt i, Addr* addr, VP_Loc* loc);
/* The period's figures (since the last zero or dump), and the whole
   run's (from its start; start_* 0). */
void  VP_(heap_totals)(VP_HeapTotals* t);
void  VP_(heap_whole_run)(VP_HeapTotals* t);
UInt  VP_(heap_n_samples)(void);
void  VP_(heap_sample)(UInt i, ULong* time, ULong* bytes, ULong* blocks);
ULong VP_(heap_sample_width)(void);
/* What site allocated and freed over time: rows in time order, each the
   start of a stretch of heap_changes_width instructions. */
ULong VP_(heap_changes_width)(void);
UInt  VP_(heap_site_n_changes)(UInt site);
void  VP_(heap_site_change)(UInt site, UInt i, ULong* time, ULong* bytes, ULong* blocks,
                            ULong* freed_bytes, ULong* freed_blocks);
UInt  VP_(heap_n_snapshots)(void);
void  VP_(heap_snapshot)(UInt i, VP_HeapSnapshot* out);
void  VP_(heap_top_sites)(Bool at_peak, VP_HeapSnapshot* out);
UInt  VP_(heap_site_number)(VP_Site* s);

/*------------------------------------------------------------*/
/*--- from vp_alloc.c                                      ---*/
/*------------------------------------------------------------*/

/* The running thread is inside a call of the allocator: read inline, by
   the test before each return, so that only returns made then reach the
   tool. */
extern UWord VP_(in_alloc);

/* NULL if spec (an --alloc-fn value, NAME=ROLE[:ARG,...]) is good, else
   what is wrong with it. */
const HChar* VP_(alloc_fn_error)(const HChar* spec);
void VP_(alloc_post_clo_init)(void);
/* While translating: whether the instruction at a is the first of a
   function of the allocator's, and the call that tells vp_alloc.c it
   was entered; the test after a return. */
Bool VP_(alloc_is_entry)(Addr a);
/* The name an allocator's function starting at fn_start goes by when
   Valgrind names it by another of its names (mi_free for free). */
Bool VP_(alloc_own_name)(Addr fn_start, UInt* name);
void VP_(alloc_add_entry_hook)(IRSB* sbOut, Addr a, const VexGuestLayout* layout);
void VP_(alloc_add_return_hook)(IRSB* sbOut, IRSB* sbIn, const VexGuestLayout* layout);
/* Threads, signal handlers and client requests. */
void VP_(alloc_thread_runs)(ThreadId tid);
void VP_(alloc_pre_signal)(ThreadId tid);
void VP_(alloc_post_signal)(ThreadId tid);
void VP_(alloc_client_block)(ThreadId tid, Addr a, SizeT size);
void VP_(alloc_client_free)(ThreadId tid, Addr a);
void VP_(alloc_client_resize)(ThreadId tid, Addr a, SizeT new_size);
/* The allocator families whose calls made or freed blocks. */
UInt         VP_(alloc_n_families_seen)(void);
const HChar* VP_(alloc_family_seen)(UInt i);
/* At exit, when no allocation was seen: the functions that look like an
   allocator's but are not known, to name with --alloc-fn. */
void VP_(alloc_report_unknown)(void);

/* Whether the object file at path has a name beginning with base_prefix
   ("libc.so" matches /usr/lib/x86_64-linux-gnu/libc.so.6). */
Bool VP_(is_object)(const HChar* path, const HChar* base_prefix);

/*------------------------------------------------------------*/
/*--- from vp_strfn.c                                      ---*/
/*------------------------------------------------------------*/

/* libc's string functions, whose heap accesses are counted as the call
   is defined to make them (as DHAT's replacements make them) rather than
   as libc's code makes them. */
typedef enum {
   VP_SF_NONE = 0, VP_SF_MEMCPY, VP_SF_BCOPY, VP_SF_MEMSET, VP_SF_MEMCMP, VP_SF_MEMCHR,
   VP_SF_MEMRCHR, VP_SF_RAWMEMCHR, VP_SF_STRCHR, VP_SF_STRCHRNUL, VP_SF_STRLEN, VP_SF_STRRCHR,
   VP_SF_STRNLEN, VP_SF_STRCPY, VP_SF_STPCPY, VP_SF_STRNCPY, VP_SF_STRCAT, VP_SF_STRCMP,
   VP_SF_STRNCMP, VP_SF_STRSPN, VP_SF_STRCSPN, VP_SF_STRPBRK, VP_SF_STRSTR,
   VP_SF_STRCASECMP, VP_SF_WCSLEN, VP_SF_WCSCHR, VP_SF_WCSRCHR, VP_SF_WCSCMP, VP_SF_WCSCPY
} VP_StrFn;
VP_StrFn VP_(strfn_family)(UInt fn);
/* Whether function fn is the dynamic linker's: a string function's name
   called from there is the name's IFUNC resolver, which takes no string
   arguments (its registers hold whatever the linker left in them). */
Bool     VP_(strfn_caller_is_linker)(UInt fn);
/* A call of family fam with arguments arg[0..2], entered with stack
   pointer sp, has returned. */
void     VP_(strfn_account)(VP_StrFn fam, const UWord* arg, Addr sp);

#endif /* VP_HEAP_H */
