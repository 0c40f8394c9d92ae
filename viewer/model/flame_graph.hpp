// SPDX-License-Identifier: GPL-2.0-or-later
// The flame graph (drawn as an icicle, roots on top): one box per node of
// the profile's call-path tree, as wide as its inclusive cost of the chosen
// event, under its caller. Zooming to a node makes it the full width, its
// callers above it drawn full width too so the way back stays in view.
// Subtrees narrower than a pixel are left out: they cannot be seen, and a
// large program has millions of them.
#ifndef VGPROF_VIEWER_FLAME_GRAPH_HPP
#define VGPROF_VIEWER_FLAME_GRAPH_HPP

#include "document.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace vgprof::viewer {

struct FlameBox {
    // The path node; nullopt for the "all" box above the roots.
    std::optional<PathId> node;
    int depth = 0;            // row, 0 at the top ("all")
    double x0 = 0, x1 = 0;    // fractions of the width, 0 <= x0 < x1 <= 1
    uint64_t value = 0;       // inclusive cost of the event
    bool above_zoom = false;  // a caller of the zoomed node, drawn full width
};

struct FlameGraph {
    std::vector<FlameBox> boxes;  // parents before their children
    int depth = 0;                // rows used
    uint64_t width_value = 0;     // the cost the full width stands for
};

// The flame graph of `event`, zoomed to `zoom` (nullopt: the whole
// program), leaving out boxes narrower than `min_width` (a fraction of the
// width). Children are ordered most expensive first, then by path id.
FlameGraph build_flame_graph(const Document& doc, size_t event, std::optional<PathId> zoom,
                             double min_width);

} // namespace vgprof::viewer

#endif
