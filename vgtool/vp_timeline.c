/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_timeline.c: the run's time order (--timeline=yes): the spans of the
   calls that returned, in instruction time, with what each cost, and the
   marks the program or its user set.

   A span is recorded by the call graph (vp_callgraph.c) when a frame is
   popped, from the same clock differences the call-path tree is given,
   so that a span's cost is the path node's for that call.  Only spans at
   least `threshold` instructions long are kept.  The threshold starts at
   1; whenever --timeline-spans spans are kept it doubles, as often as
   needed to free a quarter of them, and the shorter spans go: a long
   run's profile keeps its longest calls and stays small, whatever its
   length.  A caller never returns sooner than its callee after entering
   it earlier, so the kept spans still nest: a kept callee's caller is
   kept too when it returns (or is written as an open span).

   A mark holds the running totals of every event and the heap live at
   its time, so that the costs of a phase between two marks are their
   differences, exactly.

   Each profile holds the period it covers: after a dump or a zero the
   spans and marks start again, and the frames still active start their
   spans again at that time. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"
#include "vp_heap.h"

typedef struct {
   UInt  thread, depth, fn, node;
   ULong start, end;
   Bool  open;
   ULong cost[];   /* VP_(n_events) */
} Span;

typedef struct {
   ULong  time;
   UInt   thread;
   HChar* label;
   ULong  live_bytes, live_blocks;
   ULong  total[VP_MAX_EVENTS];
} Mark;

/* The time, heap and totals where the period began. */
typedef struct {
   ULong time, live_bytes, live_blocks;
   ULong total[VP_MAX_EVENTS];
} Moment;

/* Marks kept per period; any more are counted, not kept, so that a
   program marking in a loop cannot fill the tool's memory. */
#define MAX_MARKS 100000
/* A label's longest text: longer ones are cut. */
#define MAX_LABEL 200

ULong VP_(span_threshold) = 1;
ULong VP_(spans_offered);

/* The spans are kept in chunks of SPAN_CHUNK records, allocated as they
   fill and never moved: growing one array would hold the old and the new
   copy at once, twice the memory the spans need. */
#define SPAN_CHUNK 1024
static UChar** chunks;     /* chunks[i]: spans i*SPAN_CHUNK onwards */
static UInt    n_chunks;   /* allocated (room for n_chunks*SPAN_CHUNK spans) */
static UInt    n_spans, cap_spans;
/* Set when the room holds open spans alone, which are never dropped: no
   later span of the period can be kept, and looking again for one to
   drop would cost a pass over the room for every span offered (a thread
   cut at its end with a stack of 100,000s of frames offers as many). */
static Bool only_open;
static SizeT  span_size;
static XArray* marks;      /* of Mark */
static ULong  marks_dropped;
static Moment begin;
/* The running totals when the clock stopped (VP_(heap_stopped_at)). */
static ULong total_at_stop[VP_MAX_EVENTS];

static inline Span* span_at(UInt i)
{
   return (Span*)(chunks[i / SPAN_CHUNK] + (SizeT)(i % SPAN_CHUNK) * span_size);
}

static void take_moment(Moment* m)
{
   m->time = VP_(heap_now)();
   if (VP_(clo).heap)
      VP_(heap_live)(&m->live_bytes, &m->live_blocks);
   else
      m->live_bytes = m->live_blocks = 0;
   VG_(memcpy)(m->total, VP_(heap_stopped_at) != 0 ? total_at_stop : VP_(total),
               sizeof m->total);
}

void VP_(timeline_clock_stops)(void)
{
   VG_(memcpy)(total_at_stop, VP_(total), sizeof total_at_stop);
}

void VP_(timeline_init)(void)
{
   span_size = sizeof(Span) + VP_(n_events) * sizeof(ULong);
   marks     = VG_(newXA)(VG_(malloc), "vp.tl.marks", VG_(free), sizeof(Mark));
   VP_(timeline_restart)();
}

void VP_(timeline_restart)(void)
{
   Word i;
   n_spans  = 0;
   only_open = False;
   VP_(spans_offered) = 0;
   VP_(span_threshold) = 1;
   for (i = 0; i < VG_(sizeXA)(marks); i++)
      VG_(free)(((Mark*)VG_(indexXA)(marks, i))->label);
   VG_(dropTailXA)(marks, VG_(sizeXA)(marks));
   marks_dropped = 0;
   take_moment(&begin);
}

static Bool kept_at(const Span* s, ULong threshold)
{
   return s->open || s->end - s->start >= threshold;
}

/* Raises the threshold until a quarter of the kept spans fall below it,
   or as far as it goes, then drops them, keeping the order. */
static void raise_threshold(void)
{
   UInt  i, k, drop = 0;
   ULong t = VP_(span_threshold);
   if (only_open) return;
   while (t <= (~0ULL >> 1)) {
      t *= 2;
      for (i = 0, drop = 0; i < n_spans; i++)
         if (!kept_at(span_at(i), t)) drop++;
      if (drop >= n_spans / 4 || drop == n_spans) break;
   }
   if (drop == 0) {
      only_open = True;
      return;
   }
   for (i = 0, k = 0; i < n_spans; i++) {
      if (!kept_at(span_at(i), t)) continue;
      if (k != i) VG_(memcpy)(span_at(k), span_at(i), span_size);
      k++;
   }
   n_spans = k;
   VP_(span_threshold) = t;
}

static Span* room_for_span(void)
{
   if (n_spans == cap_spans && cap_spans < VP_(clo).timeline_spans) {
      if (chunks == NULL)
         chunks = VG_(calloc)("vp.tl.chunks",
                              (VP_(clo).timeline_spans + SPAN_CHUNK - 1) / SPAN_CHUNK,
                              sizeof *chunks);
      chunks[n_chunks++] = VG_(malloc)("vp.tl.spans", (SizeT)SPAN_CHUNK * span_size);
      cap_spans = n_chunks * SPAN_CHUNK;
      if (cap_spans > VP_(clo).timeline_spans) cap_spans = VP_(clo).timeline_spans;
   }
   if (n_spans == cap_spans)
      raise_threshold();
   return n_spans < cap_spans ? span_at(n_spans) : NULL;
}

void VP_(timeline_add_span)(UInt thread, UInt depth, UInt fn, UInt node, ULong start,
                            ULong end, Bool open, const ULong* cost)
{
   VP_(spans_offered)++;
   if (!open && end - start < VP_(span_threshold))
      return;
   Span* s = room_for_span();
   /* The threshold may have risen past this span, or open spans alone
      fill the room. */
   if (s == NULL || (!open && end - start < VP_(span_threshold)))
      return;
   s->thread = thread;
   s->depth  = depth;
   s->fn     = fn;
   s->node   = node;
   s->start  = start;
   s->end    = end;
   s->open   = open;
   VG_(memcpy)(s->cost, cost, VP_(n_events) * sizeof(ULong));
   n_spans++;
}

/* The client's label, read only where it is readable, cut at MAX_LABEL. */
static HChar* copy_label(const HChar* text, Bool from_client)
{
   HChar buf[MAX_LABEL + 1];
   UInt  n = 0;
   if (text != NULL)
      for (; n < MAX_LABEL; n++) {
         Addr a = (Addr)(text + n);
         if (from_client && (n == 0 || a % VKI_PAGE_SIZE == 0)
             && !VG_(am_is_valid_for_client)(a, 1, VKI_PROT_READ))
            break;
         if (text[n] == '\0') break;
         buf[n] = text[n];
      }
   buf[n] = '\0';
   return VG_(strdup)("vp.tl.label", buf);
}

void VP_(timeline_mark)(ThreadId tid, const HChar* label, Bool from_client)
{
   Moment m;
   Mark   mk;
   if (VG_(sizeXA)(marks) >= MAX_MARKS) {
      marks_dropped++;
      return;
   }
   take_moment(&m);
   mk.time        = m.time;
   mk.thread      = tid;
   mk.label       = copy_label(label, from_client);
   mk.live_bytes  = m.live_bytes;
   mk.live_blocks = m.live_blocks;
   VG_(memcpy)(mk.total, m.total, sizeof mk.total);
   VG_(addToXA)(marks, &mk);
}

UInt VP_(timeline_n_marks)(void)
{
   return (UInt)VG_(sizeXA)(marks);
}

/*------------------------------------------------------------*/
/*--- Writing                                              ---*/
/*------------------------------------------------------------*/

static void out_list(VP_Out* o, const ULong* v, UInt n)
{
   UInt i;
   for (i = 0; i < n; i++) {
      VP_(out_s)(o, ",");
      VP_(out_u64)(o, v[i]);
   }
}

static void out_moment(VP_Out* o, const HChar* key, const Moment* m)
{
   VP_(out_s)(o, key);
   VP_(out_u64)(o, m->time);
   out_list(o, &m->live_bytes, 1);
   out_list(o, &m->live_blocks, 1);
   out_list(o, m->total, VP_(n_events));
   VP_(out_s)(o, "]");
}

/* A span whose node has no output id cost nothing at all (collection
   was off throughout): the path tree has no place for it. */
static void write_spans(VP_Out* o, const UInt* node_out, const UInt* fn_out, ULong* written)
{
   UInt i;
   *written = 0;
   for (i = 0; i < n_spans; i++) {
      const Span* s = span_at(i);
      if (node_out[s->node] == VP_NO_ID || fn_out[s->fn] == VP_NO_ID) continue;
      VP_(out_s)(o, (*written)++ ? "\n ,[" : "\n  [");
      VP_(out_u64)(o, s->thread);
      out_list(o, (const ULong[]){ s->depth, fn_out[s->fn], node_out[s->node],
                                   s->start, s->end, s->open }, 6);
      out_list(o, s->cost, VP_(n_events));
      VP_(out_s)(o, "]");
   }
}

static void write_marks(VP_Out* o)
{
   Word i;
   for (i = 0; i < VG_(sizeXA)(marks); i++) {
      const Mark* m = VG_(indexXA)(marks, i);
      VP_(out_s)(o, i ? "\n ,[" : "\n  [");
      VP_(out_u64)(o, m->time);
      out_list(o, (const ULong[]){ m->thread }, 1);
      VP_(out_s)(o, ",");
      VP_(out_json_str)(o, m->label);
      out_list(o, (const ULong[]){ m->live_bytes, m->live_blocks }, 2);
      out_list(o, m->total, VP_(n_events));
      VP_(out_s)(o, "]");
   }
}

/* The "timeline" member: node_out and fn_out give the output ids of the
   call graph's path nodes and functions (VP_NO_ID: not written). */
void VP_(timeline_write)(VP_Out* o, const UInt* node_out, const UInt* fn_out)
{
   Moment end;
   ULong  written;
   take_moment(&end);
   VP_(out_s)(o, "\n,\"timeline\":{\"clock\":\"instructions\",\"threshold\":");
   VP_(out_u64)(o, VP_(span_threshold));
   VP_(out_s)(o, ",\"max_spans\":");
   VP_(out_u64)(o, VP_(clo).timeline_spans);
   out_moment(o, "\n ,\"begin\":[", &begin);
   out_moment(o, "\n ,\"end\":[", &end);
   VP_(out_s)(o, "\n ,\"spans\":[");
   write_spans(o, node_out, fn_out, &written);
   VP_(out_s)(o, "]\n ,\"dropped\":");
   VP_(out_u64)(o, VP_(spans_offered) - written);
   VP_(out_s)(o, "\n ,\"marks\":[");
   write_marks(o);
   VP_(out_s)(o, "]\n ,\"marks_dropped\":");
   VP_(out_u64)(o, marks_dropped);
   VP_(out_s)(o, "}");
}
