// SPDX-License-Identifier: GPL-2.0-or-later
// The Call graph view: the selected function with its callers above and
// callees below, N levels each way, laid out by Graphviz and fitted to the
// panel. Boxes grow wider and lighter with inclusive cost (in diff mode
// they are colored by its change); edges are as thick as their cost and
// labelled with their call counts where a label fits. The wheel zooms
// about the pointer, dragging the background pans, Fit fits again.
// Clicking a box selects its function everywhere; double-clicking makes it
// the centre.
#include "ui_util.hpp"
#include "views.hpp"

#include "capabilities.hpp"

#include "vgprof/error.hpp"
#include "vgprof/format.hpp"

#include <algorithm>
#include <cmath>

namespace vgprof::viewer {

namespace {

// A box's width in font heights: this much at least, up to kWidest more
// for the function holding the whole program.
constexpr float kNarrowest = 7;
constexpr float kWidest = 10;
constexpr float kMinZoom = 0.1f, kMaxZoom = 3;
// Below this font size on screen, text is not drawn (it cannot be read).
constexpr float kSmallestText = 5;

std::string cost_line(const ViewContext& ctx, const GraphNode& node)
{
    const FnId fn = node.fn;
    const uint64_t incl = node.inclusive;
    const uint64_t self = node.self;
    if (ctx.diff && ctx.coloring == DiffColoring::own) {
        const int64_t d = ctx.diff->self_delta(fn, ctx.event);
        return "own " + change_text(d, uint64_t(int64_t(self) - d));
    }
    if (ctx.diff) {
        const int64_t d = ctx.diff->inclusive_delta(fn, ctx.event);
        return change_text(d, uint64_t(int64_t(incl) - d));
    }
    return percent(incl, ctx.doc.total(ctx.event)) + " (self " + percent(self, ctx.doc.total(ctx.event)) + ")";
}

// Diff mode: a box's color by its function's change.
Rgb node_color(const ViewContext& ctx, const DiffScale& scale, FnId fn)
{
    const uint64_t incl = ctx.doc.inclusive(fn, ctx.event), self = ctx.doc.self(fn, ctx.event);
    return box_change_rgb(ctx, scale, incl, uint64_t(int64_t(incl) - ctx.diff->inclusive_delta(fn, ctx.event)),
                          self, uint64_t(int64_t(self) - ctx.diff->self_delta(fn, ctx.event)));
}

// Nodes of the selected heap site's stack, for highlighting.
bool on_selected_stack(const ViewContext& ctx, FnId fn)
{
    const Selection& sel = ctx.selection.current();
    const Heap* heap = ctx.doc.heap();
    if (sel.kind != Selection::Kind::site || !heap || sel.site >= heap->sites.size())
        return false;
    for (FrameId f : heap->sites[sel.site].frames)
        if (heap->frame(f).fn == fn)
            return true;
    return false;
}

} // namespace

void CallGraphView::draw(ViewContext& ctx)
{
    if (const auto why = why_no_call_graph(ctx.doc.profile())) {
        centred_message(why->c_str());
        return;
    }
    if (ctx.doc.num_functions() == 0) {
        centred_message("This profile has no functions: nothing was collected while the program ran.");
        return;
    }
    const Selection& sel = ctx.selection.current();
    if (ctx.selection.version() != seen_version_) {
        if (sel.fn && ctx.selection.version() != own_version_)
            centre_ = sel.fn;
        seen_version_ = ctx.selection.version();
    }
    if (!centre_) {
        // Nothing selected yet: the most expensive function.
        FnId best{0};
        for (size_t i = 1; i < ctx.doc.num_functions(); ++i)
            if (ctx.doc.inclusive(FnId{uint32_t(i)}, ctx.event) > ctx.doc.inclusive(best, ctx.event))
                best = FnId{uint32_t(i)};
        centre_ = best;
    }

    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    ImGui::SliderInt("Levels", &depth_, 1, 6);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    ImGui::SliderInt("Per level", &per_level_, 2, 24);
    ImGui::SameLine();
    if (ImGui::Button("Fit"))
        fit_pending_ = true;
    ImGui::SameLine();
    if (ImGui::Button("100%")) {
        zoom_ = 1;
        fit_pending_ = false;
    }
    ImGui::SameLine();
    ImGui::TextDisabled("click: select  double-click: centre  wheel: zoom  drag: pan");

    const Key key{centre_, ctx.event, depth_, per_level_, ImGui::GetFontSize()};
    if (!built_ || !(*built_ == key)) {
        built_ = key;
        rebuild(ctx);
    }
    if (!error_.empty()) {
        centred_message(error_.c_str());
        return;
    }
    draw_canvas(ctx);
}

void CallGraphView::rebuild(ViewContext& ctx)
{
    error_.clear();
    graph_ = call_neighbourhood(ctx.doc, *centre_, ctx.event, depth_, size_t(per_level_));
    const float font = ImGui::GetFontSize();
    const double total = double(std::max<uint64_t>(1, ctx.doc.total(ctx.event)));
    LayoutInput in;
    labels_.clear();
    for (const GraphNode& n : graph_.nodes) {
        // Wider for more cost, so the expensive paths stand out at a glance;
        // at least as wide as the cost line (the name is cut to fit, not
        // the figures).
        const double share = double(n.inclusive) / total;
        const float width = std::max(font * float(kNarrowest + kWidest * std::sqrt(share)),
                                     ImGui::CalcTextSize(cost_line(ctx, n).c_str()).x + font * 0.8f);
        labels_.push_back(fit_text(ctx.doc.names().function(n.fn), width - font * 0.6f));
        in.node_sizes.push_back(Point{width, font * 2.9f});
    }
    try {
        layout_ = layout_graph(graph_, in);
    } catch (const Error& e) {
        error_ = e.what();
        return;
    }
    edge_labels_.clear();
    notes_.clear();
    std::vector<Point> sizes;
    std::vector<uint64_t> priority;
    for (const GraphEdge& e : graph_.edges) {
        edge_labels_.push_back(e.count == 0 ? std::string("inlined") : format_thousands(e.count) + "x");
        const ImVec2 size = ImGui::CalcTextSize(edge_labels_.back().c_str());
        sizes.push_back(Point{size.x + 4, size.y});
        // The centre's own calls first, then by cost.
        priority.push_back(e.from == 0 || e.to == 0 ? UINT64_MAX : e.cost);
    }
    std::vector<BoxNote> notes;
    note_of_.assign(graph_.nodes.size(), SIZE_MAX);
    for (size_t i = 0; i < graph_.nodes.size(); ++i) {
        const GraphNode& n = graph_.nodes[i];
        if (n.hidden == 0)
            continue;
        const std::string note = "+" + std::to_string(n.hidden) +
                                 (n.level < 0 ? " callers" : n.level > 0 ? " callees" : " not shown");
        const ImVec2 size = ImGui::CalcTextSize(note.c_str());
        note_of_[i] = notes.size();
        // Above a caller, below a callee, beside the centre, whose calls
        // leave from above and below.
        notes.push_back({i, Point{size.x + 4, size.y}, n.level < 0 ? -1 : n.level > 0 ? 1 : 0});
        notes_.push_back(note);
    }
    placed_ = place_labels(layout_, sizes, priority, notes);
    // What fitting must keep in view: the layout and the notes put beside
    // its outermost boxes.
    low_ = Point{0, 0};
    high_ = Point{layout_.width, layout_.height};
    for (size_t n = 0; n < notes.size(); ++n) {
        const Point c = placed_.notes[n], half{notes[n].size.x / 2, notes[n].size.y / 2};
        low_ = Point{std::min(low_.x, c.x - half.x), std::min(low_.y, c.y - half.y)};
        high_ = Point{std::max(high_.x, c.x + half.x), std::max(high_.y, c.y + half.y)};
    }
    fit_pending_ = true;
}

DiffScale CallGraphView::change_scale(const ViewContext& ctx) const
{
    int64_t total = 1, own = 1;
    if (ctx.diff)
        for (const GraphNode& n : graph_.nodes) {
            total = std::max(total, std::abs(ctx.diff->inclusive_delta(n.fn, ctx.event)));
            own = std::max(own, std::abs(ctx.diff->self_delta(n.fn, ctx.event)));
        }
    return box_scale(ctx, total, own);
}

void CallGraphView::fit(ImVec2 avail)
{
    const float margin = ImGui::GetFontSize() * 1.5f;
    const float w = std::max(1.0f, high_.x - low_.x), h = std::max(1.0f, high_.y - low_.y);
    zoom_ = std::clamp(std::min((avail.x - 2 * margin) / w, (avail.y - 2 * margin) / h), kMinZoom, 1.0f);
    pan_ = ImVec2((avail.x - w * zoom_) / 2 - low_.x * zoom_, (avail.y - h * zoom_) / 2 - low_.y * zoom_);
}

void CallGraphView::draw_canvas(ViewContext& ctx)
{
    const float font = ImGui::GetFontSize();
    if (ctx.diff)
        box_legend(ctx, change_scale(ctx));
    if (graph_.edges_left_out > 0) {
        ImGui::TextDisabled("%s between the functions shown not drawn (the most expensive are)",
                            count_text(graph_.edges_left_out, "call", "calls").c_str());
    }
    ImGui::BeginChild("canvas", ImVec2(0, 0), true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                                                        ImGuiWindowFlags_NoMove);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 corner = ImGui::GetCursorScreenPos();
    if (fit_pending_ && avail.x > 1 && avail.y > 1) {
        fit(avail);
        fit_pending_ = false;
    }
    ImGui::InvisibleButton("canvas", ImVec2(std::max(1.0f, avail.x), std::max(1.0f, avail.y)));
    const bool canvas_hovered = ImGui::IsItemHovered();
    const auto at = [&](Point p) { return ImVec2(corner.x + pan_.x + p.x * zoom_, corner.y + pan_.y + p.y * zoom_); };
    const float text_size = font * zoom_;
    const bool text = text_size >= kSmallestText;
    ImFont* face = ImGui::GetFont();

    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 mouse = ImGui::GetMousePos();
    std::optional<size_t> hovered;
    for (size_t i = 0; i < layout_.nodes.size(); ++i) {
        const Box& b = layout_.nodes[i];
        const ImVec2 c = at(b.centre);
        if (canvas_hovered && std::abs(mouse.x - c.x) <= b.width * zoom_ / 2 &&
            std::abs(mouse.y - c.y) <= b.height * zoom_ / 2)
            hovered = i;
    }

    // Edges first, under the boxes.
    uint64_t max_edge = 1;
    for (const GraphEdge& e : graph_.edges)
        max_edge = std::max(max_edge, e.cost);
    for (size_t i = 0; i < graph_.edges.size(); ++i) {
        const GraphEdge& e = graph_.edges[i];
        const EdgeRoute& r = layout_.edges[i];
        if (r.spline.size() < 4)
            continue;
        const bool lit = hovered && (e.from == *hovered || e.to == *hovered);
        const ImU32 color = lit ? IM_COL32(40, 110, 220, 255) : IM_COL32(90, 90, 100, 220);
        const float thickness = std::max(1.0f, zoom_ * (1.0f + 5.0f * float(std::sqrt(double(e.cost) / double(max_edge)))));
        for (size_t k = 0; k + 3 < r.spline.size(); k += 3)
            draw->AddBezierCubic(at(r.spline[k]), at(r.spline[k + 1]), at(r.spline[k + 2]), at(r.spline[k + 3]),
                                 color, thickness);
        // The arrowhead, from the spline's end to the tip dot left for it.
        const ImVec2 tip = at(r.arrow_end);
        const ImVec2 from = at(r.spline.back());
        const float dx = tip.x - from.x, dy = tip.y - from.y;
        const float len = std::max(1.0f, std::sqrt(dx * dx + dy * dy));
        const float w = std::max(font * 0.3f * zoom_, thickness * 1.2f);
        const ImVec2 side(-dy / len * w, dx / len * w);
        draw->AddTriangleFilled(tip, ImVec2(from.x + side.x, from.y + side.y),
                                ImVec2(from.x - side.x, from.y - side.y), color);
        if (!text || !placed_.edges[i])
            continue;
        const ImVec2 lc = at(*placed_.edges[i]);
        const ImVec2 size = face->CalcTextSizeA(text_size, FLT_MAX, 0, edge_labels_[i].c_str());
        const ImVec2 tl(lc.x - size.x / 2, lc.y - size.y / 2);
        draw->AddRectFilled(ImVec2(tl.x - 2, tl.y), ImVec2(tl.x + size.x + 2, tl.y + size.y),
                            ImGui::GetColorU32(ImGuiCol_ChildBg, 0.85f));
        draw->AddText(face, text_size, tl, lit ? color : ImGui::GetColorU32(ImGuiCol_Text), edge_labels_[i].c_str());
    }

    const DiffScale scale = change_scale(ctx);
    const Selection& sel = ctx.selection.current();
    const uint64_t total = std::max<uint64_t>(1, ctx.doc.total(ctx.event));
    for (size_t i = 0; i < graph_.nodes.size(); ++i) {
        const GraphNode& n = graph_.nodes[i];
        const Box& b = layout_.nodes[i];
        const ImVec2 c = at(b.centre);
        const float hw = b.width * zoom_ / 2, hh = b.height * zoom_ / 2;
        const ImVec2 tl(c.x - hw, c.y - hh), br(c.x + hw, c.y + hh);
        const Rgb fill = ctx.diff ? node_color(ctx, scale, n.fn)
                                  : sequential_color(0.25 + 0.75 * std::sqrt(double(n.inclusive) / double(total)));
        const float rounding = font * 0.25f * zoom_;
        draw->AddRectFilled(tl, br, to_imgui(fill), rounding);
        ImU32 border = IM_COL32(60, 60, 70, 255);
        float border_width = 1;
        if (i == 0) {
            border = IM_COL32(20, 20, 20, 255);
            border_width = 3;
        }
        if (on_selected_stack(ctx, n.fn)) {
            border = IM_COL32(230, 120, 20, 255);
            border_width = 3;
        }
        if (sel.fn == n.fn) {
            border = IM_COL32(255, 200, 0, 255);
            border_width = 3;
        }
        if (hovered == i)
            border = IM_COL32(40, 110, 220, 255);
        draw->AddRect(tl, br, border, rounding, 0, border_width);
        if (!text)
            continue;
        const ImU32 ink = to_imgui(text_color_on(fill));
        const std::string costs = fit_text(cost_line(ctx, n), b.width - font * 0.6f);
        const float line = text_size * 1.15f;
        const float name_w = face->CalcTextSizeA(text_size, FLT_MAX, 0, labels_[i].c_str()).x;
        const float cost_w = face->CalcTextSizeA(text_size, FLT_MAX, 0, costs.c_str()).x;
        draw->AddText(face, text_size, ImVec2(c.x - name_w / 2, c.y - line + text_size * 0.1f), ink, labels_[i].c_str());
        draw->AddText(face, text_size, ImVec2(c.x - cost_w / 2, c.y + text_size * 0.1f), ink, costs.c_str());
        if (note_of_[i] != SIZE_MAX) {
            const std::string& note = notes_[note_of_[i]];
            const ImVec2 nc = at(placed_.notes[note_of_[i]]);
            const float w = face->CalcTextSizeA(text_size, FLT_MAX, 0, note.c_str()).x;
            const ImVec2 where(nc.x - w / 2, nc.y - text_size / 2);
            // On a patch of the background, for when no place clear of the
            // lines was found.
            draw->AddRectFilled(ImVec2(where.x - 2, where.y), ImVec2(where.x + w + 2, where.y + text_size),
                                ImGui::GetColorU32(ImGuiCol_WindowBg));
            draw->AddText(face, text_size, where, ImGui::GetColorU32(ImGuiCol_TextDisabled), note.c_str());
        }
    }

    const ImGuiIO& io = ImGui::GetIO();
    if (canvas_hovered && io.MouseWheel != 0) {
        const float z = std::clamp(zoom_ * (io.MouseWheel > 0 ? 1.15f : 1 / 1.15f), kMinZoom, kMaxZoom);
        const ImVec2 m(mouse.x - corner.x, mouse.y - corner.y);
        pan_ = ImVec2(m.x - (m.x - pan_.x) * z / zoom_, m.y - (m.y - pan_.y) * z / zoom_);
        zoom_ = z;
    }
    if (hovered) {
        const FnId fn = graph_.nodes[*hovered].fn;
        function_tooltip(ctx, fn);
        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
            centre_ = fn;
            ctx.selection.select(Selection::function(fn));
            own_version_ = ctx.selection.version();
        } else if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
            ctx.selection.select(Selection::function(fn));
            own_version_ = ctx.selection.version();
        }
    } else if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
        pan_ = ImVec2(pan_.x + io.MouseDelta.x, pan_.y + io.MouseDelta.y);
    }
    ImGui::EndChild();
}

} // namespace vgprof::viewer
