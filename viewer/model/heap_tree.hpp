// SPDX-License-Identifier: GPL-2.0-or-later
// The heap's allocations as a call tree, for the allocation flame graph
// (heaptrack's): each site's stack from its outermost frame down to the
// call that asked for the memory (the allocator's own frames left out),
// the stacks merged by function, each site's figure at the innermost node.
// The figure is one of the site's: bytes or blocks allocated, bytes live
// at the program's peak, at the end (leaked), or at a moment of the run.
//
// A profile that records the heap's changes (format version 11) reads the
// moment exactly for every site, and bytes or blocks allocated within a
// range of time; an older one reads the moment from the snapshot in force
// then, which lists the ten largest sites only, and has no figures of a
// range.
#ifndef VGPROF_VIEWER_HEAP_TREE_HPP
#define VGPROF_VIEWER_HEAP_TREE_HPP

#include "call_tree.hpp"
#include "diff_link.hpp"
#include "timeline_costs.hpp"

#include <cstdint>
#include <optional>

namespace vgprof::viewer {

enum class HeapMeasure { bytes, blocks, peak, leaked, at_time };

// "Bytes allocated", "Live at the peak"...
const char* heap_measure_name(HeapMeasure m);

// Whether `heap` has figures of `measure` within a range of time: bytes
// or blocks allocated, read from its changes.
bool measured_in_range(const Heap& heap, HeapMeasure measure);

// The tree of `measure` (`time`: for at_time; `range`: what was allocated
// in it, where measured_in_range). Node calls are blocks allocated. With
// `diff`, base costs are those of the base's site with the same stack
// (both profiles with heap data), of the range too where the base has
// changes.
CallTree allocation_tree(const Profile& profile, HeapMeasure measure, uint64_t time,
                         const DiffLink* diff, std::optional<TimeRange> range = std::nullopt);

} // namespace vgprof::viewer

#endif
