// SPDX-License-Identifier: GPL-2.0-or-later
// vgprof-viewer in a real window (under Xvfb, see screens.sh): a profile of
// the matmul test program, recorded with cache and branch simulation and
// the heap, is opened with multiply_ijk selected and each view is written
// out with --screenshot. Each picture must have content, and the selected function's
// name must be drawn in the toolbar and inside the view itself, where the
// view shows the selection. The name is looked for as a picture of the text
// in the viewer's font (text_finder.hpp); a made-up name of the same length
// must not be found, so the check can tell. Then what real use brings: a
// profile that collected nothing, a stripped copy of matmul (its code shown
// as machine code), and callgrind's and DHAT's files of the same program.
#include "text_finder.hpp"

#include "../tool/harness.hpp"

#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

using namespace vgtest;

namespace {

constexpr int kWidth = 1280, kHeight = 800;
constexpr float kFontPixels = 15;  // the viewer's font size at scale 1
const char* const kSelected = "multiply_ijk";
const char* const kNotThere = "qzvbwx_kjfpy";
// A match this good is the text (the views' names score 0.87 to 0.94); a
// made-up name of the same length scores below 0.7 on these pictures.
constexpr double kFound = 0.80;

std::string env(const char* name)
{
    const char* v = std::getenv(name);
    if (!v)
        throw std::runtime_error(std::string(name) + " is not set (run through make check)");
    return v;
}

std::string font() { return env("VGPROF_TEST_FONT_DIR") + "/DejaVuSans.ttf"; }

// The directory of a file's path.
std::string fs_dir(const std::string& path) { return path.substr(0, path.rfind('/')); }

class ViewerScreens : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        dir_ = new TempDir;
        const RunResult r = run_tool("vgprof",
                                     {"--cache-sim=yes", "--branch-sim=yes", "--heap=yes",
                                      "--vgprof-out-file=" + (*dir_ / "matmul.json")},
                                     {progs_dir() + "/matmul"}, dir_->path());
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    static void TearDownTestSuite()
    {
        delete dir_;
        dir_ = nullptr;
    }

    // Runs the viewer on `profile` with extra arguments; returns its result.
    static RunResult viewer(const std::vector<std::string>& args)
    {
        std::vector<std::string> argv{env("VGPROF_TEST_VIEWER")};
        argv.insert(argv.end(), args.begin(), args.end());
        return run(argv, dir_->path());
    }

    // A screenshot of `view` with multiply_ijk selected.
    static std::string screenshot(const std::string& view)
    {
        const std::string png = *dir_ / (view + ".png");
        const RunResult r = viewer({*dir_ / "matmul.json", "--screenshot", png, "--view", view,
                                    "--select", kSelected, "--size",
                                    std::to_string(kWidth) + "x" + std::to_string(kHeight)});
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return png;
    }

    static TempDir* dir_;
};

TempDir* ViewerScreens::dir_ = nullptr;

// The toolbar line under the menu: "Selected: multiply_ijk (...)".
const Rect kToolbar{0, 20, kWidth, 55};
// Below the tabs, right of the function list: where each view draws.
const Rect kViewArea{kWidth / 4, 75, kWidth, kHeight - 30};
// The whole area under the tabs (the Functions tab has no side list).
const Rect kBody{0, 75, kWidth, kHeight - 30};

void expect_drawn(const std::string& png, Rect where, const std::string& what)
{
    const ColorStats colors = color_stats(png);
    EXPECT_GT(colors.colors, 50u) << png << " looks blank";
    EXPECT_LT(colors.commonest_share, 0.9) << png << " is mostly one color";
    const Grey image = load_png_luminance(png);
    ASSERT_EQ(image.width, kWidth);
    ASSERT_EQ(image.height, kHeight);
    EXPECT_GE(best_text_match(image, kToolbar, kSelected, font(), kFontPixels), kFound)
        << png << ": the selection is not named in the toolbar";
    EXPECT_GE(best_text_match(image, where, what, font(), kFontPixels), kFound)
        << png << ": \"" << what << "\" is not drawn in the view";
    EXPECT_LT(best_text_match(image, where, kNotThere, font(), kFontPixels), kFound - 0.08)
        << png << ": a name that is nowhere was found";
}

TEST_F(ViewerScreens, FunctionsTableShowsTheSelectedRow)
{
    expect_drawn(screenshot("functions"), kBody, kSelected);
}

TEST_F(ViewerScreens, TreeViewsShowTheSelectedFunction)
{
    // The call tree opens down to it, the bottom-up tree lists it, the
    // sandwich has it in the middle.
    for (const char* view : {"calltree", "bottomup", "sandwich"})
        expect_drawn(screenshot(view), kViewArea, kSelected);
}

TEST_F(ViewerScreens, CallGraphIsCentredOnTheSelectedFunction)
{
    // The centre box is in the middle of the canvas.
    const Rect centre{kWidth / 4, kHeight / 4, kWidth, kHeight * 3 / 4};
    expect_drawn(screenshot("callgraph"), centre, kSelected);
}

TEST_F(ViewerScreens, FlameGraphNamesTheSelectedFunctionsBox)
{
    expect_drawn(screenshot("flamegraph"), kViewArea, kSelected);
}

TEST_F(ViewerScreens, HeatmapListsTheSelectedFunction)
{
    expect_drawn(screenshot("heatmap"), kViewArea, kSelected);
}

TEST_F(ViewerScreens, SourceShowsTheFunctionsFile)
{
    // The header names the function; the code shows its definition.
    expect_drawn(screenshot("source"), kViewArea, kSelected);
}

TEST_F(ViewerScreens, HeapShowsTheChartAndItsLegend)
{
    // matmul allocates one block, stdout's buffer, when it prints: the
    // chart's one band, named in its legend, which the profile's record of
    // the heap's changes reads exactly.
    expect_drawn(screenshot("heap"), kViewArea, "Largest sites in the stretch");
}

// A screenshot of `profile` with extra viewer arguments; expects it written.
Grey shot_of(const std::string& profile, const std::string& png, std::vector<std::string> args)
{
    args.insert(args.begin(), {profile, "--screenshot", png, "--size",
                               std::to_string(kWidth) + "x" + std::to_string(kHeight)});
    std::vector<std::string> argv{env("VGPROF_TEST_VIEWER")};
    argv.insert(argv.end(), args.begin(), args.end());
    const RunResult r = run(argv, fs_dir(png));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return load_png_luminance(png);
}

bool shows(const Grey& image, Rect where, const std::string& text)
{
    return best_text_match(image, where, text, font(), kFontPixels) >= kFound;
}

TEST_F(ViewerScreens, AProfileThatCollectedNothingOpensInEveryView)
{
    const std::string profile = *dir_ / "empty.json";
    const RunResult r = run_tool("vgprof", {"--collect-atstart=no", "--vgprof-out-file=" + profile},
                                 {progs_dir() + "/matmul"}, dir_->path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* view : {"functions", "calltree", "bottomup", "sandwich", "callgraph", "flamegraph",
                             "heatmap", "source", "heap"}) {
        const Grey image = shot_of(profile, *dir_ / (std::string("empty-") + view + ".png"), {"--view", view});
        EXPECT_EQ(image.width, kWidth) << view;
    }
    const Grey graph = shot_of(profile, *dir_ / "empty-graph.png", {"--view", "callgraph"});
    EXPECT_TRUE(shows(graph, kViewArea, "This profile collected no costs and no calls"));
}

TEST_F(ViewerScreens, AStrippedProgramsCodeIsShownAsMachineCode)
{
    const std::string program = *dir_ / "matmul-stripped";
    ASSERT_EQ(run({"cp", progs_dir() + "/matmul", program}, dir_->path()).exit_code, 0);
    ASSERT_EQ(run({"strip", program}, dir_->path()).exit_code, 0);
    const std::string profile = *dir_ / "stripped.json";
    const RunResult r = run_tool("vgprof", {"--dump-instr=yes", "--vgprof-out-file=" + profile}, {program},
                                 dir_->path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Its functions have no names: they are one "???" of its object.
    const Grey source = shot_of(profile, *dir_ / "stripped-source.png",
                                {"--view", "source", "--select", "??? [matmul-stripped]"});
    EXPECT_TRUE(shows(source, kViewArea, "Its machine code:"));
    EXPECT_TRUE(shows(source, kViewArea, "Instruction"));
    // Code with no symbol is named by its function's start within its
    // object, as callgrind names it, the object beside it.
    const Grey tree = shot_of(profile, *dir_ / "stripped-tree.png", {"--view", "calltree"});
    EXPECT_TRUE(shows(tree, kViewArea, "0x0000000000001"));
    EXPECT_TRUE(shows(tree, kViewArea, "[matmul-stripped]"));
}

TEST_F(ViewerScreens, ACallgrindFileOpensAndSaysWhatItLacks)
{
    const std::string file = *dir_ / "callgrind.out.matmul";
    const RunResult r = run_tool("callgrind", {"--callgrind-out-file=" + file}, {progs_dir() + "/matmul"},
                                 dir_->path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Grey graph = shot_of(file, *dir_ / "callgrind-graph.png", {"--view", "callgraph", "--select", kSelected});
    EXPECT_TRUE(shows(graph, kViewArea, kSelected));
    const Grey tree = shot_of(file, *dir_ / "callgrind-tree.png", {"--view", "calltree"});
    EXPECT_TRUE(shows(tree, kViewArea, "A callgrind file records the calls between functions"));
}

TEST_F(ViewerScreens, ADhatFileOpensOnItsHeapWithoutATimeline)
{
    const std::string file = *dir_ / "dhat.out.matmul";
    const RunResult r = run_tool("dhat", {"--dhat-out-file=" + file}, {progs_dir() + "/matmul"}, dir_->path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Grey heap = shot_of(file, *dir_ / "dhat-heap.png", {});
    EXPECT_TRUE(shows(heap, kViewArea, "A DHAT file records the heap at its peak"));
    EXPECT_TRUE(shows(heap, kViewArea, "Flame graph of allocations"));
}

TEST_F(ViewerScreens, ABadProfileShowsTheErrorInTheWindow)
{
    const std::string bad = *dir_ / "bad.json";
    write_file(bad, "{\"vgprof\":2,\"meta\":[");
    const std::string png = *dir_ / "bad.png";
    const RunResult r = viewer({bad, "--screenshot", png, "--size",
                                std::to_string(kWidth) + "x" + std::to_string(kHeight)});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err.rfind("vgprof-viewer: " + bad + ":", 0), 0u) << r.err;
    const Grey image = load_png_luminance(png);
    EXPECT_GE(best_text_match(image, kBody, "The profile could not be opened:", font(), kFontPixels), kFound);
}

// --screenshot onto a symbolic link: the picture replaces the link, and
// the file the link named keeps its bytes (as everything vgprof writes).
TEST_F(ViewerScreens, AScreenshotReplacesALinkAtItsNameNotTheFileItNames)
{
    const std::string precious = *dir_ / "precious.txt", png = *dir_ / "linked.png";
    write_file(precious, "precious");
    ASSERT_EQ(symlink(precious.c_str(), png.c_str()), 0);
    const Grey image = shot_of(*dir_ / "matmul.json", png, {});
    EXPECT_EQ(image.width, kWidth);
    struct stat st;
    ASSERT_EQ(lstat(png.c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode)) << "the link is still there";
    EXPECT_TRUE(read_file(precious) == "precious") << "the link's target was written";
}

TEST_F(ViewerScreens, AnUnknownFunctionIsABadCommandLine)
{
    const std::string png = *dir_ / "none.png";
    const RunResult r = viewer({*dir_ / "matmul.json", "--screenshot", png, "--select", "no_such_function"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("no function is named \"no_such_function\""), std::string::npos) << r.err;
}

TEST_F(ViewerScreens, AThreadTheProfileDoesNotHaveIsABadCommandLine)
{
    const std::string png = *dir_ / "none.png";
    const RunResult r = viewer({*dir_ / "matmul.json", "--screenshot", png, "--thread", "2"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "vgprof-viewer: " + (*dir_ / "matmul.json") +
                         ": --thread needs per-thread call graphs, which this profile does not "
                         "have (recorded without --separate-threads=yes)\n");
}

// tests/progs/threads recorded with --separate-threads=yes: thread 2
// chosen, the toolbar's chooser names it, and the Source view (no
// per-thread figures) says it shows the whole program.
TEST_F(ViewerScreens, AThreadChosenIsNamedAndTheWholeProgramsViewsSaySo)
{
    const std::string profile = *dir_ / "threads.json";
    const RunResult rec = run_tool("vgprof", {"--separate-threads=yes", "--vgprof-out-file=" + profile},
                                   {progs_dir() + "/threads"}, dir_->path());
    ASSERT_EQ(rec.exit_code, 0) << rec.err;
    const std::string png = *dir_ / "thread.png";
    const RunResult r = viewer({profile, "--screenshot", png, "--view", "source", "--thread", "2",
                                "--select", "compute", "--size",
                                std::to_string(kWidth) + "x" + std::to_string(kHeight)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Grey image = load_png_luminance(png);
    EXPECT_GE(best_text_match(image, kToolbar, "Thread 2 (", font(), kFontPixels), kFound);
    EXPECT_GE(best_text_match(image, kViewArea, "Source shows the whole program", font(), kFontPixels),
              kFound);
    const RunResult none = viewer({profile, "--screenshot", *dir_ / "none.png", "--thread", "99"});
    EXPECT_EQ(none.exit_code, 2);
    EXPECT_NE(none.err.find(": no thread 99 in this profile (threads: 1 2"), std::string::npos)
        << none.err;
}

} // namespace

// tests/progs/phases recorded with its timeline: the Timeline draws its
// thread's lane and labels the marks; --range from the "loaded" mark to
// the "worked" one (read from the profile) narrows the Functions view,
// which says so. A profile recorded with --timeline=no says how to record one.
TEST_F(ViewerScreens, TimelineLabelsTheMarksAndARangeNarrowsTheFunctions)
{
    const std::string profile = *dir_ / "phases.json";
    const RunResult rec = run_tool("vgprof", {"--timeline=yes", "--vgprof-out-file=" + profile},
                                   {progs_dir() + "/phases"}, dir_->path());
    ASSERT_EQ(rec.exit_code, 0) << rec.err;
    const Grey timeline = shot_of(profile, *dir_ / "timeline.png", {"--view", "timeline", "--select", "work"});
    EXPECT_TRUE(shows(timeline, kViewArea, "thread 1"));
    EXPECT_TRUE(shows(timeline, kViewArea, "loaded"));
    EXPECT_FALSE(shows(timeline, kViewArea, kNotThere));

    const vgprof::Profile p = vgprof::load_profile(profile);
    ASSERT_NE(p.timeline(), nullptr);
    ASSERT_EQ(p.timeline()->marks.size(), 4u);
    const std::string range = std::to_string(p.timeline()->marks[1].time) + ":" +
                              std::to_string(p.timeline()->marks[2].time);
    const Grey narrowed = shot_of(profile, *dir_ / "range.png", {"--view", "functions", "--range", range});
    EXPECT_TRUE(shows(narrowed, kBody, "Costs in the range"));
    const Grey whole = shot_of(profile, *dir_ / "norange.png", {"--view", "functions"});
    EXPECT_FALSE(shows(whole, kBody, "Costs in the range"));

    const std::string untimed = *dir_ / "phases-untimed.json";
    const RunResult rec_untimed = run_tool("vgprof", {"--timeline=no", "--vgprof-out-file=" + untimed},
                                           {progs_dir() + "/phases"}, dir_->path());
    ASSERT_EQ(rec_untimed.exit_code, 0) << rec_untimed.err;
    const Grey none = shot_of(untimed, *dir_ / "notimeline.png", {"--view", "timeline"});
    EXPECT_TRUE(shows(none, kViewArea, "This profile has no timeline of calls"));
    const RunResult empty = viewer({profile, "--screenshot", *dir_ / "bad.png", "--range", "5:3"});
    EXPECT_EQ(empty.exit_code, 2);
    EXPECT_NE(empty.err.find("--range: the range 5:3 is empty: A must be below B"), std::string::npos)
        << empty.err;
}
