// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of the speedscope export (vgprof/export_speedscope.hpp) on
// the format's sample and the heap fixture (heap_fixture.hpp): main (fn 0,
// app.c:10) costs 1200 Ir of its own and calls work (fn 1, app.c:3), 2484747
// Ir; site 0 allocated 1000 bytes under work called from main, 300 of them
// live at the peak, site 1 2000 bytes in main, all live at the peak.
#include "error_of.hpp"
#include "heap_fixture.hpp"
#include "report_fixture.hpp"

#include "vgprof/export_speedscope.hpp"
#include "vgprof/load.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <sstream>

namespace vgprof {
namespace {

using test::ProfileText;

boost::json::object speedscope(const ProfileText& text)
{
    std::ostringstream out;
    write_speedscope(out, parse_profile(text.str(), "p.json"));
    return boost::json::parse(out.str()).as_object();
}

std::string json(const boost::json::value& v) { return boost::json::serialize(v); }

TEST(ExportSpeedscope, NamesTheSchemaTheCommandAndAFramePerFunction)
{
    const boost::json::object f = speedscope(ProfileText());
    EXPECT_EQ(f.at("$schema").as_string(), "https://www.speedscope.app/file-format-schema.json");
    EXPECT_EQ(f.at("name").as_string(), "./app -n 3");
    EXPECT_EQ(f.at("activeProfileIndex").as_int64(), 0);
    EXPECT_EQ(json(f.at("shared")),
              R"({"frames":[{"name":"main","file":"/src/app.c","line":10},)"
              R"({"name":"work","file":"/src/app.c","line":3},{"name":"[truncated]"}]})");
}

TEST(ExportSpeedscope, AnEventsProfileHasASamplePerPathNodeWithItsSelfCost)
{
    const boost::json::object f = speedscope(ProfileText());
    const boost::json::array& profiles = f.at("profiles").as_array();
    ASSERT_EQ(profiles.size(), 1u);
    EXPECT_EQ(json(profiles[0]),
              R"({"type":"sampled","name":"Ir","unit":"none","samples":[[0],[0,1]],)"
              R"("weights":[1200,2484747],"startValue":0,"endValue":2485947})");
}

TEST(ExportSpeedscope, HeapProfilesWeighSitesByBytesAllocatedAndAtThePeakWithEachCallsLine)
{
    const boost::json::array profiles = speedscope(test::with_heap()).at("profiles").as_array();
    ASSERT_EQ(profiles.size(), 3u);
    // Stacks outermost first, each frame at the line of its call: site 0
    // is main (app.c:20) -> work (app.c:5), site 1 main (app.c:22) alone;
    // those frames follow the functions' and [truncated].
    EXPECT_EQ(json(profiles[1]),
              R"({"type":"sampled","name":"heap: bytes allocated","unit":"bytes",)"
              R"("samples":[[4,3],[5]],"weights":[1000,2000],"startValue":0,"endValue":3000})");
    const boost::json::object file = speedscope(test::with_heap());
    const boost::json::array& frames = file.at("shared").at("frames").as_array();
    ASSERT_EQ(frames.size(), 6u);
    EXPECT_EQ(json(frames[3]), R"({"name":"work","file":"/src/app.c","line":5})");
    EXPECT_EQ(json(frames[4]), R"({"name":"main","file":"/src/app.c","line":20})");
    EXPECT_EQ(json(frames[5]), R"({"name":"main","file":"/src/app.c","line":22})");
    EXPECT_EQ(json(profiles[2].at("weights")), "[300,2000]");
    EXPECT_EQ(profiles[2].at("endValue").as_int64(), 2300);
}

// Nodes without a cost of the event are left out: D1mr has misses in work
// only; the [truncated] node is the frame after the functions.
TEST(ExportSpeedscope, LeavesOutNodesOfNoCostAndNamesTheTruncatedNode)
{
    ProfileText p;
    p.set_meta("events", R"(["Ir","D1mr"])").set_meta("totals", "[2485947,7]");
    p.set("lines", "[[0,1,11,1200,0],[1,1,4,2484747,7]]").drop("instrs");
    p.set("calls", "[[0,1,1,12,1,2484747,7]]");
    p.set("inclusive", "[[0,2485947,7],[1,2484747,7]]");
    p.set("paths", "[[null,0,0,1200,0,2485947,7],[0,null,1,2484747,7,2484747,7]]");
    const boost::json::array profiles = speedscope(p).at("profiles").as_array();
    ASSERT_EQ(profiles.size(), 2u);
    EXPECT_EQ(json(profiles[1].at("samples")), "[[0,2]]");
    EXPECT_EQ(json(profiles[1].at("weights")), "[7]");
}

TEST(ExportSpeedscope, WithoutACallGraphWritesTheHeapOnly)
{
    const boost::json::array profiles =
        speedscope(test::with_heap().drop_call_graph()).at("profiles").as_array();
    ASSERT_EQ(profiles.size(), 2u);
    EXPECT_EQ(profiles[0].at("name").as_string(), "heap: bytes allocated");
}

TEST(ExportSpeedscope, RefusesAProfileWithNeitherCallGraphNorHeap)
{
    EXPECT_EQ(test::error_of([] { speedscope(ProfileText().drop_call_graph()); }),
              "speedscope needs the call-path tree or the heap, and the profile has neither "
              "(no call-path tree: recorded with --call-graph=no; no heap: recorded with "
              "--heap=no, or by a vgprof older than format version 3)");
}

// A callgrind file has calls but no paths: nothing to draw a flame graph from.
TEST(ExportSpeedscope, RefusesACallgrindFileWhichHasNoCallPaths)
{
    const Profile callgrind = parse_profile("# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n"
                                            "cmd: ./app\npositions: line\nevents: Ir\n"
                                            "fl=/src/app.c\nfn=main\n10 100\ntotals: 100\n",
                                            "callgrind.out");
    std::ostringstream out;
    EXPECT_NE(test::error_of([&] { write_speedscope(out, callgrind); })
                  .find("no call-path tree: a callgrind file records calls, not the paths that "
                        "led to them"),
              std::string::npos);
    EXPECT_EQ(out.str(), "");
}

// two_thread_profile (report_fixture.hpp): after the whole program's Ir
// and Dr, a profile per event and thread. Thread 2's Ir is its nodes 5-7,
// work 2500, work;memset 400 and work;work 1500 (frames: 0 memset, 3 work),
// 4400 in all, its THREAD 2 TOTALS; thread 1's nodes 0-4 add up to 5600 Ir
// and 3800 Dr, thread 2's to 1200 Dr.
TEST(ExportSpeedscope, ProfileWithThreadsHasAProfilePerEventAndThreadAfterTheWholePrograms)
{
    const boost::json::array profiles = speedscope(test::two_thread_profile()).at("profiles").as_array();
    std::vector<std::string> names;
    std::vector<int64_t> ends;
    for (const auto& p : profiles) {
        names.emplace_back(p.at("name").as_string());
        ends.push_back(p.at("endValue").to_number<int64_t>());
    }
    ASSERT_EQ(names, (std::vector<std::string>{"Ir", "Dr", "thread 1: Ir", "thread 2: Ir",
                                               "thread 1: Dr", "thread 2: Dr"}));
    EXPECT_EQ(ends, (std::vector<int64_t>{10000, 5000, 5600, 4400, 3800, 1200}));
    EXPECT_EQ(json(profiles[3]),
              R"({"type":"sampled","name":"thread 2: Ir","unit":"none","samples":[[3],[3,0],[3,3]],)"
              R"("weights":[2500,400,1500],"startValue":0,"endValue":4400})");
}

} // namespace
} // namespace vgprof
