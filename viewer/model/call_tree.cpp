// SPDX-License-Identifier: GPL-2.0-or-later
// Building the call tree: the path tree copied once, then one pass per
// transform, each mapping every node of the tree before it to a node of the
// tree after it (or to none), parents first.
#include "call_tree.hpp"

#include "function_table.hpp"
#include "inlined_frames.hpp"

#include "vgprof/identity.hpp"

#include <algorithm>
#include <unordered_map>

namespace vgprof::viewer {

namespace {

using Node = CallTree::Node;
constexpr uint32_t kNone = CallTree::kNone;
// Where a node of the tree before a pass goes: a node of the tree after
// it, or one of these. kRoot: not shown, its children are roots (a merged
// root, or outside the focus); kDropped: not shown and nor is anything
// below it.
constexpr uint32_t kRoot = UINT32_MAX - 1;
constexpr uint32_t kDropped = UINT32_MAX;

// The tree after a pass, with children looked up by (parent, key) so that
// two nodes mapped to the same place become one. The lookup is an
// open-addressing table: the passes make a lookup per node of trees of
// hundreds of thousands of nodes, where std::unordered_map's allocation
// per entry took most of the time.
class TreeBuilder {
public:
    explicit TreeBuilder(size_t nodes)
    {
        size_t capacity = 16;
        while (capacity < 2 * nodes)
            capacity *= 2;
        slots_.assign(capacity, Slot{});
        nodes_.reserve(nodes);
    }

    // The child of `parent` (kRoot for a root) with `key`, made if new.
    uint32_t child(uint32_t parent, NodeKey key)
    {
        const uint64_t id = (uint64_t(parent == kRoot ? 0 : parent + 1) << 34 ^ key.code()) + 1;
        size_t i = (id * 0x9E3779B97F4A7C15ull >> 20) & (slots_.size() - 1);
        while (slots_[i].id != 0 && slots_[i].id != id)
            i = (i + 1) & (slots_.size() - 1);
        if (slots_[i].id == 0) {
            slots_[i] = {id, uint32_t(nodes_.size())};
            Node n;
            n.parent = parent == kRoot ? kNone : parent;
            n.key = key;
            nodes_.push_back(n);
            if (2 * nodes_.size() > slots_.size())
                grow();
        }
        return find(id);
    }
    // Adds `from`'s own costs (and its calls, when it is an entry into `to`).
    void charge(uint32_t to, const Node& from, bool calls)
    {
        Node& n = nodes_[to];
        n.self += from.self;
        n.base_self += from.base_self;
        if (calls)
            n.calls += from.calls;
    }
    const Node& node(uint32_t id) const { return nodes_[id]; }
    std::vector<Node> take() { return std::move(nodes_); }

private:
    struct Slot {
        uint64_t id = 0;  // 0: empty
        uint32_t node = 0;
    };

    uint32_t find(uint64_t id) const
    {
        size_t i = (id * 0x9E3779B97F4A7C15ull >> 20) & (slots_.size() - 1);
        while (slots_[i].id != id)
            i = (i + 1) & (slots_.size() - 1);
        return slots_[i].node;
    }
    void grow()
    {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.size() * 2, Slot{});
        for (const Slot& s : old)
            if (s.id != 0) {
                size_t i = (s.id * 0x9E3779B97F4A7C15ull >> 20) & (slots_.size() - 1);
                while (slots_[i].id != 0)
                    i = (i + 1) & (slots_.size() - 1);
                slots_[i] = s;
            }
    }

    std::vector<Slot> slots_;
    std::vector<Node> nodes_;
};

// The path tree as it was recorded, roots of the same function (threads
// that started in one function) made one. Below the roots no two children
// of a node share a function, so only the roots need looking up.
// `map` gets each path node's node of the tree.
std::vector<Node> recorded_tree(const Document& doc, size_t event, const DiffLink* diff, std::vector<uint32_t>& map)
{
    const Profile& p = doc.profile();
    const auto& paths = p.paths();
    std::vector<Node> out;
    out.reserve(paths.size());
    map.assign(paths.size(), 0);
    std::unordered_map<uint64_t, uint32_t> roots;
    const std::optional<size_t> base_event = diff ? diff->base_event(event) : std::nullopt;
    for (size_t i = 0; i < paths.size(); ++i) {
        if (!doc.has_path(i))
            continue;  // another thread's: so are its children
        const PathNode& path = paths[i];
        Node n;
        n.key = path.fn ? NodeKey::of(*path.fn) : NodeKey{};
        n.parent = path.parent ? map[path.parent->index()] : kNone;
        uint32_t& to = map[i];
        const auto root = path.parent ? roots.end() : roots.find(n.key.code());
        if (root != roots.end()) {
            to = root->second;
        } else {
            to = uint32_t(out.size());
            out.push_back(n);
            if (!path.parent)
                roots.emplace(n.key.code(), to);
        }
        Node& node = out[to];
        node.self += p.path_self(i)[event];
        node.calls += path.count;
        if (base_event)
            if (const std::optional<PathId> b = diff->base_path(PathId(uint32_t(i))))
                node.base_self += diff->base().profile().path_self(b->index())[*base_event];
    }
    return out;
}

// The inlined functions' frames (inlined_frames.hpp) as nodes of the
// recorded tree, whose node of each path node is `node_of_path`.
void split_inlined_code(const Document& doc, size_t event, const std::vector<uint32_t>& node_of_path,
                        std::vector<Node>& nodes)
{
    const InlinedFrames frames = inlined_frames(doc, event);
    const uint32_t first_added = uint32_t(nodes.size());
    const auto node_of = [&](uint32_t node) {
        return frames.is_added(node) ? first_added + (node - frames.first_added) : node_of_path[node];
    };
    for (const InlinedFrames::Frame& f : frames.added) {
        Node n;
        n.parent = node_of(f.parent);
        n.key = NodeKey::of(f.fn);
        nodes.push_back(n);
    }
    for (const InlinedFrames::Move& m : frames.moves) {
        nodes[node_of(m.to)].self += m.cost;
        nodes[node_of(m.host)].self -= m.cost;
    }
}

// The object file of a node's code, or nullopt for [truncated].
std::optional<ObjId> object_of(const Profile& p, NodeKey key)
{
    if (key.kind == NodeKey::Kind::object)
        return ObjId(key.id);
    if (const auto fn = key.fn())
        return p.function(*fn).obj;
    return std::nullopt;
}

// One transform applied to `in`.
std::vector<Node> apply(const Profile& p, const std::vector<Node>& in, const TreeTransform& t)
{
    using Kind = TreeTransform::Kind;
    TreeBuilder out(in.size());
    std::vector<uint32_t> map(in.size());
    // focus_subtree: how many keys of the path each node's stack matched
    // (path.size() for the focused node and everything below it).
    std::vector<size_t> matched(t.kind == Kind::focus_subtree ? in.size() : 0);
    // collapse_function: the nodes after the pass that swallow what is below.
    std::vector<bool> collapsed;
    const NodeKey fn_key = NodeKey::of(t.fn);
    for (size_t i = 0; i < in.size(); ++i) {
        const Node& n = in[i];
        const uint32_t parent = n.parent == kNone ? kRoot : map[n.parent];
        uint32_t& to = map[i];
        if (parent == kDropped) {
            to = kDropped;
            continue;
        }
        // The default: the same node under the parent's image.
        const auto keep = [&] {
            to = out.child(parent, n.key);
            out.charge(to, n, true);
        };
        switch (t.kind) {
        case Kind::merge_function:
            if (n.key == fn_key) {
                to = parent;
                if (parent != kRoot)
                    out.charge(parent, n, false);
            } else {
                keep();
            }
            break;
        case Kind::collapse_function:
            if (parent != kRoot && parent < collapsed.size() && collapsed[parent]) {
                to = parent;
                out.charge(parent, n, false);
                break;
            }
            keep();
            if (n.key == fn_key) {
                collapsed.resize(std::max(collapsed.size(), size_t(to) + 1), false);
                collapsed[to] = true;
            }
            break;
        case Kind::collapse_object: {
            const NodeKey lib = NodeKey::of(t.obj);
            if (object_of(p, n.key) != t.obj) {
                keep();
            } else if (parent != kRoot && out.node(parent).key == lib) {
                to = parent;
                out.charge(parent, n, false);
            } else {
                to = out.child(parent, lib);
                out.charge(to, n, true);
            }
            break;
        }
        case Kind::focus_subtree: {
            const size_t before = n.parent == kNone ? 0 : matched[n.parent];
            if (before == t.path.size()) {
                matched[i] = before;
                keep();
            } else if (n.key == t.path[before]) {
                matched[i] = before + 1;
                to = kRoot;
                if (matched[i] == t.path.size())
                    keep();
            } else {
                to = kDropped;
            }
            break;
        }
        case Kind::focus_function:
            if (parent == kRoot && n.key != fn_key)
                to = kRoot;  // outside every call of the function: not counted
            else
                keep();
            break;
        case Kind::drop_function:
            if (n.key == fn_key)
                to = kDropped;
            else
                keep();
            break;
        }
    }
    return out.take();
}

// Keeps the stacks through a node whose name contains `text`: the matching
// nodes, everything below them (their own costs counted), and their
// callers (as the way to them, costs not counted).
std::vector<Node> search(const Profile& p, const std::vector<Node>& in, std::string_view text)
{
    // Names are matched once each, not once per node.
    std::vector<bool> fn_matches(p.functions().size()), obj_matches(p.objs().size());
    for (size_t f = 0; f < fn_matches.size(); ++f)
        fn_matches[f] = contains_ignoring_case(p.fn_name(FnId(uint32_t(f))), text);
    for (size_t o = 0; o < obj_matches.size(); ++o)
        obj_matches[o] = contains_ignoring_case(key_name(p, NodeKey::of(ObjId(uint32_t(o)))), text);
    const bool truncated_matches = contains_ignoring_case("[truncated]", text);
    const auto matches = [&](NodeKey k) {
        switch (k.kind) {
        case NodeKey::Kind::function: return bool(fn_matches[k.id]);
        case NodeKey::Kind::object: return bool(obj_matches[k.id]);
        case NodeKey::Kind::truncated: return truncated_matches;
        }
        return false;
    };
    std::vector<bool> under(in.size(), false), keep(in.size(), false);
    for (size_t i = 0; i < in.size(); ++i) {
        const Node& n = in[i];
        under[i] = (n.parent != kNone && under[n.parent]) || matches(n.key);
        keep[i] = under[i];
    }
    for (size_t i = in.size(); i-- > 0;)
        if (keep[i] && in[i].parent != kNone)
            keep[in[i].parent] = true;
    std::vector<Node> out;
    std::vector<uint32_t> map(in.size(), kNone);
    for (size_t i = 0; i < in.size(); ++i) {
        if (!keep[i])
            continue;
        Node n = in[i];
        n.parent = n.parent == kNone ? kNone : map[n.parent];
        if (!under[i])
            n.self = n.base_self = 0;
        map[i] = uint32_t(out.size());
        out.push_back(n);
    }
    return out;
}

} // namespace

std::vector<uint32_t> order_by_key(const std::vector<NodeKey>& keys)
{
    uint32_t largest = 0;
    for (NodeKey k : keys)
        largest = std::max(largest, k.id);
    // One bucket per (kind, id): three kinds.
    const size_t per_kind = size_t(largest) + 1;
    const auto bucket = [&](NodeKey k) { return size_t(k.kind) * per_kind + k.id; };
    std::vector<uint32_t> start(3 * per_kind + 1, 0);
    for (NodeKey k : keys)
        ++start[bucket(k) + 1];
    for (size_t b = 1; b < start.size(); ++b)
        start[b] += start[b - 1];
    std::vector<uint32_t> order(keys.size());
    for (uint32_t i = 0; i < keys.size(); ++i)
        order[start[bucket(keys[i])]++] = i;
    return order;
}

std::string key_name(const Profile& profile, NodeKey key)
{
    switch (key.kind) {
    case NodeKey::Kind::function: return profile.fn_name(FnId(key.id));
    case NodeKey::Kind::object: return "[" + basename_of(profile.obj_path(ObjId(key.id))) + "]";
    case NodeKey::Kind::truncated: return "[truncated]";
    }
    return "";
}

std::string transform_label(const Profile& profile, const TreeTransform& t)
{
    using Kind = TreeTransform::Kind;
    switch (t.kind) {
    case Kind::merge_function: return "Merge " + profile.fn_name(t.fn);
    case Kind::collapse_function: return "Collapse " + profile.fn_name(t.fn);
    case Kind::collapse_object: return "Collapse " + key_name(profile, NodeKey::of(t.obj));
    case Kind::focus_subtree:
        return "Focus " + (t.path.empty() ? std::string() : key_name(profile, t.path.back()));
    case Kind::focus_function: return "Focus on calls of " + profile.fn_name(t.fn);
    case Kind::drop_function: return "Drop " + profile.fn_name(t.fn);
    }
    return "";
}

CallTree build_call_tree(const Document& doc, size_t event,
                         const std::vector<TreeTransform>& transforms, std::string_view text,
                         const DiffLink* diff)
{
    const Profile& p = doc.profile();
    std::vector<uint32_t> node_of_path;
    std::vector<Node> nodes = recorded_tree(doc, event, diff, node_of_path);
    // In diff mode the base's nodes keep their inlined code: a change is
    // shown between costs counted alike.
    if (!diff)
        split_inlined_code(doc, event, node_of_path, nodes);
    for (const TreeTransform& t : transforms)
        nodes = apply(p, nodes, t);
    if (!text.empty())
        nodes = search(p, nodes, text);
    return CallTree(std::move(nodes), diff != nullptr);
}

CallTree::CallTree(std::vector<Node> nodes, bool diff) : nodes_(std::move(nodes)), diff_(diff)
{
    index();
}

void CallTree::index()
{
    for (Node& n : nodes_) {
        n.total = n.self;
        n.base_total = n.base_self;
    }
    // Children come after their parents: one backward pass adds every
    // subtree up.
    for (size_t i = nodes_.size(); i-- > 0;)
        if (nodes_[i].parent != kNone) {
            nodes_[nodes_[i].parent].total += nodes_[i].total;
            nodes_[nodes_[i].parent].base_total += nodes_[i].base_total;
        }
    const size_t root_key = nodes_.size();
    children_ = group_rows(nodes_.size(), nodes_.size() + 1, [&](size_t r) {
        return nodes_[r].parent == kNone ? root_key : nodes_[r].parent;
    });
    const auto heavier = [&](uint32_t a, uint32_t b) {
        const Node &x = nodes_[a], &y = nodes_[b];
        return x.total != y.total ? x.total > y.total : x.key.code() < y.key.code();
    };
    for (size_t k = 0; k <= nodes_.size(); ++k)
        if (children_.size_of(k) > 1)
            std::sort(children_.rows.begin() + children_.start[k],
                      children_.rows.begin() + children_.start[k + 1], heavier);
    roots_.assign(children_.begin_of(root_key), children_.end_of(root_key));
    std::vector<NodeKey> keys;
    keys.reserve(nodes_.size());
    for (const Node& n : nodes_)
        keys.push_back(n.key);
    by_key_ = order_by_key(keys);
    for (uint32_t r : roots_) {
        total_ += nodes_[r].total;
        base_total_ += nodes_[r].base_total;
    }
}

std::vector<NodeKey> CallTree::key_path(uint32_t id) const
{
    std::vector<NodeKey> path;
    for (uint32_t n = id; n != kNone; n = nodes_[n].parent)
        path.push_back(nodes_[n].key);
    std::reverse(path.begin(), path.end());
    return path;
}

std::optional<uint32_t> CallTree::find(const std::vector<NodeKey>& path) const
{
    std::optional<uint32_t> at;
    for (NodeKey key : path) {
        const uint32_t* begin = at ? children_begin(*at) : roots_.data();
        const uint32_t* end = at ? children_end(*at) : roots_.data() + roots_.size();
        const uint32_t* found =
            std::find_if(begin, end, [&](uint32_t c) { return nodes_[c].key == key; });
        if (found == end)
            return std::nullopt;
        at = *found;
    }
    return at;
}

std::pair<std::vector<uint32_t>::const_iterator, std::vector<uint32_t>::const_iterator>
CallTree::nodes_of(NodeKey key) const
{
    auto first = std::lower_bound(by_key_.begin(), by_key_.end(), key.code(),
                                  [&](uint32_t n, uint64_t code) { return nodes_[n].key.code() < code; });
    auto last = first;
    while (last != by_key_.end() && nodes_[*last].key == key)
        ++last;
    return {first, last};
}

// Looking up from each of the key's nodes is quick for the few nodes of a
// function, but a comb of many nodes deep under a long path would take
// nodes times depth: past as many steps as the tree has nodes, one pass
// over the whole tree (parents first) marks what lies under the key.
std::vector<uint32_t> CallTree::outermost(NodeKey key) const
{
    const auto [first, last] = nodes_of(key);
    std::vector<uint32_t> out;
    size_t steps = 0;
    for (auto it = first; it != last && steps <= nodes_.size(); ++it) {
        bool nested = false;
        for (uint32_t up = nodes_[*it].parent; up != kNone && !nested; up = nodes_[up].parent) {
            nested = nodes_[up].key == key;
            ++steps;
        }
        if (!nested)
            out.push_back(*it);
    }
    if (steps <= nodes_.size())
        return out;
    std::vector<bool> under(nodes_.size(), false);
    out.clear();
    for (uint32_t i = 0; i < nodes_.size(); ++i) {
        const uint32_t up = nodes_[i].parent;
        under[i] = up != kNone && (under[up] || nodes_[up].key == key);
        if (nodes_[i].key == key && !under[i])
            out.push_back(i);
    }
    return out;
}

CallTree::Own CallTree::own(NodeKey key) const
{
    const auto [first, last] = nodes_of(key);
    Own sum;
    for (auto it = first; it != last; ++it) {
        sum.self += nodes_[*it].self;
        sum.calls += nodes_[*it].calls;
    }
    return sum;
}

std::optional<uint32_t> CallTree::heaviest(NodeKey key) const
{
    std::optional<uint32_t> best;
    for (uint32_t n : outermost(key))
        if (!best || nodes_[n].total > nodes_[*best].total)
            best = n;
    return best;
}

} // namespace vgprof::viewer
