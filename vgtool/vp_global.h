/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_global.h: the types, options and prototypes shared by the files of
   the vgprof Valgrind tool.  Exported names carry the VP_() prefix. */

#ifndef VP_GLOBAL_H
#define VP_GLOBAL_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"

#define VP_(str) VGAPPEND(vgprof_, str)

#if defined(VG_BIGENDIAN)
#  define VP_ENDIAN Iend_BE
#else
#  define VP_ENDIAN Iend_LE
#endif

/* Events recorded; a cost is an array of VP_N_EVENTS counters. */
#define VP_N_EVENTS 1
#define VP_EV_IR    0

/*------------------------------------------------------------*/
/*--- from vp_clo.c                                        ---*/
/*------------------------------------------------------------*/

typedef struct {
   const HChar* out_file;   /* --vgprof-out-file template, %p/%q{} unexpanded */
   Bool         dump_instr; /* --dump-instr: per-instruction costs in the profile */
} VP_Clo;

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

/* The cost cell of one guest instruction at one location.  Segment
   counters of live translations are folded into it on discard and at
   exit. */
typedef struct _VP_InstrCC {
   struct _VP_InstrCC* next;   /* hash chain; must come first */
   UWord               addr;   /* hash key; must come second */
   struct _VP_InstrCC* same_addr_next; /* other locations, same address */
   VP_Loc              loc;
   ULong               cost[VP_N_EVENTS];
} VP_InstrCC;

void  VP_(init_instr)(void);
IRSB* VP_(instrument)(VgCallbackClosure* closure, IRSB* sbIn,
                      const VexGuestLayout* layout,
                      const VexGuestExtents* vge,
                      const VexArchInfo* archinfo_host,
                      IRType gWordTy, IRType hWordTy);
void  VP_(discard_sb)(Addr orig_addr, VexGuestExtents vge);
void  VP_(fold_all)(void);
void  VP_(zero_all)(void);
/* All instruction cells, in no particular order; caller frees. */
XArray* VP_(all_instr_ccs)(void);

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

/* A profile written at exit (number 0) or on a client request. */
typedef struct {
   Int          number;    /* 0 at exit, else the dump's number (1, 2, ...) */
   const HChar* label;     /* the client's label for a dump */
   Int          exitcode;  /* at exit only */
} VP_Dump;

void VP_(write_profile)(const VP_Dump* d);

#endif /* VP_GLOBAL_H */
