// SPDX-License-Identifier: GPL-2.0-or-later
// The Sandwich view (speedscope's name for it): the selected function with
// its callers above, drawn as an upside-down flame graph growing upwards
// from it, and its callees below, a flame graph growing downwards; both
// merged over every call of the function, so the function's whole cost is
// the full width, split by where it was called from and by what it called.
// Clicking a box selects that function, which becomes the middle.
#include "tree_ui.hpp"
#include "ui_util.hpp"
#include "views.hpp"

#include "capabilities.hpp"

#include "vgprof/format.hpp"
#include "vgprof/query.hpp"

namespace vgprof::viewer {

namespace {

struct Half {
    MergedTree* tree;
    const Icicle& boxes;
    bool upward;
    bool scroll_to_function;  // the callers' half: scroll to its bottom
};

// One half in a child window of its own, scrolled so that the function's
// row is against the middle; returns the box clicked.
std::optional<FnId> draw_half(ViewContext& ctx, const char* id, Half& half, float height, float row,
                              const char* what, const DiffScale& scale)
{
    std::optional<FnId> clicked;
    ImGui::BeginChild(id, ImVec2(0, height), true);
    const float width = ImGui::GetContentRegionAvail().x;
    const float content = row * float(std::max(1, half.boxes.depth));
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const float room = ImGui::GetContentRegionAvail().y;
    // The callers grow upwards from the bottom of their half.
    const float pad = half.upward ? std::max(0.0f, room - content) : 0.0f;
    ImGui::Dummy(ImVec2(width, content + pad));
    if (half.scroll_to_function)
        ImGui::SetScrollY(content + pad);
    const ImVec2 origin(top.x, half.upward ? top.y + pad + content : top.y);
    const auto hovered = draw_icicle(ctx, half.boxes, *half.tree, origin, width, row, half.upward, scale);
    if (hovered) {
        const uint32_t node = half.boxes.boxes[*hovered].node;
        tree_node_tooltip(ctx, *half.tree, node, what);
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left))
            clicked = half.tree->node(node).key.fn();
    }
    ImGui::EndChild();
    return clicked;
}

} // namespace

void SandwichView::draw(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    if (const auto why = why_no_call_paths(p)) {
        centred_message(why->c_str());
        return;
    }
    const Selection& sel = ctx.selection.current();
    if (!sel.fn) {
        centred_message("Select a function to see what called it and what it called.");
        return;
    }
    const CallTree& tree = shared_->tree(ctx);
    const float width = ImGui::GetContentRegionAvail().x;
    const Key key{sel.fn, shared_->version(), int(width)};
    if (!built_ || !(*built_ == key)) {
        built_ = key;
        const NodeKey fn = NodeKey::of(*sel.fn);
        callers_ = MergedTree::callers_of(tree, fn);
        callees_ = MergedTree::callees_of(tree, fn);
        const double min_width = 1.0 / std::max(1.0f, width);
        callers_boxes_ = layout_icicle(*callers_, min_width);
        callees_boxes_ = layout_icicle(*callees_, min_width);
        scroll_callers_ = true;
    }
    const std::string name = p.fn_name(*sel.fn);
    if (callers_->roots().empty()) {
        draw_transform_bar(*shared_, p);
        centred_message((name + " has no cost of this event in the call tree shown.").c_str());
        return;
    }
    // The total is its outermost calls' (a recursive call's cost is in its
    // caller's); its own cost and its calls are every call's.
    const MergedTree::Node& centre = callers_->node(callers_->roots().front());
    const CallTree::Own own = tree.own(NodeKey::of(*sel.fn));
    const std::string& event = p.meta().events[ctx.event];
    ImGui::Text("%s: %s %s in all (%s of the tree), %s self, %s", name.c_str(), event.c_str(),
                format_thousands(centre.total).c_str(), percent(centre.total, tree.total()).c_str(),
                format_thousands(own.self).c_str(), count_text(own.calls, "call", "calls").c_str());
    draw_transform_bar(*shared_, p);
    const DiffScale scale = icicle_scale(ctx, {{&callers_boxes_, &*callers_}, {&callees_boxes_, &*callees_}});
    if (ctx.diff)
        box_legend(ctx, scale);

    const float font = ImGui::GetFontSize();
    const float row = font + 6;
    Half above{&*callers_, callers_boxes_, true, scroll_callers_};
    Half below{&*callees_, callees_boxes_, false, false};
    scroll_callers_ = false;
    const float label = ImGui::GetFrameHeightWithSpacing();
    // The callers get what they need up to half the height; the callees
    // the rest (a deep program's callees are most of the picture).
    const float needed = row * float(callers_boxes_.depth + 1) + ImGui::GetStyle().WindowPadding.y * 2;
    const float half = std::max(row * 2, std::min(needed, (ImGui::GetContentRegionAvail().y - 2 * label) / 2));
    ImGui::TextDisabled("Callers of %s (the callers' callers above them); click a box to select it",
                        name.c_str());
    auto clicked = draw_half(ctx, "callers", above, half, row, "through it", scale);
    ImGui::TextDisabled("Callees of %s (what they called below them)", name.c_str());
    if (auto c = draw_half(ctx, "callees", below, 0, row, "total", scale))
        clicked = c;
    if (clicked)
        ctx.selection.select(Selection::function(*clicked));
}

} // namespace vgprof::viewer
