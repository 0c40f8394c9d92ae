// SPDX-License-Identifier: GPL-2.0-or-later
// The heap chart: live bytes over instruction time stacked by the largest
// allocation sites, one band each and the rest as "other", as heaptrack's
// consumption chart stacks its top allocators; and the ticks of its axes.
//
// The outline is the profile's timeline, exact at every pixel (each pixel
// column's highest point). What the profile knows of each site over time
// is its place among the ten largest at each snapshot (a few spread over
// the run, the peak's and the end's), so a column is split between the
// sites in the shares they held at the snapshots, interpolated between
// them; exactly at a snapshot the bands are the snapshot's figures.
//
// A profile that records the heap's changes (format version 11) is drawn
// from them instead: the outline and every band are the exact running
// live bytes, as steps, each column read at its highest moment so that no
// peak is lost however many changes it holds.
#ifndef VGPROF_VIEWER_HEAP_CHART_HPP
#define VGPROF_VIEWER_HEAP_CHART_HPP

#include "heap_steps.hpp"

#include "vgprof/profile.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vgprof::viewer {

// Up to `count` sites given bands: those with the most bytes at any
// snapshot, largest first (ties by the lower id).
std::vector<SiteId> top_sites(const Heap& heap, size_t count);
// From the changes: those that held the most at any moment of [t0, t1).
std::vector<SiteId> top_sites(const HeapSteps& steps, size_t count, uint64_t t0, uint64_t t1);

struct ChartColumn {
    uint64_t t0 = 0, t1 = 0;
    uint64_t bytes = 0;               // the highest live bytes in [t0, t1)
    uint64_t blocks = 0;              // the highest live blocks in [t0, t1)
    std::vector<uint64_t> bands;      // bytes of each top site, as HeapChart::sites
    // From the changes: the first moment of the column's highest bytes, at
    // which the bands are read.
    uint64_t moment = 0;
    uint64_t other() const;           // bytes - the bands
};

struct HeapChart {
    std::vector<SiteId> sites;        // the sites with a band, bottom band first
    std::vector<ChartColumn> columns; // one per pixel
    uint64_t max_bytes = 0, max_blocks = 0;
    bool exact = false;               // drawn from the changes
};

// [t0, t1) cut into `columns` columns. A heap with changes is read from
// `steps` (of the same heap; built here when null).
HeapChart heap_chart(const Heap& heap, const std::vector<SiteId>& sites, uint64_t t0, uint64_t t1,
                     size_t columns, const HeapSteps* steps = nullptr);

// The share of the live bytes `site` held at `time`, from 0 to 1:
// interpolated between the snapshots around it (the first snapshot's
// before it, the last's after it); 0 where the site was not among a
// snapshot's largest.
double site_share(const Heap& heap, SiteId site, uint64_t time);

// Round values from `lo` to `hi` for an axis, about `count` of them: the
// multiples in [lo, hi] of a step of 1, 2 or 5 times a power of ten.
std::vector<uint64_t> axis_ticks(uint64_t lo, uint64_t hi, size_t count);

} // namespace vgprof::viewer

#endif
