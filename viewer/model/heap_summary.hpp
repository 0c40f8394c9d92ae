// SPDX-License-Identifier: GPL-2.0-or-later
// The heap's figures at a glance, as heaptrack's summary page gives them:
// the peak and when it came, what was never freed, how many allocations
// were temporary, how fast the program allocated, and the sites that lead
// each of those.
#ifndef VGPROF_VIEWER_HEAP_SUMMARY_HPP
#define VGPROF_VIEWER_HEAP_SUMMARY_HPP

#include "vgprof/profile.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vgprof::viewer {

struct HeapSummary {
    HeapTotals totals;
    // Temporary allocations: the blocks (and their bytes) of the sites
    // whose blocks lived fewer than vgprof::kShortLifetime instructions on
    // average, DHAT's "short-lived".
    uint64_t temporary_blocks = 0, temporary_bytes = 0;
    // Blocks allocated per million instructions executed (heap time is
    // counted in instructions); 0 for a run of no time.
    double blocks_per_million = 0;
    // The `top` leading sites of each, largest first (ties by site id),
    // sites with none left out.
    std::vector<SiteId> largest_at_peak, largest_leaks, most_blocks, most_temporary;
};

HeapSummary heap_summary(const Heap& heap, size_t top);

} // namespace vgprof::viewer

#endif
