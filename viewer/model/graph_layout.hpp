// SPDX-License-Identifier: GPL-2.0-or-later
// Placing the call graph's boxes and routing its edges with Graphviz's dot
// layout: callers above, callees below, one rank per level. Sizes go in and
// positions come out in pixels, y growing downwards, so the view only
// draws. Edge labels are placed afterwards (graph_labels.hpp).
#ifndef VGPROF_VIEWER_GRAPH_LAYOUT_HPP
#define VGPROF_VIEWER_GRAPH_LAYOUT_HPP

#include "call_neighbourhood.hpp"

#include <string>
#include <vector>

namespace vgprof::viewer {

struct Point {
    float x = 0, y = 0;
};

struct Box {
    Point centre;
    float width = 0, height = 0;
};

struct EdgeRoute {
    // A cubic B-spline as dot gives it: a start point then groups of three
    // control points; arrow_end is where the arrowhead's tip goes.
    std::vector<Point> spline;
    Point arrow_end;
    Point label_centre;  // the middle of the curve
};

struct GraphLayout {
    std::vector<Box> nodes;        // as Neighbourhood::nodes
    std::vector<EdgeRoute> edges;  // as Neighbourhood::edges
    float width = 0, height = 0;   // of the whole drawing
};

// What the layout needs to know besides the graph: the size of each box in
// pixels.
struct LayoutInput {
    std::vector<Point> node_sizes;   // x: width, y: height
};

// Lays out `graph`. Throws vgprof::Error when Graphviz fails (its message
// included). Not thread-safe: Graphviz keeps global state.
GraphLayout layout_graph(const Neighbourhood& graph, const LayoutInput& sizes);

} // namespace vgprof::viewer

#endif
