// SPDX-License-Identifier: GPL-2.0-or-later
// Placing edge labels clear of boxes and of each other.
#include "graph_labels.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace vgprof::viewer {

namespace {

// Where along a curve a label is tried, as a fraction of its pieces: the
// middle, then further and further from it.
constexpr float kAlong[] = {0.5f, 0.4f, 0.6f, 0.3f, 0.7f, 0.2f, 0.8f, 0.1f, 0.9f};
// Room left between a label and its curve, or anything else.
constexpr float kGap = 2;
// Points taken along each curve to keep labels off other edges' lines.
constexpr int kCurveSamples = 48;

// The point of a piecewise cubic Bézier curve (a start point then groups
// of three control points) at fraction `t` of its pieces.
Point point_on(const std::vector<Point>& spline, float t)
{
    const size_t pieces = (spline.size() - 1) / 3;
    const float at = std::clamp(t, 0.0f, 1.0f) * float(pieces);
    const size_t piece = std::min(pieces - 1, size_t(at));
    const float u = at - float(piece), v = 1 - u;
    const Point* p = &spline[3 * piece];
    const float a = v * v * v, b = 3 * v * v * u, c = 3 * v * u * u, d = u * u * u;
    return {a * p[0].x + b * p[1].x + c * p[2].x + d * p[3].x,
            a * p[0].y + b * p[1].y + c * p[2].y + d * p[3].y};
}

} // namespace

bool LabelBox::overlaps(const LabelBox& o, float gap) const
{
    return std::abs(centre.x - o.centre.x) * 2 < size.x + o.size.x + 2 * gap &&
           std::abs(centre.y - o.centre.y) * 2 < size.y + o.size.y + 2 * gap;
}

std::vector<std::optional<Point>> place_labels(const GraphLayout& layout,
                                               const std::vector<Point>& sizes,
                                               const std::vector<uint64_t>& priority)
{
    std::vector<LabelBox> taken;
    for (const Box& b : layout.nodes)
        taken.push_back({b.centre, {b.width, b.height}});
    // Points along every curve, so that a label is first looked for where
    // it covers no other edge's line.
    std::vector<std::pair<size_t, Point>> lines;
    for (size_t e = 0; e < layout.edges.size(); ++e)
        if (layout.edges[e].spline.size() >= 4)
            for (int k = 0; k <= kCurveSamples; ++k)
                lines.push_back({e, point_on(layout.edges[e].spline, float(k) / kCurveSamples)});
    std::vector<size_t> order(layout.edges.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return priority[a] > priority[b]; });
    std::vector<std::optional<Point>> out(layout.edges.size());
    for (size_t e : order) {
        const std::vector<Point>& spline = layout.edges[e].spline;
        if (spline.size() < 4)
            continue;
        const auto fits = [&](const LabelBox& label, bool off_lines) {
            const bool clear = std::none_of(taken.begin(), taken.end(),
                                            [&](const LabelBox& o) { return label.overlaps(o, kGap); });
            return clear && (!off_lines || std::none_of(lines.begin(), lines.end(), [&](const auto& l) {
                                 return l.first != e && label.overlaps({l.second, {0, 0}}, 1);
                             }));
        };
        for (const bool off_lines : {true, false}) {
            for (float t : kAlong) {
                const Point on = point_on(spline, t);
                // Beside the curve, right then left, so the line stays
                // visible; else over it.
                for (const float side : {1.0f, -1.0f, 0.0f}) {
                    const LabelBox label{{on.x + side * (sizes[e].x / 2 + kGap + 2), on.y}, sizes[e]};
                    if (fits(label, off_lines)) {
                        out[e] = label.centre;
                        taken.push_back(label);
                        break;
                    }
                }
                if (out[e])
                    break;
            }
            if (out[e])
                break;
        }
    }
    return out;
}

} // namespace vgprof::viewer
