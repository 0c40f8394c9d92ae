/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_loc.c: maps instruction addresses through Valgrind's debug info to
   (function, file, line), interning strings and functions as it goes.
   Called at translation time only, never on the hot path. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_wordfm.h"
#include "vp_global.h"

/* Not in pub_tool_debuginfo.h, but exported by libcoregrind on every
   platform: the offset of an address from the start of its symbol. */
extern Bool VG_(get_inst_offset_in_function)(DiEpoch ep, Addr a,
                                             /*OUT*/PtrdiffT* offset);

static const HChar unknown[] = "???";

static WordFM* str_ids;   /* HChar* (owned) -> id */
static XArray* strs;      /* of HChar*, indexed by id */
static WordFM* fn_ids;    /* VP_Fn* (owned) -> id */
static XArray* fns;       /* of VP_Fn*, indexed by id */

static Word cmp_str(UWord a, UWord b)
{
   return VG_(strcmp)((const HChar*)a, (const HChar*)b);
}

static Word cmp_fn(UWord a, UWord b)
{
   const VP_Fn* x = (const VP_Fn*)a;
   const VP_Fn* y = (const VP_Fn*)b;
   if (x->name != y->name) return x->name < y->name ? -1 : 1;
   if (x->obj  != y->obj)  return x->obj  < y->obj  ? -1 : 1;
   if (x->file != y->file) return x->file < y->file ? -1 : 1;
   if (x->line != y->line) return x->line < y->line ? -1 : 1;
   return 0;
}

void VP_(init_locs)(void)
{
   str_ids = VG_(newFM)(VG_(malloc), "vp.loc.strids", VG_(free), cmp_str);
   strs    = VG_(newXA)(VG_(malloc), "vp.loc.strs", VG_(free), sizeof(HChar*));
   fn_ids  = VG_(newFM)(VG_(malloc), "vp.loc.fnids", VG_(free), cmp_fn);
   fns     = VG_(newXA)(VG_(malloc), "vp.loc.fns", VG_(free), sizeof(VP_Fn*));
}

UInt VP_(intern_str)(const HChar* s)
{
   UWord key, id;
   if (VG_(lookupFM)(str_ids, &key, &id, (UWord)s))
      return (UInt)id;
   HChar* copy = VG_(strdup)("vp.loc.str", s);
   id = VG_(sizeXA)(strs);
   VG_(addToXA)(strs, &copy);
   VG_(addToFM)(str_ids, (UWord)copy, id);
   return (UInt)id;
}

UInt VP_(n_strs)(void)            { return (UInt)VG_(sizeXA)(strs); }
const HChar* VP_(str)(UInt id)    { return *(HChar**)VG_(indexXA)(strs, id); }
UInt VP_(n_fns)(void)             { return (UInt)VG_(sizeXA)(fns); }
const VP_Fn* VP_(fn)(UInt id)     { return *(VP_Fn**)VG_(indexXA)(fns, id); }

static UInt intern_fn(const VP_Fn* f)
{
   UWord key, id;
   if (VG_(lookupFM)(fn_ids, &key, &id, (UWord)f))
      return (UInt)id;
   VP_Fn* copy = VG_(malloc)("vp.loc.fn", sizeof(VP_Fn));
   *copy = *f;
   id = VG_(sizeXA)(fns);
   VG_(addToXA)(fns, &copy);
   VG_(addToFM)(fn_ids, (UWord)copy, id);
   return (UInt)id;
}

/* The file as cachegrind names it: the compilation directory joined with
   the file name when the debug info gives a directory.  Interned at once:
   debug-info strings may not outlive the next query. */
static Bool file_line_of(DiEpoch ep, Addr a, UInt* file, UInt* line)
{
   const HChar *name, *dir;
   if (!VG_(get_filename_linenum)(ep, a, &name, &dir, line)) {
      *file = VP_(intern_str)(unknown);
      *line = 0;
      return False;
   }
   if (dir[0] == '\0') {
      *file = VP_(intern_str)(name);
   } else {
      SizeT  n = VG_(strlen)(dir) + 1 + VG_(strlen)(name) + 1;
      HChar* path = VG_(malloc)("vp.loc.path", n);
      VG_(sprintf)(path, "%s/%s", dir, name);
      *file = VP_(intern_str)(path);
      VG_(free)(path);
   }
   return True;
}

VP_Loc VP_(loc_of_instr)(Addr a)
{
   DiEpoch      ep = VG_(current_DiEpoch)();
   const HChar* s;
   VP_Loc       loc;
   VP_Fn        fn;

   file_line_of(ep, a, &loc.file, &loc.line);

   VG_(memset)(&fn, 0, sizeof fn);
   fn.name = VP_(intern_str)(VG_(get_fnname)(ep, a, &s) ? s : unknown);
   fn.obj  = VP_(intern_str)(VG_(get_objname)(ep, a, &s) ? s : unknown);

   /* A function is told apart by where it starts, so that two static
      functions of one name in one object stay two functions. */
   PtrdiffT offset;
   if (VG_(get_inst_offset_in_function)(ep, a, &offset)) {
      file_line_of(ep, a - offset, &fn.file, &fn.line);
   } else {
      fn.file = VP_(intern_str)(unknown);
      fn.line = 0;
   }
   loc.fn = intern_fn(&fn);
   return loc;
}
