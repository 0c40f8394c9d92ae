/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_global.h: the types, options and prototypes shared by the files of
   the vgprof Valgrind tool.  Exported names carry the VP_() prefix. */

#ifndef VP_GLOBAL_H
#define VP_GLOBAL_H

#include "pub_tool_basics.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"
#include "vp_sim.h"

#define VP_(str) VGAPPEND(vgprof_, str)

#if defined(VG_BIGENDIAN)
#  define VP_ENDIAN Iend_BE
#else
#  define VP_ENDIAN Iend_LE
#endif

/* Events recorded; a cost is an array of VP_(n_events) counters, Ir
   first.  Arrays that hold a cost are sized for the most there can be. */
#define VP_MAX_EVENTS 13
#define VP_EV_IR      0
extern UInt VP_(n_events);

/*------------------------------------------------------------*/
/*--- from vp_clo.c                                        ---*/
/*------------------------------------------------------------*/

typedef struct {
   const HChar* out_file;   /* --vgprof-out-file template, %p/%q{} unexpanded */
   Bool         dump_instr; /* --dump-instr: per-instruction costs in the profile */
   Bool         call_graph; /* --call-graph: track calls and returns */
   UInt         max_path_nodes; /* --max-path-nodes: bound of the call-path tree */
   Bool         separate_threads; /* --separate-threads: a call graph per thread */
   Bool         cache_sim;       /* --cache-sim */
   Bool         branch_sim;      /* --branch-sim */
   VP_CacheClo  cache;           /* --I1, --D1, --LL, --cache-from-host */
   Bool         instr_atstart;   /* --instr-atstart */
   Bool         collect_atstart; /* --collect-atstart */
   XArray*      toggle_collect;  /* of const HChar*: --toggle-collect patterns */
   Bool         heap;            /* --heap: replace the allocator, profile the heap */
   UInt         heap_depth;      /* --heap-depth: frames of an allocation stack */
} VP_Clo;

#define VP_MAX_HEAP_DEPTH 200

extern VP_Clo  VP_(clo);
extern XArray* VP_(tool_args);  /* of const HChar*: tool options as given */

void VP_(init_clo)(void);
Bool VP_(process_cmd_line_option)(const HChar* arg);
void VP_(print_usage)(void);
void VP_(print_debug_usage)(void);
void VP_(check_clo)(void);

/*------------------------------------------------------------*/
/*--- from vp_loc.c                                        ---*/
/*------------------------------------------------------------*/

/* Where an instruction's cost goes.  fn is an index into the function
   table, file a string id, line a source line (0: unknown). */
typedef struct {
   UInt fn;
   UInt file;
   UInt line;
} VP_Loc;

/* A function: all four fields are string ids except line. */
typedef struct {
   UInt name;
   UInt obj;
   UInt file;   /* source file of the entry point */
   UInt line;   /* source line of the entry point */
} VP_Fn;

void         VP_(init_locs)(void);
UInt         VP_(intern_str)(const HChar* s);
UInt         VP_(n_strs)(void);
const HChar* VP_(str)(UInt id);
UInt         VP_(n_fns)(void);
const VP_Fn* VP_(fn)(UInt id);
VP_Loc       VP_(loc_of_instr)(Addr a);

/*------------------------------------------------------------*/
/*--- from vp_instr.c                                      ---*/
/*------------------------------------------------------------*/

/* How control left a superblock through one of its exits. */
typedef enum { VP_JK_JUMP = 0, VP_JK_CALL, VP_JK_RET } VP_JumpKind;

/* Static information about one translation, allocated in one piece. */
typedef struct _VP_SB {
   struct _VP_SB* next;         /* hash chain; must come first */
   UWord          key;          /* hash of (orig_addr, nraddr); must come second */
   Addr           orig_addr;    /* where the code was read from */
   Addr           nraddr;       /* the address before redirection, which
                                   names the translation to Valgrind */
   UInt           n_instrs;
   UInt           n_segs;
   ULong*         seg_count;    /* [n_segs] completions of each segment */
   struct _VP_InstrCC** instr_cc; /* [n_instrs] */
   UInt*          instr_seg;    /* [n_instrs] segment of each instruction */
   /* For the call graph. */
   UInt           fn;           /* function of the first instruction */
   UInt           obj;          /* string id of its object */
   Bool           is_entry;     /* the first instruction starts a function */
   Bool           in_plt;       /* the code is a PLT stub */
   Bool           pop_on_jump;  /* the dynamic linker's lazy-binding resolver */
   UInt           n_exits;      /* side exits, then the final jump */
   UChar*         exit_jk;      /* [n_exits] VP_JumpKind */
   UInt*          exit_instr;   /* [n_exits] the instruction holding the exit */
   Addr*          exit_next;    /* [n_exits] the address after that instruction */
} VP_SB;

/* Program-wide running cost, one counter per event, bumped inline. */
extern ULong VP_(total)[VP_MAX_EVENTS];
/* The exit the current thread last took, stored inline before each exit. */
extern UWord VP_(cur_exit);

/* The cost cell of one guest instruction at one location.  Segment
   counters of live translations are folded into it on discard and at
   exit. */
typedef struct _VP_InstrCC {
   struct _VP_InstrCC* next;   /* hash chain; must come first */
   UWord               addr;   /* hash key; must come second */
   struct _VP_InstrCC* same_addr_next; /* other locations, same address */
   UInt                len;    /* instruction length in bytes */
   UInt                epoch;  /* debug-info epoch loc was found in */
   VP_Loc              loc;
   ULong               cost[0];   /* VP_(n_events) counters */
} VP_InstrCC;

/* Zeroed memory that is never freed, carved out of large chunks: records
   made by the ten thousand and kept for the whole run (instruction cells,
   table keys) spare the allocator's per-block overhead. */
void* VP_(perm_alloc)(SizeT size);

void  VP_(init_instr)(void);
IRSB* VP_(instrument)(VgCallbackClosure* closure, IRSB* sbIn,
                      const VexGuestLayout* layout,
                      const VexGuestExtents* vge,
                      const VexArchInfo* archinfo_host,
                      IRType gWordTy, IRType hWordTy);
void  VP_(discard_sb)(Addr orig_addr, VexGuestExtents vge);
void  VP_(fold_all)(void);
void  VP_(zero_all)(void);
void  VP_(drop_live_counts)(void);
/* All instruction cells, in no particular order; caller frees. */
XArray* VP_(all_instr_ccs)(void);

/*------------------------------------------------------------*/
/*--- from vp_events.c                                     ---*/
/*------------------------------------------------------------*/

void         VP_(init_events)(void);
const HChar* VP_(event_name)(UInt e);
Int          VP_(event_index)(const HChar* name);   /* -1 if not recorded */
void         VP_(events_begin)(IRSB* sbOut, Int offset_sp);
void         VP_(events_instr)(struct _VP_InstrCC* cc, Addr addr, UInt len);
void         VP_(events_stmt)(IRStmt* st, IRTypeEnv* tyenv, IRType hWordTy);
void         VP_(events_end)(IRSB* sbIn);

/*------------------------------------------------------------*/
/*--- from vp_collect.c                                    ---*/
/*------------------------------------------------------------*/

extern Bool VP_(instrumenting);
extern Bool VP_(collecting);

void VP_(init_collect)(void);
void VP_(set_instrumenting)(Bool on, const HChar* why);
void VP_(set_collecting)(Bool on);
void VP_(settle_counts)(void);
void VP_(forget_saved_counts)(void);
Bool VP_(fn_toggles_collection)(UInt fn);

/*------------------------------------------------------------*/
/*--- from vp_callgraph.c                                  ---*/
/*------------------------------------------------------------*/

void VP_(init_callgraph)(void);
void VP_(register_callgraph_tracking)(void);
VG_REGPARM(2) void VP_(sb_entry)(VP_SB* sb, Addr sp);
void VP_(forget_sb)(VP_SB* sb);
void VP_(callgraph_checkpoint)(void);
void VP_(callgraph_set_collecting)(Bool on);
void VP_(callgraph_reset_stacks)(void);
void VP_(callgraph_zero)(void);

/* What the writer reads. */
/* tid is Valgrind's thread number with --separate-threads=yes, else 0. */
typedef struct {
   UInt  caller, callee, file, line, tid;
   ULong count;
   ULong incl[];   /* VP_(n_events) */
} VP_Edge;

typedef struct {
   UInt  parent;   /* VP_NO_ID for a root */
   UInt  fn;       /* VP_NO_ID for [truncated] */
   UInt  tid;
   ULong count;
   ULong incl[];   /* VP_(n_events) */
} VP_PathNode;

typedef struct {
   UInt  fn, tid;
   ULong incl[];   /* VP_(n_events) */
} VP_FnIncl;

#define VP_NO_ID 0xFFFFFFFFu

UInt               VP_(n_edges)(void);
const VP_Edge*     VP_(edge)(UInt i);
UInt               VP_(n_path_nodes)(void);
const VP_PathNode* VP_(path_node)(UInt i);
UInt               VP_(n_fn_incl)(void);
const VP_FnIncl*   VP_(fn_incl)(UInt i);

/*------------------------------------------------------------*/
/*--- from vp_heap.c                                       ---*/
/*------------------------------------------------------------*/

/* A live heap block. */
typedef struct _VP_Block {
   Addr             start;
   SizeT            size;    /* as requested; at least 1 */
   struct _VP_Site* site;
   ULong            born;    /* VP_(heap_now)() at allocation */
   ULong            reads, writes;   /* bytes */
   UShort*          acc;     /* [size] accesses per byte, small blocks only */
} VP_Block;

/* Instructions executed so far: the clock of lifetimes and of the
   timeline.  With the call graph on, the running total of Ir counts
   exactly that; otherwise VP_(heap_time) is bumped inline with each
   segment while the heap is profiled. */
extern ULong VP_(heap_time);
static inline ULong VP_(heap_now)(void)
{
   return VP_(clo).call_graph ? VP_(total)[VP_EV_IR] : VP_(heap_time);
}

/* Two direct-mapped caches in front of the block index.  A page entry
   (4 KiB) holds the block that covers the whole page, or NULL when no
   block touches it: large blocks and gaps are found with one probe.  A
   granule entry (16 bytes) holds a block that overlaps the granule (an
   address of the granule outside it is looked up again: another block may
   share the granule), or NULL when none does: it serves pages shared by
   small blocks. */
#define VP_PAGE_SHIFT    12
#define VP_PAGE_CACHE    (1 << 11)
#define VP_GRANULE_SHIFT 4
#define VP_GRANULE_CACHE (1 << 13)
typedef struct { UWord tag; VP_Block* blk; } VP_GranuleEntry;
extern VP_GranuleEntry VP_(pages)[VP_PAGE_CACHE];
extern VP_GranuleEntry VP_(granules)[VP_GRANULE_CACHE];
/* Every block lies in [heap_lo, heap_hi): most stack and static data
   addresses are turned away by one comparison. */
extern Addr VP_(heap_lo), VP_(heap_hi);

VP_Block* VP_(heap_find_slow)(Addr a);

static inline __attribute__((always_inline)) VP_Block* VP_(heap_find)(Addr a)
{
   if (a - VP_(heap_lo) >= VP_(heap_hi) - VP_(heap_lo))
      return NULL;
   UWord            p  = a >> VP_PAGE_SHIFT;
   VP_GranuleEntry* pe = &VP_(pages)[p & (VP_PAGE_CACHE - 1)];
   if (LIKELY(pe->tag == p))
      return pe->blk;
   UWord            g = a >> VP_GRANULE_SHIFT;
   VP_GranuleEntry* e = &VP_(granules)[g & (VP_GRANULE_CACHE - 1)];
   if (LIKELY(e->tag == g)) {
      VP_Block* b = e->blk;
      if (b == NULL)
         return NULL;
      if (LIKELY(a - b->start < b->size))
         return b;
   }
   return VP_(heap_find_slow)(a);
}

/* A read or write of n bytes at a: counted against the block holding a
   (all n bytes, as DHAT counts them; per byte only those inside it). */
static inline __attribute__((always_inline)) void VP_(heap_access)(Addr a, SizeT n, Bool write)
{
   VP_Block* b = VP_(heap_find)(a);
   if (b == NULL)
      return;
   if (write) b->writes += n;
   else       b->reads  += n;
   if (b->acc) {
      SizeT off = a - b->start, end = off + n < b->size ? off + n : b->size;
      for (; off < end; off++)
         if (b->acc[off] != 0xFFFF) b->acc[off]++;
   }
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

/* from vp_strfn.c: libc's string functions, whose heap accesses are
   counted as the call is defined to make them (as DHAT's replacements
   make them) rather than as libc's code makes them. */
typedef enum {
   VP_SF_NONE = 0, VP_SF_MEMCPY, VP_SF_BCOPY, VP_SF_MEMSET, VP_SF_MEMCMP, VP_SF_MEMCHR,
   VP_SF_RAWMEMCHR, VP_SF_STRCHR, VP_SF_STRCHRNUL, VP_SF_STRLEN, VP_SF_STRRCHR,
   VP_SF_STRNLEN, VP_SF_STRCPY, VP_SF_STPCPY, VP_SF_STRNCPY, VP_SF_STRCAT, VP_SF_STRCMP,
   VP_SF_STRNCMP, VP_SF_STRSPN, VP_SF_STRCSPN, VP_SF_STRPBRK, VP_SF_STRSTR
} VP_StrFn;
VP_StrFn VP_(strfn_family)(UInt fn);
/* A call of family fam with arguments arg[0..2], entered with stack
   pointer sp, has returned. */
void     VP_(strfn_account)(VP_StrFn fam, const UWord* arg, Addr sp);

void VP_(heap_pre_clo_init)(void);
void VP_(heap_post_clo_init)(void);

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
   ULong tot_bytes, tot_blocks, gmax_bytes, gmax_blocks, gmax_time;
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
void  VP_(heap_totals)(VP_HeapTotals* t);
UInt  VP_(heap_n_samples)(void);
void  VP_(heap_sample)(UInt i, ULong* time, ULong* bytes, ULong* blocks);
ULong VP_(heap_sample_width)(void);
UInt  VP_(heap_n_snapshots)(void);
void  VP_(heap_snapshot)(UInt i, VP_HeapSnapshot* out);
void  VP_(heap_top_sites)(Bool at_peak, VP_HeapSnapshot* out);

/*------------------------------------------------------------*/
/*--- from vp_json.c                                       ---*/
/*------------------------------------------------------------*/

/* A buffered output file that remembers the first write error. */
typedef struct {
   Int   fd;
   Int   err;      /* errno of the first failure, 0 if none */
   UInt  used;
   HChar buf[1 << 16];
} VP_Out;

Bool         VP_(out_open)(VP_Out* o, const HChar* path);
void         VP_(out_raw)(VP_Out* o, const HChar* s, SizeT n);
void         VP_(out_s)(VP_Out* o, const HChar* s);
void         VP_(out_u64)(VP_Out* o, ULong v);
void         VP_(out_json_str)(VP_Out* o, const HChar* s);
Bool         VP_(out_close)(VP_Out* o);
const HChar* VP_(errno_text)(Int err);

/*------------------------------------------------------------*/
/*--- from vp_dump.c                                       ---*/
/*------------------------------------------------------------*/

/* A profile written at exit (number 0) or as a numbered dump. */
typedef struct {
   Int          number;    /* 0 at exit, else the dump's number (1, 2, ...) */
   const HChar* label;     /* the dump's label */
   Int          exitcode;  /* at exit only: the status, or -1 if killed */
   Int          signal;    /* at exit only: the signal that killed the
                              client, 0 if not killed or not known */
   Bool         quiet;     /* the caller reports success itself */
} VP_Dump;

/* Returns the path written (the caller frees it), or NULL when the
   profile could not be written (the reason has been printed). */
HChar* VP_(write_profile)(const VP_Dump* d);

/*------------------------------------------------------------*/
/*--- from vp_main.c                                       ---*/
/*------------------------------------------------------------*/

/* Writes what was counted since the last dump or zero as the next
   numbered dump, then counts from zero; returns the path written (the
   caller frees it), or NULL. */
HChar* VP_(dump_numbered)(const HChar* label, Bool quiet);
void   VP_(zero_stats)(void);
Int    VP_(dumps_written)(void);

/*------------------------------------------------------------*/
/*--- from vp_ending.c                                     ---*/
/*------------------------------------------------------------*/

/* The profile at the client's end; exit_status is the status it gave
   exit_group, or -1 when it never called it. */
void VP_(write_at_end)(Int exit_status);

/*------------------------------------------------------------*/
/*--- from vp_monitor.c                                    ---*/
/*------------------------------------------------------------*/

/* A command from vgdb (`monitor CMD` in gdb): True if it was the tool's. */
Bool VP_(monitor_command)(const HChar* req);

/* from vp_heap.c, for the status command: the heap live now. */
void VP_(heap_live)(ULong* bytes, ULong* blocks);

#endif /* VP_GLOBAL_H */
