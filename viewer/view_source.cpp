// SPDX-License-Identifier: GPL-2.0-or-later
// The Source view: the selected function's source file, every line with
// its cost of the events chosen and, under a line, each call made there
// with the inclusive cost of those calls (as KCachegrind lists them), a
// heat gutter colored by the chosen event, the function's own lines
// shaded, scrolled to its hottest line. With heap data, the bytes
// allocated from each line too. Code without source shows its machine code
// instead (view_source_asm.cpp).
#include "ui_util.hpp"
#include "views.hpp"

#include "capabilities.hpp"

#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/path_display.hpp"
#include "vgprof/source.hpp"

#include <algorithm>
#include <cstring>

namespace vgprof::viewer {

namespace {

// Events shown at first: the chosen one and, with cache simulation, the
// misses that usually matter (D1 and LL data reads); in diff mode, whose
// columns hold a change and its percentage, the chosen one alone.
std::vector<bool> default_events(const Profile& p, size_t event, bool diff)
{
    std::vector<bool> shown(p.num_events(), false);
    shown[event] = true;
    for (const char* e : {"D1mr", "DLmr"})
        if (const auto i = p.event_index(e); i && !diff)
            shown[*i] = true;
    return shown;
}

// Diff mode: the base's calls from the same line to the same function.
const LineCall* base_call(const ViewContext& ctx, const FileCalls& base, uint32_t line, FnId callee)
{
    const auto in_base = ctx.diff->base_fn(callee);
    const auto calls = base.by_line.find(line);
    if (!in_base || calls == base.by_line.end())
        return nullptr;
    for (const LineCall& c : calls->second)
        if (c.callee == *in_base)
            return &c;
    return nullptr;
}

const ImU32 kCallInk = IM_COL32(40, 90, 170, 255);

} // namespace

void SourceView::follow_selection(ViewContext& ctx)
{
    if (ctx.selection.version() == seen_version_)
        return;
    seen_version_ = ctx.selection.version();
    const Selection& sel = ctx.selection.current();
    scroll_to_line_.reset();
    if (sel.kind == Selection::Kind::line && !is_unknown(ctx.doc.profile().file_path(sel.file))) {
        shown_file_ = sel.file;
        // A line clicked here is on screen already.
        if (seen_version_ != own_version_)
            scroll_to_line_ = sel.line;
    } else if (sel.fn && (sel.kind == Selection::Kind::function || !(built_ && built_->fn == sel.fn))) {
        shown_file_ = first_file_of(ctx.doc, *sel.fn, ctx.event);
    }
}

const std::string* SourceView::source_text(const std::string& path)
{
    if (!texts_.count(path) && !read_errors_.count(path)) {
        try {
            texts_[path] = read_source(path, search_);
        } catch (const Error& e) {
            read_errors_[path] = e.what();
        }
    }
    const auto found = texts_.find(path);
    return found == texts_.end() ? nullptr : &found->second;
}

void SourceView::rebuild(ViewContext& ctx, FnId fn, std::optional<FileId> file)
{
    error_.clear();
    file_.reset();
    allocated_.clear();
    base_allocated_.clear();
    rows_.clear();
    if (!file) {
        error_ = ctx.doc.profile().fn_name(fn) + " has no source location in the profile "
                 "(no debug information).";
        machine_code_ = true;
        return;
    }
    const std::string& path = ctx.doc.profile().file_path(*file);
    const std::string* text = source_text(path);
    if (!text) {
        error_ = read_errors_[path];
        machine_code_ = true;
        return;
    }
    file_ = annotate_source(ctx.doc, *file, *text, fn, ctx.event, ctx.diff);
    allocated_ = ctx.doc.allocated_in_file(*file);
    if (ctx.diff)
        base_allocated_ = ctx.diff->base_allocated_in_file(*file);
    calls_ = file_calls(ctx.doc, *file);
    base_calls_ = ctx.diff ? file_calls(ctx.diff->base(), path) : FileCalls{};
    for (uint32_t i = 0; i < file_->lines.size(); ++i) {
        rows_.push_back({i, -1});
        const auto calls = calls_.by_line.find(file_->lines[i].number);
        if (calls != calls_.by_line.end())
            for (size_t c = 0; c < calls->second.size(); ++c)
                rows_.push_back({i, int(c)});
    }
    machine_code_ = prefer_machine_code_;
    scroll_to_hottest_ = !scroll_to_line_;
}

int64_t SourceView::allocated_change(uint32_t line) const
{
    const auto at = [line](const std::vector<uint64_t>& by_line) {
        return line < by_line.size() ? by_line[line] : 0;
    };
    return signed_delta(at(allocated_), at(base_allocated_));
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
        shown_events_ = default_events(p, ctx.event, ctx.diff != nullptr);
    follow_selection(ctx);
    const Key key{sel.fn, ctx.event};
    if (!built_ || !(*built_ == key) || built_file_ != shown_file_) {
        if (!built_ || !(*built_ == key))
            files_ = files_of_function(ctx.doc, *sel.fn, ctx.event);
        built_ = key;
        built_file_ = shown_file_;
        rebuild(ctx, *sel.fn, shown_file_);
    }

    ImGui::Text("%s  in  %s", ctx.doc.names().function(*sel.fn).c_str(),
                file_ && !machine_code_ ? PathDisplay{}.show(file_->path).c_str()
                                        : p.obj_path(p.function(*sel.fn).obj).c_str());
    ImGui::SameLine();
    if (ImGui::Button("Columns..."))
        ImGui::OpenPopup("columns");
    if (ImGui::BeginPopup("columns")) {
        for (size_t e = 0; e < p.num_events(); ++e) {
            bool on = shown_events_[e];
            if (ImGui::Checkbox(event_description(p.meta().events[e]).c_str(), &on))
                shown_events_[e] = on;
        }
        ImGui::EndPopup();
    }
    if (file_) {
        ImGui::SameLine();
        if (ImGui::RadioButton("Source", !machine_code_))
            machine_code_ = prefer_machine_code_ = false;
        ImGui::SameLine();
        if (ImGui::RadioButton("Machine code", machine_code_))
            machine_code_ = prefer_machine_code_ = true;
    }
    if (!machine_code_ && file_ && file_->hottest) {
        ImGui::SameLine();
        if (ImGui::SmallButton("Go to hottest line"))
            scroll_to_hottest_ = true;
    }
    std::vector<size_t> events;
    for (size_t e = 0; e < p.num_events(); ++e)
        if (shown_events_[e])
            events.push_back(e);
    // Above the machine code too: a file that cannot be read leaves the
    // others one click away.
    draw_files(ctx, *sel.fn);
    if (machine_code_) {
        if (!error_.empty())
            ImGui::TextDisabled("%s  Its machine code:", error_.c_str());
        draw_machine_code(ctx, *sel.fn, events);
        return;
    }
    if (file_->stale)
        ImGui::TextColored(ImVec4(0.9f, 0.4f, 0.1f, 1),
                           "The profile charges lines past the end of this file: it changed since the run.");
    draw_source(ctx, events);
}

void SourceView::draw_files(ViewContext& ctx, FnId fn)
{
    if (files_.files.size() < 2)
        return;
    const Profile& p = ctx.doc.profile();
    const float font = ImGui::GetFontSize();
    const float row_height = font + ImGui::GetStyle().CellPadding.y * 2;
    const size_t shown_rows = std::min<size_t>(files_.files.size(), 5);
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg;
    if (!ImGui::BeginTable("files", 4, flags, ImVec2(0, row_height * float(shown_rows + 1) + 2)))
        return;
    const std::string& event = p.meta().events[ctx.event];
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Share", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("100.0%").x);
    ImGui::TableSetupColumn(event.c_str(), ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("0,000,000,000").x);
    ImGui::TableSetupColumn("File the code came from", ImGuiTableColumnFlags_WidthFixed, font * 28);
    ImGui::TableSetupColumn("Inlined from it", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < files_.files.size(); ++i) {
        const FunctionFile& f = files_.files[i];
        const std::string& path = p.file_path(f.file);
        const bool known = !is_unknown(path);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        right_aligned(percent(f.cost[ctx.event], files_.total[ctx.event]));
        ImGui::TableNextColumn();
        right_aligned(format_thousands(f.cost[ctx.event]));
        ImGui::TableNextColumn();
        ImGui::PushID(int(i));
        const std::string label = known ? fit_text_middle(PathDisplay{}.show(path), font * 28)
                                        : std::string("(no line information)");
        ImGuiSelectableFlags select_flags = ImGuiSelectableFlags_SpanAllColumns;
        if (!known)
            select_flags |= ImGuiSelectableFlags_Disabled;
        if (ImGui::Selectable(label.c_str(), built_file_ == f.file, select_flags))
            shown_file_ = f.file;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s\n%s of %s's %s is code from this file%s", PathDisplay{}.show(path).c_str(),
                              percent(f.cost[ctx.event], files_.total[ctx.event]).c_str(), p.fn_name(fn).c_str(),
                              event.c_str(), f.own ? " (its own file)" : "; click to open it");
        ImGui::PopID();
        ImGui::TableNextColumn();
        std::string names;
        for (const InlinedShare& share : f.inlined)
            names += (names.empty() ? "" : ", ") + p.fn_name(share.fn) + " " +
                     percent(share.cost[ctx.event], files_.total[ctx.event]);
        ImGui::TextUnformatted(fit_text(names.empty() && (f.own || p.function(fn).inlined) ? "its own code" : names,
                                        ImGui::GetContentRegionAvail().x).c_str());
    }
    ImGui::EndTable();
}

void SourceView::draw_source(ViewContext& ctx, const std::vector<size_t>& events)
{
    const Profile& p = ctx.doc.profile();
    const Selection& sel = ctx.selection.current();
    const SourceFile& f = *file_;
    const bool heap = !allocated_.empty() || !base_allocated_.empty();
    int64_t max_delta = 1, max_bytes_delta = 1;
    if (ctx.diff) {
        for (const SourceLine& line : f.lines) {
            max_delta = std::max(max_delta, std::abs(line.delta[ctx.event]));
            max_bytes_delta = std::max(max_bytes_delta, std::abs(allocated_change(line.number)));
        }
        diff_legend(DiffScale::counts(max_delta), "Line colors, the change of the line's own cost");
    }
    const int columns = 2 + int(events.size()) + 1 + (heap ? 1 : 0) + 1;
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit |
                                  ImGuiTableFlags_Resizable;
    if (!ImGui::BeginTable("source", columns, flags))
        return;
    const float font = ImGui::GetFontSize();
    const std::string& chosen = p.meta().events[ctx.event];
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, font * 0.8f);
    ImGui::TableSetupColumn("Line", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("000000").x);
    const float number_width = ImGui::CalcTextSize(ctx.diff ? "+0,000,000,000 (+100.0%)" : "0,000,000,000").x;
    for (size_t e : events)
        ImGui::TableSetupColumn((p.meta().events[e] + (ctx.diff ? " +/-" : "")).c_str(),
                                ImGuiTableColumnFlags_WidthFixed, number_width);
    ImGui::TableSetupColumn((chosen + " in calls" + (ctx.diff ? " +/-" : "")).c_str(),
                            ImGuiTableColumnFlags_WidthFixed, number_width);
    if (heap)
        ImGui::TableSetupColumn(ctx.diff ? "Allocated +/-" : "Allocated", ImGuiTableColumnFlags_WidthFixed,
                                number_width);
    ImGui::TableSetupColumn("Source", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < columns; ++c) {
        ImGui::TableSetColumnIndex(c);
        ImGui::TableHeader(ImGui::TableGetColumnName(c));
        if (c == 2 + int(events.size()) && ImGui::IsItemHovered())
            ImGui::SetTooltip("The inclusive cost of the calls made on the line: everything that ran "
                              "while a function called from there was on the stack");
        else if (c >= 2 && c < 2 + int(events.size()) && ImGui::IsItemHovered())
            ImGui::SetTooltip("%s, the line's own", event_description(p.meta().events[events[size_t(c - 2)]]).c_str());
    }

    const float row_height = font + ImGui::GetStyle().CellPadding.y * 2;
    const std::optional<uint32_t> target = scroll_to_line_ ? scroll_to_line_
                                           : scroll_to_hottest_ ? f.hottest : std::nullopt;
    if (target) {
        const auto row = std::find_if(rows_.begin(), rows_.end(),
                                      [&](const Row& r) { return r.call < 0 && f.lines[r.line].number == *target; });
        const float view = ImGui::GetWindowHeight();
        ImGui::SetScrollY(std::max(0.0f, float(row - rows_.begin()) * row_height - view / 3));
    }
    scroll_to_hottest_ = false;
    scroll_to_line_.reset();
    ImGuiListClipper clipper;
    clipper.Begin(int(rows_.size()), row_height);
    while (clipper.Step()) {
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const Row& row = rows_[size_t(r)];
            const SourceLine& line = f.lines[row.line];
            ImGui::TableNextRow(ImGuiTableRowFlags_None, row_height);
            if (row.call >= 0) {
                ImGui::PushID(r);
                const LineCall& call = calls_.by_line.at(line.number)[size_t(row.call)];
                draw_call_row(ctx, call, ctx.diff ? base_call(ctx, base_calls_, line.number, call.callee) : nullptr,
                              events, max_delta);
                ImGui::PopID();
                continue;
            }
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
                own_version_ = ctx.selection.version();
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
            ImGui::TableNextColumn();
            if (const auto calls = calls_.total.find(line.number); calls != calls_.total.end()) {
                const uint64_t now = calls->second[ctx.event];
                if (ctx.diff) {
                    const auto base = base_calls_.total.find(line.number);
                    const auto be = ctx.diff->base_event(ctx.event);
                    const uint64_t before = base != base_calls_.total.end() && be ? base->second[*be] : 0;
                    if (now != before)
                        delta_cell(signed_delta(now, before), now, max_delta);
                } else if (now > 0) {
                    ImGui::PushStyleColor(ImGuiCol_Text, kCallInk);
                    right_aligned(format_thousands(now));
                    ImGui::PopStyleColor();
                }
            }
            if (heap) {
                ImGui::TableNextColumn();
                const uint64_t bytes = line.number < allocated_.size() ? allocated_[line.number] : 0;
                if (ctx.diff) {
                    if (const int64_t change = allocated_change(line.number); change != 0)
                        delta_cell(change, bytes, max_bytes_delta);
                } else if (bytes > 0) {
                    right_aligned(format_thousands(bytes));
                }
            }
            ImGui::TableNextColumn();
            ImGui::PushFont(ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr);
            ImGui::TextUnformatted(drawable(line.text).c_str());
            ImGui::PopFont();
        }
    }
    ImGui::EndTable();
}

void SourceView::draw_call_row(ViewContext& ctx, const LineCall& call, const LineCall* base,
                               const std::vector<size_t>& events, int64_t max_delta)
{
    ImGui::TableNextColumn();
    ImGui::TableNextColumn();
    std::vector<int64_t> delta;
    if (ctx.diff)
        for (size_t e = 0; e < call.inclusive.size(); ++e) {
            const auto be = ctx.diff->base_event(e);
            delta.push_back(signed_delta(call.inclusive[e], base && be ? base->inclusive[*be] : 0));
        }
    call_cost_cells(events, call.inclusive, delta, max_delta);
    ImGui::TableNextColumn();  // the calls' sum is on the line itself
    if (!allocated_.empty() || !base_allocated_.empty())
        ImGui::TableNextColumn();
    ImGui::TableNextColumn();
    call_link(ctx, call.callee, call.count, call.inclusive[ctx.event]);
}

void SourceView::call_cost_cells(const std::vector<size_t>& events, const std::vector<uint64_t>& inclusive,
                                 const std::vector<int64_t>& delta, int64_t max_delta)
{
    for (size_t e : events) {
        ImGui::TableNextColumn();
        if (!delta.empty()) {
            if (delta[e] != 0)
                delta_cell(delta[e], inclusive[e], max_delta);
        } else if (inclusive[e] > 0) {
            ImGui::PushStyleColor(ImGuiCol_Text, kCallInk);
            right_aligned(format_thousands(inclusive[e]));
            ImGui::PopStyleColor();
        }
    }
}

void SourceView::call_link(ViewContext& ctx, FnId callee, uint64_t count, uint64_t inclusive)
{
    const Profile& p = ctx.doc.profile();
    const std::string text = "    -> " + count_text(count, "call", "calls") + " to " +
                             ctx.doc.names().function(callee) + "  (" + percent(inclusive, ctx.doc.total(ctx.event)) +
                             " of " + p.meta().events[ctx.event] + ")";
    ImGui::PushStyleColor(ImGuiCol_Text, kCallInk);
    if (ImGui::Selectable(text.c_str(), false))
        ctx.selection.select(Selection::function(callee));
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The inclusive cost of these calls; click to go to %s", p.fn_name(callee).c_str());
}

} // namespace vgprof::viewer
