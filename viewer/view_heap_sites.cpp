// SPDX-License-Identifier: GPL-2.0-or-later
// The Heap view's sites table: every allocation site, named by the code
// that asked for the memory, with what it allocated, held at the peak,
// leaked, how long its blocks lived and how they were used; ordered by any
// column, each column as wide as its figures and resizable. With a range
// of time selected on the chart, the sites live in that range instead:
// what each held at the range's start and end and how much it grew.
// Clicking a site selects it (and the function that asked for the memory);
// hovering shows its whole stack and DHAT's notes on it.
#include "ui_util.hpp"
#include "views.hpp"

#include "data_selection.hpp"

#include "heap_range.hpp"
#include "heap_sites.hpp"

#include "vgprof/format.hpp"
#include "vgprof/heap.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace vgprof::viewer {

namespace {

// The figures of the whole-run table, as HeapSite holds them.
const char* const kFigures[] = {"Bytes", "Blocks", "At peak", "Leaked", "Max live", "Mean lifetime",
                                "Reads", "Writes"};

uint64_t figure(const HeapSite& s, int column)
{
    switch (column) {
    case 0: return s.bytes;
    case 1: return s.blocks;
    case 2: return s.peak_bytes;
    case 3: return s.end_bytes;
    case 4: return s.max_bytes;
    case 5: return uint64_t(average_lifetime(s));
    case 6: return s.reads;
    default: return s.writes;
    }
}

// Column ids that are not figures.
constexpr ImGuiID kChange = 100, kCallers = 101;

void select_site(ViewContext& ctx, const Heap& heap, SiteId id)
{
    ctx.selection.select(Selection::heap_site(id.value, site_function(ctx.doc.profile(), heap.site(id))));
}

// The site's name as a selectable row spanning the table, with its stack
// in the tooltip.
void site_cell(ViewContext& ctx, const Heap& heap, SiteId id, int row)
{
    const Profile& p = ctx.doc.profile();
    const HeapSite& s = heap.site(id);
    const Selection& sel = ctx.selection.current();
    ImGui::PushID(row);
    const bool selected = selected_site(p, sel) == id;
    if (ImGui::Selectable(ctx.doc.names().site(id).c_str(), selected,
                          ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
        select_site(ctx, heap, id);
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        for (FrameId f : s.frames)
            ImGui::TextUnformatted(frame_label(p, heap.frame(f)).c_str());
        for (const std::string& note : site_notes(s))
            ImGui::TextDisabled("%s", note.c_str());
        ImGui::EndTooltip();
    }
    ImGui::PopID();
}

ImGuiTableFlags table_flags()
{
    return ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Sortable |
           ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Resizable |
           ImGuiTableFlags_Hideable | ImGuiTableFlags_SizingFixedFit;
}

float number_width() { return ImGui::CalcTextSize("0,000,000,000").x; }

// Sorts `ids` by the table's first sort column whenever it changes, with
// `value` giving a row's figure for a column id.
template <typename Value>
void sort_rows(std::vector<SiteId>& ids, Value value)
{
    ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
    if (!specs || !specs->SpecsDirty || specs->SpecsCount == 0)
        return;
    const ImGuiID column = specs->Specs[0].ColumnUserID;
    const bool descending = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
    std::stable_sort(ids.begin(), ids.end(), [&](SiteId a, SiteId b) {
        const double va = value(a, column), vb = value(b, column);
        return descending ? va > vb : va < vb;
    });
    specs->SpecsDirty = false;
}

} // namespace

void HeapView::draw_sites(ViewContext& ctx, const Heap& heap)
{
    // A range dragged on the chart, else the one chosen on the Timeline.
    Selection sel = ctx.selection.current();
    if (const TimeRange* r = ctx.range(); r && sel.kind != Selection::Kind::time_range)
        sel = Selection::time_range(r->t0, r->t1, sel.fn);
    if (sel.kind == Selection::Kind::time_range) {
        ImGui::Checkbox("Only the range selected", &range_only_);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Dragged on the chart, or chosen on the Timeline");
        if (range_only_) {
            draw_range_sites(ctx, heap, sel);
            return;
        }
    }
    const Profile& p = ctx.doc.profile();
    const bool diff = ctx.diff && ctx.diff->base().heap();
    const int columns = 2 + int(std::size(kFigures)) + (diff ? 1 : 0);
    if (!ImGui::BeginTable("sites", columns, table_flags()))
        return;
    const float font = ImGui::GetFontSize();
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("Site", ImGuiTableColumnFlags_NoHide | ImGuiTableColumnFlags_NoSort, font * 26);
    if (diff)
        ImGui::TableSetupColumn("Bytes +/-", ImGuiTableColumnFlags_PreferSortDescending,
                                ImGui::CalcTextSize("+0,000,000,000 (+100.0%)").x, kChange);
    for (size_t c = 0; c < std::size(kFigures); ++c)
        ImGui::TableSetupColumn(kFigures[c], ImGuiTableColumnFlags_PreferSortDescending |
                                                 (c == 0 ? ImGuiTableColumnFlags_DefaultSort : 0),
                                number_width(), ImGuiID(c));
    ImGui::TableSetupColumn("Called from", ImGuiTableColumnFlags_NoSort, font * 40, kCallers);
    ImGui::TableHeadersRow();
    if (site_order_.size() != heap.sites.size()) {
        site_order_.resize(heap.sites.size());
        for (size_t i = 0; i < site_order_.size(); ++i)
            site_order_[i] = SiteId(uint32_t(i));
    }
    sort_rows(site_order_, [&](SiteId id, ImGuiID column) {
        return column == kChange ? double(ctx.diff->site_bytes_delta(id)) : double(figure(heap.site(id), int(column)));
    });
    int64_t largest_change = 1;
    if (diff)
        for (size_t i = 0; i < heap.sites.size(); ++i)
            largest_change = std::max(largest_change, std::abs(ctx.diff->site_bytes_delta(SiteId(uint32_t(i)))));
    ImGuiListClipper clipper;
    clipper.Begin(int(site_order_.size()));
    while (clipper.Step())
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const SiteId id = site_order_[size_t(r)];
            const HeapSite& s = heap.site(id);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            site_cell(ctx, heap, id, r);
            if (diff && ImGui::TableNextColumn())
                delta_cell(ctx.diff->site_bytes_delta(id), s.bytes, largest_change);
            for (int c = 0; c < int(std::size(kFigures)); ++c)
                if (ImGui::TableNextColumn())
                    right_aligned(format_thousands(figure(s, c)));
            if (ImGui::TableNextColumn())
                ImGui::TextDisabled("%s", site_callers(p, s).c_str());
        }
    ImGui::EndTable();
}

void HeapView::draw_range_sites(ViewContext& ctx, const Heap& heap, const Selection& range)
{
    const Profile& p = ctx.doc.profile();
    const HeapRange r = heap_range(heap, range.t0, range.t1);
    if (r.from_changes && r.width == 1)
        ImGui::TextDisabled("Instructions %s to %s: every site, exact", format_thousands(r.t0).c_str(),
                            format_thousands(r.t1).c_str());
    else if (r.from_changes)
        ImGui::TextDisabled("Instructions %s to %s: every site, exact from %s to %s (the profile records the "
                            "heap's changes in stretches of %s instructions)",
                            format_thousands(r.t0).c_str(), format_thousands(r.t1).c_str(),
                            format_thousands(r.exact_t0).c_str(), format_thousands(r.exact_t1).c_str(),
                            format_thousands(r.width).c_str());
    else {
        const auto when = [](const HeapSnapshot* s) {
            return s ? "the snapshot at " + format_thousands(s->time) : std::string("the start (nothing live)");
        };
        ImGui::TextDisabled("Instructions %s to %s, read from %s and %s: the ten largest sites of each snapshot",
                            format_thousands(r.t0).c_str(), format_thousands(r.t1).c_str(), when(r.start).c_str(),
                            when(r.end).c_str());
    }
    // From the changes: what the range allocated and freed; from the
    // snapshots, the site's whole period.
    std::vector<const char*> figures = {"Growth", "Live at start", "Live at end", "Most in range"};
    if (r.from_changes)
        figures.insert(figures.end(), {"Allocated in range", "Blocks in range", "Freed in range"});
    else
        figures.push_back("Bytes allocated");
    if (!ImGui::BeginTable("range sites", int(figures.size()) + 2, table_flags()))
        return;
    const float font = ImGui::GetFontSize();
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("Site", ImGuiTableColumnFlags_NoHide | ImGuiTableColumnFlags_NoSort, font * 26);
    for (size_t c = 0; c < figures.size(); ++c)
        ImGui::TableSetupColumn(figures[c], ImGuiTableColumnFlags_PreferSortDescending |
                                                (c == 0 ? ImGuiTableColumnFlags_DefaultSort : 0),
                                ImGui::CalcTextSize("+0,000,000,000").x, ImGuiID(c));
    ImGui::TableSetupColumn("Called from", ImGuiTableColumnFlags_NoSort, font * 40, kCallers);
    ImGui::TableHeadersRow();
    std::vector<SiteId> ids;
    std::map<SiteId, const RangeSite*> of;
    for (const RangeSite& s : r.sites) {
        ids.push_back(s.site);
        of[s.site] = &s;
    }
    const auto value = [&](SiteId id, ImGuiID column) -> double {
        const RangeSite& s = *of.at(id);
        switch (column) {
        case 0: return double(s.growth());
        case 1: return double(s.at_start);
        case 2: return double(s.at_end);
        case 3: return double(s.most);
        case 4: return r.from_changes ? double(s.allocated_bytes) : double(heap.site(id).bytes);
        case 5: return double(s.allocated_blocks);
        default: return double(s.freed_bytes);
        }
    };
    // Ordered afresh each frame: the range can change with every drag.
    if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs())
        specs->SpecsDirty = true;
    sort_rows(ids, value);
    for (size_t row = 0; row < ids.size(); ++row) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        site_cell(ctx, heap, ids[row], int(row));
        const RangeSite& s = *of.at(ids[row]);
        if (ImGui::TableNextColumn())
            right_aligned(signed_count(s.growth()));
        for (ImGuiID c = 1; c < figures.size(); ++c)
            if (ImGui::TableNextColumn())
                right_aligned(format_thousands(uint64_t(value(ids[row], c))));
        if (ImGui::TableNextColumn())
            ImGui::TextDisabled("%s", site_callers(p, heap.site(ids[row])).c_str());
    }
    ImGui::EndTable();
}

} // namespace vgprof::viewer
