// SPDX-License-Identifier: GPL-2.0-or-later
// The Source view's machine code: for a function without source (a
// stripped library's, or one whose file is not on this machine), objdump's
// disassembly of its code with each instruction's cost, a heat gutter and
// the costliest instruction scrolled to, as `vgprof annotate --asm` lists
// it, and under each call instruction the calls it made with their
// inclusive cost; in diff mode, each one's change from the base profile.
// Between the instructions, as perf annotate shows them, the source line
// each run of instructions came from with the inlined calls it lies in;
// jumps within the function go to labels, and clicking one scrolls there.
// The object file is disassembled in the background the first time; the
// view says so meanwhile, and the source lines follow when read.
#include "ui_util.hpp"
#include "views.hpp"

#include "capabilities.hpp"

#include "vgprof/format.hpp"
#include "vgprof/path_display.hpp"
#include "vgprof/source.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>

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

namespace {

// A source line shown after its place: without its indentation, a tab
// inside it a space.
std::string unindented(std::string line)
{
    line.erase(0, line.find_first_not_of(" \t"));
    std::replace(line.begin(), line.end(), '\t', ' ');
    return line;
}

const ImU32 kSourceInk = IM_COL32(30, 120, 60, 255);

} // namespace

void SourceView::build_asm_rows(ViewContext& ctx)
{
    const Profile& p = ctx.doc.profile();
    std::map<std::string, FileId> file_of;
    for (size_t f = 0; f < p.files().size(); ++f)
        file_of.emplace(p.file_path(FileId(uint32_t(f))), FileId(uint32_t(f)));
    asm_rows_.clear();
    std::map<std::string, std::vector<std::string>> lines_of;  // the source files read, by path
    const std::vector<SourceFrame>* last = nullptr;
    for (uint32_t i = 0; i < listing_->lines.size(); ++i) {
        const AsmLine& line = listing_->lines[i];
        if (line.label)
            asm_rows_.push_back({AsmRow::Kind::label, i, -1, label_name(*line.label) + ":", {}, {}});
        if (!line.origin.empty() && (!last || *last != line.origin)) {
            const SourceFrame& own = line.origin.front();
            AsmRow row{AsmRow::Kind::source, i, -1, frame_place(own), {}, {}};
            if (const std::string* text = source_text(own.file)) {
                auto read = lines_of.find(own.file);
                if (read == lines_of.end())
                    read = lines_of.emplace(own.file, split_lines(*text)).first;
                if (own.line >= 1 && own.line <= read->second.size())
                    row.text += "   " + one_line(unindented(read->second[own.line - 1]));
            }
            if (line.origin.size() > 1)
                row.chain = "  <- " + chain_places({line.origin.begin() + 1, line.origin.end()});
            if (const auto f = file_of.find(own.file); f != file_of.end())
                row.file = f->second;
            asm_rows_.push_back(std::move(row));
        }
        if (!line.origin.empty())
            last = &line.origin;
        asm_rows_.push_back({AsmRow::Kind::instruction, i, -1, {}, {}, {}});
        for (int c = 0; c < int(line.calls.size()); ++c)
            asm_rows_.push_back({AsmRow::Kind::call, i, c, {}, {}, {}});
    }
}

namespace {

// The inline chain of a source row, whole.
void origin_tooltip(const std::vector<SourceFrame>& origin)
{
    std::string text;
    for (size_t k = 0; k < origin.size(); ++k) {
        const SourceFrame& f = origin[k];
        text += (k == 0 ? "" : "inlined at ") + PathDisplay{}.show(f.file) + ":" + std::to_string(f.line) +
                (f.function.empty() ? "" : "  in " + f.function) + "\n";
    }
    ImGui::SetTooltip("%s%s", text.c_str(),
                      origin.size() > 1 ? "Click to open the innermost line in the Source view"
                                        : "Click to open the line in the Source view");
}

} // namespace

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
        listing_has_origins_ = false;
        scroll = true;
    }
    if (!listing_has_origins_ && listing_->problem.empty()) {
        // Until objdump has read them, the instructions without their lines.
        const std::string& object = p.obj_path(p.function(fn).obj);
        const SourceOrigins* origins =
            listing_->lines.empty() ? nullptr
                                    : origins_.get(object, listing_->lines.front().addr, listing_->lines.back().addr + 1);
        if (origins) {
            add_origins(*listing_, *origins);
            listing_has_origins_ = true;
            scroll = true;  // the lines put above the hottest instruction move it down
        }
        if (origins || scroll)
            build_asm_rows(ctx);
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
    if (scroll && l.hottest)
        scroll_to_asm_line_ = *l.hottest;
    if (scroll_to_asm_line_) {
        const auto row = std::find_if(asm_rows_.begin(), asm_rows_.end(), [&](const AsmRow& r) {
            return r.kind == AsmRow::Kind::instruction && r.line == *scroll_to_asm_line_;
        });
        ImGui::SetScrollY(std::max(0.0f, float(row - asm_rows_.begin()) * row_height - ImGui::GetWindowHeight() / 3));
        scroll_to_asm_line_.reset();
    }
    ImFont* mono = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr;
    ImGuiListClipper clipper;
    clipper.Begin(int(asm_rows_.size()), row_height);
    while (clipper.Step())
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const AsmRow& row = asm_rows_[size_t(r)];
            const AsmLine& line = l.lines[row.line];
            ImGui::TableNextRow(ImGuiTableRowFlags_None, row_height);
            if (row.kind == AsmRow::Kind::label) {
                ImGui::TableSetColumnIndex(columns - 1);
                ImGui::PushFont(mono);
                ImGui::TextUnformatted(drawable(row.text).c_str());
                ImGui::PopFont();
                continue;
            }
            if (row.kind == AsmRow::Kind::source) {
                ImGui::TableSetColumnIndex(columns - 1);
                ImGui::PushID(r);
                ImGui::PushStyleColor(ImGuiCol_Text, kSourceInk);
                if (ImGui::Selectable((row.text + row.chain).c_str(), false) && row.file) {
                    ctx.selection.select(Selection::source_line(fn, *row.file, line.origin.front().line));
                    machine_code_ = prefer_machine_code_ = false;
                }
                ImGui::PopStyleColor();
                if (ImGui::IsItemHovered())
                    origin_tooltip(line.origin);
                ImGui::PopID();
                continue;
            }
            if (row.kind == AsmRow::Kind::call) {
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
            const std::string text = "    " + listed_text(line, l);
            if (line.jump_to) {
                ImGui::PushID(r);
                if (ImGui::Selectable(text.c_str(), false))
                    scroll_to_asm_line_ = *line.jump_to;
                ImGui::PopID();
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip("%s\nClick to go to %s", drawable(line.text).c_str(),
                                      label_name(*l.lines[*line.jump_to].label).c_str());
            } else {
                ImGui::TextUnformatted(drawable(text).c_str());
            }
            ImGui::PopFont();
        }
    ImGui::EndTable();
}

} // namespace vgprof::viewer
