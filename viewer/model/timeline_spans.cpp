// SPDX-License-Identifier: GPL-2.0-or-later
// How the timeline's spans nest, and the boxes a row shows
// (timeline_spans.hpp).
#include "timeline_spans.hpp"

#include "vgprof/timeline.hpp"

#include <cmath>
#include <map>
#include <numeric>

namespace vgprof::viewer {

SpanTree::SpanTree(const Timeline& timeline, size_t num_events) : timeline_(&timeline), events_(num_events)
{
    const std::vector<TimelineSpan>& spans = timeline.spans;
    const size_t n = spans.size();
    // A caller starts no later than its callees and is less deep; the
    // spans were written in the order they ended, callees first.
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const TimelineSpan &x = spans[a], &y = spans[b];
        if (x.thread != y.thread)
            return x.thread < y.thread;
        return entered_before(x, y);
    });

    parent_.assign(n, kNone);
    level_.assign(n, 0);
    recursive_.assign(n, false);
    uint32_t max_fn = 0;
    for (const TimelineSpan& s : spans)
        max_fn = std::max(max_fn, s.fn.value);
    std::vector<uint32_t> on_stack(n ? size_t(max_fn) + 1 : 0, 0);  // spans of each function held open
    std::vector<uint32_t> stack;
    std::map<uint32_t, size_t> lane_of;
    const auto pop = [&] {
        --on_stack[spans[stack.back()].fn.index()];
        stack.pop_back();
    };
    for (size_t k = 0; k < n; ++k) {
        const uint32_t i = order[k];
        const TimelineSpan& s = spans[i];
        const auto holds = [&](uint32_t outer) {
            const TimelineSpan& o = spans[outer];
            return o.thread == s.thread && o.end >= s.end && o.depth < s.depth;
        };
        while (!stack.empty() && !holds(stack.back()))
            pop();
        if (!stack.empty())
            parent_[i] = stack.back();
        level_[i] = uint32_t(stack.size());
        recursive_[i] = on_stack[s.fn.index()] > 0;
        ++on_stack[s.fn.index()];
        stack.push_back(i);

        const auto [lane, added] = lane_of.emplace(s.thread, lanes_.size());
        if (added)
            lanes_.push_back(Lane{s.thread, {}});
        std::vector<std::vector<uint32_t>>& rows = lanes_[lane->second].rows;
        if (rows.size() <= level_[i])
            rows.resize(level_[i] + 1);
        rows[level_[i]].push_back(i);
    }
    std::sort(lanes_.begin(), lanes_.end(), [](const Lane& a, const Lane& b) { return a.thread < b.thread; });

    // Each span's callees, in the order they started.
    child_start_.assign(n + 1, 0);
    for (size_t i = 0; i < n; ++i)
        if (parent_[i] != kNone)
            ++child_start_[parent_[i] + 1];
    for (size_t i = 0; i < n; ++i)
        child_start_[i + 1] += child_start_[i];
    children_.resize(child_start_[n]);
    std::vector<uint32_t> next(child_start_.begin(), child_start_.end() - 1);
    for (uint32_t i : order)
        if (parent_[i] != kNone)
            children_[next[parent_[i]]++] = i;

    self_.assign(timeline.span_costs.begin(), timeline.span_costs.begin() + ptrdiff_t(n * events_));
    own_time_.assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
        if (parent_[i] != kNone)
            for (size_t e = 0; e < events_; ++e) {
                uint64_t& up = self_[parent_[i] * events_ + e];
                up -= std::min(up, timeline.span_costs[i * events_ + e]);
            }
        for_each_own_piece(i, [&](uint64_t from, uint64_t to) { own_time_[i] += to - from; });
    }
}

std::vector<SpanBox> visible_boxes(const Timeline& timeline, const std::vector<uint32_t>& row, uint64_t t0,
                                   uint64_t t1, double pixels)
{
    std::vector<SpanBox> boxes;
    if (t1 <= t0 || pixels <= 0)
        return boxes;
    const std::vector<TimelineSpan>& spans = timeline.spans;
    const double per_pixel = double(t1 - t0) / pixels;
    // The row's spans do not overlap, so their ends rise with their starts.
    size_t i = size_t(std::partition_point(row.begin(), row.end(),
                                           [&](uint32_t s) { return spans[s].end <= t0; }) -
                      row.begin());
    const auto narrow = [&](uint32_t s) { return double(spans[s].end - spans[s].start) < per_pixel; };
    while (i < row.size() && spans[row[i]].start < t1) {
        const TimelineSpan& s = spans[row[i]];
        if (!narrow(row[i])) {
            boxes.push_back(SpanBox{s.start, s.end, row[i], 1});
            ++i;
            continue;
        }
        // The pixel this narrow span starts in; every narrow span that
        // starts before its right edge goes in one box.
        const double from = s.start > t0 ? double(s.start - t0) : 0.0;
        const double edge = (std::floor(from / per_pixel) + 1) * per_pixel;
        const uint64_t edge_time = t0 + uint64_t(std::ceil(edge));
        size_t j = size_t(std::partition_point(row.begin() + ptrdiff_t(i), row.end(),
                                               [&](uint32_t x) { return spans[x].start < edge_time; }) -
                          row.begin());
        while (j > i + 1 && !narrow(row[j - 1]))
            --j;
        boxes.push_back(SpanBox{s.start, spans[row[j - 1]].end, row[i], uint32_t(j - i)});
        i = j;
    }
    return boxes;
}

} // namespace vgprof::viewer
