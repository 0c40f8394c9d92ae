// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of the timeline's exports: the Chrome trace event format
// (vgprof/export_chrome.hpp) and speedscope's evented profiles
// (write_speedscope_timeline), on timeline_fixture.hpp's profile: main
// (fn 0) open over [0, 2485947], work (fn 1) over [600, 2485347] costing
// 2484747 Ir, marks "work begins" at 600 and "work done" at 2485347.
#include "diff_fixture.hpp"
#include "error_of.hpp"
#include "timeline_fixture.hpp"

#include "vgprof/export_chrome.hpp"
#include "vgprof/export_speedscope.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <sstream>

namespace vgprof {
namespace {

using test::error_of;
using test::timeline;
using test::with_timeline;

template <void (*write)(std::ostream&, const Profile&)>
std::string exported(const test::ProfileText& text)
{
    std::ostringstream out;
    write(out, test::load(text));
    return out.str();
}

std::string json(const boost::json::value& v) { return boost::json::serialize(v); }

// The trace's events of phase `ph`, as JSON text.
std::vector<std::string> events_of(const std::string& trace, const char* ph)
{
    std::vector<std::string> out;
    const boost::json::value parsed = boost::json::parse(trace);
    for (const auto& e : parsed.at("traceEvents").as_array())
        if (e.at("ph").as_string() == ph)
            out.push_back(json(e));
    return out;
}

TEST(ExportChrome, ACompleteEventPerSpanInInstructionTimeWithItsCosts)
{
    const std::string trace = exported<write_chrome_trace>(with_timeline(timeline()));
    EXPECT_EQ(events_of(trace, "X"),
              (std::vector<std::string>{
                  R"({"ph":"X","cat":"call","name":"main","tid":1,"ts":0,"dur":2485947,)"
                  R"("args":{"Ir":2485947,"open":true},"pid":4242})",
                  R"({"ph":"X","cat":"call","name":"work","tid":1,"ts":600,"dur":2484747,)"
                  R"("args":{"Ir":2484747},"pid":4242})"}));
    EXPECT_EQ(boost::json::parse(trace).at("otherData").at("clock").as_string(),
              "time: 1 instruction executed = 1 \u00b5s");
}

TEST(ExportChrome, MarksAreGlobalInstantsAndTheProcessAndThreadsAreNamed)
{
    const std::string trace = exported<write_chrome_trace>(with_timeline(timeline()));
    EXPECT_EQ(events_of(trace, "i"),
              (std::vector<std::string>{
                  R"({"ph":"i","s":"g","cat":"mark","name":"work begins","tid":1,"ts":600,)"
                  R"("args":{"Ir":600},"pid":4242})",
                  R"({"ph":"i","s":"g","cat":"mark","name":"work done","tid":1,"ts":2485347,)"
                  R"("args":{"Ir":2485347},"pid":4242})"}));
    const std::vector<std::string> meta = events_of(trace, "M");
    EXPECT_NE(std::find(meta.begin(), meta.end(),
                        R"({"ph":"M","name":"thread_name","tid":1,"args":{"name":"thread 1"},)"
                        R"("pid":4242})"),
              meta.end())
        << trace;
    EXPECT_NE(std::find(meta.begin(), meta.end(),
                        R"({"ph":"M","name":"process_name","tid":0,"args":{"name":"app"},)"
                        R"("pid":4242})"),
              meta.end())
        << trace;
    // Without the heap, no heap counter.
    EXPECT_EQ(events_of(trace, "C"), std::vector<std::string>{});
}

TEST(ExportSpeedscopeTimeline, OpensAndClosesEachThreadsCallsInTimeOrder)
{
    const std::string file = exported<write_speedscope_timeline>(with_timeline(timeline()));
    const boost::json::value parsed = boost::json::parse(file);
    const boost::json::array& profiles = parsed.at("profiles").as_array();
    ASSERT_EQ(profiles.size(), 1u);
    EXPECT_EQ(json(profiles[0]),
              R"({"type":"evented","name":"thread 1: instructions in time order","unit":"none",)"
              R"("startValue":0,"endValue":2485947,"events":[{"type":"O","frame":0,"at":0},)"
              R"({"type":"O","frame":1,"at":600},{"type":"C","frame":1,"at":2485347},)"
              R"({"type":"C","frame":0,"at":2485947}]})");
}

// Two spans of a thread that overlap without nesting cannot be drawn as
// calls: refused, naming both, with nothing written.
TEST(ExportTimeline, SpansThatOverlapWithoutNestingAreRefused)
{
    const test::ProfileText text = with_timeline(
        timeline("[[1,1,1,1,600,2485347,0,2484747],[1,0,0,0,0,1000,0,1000]]", "[]"));
    const std::string chrome = error_of([&] { exported<write_chrome_trace>(text); });
    EXPECT_EQ(chrome, "the timeline's calls of thread 1 overlap: main [0, 1000] and work [600, "
                      "2485347]");
    EXPECT_EQ(error_of([&] { exported<write_speedscope_timeline>(text); }), chrome);
}

TEST(ExportTimeline, AProfileWithoutATimelineIsRefusedNamingTheOption)
{
    std::ostringstream out;
    const Profile p = test::load(test::ProfileText());
    EXPECT_NE(error_of([&] { write_chrome_trace(out, p); }).find("--timeline=yes"),
              std::string::npos);
    EXPECT_NE(error_of([&] { write_speedscope_timeline(out, p); }).find("--timeline=yes"),
              std::string::npos);
    EXPECT_EQ(out.str(), "");
}

} // namespace
} // namespace vgprof
