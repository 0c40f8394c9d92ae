// SPDX-License-Identifier: GPL-2.0-or-later
// The heap's live bytes over time read exactly from its changes
// (heap.changes, format version 11): each site's running live bytes and
// blocks, and their sum, as steps. Built once per profile, so that the
// chart, its tooltip and the flame graph's moment read any instant by a
// binary search rather than a pass over every row.
//
// A row's change counts from its time on: with stretches 1 instruction
// wide, a block allocated at 300 and freed at 1200 is live from 300 up to
// 1199. With wider stretches a row is the net change of its stretch
// [time, time + width), drawn at the stretch's start: exact at the
// stretches' edges only.
#ifndef VGPROF_VIEWER_HEAP_STEPS_HPP
#define VGPROF_VIEWER_HEAP_STEPS_HPP

#include "vgprof/profile.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace vgprof::viewer {

// Live figures from `time` until the next step.
struct LiveStep {
    uint64_t time = 0;
    uint64_t bytes = 0, blocks = 0;
};

class HeapSteps {
public:
    // `heap` must have changes.
    explicit HeapSteps(const Heap& heap);

    uint64_t width() const { return width_; }
    size_t site_count() const { return sites_.size(); }

    // What was live at `time` (every row at or before it counted), in all
    // and at one site; the step's time is `time`.
    LiveStep total_at(uint64_t time) const;
    LiveStep site_at(SiteId site, uint64_t time) const;
    // Every step of the total (equal times merged), in time order; the
    // figures before the first are start().
    const std::vector<LiveStep>& total() const { return total_; }
    LiveStep start() const { return start_; }

    // The most each site held in [t0, t1): at t0 or after a change within.
    std::vector<uint64_t> most_in(uint64_t t0, uint64_t t1) const;
    // The sites live at `time`, the largest first (ties by the lower id), at
    // most `n` of them: (bytes, site).
    std::vector<std::pair<uint64_t, SiteId>> largest_at(uint64_t time, size_t n) const;

private:
    struct Site {
        LiveStep start;               // before its first row
        size_t first = 0, last = 0;   // its steps in steps_
    };
    static LiveStep at(const LiveStep& start, const LiveStep* first, const LiveStep* last, uint64_t time);

    uint64_t width_ = 1;
    std::vector<Site> sites_;
    std::vector<LiveStep> steps_;   // each site's, in the order of the rows
    std::vector<LiveStep> total_;
    LiveStep start_;
};

} // namespace vgprof::viewer

#endif
