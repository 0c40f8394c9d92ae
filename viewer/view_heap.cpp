// SPDX-License-Identifier: GPL-2.0-or-later
// The Heap view: live bytes and blocks over instruction time with the peak
// marked (wheel zooms, right-drag pans, hovering shows the value and the
// largest sites at that moment, left-drag selects a time range), and beside
// it the allocation-site table whose rows select the site's stack.
#include "ui_util.hpp"
#include "views.hpp"

#include "vgprof/query.hpp"

#include <algorithm>
#include <cmath>

namespace vgprof::viewer {

namespace {

// Site table columns, as HeapSite's figures.
const char* const kSiteColumns[] = {"Bytes", "Blocks", "Max live", "Mean lifetime",
                                    "Reads", "Writes", "Leaked"};

uint64_t site_value(const HeapSite& s, int column)
{
    switch (column) {
    case 0: return s.bytes;
    case 1: return s.blocks;
    case 2: return s.max_live_bytes;
    case 3: return s.mean_lifetime();
    case 4: return s.reads;
    case 5: return s.writes;
    default: return s.leaked_bytes;
    }
}

std::string site_name(const ViewContext& ctx, const HeapSite& s)
{
    const Profile& p = ctx.doc.profile();
    std::string name;
    for (size_t i = 0; i < s.stack.size() && i < 3; ++i)
        name += (i ? " < " : "") + p.fn_name(s.stack[i].fn);
    return name.empty() ? "???" : name;
}

} // namespace

void HeapView::draw(ViewContext& ctx)
{
    if (!ctx.doc.heap()) {
        centred_message("This profile has no heap data.");
        return;
    }
    const HeapData& heap = *ctx.doc.heap();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float sites_width = std::max(avail.x * 0.4f, ImGui::GetFontSize() * 22);
    ImGui::BeginChild("timeline", ImVec2(avail.x - sites_width, 0), true);
    draw_timeline(ctx, heap, ImGui::GetContentRegionAvail());
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("sites", ImVec2(0, 0), true);
    draw_sites(ctx, heap);
    ImGui::EndChild();
}

void HeapView::draw_timeline(ViewContext& ctx, const HeapData& heap, ImVec2 size)
{
    if (!window_)
        window_.emplace(heap.end_time);
    TimeWindow& w = *window_;
    const float font = ImGui::GetFontSize();
    const std::optional<HeapSample> top = peak(heap.samples);
    ImGui::Text("Live heap, instructions %s to %s", format_thousands(w.begin()).c_str(),
                format_thousands(w.end()).c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("Whole run"))
        w.reset();
    if (top)
        ImGui::TextDisabled("peak: %s bytes in %s blocks at instruction %s",
                            format_thousands(top->live_bytes).c_str(),
                            format_thousands(top->live_blocks).c_str(), format_thousands(top->time).c_str());

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 plot(std::max(10.0f, size.x - font), std::max(10.0f, size.y - font * 4.5f));
    ImGui::InvisibleButton("plot", plot, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(origin, ImVec2(origin.x + plot.x, origin.y + plot.y), IM_COL32(250, 250, 252, 255));

    const auto buckets = downsample(heap.samples, w.begin(), w.end(), size_t(plot.x));
    uint64_t most = 1;
    for (const TimelineBucket& b : buckets)
        most = std::max(most, b.max_bytes);
    uint64_t most_blocks = 1;
    for (const TimelineBucket& b : buckets)
        most_blocks = std::max(most_blocks, b.max_blocks);
    const auto y_of = [&](uint64_t v, uint64_t max) {
        return origin.y + plot.y - float(double(v) / double(max)) * (plot.y - 2);
    };
    for (size_t i = 0; i < buckets.size(); ++i) {
        const float x = origin.x + float(i);
        draw->AddLine(ImVec2(x, origin.y + plot.y), ImVec2(x, y_of(buckets[i].min_bytes, most)),
                      IM_COL32(70, 130, 200, 255));
        draw->AddLine(ImVec2(x, y_of(buckets[i].min_bytes, most)), ImVec2(x, y_of(buckets[i].max_bytes, most)),
                      IM_COL32(70, 130, 200, 150));
        draw->AddLine(ImVec2(x, y_of(buckets[i].max_blocks, most_blocks)),
                      ImVec2(x + 1, y_of(buckets[i].max_blocks, most_blocks)), IM_COL32(220, 120, 30, 255), 2);
    }
    const auto x_of = [&](uint64_t t) {
        return origin.x + float(double(t - std::min(t, w.begin())) / double(w.span())) * plot.x;
    };
    if (top && top->time >= w.begin() && top->time <= w.end()) {
        const float x = x_of(top->time);
        draw->AddLine(ImVec2(x, origin.y), ImVec2(x, origin.y + plot.y), IM_COL32(200, 30, 30, 255), 2);
        draw->AddText(ImVec2(x + 4, origin.y + 2), IM_COL32(200, 30, 30, 255), "peak");
    }
    const Selection& sel = ctx.selection.current();
    if (sel.kind == Selection::Kind::time_range)
        draw->AddRectFilled(ImVec2(x_of(std::max(sel.t0, w.begin())), origin.y),
                            ImVec2(x_of(std::min(sel.t1, w.end())), origin.y + plot.y),
                            IM_COL32(255, 200, 0, 60));
    // The scale: the most bytes and blocks shown, at the top.
    const std::string scale = short_count(most) + " bytes, " + short_count(most_blocks) + " blocks";
    draw->AddText(ImVec2(origin.x + 4, origin.y + 2), IM_COL32(40, 40, 40, 255), scale.c_str());
    draw->AddText(ImVec2(origin.x + 4, origin.y + plot.y + 2), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                  "bytes (blue), blocks (orange); wheel: zoom, right-drag: pan, drag: select a range");

    if (!hovered)
        return;
    const ImVec2 mouse = ImGui::GetMousePos();
    const double fraction = std::clamp(double(mouse.x - origin.x) / double(plot.x), 0.0, 1.0);
    const uint64_t t = w.begin() + uint64_t(fraction * double(w.span()));
    const ImGuiIO& io = ImGui::GetIO();
    if (io.MouseWheel != 0)
        w.zoom(t, io.MouseWheel > 0 ? 0.8 : 1.25);
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Right))
        w.pan(-int64_t(double(io.MouseDelta.x) / double(plot.x) * double(w.span())));
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left))
        drag_from_ = t;
    if (drag_from_ && ImGui::IsMouseDragging(ImGuiMouseButton_Left))
        draw->AddRectFilled(ImVec2(x_of(std::min(*drag_from_, t)), origin.y),
                            ImVec2(x_of(std::max(*drag_from_, t)), origin.y + plot.y), IM_COL32(255, 200, 0, 60));
    if (drag_from_ && ImGui::IsMouseReleased(ImGuiMouseButton_Left)) {
        if (*drag_from_ != t)
            ctx.selection.select(Selection::time_range(std::min(*drag_from_, t), std::max(*drag_from_, t)));
        drag_from_.reset();
    }
    draw->AddLine(ImVec2(mouse.x, origin.y), ImVec2(mouse.x, origin.y + plot.y), IM_COL32(0, 0, 0, 120));
    const HeapSample live = live_at(heap.samples, t);
    ImGui::BeginTooltip();
    ImGui::Text("at %s: %s bytes in %s blocks", format_thousands(t).c_str(),
                format_thousands(live.live_bytes).c_str(), format_thousands(live.live_blocks).c_str());
    if (const HeapSnapshot* snap = snapshot_at(heap, t)) {
        ImGui::Separator();
        ImGui::TextDisabled("largest sites at %s:", format_thousands(snap->time).c_str());
        for (size_t i = 0; i < snap->sites.size() && i < 5; ++i)
            ImGui::Text("%s  %s", format_thousands(snap->sites[i].second).c_str(),
                        site_name(ctx, heap.sites[snap->sites[i].first]).c_str());
    }
    ImGui::EndTooltip();
}

void HeapView::draw_sites(ViewContext& ctx, const HeapData& heap)
{
    const int columns = 1 + int(std::size(kSiteColumns));
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("sites", columns, flags))
        return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("Site", ImGuiTableColumnFlags_NoSort, ImGui::GetFontSize() * 11);
    for (size_t c = 0; c < std::size(kSiteColumns); ++c)
        ImGui::TableSetupColumn(kSiteColumns[c], ImGuiTableColumnFlags_PreferSortDescending |
                                                     (c == 0 ? ImGuiTableColumnFlags_DefaultSort : 0));
    ImGui::TableHeadersRow();
    if (site_order_.size() != heap.sites.size()) {
        site_order_.resize(heap.sites.size());
        for (size_t i = 0; i < site_order_.size(); ++i)
            site_order_[i] = uint32_t(i);
    }
    if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsDirty) {
        if (specs->SpecsCount > 0) {
            sort_column_ = specs->Specs[0].ColumnIndex - 1;
            sort_descending_ = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
            std::stable_sort(site_order_.begin(), site_order_.end(), [&](uint32_t a, uint32_t b) {
                const uint64_t va = site_value(heap.sites[a], sort_column_);
                const uint64_t vb = site_value(heap.sites[b], sort_column_);
                return sort_descending_ ? va > vb : va < vb;
            });
        }
        specs->SpecsDirty = false;
    }
    const Selection& sel = ctx.selection.current();
    ImGuiListClipper clipper;
    clipper.Begin(int(site_order_.size()));
    while (clipper.Step())
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const uint32_t i = site_order_[size_t(r)];
            const HeapSite& s = heap.sites[i];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(r);
            const bool selected = sel.kind == Selection::Kind::site && sel.site == i;
            if (ImGui::Selectable(site_name(ctx, s).c_str(), selected, ImGuiSelectableFlags_SpanAllColumns))
                ctx.selection.select(Selection::heap_site(
                    i, s.stack.empty() ? std::nullopt : std::optional<FnId>(s.stack.front().fn)));
            ImGui::PopID();
            for (int c = 0; c < int(std::size(kSiteColumns)); ++c) {
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(format_thousands(site_value(s, c)).c_str());
            }
        }
    ImGui::EndTable();
}

} // namespace vgprof::viewer
