// SPDX-License-Identifier: GPL-2.0-or-later
// Building the flame graph's boxes from the call-path tree.
#include "flame_graph.hpp"

#include <algorithm>

namespace vgprof::viewer {

namespace {

class Builder {
public:
    Builder(const Document& doc, size_t event, double min_width, FlameGraph& out)
        : doc_(doc), event_(event), min_width_(min_width), out_(out)
    {
    }

    uint64_t value(PathId node) const { return doc_.profile().path_inclusive(node.index())[event_]; }

    // Lays out `nodes` (siblings) side by side from x0, each as wide as its
    // cost over `scale`, then their children below them, depth first with a
    // stack of its own: a recursion 100,000 deep is a path that long.
    void place(std::vector<PathId> nodes, int depth, double x0, double scale)
    {
        struct Level {
            std::vector<PathId> nodes;  // most expensive first
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
            const PathId node = level.nodes[level.next++];
            const double w = double(value(node)) * scale;
            if (w < min_width_) {
                level.next = level.nodes.size();  // sorted: every later sibling is narrower still
                continue;
            }
            const double x = level.x;
            const int d = level.depth;
            level.x += w;
            out_.boxes.push_back({node, d, x, std::min(1.0, x + w), value(node), false});
            out_.depth = std::max(out_.depth, d + 1);
            todo.push_back({sorted(children(node)), 0, d + 1, x});
        }
    }

    std::vector<PathId> sorted(std::vector<PathId> nodes) const
    {
        std::sort(nodes.begin(), nodes.end(), [&](PathId a, PathId b) {
            const uint64_t va = value(a), vb = value(b);
            return va != vb ? va > vb : a < b;
        });
        return nodes;
    }

    std::vector<PathId> children(PathId node) const
    {
        const RowIndex& index = doc_.path_children();
        std::vector<PathId> out;
        for (const uint32_t* r = index.begin_of(node.index()); r != index.end_of(node.index()); ++r)
            out.push_back(PathId(*r));
        return out;
    }

private:
    const Document& doc_;
    size_t event_;
    double min_width_;
    FlameGraph& out_;
};

} // namespace

FlameGraph build_flame_graph(const Document& doc, size_t event, std::optional<PathId> zoom,
                             double min_width)
{
    FlameGraph out;
    Builder b(doc, event, min_width, out);
    const Profile& p = doc.profile();
    uint64_t roots_total = 0;
    for (PathId root : doc.path_roots())
        roots_total += b.value(root);

    if (!zoom) {
        out.width_value = roots_total;
        out.boxes.push_back({std::nullopt, 0, 0, 1, roots_total, false});
        out.depth = 1;
        if (roots_total > 0)
            b.place(doc.path_roots(), 1, 0, 1.0 / double(roots_total));
        return out;
    }

    // The callers of the zoomed node, outermost first, full width.
    std::vector<PathId> chain;
    for (std::optional<PathId> n = p.path(*zoom).parent; n; n = p.path(*n).parent)
        chain.push_back(*n);
    std::reverse(chain.begin(), chain.end());
    out.boxes.push_back({std::nullopt, 0, 0, 1, roots_total, true});
    int depth = 1;
    for (PathId n : chain)
        out.boxes.push_back({n, depth++, 0, 1, b.value(n), true});
    out.depth = depth;
    out.width_value = b.value(*zoom);
    if (out.width_value > 0)
        b.place({*zoom}, depth, 0, 1.0 / double(out.width_value));
    else {
        out.boxes.push_back({*zoom, depth, 0, 1, 0, false});
        out.depth = depth + 1;
    }
    return out;
}

} // namespace vgprof::viewer
