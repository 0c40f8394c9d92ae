// SPDX-License-Identifier: GPL-2.0-or-later
// The views drawn by Dear ImGui without a window (a context with a font
// atlas and a display size is all drawing needs): every view draws from the
// "app" fixture, in diff mode and, for the heap views, with its heap data;
// clicks and drags made by moving the simulated mouse change the shared
// selection as the views promise.
#include "views.hpp"

#include "headless.hpp"
#include "viewer_fixture.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <unistd.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

// A document opened with a function selected, as the views draw it.
struct Opened {
    std::unique_ptr<Document> doc;
    SelectionHistory selection;
    ViewContext ctx;

    Opened(const ProfileText& text, std::optional<FnId> fn) : doc(document_of(text)), ctx{*doc, nullptr, selection, 0}
    {
        if (fn)
            selection.select(Selection::function(*fn));
    }
};

// Every view of one document, as a window's session holds them.
struct ViewSet {
    FunctionsView table, list;
    SharedCallTree call_tree;
    CallTreeView top_down{call_tree, false}, bottom_up{call_tree, true};
    SandwichView sandwich{call_tree};
    CallGraphView graph;
    FlameGraphView flame;
    HeatmapView heat;
    SourceView source;
    HeapView heap;
    TimelineView timeline;

    ViewSet(const Document& doc, const DiffLink* diff) : table(doc, diff, false), list(doc, diff, true) {}

    // Each view's name and a call drawing it.
    std::vector<std::pair<std::string, std::function<void()>>> draws(ViewContext& ctx)
    {
        return {{"functions", [&] { table.draw(ctx); }}, {"list", [&] { list.draw(ctx); }},
                {"calltree", [&] { top_down.draw(ctx); }}, {"bottomup", [&] { bottom_up.draw(ctx); }},
                {"sandwich", [&] { sandwich.draw(ctx); }},
                {"callgraph", [&] { graph.draw(ctx); }}, {"flamegraph", [&] { flame.draw(ctx); }},
                {"heatmap", [&] { heat.draw(ctx); }},     {"source", [&] { source.draw(ctx); }},
                {"heap", [&] { heap.draw(ctx); }},        {"timeline", [&] { timeline.draw(ctx); }}};
    }
};

TEST_F(Headless, EveryViewDrawsTheProfile)
{
    const auto doc = document_of(app_profile());
    SelectionHistory selection;
    selection.select(Selection::function(FnId(kCompute)));
    ViewContext ctx{*doc, nullptr, selection, 0};
    ViewSet views(*doc, nullptr);
    // The least each view draws: tables and graphs of the four functions;
    // the heatmap says there is no simulation, the source that /src/app.c
    // cannot be opened, the heap that there is no heap data.
    const std::map<std::string, int> least{{"functions", 400}, {"list", 200}, {"calltree", 400},
                                           {"bottomup", 400}, {"sandwich", 200}, {"callgraph", 400},
                                           {"flamegraph", 200}, {"heatmap", 50}, {"source", 50},
                                           {"heap", 50}, {"timeline", 50}};
    for (int i = 0; i < 3; ++i)
        for (const auto& [name, draw] : views.draws(ctx))
            EXPECT_GT(frame(draw), least.at(name)) << name;
}

TEST_F(Headless, EveryViewDrawsANameLongerThanOneDrawCallHolds)
{
    // A C++ template instance's name can run to tens of thousands of
    // characters: 30,000 glyphs are 120,000 vertices, more than one draw
    // call of Dear ImGui's 16-bit indices holds. Every view, and the
    // tooltips of its rows, draws it (cut to what fits) rather than abort.
    std::string name = "compute<";
    while (name.size() < 30000)
        name += "std::vector<std::pair<int, long>>, ";
    name += ">";
    ProfileText text = app_profile();
    text.set("strs", R"(["???","/src/app.c","/usr/bin/app",")" + name + R"(","helper","main","parse"])");
    const auto doc = document_of(text);
    SelectionHistory selection;
    selection.select(Selection::function(FnId(kCompute)));
    ViewContext ctx{*doc, nullptr, selection, 0};
    ViewSet views(*doc, nullptr);
    ImGuiIO& io = ImGui::GetIO();
    for (const auto& [view, draw] : views.draws(ctx))
        for (float y = 10; y < io.DisplaySize.y; y += 15) {
            io.MousePos = ImVec2(io.DisplaySize.x / 3, y);
            EXPECT_GT(frame(draw), 0) << view;
        }
}

TEST_F(Headless, EveryViewDrawsAnEmptyProfile)
{
    // Nothing to select: every view says what is missing instead of
    // reading a function that is not there.
    const auto doc = document_of(empty_profile());
    SelectionHistory selection;
    ViewContext ctx{*doc, nullptr, selection, 0};
    ViewSet views(*doc, nullptr);
    for (int i = 0; i < 3; ++i)
        for (const auto& [name, draw] : views.draws(ctx))
            EXPECT_GT(frame(draw), 50) << name;
}

TEST_F(Headless, EveryViewDrawsOtherToolsFiles)
{
    // A callgrind file has calls but no call paths; a DHAT file only the
    // heap. Each view says what the file lacks or draws what it has.
    for (const auto& [text, name] : {std::pair{kCallgrindFile, "callgrind.out.1"}, {kDhatFile, "dhat.out.7"}}) {
        const auto doc = document_of(text, name);
        SelectionHistory selection;
        selection.select(Selection::function(FnId(0)));
        ViewContext ctx{*doc, nullptr, selection, 0};
        ViewSet views(*doc, nullptr);
        for (int i = 0; i < 3; ++i)
            for (const auto& [view, draw] : views.draws(ctx))
                EXPECT_GT(frame(draw), 50) << name << ": " << view;
    }
}

TEST_F(Headless, DiffModeDrawsEveryView)
{
    const auto base = document_of(app_profile_with_heap());
    const auto now = document_of(app_profile_slower(app_profile_with_heap()));
    const DiffLink diff(*base, *now);
    SelectionHistory selection;
    selection.select(Selection::function(FnId(kCompute)));
    ViewSet views(*now, &diff);
    // Each way of coloring boxes: the legend and the boxes are drawn.
    for (DiffColoring coloring : {DiffColoring::total, DiffColoring::own, DiffColoring::relative}) {
        ViewContext ctx{*now, &diff, selection, 0, coloring};
        for (int i = 0; i < 2; ++i)
            for (const auto& [name, draw] : views.draws(ctx))
                EXPECT_GT(frame(draw), 100) << name;
    }
}

// The "app" fixture with its source file written out, 45 lines, so the
// Source view can read it.
class WithSource {
public:
    WithSource()
    {
        char dir[] = "/tmp/viewer-source-XXXXXX";
        dir_ = mkdtemp(dir);
        path_ = dir_ + "/app.c";
        std::ofstream out(path_);
        for (int i = 1; i <= 45; ++i)
            out << "int line" << i << ";\n";
    }
    ~WithSource()
    {
        std::remove(path_.c_str());
        rmdir(dir_.c_str());
    }
    ProfileText profile(ProfileText text = app_profile()) const
    {
        text.set("strs", R"(["???",")" + path_ + R"(","/usr/bin/app","compute","helper","main","parse"])");
        return text;
    }

private:
    std::string dir_, path_;
};

TEST_F(Headless, SourceViewDrawsTheFileAndTheBytesAllocatedPerLine)
{
    const WithSource source_file;
    const auto doc = document_of(source_file.profile());
    const auto heap_doc = document_of(source_file.profile(app_profile_with_heap()));
    const Document& with_heap = *heap_doc;
    const auto drawn = [&](const Document& d) {
        SelectionHistory selection;
        selection.select(Selection::function(FnId(kHelper)));
        ViewContext ctx{d, nullptr, selection, 0};
        SourceView source;
        // The file is in a directory of its own, not below the current one.
        source.trust_profile(true);
        int vertices = 0;
        // A table of its own for each document, as a new window would have.
        for (int i = 0; i < 3; ++i)
            vertices = frame([&] {
                ImGui::PushID(&d);
                source.draw(ctx);
                ImGui::PopID();
            });
        return vertices;
    };
    const int without = drawn(*doc);
    EXPECT_GT(without, 2000);  // 45 lines of text and costs
    // The Allocated column: a header, and 4,500 bytes at line 41.
    EXPECT_GT(drawn(with_heap), without);
}

// A line of an inlined header selected elsewhere opens the header: a
// click on a line of what the view shows then selects a line of that file.
TEST_F(Headless, SourceViewFollowsASelectedLineIntoItsFile)
{
    char dir[] = "/tmp/viewer-inlined-XXXXXX";
    const std::string root = mkdtemp(dir);
    const std::string own = root + "/app.cpp", header = root + "/stl_vector.h";
    for (const auto& [path, lines] : {std::pair{own, 60}, std::pair{header, 1300}}) {
        std::ofstream out(path);
        for (int i = 1; i <= lines; ++i)
            out << "int line" << i << ";\n";
    }
    ProfileText text = inlined_profile();
    text.set("strs", R"(["???",")" + own + R"(","/usr/bin/app",")" + header +
                         R"(","/usr/include/c++/12/bits/stl_algobase.h","erase","helper","main","move","work"])");
    const auto doc = document_of(text);
    SelectionHistory selection;
    ViewContext ctx{*doc, nullptr, selection, 0};
    SourceView source;
    source.trust_profile(true);
    const auto draw = [&] { source.draw(ctx); };
    selection.select(Selection::source_line(FnId(kWork), FileId(2), 1278));
    for (int i = 0; i < 3; ++i)
        frame(draw);
    // Line 1278 is scrolled to a third of the way down; click below the
    // list of files until a line is selected.
    const uint64_t before = selection.version();
    for (float y = 120; y < 500 && selection.version() == before; y += 6)
        click(draw, 60, y);
    ASSERT_NE(selection.version(), before);
    EXPECT_EQ(selection.current().kind, Selection::Kind::line);
    EXPECT_EQ(selection.current().file, FileId(2));
    std::remove(own.c_str());
    std::remove(header.c_str());
    rmdir(root.c_str());
}

TEST_F(Headless, ClickingAFlameGraphBoxSelectsItsFunction)
{
    const auto doc = document_of(app_profile());
    SelectionHistory selection;
    ViewContext ctx{*doc, nullptr, selection, 0};
    FlameGraphView flame;
    const auto draw = [&] { flame.draw(ctx); };
    frame(draw);
    // Down the left edge: "all" first (no function), then main's box.
    for (float y = 10; y < 200 && selection.current().kind == Selection::Kind::none; y += 4)
        click(draw, 40, y);
    ASSERT_EQ(selection.current().kind, Selection::Kind::function);
    EXPECT_EQ(selection.current().fn, FnId(kMain));
}

// app_profile with a timeline: main's call [0,2100) holds compute's
// [500,2000), marked "go" and "done" at its ends.
ProfileText app_profile_with_timeline()
{
    ProfileText t = app_profile();
    t.set("vgprof", "10")
        .set("calls", "[[0,1,1,11,4096,1,500],[0,2,1,12,4112,1,1500],[1,3,1,21,4128,2,200],"
                      "[2,3,1,31,4144,5,500]]")
        .set("timeline", R"({"clock":"instructions","threshold":1,"max_spans":100,"begin":[0,0,0,0],)"
                         R"("end":[2100,0,0,2100],)"
                         R"("spans":[[1,1,2,3,500,2000,0,1500],[1,0,0,0,0,2100,1,2100]],"dropped":0,)"
                         R"("marks":[[500,1,"go",0,0,500],[2000,1,"done",0,0,2000]],"marks_dropped":0})");
    return t;
}

TEST_F(Headless, TimelineCallsSelectTheirFunctionAndAShiftDragNarrowsTheFunctions)
{
    const auto doc = document_of(app_profile_with_timeline());
    SelectionHistory selection;
    TimelineFocus focus;
    ViewContext ctx{*doc, nullptr, selection, 0, DiffColoring::total, &focus};
    TimelineView view;
    const auto draw = [&] { view.draw(ctx); };
    frame(draw);
    // Down the middle, [500,2000) is compute's, under main's.
    const float middle = ImGui::GetIO().DisplaySize.x / 2;
    for (float y = 10; y < 400 && selection.current().fn != FnId(kCompute); y += 4)
        click(draw, middle, y);
    EXPECT_EQ(selection.current().fn, FnId(kCompute));

    focus.range.reset();
    ImGuiIO& io = ImGui::GetIO();
#if IMGUI_VERSION_NUM >= 18900
    io.AddKeyEvent(ImGuiMod_Shift, true);
#else
    io.KeyShift = true;
#endif
    drag(draw, ImVec2(middle * 0.5f, 300), ImVec2(middle * 1.5f, 300));
#if IMGUI_VERSION_NUM >= 18900
    io.AddKeyEvent(ImGuiMod_Shift, false);
#else
    io.KeyShift = false;
#endif
    ASSERT_TRUE(focus.range);
    // A quarter to three quarters of the width: about 525 to 1575.
    EXPECT_NEAR(double(focus.range->t0), 525, 60);
    EXPECT_NEAR(double(focus.range->t1), 1575, 60);
    EXPECT_EQ(selection.current().fn, FnId(kCompute));  // the range leaves the selection be
    FunctionsView table(*doc, nullptr, false);
    frame([&] { table.draw(ctx); });
}

TEST_F(Headless, TheTimelinesHeapTrackDrawsTheSitesLiveUnderThePointer)
{
    // The timeline's profile with a heap of version 11: one site
    // allocates 1000 bytes at 600 and frees them at 1800.
    ProfileText t = app_profile_with_timeline();
    t.set("vgprof", "11")
        .set("heap", R"({"depth":12,)"
                     R"("totals":{"start_time":0,"start_bytes":0,"start_blocks":0,"bytes":1000,"blocks":1,)"
                     R"("freed_bytes":1000,"freed_blocks":1,"peak_bytes":1000,"peak_blocks":1,)"
                     R"("peak_time":600,"end_bytes":0,"end_blocks":0,"end_time":2100,"reads":0,"writes":0},)"
                     R"("whole_run":{"bytes":1000,"blocks":1,)"
                     R"("freed_bytes":1000,"freed_blocks":1,"peak_bytes":1000,"peak_blocks":1,)"
                     R"("peak_time":600,"end_bytes":0,"end_blocks":0,"end_time":2100,"reads":0,"writes":0},)"
                     R"("frames":[[100,3,1,41]],"sites":[[[0],1000,1,1200,1000,1,1000,1,0,0,0,0,null]],)"
                     R"("timeline":{"width":1,"samples":[[600,1000,1],[1800,0,0]]},)"
                     R"("snapshots":[{"kind":"peak","time":600,"bytes":1000,"blocks":1,"sites":[[0,1000,1]]},)"
                     R"({"kind":"end","time":2100,"bytes":0,"blocks":0,"sites":[]}],)"
                     R"("changes":{"width":1,"max":20000,"rows":[[0,600,1000,1,0,0],[0,1800,0,0,1000,1]]}})");
    const auto doc = document_of(t);
    ASSERT_TRUE(doc->heap()->changes);
    SelectionHistory selection;
    TimelineFocus focus;
    ViewContext ctx{*doc, nullptr, selection, 0, DiffColoring::total, &focus};
    TimelineView view;
    const auto draw = [&] { view.draw(ctx); };
    ImGuiIO& io = ImGui::GetIO();
    // Down the middle, over every track, the heap's among them.
    for (float y = 10; y < io.DisplaySize.y; y += 6) {
        io.MousePos = ImVec2(io.DisplaySize.x / 2, y);
        EXPECT_GT(frame(draw), 0);
    }
}

TEST_F(Headless, CallTreeRowsSelectTheirFunction)
{
    Opened o(app_profile(), FnId(kMain));
    SelectionHistory& selection = o.selection;
    SharedCallTree shared;
    CallTreeView tree(shared, false);
    const auto draw = [&] { tree.draw(o.ctx); };
    frame(draw);
    // The tree opens down its hottest path: main, compute, helper, then
    // parse. Clicking down the rows' names reaches helper's.
    for (float y = 40; y < 300 && selection.current().fn != FnId(kHelper); y += 4)
        click(draw, 60, y);
    EXPECT_EQ(selection.current().fn, FnId(kHelper));
}

TEST_F(Headless, DraggingTheCallGraphPansIt)
{
    Opened o(app_profile(), FnId(kCompute));
    SelectionHistory& selection = o.selection;
    CallGraphView graph;
    const auto draw = [&] { graph.draw(o.ctx); };
    frame(draw);
    // main's box, above compute's, down the middle of the canvas; then
    // compute's (a click selects without moving the graph).
    const auto find = [&](FnId fn, float from) {
        for (float y = from; y < 700; y += 4) {
            click(draw, 640, y);
            if (selection.current().fn == fn)
                return y;
        }
        return -1.0f;
    };
    const float main_y = find(FnId(kMain), 60);
    ASSERT_GT(main_y, 0);
    ASSERT_GT(find(FnId(kCompute), main_y), 0);
    // A drag on the empty canvas moves everything by as much.
    drag(draw, ImVec2(30, 760), ImVec2(430, 760));
    click(draw, 640 + 400, main_y);
    EXPECT_EQ(selection.current().fn, FnId(kMain));
}

TEST_F(Headless, SandwichBoxesSelectTheirFunction)
{
    Opened o(app_profile(), FnId(kCompute));
    SelectionHistory& selection = o.selection;
    SharedCallTree shared;
    SandwichView sandwich(shared);
    const auto draw = [&] { sandwich.draw(o.ctx); };
    frame(draw);
    // compute's one callee, helper, fills the row under it in the lower
    // half, the lowest box of the view; clicking it makes helper the
    // middle.
    for (float y = 790; y > 60 && selection.current().fn != FnId(kHelper); y -= 4)
        click(draw, 400, y);
    EXPECT_EQ(selection.current().fn, FnId(kHelper));
}

TEST_F(Headless, HeapViewsDrawAndSelect)
{
    const auto heap_doc = document_of(app_profile_with_heap());
    const Document& doc = *heap_doc;
    SelectionHistory selection;
    ViewContext ctx{doc, nullptr, selection, 0};
    HeapView heap;
    const auto draw = [&] { heap.draw(ctx); };
    for (int i = 0; i < 3; ++i)
        EXPECT_GT(frame(draw), 500);

    // Clicking the first row of the site table (under the chart; its Site
    // column, whose header does not sort; the largest site first) selects
    // that site and the function that called the allocator.
    for (float y = 380; y < 600 && selection.current().kind != Selection::Kind::site; y += 4)
        click(draw, 20, y);
    ASSERT_EQ(selection.current().kind, Selection::Kind::site);
    EXPECT_EQ(selection.current().site, 0u);
    EXPECT_EQ(selection.current().fn, FnId(kHelper));

    // A drag across the chart selects the time range it covered, and keeps
    // the function selected.
    drag(draw, ImVec2(200, 200), ImVec2(600, 200));
    ASSERT_EQ(selection.current().kind, Selection::Kind::time_range);
    EXPECT_LT(selection.current().t0, selection.current().t1);
    EXPECT_EQ(selection.current().fn, FnId(kHelper));
    for (int i = 0; i < 2; ++i)
        EXPECT_GT(frame(draw), 500);  // the sites of the range

    // The call graph centres on that function and marks the site's stack.
    CallGraphView graph;
    for (int i = 0; i < 2; ++i)
        EXPECT_GT(frame([&] { graph.draw(ctx); }), 400);
}

TEST_F(Headless, HeapViewsDrawFromTheChanges)
{
    // Each panel with its tooltips, the chart hovered and dragged across,
    // from a profile that records the heap's changes, in stretches of one
    // instruction and of many.
    for (const uint64_t width : {1, 100}) {
        const auto heap_doc = document_of(app_profile_with_changes(width, kExactRows));
        SelectionHistory selection;
        ViewContext ctx{*heap_doc, nullptr, selection, 0};
        HeapView heap;
        const auto draw = [&] { heap.draw(ctx); };
        for (int i = 0; i < 2; ++i)
            EXPECT_GT(frame(draw), 500);
        drag(draw, ImVec2(200, 200), ImVec2(600, 200));
        ASSERT_EQ(selection.current().kind, Selection::Kind::time_range);
        heap.show_panel(HeapPanel::flamegraph);
        for (int i = 0; i < 2; ++i)
            EXPECT_GT(frame(draw), 500);
        click(draw, 400, 200);  // a moment
        for (int i = 0; i < 2; ++i)
            EXPECT_GT(frame(draw), 500);
    }
}

} // namespace
} // namespace vgprof::viewer
