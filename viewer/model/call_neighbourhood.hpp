// SPDX-License-Identifier: GPL-2.0-or-later
// What the Call graph view shows: the selected function, its callers up to
// N levels above and its callees up to N levels below. Each level keeps its
// most expensive functions only, so the graph stays readable whatever the
// program; what was left out is counted so the view can say so.
#ifndef VGPROF_VIEWER_CALL_NEIGHBOURHOOD_HPP
#define VGPROF_VIEWER_CALL_NEIGHBOURHOOD_HPP

#include "document.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vgprof::viewer {

struct GraphNode {
    FnId fn;
    // 0: the centre; -k: a caller k calls above it; +k: a callee k below.
    int level = 0;
    uint64_t inclusive = 0;   // the function's inclusive cost of the event
    // Its callers (level < 0), callees (level > 0) or both (the centre)
    // that are not shown.
    size_t hidden = 0;
};

// Calls from nodes[from] to nodes[to], merged over call sites.
struct GraphEdge {
    size_t from = 0, to = 0;
    uint64_t count = 0;
    uint64_t cost = 0;        // inclusive cost of the event over those calls
};

struct Neighbourhood {
    std::vector<GraphNode> nodes;  // nodes[0] is the centre
    std::vector<GraphEdge> edges;  // ordered by (from, to)
};

// The neighbourhood of `centre` for `event` (an event index), `depth`
// levels each way and at most `per_level` functions on a level, the most
// expensive by the cost of the calls linking them to the level before. A
// function appears once, on the first level it was reached at (the centre
// wins over both sides, callers over callees); the edges are every call
// between two functions shown.
Neighbourhood call_neighbourhood(const Document& doc, FnId centre, size_t event, int depth,
                                 size_t per_level);

} // namespace vgprof::viewer

#endif
