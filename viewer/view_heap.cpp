// SPDX-License-Identifier: GPL-2.0-or-later
// The Heap view: live bytes and blocks over instruction time with the peak
// marked (wheel zooms, right-drag pans, hovering shows the value and the
// largest sites at that moment, left-drag selects a time range), and beside
// it the allocation-site table whose rows select the site's stack.
#include "ui_util.hpp"
#include "views.hpp"

#include "vgprof/heap.hpp"
#include "vgprof/query.hpp"

#include <algorithm>
#include <cmath>

namespace vgprof::viewer {

namespace {

// Site table columns, as HeapSite's figures.
const char* const kSiteColumns[] = {"Bytes", "Blocks", "Max live", "At peak", "Mean lifetime",
                                    "Reads", "Writes", "Leaked"};

uint64_t site_value(const HeapSite& s, int column)
{
    switch (column) {
    case 0: return s.bytes;
    case 1: return s.blocks;
    case 2: return s.max_bytes;
    case 3: return s.peak_bytes;
    case 4: return uint64_t(average_lifetime(s));
    case 5: return s.reads;
    case 6: return s.writes;
    default: return s.end_bytes;
    }
}

// The functions that asked for the memory, innermost first: the allocating
// frame with its line, and two of its callers ("count_word:32 < main").
std::string site_name(const ViewContext& ctx, const HeapSite& s)
{
    const Profile& p = ctx.doc.profile();
    const Heap& heap = *ctx.doc.heap();
    const std::optional<FrameId> first = allocating_frame(p, s);
    if (!first)  // every frame is in the allocator
        return frame_label(p, heap.frame(s.frames.front()));
    std::string name;
    int shown = 0;
    bool started = false;
    for (FrameId f : s.frames) {
        started = started || f == *first;
        if (!started || shown == 3)
            continue;
        name += (shown++ ? " < " : "") + p.fn_name(heap.frame(f).fn);
        // The allocating call's line tells apart two sites of one function.
        if (f == *first && heap.frame(f).line > 0)
            name += ":" + std::to_string(heap.frame(f).line);
    }
    return name;
}

// Diff mode: the largest change of a site's bytes, for the colors.
int64_t largest_site_change(const ViewContext& ctx, const Heap& heap)
{
    int64_t largest = 0;
    for (size_t i = 0; i < heap.sites.size(); ++i)
        largest = std::max(largest, std::abs(ctx.diff->site_bytes_delta(SiteId(uint32_t(i)))));
    return largest;
}

} // namespace

void HeapView::draw(ViewContext& ctx)
{
    if (!ctx.doc.heap()) {
        centred_message("This profile has no heap data.");
        return;
    }
    const Heap& heap = *ctx.doc.heap();
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

void HeapView::draw_timeline(ViewContext& ctx, const Heap& heap, ImVec2 size)
{
    if (!window_)
        window_.emplace(heap.totals.end_time);
    TimeWindow& w = *window_;
    const float font = ImGui::GetFontSize();
    const HeapTotals& totals = heap.totals;
    ImGui::Text("Live heap, instructions %s to %s", format_thousands(w.begin()).c_str(),
                format_thousands(w.end()).c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("Whole run"))
        w.reset();
    ImGui::TextDisabled("peak: %s bytes in %s blocks at instruction %s; at the end: %s bytes in %s blocks",
                        format_thousands(totals.peak_bytes).c_str(),
                        format_thousands(totals.peak_blocks).c_str(),
                        format_thousands(totals.peak_time).c_str(),
                        format_thousands(totals.end_bytes).c_str(),
                        format_thousands(totals.end_blocks).c_str());

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 plot(std::max(10.0f, size.x - font), std::max(10.0f, size.y - font * 4.5f));
    ImGui::InvisibleButton("plot", plot, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(origin, ImVec2(origin.x + plot.x, origin.y + plot.y), IM_COL32(250, 250, 252, 255));

    const auto buckets = downsample(heap.samples, w.begin(), w.end(), size_t(plot.x));
    // Diff mode: the base's live bytes too, as a line on the same scale.
    const Heap* base = ctx.diff ? ctx.diff->base().heap() : nullptr;
    const auto base_buckets =
        base ? downsample(base->samples, w.begin(), w.end(), size_t(plot.x)) : std::vector<TimelineBucket>();
    uint64_t most = 1;
    for (const auto* list : {&buckets, &base_buckets})
        for (const TimelineBucket& b : *list)
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
    for (size_t i = 1; i < base_buckets.size(); ++i)
        draw->AddLine(ImVec2(origin.x + float(i - 1), y_of(base_buckets[i - 1].max_bytes, most)),
                      ImVec2(origin.x + float(i), y_of(base_buckets[i].max_bytes, most)),
                      IM_COL32(40, 40, 40, 255), 2);
    const auto x_of = [&](uint64_t t) {
        return origin.x + float(double(t - std::min(t, w.begin())) / double(w.span())) * plot.x;
    };
    if (totals.peak_time >= w.begin() && totals.peak_time <= w.end()) {
        const float x = x_of(totals.peak_time);
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
                  base ? "bytes (blue; the base's: black), blocks (orange); wheel: zoom, right-drag: pan, "
                         "drag: select a range"
                       : "bytes (blue), blocks (orange); wheel: zoom, right-drag: pan, drag: select a range");

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
                format_thousands(live.bytes).c_str(), format_thousands(live.blocks).c_str());
    if (const HeapSnapshot* snap = snapshot_at(heap, t)) {
        ImGui::Separator();
        ImGui::TextDisabled("largest sites at %s:", format_thousands(snap->time).c_str());
        for (size_t i = 0; i < snap->sites.size() && i < 5; ++i)
            ImGui::Text("%s bytes  %s", format_thousands(snap->sites[i].bytes).c_str(),
                        site_name(ctx, heap.site(snap->sites[i].site)).c_str());
    }
    ImGui::EndTooltip();
}

void HeapView::draw_sites(ViewContext& ctx, const Heap& heap)
{
    // Diff mode: the change of each site's bytes, against the base's site
    // with the same stack.
    const bool diff = ctx.diff && ctx.diff->base().heap();
    const int columns = 1 + int(std::size(kSiteColumns)) + (diff ? 1 : 0);
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("sites", columns, flags))
        return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("Site", ImGuiTableColumnFlags_NoSort, ImGui::GetFontSize() * 11);
    // Column ids: a figure's index in kSiteColumns, or kChange.
    constexpr ImGuiID kChange = 100;
    if (diff)
        ImGui::TableSetupColumn("Bytes +/-", ImGuiTableColumnFlags_PreferSortDescending, 0, kChange);
    for (size_t c = 0; c < std::size(kSiteColumns); ++c)
        ImGui::TableSetupColumn(kSiteColumns[c], ImGuiTableColumnFlags_PreferSortDescending |
                                                     (c == 0 ? ImGuiTableColumnFlags_DefaultSort : 0),
                                0, ImGuiID(c));
    ImGui::TableHeadersRow();
    if (site_order_.size() != heap.sites.size()) {
        site_order_.resize(heap.sites.size());
        for (size_t i = 0; i < site_order_.size(); ++i)
            site_order_[i] = SiteId(uint32_t(i));
    }
    if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsDirty) {
        if (specs->SpecsCount > 0) {
            const bool by_change = specs->Specs[0].ColumnUserID == kChange;
            sort_column_ = int(specs->Specs[0].ColumnUserID);
            sort_descending_ = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
            std::stable_sort(site_order_.begin(), site_order_.end(), [&](SiteId a, SiteId b) {
                if (by_change) {
                    const int64_t da = ctx.diff->site_bytes_delta(a), db = ctx.diff->site_bytes_delta(b);
                    return sort_descending_ ? da > db : da < db;
                }
                const uint64_t va = site_value(heap.site(a), sort_column_);
                const uint64_t vb = site_value(heap.site(b), sort_column_);
                return sort_descending_ ? va > vb : va < vb;
            });
        }
        specs->SpecsDirty = false;
    }
    const Selection& sel = ctx.selection.current();
    const int64_t largest_change = diff ? largest_site_change(ctx, heap) : 0;
    ImGuiListClipper clipper;
    clipper.Begin(int(site_order_.size()));
    while (clipper.Step())
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const SiteId id = site_order_[size_t(r)];
            const uint32_t i = id.value;
            const HeapSite& s = heap.site(id);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(r);
            const bool selected = sel.kind == Selection::Kind::site && sel.site == i;
            if (ImGui::Selectable(site_name(ctx, s).c_str(), selected, ImGuiSelectableFlags_SpanAllColumns)) {
                // The site's function is the one that called the allocator.
                const std::optional<FrameId> f = allocating_frame(ctx.doc.profile(), s);
                ctx.selection.select(Selection::heap_site(
                    i, f ? std::optional<FnId>(heap.frame(*f).fn) : std::nullopt));
            }
            if (ImGui::IsItemHovered()) {
                ImGui::BeginTooltip();
                for (FrameId f : s.frames)
                    ImGui::TextUnformatted(frame_label(ctx.doc.profile(), heap.frame(f)).c_str());
                for (const std::string& note : site_notes(s))
                    ImGui::TextDisabled("%s", note.c_str());
                ImGui::EndTooltip();
            }
            ImGui::PopID();
            if (diff) {
                ImGui::TableNextColumn();
                delta_cell(ctx.diff->site_bytes_delta(id), s.bytes, largest_change);
            }
            for (int c = 0; c < int(std::size(kSiteColumns)); ++c) {
                ImGui::TableNextColumn();
                right_aligned(format_thousands(site_value(s, c)));
            }
        }
    ImGui::EndTable();
}

} // namespace vgprof::viewer
