// SPDX-License-Identifier: GPL-2.0-or-later
// The Heatmap view: the data heatmap (view_data_heatmap.cpp), or functions
// (or the selected function's lines) against the cache and branch miss
// events and miss rates, each cell colored on a perceptual scale of its
// column (bins shown in the legend); sortable by any column; clicking a
// cell selects its function or line.
#include "ui_util.hpp"
#include "views.hpp"

#include "capabilities.hpp"

#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vgprof::viewer {

namespace {

constexpr int kBins = 8;

std::string cell_text(const HeatColumn& column, double value, bool diff, bool brief = false)
{
    char text[32];
    if (column.rate) {
        std::snprintf(text, sizeof text, diff ? "%+.2f%%" : "%.2f%%", value * 100);
        return text;
    }
    if (diff)
        return brief ? signed_short(int64_t(value)) : signed_count(int64_t(value));
    return brief ? short_count(uint64_t(value)) : format_thousands(uint64_t(value));
}

Rgb cell_color(const Heatmap& map, size_t column, double value)
{
    const double pos = cell_position(map, column, value);
    if (map.diff)
        return diverging_color(pos);
    return sequential_color(bin_centre(bin_of(pos, kBins), kBins));
}

// The legend of one column: each bin's color with the value at its lower
// edge, so a cell's color reads back as a range.
void draw_legend(const Heatmap& map, size_t column)
{
    const HeatColumn& c = map.columns[column];
    const double max = map.column_max[column];
    ImGui::Text("Scale of %s%s:", c.name.c_str(), map.diff ? " (change)" : "");
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float font = ImGui::GetFontSize();
    const float swatch = font * 5;
    ImGui::SameLine();
    for (int b = 0; b < kBins; ++b) {
        const ImVec2 pos = ImGui::GetCursorScreenPos();
        double edge;
        Rgb color;
        if (map.diff) {
            const double t = -1 + 2 * (b + 0.5) / kBins;
            color = diverging_color(t);
            edge = c.rate ? (-1 + 2.0 * b / kBins) * max
                          : std::copysign(log_bin_edge(std::abs(b - kBins / 2), kBins / 2, max),
                                          b - kBins / 2);
        } else {
            color = sequential_color(bin_centre(b, kBins));
            edge = c.rate ? max * b / kBins : log_bin_edge(b, kBins, max);
        }
        draw->AddRectFilled(pos, ImVec2(pos.x + swatch, pos.y + font + 4), to_imgui(color));
        const std::string text = (b == 0 && !map.diff ? "" : ">= ") + cell_text(c, edge, map.diff, true);
        draw->AddText(ImVec2(pos.x + 3, pos.y + 2), to_imgui(text_color_on(color)), text.c_str());
        ImGui::Dummy(ImVec2(swatch, font + 4));
        ImGui::SameLine(0, 0);
    }
    ImGui::NewLine();
}

} // namespace

void HeatmapView::draw(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    if (const auto why = why_no_simulation(p)) {
        centred_message(why->c_str());
        return;
    }
    if (ImGui::RadioButton("Data by cache line", data_))
        data_ = true;
    ImGui::SameLine();
    if (ImGui::RadioButton("Functions", !data_ && !by_line_)) {
        data_ = false;
        by_line_ = false;
    }
    ImGui::SameLine();
    if (ImGui::RadioButton("Lines of the selected function", !data_ && by_line_)) {
        data_ = false;
        by_line_ = true;
    }
    if (data_)
        data_panel_.draw(ctx);
    else
        draw_code_map(ctx);
}

void HeatmapView::draw_code_map(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    const Selection& sel = ctx.selection.current();
    if (by_line_ && !sel.fn) {
        centred_message("Select a function to see its lines.");
        return;
    }

    if (!built_ || built_->by_line != by_line_ || (by_line_ && built_->fn != sel.fn)) {
        map_ = by_line_ ? line_heatmap(ctx.doc, *sel.fn) : function_heatmap(ctx.doc, ctx.diff);
        built_ = Key{by_line_, by_line_ ? sel.fn : std::nullopt, -1, true};
    }
    if (legend_column_ >= int(map_.columns.size()))
        legend_column_ = 0;
    draw_legend(map_, size_t(legend_column_));

    const int columns = 1 + int(map_.columns.size());
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_Sortable | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("heatmap", columns, flags))
        return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn(by_line_ ? "Line" : "Function",
                            ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_PreferSortAscending,
                            ImGui::GetFontSize() * (by_line_ ? 10 : 16));
    // Cells show short counts ("39.6k") and rates ("12.34%"); the tooltip
    // has the exact figure.
    const float cell_width = ImGui::CalcTextSize("-000.00M ").x;
    // First ordered by D1 read misses, the usual suspect, when simulated.
    size_t first_order = 0;
    for (size_t c = 0; c < map_.columns.size(); ++c)
        if (map_.columns[c].name == "D1mr")
            first_order = c;
    for (size_t c = 0; c < map_.columns.size(); ++c)
        ImGui::TableSetupColumn(map_.columns[c].name.c_str(),
                                ImGuiTableColumnFlags_PreferSortDescending |
                                    (c == first_order ? ImGuiTableColumnFlags_DefaultSort : 0),
                                cell_width);
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < columns; ++c) {
        ImGui::TableSetColumnIndex(c);
        ImGui::TableHeader(ImGui::TableGetColumnName(c));
        if (c > 0 && ImGui::IsItemHovered()) {
            ImGui::SetTooltip("%s", map_.columns[size_t(c - 1)].tooltip.c_str());
            legend_column_ = c - 1;
        }
    }

    if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsCount > 0) {
        const int column = specs->Specs[0].ColumnIndex;
        const bool descending = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
        if (specs->SpecsDirty || built_->sort_column != column || built_->descending != descending) {
            if (column == 0) {
                // By name (or line number): the first cell cannot sort.
                std::stable_sort(map_.rows.begin(), map_.rows.end(), [&](const HeatRow& a, const HeatRow& b) {
                    const bool less = by_line_ ? a.line < b.line : p.fn_name(a.fn) < p.fn_name(b.fn);
                    const bool more = by_line_ ? b.line < a.line : p.fn_name(b.fn) < p.fn_name(a.fn);
                    return descending ? more : less;
                });
            } else {
                sort_heatmap(map_, p, size_t(column - 1), descending);
                legend_column_ = column - 1;
            }
            built_->sort_column = column;
            built_->descending = descending;
            specs->SpecsDirty = false;
        }
    }

    const float row_height = ImGui::GetFontSize() + ImGui::GetStyle().CellPadding.y * 2;
    if (ctx.selection.version() != seen_version_) {
        seen_version_ = ctx.selection.version();
        for (size_t r = 0; r < map_.rows.size(); ++r) {
            const HeatRow& row = map_.rows[r];
            const bool match = by_line_ ? (sel.kind == Selection::Kind::line && row.line == sel.line)
                                        : sel.fn == row.fn;
            if (match) {
                const float y = float(r) * row_height;
                const float view = ImGui::GetWindowHeight() - row_height * 2;
                if (y < ImGui::GetScrollY() || y > ImGui::GetScrollY() + view)
                    ImGui::SetScrollY(std::max(0.0f, y - view / 3));
                break;
            }
        }
    }

    ImGuiListClipper clipper;
    clipper.Begin(int(map_.rows.size()), row_height);
    while (clipper.Step()) {
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const HeatRow& row = map_.rows[size_t(r)];
            ImGui::TableNextRow(ImGuiTableRowFlags_None, row_height);
            ImGui::TableNextColumn();
            ImGui::PushID(r);
            const bool selected = by_line_ ? (sel.kind == Selection::Kind::line && sel.line == row.line &&
                                              sel.file == row.file)
                                           : sel.fn == row.fn;
            const std::string label = by_line_ ? basename_of(p.file_path(row.file)) +
                                                     ":" + std::to_string(row.line)
                                               : ctx.doc.names().function(row.fn);
            if (ImGui::Selectable(label.c_str(), selected))
                ctx.selection.select(by_line_ ? Selection::source_line(row.fn, row.file, row.line)
                                              : Selection::function(row.fn));
            if (!by_line_ && ImGui::IsItemHovered())
                function_tooltip(ctx, row.fn);
            for (size_t c = 0; c < map_.columns.size(); ++c) {
                if (!ImGui::TableNextColumn())
                    continue;
                if (!row.cells[c]) {
                    ImGui::TextDisabled("-");
                    continue;
                }
                const Rgb color = cell_color(map_, c, *row.cells[c]);
                const ImVec2 pos = ImGui::GetCursorScreenPos();
                const float w = ImGui::GetContentRegionAvail().x;
                ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, to_imgui(color));
                const std::string text = cell_text(map_.columns[c], *row.cells[c], map_.diff, true);
                const float tw = ImGui::CalcTextSize(text.c_str()).x;
                ImGui::GetWindowDrawList()->AddText(ImVec2(pos.x + w - tw, pos.y),
                                                    to_imgui(text_color_on(color)), text.c_str());
                ImGui::PushID(int(c));
                if (ImGui::InvisibleButton("cell", ImVec2(std::max(1.0f, w), ImGui::GetFontSize())))
                    ctx.selection.select(by_line_ ? Selection::source_line(row.fn, row.file, row.line)
                                                  : Selection::function(row.fn));
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip("%s: %s\n%s", map_.columns[c].name.c_str(),
                                      cell_text(map_.columns[c], *row.cells[c], map_.diff).c_str(),
                                      label.c_str());
                ImGui::PopID();
            }
            ImGui::PopID();
        }
    }
    ImGui::EndTable();
}

} // namespace vgprof::viewer
