// SPDX-License-Identifier: GPL-2.0-or-later
// The Timeline view: the calls the profile's timeline kept, as a flame
// chart over the run's instruction clock (a lane per thread, a row per
// nesting level), the phases between marks above it, and below it on the
// same axis the live heap and the cost of a chosen event in each pixel
// column. The wheel zooms about the pointer, a drag pans, "Whole run" (or
// Escape) shows everything again; shift+drag, or a click on a phase,
// narrows the other views to that stretch of time, a click on a call
// selects its function.
#include "ui_util.hpp"
#include "views.hpp"

#include "capabilities.hpp"

#include "vgprof/format.hpp"
#include "vgprof/heap.hpp"

#include <algorithm>
#include <cmath>

namespace vgprof::viewer {

struct TimelineView::Geometry {
    float x0 = 0, x1 = 0;  // the plot's left and right edges on screen
    float top = 0, bottom = 0;  // of everything that shares the axis
    uint64_t t0 = 0, t1 = 1;
    float font = 0;

    float width() const { return std::max(1.0f, x1 - x0); }
    float x_of(uint64_t t) const
    {
        const double f = (double(t) - double(t0)) / double(t1 - t0);
        return x0 + float(std::clamp(f, -0.01, 1.01) * double(width()));
    }
    uint64_t t_of(float x) const
    {
        const double f = std::clamp(double(x - x0) / double(width()), 0.0, 1.0);
        return t0 + uint64_t(f * double(t1 - t0));
    }
};

namespace {

const ImU32 kRangeFill = IM_COL32(255, 200, 0, 60);
const ImU32 kMarkLine = IM_COL32(200, 40, 40, 200);

// A phase: [begin, first mark), [mark, next mark) ... [last mark, end),
// with the moments that bound it.
struct Phase {
    TimeRange range;
    const TimelineMoment *from, *to;
};

std::vector<Phase> phases_of(const Timeline& t)
{
    std::vector<Phase> phases;
    const TimelineMoment* from = &t.begin;
    for (const TimelineMark& m : t.marks) {
        if (m.time > from->time)
            phases.push_back({{from->time, m.time}, from, &m});
        if (m.time >= from->time)
            from = &m;
    }
    if (t.end.time > from->time)
        phases.push_back({{from->time, t.end.time}, from, &t.end});
    return phases;
}

// A track's name at its top left, on a ground of its own so that the
// marks' lines do not cross it.
void track_label(const TimelineView::Geometry& g, float y, const std::string& text)
{
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    draw->AddRectFilled(ImVec2(g.x0 + 2, y + 1), ImVec2(g.x0 + 6 + size.x, y + 1 + size.y),
                        IM_COL32(250, 250, 252, 230));
    draw->AddText(ImVec2(g.x0 + 4, y + 1), ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
}

std::string range_text(uint64_t t0, uint64_t t1)
{
    return format_thousands(t0) + " .. " + format_thousands(t1);
}

} // namespace

void TimelineView::draw(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    if (const auto why = why_no_timeline(p)) {
        centred_message(why->c_str());
        return;
    }
    if (ctx.diff || !ctx.timeline) {
        centred_message("The timeline is one run's: open the profile alone to see it.");
        return;
    }
    const Timeline& t = *p.timeline();
    const SpanTree& tree = *ctx.timeline->spans(p);
    if (!window_)
        window_ = TimeWindow(t.begin.time, std::max(t.end.time, t.begin.time + 1));
    if (!cost_event_ || *cost_event_ >= p.num_events())
        cost_event_ = ctx.event;
    draw_toolbar(ctx, t);

    Geometry g;
    g.font = ImGui::GetFontSize();
    const ImVec2 corner = ImGui::GetCursorScreenPos();
    g.x0 = corner.x;
    g.x1 = corner.x + ImGui::GetContentRegionAvail().x;
    g.t0 = window_->begin();
    g.t1 = window_->end();
    g.top = corner.y;
    draw_axis(ctx, g);
    draw_phases(ctx, g, t);

    const float track = g.font * 4.5f;
    const bool allocations = p.heap() && p.heap()->changes;
    const float tracks = allocations ? 3.0f : 2.0f;
    const float lanes_height = std::max(g.font * 4, ImGui::GetContentRegionAvail().y - tracks * track - g.font);
    ImGui::BeginChild("lanes", ImVec2(0, lanes_height), true, ImGuiWindowFlags_NoScrollWithMouse);
    draw_lanes(ctx, g, tree);
    ImGui::EndChild();
    draw_heap_track(ctx, g);
    if (allocations)
        draw_allocation_track(ctx, g);
    draw_cost_track(ctx, g, tree);
    g.bottom = ImGui::GetCursorScreenPos().y;
    const ImVec2 mouse = ImGui::GetMousePos();
    const bool hovered = ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows) && mouse.x >= g.x0 &&
                         mouse.x < g.x1 && mouse.y >= g.top && mouse.y < g.bottom;
    handle_mouse(ctx, g, hovered);
}

void TimelineView::draw_toolbar(ViewContext& ctx, const Timeline& t)
{
    const Profile& p = ctx.doc.profile();
    if (ImGui::SmallButton("Whole run") ||
        (key_pressed(ViewKey::Escape) && ImGui::IsWindowFocused(ImGuiFocusedFlags_ChildWindows)))
        window_->reset();
    ImGui::SameLine();
    ImGui::TextUnformatted("Cost of");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    if (ImGui::BeginCombo("##cost event", p.meta().events[*cost_event_].c_str())) {
        for (size_t e = 0; e < p.num_events(); ++e)
            if (ImGui::Selectable(p.meta().events[e].c_str(), e == *cost_event_))
                cost_event_ = e;
        ImGui::EndCombo();
    } else if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("The event whose cost the bottom track shows per stretch of time");
    }
    if (ctx.range()) {
        ImGui::SameLine();
        if (ImGui::SmallButton("Clear range"))
            ctx.timeline->range.reset();
    }
    ImGui::SameLine();
    ImGui::TextDisabled("wheel: zoom  drag: pan  shift+drag or click a phase: narrow the views to a range  "
                        "click a call: select it");
    ImGui::TextDisabled("%s calls kept (each at least %s instructions long; %s shorter calls are in their "
                        "callers' own time), %s marks",
                        format_thousands(t.spans.size()).c_str(), format_thousands(t.threshold).c_str(),
                        format_thousands(t.dropped).c_str(), format_thousands(t.marks.size()).c_str());
}

void TimelineView::draw_axis(ViewContext&, const Geometry& g)
{
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float y = ImGui::GetCursorScreenPos().y;
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
    const size_t count = size_t(std::max(2.0f, g.width() / (g.font * 7)));
    for (uint64_t t : axis_ticks(g.t0, g.t1, count)) {
        const float x = g.x_of(t);
        const std::string label = short_count(t);
        const float w = ImGui::CalcTextSize(label.c_str()).x;
        draw->AddLine(ImVec2(x, y + g.font * 1.1f), ImVec2(x, y + g.font * 1.4f), ink);
        draw->AddText(ImVec2(std::clamp(x - w / 2, g.x0, g.x1 - w), y), ink, label.c_str());
    }
    ImGui::Dummy(ImVec2(g.width(), g.font * 1.4f));
}

void TimelineView::draw_phases(ViewContext& ctx, const Geometry& g, const Timeline& t)
{
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float y0 = ImGui::GetCursorScreenPos().y, y1 = y0 + g.font * 1.4f;
    const ImVec2 mouse = ImGui::GetMousePos();
    const bool over = ImGui::IsWindowHovered() && mouse.y >= y0 && mouse.y < y1;
    const TimeRange* range = ctx.range();
    const Profile& p = ctx.doc.profile();
    for (const Phase& phase : phases_of(t)) {
        const TimeRange& ph = phase.range;
        if (ph.t1 <= g.t0 || ph.t0 >= g.t1)
            continue;
        const float a = g.x_of(ph.t0), b = g.x_of(ph.t1);
        const bool chosen = range && *range == ph;
        const bool under = over && mouse.x >= a && mouse.x < b;
        draw->AddRectFilled(ImVec2(a + 1, y0), ImVec2(std::max(a + 2, b - 1), y1),
                            chosen ? IM_COL32(255, 205, 60, 255)
                                   : under ? IM_COL32(215, 225, 240, 255) : IM_COL32(232, 236, 244, 255));
        if (under) {
            // Its exact costs: the difference of the running totals at its bounds.
            ImGui::BeginTooltip();
            ImGui::Text("Phase %s (%s instructions): click to narrow the views to it",
                        range_text(ph.t0, ph.t1).c_str(), format_thousands(ph.t1 - ph.t0).c_str());
            for (size_t e = 0; e < p.num_events() && e < phase.to->totals.size(); ++e)
                ImGui::Text("%-5s %15s", p.meta().events[e].c_str(),
                            format_thousands(phase.to->totals[e] - phase.from->totals[e]).c_str());
            ImGui::TextDisabled("from the running totals at its two ends: exact");
            ImGui::EndTooltip();
            if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && ImGui::GetMouseDragDelta(0, 0).x == 0 &&
                !ImGui::GetIO().KeyShift)
                ctx.timeline->range = chosen ? std::nullopt : std::optional<TimeRange>(ph);
        }
    }
    draw_marks(g, t, y0, y1, true);
    ImGui::Dummy(ImVec2(g.width(), y1 - y0));
}

void TimelineView::draw_marks(const Geometry& g, const Timeline& t, float y0, float y1, bool labels)
{
    ImDrawList* draw = ImGui::GetWindowDrawList();
    float free_from = g.x0;  // labels do not overlap: the next goes right of the last
    for (const TimelineMark& m : t.marks) {
        if (m.time < g.t0 || m.time > g.t1)
            continue;
        const float x = g.x_of(m.time);
        draw->AddLine(ImVec2(x, y0), ImVec2(x, y1), kMarkLine, 1.5f);
        if (!labels)
            continue;
        // Right of its line, or left of it where the plot ends.
        const std::string label = fit_text(m.label, g.font * 12);
        const float w = ImGui::CalcTextSize(label.c_str()).x;
        const float at = x + 3 + w <= g.x1 ? x + 3 : x - 3 - w;
        if (at < free_from)
            continue;
        draw->AddText(ImVec2(at, y0 + g.font * 0.15f), IM_COL32(150, 20, 20, 255), label.c_str());
        free_from = at + w + g.font * 0.5f;
    }
}

void TimelineView::draw_lanes(ViewContext& ctx, const Geometry& g, const SpanTree& tree)
{
    const Profile& p = ctx.doc.profile();
    const Timeline& t = tree.timeline();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float row = g.font + 5;
    const float header = g.font * 1.3f;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float view_top = ImGui::GetWindowPos().y, view_bottom = view_top + ImGui::GetWindowHeight();
    const ImVec2 mouse = ImGui::GetMousePos();
    const bool hovering = ImGui::IsWindowHovered();
    const Selection& sel = ctx.selection.current();
    hovered_.reset();

    float y = origin.y;
    for (const SpanTree::Lane& lane : tree.lanes()) {
        const std::string title = "thread " + std::to_string(lane.thread);
        draw->AddText(ImVec2(g.x0 + 4, y + 2), ImGui::GetColorU32(ImGuiCol_Text), title.c_str());
        y += header;
        for (const std::vector<uint32_t>& spans : lane.rows) {
            const float y0 = y, y1 = y + row - 1;
            y += row;
            if (y1 < view_top || y0 > view_bottom)
                continue;
            for (const SpanBox& b : visible_boxes(t, spans, g.t0, g.t1, g.width())) {
                const float a = g.x_of(b.t0), z = std::max(g.x_of(b.t1), a + 1);
                const FnId fn = t.spans[b.span].fn;
                const bool selected = b.count == 1 && sel.fn == fn;
                const std::string& name = ctx.doc.names().function(fn);
                Rgb fill = b.count > 1 ? Rgb{185, 185, 190} : flame_color(name);
                if (selected)
                    fill = Rgb{120, 170, 250};
                draw->AddRectFilled(ImVec2(a, y0), ImVec2(std::max(a + 1, z - 1), y1), to_imgui(fill));
                if (selected)
                    draw->AddRect(ImVec2(a, y0), ImVec2(std::max(a + 1, z - 1), y1), IM_COL32(20, 60, 160, 255),
                                  0, 0, 2);
                const float visible_a = std::max(a, g.x0), visible_w = std::min(z, g.x1) - visible_a;
                if (b.count == 1 && visible_w > g.font * 2) {
                    const std::string text = fit_text(name, visible_w - 6);
                    draw->AddText(ImVec2(visible_a + 3, y0 + 2), to_imgui(text_color_on(fill)), text.c_str());
                }
                if (hovering && mouse.y >= y0 && mouse.y < y1 && mouse.x >= a && mouse.x < std::max(z, a + 2))
                    hovered_ = b;
            }
        }
    }
    // Marks and the range across every lane.
    draw_marks(g, t, std::max(origin.y, view_top), std::min(y, view_bottom), false);
    if (const TimeRange* r = ctx.range(); r && r->t1 > g.t0 && r->t0 < g.t1)
        draw->AddRectFilled(ImVec2(g.x_of(r->t0), std::max(origin.y, view_top)),
                            ImVec2(g.x_of(r->t1), std::min(y, view_bottom)), kRangeFill);
    ImGui::Dummy(ImVec2(g.width(), std::max(1.0f, y - origin.y)));
    if (hovered_)
        span_tooltip(ctx, tree, *hovered_);
    (void)p;
}

void TimelineView::span_tooltip(ViewContext& ctx, const SpanTree& tree, const SpanBox& box)
{
    const Profile& p = ctx.doc.profile();
    const TimelineSpan& s = tree.timeline().spans[box.span];
    ImGui::BeginTooltip();
    if (box.count > 1) {
        ImGui::Text("%u calls too short to draw apart here, from %s (zoom in to see them)", box.count,
                    ctx.doc.names().function(s.fn).c_str());
        ImGui::Text("instructions %s", range_text(box.t0, box.t1).c_str());
        ImGui::EndTooltip();
        return;
    }
    ImGui::TextUnformatted(ctx.doc.names().function(s.fn).c_str());
    ImGui::Text("thread %u, instructions %s: %s long%s", s.thread, range_text(s.start, s.end).c_str(),
                format_thousands(s.end - s.start).c_str(), s.open ? " (had not returned: cut there)" : "");
    ImGui::Separator();
    const uint64_t* cost = p.span_cost(box.span);
    for (size_t e = 0; e < p.num_events(); ++e)
        ImGui::Text("%-5s %15s   own %15s", p.meta().events[e].c_str(), format_thousands(cost[e]).c_str(),
                    format_thousands(tree.self(box.span, e)).c_str());
    ImGui::TextDisabled("own: less the calls kept under it (shorter ones count as its own)");
    ImGui::EndTooltip();
}

void TimelineView::draw_heap_track(ViewContext& ctx, const Geometry& g)
{
    const Profile& p = ctx.doc.profile();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float h = g.font * 4.5f;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float y0 = at.y + 2, y1 = at.y + h - 2;
    draw->AddRectFilled(ImVec2(g.x0, y0), ImVec2(g.x1, y1), IM_COL32(250, 250, 252, 255));
    if (!has_heap_timeline(p)) {
        draw->AddText(ImVec2(g.x0 + 4, y0 + 2), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                      "live heap: not recorded (--heap=no)");
        ImGui::Dummy(ImVec2(g.width(), h));
        return;
    }
    const Heap& heap = *p.heap();
    const CostKey key{g.t0, g.t1, 0, int(g.width())};
    if (!heap_built_ || !(*heap_built_ == key)) {
        heap_built_ = key;
        heap_columns_ = downsample(heap.samples, g.t0, g.t1, size_t(g.width()));
    }
    uint64_t top = 1;
    for (const TimelineBucket& b : heap_columns_)
        top = std::max(top, b.max_bytes);
    const float room = y1 - y0 - g.font * 1.2f;
    for (size_t i = 0; i < heap_columns_.size(); ++i) {
        const float x = g.x0 + float(i);
        const float hy = y1 - float(double(heap_columns_[i].max_bytes) / double(top)) * room;
        if (heap_columns_[i].max_bytes > 0)
            draw->AddRectFilled(ImVec2(x, hy), ImVec2(x + 1, y1), to_imgui(category_color(0)));
    }
    draw_marks(g, *p.timeline(), y0, y1, false);
    if (const TimeRange* r = ctx.range(); r && r->t1 > g.t0 && r->t0 < g.t1)
        draw->AddRectFilled(ImVec2(g.x_of(r->t0), y0), ImVec2(g.x_of(r->t1), y1), kRangeFill);
    track_label(g, y0, "live heap, up to " + bytes_text(top) + " here");
    ImGui::Dummy(ImVec2(g.width(), h));
    const ImVec2 mouse = ImGui::GetMousePos();
    if (ImGui::IsWindowHovered() && mouse.y >= y0 && mouse.y < y1 && mouse.x >= g.x0 && mouse.x < g.x1) {
        const uint64_t t = g.t_of(mouse.x);
        const HeapSample live = live_at(heap.samples, t);
        ImGui::BeginTooltip();
        ImGui::Text("instruction %s: %s live in %s", format_thousands(t).c_str(), bytes_text(live.bytes).c_str(),
                    count_text(live.blocks, "block", "blocks").c_str());
        if (heap.changes) {
            read_changes(heap);
            sites_live_at(ctx, *steps_, t);
        }
        ImGui::EndTooltip();
    }
}

// The largest sites live at `t`, exactly, from the heap's changes.
void TimelineView::sites_live_at(ViewContext& ctx, const HeapSteps& steps, uint64_t t)
{
    if (steps.width() > 1)
        ImGui::TextDisabled("the heap's changes are kept in stretches of %s instructions, each drawn at its "
                            "start:",
                            format_thousands(steps.width()).c_str());
    for (const auto& [bytes, site] : steps.largest_at(t, 5))
        ImGui::Text("  %s  %s", bytes_text(bytes).c_str(),
                    fit_text(ctx.doc.names().site(site), ImGui::GetFontSize() * 40).c_str());
}

void TimelineView::read_changes(const Heap& heap)
{
    if (changes_of_ == &heap)
        return;
    changes_of_ = &heap;
    steps_.emplace(heap);
    allocations_.emplace(*heap.changes);
    allocations_built_.reset();
}

void TimelineView::draw_allocation_track(ViewContext& ctx, const Geometry& g)
{
    const Heap& heap = *ctx.doc.profile().heap();
    read_changes(heap);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float h = g.font * 4.5f;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float y0 = at.y + 2, y1 = at.y + h - 2;
    const CostKey key{g.t0, g.t1, 0, int(g.width())};
    if (!allocations_built_ || !(*allocations_built_ == key)) {
        allocations_built_ = key;
        allocation_columns_ = allocations_->per_bucket(g.t0, g.t1, size_t(std::max(1.0f, g.width())));
    }
    draw->AddRectFilled(ImVec2(g.x0, y0), ImVec2(g.x1, y1), IM_COL32(250, 250, 252, 255));
    uint64_t top = 1;
    for (const AllocationBucket& b : allocation_columns_)
        top = std::max(top, b.blocks);
    const float room = y1 - y0 - g.font * 1.2f;
    for (size_t i = 0; i < allocation_columns_.size(); ++i)
        if (allocation_columns_[i].blocks > 0) {
            const float x = g.x0 + float(i);
            const float ay = y1 - float(double(allocation_columns_[i].blocks) / double(top)) * room;
            draw->AddRectFilled(ImVec2(x, std::min(ay, y1 - 1)), ImVec2(x + 1, y1), IM_COL32(60, 150, 90, 255));
        }
    const double per_column = double(g.t1 - g.t0) / double(std::max(1.0f, g.width()));
    draw_marks(g, *ctx.doc.profile().timeline(), y0, y1, false);
    if (const TimeRange* r = ctx.range(); r && r->t1 > g.t0 && r->t0 < g.t1)
        draw->AddRectFilled(ImVec2(g.x_of(r->t0), y0), ImVec2(g.x_of(r->t1), y1), kRangeFill);
    track_label(g, y0, "blocks allocated per " + short_count(uint64_t(std::max(1.0, per_column))) +
                           " instructions, up to " + short_count(top));
    ImGui::Dummy(ImVec2(g.width(), h));
    const ImVec2 mouse = ImGui::GetMousePos();
    if (ImGui::IsWindowHovered() && mouse.y >= y0 && mouse.y < y1 && mouse.x >= g.x0 && mouse.x < g.x1 &&
        !allocation_columns_.empty()) {
        const size_t i = std::min(allocation_columns_.size() - 1, size_t(mouse.x - g.x0));
        const AllocationBucket& b = allocation_columns_[i];
        ImGui::SetTooltip("%s: %s allocated, %s freed%s",
                          range_text(g.t_of(g.x0 + float(i)), g.t_of(g.x0 + float(i + 1))).c_str(),
                          bytes_in_blocks(b.bytes, b.blocks).c_str(),
                          bytes_in_blocks(b.freed_bytes, b.freed_blocks).c_str(),
                          heap.changes->width > 1 ? " (to the nearest stretch the profile keeps)" : "");
    }
}

void TimelineView::draw_cost_track(ViewContext& ctx, const Geometry& g, const SpanTree& tree)
{
    const Profile& p = ctx.doc.profile();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float h = g.font * 4.5f;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float y0 = at.y + 2, y1 = at.y + h - 2;
    const size_t event = *cost_event_;
    const CostKey key{g.t0, g.t1, event, int(g.width())};
    if (!cost_built_ || !(*cost_built_ == key)) {
        cost_built_ = key;
        cost_columns_ = cost_per_bucket(tree, event, g.t0, g.t1, size_t(g.width()));
    }
    draw->AddRectFilled(ImVec2(g.x0, y0), ImVec2(g.x1, y1), IM_COL32(250, 250, 252, 255));
    double top = 0;
    for (double v : cost_columns_)
        top = std::max(top, v);
    const float room = y1 - y0 - g.font * 1.2f;
    for (size_t i = 0; i < cost_columns_.size(); ++i)
        if (cost_columns_[i] > 0) {
            const float x = g.x0 + float(i);
            const float cy = y1 - float(cost_columns_[i] / std::max(1.0, top)) * room;
            draw->AddRectFilled(ImVec2(x, std::min(cy, y1 - 1)), ImVec2(x + 1, y1), IM_COL32(200, 90, 40, 255));
        }
    const double per_column = double(g.t1 - g.t0) / double(g.width());
    const std::string label = p.meta().events[event] + " per " + short_count(uint64_t(std::max(1.0, per_column))) +
                              " instructions, up to " + short_count(uint64_t(std::llround(top)));
    draw_marks(g, tree.timeline(), y0, y1, false);
    if (const TimeRange* r = ctx.range(); r && r->t1 > g.t0 && r->t0 < g.t1)
        draw->AddRectFilled(ImVec2(g.x_of(r->t0), y0), ImVec2(g.x_of(r->t1), y1), kRangeFill);
    track_label(g, y0, label);
    ImGui::Dummy(ImVec2(g.width(), h));
    const ImVec2 mouse = ImGui::GetMousePos();
    if (ImGui::IsWindowHovered() && mouse.y >= y0 && mouse.y < y1 && mouse.x >= g.x0 && mouse.x < g.x1 &&
        !cost_columns_.empty()) {
        const size_t i = std::min(cost_columns_.size() - 1, size_t(mouse.x - g.x0));
        ImGui::SetTooltip("%s: about %s %s (each call's own cost spread evenly over its own time)",
                          range_text(g.t_of(g.x0 + float(i)), g.t_of(g.x0 + float(i + 1))).c_str(),
                          format_thousands(uint64_t(std::llround(cost_columns_[i]))).c_str(),
                          p.meta().events[event].c_str());
    }
}

void TimelineView::handle_mouse(ViewContext& ctx, const Geometry& g, bool hovered)
{
    const ImGuiIO& io = ImGui::GetIO();
    TimeWindow& w = *window_;
    const uint64_t t = g.t_of(io.MousePos.x);
    if (hovered && io.MouseWheel != 0)
        w.zoom(t, io.MouseWheel > 0 ? 0.8 : 1.25);
    if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        if (io.KeyShift)
            range_from_ = t;
        else
            panning_ = true;
    }
    if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Right))
        panning_ = true;
    if (panning_ && (ImGui::IsMouseDown(ImGuiMouseButton_Left) || ImGui::IsMouseDown(ImGuiMouseButton_Right)))
        w.pan(-int64_t(double(io.MouseDelta.x) / double(g.width()) * double(w.span())));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    if (range_from_ && ImGui::IsMouseDown(ImGuiMouseButton_Left))
        draw->AddRectFilled(ImVec2(g.x_of(std::min(*range_from_, t)), g.top),
                            ImVec2(g.x_of(std::max(*range_from_, t)), g.bottom), kRangeFill);
    if (!ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !ImGui::IsMouseReleased(ImGuiMouseButton_Right))
        return;
    const bool clicked = ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 0).x == 0 &&
                         ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 0).y == 0;
    if (range_from_ && std::abs(g.x_of(*range_from_) - g.x_of(t)) >= 3)
        ctx.timeline->range = TimeRange{std::min(*range_from_, t), std::max(*range_from_, t)};
    else if (panning_ && clicked && hovered_ && hovered_->count == 1 && ImGui::IsMouseReleased(ImGuiMouseButton_Left))
        ctx.selection.select(Selection::function(ctx.doc.profile().timeline()->spans[hovered_->span].fn));
    range_from_.reset();
    panning_ = false;
}

} // namespace vgprof::viewer
