// SPDX-License-Identifier: GPL-2.0-or-later
// The shared call tree, the transform bar and menu, and flame boxes.
#include "tree_ui.hpp"

#include "ui_util.hpp"

#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"

#include <cmath>

namespace vgprof::viewer {

const CallTree& SharedCallTree::tree(const ViewContext& ctx)
{
    if (dirty_ || !tree_ || event_ != ctx.event) {
        tree_ = build_call_tree(ctx.doc, ctx.event, transforms_, search_, ctx.diff);
        event_ = ctx.event;
        dirty_ = false;
        ++version_;
    }
    return *tree_;
}

void SharedCallTree::push(TreeTransform t)
{
    transforms_.push_back(std::move(t));
    dirty_ = true;
}

void SharedCallTree::pop_to(size_t count)
{
    if (count < transforms_.size()) {
        transforms_.resize(count);
        dirty_ = true;
    }
}

void SharedCallTree::set_search(std::string text)
{
    if (text != search_) {
        search_ = std::move(text);
        dirty_ = true;
    }
}

void draw_transform_bar(SharedCallTree& shared, const Profile& profile)
{
    const auto& transforms = shared.transforms();
    std::optional<size_t> back_to;
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetFontSize() * 0.3f, 0));
    if (transforms.empty()) {
        ImGui::TextDisabled("Complete tree");
    } else if (ImGui::SmallButton("Complete tree")) {
        back_to = 0;
    }
    for (size_t i = 0; i < transforms.size(); ++i) {
        ImGui::SameLine();
        ImGui::TextDisabled(">");
        ImGui::SameLine();
        ImGui::PushID(int(i));
        const std::string label = transform_label(profile, transforms[i]);
        if (i + 1 == transforms.size())
            ImGui::TextUnformatted(label.c_str());
        else if (ImGui::SmallButton(label.c_str()))
            back_to = i + 1;
        ImGui::PopID();
    }
    ImGui::PopStyleVar();
    if (back_to)
        shared.pop_to(*back_to);
}

NodeAction node_menu_items(SharedCallTree& shared, const Profile& profile, NodeKey key,
                           const std::vector<NodeKey>* path)
{
    using Kind = TreeTransform::Kind;
    NodeAction action = NodeAction::none;
    if (const auto fn = key.fn()) {
        if (ImGui::MenuItem(("Select " + profile.fn_name(*fn)).c_str()))
            action = NodeAction::select;
        ImGui::Separator();
        const struct {
            Kind kind;
            const char* label;
            const char* tip;
        } items[] = {
            {Kind::merge_function, "Merge function", "Take it out of every stack; its own cost goes to its caller"},
            {Kind::collapse_function, "Collapse function", "Count everything it calls as its own cost"},
            {Kind::focus_function, "Focus on calls of function", "Every call of it, merged, as the only root"},
            {Kind::drop_function, "Drop stacks through function", "Leave out everything that ran while it was on the stack"},
        };
        for (const auto& item : items) {
            if (ImGui::MenuItem(item.label))
                shared.push(TreeTransform::of(item.kind, *fn));
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s", item.tip);
        }
        const ObjId obj = profile.function(*fn).obj;
        const std::string lib = "Collapse library " + key_name(profile, NodeKey::of(obj));
        if (ImGui::MenuItem(lib.c_str()))
            shared.push(TreeTransform::collapse(obj));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Make each run of its functions one node: hides a library's insides");
    }
    if (path && ImGui::MenuItem("Focus on subtree"))
        shared.push(TreeTransform::focus(*path));
    ImGui::Separator();
    if (ImGui::MenuItem("Expand hottest path"))
        action = NodeAction::expand_hottest;
    if (ImGui::MenuItem("Expand all below", "*"))
        action = NodeAction::expand_all;
    return action;
}

void tree_node_tooltip(const ViewContext& ctx, const MergedTree& tree, uint32_t id, const char* what)
{
    const Profile& p = ctx.doc.profile();
    const MergedTree::Node& n = tree.node(id);
    const std::string& event = p.meta().events[ctx.event];
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
    ImGui::TextUnformatted(node_name(ctx.doc, n.key).c_str());
    ImGui::PopTextWrapPos();
    if (const auto fn = n.key.fn())
        ImGui::TextDisabled("%s", p.obj_path(p.function(*fn).obj).c_str());
    ImGui::Separator();
    ImGui::Text("%s %s %s (%s)", what, event.c_str(), format_thousands(n.total).c_str(),
                percent(n.total, tree.total()).c_str());
    if (n.self > 0)
        ImGui::Text("self %s (%s)", format_thousands(n.self).c_str(), percent(n.self, tree.total()).c_str());
    if (n.calls > 0)
        ImGui::Text("%s", count_text(n.calls, "call", "calls").c_str());
    if (ctx.diff)
        ImGui::Text("change %s (base %s)",
                    change_text(signed_delta(n.total, n.base_total), n.base_total).c_str(),
                    format_thousands(n.base_total).c_str());
    ImGui::EndTooltip();
}

DiffScale icicle_scale(const ViewContext& ctx, const std::vector<IcicleOf>& icicles)
{
    int64_t total = 1, own = 1;
    for (const IcicleOf& of : icicles)
        for (const IcicleBox& b : of.icicle->boxes) {
            const MergedTree::Node& n = of.tree->node(b.node);
            total = std::max(total, std::abs(signed_delta(n.total, n.base_total)));
            own = std::max(own, std::abs(signed_delta(n.self, n.base_self)));
        }
    return box_scale(ctx, total, own);
}

std::optional<size_t> draw_icicle(const ViewContext& ctx, const Icicle& icicle,
                                  const MergedTree& tree, ImVec2 origin, float width, float row,
                                  bool upward, const DiffScale& scale)
{
    const float font = ImGui::GetFontSize();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 mouse = ImGui::GetMousePos();
    const bool hovering = ImGui::IsWindowHovered();
    const Selection& sel = ctx.selection.current();
    const ImVec2 clip_min = draw->GetClipRectMin(), clip_max = draw->GetClipRectMax();
    std::optional<size_t> hovered;
    for (size_t i = 0; i < icicle.boxes.size(); ++i) {
        const IcicleBox& b = icicle.boxes[i];
        const float y0 = upward ? origin.y - float(b.depth + 1) * row : origin.y + float(b.depth) * row;
        if (y0 + row < clip_min.y || y0 > clip_max.y)
            continue;
        const ImVec2 tl(origin.x + float(b.x0) * width, y0);
        const ImVec2 br(std::max(tl.x + 1, origin.x + float(b.x1) * width - 1), y0 + row - 1);
        const MergedTree::Node& n = tree.node(b.node);
        const std::string name = node_name(ctx.doc, n.key);
        const bool selected = sel.fn && n.key.fn() == sel.fn;
        Rgb fill = ctx.diff ? box_change_rgb(ctx, scale, n.total, n.base_total, n.self, n.base_self)
                            : flame_color(name);
        if (selected && !ctx.diff)
            fill = Rgb{120, 170, 250};
        draw->AddRectFilled(tl, br, to_imgui(fill));
        if (selected)
            draw->AddRect(tl, br, IM_COL32(20, 60, 160, 255), 0, 0, 2);
        if (br.x - tl.x > font * 2) {
            const std::string text = fit_text(name + " (" + percent(n.total, tree.total()) + ")", br.x - tl.x - 6);
            draw->AddText(ImVec2(tl.x + 3, tl.y + (row - font) / 2), to_imgui(text_color_on(fill)), text.c_str());
        }
        if (hovering && mouse.x >= tl.x && mouse.x < br.x + 1 && mouse.y >= tl.y && mouse.y < br.y + 1)
            hovered = i;
    }
    return hovered;
}

} // namespace vgprof::viewer
