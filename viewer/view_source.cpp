// SPDX-License-Identifier: GPL-2.0-or-later
// The Source view: the selected function's source file, every line with
// its cost of the events chosen, a heat gutter colored by the chosen
// event, the function's own lines shaded, scrolled to its hottest line.
// With heap data, the bytes allocated from each line too.
#include "ui_util.hpp"
#include "views.hpp"

#include "vgprof/error.hpp"
#include "vgprof/query.hpp"
#include "vgprof/source.hpp"

#include <algorithm>
#include <cstring>

namespace vgprof::viewer {

namespace {

// Events shown at first: the chosen one and, with cache simulation, the
// misses that usually matter (D1 and LL data reads).
std::vector<bool> default_events(const Profile& p, size_t event)
{
    std::vector<bool> shown(p.num_events(), false);
    shown[event] = true;
    for (const char* e : {"D1mr", "DLmr"})
        if (const auto i = p.event_index(e))
            shown[*i] = true;
    return shown;
}

} // namespace

void SourceView::rebuild(ViewContext& ctx, FnId fn)
{
    error_.clear();
    file_.reset();
    allocated_.clear();
    const auto file = source_file_of(ctx.doc, fn);
    if (!file) {
        error_ = ctx.doc.profile().fn_name(fn) + " has no source location in the profile "
                 "(no debug information).";
        return;
    }
    const std::string& path = ctx.doc.profile().file_path(*file);
    if (!texts_.count(path) && !read_errors_.count(path)) {
        try {
            texts_[path] = read_source(path, search_);
        } catch (const Error& e) {
            read_errors_[path] = e.what();
        }
    }
    if (read_errors_.count(path)) {
        error_ = read_errors_[path];
        return;
    }
    file_ = annotate_source(ctx.doc, *file, texts_[path], fn, ctx.event, ctx.diff);
    for (const auto& [where, bytes] : ctx.doc.allocated_by_line())
        if (where.first == *file) {
            if (allocated_.size() <= where.second)
                allocated_.resize(where.second + 1, 0);
            allocated_[where.second] += bytes;
        }
    scroll_to_hottest_ = true;
}

void SourceView::draw(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    const Selection& sel = ctx.selection.current();
    if (!sel.fn) {
        centred_message("Select a function to see its source.");
        return;
    }
    if (shown_events_.size() != p.num_events())
        shown_events_ = default_events(p, ctx.event);
    const Key key{sel.fn, ctx.event};
    if (!built_ || !(*built_ == key)) {
        built_ = key;
        rebuild(ctx, *sel.fn);
    }
    if (!error_.empty()) {
        centred_message(error_.c_str());
        return;
    }
    const SourceFile& f = *file_;

    ImGui::Text("%s  in  %s", p.fn_name(*sel.fn).c_str(), f.path.c_str());
    ImGui::SameLine();
    if (ImGui::Button("Columns..."))
        ImGui::OpenPopup("columns");
    if (ImGui::BeginPopup("columns")) {
        for (size_t e = 0; e < p.num_events(); ++e) {
            bool on = shown_events_[e];
            if (ImGui::Checkbox(p.meta().events[e].c_str(), &on))
                shown_events_[e] = on;
        }
        ImGui::EndPopup();
    }
    if (f.hottest) {
        ImGui::SameLine();
        if (ImGui::SmallButton("Go to hottest line"))
            scroll_to_hottest_ = true;
    }
    if (f.stale)
        ImGui::TextColored(ImVec4(0.9f, 0.4f, 0.1f, 1),
                           "The profile charges lines past the end of this file: it changed since the run.");

    std::vector<size_t> events;
    for (size_t e = 0; e < p.num_events(); ++e)
        if (shown_events_[e])
            events.push_back(e);
    const bool heap = !allocated_.empty();
    const int columns = 2 + int(events.size()) + (heap ? 1 : 0) + 1;
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit |
                                  ImGuiTableFlags_Resizable;
    if (!ImGui::BeginTable("source", columns, flags))
        return;
    const float font = ImGui::GetFontSize();
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, font * 0.8f);
    ImGui::TableSetupColumn("Line", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("000000").x);
    const float number_width = ImGui::CalcTextSize(ctx.diff ? "+0,000,000,000" : "0,000,000,000").x;
    for (size_t e : events)
        ImGui::TableSetupColumn((p.meta().events[e] + (ctx.diff ? " +/-" : "")).c_str(),
                                ImGuiTableColumnFlags_WidthFixed, number_width);
    if (heap)
        ImGui::TableSetupColumn("Allocated", ImGuiTableColumnFlags_WidthFixed, number_width);
    ImGui::TableSetupColumn("Source", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();

    const float row_height = font + ImGui::GetStyle().CellPadding.y * 2;
    if (scroll_to_hottest_ && f.hottest) {
        const float view = ImGui::GetWindowHeight();
        ImGui::SetScrollY(std::max(0.0f, float(*f.hottest - 1) * row_height - view / 3));
        scroll_to_hottest_ = false;
    }
    int64_t max_delta = 1;
    if (ctx.diff)
        for (const SourceLine& line : f.lines)
            max_delta = std::max(max_delta, std::abs(line.delta[ctx.event]));

    ImGuiListClipper clipper;
    clipper.Begin(int(f.lines.size()), row_height);
    while (clipper.Step()) {
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const SourceLine& line = f.lines[size_t(r)];
            ImGui::TableNextRow(ImGuiTableRowFlags_None, row_height);
            const bool selected = sel.kind == Selection::Kind::line && sel.file == f.file &&
                                  sel.line == line.number;
            if (selected)
                ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, IM_COL32(255, 200, 0, 90));
            else if (line.in_function)
                ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, IM_COL32(120, 160, 230, 40));
            ImGui::TableNextColumn();
            const uint64_t cost = line.cost[ctx.event];
            if (ctx.diff && line.delta[ctx.event] != 0)
                ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg,
                                       delta_color(line.delta[ctx.event], max_delta));
            else if (!ctx.diff && cost > 0)
                ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg,
                                       to_imgui(sequential_color(log_position(double(cost),
                                                                              double(f.max_cost[ctx.event])))));
            ImGui::TableNextColumn();
            ImGui::PushID(r);
            char number[16];
            std::snprintf(number, sizeof number, "%u", line.number);
            if (ImGui::Selectable(number, selected, ImGuiSelectableFlags_SpanAllColumns)) {
                // The line's function: the selected one if it has code
                // here, else whichever is charged most on the line.
                FnId owner = *sel.fn;
                if (!line.in_function) {
                    uint64_t best = 0;
                    const RowIndex& rows = ctx.doc.lines_of_file();
                    for (const uint32_t* row = rows.begin_of(f.file.index()); row != rows.end_of(f.file.index()); ++row)
                        if (p.lines()[*row].line == line.number && p.line_cost(*row)[ctx.event] >= best) {
                            best = p.line_cost(*row)[ctx.event];
                            owner = p.lines()[*row].fn;
                        }
                }
                ctx.selection.select(Selection::source_line(owner, f.file, line.number));
            }
            ImGui::PopID();
            for (size_t e : events) {
                ImGui::TableNextColumn();
                if (ctx.diff) {
                    if (line.delta[e] != 0)
                        delta_cell(line.delta[e], line.cost[e], max_delta);
                } else if (line.cost[e] > 0) {
                    right_aligned(format_thousands(line.cost[e]));
                }
            }
            if (heap) {
                ImGui::TableNextColumn();
                if (line.number < allocated_.size() && allocated_[line.number] > 0)
                    right_aligned(format_thousands(allocated_[line.number]));
            }
            ImGui::TableNextColumn();
            ImGui::PushFont(ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr);
            ImGui::TextUnformatted(line.text.c_str());
            ImGui::PopFont();
        }
    }
    ImGui::EndTable();
}

} // namespace vgprof::viewer
