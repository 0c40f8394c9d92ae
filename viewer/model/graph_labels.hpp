// SPDX-License-Identifier: GPL-2.0-or-later
// Where the call graph's edge labels go: each label beside its curve, at
// the first of several places along it (the middle first) where it
// overlaps no box and no label placed before it. Labels are placed most
// important first (the most expensive calls); one with no such place is
// left out rather than drawn over another. A box's note ("+3 callees") is
// placed before the labels, near its box, where it covers no box, no other
// note and no line if there is such a place: the calls a box makes leave
// from where its note would first go.
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

// A note to put by a box: `node` its box (as layout.nodes), `size` the
// note's width and height, `side` where it goes first: -1 above the box
// (a caller's), +1 below (a callee's), 0 beside it (the centre's).
struct BoxNote {
    size_t node = 0;
    Point size;
    int side = 0;
};

struct PlacedLabels {
    std::vector<std::optional<Point>> edges;  // each edge's label's centre, nullopt: left out
    std::vector<Point> notes;                 // each note's centre; every note is placed
};

// Places `notes` then the edges' labels. `sizes`: each edge label's width
// and height; `priority`: larger first.
PlacedLabels place_labels(const GraphLayout& layout, const std::vector<Point>& sizes,
                          const std::vector<uint64_t>& priority, const std::vector<BoxNote>& notes = {});

// Whether `label` covers any piece of the polyline `line`.
bool covers_line(const LabelBox& label, const std::vector<Point>& line);

} // namespace vgprof::viewer

#endif
