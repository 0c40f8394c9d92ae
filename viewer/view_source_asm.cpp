// SPDX-License-Identifier: GPL-2.0-or-later
// The Source view's machine code: for a function without source (a
// stripped library's, or one whose file is not on this machine), objdump's
// disassembly of its code with each instruction's cost, a heat gutter and
// the costliest instruction scrolled to, as `vgprof annotate --asm` lists
// it. The object file is disassembled in the background the first time;
// the view says so meanwhile.
#include "ui_util.hpp"
#include "views.hpp"

#include "capabilities.hpp"

#include "vgprof/query.hpp"

#include <cinttypes>
#include <cstdio>

namespace vgprof::viewer {

void SourceView::draw_machine_code(ViewContext& ctx, FnId fn, const std::vector<size_t>& events)
{
    const Profile& p = ctx.doc.profile();
    const std::string& object = p.obj_path(p.function(fn).obj);
    const ObjectCode* code = objects_.get(object);
    if (!code) {
        centred_message(("Disassembling " + object + "...").c_str());
        return;
    }
    const Key key{fn, ctx.event};
    bool scroll = false;
    if (!listing_built_ || !(*listing_built_ == key)) {
        listing_built_ = key;
        listing_ = function_listing(p, fn, *code, ctx.event, ctx.doc.path());
        scroll = true;
    }
    const AsmListing& l = *listing_;
    if (!l.problem.empty()) {
        centred_message(l.problem.c_str());
        return;
    }
    for (const std::string& note : l.notes)
        ImGui::TextColored(ImVec4(0.75f, 0.4f, 0.1f, 1), "%s", note.c_str());
    if (ctx.diff)
        ImGui::TextDisabled("Machine code shows the new profile's costs.");

    const int columns = 2 + int(events.size()) + 1;
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit |
                                  ImGuiTableFlags_Resizable | ImGuiTableFlags_RowBg;
    if (!ImGui::BeginTable("machine code", columns, flags))
        return;
    const float font = ImGui::GetFontSize();
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, font * 0.8f);
    ImGui::TableSetupColumn("Address", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("0000000000").x);
    for (size_t e : events)
        ImGui::TableSetupColumn(p.meta().events[e].c_str(), ImGuiTableColumnFlags_WidthFixed,
                                ImGui::CalcTextSize("0,000,000,000").x);
    ImGui::TableSetupColumn("Instruction", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    const float row_height = font + ImGui::GetStyle().CellPadding.y * 2;
    if (scroll && l.hottest)
        ImGui::SetScrollY(std::max(0.0f, float(*l.hottest) * row_height - ImGui::GetWindowHeight() / 3));
    ImFont* mono = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr;
    ImGuiListClipper clipper;
    clipper.Begin(int(l.lines.size()), row_height);
    while (clipper.Step())
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const AsmLine& line = l.lines[size_t(r)];
            ImGui::TableNextRow(ImGuiTableRowFlags_None, row_height);
            ImGui::TableNextColumn();
            if (!line.cost.empty() && line.cost[ctx.event] > 0)
                ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg,
                                       to_imgui(sequential_color(log_position(double(line.cost[ctx.event]),
                                                                              double(l.max_cost[ctx.event])))));
            ImGui::TableNextColumn();
            ImGui::PushFont(mono);
            ImGui::TextDisabled("%" PRIx64, line.addr);
            ImGui::PopFont();
            for (size_t e : events) {
                ImGui::TableNextColumn();
                if (!line.cost.empty() && line.cost[e] > 0)
                    right_aligned(format_thousands(line.cost[e]));
            }
            ImGui::TableNextColumn();
            ImGui::PushFont(mono);
            ImGui::TextUnformatted(line.text.c_str());
            ImGui::PopFont();
        }
    ImGui::EndTable();
}

} // namespace vgprof::viewer
