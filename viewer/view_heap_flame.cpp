// SPDX-License-Identifier: GPL-2.0-or-later
// The Heap view's flame graph of allocations (heaptrack's): every
// allocation stack from its outermost frame down to the call that asked
// for the memory, merged by function, each box as wide as its share of the
// figure chosen: bytes or blocks allocated, bytes live at the peak, leaked,
// or live at a moment picked on the chart (every site exactly where the
// profile records the heap's changes). With a range of time selected and
// such a profile, bytes and blocks allocated are those of the range.
// Clicking a box selects its function.
#include "tree_ui.hpp"
#include "ui_util.hpp"
#include "views.hpp"

#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"

namespace vgprof::viewer {

void HeapView::draw_flame(ViewContext& ctx, const Heap& heap)
{
    const Profile& p = ctx.doc.profile();
    const float font = ImGui::GetFontSize();
    ImGui::SetNextItemWidth(font * 14);
    if (ImGui::BeginCombo("##measure", heap_measure_name(measure_))) {
        for (HeapMeasure m : {HeapMeasure::bytes, HeapMeasure::blocks, HeapMeasure::peak, HeapMeasure::leaked,
                              HeapMeasure::at_time})
            if (ImGui::Selectable(heap_measure_name(m), m == measure_))
                measure_ = m;
        ImGui::EndCombo();
    }
    // A moment: the one clicked on the chart, else the end of the range
    // selected, else the peak.
    const Selection& sel = ctx.selection.current();
    const uint64_t moment = chosen_time_                                ? *chosen_time_
                            : sel.kind == Selection::Kind::time_range ? sel.t1
                                                                      : heap.totals.peak_time;
    ImGui::SameLine();
    // The range: the one selected on the chart, else the Timeline's.
    std::optional<TimeRange> range;
    if (sel.kind == Selection::Kind::time_range)
        range = TimeRange{sel.t0, sel.t1};
    else if (const TimeRange* r = ctx.range())
        range = *r;
    if (!measured_in_range(heap, measure_))
        range.reset();
    if (range) {
        const HeapChanges& c = *heap.changes;
        const uint64_t t0 = range->t0 / c.width * c.width, t1 = (range->t1 + c.width - 1) / c.width * c.width;
        ImGui::TextDisabled("allocated in instructions %s to %s%s", format_thousands(range->t0).c_str(),
                            format_thousands(range->t1).c_str(),
                            c.width > 1 ? (" (recorded in stretches: read from " + format_thousands(t0) + " to " +
                                           format_thousands(t1) + ")")
                                              .c_str()
                                        : "");
    } else if (measure_ == HeapMeasure::at_time && heap.changes) {
        ImGui::TextDisabled("at instruction %s (click the chart to pick another): every site%s",
                            format_thousands(moment).c_str(),
                            heap.changes->width > 1 ? ", with the whole stretch that holds it" : "");
    } else if (measure_ == HeapMeasure::at_time) {
        const HeapSnapshot* snap = snapshot_at(heap, moment);
        ImGui::TextDisabled("at instruction %s (click the chart to pick another): %s", format_thousands(moment).c_str(),
                            snap ? ("the ten largest sites of the snapshot at " + format_thousands(snap->time)).c_str()
                                 : "before the first snapshot");
    } else {
        ImGui::TextDisabled("%s; each allocation stack down to the call that asked for the memory; click: select",
                            heap.start_time > 0 ? "the whole period" : "the whole run");
    }
    if (ctx.diff && alloc_merged_)
        box_legend(ctx, icicle_scale(ctx, {{&alloc_boxes_, &*alloc_merged_}}));
    ImGui::BeginChild("alloc flame", ImVec2(0, 0), true);
    const float width = ImGui::GetContentRegionAvail().x;
    const FlameKey key{measure_, measure_ == HeapMeasure::at_time ? moment : 0, int(width), range};
    if (!flame_built_ || !(*flame_built_ == key)) {
        flame_built_ = key;
        alloc_tree_ = allocation_tree(p, measure_, moment, ctx.diff, range);
        alloc_merged_ = MergedTree::top_down(*alloc_tree_);
        alloc_boxes_ = layout_icicle(*alloc_merged_, 1.0 / std::max(1.0f, width));
    }
    if (alloc_merged_->total() == 0) {
        centred_message("No site has any of this.");
        ImGui::EndChild();
        return;
    }
    const float row = font + 6;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(width, row * float(alloc_boxes_.depth)));
    const DiffScale scale = icicle_scale(ctx, {{&alloc_boxes_, &*alloc_merged_}});
    const auto hovered = draw_icicle(ctx, alloc_boxes_, *alloc_merged_, origin, width, row, false, scale);
    if (hovered) {
        const MergedTree::Node& n = alloc_merged_->node(alloc_boxes_.boxes[*hovered].node);
        const char* unit = measure_ == HeapMeasure::blocks ? "blocks" : "bytes";
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(node_name(ctx.doc, n.key).c_str());
        ImGui::Text("%s %s (%s), in %s", format_thousands(n.total).c_str(), unit,
                    percent(n.total, alloc_merged_->total()).c_str(),
                    count_text(n.calls, "allocation", "allocations").c_str());
        if (n.self > 0)
            ImGui::Text("%s %s asked for by its own calls", format_thousands(n.self).c_str(), unit);
        if (ctx.diff)
            ImGui::Text("change %s", change_text(signed_delta(n.total, n.base_total), n.base_total).c_str());
        ImGui::EndTooltip();
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left))
            if (const auto fn = n.key.fn())
                ctx.selection.select(Selection::function(*fn));
    }
    ImGui::EndChild();
}

} // namespace vgprof::viewer
