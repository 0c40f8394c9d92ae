// SPDX-License-Identifier: GPL-2.0-or-later
// The spans' costs over stretches of time (timeline_costs.hpp).
#include "timeline_costs.hpp"

#include <algorithm>
#include <cmath>

namespace vgprof::viewer {

namespace {

uint64_t overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
    const uint64_t from = std::max(a0, b0), to = std::min(a1, b1);
    return to > from ? to - from : 0;
}

// cost * part / whole without overflow; exact when part == whole.
uint64_t share(uint64_t cost, uint64_t part, uint64_t whole)
{
    if (part >= whole)
        return cost;
    return uint64_t((unsigned __int128)cost * part / whole);
}

bool of_thread(const TimelineSpan& s, std::optional<uint32_t> thread) { return !thread || s.thread == *thread; }

// The part of span i's own time inside [t0, t1). A span with no own time
// (its callees cover it) keeps its own cost at its start.
uint64_t own_time_inside(const SpanTree& tree, size_t i, uint64_t t0, uint64_t t1)
{
    if (tree.own_time(i) == 0) {
        const uint64_t at = tree.timeline().spans[i].start;
        return at >= t0 && at < t1 ? 1 : 0;
    }
    uint64_t inside = 0;
    tree.for_each_own_piece(i, [&](uint64_t from, uint64_t to) { inside += overlap(from, to, t0, t1); });
    return inside;
}

} // namespace

std::vector<double> cost_per_bucket(const SpanTree& tree, size_t event, uint64_t t0, uint64_t t1,
                                    size_t buckets, std::optional<uint32_t> thread)
{
    std::vector<double> out(buckets, 0.0);
    if (t1 <= t0 || buckets == 0 || event >= tree.num_events())
        return out;
    const double width = double(t1 - t0) / double(buckets);
    const auto bucket_of = [&](uint64_t t) {
        return std::min(buckets - 1, size_t(double(t - t0) / width));
    };
    // Spreads `cost` evenly over [from, to), clipped to the window.
    const auto spread = [&](double cost, uint64_t from, uint64_t to) {
        const uint64_t a = std::max(from, t0), b = std::min(to, t1);
        if (b <= a)
            return;
        const double per_instr = cost / double(to - from);
        for (size_t k = bucket_of(a); k < buckets; ++k) {
            const double k0 = double(t0) + double(k) * width, k1 = k0 + width;
            const double lo = std::max(double(a), k0), hi = std::min(double(b), k1);
            if (hi <= lo)
                break;
            out[k] += per_instr * (hi - lo);
        }
    };
    const std::vector<TimelineSpan>& spans = tree.timeline().spans;
    for (size_t i = 0; i < tree.size(); ++i) {
        const TimelineSpan& s = spans[i];
        const uint64_t self = tree.self(i, event);
        if (self == 0 || !of_thread(s, thread) || s.end < t0 || s.start >= t1)
            continue;
        if (tree.own_time(i) == 0) {
            if (s.start >= t0 && s.start < t1)
                out[bucket_of(s.start)] += double(self);
            continue;
        }
        const double per_own = double(self) / double(tree.own_time(i));
        tree.for_each_own_piece(i, [&](uint64_t from, uint64_t to) {
            spread(per_own * double(to - from), from, to);
        });
    }
    return out;
}

RangeCosts range_costs(const SpanTree& tree, size_t num_functions, uint64_t t0, uint64_t t1,
                       std::optional<uint32_t> thread)
{
    const size_t events = tree.num_events();
    RangeCosts r;
    r.t0 = t0;
    r.t1 = t1;
    r.thread = thread;
    r.total.assign(events, 0);
    r.functions.resize(num_functions);
    for (size_t f = 0; f < num_functions; ++f) {
        r.functions[f].fn = FnId(uint32_t(f));
        r.functions[f].self.assign(events, 0);
        r.functions[f].inclusive.assign(events, 0);
    }
    const std::vector<TimelineSpan>& spans = tree.timeline().spans;
    // Each span's cost inside the range, itself and then with what it
    // holds, callees before callers: a callee started later.
    std::vector<uint64_t> inside(tree.size() * events, 0);
    std::vector<bool> touched(num_functions, false);
    for (size_t i = 0; i < tree.size(); ++i) {
        const TimelineSpan& s = spans[i];
        if (!of_thread(s, thread) || s.fn.index() >= num_functions)
            continue;
        if (overlap(s.start, std::max(s.end, s.start + 1), t0, t1) > 0)
            touched[s.fn.index()] = true;
        const uint64_t part = own_time_inside(tree, i, t0, t1);
        if (part == 0)
            continue;
        const uint64_t whole = std::max<uint64_t>(1, tree.own_time(i));
        for (size_t e = 0; e < events; ++e) {
            const uint64_t c = share(tree.self(i, e), part, whole);
            inside[i * events + e] = c;
            r.functions[s.fn.index()].self[e] += c;
            r.total[e] += c;
        }
    }
    std::vector<uint32_t> by_start(tree.size());
    for (uint32_t i = 0; i < by_start.size(); ++i)
        by_start[i] = i;
    std::sort(by_start.begin(), by_start.end(), [&](uint32_t a, uint32_t b) {
        return tree.level(a) > tree.level(b);  // the deepest first: callees before callers
    });
    for (uint32_t i : by_start) {
        const TimelineSpan& s = spans[i];
        if (!of_thread(s, thread) || s.fn.index() >= num_functions)
            continue;
        const uint32_t up = tree.parent(i);
        for (size_t e = 0; e < events; ++e) {
            const uint64_t c = inside[i * events + e];
            if (up != SpanTree::kNone)
                inside[size_t(up) * events + e] += c;
            if (!tree.recursive(i))
                r.functions[s.fn.index()].inclusive[e] += c;
        }
    }
    for (size_t f = 0; f < num_functions; ++f)
        if (touched[f])
            r.ran.push_back(FnId(uint32_t(f)));
    return r;
}

} // namespace vgprof::viewer
