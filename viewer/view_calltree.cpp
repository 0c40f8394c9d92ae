// SPDX-License-Identifier: GPL-2.0-or-later
// The Call tree and Bottom-up views: the call tree as a table, one row per
// call path (top-down), or per function where the cost was spent with its
// callers below (bottom-up, the inverted tree), each with its total and
// self cost of the chosen event and its calls. The top-down tree opens
// along its most expensive path; a right-click transforms the tree (merge,
// collapse, focus, drop); a function selected elsewhere is shown at its
// most expensive place. Keys: Up and Down move, Right and Left open and
// close, * opens everything below.
#include "tree_ui.hpp"
#include "ui_util.hpp"
#include "views.hpp"

#include "capabilities.hpp"

#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"


#include <algorithm>
#include <string>

namespace vgprof::viewer {

namespace {

// The top-down tree opens down its most expensive path while each step
// keeps this much of the step before: the chain that makes up most of the
// cost, stopping where it splits.
constexpr double kHotShare = 0.4;
// "Expand all below" opens at most this many nodes.
constexpr size_t kExpandLimit = 2000;
// The room the function column keeps for a name however deep the row, in
// font heights: "_PyEval_EvalFrameDefault [python3.11]" and a little more.
constexpr float kMinName = 16;
// Indentation per level, in font heights: the Firefox Profiler's 10 pixels.
constexpr float kStep = 0.75f;

// The node's object file: its function's, or the library collapsed into it.
std::string library_of(const Profile& p, NodeKey key)
{
    const auto fn = key.fn();
    if (!fn && key.kind != NodeKey::Kind::object)
        return "";
    const std::string& path = p.obj_path(fn ? p.function(*fn).obj : ObjId(key.id));
    return basename_of(path);
}

} // namespace

void CallTreeView::draw(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    if (const auto why = why_no_call_paths(p)) {
        centred_message(why->c_str());
        return;
    }
    draw_toolbar(ctx);
    const CallTree& tree = shared_->tree(ctx);
    if (shared_->version() != built_version_)
        rebuild(ctx);
    const Selection& sel = ctx.selection.current();
    if (ctx.selection.version() != seen_version_) {
        if (sel.fn && ctx.selection.version() != own_version_)
            reveal(ctx, *sel.fn);
        seen_version_ = ctx.selection.version();
    }
    if (tree.nodes().empty()) {
        centred_message(shared_->search().empty()
                            ? "The transforms left nothing of the tree: go back with the bar above."
                            : "No call path goes through a function of that name.");
        return;
    }
    handle_keys(ctx);
    draw_table(ctx);
}

void CallTreeView::draw_toolbar(ViewContext& ctx)
{
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
    if (ImGui::InputTextWithHint("##treesearch", "Keep stacks through...", search_, sizeof search_))
        shared_->set_search(search_);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Keeps only the call paths through a function whose name contains the text");
    ImGui::SameLine();
    if (ImGui::Button("Expand hottest") && tree_) {
        const uint32_t from = current_ ? *current_ : tree_->roots().front();
        current_ = tree_->expand_hottest(from, 0.0);
        scroll_to_current_ = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Collapse all") && tree_)
        for (uint32_t id : std::vector<uint32_t>(tree_->rows()))
            tree_->set_expanded(id, false);
    ImGui::SameLine();
    ImGui::TextDisabled(inverted_ ? "right-click: transforms" : "right-click: transforms   * expands all below");
    draw_transform_bar(*shared_, ctx.doc.profile());
    if (ctx.diff)
        diff_legend(change_scale_, ctx.coloring == DiffColoring::relative ? "Change column, in % of the base"
                                                                           : "Change column");
}

void CallTreeView::rebuild(ViewContext& ctx)
{
    const CallTree& tree = shared_->tree(ctx);
    const bool first = !tree_;
    std::set<std::vector<uint64_t>> open;
    std::optional<std::vector<NodeKey>> current_path;
    if (tree_) {
        open = tree_->open_paths();
        if (current_)
            current_path = tree_->key_path(*current_);
    }
    tree_ = inverted_ ? MergedTree::bottom_up(tree) : MergedTree::top_down(tree);
    built_version_ = shared_->version();
    current_.reset();
    if (tree_->roots().empty())
        return;
    tree_->open(open);
    if (current_path)
        current_ = tree_->find(*current_path);
    if (first && !inverted_)
        tree_->expand_hottest(tree_->roots().front(), kHotShare);
    if (first && ctx.selection.current().fn)
        reveal(ctx, *ctx.selection.current().fn);
}

void CallTreeView::reveal(ViewContext& ctx, FnId fn)
{
    if (!tree_)
        return;
    const CallTree& tree = shared_->tree(ctx);
    std::optional<uint32_t> node;
    if (inverted_) {
        // Opened down the chain of callers most of its cost came through.
        node = tree_->find({NodeKey::of(fn)});
        if (node)
            tree_->expand_hottest(*node, kHotShare);
    } else if (const auto heaviest = tree.heaviest(NodeKey::of(fn))) {
        node = tree_->find(tree.key_path(*heaviest));
    }
    if (!node)
        return;
    tree_->reveal(*node);
    current_ = node;
    scroll_to_current_ = true;
}

void CallTreeView::handle_keys(ViewContext& ctx)
{
    if (!current_ || !ImGui::IsWindowFocused(ImGuiFocusedFlags_ChildWindows))
        return;
    const std::vector<uint32_t>& rows = tree_->rows();
    const auto at = std::find(rows.begin(), rows.end(), *current_);
    if (at == rows.end())
        return;
    std::optional<uint32_t> next;
    const MergedTree::Node& n = tree_->node(*current_);
    if (key_pressed(ViewKey::Down) && at + 1 != rows.end())
        next = *(at + 1);
    else if (key_pressed(ViewKey::Up) && at != rows.begin())
        next = *(at - 1);
    else if (key_pressed(ViewKey::Right))
        tree_->set_expanded(*current_, true);
    else if (key_pressed(ViewKey::Left)) {
        if (n.expanded)
            tree_->set_expanded(*current_, false);
        else if (n.parent != MergedTree::kNone)
            next = n.parent;
    } else if (key_pressed(ViewKey::KeypadMultiply) ||
               (ImGui::GetIO().KeyShift && key_pressed(ViewKey::Digit8)))
        tree_->expand_all(*current_, kExpandLimit);
    if (next) {
        current_ = next;
        scroll_to_current_ = true;
        if (const auto fn = tree_->node(*next).key.fn()) {
            ctx.selection.select(Selection::function(*fn));
            own_version_ = ctx.selection.version();
        }
    }
}

void CallTreeView::draw_table(ViewContext& ctx)
{
    const bool diff = ctx.diff != nullptr;
    const int columns = 5 + (diff ? 1 : 0);
    const float font = ImGui::GetFontSize();
    const float number = ImGui::CalcTextSize("0,000,000,000  100.0%").x;
    const float change = ImGui::CalcTextSize("+0,000,000,000 (+100.0%)").x;
    const float calls = ImGui::CalcTextSize("0,000,000,000").x;
    const float name = font * kMinName;
    // Narrower than that, the table scrolls sideways rather than squeeze
    // the names.
    const float padding = ImGui::GetStyle().CellPadding.x * 2 * float(columns);
    const float inner = name + 2 * number + (diff ? change : 0) + calls + font * 9 + padding;
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_Resizable | ImGuiTableFlags_Hideable |
                                  ImGuiTableFlags_SizingFixedFit;
    const float avail = ImGui::GetContentRegionAvail().x;
    if (!ImGui::BeginTable("tree", columns, flags, ImVec2(0, 0), inner > avail ? inner : 0.0f))
        return;
    const std::string& event = ctx.doc.profile().meta().events[ctx.event];
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn(inverted_ ? "Function (callers below)" : "Function",
                            ImGuiTableColumnFlags_NoHide | ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn((event + " total").c_str(), ImGuiTableColumnFlags_WidthFixed, number);
    ImGui::TableSetupColumn((event + " self").c_str(), ImGuiTableColumnFlags_WidthFixed, number);
    if (diff)
        ImGui::TableSetupColumn((event + " total +/-").c_str(), ImGuiTableColumnFlags_WidthFixed, change);
    ImGui::TableSetupColumn("Calls", ImGuiTableColumnFlags_WidthFixed, calls);
    ImGui::TableSetupColumn("Library", ImGuiTableColumnFlags_WidthFixed, font * 9);
    ImGui::TableHeadersRow();

    const std::vector<uint32_t> rows = tree_->rows();
    const float row_height = font + ImGui::GetStyle().CellPadding.y * 2;
    if (diff) {
        int64_t largest = 1;
        for (uint32_t id : rows)
            largest = std::max(largest, std::abs(signed_delta(tree_->node(id).total, tree_->node(id).base_total)));
        change_scale_ = ctx.coloring == DiffColoring::relative ? DiffScale::percentages() : DiffScale::counts(largest);
    }
    if (scroll_to_current_ && current_) {
        const auto at = std::find(rows.begin(), rows.end(), *current_);
        if (at != rows.end()) {
            const float y = float(at - rows.begin()) * row_height;
            const float view = ImGui::GetWindowHeight() - row_height * 2;
            if (y < ImGui::GetScrollY() || y > ImGui::GetScrollY() + view)
                ImGui::SetScrollY(std::max(0.0f, y - view / 3));
        }
        scroll_to_current_ = false;
    }
    ImGuiListClipper clipper;
    clipper.Begin(int(rows.size()), row_height);
    while (clipper.Step())
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r)
            draw_row(ctx, rows[size_t(r)]);
    ImGui::EndTable();
}

RowIndent CallTreeView::row_indent(uint32_t depth) const
{
    const float font = ImGui::GetFontSize();
    const TreeIndent indent(ImGui::GetContentRegionAvail().x, font * kStep, font * kMinName,
                            ImGui::CalcTextSize("0000 ").x);
    return indent.of(depth);
}

void CallTreeView::draw_row(ViewContext& ctx, uint32_t id)
{
    const Profile& p = ctx.doc.profile();
    const MergedTree::Node& n = tree_->node(id);
    const Selection& sel = ctx.selection.current();
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (sel.fn && n.key.fn() == sel.fn && current_ != id)
        ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(120, 170, 250, 50));
    ImGui::PushID(int(id));
    const RowIndent indent = row_indent(n.depth);
    const float cell = ImGui::GetCursorPosX();
    if (indent.depth_shown) {
        // Right-aligned against the row's arrow.
        const std::string depth = std::to_string(n.depth);
        const float space = ImGui::CalcTextSize(" ").x;
        ImGui::SetCursorPosX(cell + indent.name - space - ImGui::CalcTextSize(depth.c_str()).x);
        ImGui::TextDisabled("%s", depth.c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Depth %u: rows this deep are not indented further, to keep their names readable",
                              unsigned(n.depth));
        ImGui::SameLine(0, 0);
    }
    ImGui::SetCursorPosX(cell + indent.name);
    ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_OpenOnDoubleClick |
                               ImGuiTreeNodeFlags_NoTreePushOnOpen | ImGuiTreeNodeFlags_SpanAvailWidth;
    if (!n.has_children)
        flags |= ImGuiTreeNodeFlags_Leaf;
    if (current_ == id)
        flags |= ImGuiTreeNodeFlags_Selected;
    ImGui::SetNextItemOpen(n.expanded, ImGuiCond_Always);
    const std::string name = node_name(ctx.doc, n.key);
    const bool open = ImGui::TreeNodeEx("node", flags, "%s", name.c_str());
    if (ImGui::IsItemToggledOpen()) {
        tree_->set_expanded(id, open);
    } else if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) {
        current_ = id;
        if (const auto fn = n.key.fn()) {
            ctx.selection.select(Selection::function(*fn));
            own_version_ = ctx.selection.version();
        }
    }
    if (ImGui::IsItemHovered())
        tree_node_tooltip(ctx, *tree_, id, inverted_ && n.parent != MergedTree::kNone ? "through it" : "total");
    if (ImGui::BeginPopupContextItem("menu")) {
        std::vector<NodeKey> path;
        if (!inverted_)
            path = tree_->key_path(id);
        switch (node_menu_items(*shared_, p, n.key, inverted_ ? nullptr : &path)) {
        case NodeAction::expand_hottest: current_ = tree_->expand_hottest(id, 0.0); break;
        case NodeAction::expand_all: tree_->expand_all(id, kExpandLimit); break;
        case NodeAction::select:
            current_ = id;
            ctx.selection.select(Selection::function(*n.key.fn()));
            own_version_ = ctx.selection.version();
            break;
        case NodeAction::none: break;
        }
        ImGui::EndPopup();
    }
    ImGui::PopID();
    const uint64_t total = tree_->total();
    if (ImGui::TableNextColumn())
        cost_cell(n.total, total);
    if (ImGui::TableNextColumn() && n.self > 0)
        cost_cell(n.self, total);
    if (ctx.diff && ImGui::TableNextColumn()) {
        const int64_t d = signed_delta(n.total, n.base_total);
        if (d != 0) {
            ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, to_imgui(change_scale_.color(d, n.base_total), 150));
            right_aligned(change_text(d, n.base_total));
        }
    }
    if (ImGui::TableNextColumn() && n.calls > 0)
        right_aligned(format_thousands(n.calls));
    if (ImGui::TableNextColumn())
        ImGui::TextDisabled("%s", library_of(p, n.key).c_str());
}

} // namespace vgprof::viewer
