// SPDX-License-Identifier: GPL-2.0-or-later
// What the heap allocated and freed in each stretch of the run, from its
// record of each site's changes (heap.changes, format version 11): the
// Timeline view's allocations track, heaptrack's "allocations over time".
// A change is counted in the stretch its row's time falls in: exact when
// the record's stretches are one instruction wide, else to the nearest
// stretch of the record.
#ifndef VGPROF_VIEWER_HEAP_ALLOCATIONS_HPP
#define VGPROF_VIEWER_HEAP_ALLOCATIONS_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <vector>

namespace vgprof::viewer {

struct AllocationBucket {
    uint64_t bytes = 0, blocks = 0;              // allocated
    uint64_t freed_bytes = 0, freed_blocks = 0;
};

// Every site's rows in time order (sites merged): built once per profile.
class HeapAllocations {
public:
    explicit HeapAllocations(const HeapChanges& changes);

    // [t0, t1) cut into `buckets` equal parts (t0 < t1, buckets >= 1).
    std::vector<AllocationBucket> per_bucket(uint64_t t0, uint64_t t1, size_t buckets) const;

private:
    std::vector<HeapChange> rows_;   // by time
};

} // namespace vgprof::viewer

#endif
