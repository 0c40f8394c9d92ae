// SPDX-License-Identifier: GPL-2.0-or-later
// The frames of inlined functions below the call-path tree's nodes, with
// their own costs, where the profile says exactly what those are: the one
// place the call tree, bottom-up, sandwich and flame graph take them from,
// so that they agree on every inlined function's costs.
//
// The path tree charges inlined code to the node of the function it was
// inlined into (its host) and hangs the calls made from inlined code below
// a node of the inlined function; the profile's inline_lines split the
// host's code by inlined call over all its stacks together, not stack by
// stack. The split is the host node's when the host is on one stack only,
// none of its code ran off that stack (its inclusive cost is the node's),
// and the node's own cost holds all of its code's. There each inlined
// call's code goes to a frame of its inlined function (the chain of
// inlined calls below the host: a path node where the path tree has one,
// one added here where it has none), taken from the host's own cost.
// Elsewhere the host keeps it all, as recorded.
#ifndef VGPROF_VIEWER_INLINED_FRAMES_HPP
#define VGPROF_VIEWER_INLINED_FRAMES_HPP

#include "document.hpp"

#include <cstdint>
#include <vector>

namespace vgprof::viewer {

// Nodes are numbered as the path tree's (a PathId's value) and, from
// `first_added` (the profile's path count) on, the frames added here.
struct InlinedFrames {
    struct Frame {
        uint32_t parent = 0;  // a node
        FnId fn;
    };
    // Own cost moved from a host's path node to a frame below it.
    struct Move {
        uint32_t host = 0, to = 0;  // nodes
        uint64_t cost = 0;
    };
    uint32_t first_added = 0;
    std::vector<Frame> added;  // node first_added + i; parents before children
    std::vector<Move> moves;   // one per row of inline_lines in a host that is split

    bool is_added(uint32_t node) const { return node >= first_added; }
    const Frame& frame(uint32_t node) const { return added[node - first_added]; }
};

// The frames of `doc`'s path nodes (those of its thread, for a thread's
// document) and the costs of `event` moved to them.
InlinedFrames inlined_frames(const Document& doc, size_t event);

} // namespace vgprof::viewer

#endif
