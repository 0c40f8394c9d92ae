// SPDX-License-Identifier: GPL-2.0-or-later
// Placing edge labels and box notes clear of boxes, lines and each other.
#include "graph_labels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace vgprof::viewer {

namespace {

// Where along a curve a label is tried, as a fraction of its pieces: the
// middle, then further and further from it.
constexpr float kAlong[] = {0.5f, 0.4f, 0.6f, 0.3f, 0.7f, 0.2f, 0.8f, 0.1f, 0.9f};
// Room left between a label and its curve, or anything else.
constexpr float kGap = 2;
// Points taken along each curve, joined by straight pieces, to keep labels
// off the lines.
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

// Each edge's curve as a polyline (empty for an edge without a route).
std::vector<std::vector<Point>> polylines(const GraphLayout& layout)
{
    std::vector<std::vector<Point>> out(layout.edges.size());
    for (size_t e = 0; e < layout.edges.size(); ++e)
        if (layout.edges[e].spline.size() >= 4)
            for (int k = 0; k <= kCurveSamples; ++k)
                out[e].push_back(point_on(layout.edges[e].spline, float(k) / kCurveSamples));
    return out;
}

// The centres tried for a note of box `b`, the first first: on its side
// (below a callee, above a caller) at the middle then further out, beside
// the box level with that side, beside its middle, then one row further
// out; the centre's beside it first.
std::vector<Point> note_places(const Box& b, const BoxNote& note)
{
    const float hw = b.width / 2, hh = b.height / 2, w = note.size.x, h = note.size.y;
    const float cx = b.centre.x, cy = b.centre.y;
    const float past = hw + kGap + w / 2;  // just clear of the box's left or right side
    std::vector<Point> out;
    const auto row = [&](float y) {
        for (const float dx : {0.0f, hw / 2, -hw / 2, hw - w / 2, w / 2 - hw, past, -past})
            out.push_back({cx + dx, y});
    };
    const auto beside = [&](float y) {
        out.push_back({cx + past, y});
        out.push_back({cx - past, y});
    };
    const float below = cy + hh + kGap + h / 2, above = cy - hh - kGap - h / 2;
    if (note.side > 0) {
        row(below);
        beside(cy + hh - h / 2);
        beside(cy);
        row(below + h + kGap);
    } else if (note.side < 0) {
        row(above);
        beside(cy - hh + h / 2);
        beside(cy);
        row(above - h - kGap);
    } else {
        beside(cy);
        beside(cy + hh - h / 2);
        beside(cy - hh + h / 2);
        row(below);
        row(above);
    }
    return out;
}

} // namespace

bool LabelBox::overlaps(const LabelBox& o, float gap) const
{
    return std::abs(centre.x - o.centre.x) * 2 < size.x + o.size.x + 2 * gap &&
           std::abs(centre.y - o.centre.y) * 2 < size.y + o.size.y + 2 * gap;
}

bool covers_line(const LabelBox& label, const std::vector<Point>& line)
{
    const float left = label.centre.x - label.size.x / 2, right = label.centre.x + label.size.x / 2;
    const float top = label.centre.y - label.size.y / 2, bottom = label.centre.y + label.size.y / 2;
    // Each piece clipped to the rectangle (Liang and Barsky): it covers the
    // piece when some of the piece is left.
    for (size_t i = 0; i + 1 < line.size(); ++i) {
        const Point a = line[i], b = line[i + 1];
        const float dx = b.x - a.x, dy = b.y - a.y;
        const float towards[4] = {-dx, dx, -dy, dy};
        const float room[4] = {a.x - left, right - a.x, a.y - top, bottom - a.y};
        float enter = 0, leave = 1;
        bool inside = true;
        for (int k = 0; k < 4 && inside; ++k) {
            if (towards[k] == 0) {
                inside = room[k] >= 0;
                continue;
            }
            const float t = room[k] / towards[k];
            if (towards[k] < 0)
                enter = std::max(enter, t);
            else
                leave = std::min(leave, t);
            inside = enter <= leave;
        }
        if (inside)
            return true;
    }
    return false;
}

PlacedLabels place_labels(const GraphLayout& layout, const std::vector<Point>& sizes,
                          const std::vector<uint64_t>& priority, const std::vector<BoxNote>& notes)
{
    std::vector<LabelBox> taken;
    for (const Box& b : layout.nodes)
        taken.push_back({b.centre, {b.width, b.height}});
    const std::vector<std::vector<Point>> lines = polylines(layout);
    constexpr size_t kNoEdge = SIZE_MAX;
    // Whether `label` is clear of what is placed and, with `off_lines`, of
    // every line but edge `own`'s.
    const auto fits = [&](const LabelBox& label, bool off_lines, size_t own) {
        if (std::any_of(taken.begin(), taken.end(), [&](const LabelBox& o) { return label.overlaps(o, kGap); }))
            return false;
        const LabelBox grown{label.centre, {label.size.x + 2, label.size.y + 2}};
        for (size_t e = 0; off_lines && e < lines.size(); ++e)
            if (e != own && covers_line(grown, lines[e]))
                return false;
        return true;
    };
    PlacedLabels out;
    for (const BoxNote& note : notes) {
        const std::vector<Point> places = note_places(layout.nodes[note.node], note);
        std::optional<Point> at;
        for (const bool off_lines : {true, false})
            for (size_t i = 0; i < places.size() && !at; ++i)
                if (fits({places[i], note.size}, off_lines, kNoEdge))
                    at = places[i];
        out.notes.push_back(at.value_or(places.front()));
        taken.push_back({out.notes.back(), note.size});
    }
    std::vector<size_t> order(layout.edges.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return priority[a] > priority[b]; });
    out.edges.resize(layout.edges.size());
    for (size_t e : order) {
        const std::vector<Point>& spline = layout.edges[e].spline;
        if (spline.size() < 4)
            continue;
        for (const bool off_lines : {true, false}) {
            for (float t : kAlong) {
                const Point on = point_on(spline, t);
                // Beside the curve, right then left, so the line stays
                // visible; else over it.
                for (const float side : {1.0f, -1.0f, 0.0f}) {
                    const LabelBox label{{on.x + side * (sizes[e].x / 2 + kGap + 2), on.y}, sizes[e]};
                    if (fits(label, off_lines, e)) {
                        out.edges[e] = label.centre;
                        taken.push_back(label);
                        break;
                    }
                }
                if (out.edges[e])
                    break;
            }
            if (out.edges[e])
                break;
        }
    }
    return out;
}

} // namespace vgprof::viewer
