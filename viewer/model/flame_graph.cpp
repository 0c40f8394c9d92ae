// SPDX-License-Identifier: GPL-2.0-or-later
// Building the flame graph's tree and boxes.
#include "flame_graph.hpp"

#include <algorithm>

namespace vgprof::viewer {

FlameTree::FlameTree(const Document& doc, size_t event, bool inlined)
    : doc_(doc), event_(event),
      frames_(inlined ? inlined_frames(doc, event)
                      : InlinedFrames{uint32_t(doc.profile().paths().size()), {}, {}})
{
    for (uint32_t i = 0; i < frames_.added.size(); ++i)
        added_children_[frames_.added[i].parent].push_back(frames_.first_added + i);
    for (const InlinedFrames::Move& m : frames_.moves) {
        gained_[m.to] += m.cost;
        lost_[m.host] += m.cost;
        // Every frame between the host and `to` holds it; the host and its
        // callers hold it as before.
        for (uint32_t n = m.to; n != m.host; n = *parent(n))
            below_[n] += m.cost;
    }
}

std::optional<PathId> FlameTree::path(uint32_t node) const
{
    return frames_.is_added(node) ? std::nullopt : std::optional<PathId>(PathId(node));
}

std::optional<FnId> FlameTree::fn(uint32_t node) const
{
    if (frames_.is_added(node))
        return frames_.frame(node).fn;
    return doc_.profile().path(PathId(node)).fn;
}

std::optional<uint32_t> FlameTree::parent(uint32_t node) const
{
    if (frames_.is_added(node))
        return frames_.frame(node).parent;
    const std::optional<PathId> up = doc_.profile().path(PathId(node)).parent;
    return up ? std::optional<uint32_t>(up->value) : std::nullopt;
}

std::vector<uint32_t> FlameTree::children(uint32_t node) const
{
    std::vector<uint32_t> out;
    if (!frames_.is_added(node)) {
        const RowIndex& index = doc_.path_children();
        out.assign(index.begin_of(node), index.end_of(node));
    }
    const auto added = added_children_.find(node);
    if (added != added_children_.end())
        out.insert(out.end(), added->second.begin(), added->second.end());
    return out;
}

uint64_t FlameTree::of(const std::unordered_map<uint32_t, uint64_t>& costs, uint32_t node) const
{
    const auto it = costs.find(node);
    return it == costs.end() ? 0 : it->second;
}

uint64_t FlameTree::inclusive(uint32_t node) const
{
    const uint64_t recorded = frames_.is_added(node) ? 0 : doc_.profile().path_inclusive(node)[event_];
    return recorded + of(below_, node);
}

uint64_t FlameTree::self(uint32_t node) const
{
    const uint64_t recorded = frames_.is_added(node) ? 0 : doc_.profile().path_self(node)[event_];
    return recorded + of(gained_, node) - of(lost_, node);
}

namespace {

class Builder {
public:
    Builder(const FlameTree& tree, double min_width, FlameGraph& out)
        : tree_(tree), min_width_(min_width), out_(out)
    {
    }

    uint64_t value(uint32_t node) const { return tree_.inclusive(node); }

    FlameBox box(uint32_t node, int depth, double x0, double x1, bool above_zoom) const
    {
        return {node, tree_.path(node), tree_.fn(node), depth, x0, x1,
                value(node), tree_.self(node), above_zoom};
    }

    // Lays out `nodes` (siblings) side by side from x0, each as wide as its
    // cost over `scale`, then their children below them, depth first with a
    // stack of its own: a recursion 100,000 deep is a path that long.
    void place(std::vector<uint32_t> nodes, int depth, double x0, double scale)
    {
        struct Level {
            std::vector<uint32_t> nodes;  // most expensive first
            size_t next;
            int depth;
            double x;  // where the next box starts
        };
        std::vector<Level> todo;
        todo.push_back({sorted(std::move(nodes)), 0, depth, x0});
        while (!todo.empty()) {
            Level& level = todo.back();
            if (level.next == level.nodes.size()) {
                todo.pop_back();
                continue;
            }
            const uint32_t node = level.nodes[level.next++];
            const double w = double(value(node)) * scale;
            if (w < min_width_) {
                level.next = level.nodes.size();  // sorted: every later sibling is narrower still
                continue;
            }
            const double x = level.x;
            const int d = level.depth;
            level.x += w;
            out_.boxes.push_back(box(node, d, x, std::min(1.0, x + w), false));
            out_.depth = std::max(out_.depth, d + 1);
            todo.push_back({sorted(tree_.children(node)), 0, d + 1, x});
        }
    }

    std::vector<uint32_t> sorted(std::vector<uint32_t> nodes) const
    {
        std::sort(nodes.begin(), nodes.end(), [&](uint32_t a, uint32_t b) {
            const uint64_t va = value(a), vb = value(b);
            return va != vb ? va > vb : a < b;
        });
        return nodes;
    }

private:
    const FlameTree& tree_;
    double min_width_;
    FlameGraph& out_;
};

} // namespace

FlameGraph build_flame_graph(const FlameTree& tree, std::optional<uint32_t> zoom, double min_width)
{
    FlameGraph out;
    Builder b(tree, min_width, out);
    std::vector<uint32_t> roots;
    uint64_t roots_total = 0;
    for (PathId root : tree.doc().path_roots()) {
        roots.push_back(root.value);
        roots_total += b.value(root.value);
    }

    if (!zoom) {
        out.width_value = roots_total;
        out.boxes.push_back({std::nullopt, std::nullopt, std::nullopt, 0, 0, 1, roots_total, 0, false});
        out.depth = 1;
        if (roots_total > 0)
            b.place(std::move(roots), 1, 0, 1.0 / double(roots_total));
        return out;
    }

    // The callers of the zoomed node, outermost first, full width.
    std::vector<uint32_t> chain;
    for (std::optional<uint32_t> n = tree.parent(*zoom); n; n = tree.parent(*n))
        chain.push_back(*n);
    std::reverse(chain.begin(), chain.end());
    out.boxes.push_back({std::nullopt, std::nullopt, std::nullopt, 0, 0, 1, roots_total, 0, true});
    int depth = 1;
    for (uint32_t n : chain)
        out.boxes.push_back(b.box(n, depth++, 0, 1, true));
    out.depth = depth;
    out.width_value = b.value(*zoom);
    if (out.width_value > 0)
        b.place({*zoom}, depth, 0, 1.0 / double(out.width_value));
    else {
        out.boxes.push_back(b.box(*zoom, depth, 0, 1, false));
        out.depth = depth + 1;
    }
    return out;
}

FlameGraph build_flame_graph(const Document& doc, size_t event, std::optional<uint32_t> zoom,
                             double min_width)
{
    return build_flame_graph(FlameTree(doc, event, true), zoom, min_width);
}

} // namespace vgprof::viewer
