// SPDX-License-Identifier: GPL-2.0-or-later
// The timeline's spans (vgprof::Timeline) as the Timeline view reads them:
// how they nest (each span's caller among the spans kept, on its thread),
// each span's own cost and own time (what its kept callees do not cover),
// one lane per thread with a row per nesting level, and the boxes a row
// needs at a given zoom, spans narrower than a pixel folded together so
// that 100,000 spans draw as fast as a hundred.
#ifndef VGPROF_VIEWER_TIMELINE_SPANS_HPP
#define VGPROF_VIEWER_TIMELINE_SPANS_HPP

#include "vgprof/profile.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace vgprof::viewer {

class SpanTree {
public:
    static constexpr uint32_t kNone = ~uint32_t(0);

    // The lanes of one thread: rows[level] holds the spans at that
    // nesting level, in the order they started (they never overlap).
    struct Lane {
        uint32_t thread = 0;
        std::vector<std::vector<uint32_t>> rows;
    };

    SpanTree() = default;
    // `num_events`: the costs per span in timeline.span_costs.
    SpanTree(const Timeline& timeline, size_t num_events);

    const Timeline& timeline() const { return *timeline_; }
    size_t num_events() const { return events_; }
    size_t size() const { return parent_.size(); }

    // The innermost kept span of the same thread that holds span `i` (its
    // caller, or a caller further up when the ones between were dropped),
    // or kNone.
    uint32_t parent(size_t i) const { return parent_[i]; }
    // Spans above it on its thread: 0 for a thread's outermost.
    uint32_t level(size_t i) const { return level_[i]; }
    // Whether a span of the same function holds it (a recursive call,
    // whose cost its outer call's inclusive cost already counts).
    bool recursive(size_t i) const { return recursive_[i]; }
    // The kept callees of span `i`, in the order they started.
    const uint32_t* children_begin(size_t i) const { return children_.data() + child_start_[i]; }
    const uint32_t* children_end(size_t i) const { return children_.data() + child_start_[i + 1]; }
    // Its cost of `event` less its kept callees' (never below 0): its own
    // instructions and those of the calls too short to keep.
    uint64_t self(size_t i, size_t event) const { return self_[i * events_ + event]; }
    // Its time less its kept callees' time.
    uint64_t own_time(size_t i) const { return own_time_[i]; }

    const std::vector<Lane>& lanes() const { return lanes_; }

    // Calls f(from, to) for each stretch [from, to) of span i's own time,
    // in time order: the gaps between its kept callees.
    template <typename F>
    void for_each_own_piece(size_t i, F f) const
    {
        const TimelineSpan& s = timeline_->spans[i];
        uint64_t at = s.start;
        for (const uint32_t* c = children_begin(i); c != children_end(i); ++c) {
            const TimelineSpan& child = timeline_->spans[*c];
            if (child.start > at)
                f(at, child.start);
            at = std::max(at, child.end);
        }
        if (s.end > at)
            f(at, s.end);
    }

private:
    const Timeline* timeline_ = nullptr;
    size_t events_ = 0;
    std::vector<uint32_t> parent_, level_;
    std::vector<bool> recursive_;
    std::vector<uint32_t> child_start_, children_;
    std::vector<uint64_t> self_, own_time_;
    std::vector<Lane> lanes_;
};

// A box of a row: one span, or `count` spans narrower than a pixel folded
// into one (span: the first of them).
struct SpanBox {
    uint64_t t0 = 0, t1 = 0;
    uint32_t span = 0;
    uint32_t count = 1;
};

// The boxes of `row` (span indices in start order, not overlapping) that
// show in [t0, t1) drawn `pixels` wide. A span at least a pixel wide is a
// box of its own; the spans starting within one pixel that are each
// narrower than it are one box.
std::vector<SpanBox> visible_boxes(const Timeline& timeline, const std::vector<uint32_t>& row,
                                   uint64_t t0, uint64_t t1, double pixels);

} // namespace vgprof::viewer

#endif
