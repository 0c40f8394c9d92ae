// SPDX-License-Identifier: GPL-2.0-or-later
// A tree as the tree views show it, read from a CallTree: the call tree
// itself (top-down), the inverted tree (bottom-up: every function where the
// cost was spent, its callers under it), and one function's callers or
// callees merged over every place it was called from (the sandwich). The
// nodes under a node are the call tree's nodes grouped by function, and
// they are found only when the node is opened: a large program's inverted
// tree in full would be far larger than its call tree, and nobody opens
// more than a few hundred nodes of it.
#ifndef VGPROF_VIEWER_MERGED_TREE_HPP
#define VGPROF_VIEWER_MERGED_TREE_HPP

#include "call_tree.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <vector>

namespace vgprof::viewer {

class MergedTree {
public:
    static constexpr uint32_t kNone = UINT32_MAX;
    // The most cursors (call tree nodes followed) one expand_hottest or
    // expand_all adds.
    static constexpr size_t kExpandCursors = size_t(1) << 20;

    struct Node {
        uint32_t parent = kNone;
        NodeKey key;
        uint32_t depth = 0;
        uint64_t total = 0;      // the cost it stands for
        uint64_t self = 0;       // what of it was spent in the node's own code
        uint64_t calls = 0;      // calls along the paths it stands for
        uint64_t base_total = 0; // diff mode
        uint64_t base_self = 0;  // diff mode
        bool has_children = false;
        bool expanded = false;
    };

    // The call tree as it is: each node is one of `tree`'s.
    static MergedTree top_down(const CallTree& tree);
    // Each function (or collapsed library) where cost was spent, with the
    // cost spent there; under it the callers it was spent under, and so on.
    static MergedTree bottom_up(const CallTree& tree);
    // `key` at the root with its total over all its outermost calls; under
    // it, the callers those calls were made from (callers_of) or the
    // callees they made (callees_of), merged over every call.
    static MergedTree callers_of(const CallTree& tree, NodeKey key);
    static MergedTree callees_of(const CallTree& tree, NodeKey key);

    const std::vector<uint32_t>& roots() const { return roots_; }
    const Node& node(uint32_t id) const { return nodes_[id]; }
    size_t size() const { return nodes_.size(); }
    // The node's children, most expensive first, found on the first call.
    const std::vector<uint32_t>& children(uint32_t id);
    // What the roots add up to.
    uint64_t total() const { return total_; }

    std::vector<NodeKey> key_path(uint32_t id) const;
    // Follows `path` from the roots, finding children on the way.
    std::optional<uint32_t> find(const std::vector<NodeKey>& path);

    // Opening and closing nodes; rows() lists the nodes shown: the roots
    // and the children of every open node shown, depth first.
    void set_expanded(uint32_t id, bool open);
    // Opens the node and, from it, the most expensive child again and
    // again while that child holds at least `share` of the node it is
    // under; returns the last node opened to.
    uint32_t expand_hottest(uint32_t id, double share = 0.0);
    // Opens `id` and everything below it, up to `limit` nodes.
    void expand_all(uint32_t id, size_t limit);
    // Opens every node on the way to `id`.
    void reveal(uint32_t id);
    const std::vector<uint32_t>& rows();

    // The open nodes as key paths, to open the same ones in a tree built
    // again (another event, another transform).
    std::set<std::vector<uint64_t>> open_paths() const;
    void open(const std::set<std::vector<uint64_t>>& paths);

private:
    enum class Direction { down, up };
    // A node of the call tree that a merged node stands for, with the cost
    // it brings: down, its total; up, the cost of the calls below it that
    // the path through it led to.
    struct Cursor {
        uint32_t at = 0;
        uint64_t weight = 0, base_weight = 0;
        uint64_t calls = 0;
        uint64_t self = 0;  // what of `weight` the node's own code spent
        uint64_t base_self = 0;
    };
    struct Group {
        uint32_t first = 0, count = 0;  // its cursors in cursors_
        std::vector<uint32_t> children;
        bool built = false;
    };

    MergedTree(const CallTree& tree, Direction direction) : tree_(&tree), direction_(direction) {}
    static MergedTree of_function(const CallTree& tree, NodeKey key, Direction direction);
    // Makes nodes under `parent` (kNone: roots) from (key, cursor) pairs.
    std::vector<uint32_t> make_nodes(uint32_t parent, std::vector<std::pair<NodeKey, Cursor>> items);
    bool cursor_continues(const Cursor& c) const;

    const CallTree* tree_;
    Direction direction_;
    std::vector<Node> nodes_;
    std::vector<Group> groups_;  // one per node
    std::vector<Cursor> cursors_;
    std::vector<uint32_t> roots_;
    uint64_t total_ = 0;
    std::vector<uint32_t> rows_;
    bool rows_dirty_ = true;
};

} // namespace vgprof::viewer

#endif
