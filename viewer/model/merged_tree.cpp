// SPDX-License-Identifier: GPL-2.0-or-later
// Merged trees built node by node as they are opened.
#include "merged_tree.hpp"

#include <algorithm>

namespace vgprof::viewer {

MergedTree MergedTree::top_down(const CallTree& tree)
{
    MergedTree t(tree, Direction::down);
    std::vector<std::pair<NodeKey, Cursor>> items;
    for (uint32_t r : tree.roots()) {
        const CallTree::Node& n = tree.node(r);
        items.push_back({n.key, Cursor{r, n.total, n.base_total, n.calls, n.self, n.base_self}});
    }
    t.roots_ = t.make_nodes(kNone, std::move(items));
    return t;
}

MergedTree MergedTree::bottom_up(const CallTree& tree)
{
    MergedTree t(tree, Direction::up);
    std::vector<std::pair<NodeKey, Cursor>> items;
    for (uint32_t i = 0; i < tree.nodes().size(); ++i) {
        const CallTree::Node& n = tree.node(i);
        if (n.self > 0 || n.base_self > 0)
            items.push_back({n.key, Cursor{i, n.self, n.base_self, n.calls, n.self, n.base_self}});
    }
    t.roots_ = t.make_nodes(kNone, std::move(items));
    return t;
}

MergedTree MergedTree::callers_of(const CallTree& tree, NodeKey key)
{
    return of_function(tree, key, Direction::up);
}

MergedTree MergedTree::callees_of(const CallTree& tree, NodeKey key)
{
    return of_function(tree, key, Direction::down);
}

MergedTree MergedTree::of_function(const CallTree& tree, NodeKey key, Direction direction)
{
    MergedTree t(tree, direction);
    std::vector<std::pair<NodeKey, Cursor>> items;
    for (uint32_t i : tree.outermost(key)) {
        const CallTree::Node& n = tree.node(i);
        items.push_back({key, Cursor{i, n.total, n.base_total, n.calls, n.self, n.base_self}});
    }
    t.roots_ = t.make_nodes(kNone, std::move(items));
    return t;
}

bool MergedTree::cursor_continues(const Cursor& c) const
{
    return direction_ == Direction::down ? tree_->has_children(c.at)
                                         : tree_->node(c.at).parent != CallTree::kNone;
}

std::vector<uint32_t> MergedTree::make_nodes(uint32_t parent,
                                             std::vector<std::pair<NodeKey, Cursor>> items)
{
    // Grouped by key: a counting sort for the many items of an inverted
    // tree's roots (every node with a cost of its own), a plain sort for
    // the few children of a node.
    if (items.size() > 4096) {
        std::vector<NodeKey> keys;
        keys.reserve(items.size());
        for (const auto& item : items)
            keys.push_back(item.first);
        std::vector<std::pair<NodeKey, Cursor>> sorted;
        sorted.reserve(items.size());
        for (uint32_t i : order_by_key(keys))
            sorted.push_back(items[i]);
        items = std::move(sorted);
    } else {
        std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) {
            return a.first.code() < b.first.code();
        });
    }
    std::vector<uint32_t> made;
    for (size_t i = 0; i < items.size();) {
        size_t j = i;
        Node n;
        n.parent = parent;
        n.key = items[i].first;
        n.depth = parent == kNone ? 0 : nodes_[parent].depth + 1;
        Group g;
        g.first = uint32_t(cursors_.size());
        for (; j < items.size() && items[j].first == n.key; ++j) {
            const Cursor& c = items[j].second;
            n.total += c.weight;
            n.base_total += c.base_weight;
            n.self += c.self;
            n.base_self += c.base_self;
            n.calls += c.calls;
            n.has_children = n.has_children || cursor_continues(c);
            cursors_.push_back(c);
        }
        g.count = uint32_t(j - i);
        made.push_back(uint32_t(nodes_.size()));
        nodes_.push_back(n);
        groups_.push_back(std::move(g));
        i = j;
    }
    std::stable_sort(made.begin(), made.end(), [&](uint32_t a, uint32_t b) {
        const Node &x = nodes_[a], &y = nodes_[b];
        return x.total != y.total ? x.total > y.total : x.key.code() < y.key.code();
    });
    if (parent == kNone)
        for (uint32_t r : made)
            total_ += nodes_[r].total;
    return made;
}

const std::vector<uint32_t>& MergedTree::children(uint32_t id)
{
    if (groups_[id].built)
        return groups_[id].children;
    std::vector<std::pair<NodeKey, Cursor>> items;
    const Group g = groups_[id];
    for (uint32_t k = g.first; k < g.first + g.count; ++k) {
        const Cursor c = cursors_[k];
        if (direction_ == Direction::down) {
            for (const uint32_t* ch = tree_->children_begin(c.at); ch != tree_->children_end(c.at); ++ch) {
                const CallTree::Node& n = tree_->node(*ch);
                items.push_back({n.key, Cursor{*ch, n.total, n.base_total, n.calls, n.self, n.base_self}});
            }
        } else if (const uint32_t up = tree_->node(c.at).parent; up != CallTree::kNone) {
            // The caller, bringing the cost of the path below it; the calls
            // are those it made towards that cost.
            items.push_back({tree_->node(up).key,
                             Cursor{up, c.weight, c.base_weight, tree_->node(c.at).calls, 0, 0}});
        }
    }
    std::vector<uint32_t> made = make_nodes(id, std::move(items));
    groups_[id].children = std::move(made);
    groups_[id].built = true;
    return groups_[id].children;
}

std::vector<NodeKey> MergedTree::key_path(uint32_t id) const
{
    std::vector<NodeKey> path;
    for (uint32_t n = id; n != kNone; n = nodes_[n].parent)
        path.push_back(nodes_[n].key);
    std::reverse(path.begin(), path.end());
    return path;
}

std::optional<uint32_t> MergedTree::find(const std::vector<NodeKey>& path)
{
    std::optional<uint32_t> at;
    for (NodeKey key : path) {
        const std::vector<uint32_t> level = at ? children(*at) : roots_;
        const auto it = std::find_if(level.begin(), level.end(),
                                     [&](uint32_t n) { return nodes_[n].key == key; });
        if (it == level.end())
            return std::nullopt;
        at = *it;
    }
    return at;
}

void MergedTree::set_expanded(uint32_t id, bool open)
{
    if (nodes_[id].expanded == open || (open && !nodes_[id].has_children))
        return;
    nodes_[id].expanded = open;
    rows_dirty_ = true;
}

uint32_t MergedTree::expand_hottest(uint32_t id, double share)
{
    uint32_t at = id;
    // At most 1,000 levels, which is more than anyone reads and keeps the
    // open paths (each as long as its depth) small for a deep recursion.
    // Each level of an inverted deep recursion carries a cursor for every
    // deeper level, so the work is bounded too: the rest opens a click at
    // a time.
    const size_t cursors = cursors_.size();
    for (size_t steps = 0; steps < 1000 && cursors_.size() - cursors < kExpandCursors; ++steps) {
        set_expanded(at, true);
        const std::vector<uint32_t>& kids = children(at);
        if (kids.empty())
            break;
        const uint32_t next = kids.front();
        if (double(nodes_[next].total) < share * double(nodes_[at].total) || nodes_[next].total == 0)
            break;
        at = next;
    }
    return at;
}

void MergedTree::expand_all(uint32_t id, size_t limit)
{
    std::vector<uint32_t> todo{id};
    size_t opened = 0;
    const size_t cursors = cursors_.size();
    while (!todo.empty() && opened < limit && cursors_.size() - cursors < kExpandCursors) {
        const uint32_t n = todo.back();
        todo.pop_back();
        if (!nodes_[n].has_children)
            continue;
        set_expanded(n, true);
        ++opened;
        const std::vector<uint32_t>& kids = children(n);
        todo.insert(todo.end(), kids.rbegin(), kids.rend());
    }
}

void MergedTree::reveal(uint32_t id)
{
    for (uint32_t n = nodes_[id].parent; n != kNone; n = nodes_[n].parent)
        set_expanded(n, true);
}

const std::vector<uint32_t>& MergedTree::rows()
{
    if (!rows_dirty_)
        return rows_;
    rows_.clear();
    std::vector<uint32_t> todo(roots_.rbegin(), roots_.rend());
    while (!todo.empty()) {
        const uint32_t n = todo.back();
        todo.pop_back();
        rows_.push_back(n);
        if (nodes_[n].expanded) {
            const std::vector<uint32_t>& kids = children(n);
            todo.insert(todo.end(), kids.rbegin(), kids.rend());
        }
    }
    rows_dirty_ = false;
    return rows_;
}

std::set<std::vector<uint64_t>> MergedTree::open_paths() const
{
    std::set<std::vector<uint64_t>> out;
    for (uint32_t i = 0; i < nodes_.size(); ++i)
        if (nodes_[i].expanded) {
            std::vector<uint64_t> codes;
            for (NodeKey k : key_path(i))
                codes.push_back(k.code());
            out.insert(std::move(codes));
        }
    return out;
}

void MergedTree::open(const std::set<std::vector<uint64_t>>& paths)
{
    for (const std::vector<uint64_t>& codes : paths) {
        std::vector<NodeKey> path;
        for (uint64_t c : codes)
            path.push_back(NodeKey{NodeKey::Kind(c >> 32), uint32_t(c)});
        if (const auto n = find(path))
            set_expanded(*n, true);
    }
}

} // namespace vgprof::viewer
