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
   Bool         heap;            /* --heap: observe the allocator, profile the heap */
   XArray*      alloc_fns;       /* of const HChar*: --alloc-fn NAME=ROLE[:ARGS] */
   UInt         heap_depth;      /* --heap-depth: frames of an allocation stack */
   UInt         heap_changes;    /* --heap-changes: rows of the sites' changes
                                    kept beyond two per site */
   Bool         data;            /* --data: book data accesses to data objects */
   Bool         timeline;        /* --timeline: record the spans of calls and marks */
   UInt         timeline_spans;  /* --timeline-spans: most spans a profile keeps */
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
   table, file a string id, line a source line (0: unknown), inl the
   innermost inlined call the instruction's code belongs to (an index into
   the table of inlined calls; VP_NO_INL for the function's own code). */
typedef struct {
   UInt fn;
   UInt file;
   UInt line;
   UInt inl;
} VP_Loc;

#define VP_NO_INL 0xFFFFFFFFu

/* An inlined call: function fn (an inlined one) whose code was inlined at
   file:line of its caller's code, the caller being the inlined call
   parent, or the real function when parent is VP_NO_INL. */
typedef struct {
   UInt fn;
   UInt parent;
   UInt file;
   UInt line;
} VP_Inl;

/* A function: name, obj and file are string ids.  An inlined function
   (one the compiler inlined, known from the inlined calls the debug info
   records) is known by its name in its object: file "???", line 0. */
typedef struct {
   UInt name;
   UInt obj;
   UInt file;   /* source file of the entry point */
   UInt line;   /* source line of the entry point */
   UInt inlined;
} VP_Fn;

/* What the debug information does not give (a function's name, a source
   file, an object), as cachegrind writes it and the companions read it. */
extern const HChar VP_(unknown)[];

void         VP_(init_locs)(void);
UInt         VP_(intern_str)(const HChar* s);
UInt         VP_(n_strs)(void);
const HChar* VP_(str)(UInt id);
UInt         VP_(n_fns)(void);
const VP_Fn* VP_(fn)(UInt id);
VP_Loc       VP_(loc_of_instr)(Addr a);
UInt         VP_(n_inls)(void);
const VP_Inl* VP_(inl)(UInt id);
Bool         VP_(is_fn_entry)(Addr a);
/* The frames of a code address as DHAT shows them: the inlined calls at a,
   innermost first (each an inlined function, with the line of its code),
   then a's own function with the line of the outermost inlined call (the
   line of a itself when nothing is inlined there).  Returns how many,
   at most max (at least 1). */
UInt         VP_(frames_at)(Addr a, VP_Loc* levels, UInt max);

/*------------------------------------------------------------*/
/*--- from vp_entries.c                                    ---*/
/*------------------------------------------------------------*/

/* The start of the function holding a, for code without a symbol: its
   address in the process and within its object. */
Bool VP_(unnamed_fn_start)(DiEpoch ep, Addr a, Addr* start_avma, Addr* start_in_obj);
/* Code generated at run time (vp_perfmap.c): the interned name the
   runtime's perf map gives the code at a, and where that code starts. */
Bool VP_(perfmap_fn)(Addr a, UInt* name, Addr* start);
/* Code outside every object that no map names: a is where a call landed,
   or a jump from an object's code (noted when its block is translated), and the start of the function
   holding a, the nearest such landing at or below it in its mapping. */
void VP_(note_call_target)(Addr a);
Bool VP_(call_target_fn)(Addr a, Addr* start);

/* What a table read from an object file is kept by: the file, and where
   its text is mapped (telling two mappings of one file apart). */
typedef struct {
   HChar* path;
   Addr   text_avma;
} VP_ObjKey;

/* The record of di's object in *table (an XArray, made on first use, of
   records of size bytes that start with a VP_ObjKey): added, zeroed past
   its key, with *fresh set, when not there yet.  NULL when di has no file
   name.  The record moves when another is added. */
void* VP_(object_record)(XArray** table, SizeT size, const DebugInfo* di, Bool* fresh);

/*------------------------------------------------------------*/
/*--- from vp_instr.c                                      ---*/
/*------------------------------------------------------------*/

/* How control left a superblock through one of its exits. */
typedef enum { VP_JK_JUMP = 0, VP_JK_CALL, VP_JK_RET } VP_JumpKind;

/* The length of the instruction whose IMark is st.  A length of 0 marks
   an undecodable instruction: it counts as the smallest there is, as
   cachegrind counts it. */
static inline UInt VP_(imark_len)(const IRStmt* st)
{
   return st->Ist.IMark.len ? st->Ist.IMark.len : VG_MIN_INSTR_SZB;
}

/* Static information about one translation, allocated in one piece with
   its arrays, which follow it in the order of the functions below that
   find them (from the counts, not through pointers kept in every one of
   a program's records). */
typedef struct _VP_SB {
   struct _VP_SB* next;         /* hash chain; must come first */
   UWord          key;          /* hash of (orig_addr, nraddr); must come second */
   Addr           orig_addr;    /* where the code was read from */
   Addr           nraddr;       /* the address before redirection, which
                                   names the translation to Valgrind */
   /* A superblock holds at most a few hundred instructions and exits (VEX
      stops at 100 instructions), so their numbers fit in 16 bits. */
   UShort         n_instrs;
   UShort         n_segs;
   UShort         max_segs;     /* segment counters allocated */
   UShort         n_exits;      /* side exits, then the final jump */
   /* For the call graph: what the entry of every block reads comes last,
      right before the exit kinds (the first thing after the record), so
      that it shares the record's last cache line with them and the first
      segment counters rather than touching one more at each block. */
   UInt           fn;           /* function of the first instruction */
   UInt           end_fn;       /* function of the last instruction */
   UInt           obj;          /* string id of its object */
   Bool           is_entry;     /* the first instruction starts a function */
   Bool           in_plt;       /* the code is a PLT stub */
   Bool           pop_on_jump;  /* the dynamic linker's lazy-binding resolver */
} VP_SB;

/* [n_exits] VP_JumpKind of each exit, first, next to the fields every
   block's entry reads (vp_callgraph.c), padded to 8 bytes so that the
   arrays after them stay aligned. */
static inline UChar* VP_(sb_exit_jk)(const VP_SB* sb)
{
   return (UChar*)(sb + 1);
}

static inline SizeT VP_(sb_exit_jk_bytes)(UInt n_exits)
{
   return (n_exits + 7u) & ~7u;
}

/* [max_segs] completions of each segment. */
static inline ULong* VP_(sb_seg_count)(const VP_SB* sb)
{
   return (ULong*)(VP_(sb_exit_jk)(sb) + VP_(sb_exit_jk_bytes)(sb->n_exits));
}

/* [n_instrs] each instruction's cell. */
static inline struct _VP_InstrCC** VP_(sb_instr_cc)(const VP_SB* sb)
{
   return (struct _VP_InstrCC**)(VP_(sb_seg_count)(sb) + sb->max_segs);
}

/* [n_instrs] the segment of each instruction. */
static inline UShort* VP_(sb_instr_seg)(const VP_SB* sb)
{
   return (UShort*)(VP_(sb_instr_cc)(sb) + sb->n_instrs);
}

/* [n_exits] the instruction holding each exit. */
static inline UShort* VP_(sb_exit_instr)(const VP_SB* sb)
{
   return VP_(sb_instr_seg)(sb) + sb->n_instrs;
}

/* The size of a record with the arrays above. */
static inline SizeT VP_(sb_bytes)(UInt n_instrs, UInt n_exits, UInt max_segs)
{
   STATIC_ASSERT(sizeof(VP_SB) % sizeof(ULong) == 0);
   return sizeof(VP_SB) + VP_(sb_exit_jk_bytes)(n_exits) + max_segs * sizeof(ULong)
          + n_instrs * (sizeof(struct _VP_InstrCC*) + sizeof(UShort))
          + n_exits * sizeof(UShort);
}

/* Program-wide running cost, one counter per event, bumped inline. */
extern ULong VP_(total)[VP_MAX_EVENTS];
/* The exit the running context last took, stored inline before each exit
   (and as exit 0 when a block is entered): its number in the low
   VP_EXIT_BITS bits, and above them the block context (VP_(block_context))
   that a block entered through it must have to be settled inline, without
   calling VP_(sb_entry); for an exit after which every block calls it,
   VP_RET_CONTEXT for a return, VP_CALL_CONTEXT for a call by the final
   exit and VP_PLT_JUMP_CONTEXT for a PLT stub's jump (so that the hook
   knows them without reading the block's record), VP_NO_CONTEXT for the
   others (a jump that leaves its object, a call by a side exit, or not
   known). */
extern UWord VP_(cur_exit);
/* The cell of the calling instruction, stored with VP_CALL_CONTEXT. */
extern struct _VP_InstrCC* VP_(call_cc);
/* The block the running context entered last, stored inline at entry. */
extern VP_SB* VP_(cur_sb);
/* The stack pointer at or below which a block may be settled inline:
   the top frame's, while nothing but the block's own checks stands in the
   way, else 0 (no block then settles inline). */
extern Addr VP_(entry_sp_limit);
#define VP_EXIT_BITS   16
#define VP_EXIT_MASK   (((UWord)1 << VP_EXIT_BITS) - 1)
/* The contexts that are no block's are the largest the exit word holds:
   shifted into place they are all ones above a few low zeros, so that
   the word stored inline before an exit, like that of an exit into the
   code of one of the first 16,384 functions, is a sign-extended 32-bit
   immediate of the store, with no 64-bit constant loaded before it. */
#define VP_NO_CONTEXT  (~(UWord)0 >> VP_EXIT_BITS)
#define VP_RET_CONTEXT (VP_NO_CONTEXT - 1)
#define VP_CALL_CONTEXT (VP_NO_CONTEXT - 2)
#define VP_PLT_JUMP_CONTEXT (VP_NO_CONTEXT - 3)
/* What a block entered by a plain jump must share with the block the
   jump left to need no call-graph work: its function and whether it is
   a PLT stub (the object follows from the function). */
static inline UWord VP_(block_context)(UInt fn, Bool in_plt)
{
   return ((UWord)fn << 1) | (in_plt ? 1 : 0);
}

/* The cost cell of one guest instruction at one location.  Segment
   counters of live translations are folded into it on discard and at
   exit.  Cells of one address (code unloaded and replaced there) share
   its hash key.  A cell has counters for the events its instruction can
   have, in the order of the events: with the cache simulated, an
   instruction that touches no data has only Ir, I1mr and ILmr, one that
   only reads has the read events too; the events past n_costs are 0.
   With the data objects on, a cell with room for data events (a cell
   that may access data) is preceded by the (function, data object) pair
   the instruction last booked a data access to (vp_data.h),
   VP_(cc_data_fn); other cells, by nothing. */
typedef struct _VP_InstrCC {
   struct _VP_InstrCC* next;   /* hash chain; must come first */
   UWord               addr;   /* hash key; must come second */
   UShort              len;    /* instruction length in bytes */
   UShort              n_costs; /* counters in cost[] */
   UInt                epoch;  /* debug-info epoch loc was found in */
   VP_Loc              loc;
   ULong               cost[0];   /* n_costs counters */
} VP_InstrCC;

/* Where Dr, the first data event, stands when the cache is simulated
   (the data objects need it): a cell with more counters may access data.
   Dw stands three further on, after D1mr and DLmr. */
#define VP_EV_DR 3
#define VP_EV_DW 6
static inline Bool VP_(cc_width_has_data)(UInt n_costs)
{
   return n_costs > VP_EV_DR;
}

static inline struct _VP_FnData** VP_(cc_data_fn)(VP_InstrCC* cc)
{
   return (struct _VP_FnData**)cc - 1;
}

/* A cell's count of event e. */
static inline ULong VP_(cc_cost)(const VP_InstrCC* cc, UInt e)
{
   return e < cc->n_costs ? cc->cost[e] : 0;
}

/* Zeroed memory that is never freed, carved out of large chunks: records
   made by the ten thousand and kept for the whole run (instruction cells,
   table keys) spare the allocator's per-block overhead. */
void* VP_(perm_alloc)(SizeT size);

/* Building the code the tool adds to a block, where every operand must
   be an atom: value bound to a new temporary of its type; the host word
   stored at where, read when the code runs. */
IRExpr* VP_(ir_atom)(IRSB* sbOut, IRExpr* value);
IRExpr* VP_(ir_load_word)(IRSB* sbOut, const void* where);

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
/* Every cell's counts, VP_(n_events) of them, into costs. */
void    VP_(cc_costs)(const VP_InstrCC* cc, ULong* costs);

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
void         VP_(events_flush)(void);
/* The counters an instruction's cell needs, for the instruction whose
   IMark is sbIn's statement i. */
UInt         VP_(events_cost_width)(const IRSB* sbIn, Int i);

/*------------------------------------------------------------*/
/*--- from vp_collect.c                                    ---*/
/*------------------------------------------------------------*/

extern Bool VP_(instrumenting);
extern Bool VP_(collecting);
/* Collection went off for good (VP_(collection_ends)): each superblock
   entered from then on hands its cells to VP_(save_sb_cells) first. */
extern Bool VP_(ending);

void VP_(init_collect)(void);
void VP_(set_instrumenting)(Bool on, const HChar* why);
void VP_(set_collecting)(Bool on);
/* Collection off for what is left of the run (the C library's clean-up
   at exit), keeping the counts of only the cells that run from now on. */
void VP_(collection_ends)(void);
void VP_(save_sb_cells)(const VP_SB* sb);
void VP_(settle_counts)(void);
void VP_(forget_saved_counts)(void);
Bool VP_(fn_toggles_collection)(UInt fn);

/*------------------------------------------------------------*/
/*--- from vp_callgraph.c                                  ---*/
/*------------------------------------------------------------*/

void VP_(init_callgraph)(void);
void VP_(register_callgraph_tracking)(void);
/* Thread tid is about to run client code (a new time slice). */
void VP_(callgraph_thread_runs)(ThreadId tid);
void VP_(callgraph_pre_signal)(ThreadId tid);
void VP_(callgraph_post_signal)(ThreadId tid);
/* The hook at a block's start (vp_instr.c): sb_flags is the block's
   record's address (aligned to 16 bytes) with the VP_ENTERED_ bits in
   its low bits, a constant of the block's code; two arguments, so that
   each block's code loads one 64-bit constant for them. */
#define VP_ENTERED_IN_PLT   1
#define VP_ENTERED_IS_ENTRY 2
#define VP_ENTERED_FLAGS    3
void VP_(sb_entry)(UWord sb_flags, Addr sp);
/* A block's code has run on into function fn's code. */
VG_REGPARM(1) void VP_(fn_switch)(UWord fn);
void VP_(forget_sb)(VP_SB* sb);
void VP_(callgraph_checkpoint)(void);
void VP_(callgraph_set_collecting)(Bool on);
void VP_(callgraph_reset_stacks)(void);
/* The superblock running now in the running thread, if known. */
const VP_SB* VP_(callgraph_current_sb)(void);
void VP_(callgraph_zero)(void);
/* With --timeline=yes: every active frame is written as an open span
   ending now (a dump is about to be written). */
void VP_(callgraph_cut_spans)(void);

/* What the writer reads. */
/* tid is Valgrind's thread number with --separate-threads=yes, else 0. */
typedef struct {
   UInt  caller, callee, file, line, tid;
   Addr  addr;     /* the instruction that made the calls */
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
void               VP_(settle_inlined_nodes)(void);
UInt               VP_(n_path_nodes)(void);
const VP_PathNode* VP_(path_node)(UInt i);
UInt               VP_(n_fn_incl)(void);
const VP_FnIncl*   VP_(fn_incl)(UInt i);

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

/* flags as open(2)'s; a file created is readable and writable by all,
   less the umask. */
Bool         VP_(out_open)(VP_Out* o, const HChar* path, Int flags);
void         VP_(out_raw)(VP_Out* o, const HChar* s, SizeT n);
void         VP_(out_s)(VP_Out* o, const HChar* s);
void         VP_(out_u64)(VP_Out* o, ULong v);
void         VP_(out_json_str)(VP_Out* o, const HChar* s);
Bool         VP_(out_close)(VP_Out* o);
const HChar* VP_(errno_text)(Int err);

/*------------------------------------------------------------*/
/*--- from vp_fingerprint.c                                ---*/
/*------------------------------------------------------------*/

/* Captures the client's environment, working directory and Valgrind's own
   options; once, before the client runs (later calls do nothing). */
void VP_(fingerprint_capture)(void);
/* Writes the ,"fingerprint":{...} member of meta. */
void VP_(fingerprint_write)(VP_Out* o);

/*------------------------------------------------------------*/
/*--- from vp_timeline.c                                   ---*/
/*------------------------------------------------------------*/

/* Spans shorter than this many instructions are not kept. */
extern ULong VP_(span_threshold);
/* Frames that ended in the period, with a span kept or not. */
extern ULong VP_(spans_offered);
void VP_(timeline_init)(void);
/* Forgets the spans and marks: a new period starts now. */
void VP_(timeline_restart)(void);
/* A frame ended at end (open: it was cut there without returning);
   cost holds one count per event. */
void VP_(timeline_add_span)(UInt thread, UInt depth, UInt fn, UInt node, ULong start,
                            ULong end, Bool open, const ULong* cost);
/* label is the client's memory when from_client. */
void VP_(timeline_mark)(ThreadId tid, const HChar* label, Bool from_client);
/* The program has ended and collection stops, before VP_(heap_stopped_at)
   is set: the running totals go on counting Valgrind's clean-up of libc,
   which no profile counts, so the timeline's later moments take the
   totals from here. */
void VP_(timeline_clock_stops)(void);
UInt VP_(timeline_n_marks)(void);
/* Writes the "timeline" member; node_out and fn_out map the call graph's
   ids to the profile's (VP_NO_ID: not in it). */
void VP_(timeline_write)(VP_Out* o, const UInt* node_out, const UInt* fn_out);

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
/* The whole document, once the dump's tables are renumbered. */
void   VP_(write_document)(VP_Out* o, const VP_Dump* d);

/*------------------------------------------------------------*/
/*--- from vp_summary.c                                    ---*/
/*------------------------------------------------------------*/

/* The exit summary; totals are the program's, one per event recorded. */
void VP_(print_summary)(const ULong* totals);

/*------------------------------------------------------------*/
/*--- from vp_place.c                                      ---*/
/*------------------------------------------------------------*/

/* The file a dump goes to (the caller frees it). */
HChar* VP_(profile_path)(const VP_Dump* d);
/* Writes the document to path, atomically where it can; False (the
   reason printed) when no profile was written. */
Bool   VP_(place_profile)(const HChar* path, const VP_Dump* d);
/* Stops valgrind at start-up when the profile could not be created. */
void   VP_(check_profile_destination)(void);

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
