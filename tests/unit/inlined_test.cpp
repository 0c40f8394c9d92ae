// SPDX-License-Identifier: GPL-2.0-or-later
// An inlined function's costs (format version 7): its own code from
// inline_lines, where it was inlined from inlines, the calls made from its
// code from the call-path tree; and report --function's view of it.
#include "profile_text.hpp"

#include "cli/commands.hpp"
#include "vgprof/error.hpp"
#include "vgprof/inlined.hpp"
#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace vgprof {
namespace {

// helper (fn 2) is inlined at app.c:11 of main; its code there, app.c:12,
// costs 200 of main's 1200, and the call of work is made from it.
test::ProfileText inlined_profile()
{
    test::ProfileText p;
    p.set("vgprof", "7");
    p.set("strs", R"(["???","/usr/bin/app","/src/app.c","helper","main","work"])");
    p.set("fns", "[[4,1,0,10],[5,1,0,3],[3,0,0,0,1]]");
    p.set("lines", "[[0,1,11,1000],[0,1,12,200],[1,1,4,2484747]]");
    p.set("inlines", "[[2,null,1,11]]");
    p.set("inline_lines", "[[0,0,1,12,200]]");
    p.drop("instrs");
    p.set("calls", "[[0,1,1,12,1,2484747]]");
    p.set("inclusive", "[[0,2485947],[1,2484747]]");
    p.set("paths", "[[null,0,0,1200,2485947],[0,2,0,0,2484747],[1,1,1,2484747,2484747]]");
    return p;
}

TEST(InlinedFunction, OwnCodeWhereItWasInlinedAndTheCallsFromItsCode)
{
    const Profile p = parse_profile(inlined_profile().str(), "app.json");
    ASSERT_TRUE(p.function(FnId(2)).inlined);
    const InlinedFunctionCost c = inlined_function_cost(p, FnId(2));
    EXPECT_EQ(c.self, std::vector<uint64_t>{200});
    EXPECT_EQ(c.inclusive, std::vector<uint64_t>{200 + 2484747});
    ASSERT_EQ(c.inlined_into.size(), 1u);
    EXPECT_EQ(c.inlined_into[0].fn, FnId(0));
    EXPECT_EQ(c.inlined_into[0].site->line, 11u);
    EXPECT_EQ(c.inlined_into[0].count, 0u);
    EXPECT_EQ(c.inlined_into[0].inclusive, std::vector<uint64_t>{200});
    ASSERT_EQ(c.callees.size(), 1u);
    EXPECT_EQ(c.callees[0].fn, FnId(1));
    EXPECT_EQ(c.callees[0].count, 1u);
    EXPECT_EQ(c.callees[0].inclusive, std::vector<uint64_t>{2484747});
}

TEST(InlinedFunction, EveryInlinedFunctionsCostsAtOnce)
{
    const Profile p = parse_profile(inlined_profile().str(), "app.json");
    std::vector<FunctionCost> costs = function_costs(p);
    EXPECT_EQ(costs[2].self, std::vector<uint64_t>{0});   // its code is main's
    set_inlined_costs(p, costs);
    EXPECT_EQ(costs[2].self, std::vector<uint64_t>{200});
    EXPECT_EQ(costs[2].inclusive, std::vector<uint64_t>{200 + 2484747});
    // The functions that are not inlined keep theirs.
    EXPECT_EQ(costs[0].self, std::vector<uint64_t>{1200});
    EXPECT_EQ(costs[1].inclusive, std::vector<uint64_t>{2484747});
    // helper calling itself again below its node: the outer node alone
    // counts, its inclusive cost holding the inner one's.
    test::ProfileText nested = inlined_profile();
    nested.set("paths", "[[null,0,0,1200,2485947],[0,2,0,0,2484747],[1,2,0,0,2484747],"
                        "[2,1,1,2484747,2484747]]");
    const Profile q = parse_profile(nested.str(), "app.json");
    std::vector<FunctionCost> again = function_costs(q);
    set_inlined_costs(q, again);
    EXPECT_EQ(again[2].inclusive, std::vector<uint64_t>{200 + 2484747});
    EXPECT_EQ(again[2].inclusive, inlined_function_cost(q, FnId(2)).inclusive);
}

TEST(InlinedFunction, ReportFunctionSaysInlinedIntoWithoutACount)
{
    const Profile p = parse_profile(inlined_profile().str(), "app.json");
    cli::ReportOptions o;
    o.profile = "app.json";
    o.function = "helper";
    std::ostringstream out;
    cli::write_report(out, p, o);
    const std::string text = out.str();
    EXPECT_NE(text.find("Function:         helper  [/usr/bin/app] (inlined)\n"),
              std::string::npos) << text;
    EXPECT_NE(text.find("    200   (0.0%)      -  main  [/usr/bin/app]  /src/app.c:11\n"),
              std::string::npos) << text;
    EXPECT_NE(text.find("inlined into  [object]  call site"), std::string::npos) << text;
    EXPECT_NE(text.find("      1  work  [/usr/bin/app]  -\n"), std::string::npos) << text;
}

TEST(InlinedFunction, InlinesParentMustComeFirst)
{
    test::ProfileText p = inlined_profile();
    p.set("inlines", "[[2,0,1,11]]");
    try {
        parse_profile(p.str(), "app.json");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("inlines[0][1]"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace vgprof
