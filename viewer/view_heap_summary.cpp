// SPDX-License-Identifier: GPL-2.0-or-later
// The Heap view's summary, as heaptrack's summary page: what was allocated,
// the peak and when, what was never freed, how many allocations were
// temporary and how fast the program allocated; then the sites that lead
// each, which select on a click.
#include "ui_util.hpp"
#include "views.hpp"

#include "data_selection.hpp"

#include "heap_sites.hpp"
#include "heap_summary.hpp"

#include "vgprof/format.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/identity.hpp"

#include <cstdio>
#include <optional>
#include <utility>

namespace vgprof::viewer {

namespace {

// A figure's row; in diff mode with its change from the base's figure.
void figure_row(const char* name, const std::string& value, const char* note = nullptr,
                std::optional<std::pair<uint64_t, uint64_t>> now_and_base = std::nullopt)
{
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(name);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(value.c_str());
    if (now_and_base) {
        const auto [now, base] = *now_and_base;
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(0.7f, 0.1f, 0.1f, 1), "%s against the base",
                           change_text(signed_delta(now, base), base).c_str());
    }
    if (note) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", note);
    }
}

// One list of leading sites, `value` giving each one's figure.
template <typename Value>
void leaders(ViewContext& ctx, const Heap& heap, const char* title, const std::vector<SiteId>& sites, Value value)
{
    const Profile& p = ctx.doc.profile();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(title);
    if (sites.empty())
        ImGui::TextDisabled("none");
    for (SiteId id : sites) {
        ImGui::PushID(int(id.value));
        const std::string label = value(heap.site(id)) + "  " + ctx.doc.names().site(id);
        const Selection& sel = ctx.selection.current();
        if (ImGui::Selectable(label.c_str(), selected_site(p, sel) == id))
            ctx.selection.select(Selection::heap_site(id.value, site_function(p, heap.site(id))));
        ImGui::PopID();
    }
}

} // namespace

void HeapView::draw_summary(ViewContext& ctx, const Heap& heap)
{
    const HeapSummary s = heap_summary(heap, 5);
    const HeapTotals& t = s.totals;
    const Heap* base = ctx.diff ? ctx.diff->base().heap() : nullptr;
    // In diff mode, a figure with the base's.
    const auto against = [&](uint64_t now, uint64_t HeapTotals::*field) {
        return base ? std::optional<std::pair<uint64_t, uint64_t>>({now, base->totals.*field}) : std::nullopt;
    };
    ImGui::BeginChild("summary", ImVec2(0, 0), false);
    if (ImGui::BeginTable("figures", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
        figure_row("Allocated", bytes_in_blocks(t.bytes, t.blocks), nullptr, against(t.bytes, &HeapTotals::bytes));
        const std::string when = t.end_time ? " at instruction " + format_thousands(t.peak_time) + " (" +
                                                  percent(t.peak_time, t.end_time) + " into the run)"
                                            : "";
        figure_row("Peak (live at once)", bytes_in_blocks(t.peak_bytes, t.peak_blocks) + when, nullptr,
                   against(t.peak_bytes, &HeapTotals::peak_bytes));
        figure_row("Leaked (never freed)", bytes_in_blocks(t.end_bytes, t.end_blocks), nullptr,
                   against(t.end_bytes, &HeapTotals::end_bytes));
        figure_row("Temporary allocations",
                   count_text(s.temporary_blocks, "block", "blocks") + " (" + percent(s.temporary_blocks, t.blocks) +
                       " of all), " + count_text(s.temporary_bytes, "byte", "bytes"),
                   "in sites whose blocks lived fewer than 500 instructions on average");
        char rate[64];
        std::snprintf(rate, sizeof rate, "%.1f blocks per million instructions", s.blocks_per_million);
        figure_row("Allocation rate", rate, "time is counted in instructions executed");
        figure_row("Read and written", count_text(t.reads, "byte", "bytes") + " read, " +
                                           count_text(t.writes, "byte", "bytes") + " written in heap blocks");
        figure_row("Sites", format_thousands(heap.sites.size()));
        ImGui::EndTable();
    }
    ImGui::Spacing();
    if (ImGui::BeginTable("leaders", 2, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_BordersInnerV)) {
        const auto bytes = [](uint64_t v) { return bytes_text(v); };
        leaders(ctx, heap, "Largest at the peak", s.largest_at_peak, [&](const HeapSite& x) { return bytes(x.peak_bytes); });
        leaders(ctx, heap, "Largest leaks", s.largest_leaks, [&](const HeapSite& x) { return bytes(x.end_bytes); });
        ImGui::TableNextRow();
        leaders(ctx, heap, "Most allocations", s.most_blocks,
                [](const HeapSite& x) { return count_text(x.blocks, "block", "blocks"); });
        leaders(ctx, heap, "Most temporary allocations", s.most_temporary,
                [](const HeapSite& x) { return count_text(x.blocks, "block", "blocks"); });
        ImGui::EndTable();
    }
    ImGui::EndChild();
}

} // namespace vgprof::viewer
