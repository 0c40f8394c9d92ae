// SPDX-License-Identifier: GPL-2.0-or-later
// Adding up the heap summary.
#include "heap_summary.hpp"

#include "vgprof/heap.hpp"

#include <algorithm>

namespace vgprof::viewer {

namespace {

bool temporary(const HeapSite& s) { return s.blocks > 0 && average_lifetime(s) < kShortLifetime; }

// The `top` sites of largest `value`, leaving out those of 0.
template <typename Value>
std::vector<SiteId> leading(const Heap& heap, size_t top, Value value)
{
    std::vector<SiteId> ids;
    for (size_t i = 0; i < heap.sites.size(); ++i)
        if (value(heap.sites[i]) > 0)
            ids.push_back(SiteId(uint32_t(i)));
    std::stable_sort(ids.begin(), ids.end(),
                     [&](SiteId a, SiteId b) { return value(heap.site(a)) > value(heap.site(b)); });
    if (ids.size() > top)
        ids.resize(top);
    return ids;
}

} // namespace

HeapSummary heap_summary(const Heap& heap, size_t top)
{
    HeapSummary s;
    s.totals = heap.totals;
    for (const HeapSite& site : heap.sites)
        if (temporary(site)) {
            s.temporary_blocks += site.blocks;
            s.temporary_bytes += site.bytes;
        }
    // Over the period the figures cover (since the last zero or dump).
    if (heap.totals.end_time > heap.start_time)
        s.blocks_per_million = double(heap.totals.blocks) * 1e6 /
                               double(heap.totals.end_time - heap.start_time);
    s.largest_at_peak = leading(heap, top, [](const HeapSite& x) { return x.peak_bytes; });
    s.largest_leaks = leading(heap, top, [](const HeapSite& x) { return x.end_bytes; });
    s.most_blocks = leading(heap, top, [](const HeapSite& x) { return x.blocks; });
    s.most_temporary = leading(heap, top, [](const HeapSite& x) { return temporary(x) ? x.blocks : 0; });
    return s;
}

} // namespace vgprof::viewer
