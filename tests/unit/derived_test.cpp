// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of derived events (vgprof/derived.hpp) on the cache
// fixture (report_fixture.hpp), worked out by hand from its costs:
//   function  L1m              LLm           TotalRW             L1hits  LLhits  RamHits
//   work      80+100+50 = 230  8+20+10 = 38  8000+2000+1000      10770   192     38
//                                            = 11000
//   main      20+0+150 = 170   2+0+30 = 32   2000+0+1000 = 3000  2830    138     32
//   total     400              70            14000               13600   330     70
// EstimatedCycles = L1hits + 5*LLhits + 35*RamHits: work 10770+960+1330 =
// 13060, main 2830+690+1120 = 4640, total 17700. CEst = Ir + 10*L1m +
// 100*LLm + 10*Bm: work 8000+2300+3800+750 = 14850 (Bm = Bcm 50 + Bim 25),
// main 2000+1700+3200+0 = 6900, total 21750.
#include "diff_fixture.hpp"
#include "error_of.hpp"

#include "cli/commands.hpp"
#include "vgprof/derived.hpp"
#include "vgprof/query.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace vgprof {
namespace {

using test::error_of;
using test::load;

// The self cost of `event` of the function named `name`.
uint64_t self_of(const Profile& p, const std::string& name, const std::string& event)
{
    const size_t e = *p.event_index(event);
    for (const FunctionCost& c : function_self_costs(p))
        if (p.fn_name(c.fn) == name)
            return c.self[e];
    throw std::runtime_error("no function " + name);
}

uint64_t total_of(const Profile& p, const std::string& event)
{
    return p.meta().totals[*p.event_index(event)];
}

TEST(DerivedEvents, CacheHitsAndEstimatedCyclesAreWeightedSumsOfTheRecordedEvents)
{
    Profile p = load(test::cache_profile());
    add_all_derived_events(p);
    EXPECT_EQ(p.num_events(), 13u + 9u);
    EXPECT_EQ(p.meta().events[13], "L1m");
    for (const auto& [event, work, main, total] :
         std::vector<std::tuple<std::string, uint64_t, uint64_t, uint64_t>>{
             {"L1m", 230, 170, 400},
             {"LLm", 38, 32, 70},
             {"Bm", 75, 0, 75},
             {"TotalRW", 11000, 3000, 14000},
             {"L1hits", 10770, 2830, 13600},
             {"LLhits", 192, 138, 330},
             {"RamHits", 38, 32, 70},
             {"EstimatedCycles", 13060, 4640, 17700},
             {"CEst", 14850, 6900, 21750}}) {
        EXPECT_EQ(self_of(p, "work", event), work) << event;
        EXPECT_EQ(self_of(p, "main", event), main) << event;
        EXPECT_EQ(total_of(p, event), total) << event;
    }
    // The recorded events are as they were.
    EXPECT_EQ(self_of(p, "work", "Ir"), 8000u);
    EXPECT_EQ(total_of(p, "Bim"), 25u);
}

TEST(DerivedEvents, InclusiveCostsAndCallsGetThemToo)
{
    Profile p = load(test::cache_call_graph_profile());
    add_derived_events(p, {"EstimatedCycles"});
    ASSERT_EQ(p.num_events(), 14u);
    const size_t e = 13;
    // main's inclusive cost is the total, work's its own (see the fixture).
    EXPECT_EQ(p.fn_inclusive(FnId(0))[e], 17700u);
    EXPECT_EQ(p.fn_inclusive(FnId(1))[e], 13060u);
    EXPECT_EQ(p.call_cost(0)[e], 13060u);
    EXPECT_EQ(p.path_self(0)[e], 4640u);
    EXPECT_EQ(p.path_inclusive(0)[e], 17700u);
}

TEST(DerivedEvents, TheCostsOfInlinedCodeGetThemToo)
{
    // main's app.c:12 (200 Ir of its 1200) is helper's code, inlined.
    test::ProfileText t;
    t.set("vgprof", "7")
        .set("strs", R"(["???","/usr/bin/app","/src/app.c","helper","main","work"])")
        .set("fns", "[[4,1,0,10],[5,1,0,3],[3,0,0,0,1]]")
        .set("lines", "[[0,1,11,1000],[0,1,12,200],[1,1,4,2484747]]")
        .set("inlines", "[[2,null,1,11]]")
        .set("inline_lines", "[[0,0,1,12,200]]");
    Profile p = load(t);
    add_derived_events(p, {"Twice"}, {parse_derived_event("Twice = 2 Ir", "--derive")});
    ASSERT_EQ(p.num_events(), 2u);
    ASSERT_EQ(p.inlined_lines().size(), 1u);
    EXPECT_EQ(p.inlined_line_cost(0)[0], 200u);
    EXPECT_EQ(p.inlined_line_cost(0)[1], 400u);
}

TEST(DerivedEvents, KCachegrindsEstimateLeavesOutBranchesNotSimulated)
{
    test::ProfileText t = test::cache_profile();
    // The first nine events only: no branch simulation.
    t.set_meta("events", R"(["Ir","I1mr","ILmr","Dr","D1mr","DLmr","Dw","D1mw","DLmw"])");
    t.set_meta("cache", R"({"I1":[32768,8,64],"D1":[32768,8,64],"LL":[8388608,16,64],)"
                        R"("branches":false})");
    t.set_meta("totals", "[10000,100,10,2000,100,20,2000,200,40]");
    t.set("lines", "[[0,1,11,2000,20,2,0,0,0,1000,150,30],[1,1,4,8000,80,8,2000,100,20,1000,50,10]]");
    Profile p = load(t);
    const auto available = available_derived_events(p, {});
    EXPECT_FALSE(is_derived(available, "Bm"));
    EXPECT_TRUE(is_derived(available, "CEst"));
    add_derived_events(p, {"CEst"});
    EXPECT_EQ(self_of(p, "work", "CEst"), 14100u);  // 14850 without 10*Bm
}

TEST(DerivedEvents, WeightsCanBeRedefinedAndNewEventsDefined)
{
    Profile p = load(test::cache_profile());
    add_derived_events(p, {"CEst", "Misses"},
                       {parse_derived_event("CEst = Ir + 20 L1m", "--derive"),
                        parse_derived_event("Misses=L1m+LLm", "--derive")});
    EXPECT_EQ(self_of(p, "work", "CEst"), 8000u + 20 * 230);
    EXPECT_EQ(self_of(p, "work", "Misses"), 230u + 38);
}

TEST(DerivedEvents, WhatCannotBeDerivedOrIsMalformedIsAnError)
{
    Profile ir_only = load(test::two_event_profile());
    EXPECT_TRUE(available_derived_events(ir_only, {}).empty());
    EXPECT_EQ(error_of([&] { add_derived_events(ir_only, {"CEst"}); }),
              "no event \"CEst\" recorded or derivable (derivable here: none)");
    EXPECT_EQ(error_of([] { parse_derived_event("CEst", "--derive"); }),
              "--derive: \"CEst\": no '=' (expected NAME=FORMULA, e.g. CEst=Ir+10*L1m+100*LLm)");
    EXPECT_EQ(error_of([] { parse_derived_event("X=Ir+*Dr", "--derive"); }),
              "--derive: \"X=Ir+*Dr\": \"*Dr\" is not an event name (expected terms such as Ir + "
              "10*L1m + 100*LLm)");
    EXPECT_EQ(error_of([] { parse_derived_event("X=X+Ir", "--derive"); }),
              "--derive: \"X=X+Ir\": the formula names the event it defines");
    // The totals are derived first: 10000 - 2*10000.
    Profile p = load(test::cache_profile());
    EXPECT_EQ(error_of([&] {
                  add_derived_events(p, {"Less"}, {parse_derived_event("Less=Ir-2*Ir", "x")});
              }),
              "derived event Less = Ir-2*Ir comes out negative (-10000): a formula must not "
              "subtract more than it adds");
    EXPECT_EQ(error_of([&] {
                  available_derived_events(p, {parse_derived_event("Ir=Dr", "x")});
              }),
              "derived event Ir: a recorded event has that name");
}

TEST(DerivedEvents, TheReportShowsADerivedEventNamedByEventsOrSort)
{
    Profile p = load(test::cache_profile());
    cli::ReportOptions o;
    o.profile = "p.json";
    o.events = {"Ir", "EstimatedCycles"};
    cli::add_report_derived_events(p, o);
    std::ostringstream out;
    o.format = "json";
    cli::write_report(out, p, o);
    EXPECT_NE(out.str().find(R"("totals":{"Ir":10000,"EstimatedCycles":17700})"),
              std::string::npos)
        << out.str();
}

} // namespace
} // namespace vgprof
