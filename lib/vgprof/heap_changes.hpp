// SPDX-License-Identifier: GPL-2.0-or-later
// What the heap's sites did within a range of time, from the profile's
// record of each site's changes (heap.changes, format version 11): what
// each site held live at the range's two edges and what it allocated and
// freed in between. Exact at the edges of the record's stretches; a range
// is widened to them. Shared by `vgprof report --timeline` and the
// viewer's heap views.
#ifndef VGPROF_HEAP_CHANGES_HPP
#define VGPROF_HEAP_CHANGES_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <vector>

namespace vgprof {

struct SiteInRange {
    SiteId site;
    uint64_t live_bytes_before = 0, live_blocks_before = 0;   // at t0
    uint64_t live_bytes_after = 0, live_blocks_after = 0;     // at t1
    uint64_t bytes = 0, blocks = 0;                           // allocated in [t0, t1)
    uint64_t freed_bytes = 0, freed_blocks = 0;               // freed in [t0, t1)
    // The most it held at t0 or at the end of a stretch within the range:
    // its highest point in the range when the stretches are 1 wide.
    uint64_t most_bytes = 0;
};

struct HeapInRange {
    // The range asked for, widened to the stretches' edges: [t0, t1).
    uint64_t t0 = 0, t1 = 0;
    // Every site that held anything at an edge or changed in between, in
    // the order of heap.sites.
    std::vector<SiteInRange> sites;
    // The sum of the sites, but for its site id and most_bytes (0): the
    // sites' highest points need not coincide.
    SiteInRange total;
};

// What happened in [t0, t1) (t0 <= t1), by site. Needs heap.changes.
HeapInRange heap_in_range(const Heap& heap, uint64_t t0, uint64_t t1);

} // namespace vgprof

#endif
