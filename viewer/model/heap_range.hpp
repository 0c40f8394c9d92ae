// SPDX-License-Identifier: GPL-2.0-or-later
// The heap's sites over a range of time: what each site held live at the
// range's start and at its end and how much it grew in between, the growth
// being what was allocated in the range and still live at its end, less
// what the range freed of what was live before it.
//
// A profile of format version 11 records what every site allocated and
// freed over time (heap.changes), so a range reads every site exactly, with
// what it allocated and freed within, at the edges of the record's
// stretches (one instruction wide unless the run was long). An older
// profile records the live bytes of the ten largest sites at each snapshot:
// its range is read from the snapshots in force at its two ends (the last
// at or before each) and the sites among their largest; the range says
// which snapshots those are.
#ifndef VGPROF_VIEWER_HEAP_RANGE_HPP
#define VGPROF_VIEWER_HEAP_RANGE_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <vector>

namespace vgprof::viewer {

struct RangeSite {
    SiteId site;
    uint64_t at_start = 0, at_end = 0;  // live bytes
    uint64_t most = 0;    // the most live at a snapshot (or a change) of the range, ends included
    // From the changes alone: allocated and freed in the range.
    uint64_t allocated_bytes = 0, allocated_blocks = 0, freed_bytes = 0;
    int64_t growth() const;
};

struct HeapRange {
    uint64_t t0 = 0, t1 = 0;              // as asked
    // Read from the changes: every site, exactly, between the stretches'
    // edges [exact_t0, exact_t1) around the range asked for.
    bool from_changes = false;
    uint64_t exact_t0 = 0, exact_t1 = 0, width = 0;
    const HeapSnapshot* start = nullptr;  // in force at t0; null: before the first
    const HeapSnapshot* end = nullptr;    // in force at t1; null: before the first
    size_t snapshots = 0;                 // snapshots from start to end, both included
    // Every site (from the changes), or every site among the largest at a
    // snapshot from start to end, the most grown first (ties: the most
    // allocated in the range, then by site id).
    std::vector<RangeSite> sites;
};

HeapRange heap_range(const Heap& heap, uint64_t t0, uint64_t t1);

} // namespace vgprof::viewer

#endif
