// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of ProfileBuilder: interning by key, numbering in the
// format's order, and the checks of finish(), including the judgement of
// inclusive against self costs that the loader leaves to its caller.
#include "error_of.hpp"
#include "profile_text.hpp"

#include "vgprof/load.hpp"
#include "vgprof/profile_builder.hpp"

#include <gtest/gtest.h>

namespace vgprof {
namespace {

using test::error_of;

// A program of two functions added out of order: work in /src/b.c of
// /usr/bin/app, then main in /src/a.c of the same object.
struct TwoFunctions {
    ProfileBuilder b{"two.json"};
    FnId work, main;
    FileId b_c, a_c;

    TwoFunctions()
    {
        b.add_event("Ir");
        const ObjId app = b.object(b.str("/usr/bin/app"));
        b_c = b.file(b.str("/src/b.c"));
        a_c = b.file(b.str("/src/a.c"));
        work = b.function(b.str("work"), b_c, app, 3);
        main = b.function(b.str("main"), a_c, app, 10);
        b.line(work, b_c, 4)[0] += 700;
        b.line(main, a_c, 11)[0] += 300;
        b.line(work, b_c, 4)[0] += 100;  // the same row again: summed
        b.meta().totals = {1100};
    }
};

TEST(ProfileBuilder, InternsEachKeyOnce)
{
    TwoFunctions t;
    EXPECT_EQ(t.b.str("/src/b.c"), t.b.str("/src/b.c"));
    EXPECT_EQ(t.b.file(t.b.str("/src/a.c")), t.a_c);
    EXPECT_EQ(t.b.function(t.b.str("work"), t.b_c, t.b.object(t.b.str("/usr/bin/app")), 3),
              t.work);
    // Another line of entry is another function.
    EXPECT_NE(t.b.function(t.b.str("work"), t.b_c, t.b.object(t.b.str("/usr/bin/app")), 4),
              t.work);
}

TEST(ProfileBuilder, NumbersTablesAsTheFormatOrdersThem)
{
    TwoFunctions t;
    const Profile p = t.b.finish();
    EXPECT_EQ(p.strs(), (std::vector<std::string>{"/src/a.c", "/src/b.c", "/usr/bin/app", "main",
                                                  "work"}));
    ASSERT_EQ(p.files().size(), 2u);
    EXPECT_EQ(p.file_path(FileId(0)), "/src/a.c");
    ASSERT_EQ(p.functions().size(), 2u);
    EXPECT_EQ(p.fn_name(FnId(0)), "main");  // same object: by name
    EXPECT_EQ(p.fn_name(FnId(1)), "work");
    // Rows sorted by function: main's line first; work's two additions summed.
    ASSERT_EQ(p.lines().size(), 2u);
    EXPECT_EQ(p.lines()[0].fn, FnId(0));
    EXPECT_EQ(p.line_cost(0)[0], 300u);
    EXPECT_EQ(p.line_cost(1)[0], 800u);  // 700 + 100
}

// An inlined function (merge keeps those of its profiles) is known by its
// name in its object: apart from a function of that name with code of its
// own, without a file or a line.
TEST(ProfileBuilder, InlinedFunctionsStayApartFromFunctionsOfTheirName)
{
    TwoFunctions t;
    const ObjId app = t.b.object(t.b.str("/usr/bin/app"));
    const FnId inlined = t.b.inlined_function(t.b.str("work"), app);
    EXPECT_NE(inlined, t.work);
    EXPECT_EQ(t.b.inlined_function(t.b.str("work"), app), inlined);
    const Profile p = t.b.finish();
    ASSERT_EQ(p.functions().size(), 3u);
    // By object, name, file ("???" after "/src/b.c"), line.
    const Function& f = p.function(FnId(2));
    EXPECT_EQ(p.str(f.name), "work");
    EXPECT_TRUE(f.inlined);
    EXPECT_EQ(p.file_path(f.file), "???");
    EXPECT_EQ(f.line, 0u);
    EXPECT_FALSE(p.function(FnId(1)).inlined);
}

TEST(ProfileBuilder, AsAddedKeepsTheOrderOfFirstUse)
{
    ProfileBuilder b("dhat.out", ProfileBuilder::Numbering::as_added);
    b.add_event("Ir");
    b.str("zeta");
    b.str("alpha");
    b.meta().totals = {0};
    EXPECT_EQ(b.finish().strs(), (std::vector<std::string>{"zeta", "alpha"}));
}

TEST(ProfileBuilder, AnEventAddedLaterGivesEveryRowAZeroCost)
{
    TwoFunctions t;
    t.b.add_event("Dr");
    t.b.line(t.main, t.a_c, 11)[1] += 40;
    t.b.meta().totals = {1100, 40};
    const Profile p = t.b.finish();
    ASSERT_EQ(p.num_events(), 2u);
    EXPECT_EQ(p.line_cost(0)[1], 40u);
    EXPECT_EQ(p.line_cost(1)[1], 0u);
    EXPECT_EQ(p.line_cost(1)[0], 800u);
}

TEST(ProfileBuilder, FinishRefusesTotalsTheLinesDoNotMake)
{
    TwoFunctions t;
    t.b.meta().totals = {1000};
    EXPECT_EQ(error_of([&] { t.b.finish(); }),
              "two.json: meta.totals[0]: Ir total is 1000 but the lines add up to 1100");
}

// main calls work, whose inclusive row (500) is below its self cost (800).
void add_call_graph(TwoFunctions& t, uint64_t work_inclusive)
{
    t.b.set_call_graph(true);
    uint64_t* call = t.b.call(ProfileBuilder::kWholeProgram, t.main, t.work, t.a_c, 12);
    call[0] = 1;
    call[1] = work_inclusive;
    t.b.inclusive(ProfileBuilder::kWholeProgram, t.main)[0] = 300 + work_inclusive;
    t.b.inclusive(ProfileBuilder::kWholeProgram, t.work)[0] = work_inclusive;
}

TEST(ProfileBuilder, InclusiveBelowSelfIsRefusedByDefault)
{
    TwoFunctions t;
    add_call_graph(t, 500);
    EXPECT_EQ(error_of([&] { t.b.finish(); }),
              "two.json: inclusive: fn 1: Ir inclusive cost 500 is below the function's self "
              "cost 800");
}

TEST(ProfileBuilder, InclusiveBelowSelfCanBeReportedInstead)
{
    TwoFunctions t;
    add_call_graph(t, 500);
    FinishOptions options;
    options.reject_inclusive_below_self = false;
    FinishReport report;
    const Profile p = t.b.finish(options, &report);
    ASSERT_EQ(report.inclusive_below_self.size(), 1u);
    const InclusiveBelowSelf& found = report.inclusive_below_self[0];
    EXPECT_EQ(p.fn_name(found.fn), "work");
    EXPECT_EQ(found.self, 800u);
    EXPECT_EQ(found.inclusive, 500u);
}

TEST(ProfileBuilder, AConsistentCallGraphPasses)
{
    TwoFunctions t;
    add_call_graph(t, 800);
    FinishReport report;
    const Profile p = t.b.finish({}, &report);
    EXPECT_TRUE(report.inclusive_below_self.empty());
    EXPECT_EQ(p.fn_inclusive(FnId(0))[0], 1100u);  // main: 300 + 800
}

// The profile of docs/profile-format.md with work's inclusive row (fn 1)
// lowered below its self cost, 2484747, and the call and path rows with it
// so that every other invariant holds.
std::string profile_with_inclusive_below_self()
{
    return test::ProfileText()
        .set("calls", "[[0,1,1,12,1,2484000]]")
        .set("inclusive", "[[0,2485947],[1,2484000]]")
        .str();
}

TEST(ProfileBuilder, TheLoaderAcceptsInclusiveBelowSelfUnlessAsked)
{
    const std::string text = profile_with_inclusive_below_self();
    EXPECT_EQ(parse_profile(text, "p.json").fn_inclusive(FnId(1))[0], 2484000u);
    LoadLimits strict;
    strict.reject_inclusive_below_self = true;
    EXPECT_EQ(error_of([&] { parse_profile(text, "p.json", strict); }),
              "p.json: inclusive: fn 1: Ir inclusive cost 2484000 is below the function's self "
              "cost 2484747");
}

} // namespace
} // namespace vgprof
