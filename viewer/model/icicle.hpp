// SPDX-License-Identifier: GPL-2.0-or-later
// A merged tree laid out as a flame graph (an icicle: roots on one side,
// callees or callers stacked away from them): the boxes' rows and their
// extents as fractions of the width. The Sandwich view and the heap's
// allocation flame graph draw these.
#ifndef VGPROF_VIEWER_ICICLE_HPP
#define VGPROF_VIEWER_ICICLE_HPP

#include "merged_tree.hpp"

#include <cstdint>
#include <vector>

namespace vgprof::viewer {

struct IcicleBox {
    uint32_t node = 0;        // in the merged tree
    int depth = 0;            // row, 0 for the roots
    double x0 = 0, x1 = 0;    // fractions of the width
};

struct Icicle {
    std::vector<IcicleBox> boxes;  // parents before their children
    int depth = 0;                 // rows used
};

// The roots side by side across the width in proportion to their totals
// (of tree.total()), each node's children under it likewise, the most
// expensive first from the left. Nodes narrower than `min_width` (a
// fraction of the width) are left out, and are not opened, so the work
// follows what can be seen rather than the size of the tree.
Icicle layout_icicle(MergedTree& tree, double min_width, int max_depth = 512);

} // namespace vgprof::viewer

#endif
