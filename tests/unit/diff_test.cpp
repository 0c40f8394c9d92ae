// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of `vgprof diff`: diff_profiles and the thresholds
// (vgprof/diff.hpp), and write_diff's exit status and outputs, on the
// two-event fixture (report_fixture.hpp) and variants of it whose changes
// are stated beside each:
//   function  Ir     Dr
//   work      8000   1000
//   memset    1500   3990
//   helper     400      0
//   main       100     10
//   total    10000   5000
#include "report_fixture.hpp"

#include "cli/commands.hpp"
#include "vgprof/diff.hpp"
#include "vgprof/error.hpp"
#include "vgprof/load.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <sstream>

namespace vgprof {
namespace {

using test::ProfileText;

Profile load(const ProfileText& text, const std::string& name = "p.json")
{
    return parse_profile(text.str(), name);
}

// work's line 4 costs 5200 Ir instead of 5000: work 8200, total 10200 Ir
// (+200, +2%); Dr unchanged.
ProfileText heavier_profile()
{
    ProfileText p = test::two_event_profile();
    p.set("lines", "[[0,1,0,1500,3990]"
                   ",[1,0,21,300,0],[1,0,22,100,0]"
                   ",[2,0,11,60,6],[2,0,12,40,4]"
                   ",[3,0,4,5200,600],[3,0,5,3000,400]]");
    p.set_meta("totals", "[10200,5000]");
    return p;
}

// helper's line 21 costs 400 instead of 300 (helper 500: +100, +25%) and
// work's line 5 2900 instead of 3000 (work 7900: -100): the total stays
// 10000 Ir.
ProfileText shifted_profile()
{
    ProfileText p = test::two_event_profile();
    p.set("lines", "[[0,1,0,1500,3990]"
                   ",[1,0,21,400,0],[1,0,22,100,0]"
                   ",[2,0,11,60,6],[2,0,12,40,4]"
                   ",[3,0,4,5000,600],[3,0,5,2900,400]]");
    return p;
}

// A new function "aaa" (50 Ir) sorts before the others, so every function
// of the app gets another id; libc is loaded from /usr/lib instead of /lib.
ProfileText renumbered_profile()
{
    ProfileText p = test::two_event_profile();
    p.set("strs", R"(["/src/app.c","/usr/bin/app","/usr/lib/libc.so.6","???",)"
                  R"("aaa","helper","main","memset","work"])");
    p.set("objs", "[1,2]");   // 0 app, 1 libc
    p.set("files", "[0,3]");  // 0 /src/app.c, 1 ???
    // 0 aaa, 1 helper, 2 main, 3 work (app), 4 memset (libc)
    p.set("fns", "[[4,0,0,30],[5,0,0,20],[6,0,0,10],[8,0,0,3],[7,1,1,0]]");
    p.set("lines", "[[0,0,31,50,0]"
                   ",[1,0,21,300,0],[1,0,22,100,0]"
                   ",[2,0,11,60,6],[2,0,12,40,4]"
                   ",[3,0,4,5000,600],[3,0,5,3000,400]"
                   ",[4,1,0,1500,3990]]");
    p.set_meta("totals", "[10050,5000]");
    return p;
}

cli::DiffOptions options(std::string fail = "", std::string warn = "", bool per_function = false)
{
    cli::DiffOptions o;
    o.base = "base.json";
    o.now = "new.json";
    o.fail_above = std::move(fail);
    o.warn_above = std::move(warn);
    o.per_function = per_function;
    return o;
}

struct Outcome {
    int status;
    std::string output;
};

Outcome run(const ProfileText& base, const ProfileText& now, const cli::DiffOptions& o)
{
    std::ostringstream out;
    const int status = cli::write_diff(out, load(base), load(now), o);
    return {status, out.str()};
}

int status_of(const ProfileText& base, const ProfileText& now, const cli::DiffOptions& o)
{
    return run(base, now, o).status;
}

const FunctionDelta& function_named(const DiffResult& diff, const std::string& name)
{
    for (const FunctionDelta& f : diff.functions)
        if (f.name == name)
            return f;
    throw std::runtime_error("no function " + name);
}

std::string parse_error(const std::string& spec)
{
    try {
        parse_thresholds(spec, "--fail-above");
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(Diff, SameProfileHasZeroDeltasEverywhereAndExitsZero)
{
    const ProfileText p = test::two_event_call_graph_profile();
    const DiffResult diff = diff_profiles(load(p), load(p));
    EXPECT_EQ(diff.events, (std::vector<std::string>{"Ir", "Dr"}));
    ASSERT_EQ(diff.totals.size(), 2u);
    EXPECT_EQ(diff.totals[0].base, 10000u);
    EXPECT_EQ(diff.totals[0].delta(), 0);
    EXPECT_EQ(*diff.totals[0].relative(), 0.0);
    EXPECT_EQ(diff.totals[1].delta(), 0);
    EXPECT_TRUE(diff.inclusive);
    EXPECT_TRUE(diff.warnings.empty());
    ASSERT_EQ(diff.functions.size(), 4u);
    for (const FunctionDelta& f : diff.functions) {
        EXPECT_TRUE(f.in_base && f.in_now) << f.name;
        for (const CostDelta& c : f.self)
            EXPECT_EQ(c.delta(), 0) << f.name;
        ASSERT_EQ(f.inclusive.size(), 2u);
        for (const CostDelta& c : f.inclusive)
            EXPECT_EQ(c.delta(), 0) << f.name;
    }
    EXPECT_EQ(function_named(diff, "work").inclusive[0].now, 9000u);
    EXPECT_EQ(status_of(p, p, options("Ir=+0%,Dr=+0")), cli::kExitOk);
}

TEST(Diff, HeavierProfileShowsTheIncreaseOfTotalAndFunction)
{
    const DiffResult diff = diff_profiles(load(test::two_event_profile()), load(heavier_profile()));
    EXPECT_EQ(diff.totals[0].delta(), 200);
    EXPECT_DOUBLE_EQ(*diff.totals[0].relative(), 0.02);  // 200 / 10000
    EXPECT_EQ(diff.totals[1].delta(), 0);
    EXPECT_FALSE(diff.inclusive);
    ASSERT_FALSE(diff.functions.empty());
    EXPECT_EQ(diff.functions[0].name, "work");  // the only change comes first
    EXPECT_EQ(diff.functions[0].self[0].base, 8000u);
    EXPECT_EQ(diff.functions[0].self[0].now, 8200u);
    EXPECT_DOUBLE_EQ(*diff.functions[0].self[0].relative(), 0.025);  // 200 / 8000
    EXPECT_TRUE(diff.functions[0].inclusive.empty());
}

TEST(Diff, HeavierProfileFailsARelativeThresholdItExceeds)
{
    EXPECT_EQ(status_of(test::two_event_profile(), heavier_profile(), options("Ir=+1%")),
              cli::kExitThresholdExceeded);
}

TEST(Diff, HeavierProfilePassesALooserRelativeThresholdAndOneItOnlyReaches)
{
    EXPECT_EQ(status_of(test::two_event_profile(), heavier_profile(), options("Ir=+5%")),
              cli::kExitOk);
    EXPECT_EQ(status_of(test::two_event_profile(), heavier_profile(), options("Ir=+2%")),
              cli::kExitOk);  // +2% is not above 2%
}

TEST(Diff, AbsoluteThresholdFailsOnlyAboveItsCount)
{
    EXPECT_EQ(status_of(test::two_event_profile(), heavier_profile(), options("Ir=+199")),
              cli::kExitThresholdExceeded);
    EXPECT_EQ(status_of(test::two_event_profile(), heavier_profile(), options("Ir=200")),
              cli::kExitOk);
}

TEST(Diff, LighterProfileExceedsNoThreshold)
{
    const DiffResult diff = diff_profiles(load(heavier_profile()), load(test::two_event_profile()));
    EXPECT_EQ(diff.totals[0].delta(), -200);
    EXPECT_EQ(status_of(heavier_profile(), test::two_event_profile(), options("Ir=+0%,Ir=+0")),
              cli::kExitOk);
}

TEST(Diff, WarnThresholdReportsTheIncreaseButExitsZero)
{
    const Outcome o = run(test::two_event_profile(), heavier_profile(), options("", "Ir=+1%"));
    EXPECT_EQ(o.status, cli::kExitOk);
    EXPECT_NE(o.output.find("WARN: Ir total +200 (+2.00%, 10,000 -> 10,200) exceeds Ir=+1%"),
              std::string::npos)
        << o.output;
    EXPECT_NE(o.output.find("Result: warn"), std::string::npos);
}

TEST(Diff, PerFunctionThresholdsCheckEachFunctionsSelfCost)
{
    // The total is unchanged; helper's self cost rose by 25%, work's fell.
    EXPECT_EQ(status_of(test::two_event_profile(), shifted_profile(), options("Ir=+10%")),
              cli::kExitOk);
    const Outcome o =
        run(test::two_event_profile(), shifted_profile(), options("Ir=+10%", "", true));
    EXPECT_EQ(o.status, cli::kExitThresholdExceeded);
    EXPECT_NE(o.output.find("FAIL: Ir self of helper (/src/app.c)  [/usr/bin/app] +100 "
                            "(+25.00%, 400 -> 500) exceeds Ir=+10%"),
              std::string::npos)
        << o.output;
    EXPECT_EQ(status_of(test::two_event_profile(), shifted_profile(), options("Ir=+30%", "", true)),
              cli::kExitOk);
    EXPECT_EQ(status_of(test::two_event_profile(), shifted_profile(), options("Ir=+99", "", true)),
              cli::kExitThresholdExceeded);
}

TEST(Diff, FunctionsMatchByNameObjectBasenameAndFileNotById)
{
    const DiffResult diff =
        diff_profiles(load(test::two_event_profile()), load(renumbered_profile()));
    ASSERT_EQ(diff.functions.size(), 5u);
    EXPECT_EQ(diff.functions[0].name, "aaa");  // the only change
    EXPECT_FALSE(diff.functions[0].in_base);
    EXPECT_EQ(diff.functions[0].self[0].now, 50u);
    EXPECT_FALSE(diff.functions[0].self[0].relative());  // from 0: no ratio
    const FunctionDelta& memset = function_named(diff, "memset");
    EXPECT_TRUE(memset.in_base && memset.in_now);
    EXPECT_EQ(memset.self[0].delta(), 0);
    EXPECT_EQ(memset.self[1].now, 3990u);
    EXPECT_EQ(memset.object, "/usr/lib/libc.so.6");  // the new profile's
    EXPECT_EQ(function_named(diff, "work").self[0].delta(), 0);
    // A function that was not there exceeds any relative threshold.
    EXPECT_EQ(status_of(test::two_event_profile(), renumbered_profile(),
                        options("Ir=+1%", "", true)),
              cli::kExitThresholdExceeded);
}

TEST(Diff, DifferentCacheConfigurationIsAWarningNotAFailure)
{
    ProfileText bigger_ll = test::cache_profile();
    bigger_ll.set_meta("cache", R"({"I1":[32768,8,64],"D1":[32768,8,64],"LL":[16777216,16,64],)"
                                R"("branches":true})");
    const DiffResult diff = diff_profiles(load(test::cache_profile()), load(bigger_ll));
    ASSERT_EQ(diff.warnings.size(), 1u);
    EXPECT_EQ(diff.warnings[0],
              "the profiles simulated different caches (base: I1 32768,8,64 D1 32768,8,64 "
              "LL 8388608,16,64 branches; new: I1 32768,8,64 D1 32768,8,64 LL 16777216,16,64 "
              "branches); miss counts do not compare");
    const Outcome o = run(test::cache_profile(), bigger_ll, options("Ir=+1%"));
    EXPECT_EQ(o.status, cli::kExitOk);
    EXPECT_NE(o.output.find("warning: the profiles simulated different caches"),
              std::string::npos);
}

TEST(Diff, DifferentProgramAndEventsAreWarnedAndOnlyCommonEventsCompared)
{
    ProfileText ir_only = test::two_event_profile();
    ir_only.set_meta("events", R"(["Ir"])");
    ir_only.set_meta("totals", "[10000]");
    ir_only.set_meta("argv", R"(["./other"])");
    ir_only.set("lines", "[[0,1,0,1500],[1,0,21,300],[1,0,22,100]"
                         ",[2,0,11,60],[2,0,12,40],[3,0,4,5000],[3,0,5,3000]]");
    const DiffResult diff = diff_profiles(load(test::two_event_profile()), load(ir_only));
    EXPECT_EQ(diff.events, std::vector<std::string>{"Ir"});
    EXPECT_EQ(diff.totals.size(), 1u);
    EXPECT_EQ(diff.warnings,
              (std::vector<std::string>{
                  "the profiles are of different programs (base: ./app; new: ./other)",
                  "the profiles recorded different events (base: Ir Dr; new: Ir); only those "
                  "in both are compared"}));
    try {
        run(test::two_event_profile(), ir_only, options("Dr=+1%"));
        ADD_FAILURE() << "a threshold on Dr was accepted";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "threshold \"Dr=+1%\": no event \"Dr\" in both profiles "
                               "(events compared: Ir)");
    }
}

TEST(Diff, ACallGraphInOnlyOneProfileLeavesInclusiveCostsOut)
{
    const DiffResult diff =
        diff_profiles(load(test::two_event_profile()), load(test::two_event_call_graph_profile()));
    EXPECT_FALSE(diff.inclusive);
    EXPECT_TRUE(diff.functions[0].inclusive.empty());
    EXPECT_EQ(diff.warnings, std::vector<std::string>{"only the new profile has a call graph; "
                                                      "inclusive costs are not compared"});
}

TEST(DiffThresholds, SpecListsRelativeAndAbsoluteIncreases)
{
    const std::vector<Threshold> t = parse_thresholds("Ir=+1%,D1mr=+5.5%,Ir=+100000,Dr=7", "x");
    ASSERT_EQ(t.size(), 4u);
    EXPECT_EQ(t[0].event, "Ir");
    EXPECT_TRUE(t[0].relative);
    EXPECT_EQ(t[0].percent, 1.0);
    EXPECT_EQ(t[1].event, "D1mr");
    EXPECT_EQ(t[1].percent, 5.5);
    EXPECT_FALSE(t[2].relative);
    EXPECT_EQ(t[2].absolute, 100000u);
    EXPECT_EQ(t[3].text, "Dr=7");
    EXPECT_EQ(t[3].absolute, 7u);
}

// A malformed SPEC, and the message (with the reminder of the form, when
// `reminded`).
struct BadSpecCase {
    const char* spec;
    const char* message;
    bool reminded;
};

class MalformedThresholds : public ::testing::TestWithParam<BadSpecCase> {};

TEST_P(MalformedThresholds, AreErrorsNamingTheOptionAndItem)
{
    const BadSpecCase& c = GetParam();
    const std::string reminder = " (expected EVENT=+N% or EVENT=+N, e.g. Ir=+1%)";
    EXPECT_EQ(parse_error(c.spec), c.message + (c.reminded ? reminder : ""));
}

INSTANTIATE_TEST_SUITE_P(
    DiffThresholds, MalformedThresholds,
    ::testing::Values(
        BadSpecCase{"", "--fail-above: empty threshold list", false},
        BadSpecCase{"Ir=+1%,",
                    "--fail-above: \"Ir=+1%,\": empty item in the comma-separated list", false},
        BadSpecCase{"Ir", "--fail-above: \"Ir\": no '='", true},
        BadSpecCase{"=+1%", "--fail-above: \"=+1%\": no event name before '='", true},
        BadSpecCase{"Ir=-1%",
                    "--fail-above: \"Ir=-1%\": the increase must be a number of 0 or more", true},
        BadSpecCase{"Ir=+", "--fail-above: \"Ir=+\": the increase must be a number of 0 or more",
                    true},
        BadSpecCase{"Ir=+1x%", "--fail-above: \"Ir=+1x%\": malformed percentage", true},
        BadSpecCase{"Ir=+1.5",
                    "--fail-above: \"Ir=+1.5\": malformed count (an absolute increase is a "
                    "whole number; add % for a relative one)",
                    true}));

TEST(DiffThresholds, BadSpecFailsWriteDiffBeforeWritingAnything)
{
    std::ostringstream out;
    const Profile p = load(test::two_event_profile());
    EXPECT_THROW(cli::write_diff(out, p, p, options("Ir=+1%", "Ir=fast")), Error);
    EXPECT_EQ(out.str(), "");
}

TEST(DiffOutput, MarkdownHasATotalsTableAndTheTopChangedFunctions)
{
    cli::DiffOptions o = options("Ir=+1%");
    o.format = "markdown";
    const Outcome r = run(test::two_event_profile(), heavier_profile(), o);
    EXPECT_EQ(r.status, cli::kExitThresholdExceeded);
    EXPECT_EQ(r.output,
              "### vgprof diff: :x: fail\n\n"
              "Base `base.json`, new `new.json`.\n\n"
              "- FAIL: Ir total +200 (+2.00%, 10,000 -> 10,200) exceeds Ir=+1%\n\n"
              "| event | base | new | change | change % |\n"
              "| --- | ---: | ---: | ---: | ---: |\n"
              "| Ir | 10,000 | 10,200 | +200 | +2.00% |\n"
              "| Dr | 5,000 | 5,000 | 0 | 0.00% |\n"
              "\n**Top changed functions** by Ir self (1 of 1 changed):\n\n"
              "| function | file | object | Ir self base | Ir self new | change | change % |\n"
              "| --- | --- | --- | ---: | ---: | ---: | ---: |\n"
              "| `work` | /src/app.c | /usr/bin/app | 8,000 | 8,200 | +200 | +2.50% |\n");
}

TEST(DiffOutput, TextListsTotalsChangedFunctionsAndTheResult)
{
    const Outcome r = run(test::two_event_profile(), heavier_profile(), options("Ir=+1%"));
    const std::string rule = std::string(80, '-') + "\n";
    EXPECT_EQ(r.output, rule +
                            "Base:             base.json\n"
                            "New:              new.json\n"
                            "Command:          ./app -n 3\n"
                            "Events compared:  Ir Dr\n"
                            "Fail above:       Ir=+1%\n" +
                            rule +
                            "event    base     new  change  change %\n"
                            "Ir     10,000  10,200    +200    +2.00%\n"
                            "Dr      5,000   5,000       0     0.00%\n" +
                            rule +
                            "Changed functions by Ir self: 1 (showing 1)\n"
                            "Ir self base  Ir self new  change  change %  function (file)  "
                            "[object]\n"
                            "       8,000        8,200    +200    +2.50%  work (/src/app.c)  "
                            "[/usr/bin/app]\n" +
                            rule +
                            "FAIL: Ir total +200 (+2.00%, 10,000 -> 10,200) exceeds Ir=+1%\n"
                            "Result: fail\n");
}

TEST(DiffOutput, MarkdownOfIdenticalProfilesSaysNothingChanged)
{
    cli::DiffOptions o = options();
    o.format = "markdown";
    const Outcome r = run(test::two_event_profile(), test::two_event_profile(), o);
    EXPECT_EQ(r.status, cli::kExitOk);
    EXPECT_EQ(r.output.rfind("### vgprof diff: :white_check_mark: ok\n", 0), 0u);
    EXPECT_NE(r.output.find("(0 of 0 changed):\n\nNo function's cost changed.\n"),
              std::string::npos)
        << r.output;
}

TEST(DiffOutput, TopLimitsTheFunctionsShown)
{
    cli::DiffOptions o = options();
    o.format = "json";
    o.top = 1;
    const Outcome r = run(test::two_event_profile(), shifted_profile(), o);
    const boost::json::object j = boost::json::parse(r.output).as_object();
    EXPECT_EQ(j.at("changed_functions").as_int64(), 2);  // helper and work
    ASSERT_EQ(j.at("functions").as_array().size(), 1u);
}

TEST(DiffOutput, JsonHoldsTotalsFunctionsAndExceededThresholds)
{
    cli::DiffOptions o = options("Ir=+1%", "Ir=+100");
    o.format = "json";
    const Outcome r = run(test::two_event_profile(), heavier_profile(), o);
    const boost::json::object j = boost::json::parse(r.output).as_object();
    EXPECT_EQ(j.at("status").as_string(), "fail");
    EXPECT_EQ(j.at("events").as_array().size(), 2u);
    const boost::json::object& ir = j.at("totals").at("Ir").as_object();
    EXPECT_EQ(ir.at("base").to_number<uint64_t>(), 10000u);
    EXPECT_EQ(ir.at("new").to_number<uint64_t>(), 10200u);
    EXPECT_EQ(ir.at("delta").to_number<int64_t>(), 200);
    EXPECT_DOUBLE_EQ(ir.at("relative").as_double(), 0.02);
    const boost::json::array& functions = j.at("functions").as_array();
    ASSERT_EQ(functions.size(), 1u);
    EXPECT_EQ(functions[0].at("name").as_string(), "work");
    EXPECT_EQ(functions[0].at("self").at("Ir").at("delta").to_number<int64_t>(), 200);
    EXPECT_EQ(j.at("failed").as_array().size(), 1u);
    EXPECT_EQ(j.at("failed").at(0).at("threshold").as_string(), "Ir=+1%");
    EXPECT_TRUE(j.at("failed").at(0).at("function").is_null());
    EXPECT_EQ(j.at("warned").as_array().size(), 1u);
    EXPECT_TRUE(j.at("warnings").as_array().empty());
}

} // namespace
} // namespace vgprof
