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
#include "pub_tool_options.h"
#include "pub_tool_wordfm.h"
#include "vp_global.h"
#include "vp_dwarf.h"
#include "vp_heap.h"

/* Not in pub_tool_debuginfo.h, but exported by libcoregrind on every
   platform: the offset of an address from the start of its symbol. */
extern Bool VG_(get_inst_offset_in_function)(DiEpoch ep, Addr a,
                                             /*OUT*/PtrdiffT* offset);

const HChar VP_(unknown)[] = "???";

static WordFM* str_ids;   /* HChar* (owned) -> id */
static XArray* strs;      /* of HChar*, indexed by id */
static WordFM* fn_ids;    /* VP_Fn* (owned) -> id */
static XArray* fns;       /* of VP_Fn*, indexed by id */
static WordFM* inl_ids;   /* VP_Inl* (owned) -> id */
static XArray* inls;      /* of VP_Inl*, indexed by id */

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
   if (x->inlined != y->inlined) return x->inlined < y->inlined ? -1 : 1;
   return 0;
}

static Word cmp_inl(UWord a, UWord b)
{
   return VG_(memcmp)((const void*)a, (const void*)b, sizeof(VP_Inl));
}

void VP_(init_locs)(void)
{
   inl_ids = VG_(newFM)(VG_(malloc), "vp.loc.inlids", VG_(free), cmp_inl);
   inls    = VG_(newXA)(VG_(malloc), "vp.loc.inls", VG_(free), sizeof(VP_Inl*));
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
UInt VP_(n_inls)(void)            { return (UInt)VG_(sizeXA)(inls); }
const VP_Inl* VP_(inl)(UInt id)   { return *(VP_Inl**)VG_(indexXA)(inls, id); }

static UInt intern_inl(UInt fn, UInt parent, UInt file, UInt line)
{
   VP_Inl probe;
   UWord  key, id;
   VG_(memset)(&probe, 0, sizeof probe);
   probe.fn = fn; probe.parent = parent; probe.file = file; probe.line = line;
   if (VG_(lookupFM)(inl_ids, &key, &id, (UWord)&probe))
      return (UInt)id;
   VP_Inl* copy = VG_(malloc)("vp.loc.inl", sizeof(VP_Inl));
   *copy = probe;
   id = VG_(sizeXA)(inls);
   VG_(addToXA)(inls, &copy);
   VG_(addToFM)(inl_ids, (UWord)copy, id);
   return (UInt)id;
}

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

/* The interned path of a source file as cachegrind names it: the
   compilation directory joined with the file name when the debug info
   gives a directory. */
static UInt intern_path(const HChar* dir, const HChar* name)
{
   if (dir[0] == '\0')
      return VP_(intern_str)(name);
   SizeT  n = VG_(strlen)(dir) + 1 + VG_(strlen)(name) + 1;
   HChar* path = VG_(malloc)("vp.loc.path", n);
   VG_(sprintf)(path, "%s/%s", dir, name);
   UInt   id = VP_(intern_str)(path);
   VG_(free)(path);
   return id;
}

/* Interned at once: debug-info strings may not outlive the next query. */
static Bool file_line_of(DiEpoch ep, Addr a, UInt* file, UInt* line)
{
   const HChar *name, *dir;
   if (!VG_(get_filename_linenum)(ep, a, &name, &dir, line)) {
      *file = VP_(intern_str)(VP_(unknown));
      *line = 0;
      return False;
   }
   *file = intern_path(dir, name);
   return True;
}

static UInt inlined_call_at(DiEpoch ep, Addr a, UInt obj);

/* The name of code without a symbol: the function holding it, named by
   its start within its object as callgrind names it (" [PLT]" added for
   the stubs of the procedure linkage table); for code outside every
   object, the name its runtime's perf map gives it, in the object
   "[perf map]", or else its start's address when a call has landed at
   or below it (vp_perfmap.c); else "???". */
static UInt unnamed_fn(DiEpoch ep, Addr a, VP_Fn* fn)
{
   Addr  start, in_obj;
   HChar name[48];
   UInt  jit_name;
   if (!VP_(unnamed_fn_start)(ep, a, &start, &in_obj)) {
      fn->file = VP_(intern_str)(VP_(unknown));
      fn->line = 0;
      if (VP_(perfmap_fn)(a, &jit_name, &start)) {
         fn->obj = VP_(intern_str)("[perf map]");
         return jit_name;
      }
      if (VP_(call_target_fn)(a, &start)) {
         VG_(sprintf)(name, "0x%016lx", (UWord)start);
         return VP_(intern_str)(name);
      }
      return VP_(intern_str)(VP_(unknown));
   }
   VG_(sprintf)(name, "0x%016lx%s", (UWord)in_obj,
                VG_(DebugInfo_sect_kind)(NULL, a) == Vg_SectPLT ? " [PLT]" : "");
   file_line_of(ep, start, &fn->file, &fn->line);
   return VP_(intern_str)(name);
}

VP_Loc VP_(loc_of_instr)(Addr a)
{
   DiEpoch      ep = VG_(current_DiEpoch)();
   const HChar* s;
   VP_Loc       loc;
   VP_Fn        fn;

   file_line_of(ep, a, &loc.file, &loc.line);

   VG_(memset)(&fn, 0, sizeof fn);
   fn.obj = VP_(intern_str)(VG_(get_objname)(ep, a, &s) ? s : VP_(unknown));
   if (VG_(get_fnname)(ep, a, &s)) {
      fn.name = VP_(intern_str)(s);
      UInt better;
      if (VP_(vague_rust_name)(s) && VP_(dwarf_fn_name)(ep, a, &better))
         fn.name = better;
      /* A function is told apart by where it starts, so that two static
         functions of one name in one object stay two functions. */
      PtrdiffT offset;
      if (VG_(get_inst_offset_in_function)(ep, a, &offset)) {
         UInt own;
         if (VP_(alloc_own_name)(a - offset, &own))
            fn.name = own;
         file_line_of(ep, a - offset, &fn.file, &fn.line);
      } else {
         fn.file = VP_(intern_str)(VP_(unknown));
         fn.line = 0;
      }
   } else {
      fn.name = unnamed_fn(ep, a, &fn);
   }
   loc.fn  = intern_fn(&fn);
   loc.inl = inlined_call_at(ep, a, fn.obj);
   return loc;
}

/* Whether a is the first instruction of a function: of its symbol, or
   for code without one, of the function its object's unwind table
   says holds it. */
Bool VP_(is_fn_entry)(Addr a)
{
   DiEpoch      ep = VG_(current_DiEpoch)();
   const HChar* s;
   Addr         start, in_obj;
   UInt         jit_name;
   if (VG_(get_fnname_if_entry)(ep, a, &s))
      return True;
   if (VG_(get_fnname)(ep, a, &s))
      return False;
   if (VP_(unnamed_fn_start)(ep, a, &start, &in_obj))
      return start == a;
   if (VP_(perfmap_fn)(a, &jit_name, &start))
      return start == a;
   return VP_(call_target_fn)(a, &start) && start == a;
}

/*------------------------------------------------------------*/
/*--- Inlined calls                                        ---*/
/*------------------------------------------------------------*/

/* Valgrind's tool interface describes the inlined calls at an address
   only as text (VG_(describe_IP)); its XML form keeps the function, the
   directory, the file and the line apart, escaped as XML escapes them. */

/* The unescaped text of element <tag> of xml, in memory the caller frees;
   NULL when there is none. */
static HChar* xml_element(const HChar* xml, const HChar* tag)
{
   HChar open[16], close[16];
   VG_(sprintf)(open, "<%s>", tag);
   VG_(sprintf)(close, "</%s>", tag);
   const HChar* from = VG_(strstr)(xml, open);
   if (from == NULL) return NULL;
   from += VG_(strlen)(open);
   const HChar* to = VG_(strstr)(from, close);
   if (to == NULL) return NULL;
   HChar* out = VG_(malloc)("vp.loc.xml", (SizeT)(to - from) + 1);
   SizeT  n = 0;
   while (from < to) {
      if (VG_(strncmp)(from, "&amp;", 5) == 0)     { out[n++] = '&'; from += 5; }
      else if (VG_(strncmp)(from, "&lt;", 4) == 0) { out[n++] = '<'; from += 4; }
      else if (VG_(strncmp)(from, "&gt;", 4) == 0) { out[n++] = '>'; from += 4; }
      else out[n++] = *from++;
   }
   out[n] = '\0';
   return out;
}

/* One level of the description: its function's name (NULL if unknown,
   for the caller to free) and its file and line. */
static HChar* describe_level(DiEpoch ep, Addr a, const InlIPCursor* iipc,
                             UInt* file, UInt* line)
{
   Bool saved = VG_(clo_xml);
   VG_(clo_xml) = True;
   const HChar* xml = VG_(describe_IP)(ep, a, iipc);
   VG_(clo_xml) = saved;
   HChar* fn   = xml_element(xml, "fn");
   HChar* dir  = xml_element(xml, "dir");
   HChar* name = xml_element(xml, "file");
   HChar* num  = xml_element(xml, "line");
   *file = name ? intern_path(dir ? dir : "", name) : VP_(intern_str)(VP_(unknown));
   *line = name && num ? (UInt)VG_(strtoull10)(num, NULL) : 0;
   VG_(free)(dir);
   VG_(free)(name);
   VG_(free)(num);
   return fn;
}

/* The levels of the description of a, innermost first, as DHAT shows its
   frames: each inlined call's function with the file and line of its code
   there, then a's own function (its name not kept) with the line of the
   outermost inlined call.  0 when nothing is inlined at a. */
typedef struct { UInt name, file, line; } Level;

#define VP_MAX_LEVELS 32

/* The name of an inlined function no debug information names: said to be
   one, with the file of its code, so that it is not taken for one real
   function all such code shares. */
static UInt unnamed_inlined(UInt file)
{
   const HChar* path = VP_(str)(file);
   const HChar* base = VG_(strrchr)(path, '/');
   HChar*       name = VG_(malloc)("vp.loc.unnamed", VG_(strlen)(path) + 48);
   VG_(sprintf)(name, "{unnamed inlined function in %s}", base ? base + 1 : path);
   UInt id = VP_(intern_str)(name);
   VG_(free)(name);
   return id;
}

/* Valgrind's reader gives an inlined function the bare name of its
   declaration, or none when it is declared in another compile unit.  The
   names vp_dwarf.c reads replace them, level by level from the end both
   readers see whole (the outermost call when Valgrind's levels reach the
   function itself, else the innermost), as long as each inlined call was
   made on the line Valgrind's level outside it shows: where the two
   readers part, the rest keep Valgrind's names. */
#define VP_MAX_DW_CALLS 64

static void name_levels(DiEpoch ep, Addr a, Level* levels, UInt n, Bool complete)
{
   VP_DwCall calls[VP_MAX_DW_CALLS];
   Int       m = VP_(dwarf_inlined_at)(ep, a, calls, VP_MAX_DW_CALLS);
   UInt      inlined = complete ? n - 1 : n;   /* the levels that are inlined calls */
   Bool      agree = complete || m < VP_MAX_DW_CALLS;
   UInt      i;
   for (i = 0; i < inlined; i++) {
      UInt k = complete ? inlined - 1 - i : i;           /* Valgrind's level */
      Int  d = complete ? (Int)i : m - 1 - (Int)i;       /* this reader's call */
      agree = agree && d >= 0 && d < m && k + 1 < n && calls[d].call_line == levels[k + 1].line;
      if (agree && calls[d].name != VP_DW_NO_NAME) {
         levels[k].name = calls[d].name;
         continue;
      }
      const HChar* name = VP_(str)(levels[k].name);
      if (VG_(strcmp)(name, "UnknownInlinedFun") == 0 || VG_(strcmp)(name, VP_(unknown)) == 0)
         levels[k].name = unnamed_inlined(levels[k].file);
   }
}

static UInt levels_at(DiEpoch ep, Addr a, Level* out, UInt max)
{
   InlIPCursor* iipc = VG_(new_IIPC)(ep, a);
   UInt         n    = 0;
   Bool         more;
   if (iipc == NULL)
      return 0;
   do {
      HChar* name = describe_level(ep, a, iipc, &out[n].file, &out[n].line);
      out[n].name = VP_(intern_str)(name ? name : VP_(unknown));
      VG_(free)(name);
      n++;
      more = VG_(next_IIPC)(iipc);
   } while (more && n < max);
   VG_(delete_IIPC)(iipc);
   if (n > 1 || more)
      name_levels(ep, a, out, n, !more);
   return n;
}

/* An inlined function is known by its name in its object, qualified by
   the scopes it is declared in (see vp_dwarf.c): the file of its code at
   one address can be that of code inlined into it without a record of
   its own (Rust's intrinsics). */
static UInt inlined_fn(UInt name, UInt obj)
{
   VP_Fn fn;
   VG_(memset)(&fn, 0, sizeof fn);
   fn.name    = name;
   fn.obj     = obj;
   fn.file    = VP_(intern_str)(VP_(unknown));
   fn.inlined = 1;
   return intern_fn(&fn);
}

/* The innermost inlined call a's code belongs to, VP_NO_INL for code of
   the function itself. */
static UInt inlined_call_at(DiEpoch ep, Addr a, UInt obj)
{
   Level levels[VP_MAX_LEVELS];
   UInt  n = levels_at(ep, a, levels, VP_MAX_LEVELS), parent = VP_NO_INL;
   Int   k;
   /* From the outermost call in: each was made on the line the level
      outside it shows. */
   for (k = (Int)n - 2; k >= 0; k--)
      parent = intern_inl(inlined_fn(levels[k].name, obj), parent,
                          levels[k + 1].file, levels[k + 1].line);
   return parent;
}

UInt VP_(frames_at)(Addr a, VP_Loc* frames, UInt max)
{
   DiEpoch ep  = VG_(current_DiEpoch)();
   VP_Loc  own = VP_(loc_of_instr)(a);
   Level   levels[VP_MAX_LEVELS];
   UInt    n = levels_at(ep, a, levels, max < VP_MAX_LEVELS ? max : VP_MAX_LEVELS), k;
   own.inl = VP_NO_INL;
   if (n == 0) {
      frames[0] = own;
      return 1;
   }
   for (k = 0; k + 1 < n; k++) {
      frames[k].fn   = inlined_fn(levels[k].name, VP_(fn)(own.fn)->obj);
      frames[k].file = levels[k].file;
      frames[k].line = levels[k].line;
      frames[k].inl  = VP_NO_INL;
   }
   own.file = levels[n - 1].file;
   own.line = levels[n - 1].line;
   frames[n - 1] = own;
   return n;
}
