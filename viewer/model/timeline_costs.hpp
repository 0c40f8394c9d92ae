// SPDX-License-Identifier: GPL-2.0-or-later
// What the timeline's spans cost over stretches of time: the cost of an
// event in each pixel column of the Timeline view, and each function's
// self and inclusive costs within a range of time, which narrow the other
// views to it.
//
// A span's own cost (SpanTree::self) is spread evenly over its own time
// (SpanTree::own_time), the gaps between its kept callees. So the cost of
// any stretch that starts and ends on span boundaries (a span's start or
// end, or a mark, where spans start and end) is exact; within a span's own
// time the cost is an even share, as the profile does not say when within
// it the instructions ran. A span's time counts every thread's
// instructions and its cost only its own thread's, so with several threads
// running a thread's costs are spread over the others' turns too.
#ifndef VGPROF_VIEWER_TIMELINE_COSTS_HPP
#define VGPROF_VIEWER_TIMELINE_COSTS_HPP

#include "timeline_spans.hpp"

#include "vgprof/query.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace vgprof::viewer {

// A stretch [t0, t1) of the run's instruction clock.
struct TimeRange {
    uint64_t t0 = 0, t1 = 0;
    friend bool operator==(const TimeRange& a, const TimeRange& b) { return a.t0 == b.t0 && a.t1 == b.t1; }
};

// The cost of `event` in each of `buckets` equal parts of [t0, t1), over
// the spans of every thread (or of `thread` alone).
std::vector<double> cost_per_bucket(const SpanTree& tree, size_t event, uint64_t t0, uint64_t t1,
                                    size_t buckets, std::optional<uint32_t> thread = std::nullopt);

// The functions' costs within [t0, t1): self, what their spans' own time
// inside it cost; inclusive, what their spans and the spans they hold cost
// inside it (a recursive call's counted once, in its outermost call).
struct RangeCosts {
    uint64_t t0 = 0, t1 = 0;
    std::optional<uint32_t> thread;
    std::vector<FunctionCost> functions;  // by function id, num_functions of them
    std::vector<FnId> ran;                // the functions with a span in the range, by id
    std::vector<uint64_t> total;          // per event: the range's whole cost
};

RangeCosts range_costs(const SpanTree& tree, size_t num_functions, uint64_t t0, uint64_t t1,
                       std::optional<uint32_t> thread = std::nullopt);

} // namespace vgprof::viewer

#endif
