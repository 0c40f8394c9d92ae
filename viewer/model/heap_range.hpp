// SPDX-License-Identifier: GPL-2.0-or-later
// The heap's sites over a range of time: what each site held live at the
// range's start and at its end and how much it grew in between, the growth
// being what was allocated in the range and still live at its end, less
// what the range freed of what was live before it. The profile records the
// live bytes of the ten largest sites at each snapshot, so a range is read
// from the snapshots in force at its two ends (the last at or before each)
// and the sites among their largest; the range says which snapshots those
// are.
#ifndef VGPROF_VIEWER_HEAP_RANGE_HPP
#define VGPROF_VIEWER_HEAP_RANGE_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <vector>

namespace vgprof::viewer {

struct RangeSite {
    SiteId site;
    uint64_t at_start = 0, at_end = 0;  // live bytes
    uint64_t most = 0;    // the most live at a snapshot of the range, ends included
    int64_t growth() const;
};

struct HeapRange {
    uint64_t t0 = 0, t1 = 0;              // as asked
    const HeapSnapshot* start = nullptr;  // in force at t0; null: before the first
    const HeapSnapshot* end = nullptr;    // in force at t1; null: before the first
    size_t snapshots = 0;                 // snapshots from start to end, both included
    // Every site among the largest at a snapshot from start to end, the
    // most grown first (ties by site id).
    std::vector<RangeSite> sites;
};

HeapRange heap_range(const Heap& heap, uint64_t t0, uint64_t t1);

} // namespace vgprof::viewer

#endif
