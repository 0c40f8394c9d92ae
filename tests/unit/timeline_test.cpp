// SPDX-License-Identifier: GPL-2.0-or-later
// The timeline section (format version 10) as the loader reads and checks
// it, and the phases computed from its marks, on timeline_fixture.hpp's
// profile; each hostile case changes one thing and must be refused with a
// message naming it.
#include "diff_fixture.hpp"
#include "error_of.hpp"
#include "timeline_fixture.hpp"

#include "vgprof/timeline.hpp"

#include <gtest/gtest.h>

namespace vgprof {
namespace {

using test::error_of;
using test::kMarks;
using test::kSpans;
using test::ProfileText;
using test::timeline;
using test::with_timeline;

std::string load_error(const std::string& text)
{
    return error_of([&] { test::load(with_timeline(text)); });
}

TEST(TimelineLoad, SpansAndMarksAreReadAsWritten)
{
    const Profile p = test::load(with_timeline(timeline()));
    const Timeline* t = p.timeline();
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->threshold, 2u);
    ASSERT_EQ(t->spans.size(), 2u);
    EXPECT_EQ(p.fn_name(t->spans[0].fn), "work");
    EXPECT_EQ(t->spans[0].start, 600u);
    EXPECT_FALSE(t->spans[0].open);
    EXPECT_TRUE(t->spans[1].open);
    EXPECT_EQ(p.span_cost(0)[0], 2484747u);
    ASSERT_EQ(t->marks.size(), 2u);
    EXPECT_EQ(t->marks[1].label, "work done");
    EXPECT_EQ(t->marks[1].live_bytes, 4000u);
}

TEST(TimelineLoad, AProfileWithoutOneHasNone)
{
    EXPECT_EQ(test::load(ProfileText()).timeline(), nullptr);
}

TEST(TimelinePhases, EachPhaseCostsTheDifferenceOfItsBounds)
{
    const Profile p = test::load(with_timeline(timeline()));
    const std::vector<TimelinePhase> phases = timeline_phases(*p.timeline(), 10);
    ASSERT_EQ(phases.size(), 3u);
    EXPECT_EQ(phases[0].from, "");
    EXPECT_EQ(phases[0].to, "work begins");
    EXPECT_EQ(phases[0].costs[0], 600u);
    EXPECT_EQ(phases[1].costs[0], 2485347u - 600u);
    EXPECT_EQ(phases[1].live_bytes, 4000u);
    EXPECT_EQ(phases[1].bytes_change, 4000);
    EXPECT_EQ(phases[2].bytes_change, -4000);
    EXPECT_EQ(phases[2].costs[0], 600u);
    // work's span lies in the middle phase; main's spans all three.
    EXPECT_EQ(phases[1].spans, std::vector<size_t>{0});
    EXPECT_TRUE(phases[0].spans.empty());
}

TEST(TimelineLoad, BadTimelinesAreRefusedNamingTheProblem)
{
    const struct {
        std::string text, message;
    } cases[] = {
        {timeline("[[1,1,1,7,600,2485347,0,2484747]]"), "timeline.spans[0][3]: node id 7 out of range (2 path nodes)"},
        {timeline("[[1,1,9,1,600,2485347,0,2484747]]"), "timeline.spans[0][2]: fn id 9 out of range (2 functions)"},
        {timeline("[[1,1,0,1,600,2485347,0,2484747]]"), "is function 1's, not the span's (0)"},
        {timeline("[[1,1,1,1,900,600,0,2484747]]"), "the span ends (600) before it starts (900)"},
        {timeline("[[1,1,1,1,600,601,0,2484747]]"), "less than the threshold (2)"},
        {timeline("[[1,1,1,1,600,9999999,0,2484747]]"), "lies outside the period"},
        {timeline("[[1,1,1,1,600,2485347,2,2484747]]"), "expected 0 or 1 (open), got 2"},
        {timeline("[[1,1,1,1,600,2485347,0]]"), "timeline.spans[0]"},
        {timeline(kSpans, R"([[900,1,"b",0,0,900],[600,1,"a",0,0,600]])"), "out of order"},
        {timeline(kSpans, R"([[600,1,"a",0,0,9999999]])"), "the total of Ir (9999999) is not between"},
        {timeline(kSpans, R"([[600,1,7,0,0,600]])"), "timeline.marks[0][2]: expected a string"},
        {timeline(kSpans, R"([[600,1,"a",0,0]])"), "expected 6 entries"},
        {timeline(kSpans, kMarks, R"(,"colour":1)"), "unknown key \"colour\" in the timeline"},
    };
    for (const auto& c : cases)
        EXPECT_NE(load_error(c.text).find(c.message), std::string::npos)
            << c.message << "\n  got: " << load_error(c.text);
}

TEST(TimelineLoad, MoreSpansThanTheProfileSaysItKeepsAreRefused)
{
    std::string spans = "[";
    for (int i = 0; i < 101; ++i)
        spans += std::string(i ? "," : "") + "[1,1,1,1,600,2485347,0,2484747]";
    EXPECT_NE(load_error(timeline(spans + "]")).find("101 spans, more than max_spans (100)"),
              std::string::npos);
}

TEST(TimelineLoad, NeedsVersion10AndTheCallGraph)
{
    EXPECT_NE(error_of([] { test::load(with_timeline(timeline(), "9")); })
                  .find("unknown top-level key \"timeline\""),
              std::string::npos);
    ProfileText p = with_timeline(timeline());
    p.drop_call_graph();
    EXPECT_NE(error_of([&] { test::load(p); }).find("a timeline needs the call graph"),
              std::string::npos);
}

} // namespace
} // namespace vgprof
