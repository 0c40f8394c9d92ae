// SPDX-License-Identifier: GPL-2.0-or-later
// The call tree behind the Call tree, Bottom-up and Sandwich views: the
// profile's exact call-path tree for one event, after the transforms a
// person applies to see through a real program's stacks (those the Firefox
// Profiler offers): merge a function into its callers, collapse a
// function's subtree or a library's consecutive frames into one node, focus
// on one subtree or on every call of one function, drop the stacks through
// a function. A search then keeps only the stacks through a function whose
// name contains a text. In diff mode every node also carries the base
// profile's cost over the same call paths.
#ifndef VGPROF_VIEWER_CALL_TREE_HPP
#define VGPROF_VIEWER_CALL_TREE_HPP

#include "diff_link.hpp"
#include "document.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vgprof::viewer {

// What a node stands for: a function, a library (an object file whose
// consecutive frames were collapsed into one node), or the [truncated]
// rest of a stack deeper than the tool recorded.
struct NodeKey {
    enum class Kind : uint8_t { function, object, truncated };
    Kind kind = Kind::truncated;
    uint32_t id = 0;  // the FnId or ObjId's value

    static NodeKey of(FnId fn) { return {Kind::function, fn.value}; }
    static NodeKey of(ObjId obj) { return {Kind::object, obj.value}; }
    std::optional<FnId> fn() const
    {
        return kind == Kind::function ? std::optional<FnId>(FnId(id)) : std::nullopt;
    }
    // One number per key, for hashing and ordering.
    uint64_t code() const { return uint64_t(kind) << 32 | id; }

    friend bool operator==(NodeKey a, NodeKey b) { return a.code() == b.code(); }
    friend bool operator!=(NodeKey a, NodeKey b) { return !(a == b); }
};

// The positions of `keys` ordered by key (kind, then id), equal keys in
// position order. A counting sort: keys are function and object ids,
// dense small numbers, and trees have hundreds of thousands of nodes.
std::vector<uint32_t> order_by_key(const std::vector<NodeKey>& keys);

// "main", "[libc.so.6]", "[truncated]".
std::string key_name(const Profile& profile, NodeKey key);

struct TreeTransform {
    enum class Kind {
        merge_function,     // the function leaves every stack; its cost goes to its caller
        collapse_function,  // everything the function calls is counted as the function's own
        collapse_object,    // consecutive frames of the object become one node
        focus_subtree,      // only the node at `path` and what it calls, as the one root
        focus_function,     // only the calls of the function, merged as the one root
        drop_function,      // the stacks through the function are left out
    };
    Kind kind = Kind::merge_function;
    FnId fn;                     // the function transformed (not collapse_object, focus_subtree)
    ObjId obj;                   // collapse_object: the library
    std::vector<NodeKey> path;   // focus_subtree: the keys from a root to the node

    static TreeTransform of(Kind kind, FnId fn)
    {
        TreeTransform t;
        t.kind = kind;
        t.fn = fn;
        return t;
    }
    static TreeTransform collapse(ObjId obj)
    {
        TreeTransform t;
        t.kind = Kind::collapse_object;
        t.obj = obj;
        return t;
    }
    static TreeTransform focus(std::vector<NodeKey> path)
    {
        TreeTransform t;
        t.kind = Kind::focus_subtree;
        t.path = std::move(path);
        return t;
    }
};

// What a transform did, for the breadcrumbs above the tree: "Merge malloc".
std::string transform_label(const Profile& profile, const TreeTransform& t);

class CallTree {
public:
    static constexpr uint32_t kNone = UINT32_MAX;

    struct Node {
        uint32_t parent = kNone;
        NodeKey key;
        uint64_t self = 0, total = 0;  // the event's cost: its own, and with everything below
        uint64_t calls = 0;            // calls that entered it
        uint64_t base_self = 0, base_total = 0;  // diff mode: the base's over the same paths
    };

    CallTree() = default;
    // A tree of any costs (the heap's allocation stacks too): `nodes` with
    // their own costs, every parent before its children, no two children
    // of one parent with the same key. Totals are added up here.
    CallTree(std::vector<Node> nodes, bool diff);

    const std::vector<Node>& nodes() const { return nodes_; }
    const Node& node(uint32_t id) const { return nodes_[id]; }
    // Most expensive first, ties by key so the order depends on the costs alone.
    const std::vector<uint32_t>& roots() const { return roots_; }
    const uint32_t* children_begin(uint32_t id) const { return children_.begin_of(id); }
    const uint32_t* children_end(uint32_t id) const { return children_.end_of(id); }
    bool has_children(uint32_t id) const { return children_.size_of(id) > 0; }
    // The roots' totals added up: what the whole tree stands for.
    uint64_t total() const { return total_; }
    uint64_t base_total() const { return base_total_; }
    bool diff() const { return diff_; }

    // The keys from a root down to `id`.
    std::vector<NodeKey> key_path(uint32_t id) const;
    // The node reached by following `path` from the roots, if there is one.
    std::optional<uint32_t> find(const std::vector<NodeKey>& path) const;
    // The nodes of `key` that are not below another node of it, so that a
    // recursive function's cost is counted once.
    std::vector<uint32_t> outermost(NodeKey key) const;
    // The node of `key` with the largest total (the outermost of equal ones).
    std::optional<uint32_t> heaviest(NodeKey key) const;
    // The own cost and the calls of every node of `key` added up, nested
    // ones too: all a recursive function spent in its own code, and all
    // its calls.
    struct Own {
        uint64_t self = 0, calls = 0;
    };
    Own own(NodeKey key) const;

private:
    void index();
    // The nodes of `key`, as a range of by_key_.
    std::pair<std::vector<uint32_t>::const_iterator, std::vector<uint32_t>::const_iterator>
    nodes_of(NodeKey key) const;

    std::vector<Node> nodes_;  // every parent before its children
    std::vector<uint32_t> roots_;
    std::vector<uint32_t> by_key_;  // every node, ordered by key
    RowIndex children_;
    uint64_t total_ = 0, base_total_ = 0;
    bool diff_ = false;
};

// The tree of `event` with `transforms` applied in order, then only the
// stacks through a function (or collapsed library) whose name contains
// `search` (any case; "" keeps all). With `diff`, base costs are those of
// the base's call-path nodes that match the new profile's.
CallTree build_call_tree(const Document& doc, size_t event,
                         const std::vector<TreeTransform>& transforms, std::string_view search,
                         const DiffLink* diff);

} // namespace vgprof::viewer

#endif
