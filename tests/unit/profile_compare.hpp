// SPDX-License-Identifier: GPL-2.0-or-later
// Compares two Profile models through everything the model shows, table by
// table, so that a test failure names the table that differs.
#ifndef VGPROF_TESTS_PROFILE_COMPARE_HPP
#define VGPROF_TESTS_PROFILE_COMPARE_HPP

#include "vgprof/profile.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace vgprof::test {

// The rows of a table as plain tuples (and each row's costs), which gtest
// compares and prints.
using Row = std::vector<uint64_t>;

inline std::vector<Row> cost_rows(size_t rows, size_t width,
                                  const std::function<Row(size_t)>& key,
                                  const std::function<const uint64_t*(size_t)>& cost)
{
    std::vector<Row> out;
    for (size_t i = 0; i < rows; ++i) {
        Row row = key(i);
        row.insert(row.end(), cost(i), cost(i) + width);
        out.push_back(row);
    }
    return out;
}

inline std::vector<Row> call_rows(const CallGraph& g)
{
    return cost_rows(
        g.calls().size(), g.num_events(),
        [&](size_t i) {
            const CallEdge& e = g.calls()[i];
            return Row{e.caller.value, e.callee.value, e.file.value, e.line, e.addr, e.count};
        },
        [&](size_t i) { return g.call_cost(i); });
}

inline std::vector<Row> inclusive_rows(const CallGraph& g)
{
    return cost_rows(
        g.inclusive_fns().size(), g.num_events(),
        [&](size_t i) { return Row{g.inclusive_fns()[i].value}; },
        [&](size_t i) { return g.inclusive_cost(i); });
}

inline std::vector<Row> path_rows(const Profile& p)
{
    return cost_rows(
        p.paths().size(), 2 * p.num_events(),
        [&](size_t i) {
            const PathNode& n = p.paths()[i];
            return Row{n.parent ? n.parent->value : UINT64_MAX, n.fn ? n.fn->value : UINT64_MAX,
                       n.count};
        },
        // Self and inclusive costs are adjacent in the model.
        [&](size_t i) { return p.path_self(i); });
}

inline std::vector<Row> line_rows(const Profile& p)
{
    return cost_rows(
        p.lines().size(), p.num_events(),
        [&](size_t i) {
            const LineCost& l = p.lines()[i];
            return Row{l.fn.value, l.file.value, l.line};
        },
        [&](size_t i) { return p.line_cost(i); });
}

inline std::vector<Row> instr_rows(const Profile& p)
{
    return cost_rows(
        p.instrs().size(), p.num_events(),
        [&](size_t i) {
            const InstrCost& c = p.instrs()[i];
            return Row{c.addr, c.fn.value, c.file.value, c.line};
        },
        [&](size_t i) { return p.instr_cost(i); });
}

// [fn, parent (UINT64_MAX: none), file, line]
inline std::vector<Row> inlined_call_rows(const Profile& p)
{
    std::vector<Row> rows;
    for (const InlinedCall& c : p.inlined_calls())
        rows.push_back(Row{c.fn.value, c.parent ? *c.parent : UINT64_MAX, c.file.value, c.line});
    return rows;
}

inline std::vector<Row> inlined_line_rows(const Profile& p)
{
    return cost_rows(
        p.inlined_lines().size(), p.num_events(),
        [&](size_t i) {
            const InlinedLine& l = p.inlined_lines()[i];
            return Row{l.fn.value, l.inl, l.file.value, l.line};
        },
        [&](size_t i) { return p.inlined_line_cost(i); });
}

inline void expect_same_meta(const Meta& a, const Meta& b)
{
    EXPECT_EQ(a.version, b.version);
    EXPECT_EQ(std::tie(a.tool, a.tool_version, a.valgrind), std::tie(b.tool, b.tool_version, b.valgrind));
    EXPECT_EQ(a.argv, b.argv);
    EXPECT_EQ(a.options, b.options);
    ASSERT_EQ(a.fingerprint.has_value(), b.fingerprint.has_value());
    if (a.fingerprint) {
        EXPECT_EQ(a.fingerprint->cwd, b.fingerprint->cwd);
        EXPECT_EQ(a.fingerprint->env_bytes, b.fingerprint->env_bytes);
        EXPECT_EQ(a.fingerprint->env, b.fingerprint->env);
        EXPECT_EQ(a.fingerprint->valgrind_options, b.fingerprint->valgrind_options);
    }
    EXPECT_EQ(a.events, b.events);
    EXPECT_EQ(a.totals, b.totals);
    EXPECT_EQ(a.cache.has_value(), b.cache.has_value());
    if (a.cache && b.cache) {
        const auto geometry = [](const std::optional<CacheGeometry>& g) {
            return g ? Row{g->size, g->assoc, g->line_size} : Row{};
        };
        EXPECT_EQ(geometry(a.cache->i1), geometry(b.cache->i1));
        EXPECT_EQ(geometry(a.cache->d1), geometry(b.cache->d1));
        EXPECT_EQ(geometry(a.cache->ll), geometry(b.cache->ll));
        EXPECT_EQ(a.cache->branches, b.cache->branches);
    }
    EXPECT_EQ(a.exit_code, b.exit_code);
    EXPECT_EQ(a.killed, b.killed);
    EXPECT_EQ(a.signal, b.signal);
    EXPECT_EQ(a.dump_number, b.dump_number);
    EXPECT_EQ(a.dump_label, b.dump_label);
    EXPECT_EQ(std::tie(a.pid, a.ppid, a.elapsed_ms), std::tie(b.pid, b.ppid, b.elapsed_ms));
    ASSERT_EQ(a.merged.size(), b.merged.size());
    for (size_t i = 0; i < a.merged.size(); ++i) {
        const MergedRun &x = a.merged[i], &y = b.merged[i];
        EXPECT_EQ(std::tie(x.argv, x.options, x.totals, x.exit_code, x.killed, x.signal,
                           x.dump_number, x.dump_label),
                  std::tie(y.argv, y.options, y.totals, y.exit_code, y.killed, y.signal,
                           y.dump_number, y.dump_label))
            << "meta.merged[" << i << "]";
    }
}

// A heap as rows: its depth and totals, then its frames, sites (frames,
// figures, then the per-offset counts), timeline and snapshots.
inline std::vector<Row> heap_rows(const Heap& h)
{
    const HeapTotals& t = h.totals;
    std::vector<Row> rows = {{h.depth, h.sample_width},
                             {t.bytes, t.blocks, t.peak_bytes, t.peak_blocks, t.peak_time,
                              t.end_bytes, t.end_blocks, t.end_time, t.reads, t.writes}};
    for (const HeapFrame& f : h.frames)
        rows.push_back({f.addr, f.fn.value, f.file.value, f.line});
    for (const HeapSite& s : h.sites) {
        Row frames, figures = {s.bytes,      s.blocks,      s.lifetimes, s.max_bytes,
                               s.max_blocks, s.peak_bytes,  s.peak_blocks, s.end_bytes,
                               s.end_blocks, s.reads,       s.writes};
        for (FrameId f : s.frames)
            frames.push_back(f.value);
        rows.push_back(frames);
        rows.push_back(figures);
        rows.push_back(Row(s.accesses.begin(), s.accesses.end()));
    }
    for (const HeapSample& sample : h.samples)
        rows.push_back({sample.time, sample.bytes, sample.blocks});
    for (const HeapSnapshot& sn : h.snapshots) {
        Row row = {uint64_t(sn.kind), sn.time, sn.bytes, sn.blocks};
        for (const SnapshotSite& site : sn.sites)
            row.insert(row.end(), {site.site.value, site.bytes, site.blocks});
        rows.push_back(row);
    }
    return rows;
}

// A timeline as rows: its figures, its bounds, each span with its costs,
// then each mark (its label compared apart).
inline std::vector<Row> timeline_rows(const Profile& p)
{
    const Timeline& t = *p.timeline();
    const auto moment = [](const TimelineMoment& m) {
        Row row = {m.time, m.live_bytes, m.live_blocks};
        row.insert(row.end(), m.totals.begin(), m.totals.end());
        return row;
    };
    std::vector<Row> rows = {{t.threshold, t.max_spans, t.dropped, t.marks_dropped},
                             moment(t.begin), moment(t.end)};
    for (size_t i = 0; i < t.spans.size(); ++i) {
        const TimelineSpan& s = t.spans[i];
        Row row = {s.thread, s.depth, s.fn.value, s.node.value, s.start, s.end, s.open};
        row.insert(row.end(), p.span_cost(i), p.span_cost(i) + p.num_events());
        rows.push_back(row);
    }
    for (const TimelineMark& m : t.marks) {
        Row row = moment(m);
        row.push_back(m.thread);
        rows.push_back(row);
    }
    return rows;
}

inline std::vector<std::string> mark_labels(const Timeline& t)
{
    std::vector<std::string> labels;
    for (const TimelineMark& m : t.marks)
        labels.push_back(m.label);
    return labels;
}

inline void expect_same_profile(const Profile& a, const Profile& b)
{
    expect_same_meta(a.meta(), b.meta());
    EXPECT_EQ(a.strs(), b.strs());
    const auto ids = [](const std::vector<StrId>& table) {
        Row row;
        for (StrId id : table)
            row.push_back(id.value);
        return row;
    };
    EXPECT_EQ(ids(a.objs()), ids(b.objs()));
    EXPECT_EQ(ids(a.files()), ids(b.files()));
    const auto fns = [](const Profile& p) {
        std::vector<Row> rows;
        for (const Function& f : p.functions())
            rows.push_back(Row{f.name.value, f.file.value, f.obj.value, f.line, f.inlined});
        return rows;
    };
    EXPECT_EQ(fns(a), fns(b));
    EXPECT_EQ(line_rows(a), line_rows(b));
    EXPECT_EQ(instr_rows(a), instr_rows(b));
    EXPECT_EQ(inlined_call_rows(a), inlined_call_rows(b));
    EXPECT_EQ(inlined_line_rows(a), inlined_line_rows(b));
    EXPECT_EQ(a.has_call_graph(), b.has_call_graph());
    EXPECT_EQ(call_rows(a.call_graph()), call_rows(b.call_graph()));
    EXPECT_EQ(inclusive_rows(a.call_graph()), inclusive_rows(b.call_graph()));
    EXPECT_EQ(path_rows(a), path_rows(b));
    EXPECT_EQ(a.has_thread_graphs(), b.has_thread_graphs());
    ASSERT_EQ(a.threads().size(), b.threads().size());
    for (size_t i = 0; i < a.threads().size(); ++i) {
        const ThreadGraph &x = a.threads()[i], &y = b.threads()[i];
        EXPECT_EQ(x.tid, y.tid);
        EXPECT_EQ(call_rows(x), call_rows(y)) << "tid " << x.tid;
        EXPECT_EQ(inclusive_rows(x), inclusive_rows(y)) << "tid " << x.tid;
        Row xr, yr;
        for (PathId r : x.roots)
            xr.push_back(r.value);
        for (PathId r : y.roots)
            yr.push_back(r.value);
        EXPECT_EQ(xr, yr) << "tid " << x.tid;
    }
    ASSERT_EQ(a.heap() != nullptr, b.heap() != nullptr);
    if (a.heap()) {
        EXPECT_EQ(heap_rows(*a.heap()), heap_rows(*b.heap()));
    }
    ASSERT_EQ(a.timeline() != nullptr, b.timeline() != nullptr);
    if (a.timeline()) {
        EXPECT_EQ(timeline_rows(a), timeline_rows(b));
        EXPECT_EQ(mark_labels(*a.timeline()), mark_labels(*b.timeline()));
    }
}

} // namespace vgprof::test

#endif
