// SPDX-License-Identifier: GPL-2.0-or-later
// What frames the views: the menu, the toolbar (history, event, the
// selection), the tabs with the function list beside them, the status bar
// (the command and totals), the loading and error screens and the Open
// dialog.
#include "app.hpp"
#include "ui_util.hpp"

#include "capabilities.hpp"

#include "vgprof/data.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"


#include <cstring>
#include <unistd.h>

namespace vgprof::viewer {

namespace {

// An arrow button walking the selection history, greyed out when there is
// nowhere to go.
bool history_button(const char* id, ImGuiDir dir, bool enabled, const char* tip)
{
    ImGui::BeginDisabled(!enabled);
    const bool pressed = ImGui::ArrowButton(id, dir);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", tip);
    return pressed;
}

} // namespace

void App::draw_menu()
{
    if (!ImGui::BeginMenuBar())
        return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Open...", "Ctrl+O"))
            open_dialog_ = true;
        if (ImGui::MenuItem("Quit", "Ctrl+Q"))
            quit_ = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Go", session_ != nullptr)) {
        if (ImGui::MenuItem("Back", "Alt+Left", false, session_->selection.can_go_back()))
            session_->selection.back();
        if (ImGui::MenuItem("Forward", "Alt+Right", false, session_->selection.can_go_forward()))
            session_->selection.forward();
        ImGui::Separator();
        for (size_t i = 0; i < std::size(kAllViews); ++i) {
            const std::string shortcut = "Ctrl+" + std::to_string((i + 1) % 10);
            if (ImGui::MenuItem(view_title(kAllViews[i]), shortcut.c_str(), active_ == kAllViews[i]))
                show(kAllViews[i]);
        }
        ImGui::EndMenu();
    }
    ImGui::EndMenuBar();
}

void App::draw_toolbar()
{
    Session& s = *session_;
    const Document& doc = *s.loaded->now;
    const Profile& p = doc.profile();
    if (history_button("back", ImGuiDir_Left, s.selection.can_go_back(),
                       "Back (Alt+Left, mouse back button)"))
        s.selection.back();
    ImGui::SameLine();
    if (history_button("forward", ImGuiDir_Right, s.selection.can_go_forward(),
                       "Forward (Alt+Right, mouse forward button)"))
        s.selection.forward();
    ImGui::SameLine();
    ImGui::TextUnformatted("Event");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    if (ImGui::BeginCombo("##event", p.meta().events[s.event].c_str())) {
        for (size_t e = 0; e < p.num_events(); ++e) {
            if (ImGui::Selectable(p.meta().events[e].c_str(), e == s.event))
                s.event = e;
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s", event_description(p.meta().events[e]).c_str());
        }
        ImGui::EndCombo();
    } else if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s: the event every view colors and orders by",
                          event_description(p.meta().events[s.event]).c_str());
    }
    draw_thread_combo();
    if (s.loaded->diff) {
        ImGui::SameLine();
        ImGui::TextUnformatted("Color by");
        ImGui::SameLine();
        diff_coloring_combo(s.coloring);
    }
    ImGui::SameLine();
    const Selection& sel = s.selection.current();
    std::string what = "nothing";
    switch (sel.kind) {
    case Selection::Kind::none: break;
    case Selection::Kind::function: what = function_label(p, *sel.fn); break;
    case Selection::Kind::line:
        what = p.file_path(sel.file) + ":" + std::to_string(sel.line) + " in " + p.fn_name(*sel.fn);
        break;
    case Selection::Kind::site:
        what = p.heap() && sel.site < p.heap()->sites.size()
                   ? "allocation site " + doc.names().site(SiteId(sel.site))
                   : "an allocation site";
        break;
    case Selection::Kind::time_range:
        what = "instructions " + format_thousands(sel.t0) + " to " + format_thousands(sel.t1);
        break;
    case Selection::Kind::data_object:
        what = p.data() && sel.object.index() < p.data()->objects.size()
                   ? "data object " + data_object_short_label(p, sel.object)
                   : "a data object";
        break;
    }
    ImGui::Text("Selected: %s", what.c_str());
    if (!error_.empty()) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(0.8f, 0.1f, 0.1f, 1), "%s", error_.c_str());
    }
}

// "All threads" or one thread, for the views that show one; only for a
// profile recorded with --separate-threads=yes, and not in diff mode.
void App::draw_thread_combo()
{
    Session& s = *session_;
    if (s.threads.empty() || s.loaded->diff)
        return;
    const Profile& p = s.loaded->now->profile();
    std::string current = "All threads";
    for (const ThreadChoice& t : s.threads)
        if (s.thread() == t.tid)
            current = thread_choice_label(p, t, s.event);
    ImGui::SameLine();
    ImGui::TextUnformatted("Thread");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::CalcTextSize(current.c_str()).x + ImGui::GetFrameHeight() * 2);
    std::optional<std::optional<uint32_t>> chosen;
    if (ImGui::BeginCombo("##thread", current.c_str())) {
        if (ImGui::Selectable("All threads", !s.thread()))
            chosen = std::optional<uint32_t>();
        for (const ThreadChoice& t : s.threads)
            if (ImGui::Selectable(thread_choice_label(p, t, s.event).c_str(), s.thread() == t.tid))
                chosen = t.tid;
        ImGui::EndCombo();
    } else if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("The thread whose costs and calls the functions, call tree, bottom-up, "
                          "sandwich, call graph and flame graph show; the source, cache heatmap "
                          "and heap show the whole program");
    }
    if (chosen)
        s.choose_thread(*chosen);  // a thread listed: never refused
}

// Above a view of the whole program while a thread is chosen for the
// others: its figures are not that thread's.
static void draw_whole_program_note(ViewId view, uint32_t tid)
{
    ImGui::TextColored(ImVec4(0.55f, 0.3f, 0.0f, 1),
                       "%s shows the whole program, every thread: it has no per-thread costs "
                       "(thread %u is chosen for the other views)",
                       view_title(view), tid);
}

void App::draw_body()
{
    Session& s = *session_;
    ViewContext whole = s.context();
    ViewContext thread = s.thread_context();
    ThreadViews& t = *s.views;
    if (!ImGui::BeginTabBar("views"))
        return;
    std::optional<ViewId> now_active;
    for (ViewId v : kAllViews) {
        const ImGuiTabItemFlags flags = switch_tab_ && v == active_ ? ImGuiTabItemFlags_SetSelected : 0;
        if (!ImGui::BeginTabItem(view_title(v), nullptr, flags))
            continue;
        now_active = v;
        if (v == ViewId::functions) {
            t.table.draw(thread);
        } else {
            // The function list beside the view, to select from, of what
            // the view shows.
            const bool of_thread = shows_thread(v);
            const float list_width = ImGui::GetContentRegionAvail().x * 0.28f;
            ImGui::BeginChild("list", ImVec2(list_width, 0), true);
            if (of_thread)
                t.side_list.draw(thread);
            else
                s.whole_list.draw(whole);
            ImGui::EndChild();
            ImGui::SameLine();
            ImGui::BeginChild("view", ImVec2(0, 0), false);
            if (!of_thread && s.thread())
                draw_whole_program_note(v, *s.thread());
            switch (v) {
            case ViewId::calltree: t.calltree.draw(thread); break;
            case ViewId::bottomup: t.bottomup.draw(thread); break;
            case ViewId::sandwich: t.sandwich.draw(thread); break;
            case ViewId::callgraph: t.callgraph.draw(thread); break;
            case ViewId::flamegraph: t.flamegraph.draw(thread); break;
            case ViewId::heatmap: s.heatmap.draw(whole); break;
            case ViewId::source: s.source.draw(whole); break;
            case ViewId::heap: s.heap.draw(whole); break;
            case ViewId::timeline: s.timeline_view.draw(whole); break;
            case ViewId::functions: break;
            }
            ImGui::EndChild();
        }
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
    if (switch_tab_ && now_active == active_)
        switch_tab_ = false;
    else if (!switch_tab_ && now_active)
        active_ = *now_active;
}

void App::draw_status()
{
    ImGui::Separator();
    if (!session_) {
        ImGui::TextDisabled("No profile open");
        return;
    }
    // With a thread chosen, its totals: the figures the views of it show.
    const Document& doc = session_->thread_doc ? *session_->thread_doc : *session_->loaded->now;
    const Profile& p = doc.profile();
    // Profiles that do not compare show no change until asked to.
    const DiffLink* diff = session_->refused() ? nullptr : session_->loaded->diff.get();
    std::string totals;
    if (const auto tid = doc.thread())
        totals += "   thread " + std::to_string(*tid) + ":";
    for (size_t e = 0; e < doc.num_events(); ++e) {
        totals += "   " + p.meta().events[e] + " " + format_thousands(doc.total(e));
        if (const DiffLink* d = diff) {
            const int64_t change = d->total_delta(e);
            totals += " (" + change_text(change, uint64_t(int64_t(doc.total(e)) - change)) + ")";
        }
    }
    totals += "   " + format_thousands(doc.num_functions()) + " functions";
    if (const DiffLink* d = diff)
        totals += "   diff against " + d->base().path() + ", " +
                  format_thousands(d->functions_only_in_base()) + " functions only there";
    // One line whatever the command line holds (python3 -c "..." spans
    // several): the command gets what the totals leave, at least a fifth.
    // A range of time narrowing the views, and the way to clear it.
    ViewContext ctx = session_->context();
    if (const TimeRange* r = diff ? nullptr : ctx.range()) {
        ImGui::TextColored(ImVec4(0.6f, 0.35f, 0.0f, 1), "Range %s .. %s", format_thousands(r->t0).c_str(),
                           format_thousands(r->t1).c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("The functions' costs are those of this stretch of the run's instructions, "
                              "from the timeline's calls in it (chosen on the Timeline)");
        ImGui::SameLine();
        if (ImGui::SmallButton("Clear range"))
            session_->timeline.range.reset();
        ImGui::SameLine();
    }
    const std::string command = drawable(one_line(doc.command().empty() ? doc.path() : doc.command()));
    const float width = ImGui::GetContentRegionAvail().x;
    const float room = std::max(width * 0.2f, width - ImGui::CalcTextSize(totals.c_str()).x);
    ImGui::TextUnformatted(fit_text(command, room).c_str());
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 50);
        ImGui::TextUnformatted(drawable(doc.command()).c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    ImGui::SameLine(0, 0);
    ImGui::TextUnformatted(fit_text(totals, ImGui::GetContentRegionAvail().x).c_str());
}

void App::draw_load_state()
{
    if (loader_.state() == ProfileLoader::State::loading) {
        const double f = loader_.fraction();
        const std::string stage = loader_.stage();
        ImGui::Dummy(ImVec2(0, ImGui::GetContentRegionAvail().y * 0.4f));
        ImGui::TextUnformatted(stage.c_str());
        if (f >= 0) {
            ImGui::ProgressBar(float(f), ImVec2(-FLT_MIN, 0));
        } else {
            // Parsing cannot tell how far it is: a bar that sweeps.
            const float t = float(ImGui::GetTime());
            ImGui::ProgressBar(-1.0f * t, ImVec2(-FLT_MIN, 0), "");
        }
        return;
    }
    if (failed_load_) {
        ImGui::Dummy(ImVec2(0, ImGui::GetContentRegionAvail().y * 0.35f));
        ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(180, 20, 20, 255));
        ImGui::TextUnformatted("The profile could not be opened:");
        ImGui::PopStyleColor();
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(error_.c_str());
        ImGui::PopTextWrapPos();
        ImGui::Spacing();
        if (ImGui::Button("Open another profile..."))
            open_dialog_ = true;
        return;
    }
    centred_message("Open a profile with Ctrl+O or by dropping it on this window.\n"
                    "Record one with: valgrind --tool=vgprof ./program");
}

void App::draw_refusal()
{
    const DiffLink& d = *session_->loaded->diff;
    ImGui::Dummy(ImVec2(0, ImGui::GetContentRegionAvail().y * 0.3f));
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(180, 20, 20, 255));
    ImGui::TextUnformatted("These profiles do not compare, as vgprof diff judges them:");
    ImGui::PopStyleColor();
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(drawable("base: " + d.base().path()).c_str());
    ImGui::TextUnformatted(drawable("new:  " + d.now().path()).c_str());
    ImGui::Spacing();
    for (const std::string& why : d.differences())
        ImGui::BulletText("%s", drawable(why).c_str());
    for (const std::string& w : d.warnings())
        ImGui::BulletText("%s", drawable("also: " + w).c_str());
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    ImGui::TextDisabled("Their differences may be the program's, not the change's. "
                        "vgprof-viewer --force BASE NEW compares them at once.");
    if (ImGui::Button("Compare anyway"))
        session_->compared_anyway = true;
    ImGui::SameLine();
    if (ImGui::Button("Open another profile..."))
        open_dialog_ = true;
}

void App::draw_diff_warnings()
{
    const DiffLink* d = session_->loaded->diff.get();
    if (!d)
        return;
    std::vector<std::string> lines;
    for (const std::string& why : d->differences())
        lines.push_back("compared anyway, but " + why);
    lines.insert(lines.end(), d->warnings().begin(), d->warnings().end());
    if (lines.empty())
        return;
    // One line each, the whole text in the tooltip: the views keep the room.
    for (const std::string& line : lines) {
        const std::string text = drawable("warning: " + line);
        ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(170, 100, 0, 255));
        ImGui::TextUnformatted(fit_text(text, ImGui::GetContentRegionAvail().x).c_str());
        ImGui::PopStyleColor();
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", text.c_str());
    }
}

void App::draw_open_dialog()
{
    if (open_dialog_) {
        ImGui::OpenPopup("Open profile");
        if (listing_.dir.empty()) {
            char cwd[4096];
            listing_ = list_directory(getcwd(cwd, sizeof cwd) ? cwd : "/", all_files_);
        }
        std::snprintf(open_path_, sizeof open_path_, "%s", listing_.dir.c_str());
        open_dialog_ = false;
    }
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowSize(ImVec2(vp->WorkSize.x * 0.6f, vp->WorkSize.y * 0.7f), ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x / 2, vp->WorkPos.y + vp->WorkSize.y / 2),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal("Open profile"))
        return;
    std::string chosen;
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::InputText("##path", open_path_, sizeof open_path_, ImGuiInputTextFlags_EnterReturnsTrue)) {
        const Listing l = list_directory(open_path_, all_files_);
        if (l.error.empty())
            listing_ = l;
        else
            chosen = open_path_;  // not a directory: open it as a file
    }
    if (!listing_.error.empty())
        ImGui::TextColored(ImVec4(0.8f, 0.1f, 0.1f, 1), "%s", listing_.error.c_str());
    const float footer = ImGui::GetFrameHeightWithSpacing() * 2;
    ImGui::BeginChild("entries", ImVec2(0, -footer), true);
    std::optional<std::string> enter_dir;
    for (const DirEntry& e : listing_.entries) {
        const std::string label = (e.is_dir ? "[dir]  " : "       ") + e.name;
        if (ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick |
                                                        ImGuiSelectableFlags_DontClosePopups)) {
            const std::string path = enter(listing_.dir, e.name);
            std::snprintf(open_path_, sizeof open_path_, "%s", path.c_str());
            if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) || e.is_dir) {
                if (e.is_dir)
                    enter_dir = path;
                else
                    chosen = path;
            }
        }
        if (!e.is_dir) {
            ImGui::SameLine(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 6);
            ImGui::TextDisabled("%s", short_count(e.size).c_str());
        }
    }
    ImGui::EndChild();
    if (enter_dir)
        listing_ = list_directory(*enter_dir, all_files_);
    if (ImGui::Checkbox("List every file", &all_files_))
        listing_ = list_directory(listing_.dir, all_files_);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Listed otherwise: *.json, callgrind.out.*, cachegrind.out.*, dhat.out.*, "
                          "vgprof.out.*, also compressed (.gz, .zst)");
    ImGui::SameLine();
    ImGui::BeginDisabled(!session_);
    ImGui::Checkbox("Compare with the open profile (diff mode: the open one is the base)", &compare_);
    ImGui::EndDisabled();
    if (ImGui::Button("Open"))
        chosen = open_path_;
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || key_pressed(ViewKey::Escape, true))
        ImGui::CloseCurrentPopup();
    if (!chosen.empty()) {
        if (compare_ && session_)
            load({session_->loaded->now->path(), chosen});
        else
            load({chosen});
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

} // namespace vgprof::viewer
