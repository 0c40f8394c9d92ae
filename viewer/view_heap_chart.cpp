// SPDX-License-Identifier: GPL-2.0-or-later
// The Heap view's chart: live bytes over instruction time, stacked by the
// largest allocation sites (the rest in grey as "other"), with a byte axis,
// a time axis marking the snapshots the bands are read from (in a profile
// without the heap's changes; with them, the bands are exact), the peak
// marked above its point so that even a one-pixel spike shows, and a
// legend that selects a site. The wheel zooms about the pointer,
// right-drag pans, a left drag selects a range of time (the sites table
// then narrows to it), a click picks a moment (for the flame graph's "Live
// at a moment"). In diff mode the base's live bytes are a black line.
#include "ui_util.hpp"
#include "views.hpp"

#include "data_selection.hpp"

#include "heap_sites.hpp"

#include "vgprof/format.hpp"

#include <algorithm>
#include <cmath>

namespace vgprof::viewer {

namespace {

const Rgb kOther{205, 205, 210};

// The plot's frame inside the chart: room for the axes' labels.
struct Plot {
    ImVec2 min, max;
    float width() const { return max.x - min.x; }
    float height() const { return max.y - min.y; }
};

std::string time_text(uint64_t t) { return short_count(t); }

// The tooltip's exact figures at `t`, from the changes: the live bytes of
// the band under the pointer, and the largest sites.
void exact_tooltip(const Names& names, const HeapSteps& steps, const HeapChart& chart,
                   std::optional<size_t> band, uint64_t t)
{
    if (steps.width() > 1)
        ImGui::TextDisabled("recorded in stretches of %s instructions: each step is a stretch's net change, at "
                            "its start",
                            format_thousands(steps.width()).c_str());
    if (band) {
        uint64_t v = 0;
        if (*band < chart.sites.size()) {
            v = steps.site_at(chart.sites[*band], t).bytes;
        } else {
            // Other sites: all of what was live but the chart's sites.
            v = steps.total_at(t).bytes;
            for (const SiteId site : chart.sites)
                v -= steps.site_at(site, t).bytes;
        }
        ImGui::Text("%s: %s bytes", *band < chart.sites.size() ? names.site(chart.sites[*band]).c_str() : "other sites",
                    format_thousands(v).c_str());
    }
    const std::vector<std::pair<uint64_t, SiteId>> live = steps.largest_at(t, 5);
    if (live.empty())
        return;
    ImGui::Separator();
    ImGui::TextDisabled("largest sites at instruction %s:", format_thousands(t).c_str());
    for (const auto& [bytes, site] : live)
        ImGui::Text("%12s  %s", format_thousands(bytes).c_str(), names.site(site).c_str());
}

} // namespace

const HeapSteps* HeapView::steps_of(const Heap& heap)
{
    if (!heap.changes)
        return nullptr;
    auto [it, added] = steps_.try_emplace(&heap);
    if (added)
        it->second.emplace(heap);
    return &*it->second;
}

void HeapView::draw_chart(ViewContext& ctx, const Heap& heap, ImVec2 size)
{
    if (!window_)
        window_ = heap_period(heap);
    TimeWindow& w = *window_;
    const float font = ImGui::GetFontSize();
    const Profile& p = ctx.doc.profile();

    // A dump after a zero describes the period since; its chart starts there.
    if (ImGui::SmallButton(heap.start_time > 0 ? "Whole period" : "Whole run"))
        w.reset();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(font * 6);
    ImGui::SliderInt("sites", &band_count_, 1, 10);
    ImGui::SameLine();
    ImGui::Checkbox("blocks", &show_blocks_);
    ImGui::SameLine();
    ImGui::TextDisabled("wheel: zoom  right-drag: pan  drag: select a range  click: pick a moment");

    const float legend_width = std::min(font * 17, size.x * 0.3f);
    const float left = ImGui::CalcTextSize("000.0 MB").x + font * 0.6f;
    const float right = show_blocks_ ? ImGui::CalcTextSize("00.0k").x + font * 0.6f : font * 0.5f;
    const ImVec2 corner = ImGui::GetCursorScreenPos();
    const float height = std::max(font * 4, ImGui::GetContentRegionAvail().y - font * 1.6f);
    const Plot plot{ImVec2(corner.x + left, corner.y + font * 0.5f),
                    ImVec2(corner.x + std::max(left + 20, size.x - legend_width - right), corner.y + height)};

    const ChartKey key{w.begin(), w.end(), int(plot.width()), band_count_};
    if (!chart_built_ || !(*chart_built_ == key)) {
        chart_built_ = key;
        const HeapSteps* steps = steps_of(heap);
        chart_ = heap_chart(heap,
                            steps ? top_sites(*steps, size_t(band_count_), w.begin(), w.end())
                                  : top_sites(heap, size_t(band_count_)),
                            w.begin(), w.end(), size_t(std::max(1.0f, plot.width())), steps);
        const Heap* base = ctx.diff ? ctx.diff->base().heap() : nullptr;
        base_chart_ = base ? heap_chart(*base, {}, w.begin(), w.end(), chart_.columns.size(), steps_of(*base))
                           : HeapChart{};
    }
    ImGui::SetCursorScreenPos(plot.min);
    ImGui::InvisibleButton("plot", ImVec2(plot.width(), plot.height()),
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(plot.min, plot.max, IM_COL32(252, 252, 254, 255));

    const uint64_t top = std::max<uint64_t>({1, chart_.max_bytes, base_chart_.max_bytes});
    const auto y_of = [&](uint64_t v) {
        return plot.max.y - float(double(v) / double(top)) * (plot.height() - font * 1.6f);
    };
    const auto x_of = [&](uint64_t t) {
        return plot.min.x + float(double(t - std::min(t, w.begin())) / double(w.span())) * plot.width();
    };
    const ImU32 grid = IM_COL32(225, 225, 232, 255);
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 faint = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    // The byte axis, with grid lines.
    for (uint64_t v : axis_ticks(0, top, 4)) {
        const float y = y_of(v);
        draw->AddLine(ImVec2(plot.min.x, y), ImVec2(plot.max.x, y), grid);
        const std::string label = bytes_text(v);
        draw->AddText(ImVec2(plot.min.x - ImGui::CalcTextSize(label.c_str()).x - font * 0.3f, y - font / 2), ink,
                      label.c_str());
    }
    // The time axis: round instruction counts, and the snapshots.
    for (uint64_t t : axis_ticks(w.begin(), w.end(), size_t(std::max(2.0f, plot.width() / (font * 7))))) {
        const float x = x_of(t);
        draw->AddLine(ImVec2(x, plot.max.y), ImVec2(x, plot.max.y + font * 0.3f), ink);
        const std::string label = time_text(t);
        draw->AddText(ImVec2(x - ImGui::CalcTextSize(label.c_str()).x / 2, plot.max.y + font * 0.3f), ink,
                      label.c_str());
    }
    for (const HeapSnapshot& snap : heap.snapshots)
        if (!chart_.exact && snap.time >= w.begin() && snap.time <= w.end()) {
            const float x = x_of(snap.time);
            draw->AddTriangleFilled(ImVec2(x, plot.max.y - font * 0.35f), ImVec2(x - font * 0.25f, plot.max.y),
                                    ImVec2(x + font * 0.25f, plot.max.y), faint);
        }

    // The bands, column by column, bottom up; the selected site's stands out.
    const Selection& sel = ctx.selection.current();
    const std::optional<SiteId> selected = selected_site(ctx.doc.profile(), sel);
    const bool site_selected = selected.has_value();
    std::optional<std::pair<size_t, size_t>> under;  // (column, band; bands.size(): other)
    const ImVec2 mouse = ImGui::GetMousePos();
    for (size_t i = 0; i < chart_.columns.size(); ++i) {
        const ChartColumn& c = chart_.columns[i];
        const float x = plot.min.x + float(i);
        uint64_t below = 0;
        for (size_t b = 0; b <= c.bands.size(); ++b) {
            const uint64_t v = b < c.bands.size() ? c.bands[b] : c.other();
            if (v == 0)
                continue;
            const bool is_selected = site_selected && b < c.bands.size() && chart_.sites[b] == *selected;
            const Rgb color = b < c.bands.size() ? category_color(b) : kOther;
            const int alpha = site_selected && !is_selected ? 150 : 255;
            const float y0 = y_of(below), y1 = y_of(below + v);
            draw->AddRectFilled(ImVec2(x, y1), ImVec2(x + 1, y0), to_imgui(color, alpha));
            if (hovered && mouse.x >= x && mouse.x < x + 1 && mouse.y >= y1 && mouse.y <= y0)
                under = {{i, b}};
            below += v;
        }
    }
    // The outline: each column's highest point, so a peak one column wide
    // is a line to it.
    for (size_t i = 1; i < chart_.columns.size(); ++i)
        draw->AddLine(ImVec2(plot.min.x + float(i - 1), y_of(chart_.columns[i - 1].bytes)),
                      ImVec2(plot.min.x + float(i), y_of(chart_.columns[i].bytes)), IM_COL32(50, 60, 80, 255));
    for (size_t i = 1; i < base_chart_.columns.size(); ++i)
        draw->AddLine(ImVec2(plot.min.x + float(i - 1), y_of(base_chart_.columns[i - 1].bytes)),
                      ImVec2(plot.min.x + float(i), y_of(base_chart_.columns[i].bytes)), IM_COL32(0, 0, 0, 255), 2);
    if (show_blocks_ && chart_.max_blocks > 0) {
        const auto yb = [&](uint64_t v) {
            return plot.max.y - float(double(v) / double(chart_.max_blocks)) * (plot.height() - font * 1.6f);
        };
        for (size_t i = 1; i < chart_.columns.size(); ++i)
            draw->AddLine(ImVec2(plot.min.x + float(i - 1), yb(chart_.columns[i - 1].blocks)),
                          ImVec2(plot.min.x + float(i), yb(chart_.columns[i].blocks)), IM_COL32(220, 120, 30, 255), 2);
        for (uint64_t v : axis_ticks(0, chart_.max_blocks, 4))
            draw->AddText(ImVec2(plot.max.x + font * 0.3f, yb(v) - font / 2), IM_COL32(200, 100, 20, 255),
                          short_count(v).c_str());
    }
    // The peak: a marker above its point and its figure.
    const HeapTotals& totals = heap.totals;
    if (totals.peak_time >= w.begin() && totals.peak_time <= w.end()) {
        const float x = x_of(totals.peak_time), y = y_of(totals.peak_bytes);
        const ImU32 red = IM_COL32(200, 30, 30, 255);
        draw->AddTriangleFilled(ImVec2(x, y - 2), ImVec2(x - font * 0.35f, y - font * 0.6f),
                                ImVec2(x + font * 0.35f, y - font * 0.6f), red);
        const std::string label = "peak " + bytes_text(totals.peak_bytes);
        const float tw = ImGui::CalcTextSize(label.c_str()).x;
        const float tx = x + font * 0.5f + tw < plot.max.x ? x + font * 0.5f : x - font * 0.5f - tw;
        draw->AddText(ImVec2(tx, y - font * 1.25f), red, label.c_str());
    }
    // The range selected, and one being dragged.
    // (Else the one chosen on the Timeline, which narrows the sites too.)
    std::optional<TimeRange> shaded;
    if (sel.kind == Selection::Kind::time_range)
        shaded = TimeRange{sel.t0, sel.t1};
    else if (const TimeRange* r = ctx.range())
        shaded = *r;
    if (shaded && shaded->t1 > w.begin() && shaded->t0 < w.end())
        draw->AddRectFilled(ImVec2(x_of(std::max(shaded->t0, w.begin())), plot.min.y),
                            ImVec2(x_of(std::min(shaded->t1, w.end())), plot.max.y), IM_COL32(255, 200, 0, 60));
    if (chosen_time_ && *chosen_time_ >= w.begin() && *chosen_time_ <= w.end())
        draw->AddLine(ImVec2(x_of(*chosen_time_), plot.min.y), ImVec2(x_of(*chosen_time_), plot.max.y),
                      IM_COL32(40, 110, 220, 255), 2);
    draw->AddRect(plot.min, plot.max, IM_COL32(150, 150, 160, 255));
    ImGui::SetCursorScreenPos(ImVec2(plot.max.x + right, corner.y));
    draw_chart_legend(ctx, heap);

    if (!hovered)
        return;
    const double fraction = std::clamp(double(mouse.x - plot.min.x) / double(plot.width()), 0.0, 1.0);
    const uint64_t t = w.begin() + uint64_t(fraction * double(w.span()));
    const ImGuiIO& io = ImGui::GetIO();
    if (io.MouseWheel != 0)
        w.zoom(t, io.MouseWheel > 0 ? 0.8 : 1.25);
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Right))
        w.pan(-int64_t(double(io.MouseDelta.x) / double(plot.width()) * double(w.span())));
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left))
        drag_from_ = t;
    const bool dragged = drag_from_ && std::abs(x_of(*drag_from_) - x_of(t)) >= 3;
    if (dragged && ImGui::IsMouseDown(ImGuiMouseButton_Left))
        draw->AddRectFilled(ImVec2(x_of(std::min(*drag_from_, t)), plot.min.y),
                            ImVec2(x_of(std::max(*drag_from_, t)), plot.max.y), IM_COL32(255, 200, 0, 60));
    if (drag_from_ && ImGui::IsMouseReleased(ImGuiMouseButton_Left)) {
        if (dragged) {
            ctx.selection.select(Selection::time_range(std::min(*drag_from_, t), std::max(*drag_from_, t), sel.fn));
        } else {
            chosen_time_ = t;
            // A click on a site's band selects it.
            if (under && under->second < chart_.sites.size()) {
                const SiteId site = chart_.sites[under->second];
                ctx.selection.select(Selection::heap_site(site.value, site_function(p, heap.site(site))));
            }
        }
        drag_from_.reset();
    }
    draw->AddLine(ImVec2(mouse.x, plot.min.y), ImVec2(mouse.x, plot.max.y), IM_COL32(0, 0, 0, 120));

    const size_t column = std::min(chart_.columns.size() - 1, size_t(std::max(0.0f, mouse.x - plot.min.x)));
    ImGui::BeginTooltip();
    const HeapSteps* steps = steps_of(heap);
    const HeapSample live = steps ? HeapSample{t, steps->total_at(t).bytes, steps->total_at(t).blocks}
                                  : live_at(heap.samples, t);
    ImGui::Text("instruction %s: %s bytes live in %s", format_thousands(t).c_str(),
                format_thousands(live.bytes).c_str(), count_text(live.blocks, "block", "blocks").c_str());
    if (steps) {
        const ChartColumn* c = chart_.columns.empty() ? nullptr : &chart_.columns[column];
        if (c && c->t1 - c->t0 > 1)
            ImGui::TextDisabled("highest in this pixel: %s at instruction %s", bytes_text(c->bytes).c_str(),
                                format_thousands(c->moment).c_str());
        exact_tooltip(ctx.doc.names(), *steps, chart_,
                      under ? std::optional<size_t>(under->second) : std::nullopt, t);
    } else if (!chart_.columns.empty()) {
        const ChartColumn& c = chart_.columns[column];
        ImGui::TextDisabled("highest in this pixel: %s", bytes_text(c.bytes).c_str());
        if (under) {
            const bool other = under->second >= chart_.sites.size();
            const uint64_t v = other ? c.other() : c.bands[under->second];
            ImGui::Text("%s: about %s", other ? "other sites" : ctx.doc.names().site(chart_.sites[under->second]).c_str(),
                        bytes_text(v).c_str());
        }
    }
    if (const HeapSnapshot* snap = steps ? nullptr : snapshot_at(heap, t)) {
        ImGui::Separator();
        ImGui::TextDisabled("largest sites at the snapshot at %s:", format_thousands(snap->time).c_str());
        for (size_t i = 0; i < snap->sites.size() && i < 5; ++i)
            ImGui::Text("%12s  %s", format_thousands(snap->sites[i].bytes).c_str(),
                        ctx.doc.names().site(snap->sites[i].site).c_str());
    }
    ImGui::EndTooltip();
}

void HeapView::draw_chart_legend(ViewContext& ctx, const Heap& heap)
{
    const Profile& p = ctx.doc.profile();
    const float font = ImGui::GetFontSize();
    const float width = ImGui::GetContentRegionAvail().x;
    const Selection& sel = ctx.selection.current();
    ImGui::BeginGroup();
    if (chart_.exact)
        ImGui::TextDisabled("Largest sites in the stretch shown");
    else
        ImGui::TextDisabled("Largest sites (from %zu snapshots)", heap.snapshots.size());
    const auto entry = [&](Rgb color, const std::string& label, bool selected) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(at.x, at.y + 2), ImVec2(at.x + font * 0.8f, at.y + font),
                                                  to_imgui(color));
        ImGui::SetCursorScreenPos(ImVec2(at.x + font * 1.1f, at.y));
        return ImGui::Selectable(fit_text_middle(label, width - font * 1.2f).c_str(), selected);
    };
    for (size_t b = chart_.sites.size(); b-- > 0;) {
        const SiteId site = chart_.sites[b];
        ImGui::PushID(int(b));
        const bool selected = selected_site(p, sel) == site;
        if (entry(category_color(b), ctx.doc.names().site(site), selected))
            ctx.selection.select(Selection::heap_site(site.value, site_function(p, heap.site(site))));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s\n%s", ctx.doc.names().site(site).c_str(),
                              site_callers(p, heap.site(site)).c_str());
        ImGui::PopID();
    }
    entry(kOther, "other sites", false);
    if (ctx.diff)
        ImGui::TextDisabled("black line: the base's live bytes");
    ImGui::EndGroup();
}

} // namespace vgprof::viewer
