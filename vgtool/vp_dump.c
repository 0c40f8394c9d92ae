/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_dump.c: the profile's document (docs/profile-format.md, version 9),
   and the order of a dump: settle the counts, renumber, print the exit
   summary (vp_summary.c), write the file (vp_place.c).

   Tables are renumbered before writing: strings sorted by byte value,
   objects and files by path, functions by (object, name, file, line),
   costs by their keys.  Ids then depend only on what ran, not on the
   order in which code happened to be translated, so identical runs give
   identical profiles. */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "vp_data.h"

#define VP_FORMAT_VERSION 11
#define NONE 0xFFFFFFFFu

/* Renumbering: internal id -> output id (NONE: not written). */
typedef struct {
   UInt* str;    /* [n_strs] */
   UInt* obj;    /* [n_strs]: objs row of an object path's string */
   UInt* file;   /* [n_strs]: files row of a file path's string */
   UInt* fn;     /* [n_fns]  */
   UInt* inl;    /* [n_inls]: inlines row of an inlined call */
   UInt  n_str, n_obj, n_file, n_fn, n_inl;
} Renumber;

static Renumber rn;          /* read by the sort comparators */
static XArray*  executed;    /* VP_InstrCC* with a non-zero cost */
static ULong    totals[VP_MAX_EVENTS];

/*------------------------------------------------------------*/
/*--- Choosing and numbering what is written               ---*/
/*------------------------------------------------------------*/

static Bool has_cost(const VP_InstrCC* cc)
{
   Int e;
   for (e = 0; e < (Int)cc->n_costs; e++)
      if (cc->cost[e]) return True;
   return False;
}

/* The cells with a cost, in the list of all cells itself: the largest
   table a dump makes is not made twice. */
static void collect_executed(void)
{
   Word i, n_out = 0;
   Int  e;
   executed = VP_(all_instr_ccs)();
   for (e = 0; e < (Int)VP_(n_events); e++) totals[e] = 0;
   for (i = 0; i < VG_(sizeXA)(executed); i++) {
      VP_InstrCC* cc = *(VP_InstrCC**)VG_(indexXA)(executed, i);
      if (!has_cost(cc)) continue;
      *(VP_InstrCC**)VG_(indexXA)(executed, n_out++) = cc;
      for (e = 0; e < (Int)cc->n_costs; e++) totals[e] += cc->cost[e];
   }
   VG_(dropTailXA)(executed, VG_(sizeXA)(executed) - n_out);
}

static void free_dump_state(void)
{
   VG_(deleteXA)(executed);
   VG_(free)(rn.str);
   VG_(free)(rn.obj);
   VG_(free)(rn.file);
   VG_(free)(rn.fn);
   VG_(free)(rn.inl);
   executed = NULL;
}

static UInt* new_marks(UInt n)
{
   UInt* a = VG_(malloc)("vp.dump.marks", (n ? n : 1) * sizeof(UInt));
   UInt  i;
   for (i = 0; i < n; i++) a[i] = NONE;
   return a;
}

static void mark_file(UInt file)
{
   rn.file[file] = rn.str[file] = 0;
}

static void mark_fn(UInt fn)
{
   const VP_Fn* f = VP_(fn)(fn);
   rn.fn[fn] = 0;
   mark_file(f->file);
   rn.obj[f->obj] = 0;
   rn.str[f->name] = rn.str[f->obj] = 0;
}

/* An inlined call, and the calls it was inlined into. */
static void mark_inl(UInt inl)
{
   for (; inl != VP_NO_INL && rn.inl[inl] == NONE; inl = VP_(inl)(inl)->parent) {
      rn.inl[inl] = 0;
      mark_fn(VP_(inl)(inl)->fn);
      mark_file(VP_(inl)(inl)->file);
   }
}

static Bool any_cost(const ULong* c)
{
   Int e;
   for (e = 0; e < (Int)VP_(n_events); e++)
      if (c[e]) return True;
   return False;
}

/* Calls made while costs were not collected cost nothing and are left
   out, as callgrind leaves them out. */
static Bool edge_kept(const VP_Edge* e)      { return any_cost(e->incl); }
static Bool node_kept(const VP_PathNode* n)  { return any_cost(n->incl); }

/* The names and objects of the data objects, and the functions that
   touched them. */
static void mark_data(void)
{
   UInt i;
   for (i = 0; i < VP_(data_n_objs)(); i++) {
      const VP_DataObj* d = VP_(data_obj)(i);
      if (d->kind == VP_DK_GLOBAL || d->kind == VP_DK_UNNAMED)
         rn.str[d->name] = 0;
      if (d->kind == VP_DK_GLOBAL || d->kind == VP_DK_UNNAMED)
         rn.obj[d->obj] = rn.str[d->obj] = 0;
   }
   for (i = 0; i < VP_(data_n_fns)(); i++)
      mark_fn(VP_(data_fn)(i)->fn);
}

static void mark_used(void)
{
   Word i;
   rn.str  = new_marks(VP_(n_strs)());
   rn.obj  = new_marks(VP_(n_strs)());
   rn.file = new_marks(VP_(n_strs)());
   rn.fn   = new_marks(VP_(n_fns)());
   rn.inl  = new_marks(VP_(n_inls)());
   for (i = 0; i < VG_(sizeXA)(executed); i++) {
      VP_InstrCC* cc = *(VP_InstrCC**)VG_(indexXA)(executed, i);
      mark_fn(cc->loc.fn);
      mark_file(cc->loc.file);
      mark_inl(cc->loc.inl);
   }
   if (VP_(clo).heap) {
      UInt site, f;
      for (site = 0; site < VP_(heap_n_sites)(); site++) {
         VP_HeapSite hs;
         VP_(heap_site)(site, &hs);
         for (f = 0; f < hs.n_frames; f++) {
            Addr   addr;
            VP_Loc loc;
            VP_(heap_frame)(site, f, &addr, &loc);
            mark_fn(loc.fn);
            mark_file(loc.file);
         }
      }
   }
   if (VP_(data_on))
      mark_data();
   if (!VP_(clo).call_graph)
      return;
   for (i = 0; i < VP_(n_edges)(); i++) {
      const VP_Edge* e = VP_(edge)(i);
      if (!edge_kept(e)) continue;
      mark_fn(e->caller);
      mark_fn(e->callee);
      mark_file(e->file);
   }
   for (i = 0; i < VP_(n_path_nodes)(); i++) {
      const VP_PathNode* n = VP_(path_node)(i);
      if (node_kept(n) && n->fn != VP_NO_ID) mark_fn(n->fn);
   }
   for (i = 0; i < VP_(n_fn_incl)(); i++) {
      const VP_FnIncl* r = VP_(fn_incl)(i);
      if (any_cost(r->incl)) mark_fn(r->fn);
   }
}

static Int cmp_str_ids(const void* a, const void* b)
{
   return VG_(strcmp)(VP_(str)(*(const UInt*)a), VP_(str)(*(const UInt*)b));
}

static Int cmp_u32(UInt x, UInt y) { return x < y ? -1 : x > y ? 1 : 0; }

static Int cmp_fn_ids(const void* a, const void* b)
{
   const VP_Fn* x = VP_(fn)(*(const UInt*)a);
   const VP_Fn* y = VP_(fn)(*(const UInt*)b);
   Int c;
   if ((c = cmp_u32(rn.str[x->obj],  rn.str[y->obj])))  return c;
   if ((c = cmp_u32(rn.str[x->name], rn.str[y->name]))) return c;
   if ((c = cmp_u32(rn.str[x->file], rn.str[y->file]))) return c;
   if ((c = cmp_u32(x->line, y->line)))                 return c;
   return cmp_u32(x->inlined, y->inlined);
}

/* Inlined calls sort by their chains from the outermost call in, each
   call by (function, file, line): a call comes after the one it was
   inlined into. */
static UInt chain_outward(UInt inl, UInt* chain)
{
   UInt n = 0;
   for (; inl != VP_NO_INL; inl = VP_(inl)(inl)->parent) chain[n++] = inl;
   return n;
}

static Int cmp_inl_ids(const void* a, const void* b)
{
   UInt x[64], y[64];
   Int  nx = (Int)chain_outward(*(const UInt*)a, x), ny = (Int)chain_outward(*(const UInt*)b, y);
   Int  c;
   for (; nx > 0 && ny > 0; nx--, ny--) {
      const VP_Inl* p = VP_(inl)(x[nx - 1]);
      const VP_Inl* q = VP_(inl)(y[ny - 1]);
      if ((c = cmp_u32(rn.fn[p->fn], rn.fn[q->fn])))       return c;
      if ((c = cmp_u32(rn.file[p->file], rn.file[q->file]))) return c;
      if ((c = cmp_u32(p->line, q->line)))                   return c;
   }
   return cmp_u32((UInt)nx, (UInt)ny);
}

/* Gives the marked entries of marks[0..n) numbers in the order sort_cmp
   puts them; returns how many there are. */
static UInt number_marked(UInt* marks, UInt n,
                          Int (*sort_cmp)(const void*, const void*))
{
   UInt* ids = VG_(malloc)("vp.dump.ids", (n ? n : 1) * sizeof(UInt));
   UInt  i, k = 0;
   for (i = 0; i < n; i++)
      if (marks[i] != NONE) ids[k++] = i;
   VG_(ssort)(ids, k, sizeof(UInt), sort_cmp);
   for (i = 0; i < k; i++) marks[ids[i]] = i;
   VG_(free)(ids);
   return k;
}

static void renumber(void)
{
   mark_used();
   /* Strings first: objects, files and functions sort by string rank. */
   rn.n_str  = number_marked(rn.str,  VP_(n_strs)(), cmp_str_ids);
   rn.n_obj  = number_marked(rn.obj,  VP_(n_strs)(), cmp_str_ids);
   rn.n_file = number_marked(rn.file, VP_(n_strs)(), cmp_str_ids);
   rn.n_fn   = number_marked(rn.fn,   VP_(n_fns)(),  cmp_fn_ids);
   rn.n_inl  = number_marked(rn.inl,  VP_(n_inls)(), cmp_inl_ids);
}

/* Orders instruction cells by their line key, then by address. */
static Int cmp_by_line(const void* a, const void* b)
{
   const VP_InstrCC* x = *(VP_InstrCC* const*)a;
   const VP_InstrCC* y = *(VP_InstrCC* const*)b;
   Int c;
   if ((c = cmp_u32(rn.fn[x->loc.fn], rn.fn[y->loc.fn])))         return c;
   if ((c = cmp_u32(rn.file[x->loc.file], rn.file[y->loc.file]))) return c;
   if ((c = cmp_u32(x->loc.line, y->loc.line)))                   return c;
   return x->addr < y->addr ? -1 : x->addr > y->addr ? 1 : 0;
}

static Int cmp_by_addr(const void* a, const void* b)
{
   const VP_InstrCC* x = *(VP_InstrCC* const*)a;
   const VP_InstrCC* y = *(VP_InstrCC* const*)b;
   if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
   return cmp_by_line(a, b);
}

/*------------------------------------------------------------*/
/*--- Writing                                              ---*/
/*------------------------------------------------------------*/

static void out_costs(VP_Out* o, const ULong* cost)
{
   Int e;
   for (e = 0; e < (Int)VP_(n_events); e++) {
      VP_(out_s)(o, ",");
      VP_(out_u64)(o, cost[e]);
   }
}

static void out_str_array(VP_Out* o, const HChar* const* items, Word n)
{
   Word i;
   VP_(out_s)(o, "[");
   for (i = 0; i < n; i++) {
      if (i) VP_(out_s)(o, ",");
      VP_(out_json_str)(o, items[i]);
   }
   VP_(out_s)(o, "]");
}

static void write_meta(VP_Out* o, const VP_Dump* d)
{
   Word         i, n = VG_(sizeXA)(VG_(args_for_client));
   const HChar* argv0 = VG_(args_the_exename) ? VG_(args_the_exename) : "";
   Int          e;

   VP_(out_s)(o, "\n,\"meta\":{\"tool\":\"vgprof\",\"tool_version\":\""
                 VP_TOOL_VERSION "\",\"valgrind\":\"" VP_VALGRIND_VERSION "\"");
   VP_(out_s)(o, "\n ,\"argv\":[");
   VP_(out_json_str)(o, argv0);
   for (i = 0; i < n; i++) {
      VP_(out_s)(o, ",");
      VP_(out_json_str)(o, *(HChar**)VG_(indexXA)(VG_(args_for_client), i));
   }
   VP_(out_s)(o, "]\n ,\"options\":");
   out_str_array(o, (const HChar* const*)(VG_(sizeXA)(VP_(tool_args))
                       ? VG_(indexXA)(VP_(tool_args), 0) : NULL),
                 VG_(sizeXA)(VP_(tool_args)));
   VP_(out_s)(o, "\n ,\"events\":[");
   for (e = 0; e < (Int)VP_(n_events); e++) {
      if (e) VP_(out_s)(o, ",");
      VP_(out_json_str)(o, VP_(event_name)(e));
   }
   VP_(out_s)(o, "]\n ,\"cache\":");
   if (VP_(clo).cache_sim || VP_(clo).branch_sim) {
      HChar buf[256];
      VP_(cache_json)(buf, sizeof buf, &VP_(I1).config, &VP_(D1).config, &VP_(LL).config,
                      VP_(clo).branch_sim);
      if (!VP_(clo).cache_sim)
         VG_(sprintf)(buf, "{\"branches\":true}");
      VP_(out_s)(o, buf);
   } else {
      VP_(out_s)(o, "null");
   }
   VP_(out_s)(o, "\n ,\"totals\":[");
   for (e = 0; e < (Int)VP_(n_events); e++) {
      if (e) VP_(out_s)(o, ",");
      VP_(out_u64)(o, totals[e]);
   }
   if (d->number == 0) {
      /* No status: the client was killed by a signal, named when the
         tool could learn it (vp_ending.c). */
      if (d->exitcode < 0) {
         VP_(out_s)(o, "]\n ,\"exit\":{\"killed\":true");
         if (d->signal > 0) {
            VP_(out_s)(o, ",\"signal\":");
            VP_(out_u64)(o, (ULong)d->signal);
         }
         VP_(out_s)(o, "}");
      } else {
         VP_(out_s)(o, "]\n ,\"exit\":{\"code\":");
         VP_(out_u64)(o, (ULong)d->exitcode);
         VP_(out_s)(o, "}");
      }
   } else {
      VP_(out_s)(o, "]\n ,\"exit\":null\n ,\"dump\":{\"number\":");
      VP_(out_u64)(o, (ULong)d->number);
      VP_(out_s)(o, ",\"label\":");
      VP_(out_json_str)(o, d->label);
      VP_(out_s)(o, "}");
   }
   if (VP_(clo).heap) {
      UInt i, n = VP_(alloc_n_families_seen)();
      VP_(out_s)(o, "\n ,\"allocators\":[");
      for (i = 0; i < n; i++) {
         if (i) VP_(out_s)(o, ",");
         VP_(out_json_str)(o, VP_(alloc_family_seen)(i));
      }
      VP_(out_s)(o, "]");
   }
   VP_(fingerprint_write)(o);
   /* Everything that differs between identical runs, and nothing else. */
   VP_(out_s)(o, "\n ,\"run\":{\"pid\":");
   VP_(out_u64)(o, (ULong)VG_(getpid)());
   VP_(out_s)(o, ",\"ppid\":");
   VP_(out_u64)(o, (ULong)VG_(getppid)());
   VP_(out_s)(o, ",\"elapsed_ms\":");
   VP_(out_u64)(o, (ULong)VG_(read_millisecond_timer)());
   VP_(out_s)(o, "}\n }");
}

/* Writes the ids whose output number is 0..n-1 in that order, using
   write_row(internal id). */
static void out_table(VP_Out* o, const HChar* key, const UInt* numbers,
                      UInt n_internal, UInt n_out,
                      void (*write_row)(VP_Out*, UInt))
{
   UInt* order = VG_(malloc)("vp.dump.order", (n_out ? n_out : 1) * sizeof(UInt));
   UInt  i;
   for (i = 0; i < n_internal; i++)
      if (numbers[i] != NONE) order[numbers[i]] = i;
   VP_(out_s)(o, "\n,\"");
   VP_(out_s)(o, key);
   VP_(out_s)(o, "\":[");
   for (i = 0; i < n_out; i++) {
      VP_(out_s)(o, i ? "\n," : "");
      write_row(o, order[i]);
   }
   VP_(out_s)(o, "]");
   VG_(free)(order);
}

static void row_str(VP_Out* o, UInt id)  { VP_(out_json_str)(o, VP_(str)(id)); }
static void row_path(VP_Out* o, UInt id) { VP_(out_u64)(o, rn.str[id]); }

static void row_fn(VP_Out* o, UInt id)
{
   const VP_Fn* f = VP_(fn)(id);
   VP_(out_s)(o, "[");
   VP_(out_u64)(o, rn.str[f->name]);
   VP_(out_s)(o, ",");
   VP_(out_u64)(o, rn.file[f->file]);
   VP_(out_s)(o, ",");
   VP_(out_u64)(o, rn.obj[f->obj]);
   VP_(out_s)(o, ",");
   VP_(out_u64)(o, f->line);
   VP_(out_s)(o, f->inlined ? ",1]" : "]");
}

/* One row per run of cells that `same` finds alike (the cells sorted so
   that alike ones are together): the run's key fields, then its summed
   costs. */
static void write_summed_rows(VP_Out* o, const HChar* key, XArray* cells,
                              Bool (*same)(const VP_InstrCC*, const VP_InstrCC*),
                              void (*write_key)(VP_Out*, const VP_InstrCC*))
{
   Word  i, n = VG_(sizeXA)(cells);
   ULong sum[VP_MAX_EVENTS];
   Int   e;
   VP_(out_s)(o, "\n,\"");
   VP_(out_s)(o, key);
   VP_(out_s)(o, "\":[");
   for (i = 0; i < n; ) {
      VP_InstrCC* head = *(VP_InstrCC**)VG_(indexXA)(cells, i);
      VP_(out_s)(o, i == 0 ? "[" : "\n,[");
      for (e = 0; e < (Int)VP_(n_events); e++) sum[e] = 0;
      for (; i < n; i++) {
         VP_InstrCC* cc = *(VP_InstrCC**)VG_(indexXA)(cells, i);
         if (!same(cc, head)) break;
         for (e = 0; e < (Int)cc->n_costs; e++) sum[e] += cc->cost[e];
      }
      write_key(o, head);
      out_costs(o, sum);
      VP_(out_s)(o, "]");
   }
   VP_(out_s)(o, "]");
}

static Bool same_line(const VP_InstrCC* x, const VP_InstrCC* y)
{
   return x->loc.fn == y->loc.fn && x->loc.file == y->loc.file && x->loc.line == y->loc.line;
}

static void line_key(VP_Out* o, const VP_InstrCC* cc)
{
   VP_(out_u64)(o, rn.fn[cc->loc.fn]);
   VP_(out_s)(o, ",");
   VP_(out_u64)(o, rn.file[cc->loc.file]);
   VP_(out_s)(o, ",");
   VP_(out_u64)(o, cc->loc.line);
}

static void write_lines(VP_Out* o)
{
   VG_(setCmpFnXA)(executed, cmp_by_line);
   VG_(sortXA)(executed);
   write_summed_rows(o, "lines", executed, same_line, line_key);
}

static void write_instrs(VP_Out* o)
{
   Word i, n = VG_(sizeXA)(executed);
   VG_(setCmpFnXA)(executed, cmp_by_addr);
   VG_(sortXA)(executed);
   VP_(out_s)(o, "\n,\"instrs\":[");
   for (i = 0; i < n; i++) {
      VP_InstrCC* cc = *(VP_InstrCC**)VG_(indexXA)(executed, i);
      VP_(out_s)(o, i ? "\n,[" : "[");
      VP_(out_u64)(o, cc->addr);
      VP_(out_s)(o, ",");
      VP_(out_u64)(o, rn.fn[cc->loc.fn]);
      VP_(out_s)(o, ",");
      VP_(out_u64)(o, rn.file[cc->loc.file]);
      VP_(out_s)(o, ",");
      VP_(out_u64)(o, cc->loc.line);
      ULong costs[VP_MAX_EVENTS];
      VP_(cc_costs)(cc, costs);
      out_costs(o, costs);
      VP_(out_s)(o, "]");
   }
   VP_(out_s)(o, "]");
}

/*------------------------------------------------------------*/
/*--- The call graph                                       ---*/
/*------------------------------------------------------------*/

static Int cmp_edges(const void* a, const void* b)
{
   const VP_Edge* x = VP_(edge)(*(const UInt*)a);
   const VP_Edge* y = VP_(edge)(*(const UInt*)b);
   Int c;
   if ((c = cmp_u32(rn.fn[x->caller], rn.fn[y->caller]))) return c;
   if ((c = cmp_u32(rn.fn[x->callee], rn.fn[y->callee]))) return c;
   if ((c = cmp_u32(rn.file[x->file], rn.file[y->file]))) return c;
   if ((c = cmp_u32(x->line, y->line)))                   return c;
   if (x->addr != y->addr)                                return x->addr < y->addr ? -1 : 1;
   return cmp_u32(x->tid, y->tid);
}

static Bool same_edge(const VP_Edge* x, const VP_Edge* y)
{
   return x->caller == y->caller && x->callee == y->callee
          && x->file == y->file && x->line == y->line && x->addr == y->addr;
}

/* Kept edges of thread tid (or of every thread, for VP_NO_ID), sorted. */
static UInt* edges_of(UInt tid, UInt* k)
{
   UInt  n = VP_(n_edges)(), i;
   UInt* ids = VG_(malloc)("vp.dump.edges", (n ? n : 1) * sizeof(UInt));
   *k = 0;
   for (i = 0; i < n; i++) {
      const VP_Edge* e = VP_(edge)(i);
      if (edge_kept(e) && (tid == VP_NO_ID || e->tid == tid)) ids[(*k)++] = i;
   }
   VG_(ssort)(ids, *k, sizeof(UInt), cmp_edges);
   return ids;
}

/* One row per (caller, callee, file, line, call instruction): the
   threads' rows summed. */
static void write_call_rows(VP_Out* o, UInt tid)
{
   UInt  k, i, j, rows = 0;
   UInt* ids = edges_of(tid, &k);
   Int   e;
   VP_(out_s)(o, "[");
   for (i = 0; i < k; i = j) {
      const VP_Edge* first = VP_(edge)(ids[i]);
      ULong count = 0, incl[VP_MAX_EVENTS];
      VG_(memset)(incl, 0, sizeof incl);
      for (j = i; j < k && same_edge(VP_(edge)(ids[j]), first); j++) {
         count += VP_(edge)(ids[j])->count;
         for (e = 0; e < (Int)VP_(n_events); e++) incl[e] += VP_(edge)(ids[j])->incl[e];
      }
      VP_(out_s)(o, rows++ ? "\n,[" : "[");
      VP_(out_u64)(o, rn.fn[first->caller]);
      VP_(out_s)(o, ",");
      VP_(out_u64)(o, rn.fn[first->callee]);
      VP_(out_s)(o, ",");
      VP_(out_u64)(o, rn.file[first->file]);
      VP_(out_s)(o, ",");
      VP_(out_u64)(o, first->line);
      VP_(out_s)(o, ",");
      VP_(out_u64)(o, first->addr);
      VP_(out_s)(o, ",");
      VP_(out_u64)(o, count);
      out_costs(o, incl);
      VP_(out_s)(o, "]");
   }
   VP_(out_s)(o, "]");
   VG_(free)(ids);
}

/* One row per function: the threads' rows (of thread tid only, unless
   VP_NO_ID) summed. */
static void write_inclusive_rows(VP_Out* o, UInt tid)
{
   ULong* sums = VG_(calloc)("vp.dump.incl", (rn.n_fn ? rn.n_fn : 1) * VP_(n_events), sizeof(ULong));
   UInt   i, k = 0;
   Int    e;
   for (i = 0; i < VP_(n_fn_incl)(); i++) {
      const VP_FnIncl* r = VP_(fn_incl)(i);
      if (!any_cost(r->incl) || (tid != VP_NO_ID && r->tid != tid)) continue;
      for (e = 0; e < (Int)VP_(n_events); e++) sums[rn.fn[r->fn] * VP_(n_events) + e] += r->incl[e];
   }
   VP_(out_s)(o, "[");
   for (i = 0; i < rn.n_fn; i++) {
      if (!any_cost(&sums[i * VP_(n_events)])) continue;
      VP_(out_s)(o, k++ ? "\n,[" : "[");
      VP_(out_u64)(o, i);
      out_costs(o, &sums[i * VP_(n_events)]);
      VP_(out_s)(o, "]");
   }
   VP_(out_s)(o, "]");
   VG_(free)(sums);
}

/* Path nodes are written depth first, roots and children sorted by
   function, so the tree's ids do not depend on the order of events. */
static UInt* sorted_roots;     /* root nodes in output order */
static UInt* root_out_id;      /* their output ids */
static UInt  n_sorted_roots;
static UInt* node_out_id;   /* [n_nodes]: each node's output id, or NONE */
static UInt* child_start;   /* [n_nodes + 1] into child_list */
static UInt* child_list;

static UInt out_fn_or_last(UInt node)
{
   UInt fn = VP_(path_node)(node)->fn;
   return fn == VP_NO_ID ? VP_NO_ID : rn.fn[fn];
}

static Int cmp_nodes_by_fn(const void* a, const void* b)
{
   Int c = cmp_u32(out_fn_or_last(*(const UInt*)a), out_fn_or_last(*(const UInt*)b));
   if (c) return c;
   return cmp_u32(VP_(path_node)(*(const UInt*)a)->tid, VP_(path_node)(*(const UInt*)b)->tid);
}

static void index_children(UInt n, UInt* roots, UInt* n_roots)
{
   UInt i, *fill;
   child_start = VG_(calloc)("vp.dump.cs", n + 2, sizeof(UInt));
   child_list  = VG_(malloc)("vp.dump.cl", (n ? n : 1) * sizeof(UInt));
   fill        = VG_(calloc)("vp.dump.fill", n + 1, sizeof(UInt));
   *n_roots = 0;
   for (i = 0; i < n; i++) {
      const VP_PathNode* p = VP_(path_node)(i);
      if (!node_kept(p)) continue;
      if (p->parent == VP_NO_ID) roots[(*n_roots)++] = i;
      else child_start[p->parent + 1]++;
   }
   for (i = 0; i < n; i++) child_start[i + 1] += child_start[i];
   for (i = 0; i < n; i++) {
      const VP_PathNode* p = VP_(path_node)(i);
      if (node_kept(p) && p->parent != VP_NO_ID)
         child_list[child_start[p->parent] + fill[p->parent]++] = i;
   }
   for (i = 0; i < n; i++)
      VG_(ssort)(child_list + child_start[i], child_start[i + 1] - child_start[i],
                 sizeof(UInt), cmp_nodes_by_fn);
   VG_(ssort)(roots, *n_roots, sizeof(UInt), cmp_nodes_by_fn);
   VG_(free)(fill);
}

static void write_node(VP_Out* o, UInt node, UInt out_parent, Bool first)
{
   const VP_PathNode* p = VP_(path_node)(node);
   ULong self[VP_MAX_EVENTS];
   UInt  c;
   Int   e;
   for (e = 0; e < (Int)VP_(n_events); e++) self[e] = p->incl[e];
   for (c = child_start[node]; c < child_start[node + 1]; c++)
      for (e = 0; e < (Int)VP_(n_events); e++)
         self[e] -= VP_(path_node)(child_list[c])->incl[e];
   VP_(out_s)(o, first ? "[" : "\n,[");
   if (out_parent == VP_NO_ID) VP_(out_s)(o, "null");
   else VP_(out_u64)(o, out_parent);
   VP_(out_s)(o, ",");
   if (p->fn == VP_NO_ID) VP_(out_s)(o, "null");
   else VP_(out_u64)(o, rn.fn[p->fn]);
   VP_(out_s)(o, ",");
   VP_(out_u64)(o, p->count);
   out_costs(o, self);
   out_costs(o, p->incl);
   VP_(out_s)(o, "]");
}

static void write_paths(VP_Out* o)
{
   UInt  n = VP_(n_path_nodes)(), n_roots, r, written = 0;
   UInt* roots = VG_(malloc)("vp.dump.roots", (n ? n : 1) * sizeof(UInt));
   root_out_id = VG_(malloc)("vp.dump.rootids", (n ? n : 1) * sizeof(UInt));
   /* Explicit stack of (node, its output parent): trees can be deep. */
   UInt* stack = VG_(malloc)("vp.dump.stack", 2 * (n ? n : 1) * sizeof(UInt));
   node_out_id = new_marks(n);
   index_children(n, roots, &n_roots);
   VP_(out_s)(o, "\n,\"paths\":[");
   for (r = 0; r < n_roots; r++) {
      UInt sp = 0;
      root_out_id[r] = written;
      stack[sp++] = roots[r];
      stack[sp++] = VP_NO_ID;
      while (sp > 0) {
         UInt parent = stack[--sp], node = stack[--sp], id = written++, c;
         write_node(o, node, parent, id == 0);
         node_out_id[node] = id;
         /* Pushed in reverse so the smallest function comes out first. */
         for (c = child_start[node + 1]; c > child_start[node]; c--) {
            stack[sp++] = child_list[c - 1];
            stack[sp++] = id;
         }
      }
   }
   VP_(out_s)(o, "]");
   VG_(free)(stack);
   sorted_roots = roots;
   n_sorted_roots = n_roots;
   VG_(free)(child_start);
   VG_(free)(child_list);
}

/* Each thread's own graph, threads in order of their number. */
static void write_threads(VP_Out* o)
{
   Bool* seen = VG_(calloc)("vp.dump.tids", VG_N_THREADS + 1, sizeof(Bool));
   UInt  i, t, n = 0;
   for (i = 0; i < n_sorted_roots; i++) {
      UInt tid = VP_(path_node)(sorted_roots[i])->tid;
      if (tid <= (UInt)VG_N_THREADS) seen[tid] = True;
   }
   VP_(out_s)(o, "\n,\"threads\":[");
   for (t = 0; t <= (UInt)VG_N_THREADS; t++) {
      UInt k = 0;
      if (!seen[t]) continue;
      VP_(out_s)(o, n++ ? "\n,{\"tid\":" : "{\"tid\":");
      VP_(out_u64)(o, t);
      VP_(out_s)(o, "\n ,\"calls\":");
      write_call_rows(o, t);
      VP_(out_s)(o, "\n ,\"inclusive\":");
      write_inclusive_rows(o, t);
      VP_(out_s)(o, "\n ,\"roots\":[");
      for (i = 0; i < n_sorted_roots; i++) {
         if (VP_(path_node)(sorted_roots[i])->tid != t) continue;
         if (k++) VP_(out_s)(o, ",");
         VP_(out_u64)(o, root_out_id[i]);
      }
      VP_(out_s)(o, "]}");
   }
   VP_(out_s)(o, "]");
   VG_(free)(seen);
}

/*------------------------------------------------------------*/
/*--- The heap                                             ---*/
/*------------------------------------------------------------*/

typedef struct { Addr addr; VP_Loc loc; } FrameRow;

static Int cmp_frame_rows(const void* a, const void* b)
{
   const FrameRow* x = a;
   const FrameRow* y = b;
   Int c;
   if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
   if ((c = cmp_u32(rn.fn[x->loc.fn], rn.fn[y->loc.fn])))         return c;
   if ((c = cmp_u32(rn.file[x->loc.file], rn.file[y->loc.file]))) return c;
   return cmp_u32(x->loc.line, y->loc.line);
}

/* The distinct frames of all sites, sorted by address. */
static FrameRow* heap_frames(UInt* n_out)
{
   UInt      n = 0, site, f, k = 0;
   FrameRow* rows;
   for (site = 0; site < VP_(heap_n_sites)(); site++) {
      VP_HeapSite hs;
      VP_(heap_site)(site, &hs);
      n += hs.n_frames;
   }
   rows = VG_(malloc)("vp.dump.frames", (n ? n : 1) * sizeof(FrameRow));
   for (site = 0; site < VP_(heap_n_sites)(); site++) {
      VP_HeapSite hs;
      VP_(heap_site)(site, &hs);
      for (f = 0; f < hs.n_frames; f++, k++)
         VP_(heap_frame)(site, f, &rows[k].addr, &rows[k].loc);
   }
   VG_(ssort)(rows, n, sizeof(FrameRow), cmp_frame_rows);
   for (f = 0, k = 0; f < n; f++)
      if (k == 0 || cmp_frame_rows(&rows[k - 1], &rows[f]) != 0)
         rows[k++] = rows[f];
   *n_out = k;
   return rows;
}

static UInt frame_id(const FrameRow* rows, UInt n, const FrameRow* key)
{
   UInt lo = 0, hi = n;
   while (lo < hi) {
      UInt mid = (lo + hi) / 2;
      Int  c   = cmp_frame_rows(&rows[mid], key);
      if (c == 0) return mid;
      if (c < 0) lo = mid + 1; else hi = mid;
   }
   tl_assert(0);
   return 0;
}

static void out_field(VP_Out* o, const HChar* sep_key, ULong v)
{
   VP_(out_s)(o, sep_key);
   VP_(out_u64)(o, v);
}

/* Per-offset access counts, run-length encoded: [count, value, ...]. */
static void out_acc(VP_Out* o, const UInt* acc, SizeT n)
{
   SizeT i = 0;
   Bool  first = True;
   VP_(out_s)(o, "[");
   while (i < n) {
      SizeT j = i;
      while (j < n && acc[j] == acc[i]) j++;
      VP_(out_s)(o, first ? "" : ",");
      first = False;
      VP_(out_u64)(o, j - i);
      VP_(out_s)(o, ",");
      VP_(out_u64)(o, acc[i]);
      i = j;
   }
   VP_(out_s)(o, "]");
}

static void out_snapshot(VP_Out* o, const HChar* kind, const VP_HeapSnapshot* sn, Bool first)
{
   UInt r;
   VP_(out_s)(o, first ? "\n  {\"kind\":\"" : "\n  ,{\"kind\":\"");
   VP_(out_s)(o, kind);
   out_field(o, "\",\"time\":", sn->time);
   out_field(o, ",\"bytes\":", sn->bytes);
   out_field(o, ",\"blocks\":", sn->blocks);
   VP_(out_s)(o, ",\"sites\":[");
   for (r = 0; r < sn->n_rows; r++) {
      VP_(out_s)(o, r ? ",[" : "[");
      VP_(out_u64)(o, sn->site[r]);
      out_field(o, ",", sn->rbytes[r]);
      out_field(o, ",", sn->rblocks[r]);
      VP_(out_s)(o, "]");
   }
   VP_(out_s)(o, "]}");
}

/* Snapshots in time order: the periodic ones, the peak's and the end's
   (at equal times: periodic, then peak, then end). */
static void write_snapshots(VP_Out* o)
{
   VP_HeapSnapshot peak, end, sn;
   UInt  i, n = VP_(heap_n_snapshots)();
   Bool  first = True, peak_done = False;
   VP_(heap_top_sites)(True, &peak);
   VP_(heap_top_sites)(False, &end);
   VP_(out_s)(o, "\n ,\"snapshots\":[");
   for (i = 0; i < n; i++) {
      VP_(heap_snapshot)(i, &sn);
      if (!peak_done && peak.time < sn.time) {
         out_snapshot(o, "peak", &peak, first);
         first = False;
         peak_done = True;
      }
      out_snapshot(o, "periodic", &sn, first);
      first = False;
   }
   if (!peak_done)
      out_snapshot(o, "peak", &peak, first);
   out_snapshot(o, "end", &end, False);
   VP_(out_s)(o, "]");
}

/* What each site allocated and freed over time, by site, then time. */
static void write_changes(VP_Out* o)
{
   UInt site, i;
   Bool first = True;
   out_field(o, "\n ,\"changes\":{\"width\":", VP_(heap_changes_width)());
   out_field(o, ",\"max\":", VP_(clo).heap_changes);
   VP_(out_s)(o, ",\"rows\":[");
   for (site = 0; site < VP_(heap_n_sites)(); site++)
      for (i = 0; i < VP_(heap_site_n_changes)(site); i++) {
         ULong time, bytes, blocks, freed_bytes, freed_blocks;
         VP_(heap_site_change)(site, i, &time, &bytes, &blocks, &freed_bytes, &freed_blocks);
         out_field(o, first ? "\n  [" : "\n  ,[", site);
         out_field(o, ",", time);
         out_field(o, ",", bytes);
         out_field(o, ",", blocks);
         out_field(o, ",", freed_bytes);
         out_field(o, ",", freed_blocks);
         VP_(out_s)(o, "]");
         first = False;
      }
   VP_(out_s)(o, "]}");
}

/* The figures of `totals` (the period's, with its start) or of
   `whole_run` (no start: the run's). */
static void out_heap_totals(VP_Out* o, const HChar* key, const VP_HeapTotals* t, Bool period)
{
   const struct { const HChar* key; ULong v; } fields[] = {
      { "start_time", t->start_time },   { "start_bytes", t->start_bytes },
      { "start_blocks", t->start_blocks }, { "bytes", t->tot_bytes },
      { "blocks", t->tot_blocks },       { "freed_bytes", t->freed_bytes },
      { "freed_blocks", t->freed_blocks }, { "peak_bytes", t->gmax_bytes },
      { "peak_blocks", t->gmax_blocks }, { "peak_time", t->gmax_time },
      { "end_bytes", t->end_bytes },     { "end_blocks", t->end_blocks },
      { "end_time", t->end_time },       { "reads", t->reads },
      { "writes", t->writes }
   };
   UInt first = period ? 0 : 3;   /* the whole run has no start */
   UInt i;
   VP_(out_s)(o, "\n ,\"");
   VP_(out_s)(o, key);
   VP_(out_s)(o, "\":{");
   for (i = first; i < sizeof fields / sizeof fields[0]; i++) {
      VP_(out_s)(o, i == first ? "\"" : ",\"");
      VP_(out_s)(o, fields[i].key);
      out_field(o, "\":", fields[i].v);
   }
   VP_(out_s)(o, "}");
}

static void write_heap(VP_Out* o)
{
   VP_HeapTotals t;
   UInt      n_frames, site, f, i;
   FrameRow* rows = heap_frames(&n_frames);

   out_field(o, "\n,\"heap\":{\"depth\":", VP_(clo).heap_depth);
   VP_(heap_totals)(&t);
   out_heap_totals(o, "totals", &t, True);
   VP_(heap_whole_run)(&t);
   out_heap_totals(o, "whole_run", &t, False);
   VP_(out_s)(o, "\n ,\"frames\":[");
   for (f = 0; f < n_frames; f++) {
      out_field(o, f ? "\n  ,[" : "\n  [", rows[f].addr);
      out_field(o, ",", rn.fn[rows[f].loc.fn]);
      out_field(o, ",", rn.file[rows[f].loc.file]);
      out_field(o, ",", rows[f].loc.line);
      VP_(out_s)(o, "]");
   }
   VP_(out_s)(o, "]\n ,\"sites\":[");
   for (site = 0; site < VP_(heap_n_sites)(); site++) {
      VP_HeapSite hs;
      VP_(heap_site)(site, &hs);
      VP_(out_s)(o, site ? "\n  ,[[" : "\n  [[");
      for (f = 0; f < hs.n_frames; f++) {
         FrameRow key;
         VP_(heap_frame)(site, f, &key.addr, &key.loc);
         if (f) VP_(out_s)(o, ",");
         VP_(out_u64)(o, frame_id(rows, n_frames, &key));
      }
      VP_(out_s)(o, "]");
      out_field(o, ",", hs.tot_bytes);
      out_field(o, ",", hs.tot_blocks);
      out_field(o, ",", hs.lifetimes);
      out_field(o, ",", hs.max_bytes);
      out_field(o, ",", hs.max_blocks);
      out_field(o, ",", hs.gmax_bytes);
      out_field(o, ",", hs.gmax_blocks);
      out_field(o, ",", hs.end_bytes);
      out_field(o, ",", hs.end_blocks);
      out_field(o, ",", hs.reads);
      out_field(o, ",", hs.writes);
      VP_(out_s)(o, ",");
      if (hs.acc_size) out_acc(o, hs.acc, hs.acc_size);
      else VP_(out_s)(o, "null");
      VP_(out_s)(o, "]");
   }
   out_field(o, "]\n ,\"timeline\":{\"width\":", VP_(heap_sample_width)());
   VP_(out_s)(o, ",\"samples\":[");
   for (i = 0; i < VP_(heap_n_samples)(); i++) {
      ULong time, bytes, blocks;
      VP_(heap_sample)(i, &time, &bytes, &blocks);
      out_field(o, i ? ",[" : "[", time);
      out_field(o, ",", bytes);
      out_field(o, ",", blocks);
      VP_(out_s)(o, "]");
   }
   VP_(out_s)(o, "]}");
   write_snapshots(o);
   write_changes(o);
   VP_(out_s)(o, "}");
   VG_(free)(rows);
}

/*------------------------------------------------------------*/
/*--- Data objects                                         ---*/
/*------------------------------------------------------------*/

static const HChar* const data_kind_names[] =
   { "heap", "global", "unnamed", "stack", "allocator", "other" };

static void out_data_cost(VP_Out* o, const VP_DataCost* c)
{
   UInt e;
   for (e = 0; e < VP_DATA_EVENTS; e++)
      out_field(o, ",", c->c[e]);
}

static void out_or_null(VP_Out* o, Bool present, ULong v)
{
   if (present) out_field(o, ",", v);
   else         VP_(out_s)(o, ",null");
}

/* [kind, site, name, obj, addr, size, width, cost...] */
static void write_data_obj(VP_Out* o, const VP_DataObj* d, Bool first)
{
   Bool        global = d->kind == VP_DK_GLOBAL;
   Bool        offsets = d->kind == VP_DK_HEAP || global;
   VP_DataCost total;
   VP_(data_obj_total)(d, &total);
   VP_(out_s)(o, first ? "\n  [\"" : "\n  ,[\"");
   VP_(out_s)(o, data_kind_names[d->kind]);
   VP_(out_s)(o, "\"");
   out_or_null(o, d->kind == VP_DK_HEAP, d->kind == VP_DK_HEAP ? VP_(heap_site_number)(d->site) : 0);
   out_or_null(o, global || d->kind == VP_DK_UNNAMED, rn.str[d->name]);
   out_or_null(o, global || d->kind == VP_DK_UNNAMED, rn.obj[d->obj]);
   out_or_null(o, global, d->addr);
   out_field(o, ",", offsets ? d->size : 0);
   out_field(o, ",", offsets ? (ULong)1 << d->shift : 0);
   out_data_cost(o, &total);
   VP_(out_s)(o, "]");
}

static Bool data_row_counted(const VP_DataCost* c)
{
   UInt e;
   for (e = 0; e < VP_DATA_EVENTS; e++)
      if (c->c[e]) return True;
   return False;
}

/* [object, offset, cost...] for each bucket with a count. */
static void write_data_offsets(VP_Out* o)
{
   UInt i, r;
   Bool first = True;
   VP_(out_s)(o, "]\n ,\"offsets\":[");
   for (i = 0; i < VP_(data_n_objs)(); i++) {
      const VP_DataObj* d = VP_(data_obj)(i);
      if (d->kind != VP_DK_HEAP && d->kind != VP_DK_GLOBAL)
         continue;
      for (r = 0; r < d->n_rows; r++) {
         VP_DataCost c;
         VP_(data_bucket_cost)(d, r, &c);
         if (!data_row_counted(&c))
            continue;
         out_field(o, first ? "\n  [" : "\n  ,[", i);
         out_field(o, ",", (ULong)r << d->shift);
         out_data_cost(o, &c);
         VP_(out_s)(o, "]");
         first = False;
      }
   }
}

static Int cmp_data_fns(const void* a, const void* b)
{
   const VP_FnData* x = *(const VP_FnData* const*)a;
   const VP_FnData* y = *(const VP_FnData* const*)b;
   Int c = cmp_u32(x->obj->number, y->obj->number);
   return c ? c : cmp_u32(rn.fn[x->fn], rn.fn[y->fn]);
}

/* [object, fn, D1mr, DLmr, D1mw, DLmw], by object and function. */
static void write_data_fns(VP_Out* o)
{
   UInt              i, e, n = VP_(data_n_fns)();
   const VP_FnData** fns = VG_(malloc)("vp.dump.datafns", (n ? n : 1) * sizeof(VP_FnData*));
   for (i = 0; i < n; i++)
      fns[i] = VP_(data_fn)(i);
   VG_(ssort)(fns, n, sizeof(VP_FnData*), cmp_data_fns);
   VP_(out_s)(o, "]\n ,\"fns\":[");
   for (i = 0; i < n; i++) {
      out_field(o, i ? "\n  ,[" : "\n  [", fns[i]->obj->number);
      out_field(o, ",", rn.fn[fns[i]->fn]);
      for (e = 0; e < VP_DATA_MISSES; e++)
         out_field(o, ",", fns[i]->miss[e]);
      VP_(out_s)(o, "]");
   }
   VG_(free)(fns);
}

static void write_data(VP_Out* o)
{
   UInt i;
   VP_(out_s)(o, "\n,\"data\":{\"events\":[\"Dr\",\"D1mr\",\"DLmr\",\"Dw\",\"D1mw\",\"DLmw\"]");
   VP_(out_s)(o, "\n ,\"objects\":[");
   for (i = 0; i < VP_(data_n_objs)(); i++)
      write_data_obj(o, VP_(data_obj)(i), i == 0);
   write_data_offsets(o);
   write_data_fns(o);
   VP_(out_s)(o, "]}");
}

static void row_inl(VP_Out* o, UInt id)
{
   const VP_Inl* c = VP_(inl)(id);
   VP_(out_s)(o, "[");
   VP_(out_u64)(o, rn.fn[c->fn]);
   VP_(out_s)(o, ",");
   if (c->parent == VP_NO_INL) VP_(out_s)(o, "null");
   else VP_(out_u64)(o, rn.inl[c->parent]);
   VP_(out_s)(o, ",");
   VP_(out_u64)(o, rn.file[c->file]);
   VP_(out_s)(o, ",");
   VP_(out_u64)(o, c->line);
   VP_(out_s)(o, "]");
}

/* Orders cells of inlined code by (fn, inlined call), then as lines. */
static Int cmp_by_inlined_line(const void* a, const void* b)
{
   const VP_InstrCC* x = *(VP_InstrCC* const*)a;
   const VP_InstrCC* y = *(VP_InstrCC* const*)b;
   Int c;
   if ((c = cmp_u32(rn.fn[x->loc.fn], rn.fn[y->loc.fn])))     return c;
   if ((c = cmp_u32(rn.inl[x->loc.inl], rn.inl[y->loc.inl]))) return c;
   return cmp_by_line(a, b);
}

static Bool same_inlined_line(const VP_InstrCC* x, const VP_InstrCC* y)
{
   return same_line(x, y) && x->loc.inl == y->loc.inl;
}

static void inlined_line_key(VP_Out* o, const VP_InstrCC* cc)
{
   VP_(out_u64)(o, rn.fn[cc->loc.fn]);
   VP_(out_s)(o, ",");
   VP_(out_u64)(o, rn.inl[cc->loc.inl]);
   VP_(out_s)(o, ",");
   VP_(out_u64)(o, rn.file[cc->loc.file]);
   VP_(out_s)(o, ",");
   VP_(out_u64)(o, cc->loc.line);
}

/* The part of `lines` that is inlined code: per (function, innermost
   inlined call, file, line). */
static void write_inline_lines(VP_Out* o)
{
   XArray* cells = VG_(newXA)(VG_(malloc), "vp.dump.inl", VG_(free), sizeof(VP_InstrCC*));
   Word    i;
   for (i = 0; i < VG_(sizeXA)(executed); i++) {
      VP_InstrCC* cc = *(VP_InstrCC**)VG_(indexXA)(executed, i);
      if (cc->loc.inl != VP_NO_INL) VG_(addToXA)(cells, &cc);
   }
   VG_(setCmpFnXA)(cells, cmp_by_inlined_line);
   VG_(sortXA)(cells);
   write_summed_rows(o, "inline_lines", cells, same_inlined_line, inlined_line_key);
   VG_(deleteXA)(cells);
}

void VP_(write_document)(VP_Out* o, const VP_Dump* d)
{
   VP_(out_s)(o, "{\"vgprof\":");
   VP_(out_u64)(o, VP_FORMAT_VERSION);
   write_meta(o, d);
   out_table(o, "strs",  rn.str,  VP_(n_strs)(), rn.n_str,  row_str);
   out_table(o, "objs",  rn.obj,  VP_(n_strs)(), rn.n_obj,  row_path);
   out_table(o, "files", rn.file, VP_(n_strs)(), rn.n_file, row_path);
   out_table(o, "fns",   rn.fn,   VP_(n_fns)(),  rn.n_fn,   row_fn);
   write_lines(o);
   out_table(o, "inlines", rn.inl, VP_(n_inls)(), rn.n_inl, row_inl);
   write_inline_lines(o);
   if (VP_(clo).dump_instr)
      write_instrs(o);
   if (VP_(clo).call_graph) {
      VP_(out_s)(o, "\n,\"calls\":");
      write_call_rows(o, VP_NO_ID);
      VP_(out_s)(o, "\n,\"inclusive\":");
      write_inclusive_rows(o, VP_NO_ID);
      write_paths(o);
      if (VP_(clo).separate_threads)
         write_threads(o);
      if (VP_(clo).timeline)
         VP_(timeline_write)(o, node_out_id, rn.fn);
      VG_(free)(node_out_id);
      VG_(free)(sorted_roots);
      VG_(free)(root_out_id);
   }
   if (VP_(clo).heap)
      write_heap(o);
   if (VP_(data_on))
      write_data(o);
   VP_(out_s)(o, "\n}\n");
}

/*------------------------------------------------------------*/
/*--- Entry point                                          ---*/
/*------------------------------------------------------------*/

HChar* VP_(write_profile)(const VP_Dump* d)
{
   HChar* path = VP_(profile_path)(d);
   /* The final profile comes when nothing runs any more: the simulated
      caches' memory (1 MB for an 8 MB LL) goes back to be the writer's
      tables, which would otherwise add to the run's peak. */
   if (d->number == 0)
      VP_(sim_fini)();
   if (VP_(clo).call_graph) {
      /* A dump ends its period at a mark of its own, and the frames
         still active are cut there. */
      if (d->number > 0 && VP_(clo).timeline) {
         VP_(timeline_mark)(VG_(get_running_tid)(), d->label, False);
         VP_(callgraph_cut_spans)();
      }
      if (d->number == 0) VP_(callgraph_reset_stacks)();
      else                VP_(callgraph_checkpoint)();
      VP_(settle_inlined_nodes)();
   }
   VP_(settle_counts)();
   collect_executed();
   if (VP_(clo).heap)
      VP_(heap_prepare_dump)();
   if (VP_(data_on))
      VP_(data_prepare_dump)();
   renumber();
   if (d->number == 0)
      VP_(print_summary)(totals);
   Bool written = VP_(place_profile)(path, d);
   if (VP_(data_on))
      VP_(data_finish_dump)();
   if (VP_(clo).heap)
      VP_(heap_finish_dump)();
   free_dump_state();
   if (!written) {
      VG_(free)(path);
      path = NULL;
   }
   return path;
}
