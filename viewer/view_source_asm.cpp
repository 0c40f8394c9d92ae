// SPDX-License-Identifier: GPL-2.0-or-later
// The Source view's machine code: for a function without source (a
// stripped library's, or one whose file is not on this machine), objdump's
// disassembly of its code with each instruction's cost, a heat gutter and
// the costliest instruction scrolled to, as `vgprof annotate --asm` lists
// it, and under each call instruction the calls it made with their
// inclusive cost; in diff mode, each one's change from the base profile.
// The object file is disassembled in the background the first time; the
// view says so meanwhile.
#include "ui_util.hpp"
#include "views.hpp"

#include "capabilities.hpp"

#include "vgprof/format.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace vgprof::viewer {

std::optional<AsmListing> SourceView::machine_code_of(ViewContext& ctx, FnId fn)
{
    const Profile& p = ctx.doc.profile();
    const std::string& object = p.obj_path(p.function(fn).obj);
    const ObjectCode* code = objects_.get(object);
    if (!code)
        return std::nullopt;
    AsmListing listing = function_listing(p, fn, *code, ctx.event, ctx.doc.path());
    if (!ctx.diff || !listing.problem.empty())
        return listing;
    const auto base_fn = ctx.diff->base_fn(fn);
    if (!base_fn) {
        // Only in the new profile: every cost is a change from nothing.
        AsmListing nothing;
        nothing.costs = true;
        subtract_base(listing, nothing, *ctx.diff);
        return listing;
    }
    const Profile& b = ctx.diff->base().profile();
    const ObjectCode* base_code = objects_.get(b.obj_path(b.function(*base_fn).obj));
    if (!base_code)
        return std::nullopt;
    subtract_base(listing,
                  function_listing(b, *base_fn, *base_code, ctx.diff->base_event(ctx.event).value_or(0),
                                   ctx.diff->base().path()),
                  *ctx.diff);
    return listing;
}

void SourceView::draw_machine_code(ViewContext& ctx, FnId fn, const std::vector<size_t>& events)
{
    const Profile& p = ctx.doc.profile();
    const Key key{fn, ctx.event};
    bool scroll = false;
    if (!listing_built_ || !(*listing_built_ == key)) {
        listing_ = machine_code_of(ctx, fn);
        if (!listing_) {
            centred_message(("Disassembling " + p.obj_path(p.function(fn).obj) + "...").c_str());
            return;
        }
        listing_built_ = key;
        asm_rows_.clear();
        for (uint32_t i = 0; i < listing_->lines.size(); ++i)
            for (int c = -1; c < int(listing_->lines[i].calls.size()); ++c)
                asm_rows_.push_back({i, c});
        scroll = true;
    }
    const AsmListing& l = *listing_;
    if (!l.problem.empty()) {
        centred_message(l.problem.c_str());
        return;
    }
    for (const std::string& note : l.notes)
        ImGui::TextColored(ImVec4(0.75f, 0.4f, 0.1f, 1), "%s", note.c_str());
    int64_t max_delta = 1;
    if (l.diff) {
        for (const AsmLine& line : l.lines)
            max_delta = std::max(max_delta, std::abs(line.delta[ctx.event]));
        diff_legend(DiffScale::counts(max_delta), "Instruction colors, the change of the instruction's own cost");
    }

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
    const float number_width = ImGui::CalcTextSize(l.diff ? "+0,000,000,000 (+100.0%)" : "0,000,000,000").x;
    for (size_t e : events)
        ImGui::TableSetupColumn((p.meta().events[e] + (l.diff ? " +/-" : "")).c_str(),
                                ImGuiTableColumnFlags_WidthFixed, number_width);
    ImGui::TableSetupColumn("Instruction", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    const float row_height = font + ImGui::GetStyle().CellPadding.y * 2;
    if (scroll && l.hottest) {
        const auto row = std::find_if(asm_rows_.begin(), asm_rows_.end(),
                                      [&](const Row& r) { return r.call < 0 && r.line == *l.hottest; });
        ImGui::SetScrollY(std::max(0.0f, float(row - asm_rows_.begin()) * row_height - ImGui::GetWindowHeight() / 3));
    }
    ImFont* mono = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr;
    ImGuiListClipper clipper;
    clipper.Begin(int(asm_rows_.size()), row_height);
    while (clipper.Step())
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const Row& row = asm_rows_[size_t(r)];
            const AsmLine& line = l.lines[row.line];
            ImGui::TableNextRow(ImGuiTableRowFlags_None, row_height);
            if (row.call >= 0) {
                const AsmCall& call = line.calls[size_t(row.call)];
                ImGui::PushID(r);
                ImGui::TableNextColumn();
                ImGui::TableNextColumn();
                call_cost_cells(events, call.inclusive, call.delta, max_delta);
                ImGui::TableNextColumn();
                call_link(ctx, call.callee, call.count, call.inclusive[ctx.event]);
                ImGui::PopID();
                continue;
            }
            ImGui::TableNextColumn();
            if (l.diff && line.delta[ctx.event] != 0)
                ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, delta_color(line.delta[ctx.event], max_delta));
            else if (!l.diff && !line.cost.empty() && line.cost[ctx.event] > 0)
                ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg,
                                       to_imgui(sequential_color(log_position(double(line.cost[ctx.event]),
                                                                              double(l.max_cost[ctx.event])))));
            ImGui::TableNextColumn();
            ImGui::PushFont(mono);
            ImGui::TextDisabled("%" PRIx64, line.addr);
            ImGui::PopFont();
            for (size_t e : events) {
                ImGui::TableNextColumn();
                const uint64_t cost = line.cost.empty() ? 0 : line.cost[e];
                if (l.diff) {
                    if (line.delta[e] != 0)
                        delta_cell(line.delta[e], cost, max_delta);
                } else if (cost > 0) {
                    right_aligned(format_thousands(cost));
                }
            }
            ImGui::TableNextColumn();
            ImGui::PushFont(mono);
            ImGui::TextUnformatted(line.text.c_str());
            ImGui::PopFont();
        }
    ImGui::EndTable();
}

} // namespace vgprof::viewer
