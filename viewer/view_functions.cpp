// SPDX-License-Identifier: GPL-2.0-or-later
// The Functions view: every function with its self and inclusive cost of
// each event (in diff mode, their changes), a search box, ordered by any
// column. Only the rows on screen are drawn (ImGuiListClipper), so a
// program of 100,000 functions draws as fast as one of ten.
#include "ui_util.hpp"
#include "views.hpp"

#include "capabilities.hpp"
#include "data_selection.hpp"

#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"


#include <algorithm>

namespace vgprof::viewer {

namespace {

// Table column ids: 0 the name, then two per event (self, inclusive).
ImGuiID column_id(size_t event, CostKind kind)
{
    return ImGuiID(1 + 2 * event + (kind == CostKind::inclusive ? 1 : 0));
}

TableOrder order_of(const ImGuiTableColumnSortSpecs& spec)
{
    TableOrder order;
    order.descending = spec.SortDirection == ImGuiSortDirection_Descending;
    if (spec.ColumnUserID == 0) {
        order.by_name = true;
        return order;
    }
    order.event = (spec.ColumnUserID - 1) / 2;
    order.kind = (spec.ColumnUserID - 1) % 2 ? CostKind::inclusive : CostKind::self;
    return order;
}

// The largest change's size per (event, kind), for the diff colors.
int64_t largest_change(const ViewContext& ctx, size_t event, CostKind kind)
{
    int64_t largest = 0;
    for (size_t i = 0; i < ctx.doc.num_functions(); ++i) {
        const FnId fn{uint32_t(i)};
        const int64_t d = kind == CostKind::inclusive ? ctx.diff->inclusive_delta(fn, event)
                                                      : ctx.diff->self_delta(fn, event);
        largest = std::max(largest, d < 0 ? -d : d);
    }
    return largest;
}

} // namespace

const RangeCosts* FunctionsView::costs_in_range(ViewContext& ctx)
{
    const TimeRange* range = ctx.range();
    const SpanTree* spans = range ? ctx.timeline->spans(ctx.doc.profile()) : nullptr;
    if (!spans) {
        if (range_costs_) {
            table_.set_costs(nullptr);
            range_costs_.reset();
        }
        return nullptr;
    }
    if (!range_costs_ || range_costs_->t0 != range->t0 || range_costs_->t1 != range->t1 ||
        range_costs_->thread != ctx.doc.thread()) {
        table_.set_costs(nullptr);  // before the costs it points to change
        range_costs_ = range_costs(*spans, ctx.doc.num_functions(), range->t0, range->t1, ctx.doc.thread());
        table_.set_costs(&range_costs_->functions);
    }
    return &*range_costs_;
}

void FunctionsView::narrow_to_data(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    const std::optional<DataObjId> object =
        compact_ ? std::nullopt : selected_data_object(p, ctx.selection.current());
    const RangeCosts* in_range = costs_in_range(ctx);
    if (in_range) {
        const std::string span = format_thousands(in_range->t0) + " .. " + format_thousands(in_range->t1);
        if (compact_)
            ImGui::TextColored(ImVec4(0.6f, 0.35f, 0.0f, 1), "Range %s", span.c_str());
        else
            ImGui::TextColored(ImVec4(0.6f, 0.35f, 0.0f, 1),
                               "Costs in the range %s of the run's instructions (from the timeline's calls "
                               "in it): %zu functions ran in it",
                               span.c_str(), in_range->ran.size());
        ImGui::SameLine();
        if (ImGui::SmallButton("Clear range"))
            ctx.timeline->range.reset();
    }
    if (!object || show_all_at_ == ctx.selection.version()) {
        table_.set_only(in_range ? std::optional<std::vector<FnId>>(in_range->ran) : std::nullopt);
        return;
    }
    std::vector<FnId> fns = functions_missing_on(*p.data(), *object);
    ImGui::Text("The %zu functions that missed on %s (the data object selected)", fns.size(),
                data_object_short_label(p, *object).c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("Show every function"))
        show_all_at_ = ctx.selection.version();
    table_.set_only(std::move(fns));
}

void FunctionsView::draw(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    const bool inclusive = p.has_call_graph();
    if (const auto why = why_no_costs(p); why && !compact_)
        ImGui::TextColored(ImVec4(0.75f, 0.4f, 0.1f, 1), "%s", why->c_str());

    if (focus_search_) {
        ImGui::SetKeyboardFocusHere();
        focus_search_ = false;
    }
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::InputTextWithHint("##search", "Search functions (Ctrl+F)", search_, sizeof search_))
        table_.set_filter(search_);
    narrow_to_data(ctx);

    if (ctx.diff && largest_change_.empty())
        for (size_t e = 0; e < ctx.doc.num_events(); ++e)
            for (CostKind kind : {CostKind::self, CostKind::inclusive})
                largest_change_.push_back(largest_change(ctx, e, kind));
    if (ctx.diff && !compact_)
        diff_legend(DiffScale::counts(largest_change_[2 * ctx.event + (inclusive ? 1 : 0)]),
                    ("Colors of the " + p.meta().events[ctx.event] + (inclusive ? " incl" : " self") +
                     " column (each column on its own largest change)")
                        .c_str());

    const Selection& sel = ctx.selection.current();
    const bool selection_moved = ctx.selection.version() != seen_version_;
    seen_version_ = ctx.selection.version();

    const size_t shown_events = compact_ ? 1 : ctx.doc.num_events();
    const int columns = 1 + int(shown_events) * (inclusive ? 2 : 1) + (compact_ ? 0 : 2);
    const auto shown = [&](size_t e) { return !compact_ || e == ctx.event; };
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_Resizable | ImGuiTableFlags_Sortable |
                                  ImGuiTableFlags_Hideable | ImGuiTableFlags_Reorderable |
                                  ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("functions", columns, flags))
        return;
    ImGui::TableSetupScrollFreeze(1, 1);
    const float number_width =
        ImGui::CalcTextSize(compact_ ? (ctx.diff ? "+000.0M" : "100.0% ") : "0,000,000,000  100.0%").x;
    // The compact list gives the name what the numbers leave.
    const float name_width =
        compact_ ? std::max(ImGui::GetFontSize() * 8,
                            ImGui::GetContentRegionAvail().x - (columns - 1) * (number_width + ImGui::GetFontSize() * 1.5f) -
                                ImGui::GetStyle().ScrollbarSize * 2)
                 : ImGui::GetFontSize() * 18;
    std::vector<ImGuiID> column_event_ids;  // of the cost columns, in order
    ImGui::TableSetupColumn("Function", ImGuiTableColumnFlags_NoHide | ImGuiTableColumnFlags_WidthFixed,
                            name_width, 0);
    for (size_t e = 0; e < ctx.doc.num_events(); ++e) {
        if (!shown(e))
            continue;
        const std::string& name = p.meta().events[e];
        for (CostKind kind : {CostKind::self, CostKind::inclusive}) {
            if (kind == CostKind::inclusive && !inclusive)
                continue;
            // The compact list has one event's columns, the one in the toolbar.
            std::string title = (compact_ ? "" : name + " ") + (kind == CostKind::self ? "self" : "incl");
            if (ctx.diff)
                title += " +/-";
            ImGuiTableColumnFlags f = ImGuiTableColumnFlags_PreferSortDescending;
            if (e == ctx.event && kind == (inclusive ? CostKind::inclusive : CostKind::self))
                f |= ImGuiTableColumnFlags_DefaultSort;
            // At first the first event's (Ir) and the chosen one's; the
            // others are a right-click on a header away.
            if (e != 0 && e != ctx.event)
                f |= ImGuiTableColumnFlags_DefaultHide;
            ImGui::TableSetupColumn(title.c_str(), f, number_width, column_id(e, kind));
            column_event_ids.push_back(column_id(e, kind));
        }
    }
    if (!compact_) {
        // Where a function is, short (the whole path on hover): the table
        // has room for it beside the two default events' columns.
        ImGui::TableSetupColumn("File", ImGuiTableColumnFlags_NoSort, ImGui::GetFontSize() * 12);
        ImGui::TableSetupColumn("Object", ImGuiTableColumnFlags_NoSort, ImGui::GetFontSize() * 10);
    }
    // The headers, an event's with what it counts on hover.
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < columns; ++c) {
        if (!ImGui::TableSetColumnIndex(c))
            continue;
        ImGui::TableHeader(ImGui::TableGetColumnName(c));
        const ImGuiID id = c > 0 && c < columns - (compact_ ? 0 : 2) ? column_event_ids[size_t(c - 1)] : 0;
        if (id > 0 && ImGui::IsItemHovered())
            ImGui::SetTooltip("%s: %s cost", event_description(p.meta().events[(id - 1) / 2]).c_str(),
                              (id - 1) % 2 ? "inclusive (while on the stack)" : "self (its own instructions)");
    }

    if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsDirty) {
        if (specs->SpecsCount > 0)
            table_.set_order(order_of(specs->Specs[0]));
        specs->SpecsDirty = false;
    }

    const auto& rows = table_.rows();
    const float row_height = ImGui::GetFontSize() + ImGui::GetStyle().CellPadding.y * 2;
    const std::optional<size_t> selected_row = sel.fn ? table_.row_of(*sel.fn) : std::nullopt;
    if (selection_moved && selected_row) {
        const float y = float(*selected_row) * row_height;
        const float view = ImGui::GetWindowHeight() - row_height * 2;
        if (y < ImGui::GetScrollY() || y > ImGui::GetScrollY() + view)
            ImGui::SetScrollY(std::max(0.0f, y - view / 3));
    }
    // Up and Down walk the rows while the table has the focus.
    if (selected_row && ImGui::IsWindowFocused(ImGuiFocusedFlags_ChildWindows)) {
        if (key_pressed(ViewKey::Down) && *selected_row + 1 < rows.size())
            ctx.selection.select(Selection::function(rows[*selected_row + 1]));
        if (key_pressed(ViewKey::Up) && *selected_row > 0)
            ctx.selection.select(Selection::function(rows[*selected_row - 1]));
    }


    ImGuiListClipper clipper;
    clipper.Begin(int(rows.size()), row_height);
    while (clipper.Step()) {
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const FnId fn = rows[size_t(r)];
            ImGui::TableNextRow(ImGuiTableRowFlags_None, row_height);
            ImGui::TableNextColumn();
            ImGui::PushID(r);
            const bool is_selected = sel.fn == fn;
            if (ImGui::Selectable(ctx.doc.names().function(fn).c_str(), is_selected,
                                  ImGuiSelectableFlags_SpanAllColumns |
                                      ImGuiSelectableFlags_AllowItemOverlap))
                ctx.selection.select(Selection::function(fn));
            if (ImGui::IsItemHovered())
                function_tooltip(ctx, fn);
            ImGui::PopID();
            for (size_t e = 0; e < ctx.doc.num_events(); ++e)
                for (CostKind kind : {CostKind::self, CostKind::inclusive}) {
                    if ((kind == CostKind::inclusive && !inclusive) || !shown(e))
                        continue;
                    if (!ImGui::TableNextColumn())
                        continue;
                    const uint64_t value = kind == CostKind::self ? table_.self(fn, e)
                                                                  : table_.inclusive(fn, e);
                    if (ctx.diff) {
                        const int64_t d = kind == CostKind::self ? ctx.diff->self_delta(fn, e)
                                                                 : ctx.diff->inclusive_delta(fn, e);
                        delta_cell(d, value, largest_change_[2 * e + (kind == CostKind::self ? 0 : 1)], compact_);
                    } else {
                        cost_cell(value, range_costs_ ? range_costs_->total[e] : ctx.doc.total(e), compact_);
                    }
                }
            if (compact_)
                continue;
            const Function& f = p.function(fn);
            if (f.inlined) {
                // Its figures lie within its hosts': say so where a file
                // would be (an inlined function's row names none).
                if (ImGui::TableNextColumn()) {
                    ImGui::TextDisabled("inlined");
                    if (ImGui::IsItemHovered())
                        ImGui::SetTooltip("Inlined: its self cost is its own code and its inclusive cost that "
                                          "with what it called; both are also in the self cost of the "
                                          "functions it was inlined into.");
                }
            } else if (ImGui::TableNextColumn() && !is_unknown(p.file_path(f.file))) {
                const std::string& path = p.file_path(f.file);
                ImGui::TextDisabled("%s:%u", basename_of(path).c_str(), f.line);
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip("%s:%u", path.c_str(), f.line);
            }
            if (ImGui::TableNextColumn()) {
                const std::string& path = p.obj_path(f.obj);
                ImGui::TextDisabled("%s", basename_of(path).c_str());
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip("%s", path.c_str());
            }
        }
    }
    ImGui::EndTable();
}

} // namespace vgprof::viewer
