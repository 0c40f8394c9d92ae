// SPDX-License-Identifier: GPL-2.0-or-later
// What the heap timeline asks of a profile's heap data (vgprof::Heap): live
// memory cut into one bucket per pixel column, the value and the largest
// sites at a moment, and the visible time window as it is zoomed and
// panned. Time is counted in instructions executed, as everywhere in vgprof.
#ifndef VGPROF_VIEWER_HEAP_TIMELINE_HPP
#define VGPROF_VIEWER_HEAP_TIMELINE_HPP

#include "vgprof/profile.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vgprof::viewer {

// One pixel column of the timeline: the least and most live bytes and
// blocks at any moment of [t0, t1).
struct TimelineBucket {
    uint64_t t0 = 0, t1 = 0;
    uint64_t min_bytes = 0, max_bytes = 0;
    uint64_t min_blocks = 0, max_blocks = 0;
};

// [t0, t1) cut into `buckets` equal parts, live memory read as a step
// function of the samples: a sample's figures hold until the next sample.
// A bucket also counts the value carried in from the last sample before
// it, so a bucket no sample falls in is flat, never empty. Before the
// first sample memory is 0.
std::vector<TimelineBucket> downsample(const std::vector<HeapSample>& samples, uint64_t t0,
                                       uint64_t t1, size_t buckets);

// Live memory at `time`: the last sample at or before it (zeros before any).
HeapSample live_at(const std::vector<HeapSample>& samples, uint64_t time);

// The snapshot in force at `time` (the last at or before it), or nullptr.
const HeapSnapshot* snapshot_at(const Heap& heap, uint64_t time);

// The visible part of [start, end] on the timeline.
class TimeWindow {
public:
    explicit TimeWindow(uint64_t end = 1) : TimeWindow(0, end) {}
    TimeWindow(uint64_t start, uint64_t end);

    uint64_t begin() const { return t0_; }
    uint64_t end() const { return t1_; }
    uint64_t span() const { return t1_ - t0_; }

    // Scales the span by `factor` (below 1 zooms in) keeping `center` where
    // it is on screen; never narrower than 16 instructions nor wider than
    // [start, end].
    void zoom(uint64_t center, double factor);
    // Moves by `delta` instructions, stopping at either end.
    void pan(int64_t delta);
    void show(uint64_t t0, uint64_t t1);
    void reset() { show(start_, limit_); }

private:
    uint64_t start_, limit_, t0_, t1_;
};

// The whole of what `heap` describes: the period from its start (the last
// zero or dump before it; 0, the start of the run, without one) to its
// end. A dump's figures are those of its period, so its chart starts
// there, not at the run's start.
TimeWindow heap_period(const Heap& heap);

} // namespace vgprof::viewer

#endif
