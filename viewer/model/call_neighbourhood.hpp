// SPDX-License-Identifier: GPL-2.0-or-later
// What the Call graph view shows: the selected function, its callers up to
// N levels above and its callees up to N levels below. Each level keeps its
// most expensive functions only, so the graph stays readable whatever the
// program; what was left out is counted so the view can say so.
//
// Which functions are callers and which are callees comes from the exact
// call-path tree when the profile has one: a caller at level -k is a
// function k frames above the selected one on a real stack, so a cycle in
// the call graph (through a `???` that stands for all of a library's
// unnamed code, say) cannot put one of its callees above it. A function
// can then be both a caller and a callee, and is shown on each side. A
// profile without paths (a callgrind file) has only the call edges to go
// by.
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
    // The function's inclusive and self cost of the event; an inlined
    // function's are those of its code (vgprof/inlined.hpp), which the
    // functions it was inlined into count as theirs too.
    uint64_t inclusive = 0;
    uint64_t self = 0;
    // Its callers (level < 0), callees (level > 0) or both (the centre)
    // that are not shown.
    size_t hidden = 0;
};

// Calls from nodes[from] to nodes[to], merged over call sites; or, with
// count 0, the code of nodes[to], an inlined function, inlined into that of
// nodes[from].
struct GraphEdge {
    size_t from = 0, to = 0;
    uint64_t count = 0;
    uint64_t cost = 0;        // inclusive cost of the event over those calls
};

struct Neighbourhood {
    std::vector<GraphNode> nodes;  // nodes[0] is the centre
    std::vector<GraphEdge> edges;  // ordered by (from, to)
    // Calls between two functions shown that are not drawn: beyond the cap
    // on calls between functions other than the centre, within a level or
    // back up, going from the callees' side back up to the callers', or
    // from the callers' side to the callees' past the centre.
    size_t edges_left_out = 0;
};

// The neighbourhood of `centre` for `event` (an event index), `depth`
// levels each way and at most `per_level` functions on a level, the most
// expensive by the cost that reaches the centre through them (callers) or
// that they cost under it (callees). A function appears at most once on
// each side, on the first level it was reached at. Edges are the calls
// between functions shown on one side, or to and from the centre: every
// call of the centre, the one call that links each other function to its
// level's neighbour towards the centre, then the most expensive others
// going down the graph, up to `extra_edges`.
Neighbourhood call_neighbourhood(const Document& doc, FnId centre, size_t event, int depth,
                                 size_t per_level, size_t extra_edges = 12);

} // namespace vgprof::viewer

#endif
