// SPDX-License-Identifier: GPL-2.0-or-later
// The flame graph (drawn as an icicle, roots on top): one box per node of
// the profile's call-path tree, and per frame of an inlined function the
// call tree shows (inlined_frames.hpp), as wide as its inclusive cost of
// the chosen event, under its caller or the function it was inlined into.
// Zooming to a node makes it the full width, its callers above it drawn
// full width too so the way back stays in view. Subtrees narrower than a
// pixel are left out: they cannot be seen, and a large program has
// millions of them.
#ifndef VGPROF_VIEWER_FLAME_GRAPH_HPP
#define VGPROF_VIEWER_FLAME_GRAPH_HPP

#include "document.hpp"
#include "inlined_frames.hpp"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace vgprof::viewer {

// The tree the flame graph draws for one event: the path tree with the
// inlined functions' frames, numbered as InlinedFrames numbers them (a
// path node by its PathId's value, then the frames added).
class FlameTree {
public:
    // `inlined`: with the inlined functions' own costs, as the call tree
    // has them (not in diff mode, where both profiles' costs are counted
    // as recorded).
    FlameTree(const Document& doc, size_t event, bool inlined);

    const Document& doc() const { return doc_; }
    size_t event() const { return event_; }
    std::optional<PathId> path(uint32_t node) const;
    // Its function; nullopt for [truncated].
    std::optional<FnId> fn(uint32_t node) const;
    std::optional<uint32_t> parent(uint32_t node) const;
    std::vector<uint32_t> children(uint32_t node) const;
    uint64_t inclusive(uint32_t node) const;
    uint64_t self(uint32_t node) const;

private:
    uint64_t of(const std::unordered_map<uint32_t, uint64_t>& costs, uint32_t node) const;

    const Document& doc_;
    size_t event_;
    InlinedFrames frames_;
    std::unordered_map<uint32_t, uint64_t> gained_;  // own cost moved to a frame
    std::unordered_map<uint32_t, uint64_t> lost_;    // own cost moved from a host to its frames
    std::unordered_map<uint32_t, uint64_t> below_;   // own cost moved to a frame at or below a node
    std::unordered_map<uint32_t, std::vector<uint32_t>> added_children_;
};

struct FlameBox {
    // The node of the FlameTree; nullopt for the "all" box above the roots.
    std::optional<uint32_t> node;
    std::optional<PathId> path;  // the path node, when the node is one
    std::optional<FnId> fn;      // nullopt for "all" and [truncated]
    int depth = 0;               // row, 0 at the top ("all")
    double x0 = 0, x1 = 0;       // fractions of the width, 0 <= x0 < x1 <= 1
    uint64_t value = 0;          // inclusive cost of the event
    uint64_t self = 0;           // own cost of the event
    bool above_zoom = false;     // a caller of the zoomed node, drawn full width
};

struct FlameGraph {
    std::vector<FlameBox> boxes;  // parents before their children
    int depth = 0;                // rows used
    uint64_t width_value = 0;     // the cost the full width stands for
};

// The flame graph of `tree`, zoomed to its node `zoom` (nullopt: the whole
// program), leaving out boxes narrower than `min_width` (a fraction of the
// width). Children are ordered most expensive first, then by node.
FlameGraph build_flame_graph(const FlameTree& tree, std::optional<uint32_t> zoom, double min_width);
// The same of `doc`'s tree of `event` with its inlined frames.
FlameGraph build_flame_graph(const Document& doc, size_t event, std::optional<uint32_t> zoom,
                             double min_width);

} // namespace vgprof::viewer

#endif
