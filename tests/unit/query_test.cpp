// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of the per-function queries and number formatting.
#include "profile_text.hpp"
#include "report_fixture.hpp"

#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

#include <gtest/gtest.h>

namespace vgprof {
namespace {

std::vector<std::string> names(const Profile& p, const std::vector<FunctionCost>& costs)
{
    std::vector<std::string> out;
    for (const FunctionCost& c : costs)
        out.push_back(p.fn_name(c.fn));
    return out;
}

TEST(FunctionSelfCosts, SumEveryLineOfEachFunctionPerEvent)
{
    const Profile p = parse_profile(test::two_event_profile().str(), "p.json");
    const std::vector<FunctionCost> costs = function_self_costs(p);
    ASSERT_EQ(costs.size(), 4u);
    EXPECT_EQ(costs[0].fn, FnId(0));
    EXPECT_EQ(costs[0].self, (std::vector<uint64_t>{1500, 3990}));  // memset: one line
    EXPECT_EQ(costs[1].self, (std::vector<uint64_t>{400, 0}));      // helper
    EXPECT_EQ(costs[2].self, (std::vector<uint64_t>{100, 10}));     // main
    EXPECT_EQ(costs[3].self, (std::vector<uint64_t>{8000, 1000}));  // work
}

TEST(FunctionSelfCosts, LinesFromAnotherFileCountForTheFunctionTheyWereInlinedInto)
{
    // work (fn 1) runs line 4 of app.c and line 9 of the "???" file: 2484747 + 5.
    const Profile p = parse_profile(test::ProfileText()
                                        .set("lines", "[[0,1,11,1200],[1,0,9,5],[1,1,4,2484747]]")
                                        .set_meta("totals", "[2485952]")
                                        .str(),
                                    "p.json");
    EXPECT_EQ(function_self_costs(p)[1].self[0], 2484752u);
}

TEST(FunctionSelfCosts, FunctionWithoutLinesCostsZeroAndCanBeDropped)
{
    const Profile p = parse_profile(test::ProfileText()
                                        .set("lines", "[[1,1,4,2485947]]")
                                        .str(),
                                    "p.json");
    std::vector<FunctionCost> costs = function_self_costs(p);
    EXPECT_EQ(costs[0].self[0], 0u);
    drop_zero_costs(costs);
    EXPECT_EQ(names(p, costs), (std::vector<std::string>{"work"}));
}

TEST(SortByCost, HighestCostOfTheChosenEventComesFirst)
{
    const Profile p = parse_profile(test::two_event_profile().str(), "p.json");
    std::vector<FunctionCost> costs = function_self_costs(p);
    sort_by_cost(costs, p, 0);
    EXPECT_EQ(names(p, costs), (std::vector<std::string>{"work", "memset", "helper", "main"}));
    sort_by_cost(costs, p, 1);
    EXPECT_EQ(names(p, costs), (std::vector<std::string>{"memset", "work", "main", "helper"}));
}

TEST(SortByCost, EqualCostsAreOrderedByNameThenFile)
{
    // Ids deliberately out of name order: fn 0 "b", fn 1 "a" in /z.c, fn 2 "a" in /y.c.
    const std::string text = test::ProfileText()
                                 .set("strs", R"(["/obj","/y.c","/z.c","a","b"])")
                                 .set("objs", "[0]")
                                 .set("files", "[1,2]")
                                 .set("fns", "[[4,0,0,1],[3,1,0,1],[3,0,0,1]]")
                                 .set("lines", "[[0,0,1,7],[1,1,1,7],[2,0,1,7]]")
                                 .set_meta("totals", "[21]")
                                 .drop("instrs")
                                 .str();
    const Profile p = parse_profile(text, "p.json");
    std::vector<FunctionCost> costs = function_self_costs(p);
    sort_by_cost(costs, p, 0);
    ASSERT_EQ(costs.size(), 3u);
    EXPECT_EQ(costs[0].fn, FnId(2));  // a, /y.c
    EXPECT_EQ(costs[1].fn, FnId(1));  // a, /z.c
    EXPECT_EQ(costs[2].fn, FnId(0));  // b
}

TEST(SumCosts, AddsEachEventSeparately)
{
    const std::vector<FunctionCost> costs = {{FnId(0), {1, 10}}, {FnId(1), {2, 20}}};
    EXPECT_EQ(sum_costs(costs, 2), (std::vector<uint64_t>{3, 30}));
}

TEST(FormatThousands, GroupsDigitsInThreesWithCommas)
{
    EXPECT_EQ(format_thousands(0), "0");
    EXPECT_EQ(format_thousands(999), "999");
    EXPECT_EQ(format_thousands(1000), "1,000");
    EXPECT_EQ(format_thousands(100000), "100,000");
    EXPECT_EQ(format_thousands(2485947), "2,485,947");
    EXPECT_EQ(format_thousands(UINT64_MAX), "18,446,744,073,709,551,615");
}

} // namespace
} // namespace vgprof
