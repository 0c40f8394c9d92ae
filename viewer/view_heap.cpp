// SPDX-License-Identifier: GPL-2.0-or-later
// The Heap view: a headline of the heap's figures, the live-bytes chart
// stacked by the largest sites, and under it the allocation sites, a flame
// graph of allocations or the summary, each in a tab of its own (their
// files: view_heap_chart.cpp, view_heap_sites.cpp, view_heap_flame.cpp,
// view_heap_summary.cpp). A range dragged on the chart narrows the sites
// table to that stretch of the run.
#include "ui_util.hpp"
#include "views.hpp"

#include "capabilities.hpp"

#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"

namespace vgprof::viewer {

std::optional<HeapPanel> heap_panel_from_key(const std::string& key)
{
    if (key == "sites")
        return HeapPanel::sites;
    if (key == "flamegraph")
        return HeapPanel::flamegraph;
    if (key == "summary")
        return HeapPanel::summary;
    return std::nullopt;
}

void HeapView::draw(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    if (const auto why = why_no_heap(p)) {
        centred_message(why->c_str());
        return;
    }
    const Heap& heap = *ctx.doc.heap();
    if (heap.sites.empty()) {
        centred_message("The program allocated nothing on the heap while it was profiled.");
        return;
    }
    const HeapTotals& t = heap.totals;
    ImGui::Text("Peak %s in %s at instruction %s;  leaked %s in %s;  allocated %s in %s",
                bytes_text(t.peak_bytes).c_str(), count_text(t.peak_blocks, "block", "blocks").c_str(),
                format_thousands(t.peak_time).c_str(), bytes_text(t.end_bytes).c_str(),
                count_text(t.end_blocks, "block", "blocks").c_str(), bytes_text(t.bytes).c_str(),
                count_text(t.blocks, "block", "blocks").c_str());
    if (const Heap* base = ctx.diff ? ctx.diff->base().heap() : nullptr) {
        const HeapTotals& b = base->totals;
        ImGui::TextDisabled("Against the base: peak %s;  leaked %s;  allocated %s in %s blocks",
                            change_text(signed_delta(t.peak_bytes, b.peak_bytes), b.peak_bytes).c_str(),
                            change_text(signed_delta(t.end_bytes, b.end_bytes), b.end_bytes).c_str(),
                            change_text(signed_delta(t.bytes, b.bytes), b.bytes).c_str(),
                            change_text(signed_delta(t.blocks, b.blocks), b.blocks).c_str());
    }
    if (has_heap_timeline(p)) {
        const float height = std::max(ImGui::GetFontSize() * 12, ImGui::GetContentRegionAvail().y * 0.45f);
        ImGui::BeginChild("chart", ImVec2(0, height), true, ImGuiWindowFlags_NoScrollbar);
        draw_chart(ctx, heap, ImGui::GetContentRegionAvail());
        ImGui::EndChild();
    } else {
        ImGui::TextDisabled("A DHAT file records the heap at its peak and at the end, not over time: "
                            "there is no timeline to draw.");
    }
    if (!ImGui::BeginTabBar("heap panels"))
        return;
    const auto tab = [&](const char* title, HeapPanel panel) {
        const ImGuiTabItemFlags flags = show_panel_ == panel ? ImGuiTabItemFlags_SetSelected : 0;
        return ImGui::BeginTabItem(title, nullptr, flags);
    };
    if (tab("Sites", HeapPanel::sites)) {
        draw_sites(ctx, heap);
        ImGui::EndTabItem();
    }
    if (tab("Flame graph of allocations", HeapPanel::flamegraph)) {
        draw_flame(ctx, heap);
        ImGui::EndTabItem();
    }
    if (tab("Summary", HeapPanel::summary)) {
        draw_summary(ctx, heap);
        ImGui::EndTabItem();
    }
    show_panel_.reset();
    ImGui::EndTabBar();
}

} // namespace vgprof::viewer
