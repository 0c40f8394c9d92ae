// SPDX-License-Identifier: GPL-2.0-or-later
// The data heatmap panel: the heap sites and globals (rows) by offset in
// cache lines (columns), every cell on one scale of the chosen data event
// (in diff mode, of its change); below it, linked both ways through the
// shared selection, the functions that missed on the object selected, the
// data the selected function missed on, and that function's source lines
// by miss event on one shared scale.
#include "view_data_heatmap.hpp"

#include "ui_util.hpp"
#include "views.hpp"

#include "data_selection.hpp"

#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"

#include <algorithm>
#include <cstdio>

namespace vgprof::viewer {

namespace {

constexpr int kBins = 8;

Rgb scale_color(double position)
{
    return sequential_color(bin_centre(bin_of(position, kBins), kBins));
}

// Each bin's color with the count at its lower edge.
void draw_scale_legend(const char* what, double max)
{
    ImGui::Text("%s", what);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float font = ImGui::GetFontSize();
    const float swatch = font * 4;
    ImGui::SameLine();
    for (int b = 0; b < kBins; ++b) {
        const ImVec2 pos = ImGui::GetCursorScreenPos();
        const Rgb color = sequential_color(bin_centre(b, kBins));
        draw->AddRectFilled(pos, ImVec2(pos.x + swatch, pos.y + font + 4), to_imgui(color));
        const std::string text = b == 0 ? "0" : ">= " + short_count(uint64_t(log_bin_edge(b, kBins, max)));
        draw->AddText(ImVec2(pos.x + 3, pos.y + 2), to_imgui(text_color_on(color)), text.c_str());
        ImGui::Dummy(ImVec2(swatch, font + 4));
        ImGui::SameLine(0, 0);
    }
    ImGui::NewLine();
}

// A cell's width: a cache line's 8-byte stripes (at most kMaxStripes), 4
// pixels each.
float map_cell_width(const DataHeatmap& map)
{
    return float(std::clamp<uint64_t>(map.line_size / 8, 1, kMaxStripes)) * 4;
}

std::string offset_range(uint64_t from, uint64_t to)
{
    char text[64];
    std::snprintf(text, sizeof text, "bytes %llu-%llu", static_cast<unsigned long long>(from),
                  static_cast<unsigned long long>(to - 1));
    return text;
}

} // namespace

void DataHeatmapPanel::draw(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    if (const auto why = why_no_data(p)) {
        centred_message(why->c_str());
        return;
    }
    draw_toolbar();
    // As many columns as fit beside the names, each line's stripes 4
    // pixels wide.
    const float font = ImGui::GetFontSize();
    const float cell_width = map_cell_width(map_);
    const size_t columns =
        size_t(std::max(8.0f, (ImGui::GetContentRegionAvail().x - font * 18) / cell_width));
    if (!built_ || !(*built_ == MapKey{event_, columns})) {
        map_ = ctx.diff ? data_heatmap_diff(p, ctx.diff->base().profile(), event_, columns)
                        : data_heatmap(p, event_, columns);
        built_ = MapKey{event_, columns};
        const bool kept = object_ && std::any_of(map_.rows.begin(), map_.rows.end(), [&](const DataHeatRow& r) {
                              return r.object == *object_;
                          });
        if (!kept)
            object_ = map_.rows.empty() ? std::nullopt : std::optional<DataObjId>(map_.rows[0].object);
        scroll_to_object_ = true;
    }
    follow_selection(ctx);
    const std::optional<FnId> fn = shown_function(ctx);
    if (fn != marked_for_) {
        marked_ = fn ? data_missed_by(*p.data(), *fn) : std::vector<bool>();
        marked_for_ = fn;
    }
    const float height = ImGui::GetContentRegionAvail().y;
    ImGui::BeginChild("datamap", ImVec2(0, height * 0.55f), true, ImGuiWindowFlags_HorizontalScrollbar);
    draw_map(ctx);
    ImGui::EndChild();

    if (!ImGui::BeginTable("links", 3, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV))
        return;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::BeginChild("object_fns");
    draw_functions_of_object(ctx);
    ImGui::EndChild();
    ImGui::TableNextColumn();
    ImGui::BeginChild("fn_data");
    draw_data_of_function(ctx, fn);
    ImGui::EndChild();
    ImGui::TableNextColumn();
    ImGui::BeginChild("code");
    draw_code(ctx, fn);
    ImGui::EndChild();
    ImGui::EndTable();
}

void DataHeatmapPanel::draw_toolbar()
{
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    if (ImGui::BeginCombo("Event", kDataEventNames[event_])) {
        for (size_t e = 0; e < kDataEvents; ++e)
            if (ImGui::Selectable(kDataEventNames[e], e == event_))
                event_ = e;
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    if (map_.diff)
        diff_legend(DiffScale::counts(map_.largest_change, NoiseFloor::none()),
                    (std::string("  change of ") + kDataEventNames[event_] + ", one scale for every cell")
                        .c_str());
    else
        draw_scale_legend("  one scale for every cell:", double(map_.max));
}

void DataHeatmapPanel::follow_selection(ViewContext& ctx)
{
    if (ctx.selection.version() == seen_version_)
        return;
    seen_version_ = ctx.selection.version();
    const auto object = selected_data_object(ctx.doc.profile(), ctx.selection.current());
    if (object && object != object_) {
        object_ = object;
        scroll_to_object_ = true;
    }
}

void DataHeatmapPanel::choose(ViewContext& ctx, DataObjId object)
{
    object_ = object;
    ctx.selection.select(select_data_object(ctx.doc.profile(), object, event_));
}

void DataHeatmapPanel::draw_cells(const DataHeatRow& row, float cell_width, float row_height)
{
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float stripe_width = cell_width / float(row.stripes);
    const DiffScale changes = DiffScale::counts(map_.largest_change, NoiseFloor::none());
    for (size_t c = 0; c < row.cells(); ++c) {
        for (uint32_t s = 0; s < row.stripes; ++s) {
            const size_t i = c * row.stripes + s;
            const uint64_t v = row.values[i];
            const int64_t d = map_.diff ? row.deltas[i] : 0;
            const ImVec2 a(at.x + float(c) * cell_width + float(s) * stripe_width, at.y);
            const ImVec2 b(a.x + stripe_width, a.y + row_height - 2);
            // No event at all (in either profile): grey, apart from the
            // scale's colors and from the background past the object's end.
            ImU32 color = IM_COL32(200, 200, 200, 255);
            if (map_.diff && (v || d))
                color = to_imgui(changes.color(d, v - uint64_t(d)));
            else if (v)
                color = to_imgui(scale_color(data_cell_position(map_, v)));
            draw->AddRectFilled(a, b, color);
        }
    }
}

void DataHeatmapPanel::draw_map(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    if (map_.rows.empty()) {
        ImGui::TextDisabled("No heap site or global has any %s.", kDataEventNames[event_]);
        return;
    }
    const float font = ImGui::GetFontSize();
    const float row_height = font + 4;
    const float label_width = font * 16;
    const float cell_width = map_cell_width(map_);
    ImGui::TextDisabled("%zu objects, %s; a column is a %llu-byte cache line, a stripe 8 bytes",
                        map_.rows.size(), map_.diff ? "the most changed first" : "worst first",
                        static_cast<unsigned long long>(map_.line_size));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (size_t r = 0; r < map_.rows.size(); ++r) {
        const DataHeatRow& row = map_.rows[r];
        ImGui::PushID(int(r));
        const bool chosen = object_ && *object_ == row.object;
        // The data the function shown missed on is marked by a bar.
        const bool marked = row.object.index() < marked_.size() && marked_[row.object.index()];
        std::string label = data_object_short_label(p, row.object);
        if (row.lines_per_cell > 1)
            label += " (" + std::to_string(row.lines_per_cell) + " lines a cell)";
        const ImVec2 label_at = ImGui::GetCursorScreenPos();
        if (marked)
            draw->AddRectFilled(label_at, ImVec2(label_at.x + 3, label_at.y + row_height - 4),
                                IM_COL32(230, 120, 20, 255));
        ImGui::SetCursorScreenPos(ImVec2(label_at.x + 6, label_at.y));
        if (ImGui::Selectable(fit_text(label, label_width - 6).c_str(), chosen, 0,
                              ImVec2(label_width - 6, row_height - 4)))
            choose(ctx, row.object);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s\n%s: %s%s%s", data_object_label(p, row.object).c_str(), kDataEventNames[event_],
                              format_thousands(row.total).c_str(),
                              map_.diff ? ("  (" + signed_count(row.total_delta) + ")").c_str() : "",
                              marked ? ("\n" + ctx.doc.names().function(*marked_for_) + " missed on it").c_str() : "");
        if (chosen && scroll_to_object_) {
            ImGui::SetScrollHereY(0.3f);
            scroll_to_object_ = false;
        }
        ImGui::SameLine();
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float stripe_width = cell_width / float(row.stripes);
        draw_cells(row, cell_width, row_height);
        const float width = float(row.cells()) * cell_width;
        ImGui::InvisibleButton("cells", ImVec2(std::max(1.0f, width), row_height - 2));
        if (ImGui::IsItemClicked())
            choose(ctx, row.object);
        if (ImGui::IsItemHovered()) {
            const float x = ImGui::GetMousePos().x - at.x;
            const size_t c = std::min(row.cells() - 1, size_t(std::max(0.0f, x / cell_width)));
            const uint32_t s = std::min(row.stripes - 1, uint32_t((x - float(c) * cell_width) / stripe_width));
            const uint64_t bytes = map_.line_size * row.lines_per_cell;
            const uint64_t from = c * bytes + s * (bytes / row.stripes);
            const uint64_t v = row.values[c * row.stripes + s];
            const std::string change =
                map_.diff ? "  (" + signed_count(row.deltas[c * row.stripes + s]) + ")" : "";
            ImGui::SetTooltip("%s, %s\n%s: %s%s", data_object_short_label(p, row.object).c_str(),
                              offset_range(from, from + bytes / row.stripes).c_str(), kDataEventNames[event_],
                              format_thousands(v).c_str(), change.c_str());
        }
        ImGui::PopID();
    }
}

void DataHeatmapPanel::draw_functions_of_object(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    if (!object_) {
        ImGui::TextDisabled("Choose a data object above.");
        return;
    }
    ImGui::Text("Functions that missed on %s", data_object_short_label(p, *object_).c_str());
    const Selection sel = ctx.selection.current();
    for (const DataFunction& row : functions_of_data(*p.data(), *object_, event_)) {
        if (row.cost[event_] == 0)
            continue;
        ImGui::PushID(int(row.fn.index()));
        const std::string text = short_count(row.cost[event_]) + "  " + ctx.doc.names().function(row.fn);
        if (ImGui::Selectable(text.c_str(), sel.fn == row.fn))
            ctx.selection.select(Selection::function(row.fn));
        if (ImGui::IsItemHovered())
            function_tooltip(ctx, row.fn);
        ImGui::PopID();
    }
}

void DataHeatmapPanel::draw_data_of_function(ViewContext& ctx, std::optional<FnId> fn)
{
    const Profile& p = ctx.doc.profile();
    if (!fn) {
        ImGui::TextDisabled("Select a function to see the data it missed on.");
        return;
    }
    ImGui::Text("Data %s missed on", ctx.doc.names().function(*fn).c_str());
    bool any = false;
    for (const DataFunction& row : data_of_function(*p.data(), *fn, event_)) {
        if (row.cost[event_] == 0)
            continue;
        any = true;
        ImGui::PushID(int(row.object.index()));
        const std::string text = short_count(row.cost[event_]) + "  " + data_object_short_label(p, row.object);
        // Selected with this function, whose data the pane keeps showing.
        if (ImGui::Selectable(text.c_str(), object_ && *object_ == row.object)) {
            object_ = row.object;
            ctx.selection.select(Selection::data_object(row.object, fn));
            scroll_to_object_ = true;
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", data_object_label(p, row.object).c_str());
        ImGui::PopID();
    }
    if (!any)
        ImGui::TextDisabled("No %s.", kDataEventNames[event_]);
}

void DataHeatmapPanel::draw_code(ViewContext& ctx, std::optional<FnId> fn)
{
    if (!fn) {
        ImGui::TextDisabled("Select a function to see its lines.");
        return;
    }
    if (!code_built_ || !(*code_built_ == CodeKey{*fn, event_})) {
        code_ = shared_line_heatmap(ctx.doc, *fn);
        // The lines missing most on the chosen event first.
        for (size_t c = 0; c < code_.columns.size(); ++c)
            if (code_.columns[c].name == kDataEventNames[event_])
                sort_heatmap(code_, ctx.doc.profile(), c, true);
        code_built_ = CodeKey{*fn, event_};
    }
    ImGui::Text("Lines of %s, one scale:", ctx.doc.names().function(*fn).c_str());
    if (!ImGui::BeginTable("code", 1 + int(code_.columns.size()),
                           ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit))
        return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("Line");
    const float cell_width = ImGui::CalcTextSize("000.0M ").x;
    for (const HeatColumn& column : code_.columns)
        ImGui::TableSetupColumn(column.name.c_str(), ImGuiTableColumnFlags_WidthFixed, cell_width);
    ImGui::TableHeadersRow();
    const Profile& p = ctx.doc.profile();
    for (size_t r = 0; r < code_.rows.size(); ++r) {
        const HeatRow& row = code_.rows[r];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushID(int(r));
        const std::string& path = p.file_path(row.file);
        const std::string label = basename_of(path) + ":" + std::to_string(row.line);
        if (ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_SpanAllColumns))
            ctx.selection.select(Selection::source_line(row.fn, row.file, row.line));
        for (size_t c = 0; c < code_.columns.size(); ++c) {
            ImGui::TableNextColumn();
            if (!row.cells[c] || *row.cells[c] == 0) {
                ImGui::TextDisabled(".");
                continue;
            }
            const Rgb color = scale_color(cell_position(code_, c, *row.cells[c]));
            ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, to_imgui(color));
            ImGui::PushStyleColor(ImGuiCol_Text, to_imgui(text_color_on(color)));
            right_aligned(short_count(uint64_t(*row.cells[c])));
            ImGui::PopStyleColor();
        }
        ImGui::PopID();
    }
    ImGui::EndTable();
}

std::optional<FnId> DataHeatmapPanel::shown_function(ViewContext& ctx)
{
    if (!opened_at_)
        opened_at_ = ctx.selection.version();
    follow_selection_ = follow_selection_ || ctx.selection.version() != *opened_at_;
    if (const Selection sel = ctx.selection.current(); sel.fn && follow_selection_)
        return sel.fn;
    if (!object_)
        return std::nullopt;
    const auto fns = functions_of_data(*ctx.doc.profile().data(), *object_, event_);
    if (fns.empty())
        return std::nullopt;
    return fns.front().fn;
}

} // namespace vgprof::viewer
