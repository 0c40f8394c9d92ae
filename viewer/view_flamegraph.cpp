// SPDX-License-Identifier: GPL-2.0-or-later
// The Flame graph view, drawn as an icicle: the program on top, each call
// path's box under its caller's, and each inlined function's under the
// function it was inlined into where the call tree shows it, as wide as
// its inclusive cost of the chosen event. Clicking a box selects its
// function and zooms to it; clicking a box above the zoomed one (or
// Escape) zooms back out. The selected function's boxes stand out
// wherever it was called from; in diff mode every box is colored by the
// change of its path's cost.
#include "ui_util.hpp"
#include "views.hpp"

#include "capabilities.hpp"

#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"


#include <algorithm>
#include <cmath>
#include <functional>

namespace vgprof::viewer {

namespace {

// Diff mode: the change of a path node's own cost.
int64_t own_delta(const ViewContext& ctx, PathId node)
{
    const uint64_t now = ctx.doc.profile().path_self(node.index())[ctx.event];
    const auto be = ctx.diff->base_event(ctx.event);
    const auto bp = ctx.diff->base_path(node);
    return signed_delta(now, be && bp ? ctx.diff->base().profile().path_self(bp->index())[*be] : 0);
}

// Diff mode: a box's color by its path's change ("all": the program's).
Rgb box_color(const ViewContext& ctx, const DiffScale& scale, const FlameBox& b)
{
    if (!b.path) {
        const int64_t d = ctx.diff->total_delta(ctx.event);
        const uint64_t now = ctx.doc.total(ctx.event);
        return box_change_rgb(ctx, scale, now, uint64_t(int64_t(now) - d), 0, 0);
    }
    const Profile& p = ctx.doc.profile();
    const uint64_t total = p.path_inclusive(b.path->index())[ctx.event];
    const uint64_t own = p.path_self(b.path->index())[ctx.event];
    return box_change_rgb(ctx, scale, total, uint64_t(int64_t(total) - ctx.diff->path_delta(*b.path, ctx.event)),
                          own, uint64_t(int64_t(own) - own_delta(ctx, *b.path)));
}

std::string box_name(const ViewContext& ctx, const FlameBox& b)
{
    return !b.node ? "all" : b.fn ? ctx.doc.names().function(*b.fn) : "[truncated]";
}

} // namespace

void FlameGraphView::draw(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    if (const auto why = why_no_call_paths(p)) {
        centred_message(why->c_str());
        return;
    }
    const float font = ImGui::GetFontSize();
    const float row = font + 6;
    if (!tree_ || tree_->event() != ctx.event || &tree_->doc() != &ctx.doc) {
        // Diff mode compares the costs as both profiles recorded them, as
        // the call tree does.
        tree_.emplace(ctx.doc, ctx.event, ctx.diff == nullptr);
        built_.reset();
    }

    if (zoom_) {
        if (ImGui::Button("Zoom out"))
            zoom_ = tree_->parent(*zoom_);
        ImGui::SameLine();
        if (ImGui::Button("Whole program"))
            zoom_.reset();
        ImGui::SameLine();
    }
    ImGui::TextDisabled("%s: click a box to select its function and zoom to it; Escape zooms out",
                        p.meta().events[ctx.event].c_str());
    if (zoom_ && key_pressed(ViewKey::Escape) && ImGui::IsWindowFocused(ImGuiFocusedFlags_ChildWindows))
        zoom_ = tree_->parent(*zoom_);

    if (ctx.diff)
        box_legend(ctx, box_scale(ctx, max_total_delta_, max_own_delta_));
    ImGui::BeginChild("flame", ImVec2(0, 0), true);
    const float width = ImGui::GetContentRegionAvail().x;
    const Key key{ctx.event, zoom_, int(width)};
    if (!built_ || !(*built_ == key)) {
        built_ = key;
        graph_ = build_flame_graph(*tree_, zoom_, 1.0 / std::max(1.0f, width));
        max_total_delta_ = max_own_delta_ = 1;
        if (ctx.diff)
            for (const FlameBox& b : graph_.boxes)
                if (b.path) {
                    max_total_delta_ = std::max(max_total_delta_, std::abs(ctx.diff->path_delta(*b.path, ctx.event)));
                    max_own_delta_ = std::max(max_own_delta_, std::abs(own_delta(ctx, *b.path)));
                }
    }
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(width, row * float(graph_.depth)));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 mouse = ImGui::GetMousePos();
    const bool hovering = ImGui::IsWindowHovered();
    const Selection& sel = ctx.selection.current();
    const float top = ImGui::GetScrollY(), bottom = top + ImGui::GetWindowHeight();
    const FlameBox* hovered = nullptr;
    const uint64_t total = std::max<uint64_t>(1, ctx.doc.total(ctx.event));
    const DiffScale scale = box_scale(ctx, max_total_delta_, max_own_delta_);

    for (const FlameBox& b : graph_.boxes) {
        const float y0 = float(b.depth) * row;
        if (y0 + row < top || y0 > bottom)
            continue;
        const ImVec2 tl(origin.x + float(b.x0) * width, origin.y + y0);
        const ImVec2 br(origin.x + float(b.x1) * width, origin.y + y0 + row - 1);
        const bool is_selected = b.fn && sel.fn && *b.fn == *sel.fn;
        const std::string name = box_name(ctx, b);
        Rgb fill = !ctx.diff ? flame_color(name) : box_color(ctx, scale, b);
        if (is_selected && !ctx.diff)
            fill = Rgb{120, 170, 250};
        if (b.above_zoom)
            fill = Rgb{uint8_t(fill.r * 0.7 + 60), uint8_t(fill.g * 0.7 + 60), uint8_t(fill.b * 0.7 + 60)};
        draw->AddRectFilled(tl, ImVec2(std::max(br.x - 1, tl.x + 1), br.y), to_imgui(fill));
        if (is_selected)
            draw->AddRect(tl, ImVec2(std::max(br.x - 1, tl.x + 1), br.y), IM_COL32(20, 60, 160, 255), 0, 0, 2);
        const float w = br.x - tl.x;
        if (w > font * 2) {
            const std::string text =
                fit_text(name + " (" + percent(b.value, total) + ")", w - 6);
            draw->AddText(ImVec2(tl.x + 3, tl.y + 3), to_imgui(text_color_on(fill)), text.c_str());
        }
        if (hovering && mouse.x >= tl.x && mouse.x < br.x && mouse.y >= tl.y && mouse.y < br.y)
            hovered = &b;
    }

    if (hovered) {
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(box_name(ctx, *hovered).c_str());
        ImGui::Text("%s %s, %s of the program", format_thousands(hovered->value).c_str(),
                    p.meta().events[ctx.event].c_str(), percent(hovered->value, total).c_str());
        if (hovered->node)
            ImGui::Text("own: %s", format_thousands(hovered->self).c_str());
        if (zoom_)
            ImGui::Text("%s of the zoomed box", percent(hovered->value, graph_.width_value).c_str());
        if (ctx.diff && hovered->path)
            ImGui::Text("change: %s", signed_count(ctx.diff->path_delta(*hovered->path, ctx.event)).c_str());
        if (hovered->fn && p.function(*hovered->fn).inlined)
            ImGui::TextUnformatted("inlined");
        else if (hovered->path)
            ImGui::Text("calls: %s", format_thousands(p.path(*hovered->path).count).c_str());
        ImGui::EndTooltip();
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
            if (!hovered->node) {
                zoom_.reset();
            } else {
                zoom_ = hovered->node;
                if (hovered->fn)
                    ctx.selection.select(Selection::function(*hovered->fn));
            }
        }
    }
    ImGui::EndChild();
}

} // namespace vgprof::viewer
