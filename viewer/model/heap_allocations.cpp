// SPDX-License-Identifier: GPL-2.0-or-later
#include "heap_allocations.hpp"

#include <algorithm>

namespace vgprof::viewer {

HeapAllocations::HeapAllocations(const HeapChanges& changes) : rows_(changes.rows)
{
    std::stable_sort(rows_.begin(), rows_.end(),
                     [](const HeapChange& a, const HeapChange& b) { return a.time < b.time; });
}

std::vector<AllocationBucket> HeapAllocations::per_bucket(uint64_t t0, uint64_t t1, size_t buckets) const
{
    std::vector<AllocationBucket> out(buckets);
    if (t1 <= t0 || buckets == 0)
        return out;
    const long double width = (long double)(t1 - t0) / (long double)buckets;
    auto it = std::lower_bound(rows_.begin(), rows_.end(), t0,
                               [](const HeapChange& c, uint64_t t) { return c.time < t; });
    for (; it != rows_.end() && it->time < t1; ++it) {
        const size_t b = std::min(buckets - 1, size_t((long double)(it->time - t0) / width));
        AllocationBucket& o = out[b];
        o.bytes += it->bytes;
        o.blocks += it->blocks;
        o.freed_bytes += it->freed_bytes;
        o.freed_blocks += it->freed_blocks;
    }
    return out;
}

} // namespace vgprof::viewer
