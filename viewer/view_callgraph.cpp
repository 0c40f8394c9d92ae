// SPDX-License-Identifier: GPL-2.0-or-later
// The Call graph view: the selected function with its callers above and
// callees below, N levels each way, laid out by Graphviz. Boxes grow and
// darken with inclusive cost (in diff mode they are colored by its change);
// edges are labelled with call counts and are as thick as their cost.
// Clicking a box selects its function everywhere; double-clicking makes it
// the centre.
#include "ui_util.hpp"
#include "views.hpp"

#include "vgprof/error.hpp"
#include "vgprof/query.hpp"

#include <algorithm>
#include <cmath>

namespace vgprof::viewer {

namespace {

// A box's name line is cut to this many font heights.
constexpr float kMaxNameWidth = 20;

ImVec2 operator+(ImVec2 a, ImVec2 b) { return ImVec2(a.x + b.x, a.y + b.y); }
ImVec2 at(ImVec2 origin, Point p) { return ImVec2(origin.x + p.x, origin.y + p.y); }

std::string cost_line(const ViewContext& ctx, FnId fn)
{
    const uint64_t incl = ctx.doc.inclusive(fn, ctx.event);
    const uint64_t self = ctx.doc.self(fn, ctx.event);
    if (ctx.diff)
        return signed_count(ctx.diff->inclusive_delta(fn, ctx.event)) + " incl";
    return percent(incl, ctx.doc.total(ctx.event)) + " incl, " +
           percent(self, ctx.doc.total(ctx.event)) + " self";
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
    const Profile& p = ctx.doc.profile();
    if (!p.has_call_graph()) {
        centred_message("This profile has no call graph: it was recorded with --call-graph=no.");
        return;
    }
    if (ctx.doc.num_functions() == 0) {
        centred_message("This profile has no functions: nothing was collected while the program ran.");
        return;
    }
    const Selection& sel = ctx.selection.current();
    if (ctx.selection.version() != seen_version_) {
        if (sel.fn && ctx.selection.version() != own_version_) {
            centre_ = sel.fn;
            scroll_to_centre_ = true;
        }
        seen_version_ = ctx.selection.version();
    }
    if (!centre_) {
        // Nothing selected yet: the most expensive function.
        FnId best{0};
        for (size_t i = 1; i < ctx.doc.num_functions(); ++i)
            if (ctx.doc.inclusive(FnId{uint32_t(i)}, ctx.event) > ctx.doc.inclusive(best, ctx.event))
                best = FnId{uint32_t(i)};
        centre_ = best;
        scroll_to_centre_ = true;
    }

    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::SliderInt("Levels", &depth_, 1, 6);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::SliderInt("Per level", &per_level_, 2, 24);
    ImGui::SameLine();
    ImGui::TextDisabled("click: select   double-click: centre   drag: pan");

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
    const Profile& p = ctx.doc.profile();
    const float font = ImGui::GetFontSize();
    LayoutInput in;
    in.font_size = font;
    labels_.clear();
    for (const GraphNode& n : graph_.nodes) {
        const std::string name = fit_text(p.fn_name(n.fn), font * kMaxNameWidth);
        labels_.push_back(name);
        const float text = std::max(ImGui::CalcTextSize(name.c_str()).x,
                                    ImGui::CalcTextSize(cost_line(ctx, n.fn).c_str()).x);
        // Wider for more cost, so the expensive paths stand out at a glance.
        const double share = ctx.doc.total(ctx.event)
                                 ? double(n.inclusive) / double(ctx.doc.total(ctx.event))
                                 : 0;
        const float width = std::max(text + font * 1.2f, font * float(6 + 10 * std::sqrt(share)));
        in.node_sizes.push_back(Point{width, font * 2.9f});
    }
    for (const GraphEdge& e : graph_.edges)
        in.edge_labels.push_back(format_thousands(e.count) + "x");
    try {
        layout_ = layout_graph(graph_, in);
    } catch (const Error& e) {
        error_ = e.what();
    }
    scroll_to_centre_ = true;
}

void CallGraphView::draw_canvas(ViewContext& ctx)
{
    const float font = ImGui::GetFontSize();
    const float margin = font * 2;
    ImGui::BeginChild("canvas", ImVec2(0, 0), true,
                      ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoMove);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 content(layout_.width + 2 * margin, layout_.height + 2 * margin);
    // A graph smaller than the view is centred in it.
    const ImVec2 offset(std::max(0.0f, (avail.x - content.x) / 2),
                        std::max(0.0f, (avail.y - content.y) / 2));
    const ImVec2 origin = ImGui::GetCursorScreenPos() + offset + ImVec2(margin, margin);
    ImGui::Dummy(ImVec2(content.x + offset.x, content.y + offset.y));

    if (scroll_to_centre_ && !layout_.nodes.empty()) {
        const Box& c = layout_.nodes[0];
        ImGui::SetScrollX(std::max(0.0f, offset.x + margin + c.centre.x - avail.x / 2));
        ImGui::SetScrollY(std::max(0.0f, offset.y + margin + c.centre.y - avail.y / 2));
        scroll_to_centre_ = false;
    }

    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 mouse = ImGui::GetMousePos();
    const bool canvas_hovered = ImGui::IsWindowHovered();
    std::optional<size_t> hovered;
    for (size_t i = 0; i < layout_.nodes.size(); ++i) {
        const Box& b = layout_.nodes[i];
        const ImVec2 c = at(origin, b.centre);
        if (canvas_hovered && std::abs(mouse.x - c.x) <= b.width / 2 &&
            std::abs(mouse.y - c.y) <= b.height / 2)
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
        const float thickness = 1.0f + 5.0f * float(std::sqrt(double(e.cost) / double(max_edge)));
        for (size_t k = 0; k + 3 < r.spline.size(); k += 3)
            draw->AddBezierCubic(at(origin, r.spline[k]), at(origin, r.spline[k + 1]),
                                 at(origin, r.spline[k + 2]), at(origin, r.spline[k + 3]), color,
                                 thickness);
        // The arrowhead, from the spline's end to the tip dot left for it.
        const ImVec2 tip = at(origin, r.arrow_end);
        const ImVec2 from = at(origin, r.spline.back());
        const float dx = tip.x - from.x, dy = tip.y - from.y;
        const float len = std::max(1.0f, std::sqrt(dx * dx + dy * dy));
        const float w = std::max(font * 0.3f, thickness * 1.2f);
        const ImVec2 side(-dy / len * w, dx / len * w);
        draw->AddTriangleFilled(tip, ImVec2(from.x + side.x, from.y + side.y),
                                ImVec2(from.x - side.x, from.y - side.y), color);
        const std::string label = format_thousands(e.count) + "x";
        const ImVec2 size = ImGui::CalcTextSize(label.c_str());
        const ImVec2 lc = at(origin, r.label_centre);
        const ImVec2 tl(lc.x - size.x / 2, lc.y - size.y / 2);
        draw->AddRectFilled(ImVec2(tl.x - 2, tl.y), ImVec2(tl.x + size.x + 2, tl.y + size.y),
                            ImGui::GetColorU32(ImGuiCol_WindowBg));
        draw->AddText(tl, lit ? color : ImGui::GetColorU32(ImGuiCol_Text), label.c_str());
    }

    int64_t max_delta = 1;
    if (ctx.diff)
        for (const GraphNode& n : graph_.nodes)
            max_delta = std::max(max_delta, std::abs(ctx.diff->inclusive_delta(n.fn, ctx.event)));
    const Selection& sel = ctx.selection.current();
    const uint64_t total = std::max<uint64_t>(1, ctx.doc.total(ctx.event));
    for (size_t i = 0; i < graph_.nodes.size(); ++i) {
        const GraphNode& n = graph_.nodes[i];
        const Box& b = layout_.nodes[i];
        const ImVec2 c = at(origin, b.centre);
        const ImVec2 tl(c.x - b.width / 2, c.y - b.height / 2);
        const ImVec2 br(c.x + b.width / 2, c.y + b.height / 2);
        const Rgb fill = ctx.diff ? delta_rgb(ctx.diff->inclusive_delta(n.fn, ctx.event), max_delta)
                                  : sequential_color(0.25 + 0.75 * std::sqrt(double(n.inclusive) / double(total)));
        const float rounding = font * 0.25f;
        draw->AddRectFilled(tl, br, to_imgui(fill), rounding);
        const bool selected = sel.fn == n.fn;
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
        if (selected) {
            border = IM_COL32(255, 200, 0, 255);
            border_width = 3;
        }
        if (hovered == i)
            border = IM_COL32(40, 110, 220, 255);
        draw->AddRect(tl, br, border, rounding, 0, border_width);
        const ImU32 text = to_imgui(text_color_on(fill));
        const std::string costs = cost_line(ctx, n.fn);
        const float line = font * 1.15f;
        const float name_w = ImGui::CalcTextSize(labels_[i].c_str()).x;
        const float cost_w = ImGui::CalcTextSize(costs.c_str()).x;
        draw->AddText(ImVec2(c.x - name_w / 2, c.y - line + font * 0.1f), text, labels_[i].c_str());
        draw->AddText(ImVec2(c.x - cost_w / 2, c.y + font * 0.1f), text, costs.c_str());
        if (n.hidden > 0) {
            const std::string more = "+" + std::to_string(n.hidden) +
                                     (n.level < 0 ? " callers" : n.level > 0 ? " callees" : " not shown");
            const float w = ImGui::CalcTextSize(more.c_str()).x;
            const float y = n.level < 0 ? tl.y - font * 1.1f : br.y + font * 0.1f;
            draw->AddText(ImVec2(c.x - w / 2, y), ImGui::GetColorU32(ImGuiCol_TextDisabled), more.c_str());
        }
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
    } else if (canvas_hovered && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
        const ImVec2 d = ImGui::GetIO().MouseDelta;
        ImGui::SetScrollX(ImGui::GetScrollX() - d.x);
        ImGui::SetScrollY(ImGui::GetScrollY() - d.y);
    }
    ImGui::EndChild();
}

} // namespace vgprof::viewer
