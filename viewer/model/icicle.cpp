// SPDX-License-Identifier: GPL-2.0-or-later
// Laying out a merged tree's boxes.
#include "icicle.hpp"

namespace vgprof::viewer {

namespace {

void place(MergedTree& tree, const std::vector<uint32_t>& nodes, int depth, double x0, double scale,
           double min_width, int max_depth, Icicle& out)
{
    if (depth >= max_depth)
        return;
    double x = x0;
    for (uint32_t n : nodes) {
        const double w = double(tree.node(n).total) * scale;
        if (w < min_width)
            break;  // most expensive first: the rest are narrower still
        out.boxes.push_back({n, depth, x, x + w});
        out.depth = std::max(out.depth, depth + 1);
        if (tree.node(n).has_children) {
            const std::vector<uint32_t> below = tree.children(n);
            place(tree, below, depth + 1, x, scale, min_width, max_depth, out);
        }
        x += w;
    }
}

} // namespace

Icicle layout_icicle(MergedTree& tree, double min_width, int max_depth)
{
    Icicle out;
    if (tree.total() == 0)
        return out;
    const std::vector<uint32_t> roots = tree.roots();
    place(tree, roots, 0, 0, 1.0 / double(tree.total()), min_width, max_depth, out);
    return out;
}

} // namespace vgprof::viewer
