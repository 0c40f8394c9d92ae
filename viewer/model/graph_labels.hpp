// SPDX-License-Identifier: GPL-2.0-or-later
// Where the call graph's edge labels go: each label beside its curve, at
// the first of several places along it (the middle first) where it
// overlaps no box and no label placed before it. Labels are placed most
// important first (the most expensive calls); one with no such place is
// left out rather than drawn over another.
#ifndef VGPROF_VIEWER_GRAPH_LABELS_HPP
#define VGPROF_VIEWER_GRAPH_LABELS_HPP

#include "graph_layout.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace vgprof::viewer {

struct LabelBox {
    Point centre;
    Point size;

    bool overlaps(const LabelBox& o, float gap = 0) const;
};

// The centre of each edge's label (as layout.edges), or nullopt for one
// left out. `sizes`: each label's width and height; `priority`: larger
// first.
std::vector<std::optional<Point>> place_labels(const GraphLayout& layout,
                                               const std::vector<Point>& sizes,
                                               const std::vector<uint64_t>& priority);

} // namespace vgprof::viewer

#endif
