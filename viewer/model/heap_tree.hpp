// SPDX-License-Identifier: GPL-2.0-or-later
// The heap's allocations as a call tree, for the allocation flame graph
// (heaptrack's): each site's stack from its outermost frame down to the
// call that asked for the memory (the allocator's own frames left out),
// the stacks merged by function, each site's figure at the innermost node.
// The figure is one of the site's: bytes or blocks allocated, bytes live
// at the program's peak, at the end (leaked), or at a moment of the run
// (read from the snapshot in force then, which lists the ten largest
// sites only).
#ifndef VGPROF_VIEWER_HEAP_TREE_HPP
#define VGPROF_VIEWER_HEAP_TREE_HPP

#include "call_tree.hpp"
#include "diff_link.hpp"

#include <cstdint>
#include <optional>

namespace vgprof::viewer {

enum class HeapMeasure { bytes, blocks, peak, leaked, at_time };

// "Bytes allocated", "Live at the peak"...
const char* heap_measure_name(HeapMeasure m);

// The tree of `measure` (`time`: for at_time). Node calls are blocks
// allocated. With `diff`, base costs are those of the base's site with the
// same stack (both profiles with heap data).
CallTree allocation_tree(const Profile& profile, HeapMeasure measure, uint64_t time,
                         const DiffLink* diff);

} // namespace vgprof::viewer

#endif
