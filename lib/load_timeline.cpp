// SPDX-License-Identifier: GPL-2.0-or-later
// The loader's reading of the timeline (format version 10): the period's
// bounds, the spans of calls and the marks, each checked so that a report
// can subtract and nest them without a further test: ids within their
// tables, every time within the period, spans at least the threshold long
// unless open, marks in time order with totals that never go down.
#include "loader.hpp"

namespace vgprof::detail {

namespace {

const char* const kTimelineFields[] = {"clock",  "threshold", "max_spans", "begin",        "end",
                                       "spans", "dropped",   "marks",     "marks_dropped"};

} // namespace

// [time, live_bytes, live_blocks, total...] after `fixed` entries of a mark.
TimelineMoment Loader::moment_at(const json::value& v, const Where& at, size_t fixed) const
{
    const json::array& a = array_at(v, at);
    const size_t n = p_.num_events();
    if (a.size() != fixed + 3 + n)
        fail(at, cat("expected ", fixed + 3 + n, " entries (", fixed ? "time, thread, label, " : "time, ",
                     "live bytes, live blocks and ", count_of(n, "total"), "), got ", a.size()));
    TimelineMoment m;
    m.time = uint_at(a[0], at.element(0));
    m.live_bytes = uint_at(a[fixed + 1], at.element(fixed + 1));
    m.live_blocks = uint_at(a[fixed + 2], at.element(fixed + 2));
    m.totals.reserve(n);
    for (size_t e = 0; e < n; ++e)
        m.totals.push_back(uint_at(a[fixed + 3 + e], at.element(fixed + 3 + e)));
    return m;
}

void Loader::load_run_timeline(const json::value& v, const Where& at)
{
    const json::object& o = object_at(v, at);
    for (const auto& member : o)
        if (!contains(kTimelineFields, member.key()))
            fail(at, cat("unknown key ", quoted(member.key()), " in the timeline"));
    if (!p_.has_call_graph)
        fail(at, "a timeline needs the call graph, which the profile does not have");
    const Where clock = at.member("clock");
    if (string_at(required(o, "clock", at), clock) != "instructions")
        fail(clock, "expected \"instructions\", the only clock of the format");
    Timeline t;
    t.threshold = uint_at(required(o, "threshold", at), at.member("threshold"));
    if (t.threshold == 0)
        fail(at.member("threshold"), "the threshold must be at least 1");
    t.max_spans = uint_at(required(o, "max_spans", at), at.member("max_spans"));
    t.dropped = uint_at(required(o, "dropped", at), at.member("dropped"));
    t.marks_dropped = uint_at(required(o, "marks_dropped", at), at.member("marks_dropped"));
    const Where begin = at.member("begin"), end = at.member("end");
    t.begin = moment_at(required(o, "begin", at), begin, 0);
    t.end = moment_at(required(o, "end", at), end, 0);
    if (t.begin.time > t.end.time)
        fail(end.element(0), cat("the period ends (", t.end.time, ") before it begins (",
                                 t.begin.time, ")"));
    for (size_t e = 0; e < t.end.totals.size(); ++e)
        if (t.end.totals[e] < t.begin.totals[e])
            fail(end.element(3 + e), cat("the total of ", p_.meta.events[e], " at the end (",
                                         t.end.totals[e], ") is below the one at the beginning (",
                                         t.begin.totals[e], ")"));
    load_spans(required(o, "spans", at), at.member("spans"), t);
    load_marks(required(o, "marks", at), at.member("marks"), t);
    p_.timeline = std::move(t);
}

// [thread, depth, fn, node, start, end, open, cost...]
void Loader::load_spans(const json::value& v, const Where& at, Timeline& t) const
{
    const json::array& a = array_at(v, at);
    if (a.size() > t.max_spans)
        fail(at, cat(count_of(a.size(), "span"), ", more than max_spans (", t.max_spans, ")"));
    const size_t n = p_.num_events();
    t.spans.reserve(a.size());
    t.span_costs.reserve(a.size() * n);
    RowCells row;
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        row.assign(a[i]);
        check_row(row, item, {"thread", "depth", "fn", "node", "start", "end", "open"}, {""});
        TimelineSpan s;
        s.thread = u32_at(row[0], item.element(0));
        s.depth = u32_at(row[1], item.element(1));
        s.fn = id_at<FnId>(row[2], item.element(2), "fn", p_.functions.size(), "function");
        s.node = id_at<PathId>(row[3], item.element(3), "node", p_.paths.size(), "path node");
        s.start = uint_at(row[4], item.element(4));
        s.end = uint_at(row[5], item.element(5));
        const uint64_t open = uint_at(row[6], item.element(6));
        if (open > 1)
            fail(item.element(6), cat("expected 0 or 1 (open), got ", open));
        s.open = open == 1;
        const std::optional<FnId> node_fn = p_.paths[s.node.index()].fn;
        if (node_fn && *node_fn != s.fn)
            fail(item.element(3), cat("path node ", s.node.value, " is function ",
                                      node_fn->value, "'s, not the span's (", s.fn.value, ")"));
        if (s.start > s.end)
            fail(item.element(5), cat("the span ends (", s.end, ") before it starts (", s.start, ")"));
        if (s.start < t.begin.time || s.end > t.end.time)
            fail(item, cat("the span [", s.start, ", ", s.end, "] lies outside the period [",
                           t.begin.time, ", ", t.end.time, "]"));
        if (!s.open && s.end - s.start < t.threshold)
            fail(item, cat("the span lasts ", s.end - s.start,
                           " instructions, less than the threshold (", t.threshold, ")"));
        t.spans.push_back(s);
        append_costs(row, 7, item, t.span_costs);
    }
}

// [time, thread, label, live_bytes, live_blocks, total...], in time order.
void Loader::load_marks(const json::value& v, const Where& at, Timeline& t) const
{
    const json::array& a = array_at(v, at);
    if (a.size() > kMaxTimelineMarks)
        fail(at, cat(count_of(a.size(), "mark"), ", more than the format allows (",
                     kMaxTimelineMarks, ")"));
    const TimelineMoment* previous = &t.begin;
    t.marks.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        TimelineMark m;
        static_cast<TimelineMoment&>(m) = moment_at(a[i], item, 2);
        const json::array& row = a[i].get_array();
        m.thread = u32_at(row[1], item.element(1));
        const json::string& label = string_at(row[2], item.element(2));
        if (label.size() > max_string_)
            fail(item.element(2), cat("label of ", label.size(), " bytes, more than ",
                                      max_string_));
        m.label = std::string(label);
        if (m.time < previous->time || m.time > t.end.time)
            fail(item.element(0), cat("mark at ", m.time, " out of order (after ", previous->time,
                                      ", by the end ", t.end.time, ")"));
        for (size_t e = 0; e < m.totals.size(); ++e)
            if (m.totals[e] < previous->totals[e] || m.totals[e] > t.end.totals[e])
                fail(item.element(5 + e),
                     cat("the total of ", p_.meta.events[e], " (", m.totals[e],
                         ") is not between the previous one (", previous->totals[e],
                         ") and the end's (", t.end.totals[e], ")"));
        t.marks.push_back(std::move(m));
        previous = &t.marks.back();
    }
}

} // namespace vgprof::detail
