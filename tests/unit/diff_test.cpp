// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of the comparison behind `vgprof diff` (vgprof/diff.hpp):
// deltas of totals and functions, functions matched across moves and
// renames, heap metrics, the lines that changed most, what keeps profiles
// from comparing, and the thresholds; on the two-event fixture
// (report_fixture.hpp) and variants of it whose changes are stated beside
// each:
//   function  Ir     Dr
//   work      8000   1000
//   memset    1500   3990
//   helper     400      0
//   main       100     10
//   total    10000   5000
#include "diff_fixture.hpp"
#include "error_of.hpp"
#include "heap_fixture.hpp"

#include "vgprof/diff.hpp"
#include "vgprof/error.hpp"

#include <gtest/gtest.h>

namespace vgprof {
namespace {

using test::error_of;
using test::load;
using test::ProfileText;

const FunctionDelta& function_named(const DiffResult& diff, const std::string& name)
{
    for (const FunctionDelta& f : diff.functions)
        if (f.name == name)
            return f;
    throw std::runtime_error("no function " + name);
}

std::string parse_error(const std::string& spec)
{
    return error_of([&] { parse_thresholds(spec, "--fail-above"); });
}

bool exceeds(const std::string& spec, uint64_t base, uint64_t now)
{
    return parse_thresholds(spec, "x")[0].exceeded_by({base, now});
}

TEST(Diff, SameProfileHasZeroDeltasEverywhere)
{
    const ProfileText p = test::two_event_call_graph_profile();
    const DiffResult diff = diff_profiles(load(p), load(p));
    EXPECT_EQ(diff.metrics, (std::vector<std::string>{"Ir", "Dr"}));
    EXPECT_EQ(diff.num_events, 2u);
    ASSERT_EQ(diff.totals.size(), 2u);
    EXPECT_EQ(diff.totals[0].base, 10000u);
    EXPECT_EQ(diff.totals[0].delta(), 0);
    EXPECT_EQ(*diff.totals[0].relative(), 0.0);
    EXPECT_TRUE(diff.inclusive);
    EXPECT_TRUE(diff.differences.empty());
    ASSERT_EQ(diff.functions.size(), 4u);
    for (const FunctionDelta& f : diff.functions) {
        EXPECT_EQ(f.change, FunctionChange::same) << f.name;
        for (const CostDelta& c : f.self)
            EXPECT_EQ(c.delta(), 0) << f.name;
        for (const CostDelta& c : f.inclusive)
            EXPECT_EQ(c.delta(), 0) << f.name;
    }
    EXPECT_EQ(function_named(diff, "work").inclusive[0].now, 9000u);
}

TEST(Diff, HeavierProfileShowsTheIncreaseOfTotalAndFunction)
{
    const DiffResult diff =
        diff_profiles(load(test::two_event_profile()), load(test::heavier_profile()));
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

TEST(Diff, FunctionsMatchByNameObjectBasenameAndFileNotById)
{
    const DiffResult diff =
        diff_profiles(load(test::two_event_profile()), load(test::renumbered_profile()));
    ASSERT_EQ(diff.functions.size(), 5u);
    EXPECT_EQ(diff.functions[0].name, "aaa");  // the only change
    EXPECT_EQ(diff.functions[0].change, FunctionChange::added);
    EXPECT_FALSE(diff.functions[0].in_base);
    EXPECT_FALSE(diff.functions[0].self[0].relative());  // from 0: no ratio
    const FunctionDelta& memset = function_named(diff, "memset");
    EXPECT_EQ(memset.change, FunctionChange::same);
    EXPECT_EQ(memset.self[0].delta(), 0);
    EXPECT_EQ(memset.object, "/usr/lib/libc.so.6");  // the new profile's
}

TEST(Diff, AFunctionMovedToAnotherFileIsTheSameFunctionMoved)
{
    // helper moved from /src/app.c:20 to /src/util.c:40 with the same code.
    const DiffResult diff =
        diff_profiles(load(test::two_event_profile()), load(test::moved_helper_profile()));
    const FunctionDelta& helper = function_named(diff, "helper");
    EXPECT_EQ(helper.change, FunctionChange::moved);
    EXPECT_EQ(helper.file, "/src/util.c");
    EXPECT_EQ(helper.line, 40u);
    EXPECT_EQ(helper.base_file, "/src/app.c");
    EXPECT_EQ(helper.base_line, 20u);
    EXPECT_EQ(helper.self[0].base, 400u);
    EXPECT_EQ(helper.self[0].now, 400u);
    EXPECT_EQ(diff.functions.size(), 4u);  // not one removed and one added
    // Nothing changed cost, so no per-function threshold fails on the move.
    const auto t = parse_thresholds("Ir=+0%", "x");
    EXPECT_TRUE(exceeded_thresholds(diff, t, ThresholdScope::functions).empty());
}

TEST(Diff, AFunctionWhoseEntryLineMovedIsMovedToo)
{
    test::TwoEventLines l;
    l.helper_line = 26;
    ProfileText p = test::with_lines(test::two_event_profile(), l);
    p.set("fns", "[[6,1,0,0],[4,0,1,25],[5,0,1,10],[7,0,1,3]]");  // helper at line 25
    const DiffResult diff = diff_profiles(load(test::two_event_profile()), load(p));
    const FunctionDelta& helper = function_named(diff, "helper");
    EXPECT_EQ(helper.change, FunctionChange::moved);
    EXPECT_EQ(helper.base_line, 20u);
    EXPECT_EQ(helper.line, 25u);
    // Its lines moved with it: no line changed cost.
    EXPECT_TRUE(changed_lines(load(test::two_event_profile()), load(p), diff, helper, 0, 3).empty());
}

TEST(Diff, ARenameWithIdenticalCodeIsMatchedAsARename)
{
    // helper is called assist in the new profile, its code and lines as
    // they were.
    const DiffResult diff =
        diff_profiles(load(test::two_event_profile()), load(test::renamed_helper_profile()));
    const FunctionDelta& assist = function_named(diff, "assist");
    EXPECT_EQ(assist.change, FunctionChange::renamed);
    EXPECT_EQ(assist.base_name, "helper");
    EXPECT_EQ(assist.self[0].delta(), 0);
    EXPECT_EQ(diff.functions.size(), 4u);
}

TEST(Diff, ARenameWhoseCodeChangedIsARemovalAndAnAddition)
{
    test::TwoEventLines l;
    l.helper_first = 301;  // one instruction more
    const ProfileText p = test::with_lines(test::renamed_helper_profile(), l);
    const DiffResult diff = diff_profiles(load(test::two_event_profile()), load(p));
    EXPECT_EQ(function_named(diff, "assist").change, FunctionChange::added);
    EXPECT_EQ(function_named(diff, "helper").change, FunctionChange::removed);
}

TEST(Diff, ChangedLinesAreTheFunctionsLinesWhoseCostChangedMost)
{
    // work: line 4 5000 -> 5200 (+200), line 5 3000 -> 2950 (-50).
    test::TwoEventLines l;
    l.work_first = 5200;
    l.work_second = 2950;
    const ProfileText p = test::with_lines(test::two_event_profile(), l);
    const Profile base = load(test::two_event_profile()), now = load(p);
    const DiffResult diff = diff_profiles(base, now);
    const auto lines = changed_lines(base, now, diff, function_named(diff, "work"), 0, 3);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].file, "/src/app.c");
    EXPECT_EQ(lines[0].line, 4u);
    EXPECT_EQ(lines[0].cost.delta(), 200);
    EXPECT_EQ(lines[1].line, 5u);
    EXPECT_EQ(lines[1].cost.delta(), -50);
    EXPECT_EQ(changed_lines(base, now, diff, function_named(diff, "work"), 0, 1).size(), 1u);
    EXPECT_TRUE(changed_lines(base, now, diff, function_named(diff, "work"), 1, 3).empty());
}

TEST(Diff, HeapMetricsCompareTotalsAndWhatEachFunctionAllocated)
{
    // site 0, allocated from work at app.c:5, makes 15 blocks of 100 bytes
    // instead of 10: 16 blocks and 3500 bytes in all instead of 11 and 3000.
    const Profile base = load(test::with_heap()), now = load(test::more_blocks_profile());
    const DiffResult diff = diff_profiles(base, now);
    ASSERT_EQ(diff.metrics, (std::vector<std::string>{"Ir", "HeapBytes", "HeapBlocks",
                                                      "HeapPeak", "HeapLeaked"}));
    EXPECT_EQ(diff.num_events, 1u);
    const size_t blocks = *diff.metric_index("HeapBlocks");
    EXPECT_EQ(diff.totals[blocks].base, 11u);
    EXPECT_EQ(diff.totals[blocks].now, 16u);
    EXPECT_EQ(diff.totals[*diff.metric_index("HeapBytes")].delta(), 500);
    EXPECT_EQ(diff.totals[*diff.metric_index("HeapPeak")].delta(), 0);
    EXPECT_EQ(diff.totals[*diff.metric_index("HeapLeaked")].now, 100u);
    const FunctionDelta& work = function_named(diff, "work");
    EXPECT_EQ(work.self[blocks].base, 10u);
    EXPECT_EQ(work.self[blocks].now, 15u);
    const auto lines = changed_lines(base, now, diff, work, blocks, 3);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].line, 5u);
    EXPECT_EQ(lines[0].cost.delta(), 5);
    const auto t = parse_thresholds("HeapBlocks=+10%", "x");
    EXPECT_EQ(exceeded_thresholds(diff, t, ThresholdScope::totals).size(), 1u);
}

TEST(Diff, ProfilesOfAnotherCommandDoNotCompare)
{
    ProfileText other = test::two_event_profile();
    other.set_meta("argv", R"(["./app","-n","4"])");
    const DiffResult diff = diff_profiles(load(test::two_event_profile()), load(other));
    EXPECT_EQ(diff.differences, std::vector<std::string>{
                                    "the commands differ (base: ./app -n 3; new: ./app -n 4)"});
}

TEST(Diff, OtherCachesEventsAndCountingOptionsDoNotCompare)
{
    ProfileText bigger_ll = test::cache_profile();
    bigger_ll.set_meta("cache", R"({"I1":[32768,8,64],"D1":[32768,8,64],"LL":[16777216,16,64],)"
                                R"("branches":true})");
    bigger_ll.set_meta("options", R"(["--heap=no","--vgprof-out-file=other.json"])");
    const DiffResult diff = diff_profiles(load(test::cache_profile()), load(bigger_ll));
    EXPECT_EQ(diff.differences,
              (std::vector<std::string>{
                  "the simulated caches differ (base: I1 32768,8,64 D1 32768,8,64 LL "
                  "8388608,16,64 branches; new: I1 32768,8,64 D1 32768,8,64 LL "
                  "16777216,16,64 branches)",
                  "the tool options differ: --heap (base: yes; new: no)"}));

    ProfileText ir_only = test::two_event_profile();
    ir_only.set_meta("events", R"(["Ir"])").set_meta("totals", "[10000]");
    ir_only.set("lines", "[[0,1,0,1500],[1,0,21,300],[1,0,22,100]"
                         ",[2,0,11,60],[2,0,12,40],[3,0,4,5000],[3,0,5,3000]]");
    EXPECT_EQ(diff_profiles(load(test::two_event_profile()), load(ir_only)).differences,
              std::vector<std::string>{"the events recorded differ (base: Ir Dr; new: Ir)"});
}

TEST(Diff, TheOutFileAndOptionsGivenAtTheirDefaultsDoNotKeepProfilesApart)
{
    ProfileText p = test::two_event_profile();
    p.set_meta("options", R"(["--vgprof-out-file=x.json","--heap=yes","--call-graph=yes"])");
    EXPECT_TRUE(diff_profiles(load(test::two_event_profile()), load(p)).differences.empty());
}

TEST(Diff, FingerprintsNameTheEnvironmentDirectoryAndTranslationDifferences)
{
    const ProfileText base = test::fingerprinted(
        test::two_event_profile(), "/work", R"([["HOME","11"],["LANG","22"],["TERM","33"]])",
        R"(["-q"])");
    const ProfileText now = test::fingerprinted(
        test::two_event_profile(), "/tmp", R"([["HOME","12"],["TERM","33"],["CI","44"]])",
        R"(["--vex-guest-chase=no"])");
    EXPECT_EQ(diff_profiles(load(base), load(now)).differences,
              (std::vector<std::string>{
                  "Valgrind's translation options differ: --vex-guest-chase (base: (not "
                  "given); new: no)",
                  "the environments differ: HOME has another value, LANG only in base, CI "
                  "only in new",
                  "the working directories differ (base: /work; new: /tmp)"}));
    // The same variables in another order move the counts too.
    const ProfileText reordered = test::fingerprinted(
        test::two_event_profile(), "/work", R"([["LANG","22"],["HOME","11"],["TERM","33"]])",
        R"(["-q"])");
    EXPECT_EQ(diff_profiles(load(base), load(reordered)).differences,
              std::vector<std::string>{
                  "the environments differ: the same variables in another order"});
    EXPECT_TRUE(diff_profiles(load(base), load(base)).differences.empty());
}

TEST(Diff, ProfilesWithoutAFingerprintCompareWithAWarning)
{
    const DiffResult diff =
        diff_profiles(load(test::two_event_profile()), load(test::two_event_profile()));
    EXPECT_TRUE(diff.differences.empty());
    ASSERT_EQ(diff.warnings.size(), 1u);
    EXPECT_EQ(diff.warnings[0].rfind("neither profile has a fingerprint", 0), 0u) << diff.warnings[0];
}

TEST(Diff, SortFunctionsRanksByAnotherMetric)
{
    // shifted: helper +100 Ir, work -100 Ir; Dr: memset 3990 -> 4000 only.
    test::TwoEventLines l;
    l.helper_first = 400;
    l.work_second = 2900;
    l.memset_dr = 4000;
    const ProfileText p = test::with_lines(test::two_event_profile(), l);
    DiffResult diff = diff_profiles(load(test::two_event_profile()), load(p));
    EXPECT_NE(diff.functions[0].name, "memset");
    sort_functions(diff, 1);
    EXPECT_EQ(diff.functions[0].name, "memset");
}

TEST(DiffThresholds, SpecListsRelativeAbsoluteNegativeAndCeilingLimits)
{
    const std::vector<Threshold> t =
        parse_thresholds("Ir=+1%,D1mr=5.5%,Ir=+100000,Dr=-7,Ir<=8000000,Ir=-2%", "x");
    ASSERT_EQ(t.size(), 6u);
    EXPECT_EQ(t[0].event, "Ir");
    EXPECT_EQ(t[0].conditions[0].kind, Condition::Kind::relative);
    EXPECT_EQ(t[0].conditions[0].percent, 1.0);
    EXPECT_EQ(t[1].conditions[0].percent, 5.5);
    EXPECT_EQ(t[2].conditions[0].kind, Condition::Kind::absolute);
    EXPECT_EQ(t[2].conditions[0].amount, 100000);
    EXPECT_EQ(t[3].conditions[0].amount, -7);
    EXPECT_EQ(t[4].event, "Ir");
    EXPECT_EQ(t[4].conditions[0].kind, Condition::Kind::ceiling);
    EXPECT_EQ(t[4].conditions[0].ceiling, 8000000u);
    EXPECT_EQ(t[5].conditions[0].percent, -2.0);
    EXPECT_EQ(t[5].text, "Ir=-2%");
}

TEST(DiffThresholds, ARelativeLimitIsExceededOnlyStrictlyAboveIt)
{
    EXPECT_TRUE(exceeds("Ir=+1%", 10000, 10200));
    EXPECT_FALSE(exceeds("Ir=+2%", 10000, 10200));  // +2% is not above 2%
    EXPECT_FALSE(exceeds("Ir=+5%", 10000, 10200));
    EXPECT_TRUE(exceeds("Ir=+0%", 10000, 10001));
    EXPECT_FALSE(exceeds("Ir=+0%", 10000, 9000));  // a decrease exceeds nothing
    EXPECT_TRUE(exceeds("Ir=+50%", 0, 1));         // a rise from 0 exceeds any
    EXPECT_FALSE(exceeds("Ir=+50%", 0, 0));
}

TEST(DiffThresholds, AnAbsoluteLimitCountsTheChange)
{
    EXPECT_TRUE(exceeds("Ir=+199", 10000, 10200));
    EXPECT_FALSE(exceeds("Ir=200", 10000, 10200));
}

TEST(DiffThresholds, ANegativeLimitExpectsAnImprovement)
{
    // Ir=-5%: exceeded unless Ir fell by at least 5%.
    EXPECT_TRUE(exceeds("Ir=-5%", 10000, 9600));   // -4%
    EXPECT_FALSE(exceeds("Ir=-5%", 10000, 9500));  // -5%, as asked
    EXPECT_FALSE(exceeds("Ir=-5%", 10000, 9000));
    EXPECT_TRUE(exceeds("Ir=-5%", 10000, 10000));
    EXPECT_TRUE(exceeds("Ir=-1000", 10000, 9500));
    EXPECT_FALSE(exceeds("Ir=-1000", 10000, 9000));
}

TEST(DiffThresholds, ACeilingBoundsTheNewCost)
{
    EXPECT_FALSE(exceeds("Ir<=10200", 10000, 10200));
    EXPECT_TRUE(exceeds("Ir<=10199", 10000, 10200));
    EXPECT_TRUE(exceeds("Ir<=10199", 20000, 10200));  // however much it fell
}

TEST(DiffThresholds, CombinedConditionsMustAllBeBroken)
{
    // More than 1% and more than 5,000 more.
    EXPECT_FALSE(exceeds("Ir=+1%&+5000", 10000, 10200));     // 2%, but 200
    EXPECT_FALSE(exceeds("Ir=+1%&+5000", 10000000, 10006000)); // 6,000, but 0.06%
    EXPECT_TRUE(exceeds("Ir=+1%&+5000", 100000, 106000));    // 6%, 6,000
    EXPECT_TRUE(exceeds("Ir<=20000&+1%", 20000, 20300));
    EXPECT_FALSE(exceeds("Ir<=20500&+1%", 20000, 20300));
    EXPECT_EQ(parse_thresholds("Ir=+1%&+5000&<=9", "x")[0].conditions.size(), 3u);
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
    const std::string reminder =
        " (expected METRIC=+N%, METRIC=+N, METRIC=-N% or METRIC<=N, conditions joined by &, "
        "e.g. Ir=+1%&+5000)";
    EXPECT_EQ(parse_error(c.spec), c.message + (c.reminded ? reminder : ""));
}

INSTANTIATE_TEST_SUITE_P(
    DiffThresholds, MalformedThresholds,
    ::testing::Values(
        BadSpecCase{"", "--fail-above: empty threshold list", false},
        BadSpecCase{"Ir=+1%,",
                    "--fail-above: \"Ir=+1%,\": empty item in the comma-separated list", false},
        BadSpecCase{"Ir", "--fail-above: \"Ir\": no '=' or '<='", true},
        BadSpecCase{"=+1%", "--fail-above: \"=+1%\": no metric name before '='", true},
        BadSpecCase{"Ir=+", "--fail-above: \"Ir=+\": a limit must be a number", true},
        BadSpecCase{"Ir=+1x%", "--fail-above: \"Ir=+1x%\": malformed percentage", true},
        BadSpecCase{"Ir=+1.5",
                    "--fail-above: \"Ir=+1.5\": malformed count (a count is a whole number; "
                    "add % for a relative limit)",
                    true},
        BadSpecCase{"Ir=+1%&", "--fail-above: \"Ir=+1%&\": empty condition after '&'", true},
        BadSpecCase{"Ir<=-5", "--fail-above: \"Ir<=-5\": a limit must be a number", true}));

TEST(DiffThresholds, PerFunctionThresholdsCheckEachFunctionsSelfCost)
{
    // The total is unchanged; helper's self cost rose by 25%, work's fell.
    const DiffResult diff =
        diff_profiles(load(test::two_event_profile()), load(test::shifted_profile()));
    const auto ten = parse_thresholds("Ir=+10%", "x");
    EXPECT_TRUE(exceeded_thresholds(diff, ten, ThresholdScope::totals).empty());
    const auto breaches = exceeded_thresholds(diff, ten, ThresholdScope::functions);
    ASSERT_EQ(breaches.size(), 1u);
    EXPECT_EQ(breaches[0].function->name, "helper");
    EXPECT_EQ(breaches[0].cost.delta(), 100);
}

TEST(DiffThresholds, AFunctionFilterLimitsPerFunctionThresholdsByNameOrObject)
{
    const DiffResult diff =
        diff_profiles(load(test::two_event_profile()), load(test::shifted_profile()));
    const auto t = parse_thresholds("Ir=+10%", "x");
    EXPECT_EQ(exceeded_thresholds(diff, t, ThresholdScope::functions, {{"help*"}, {}}).size(), 1u);
    EXPECT_TRUE(exceeded_thresholds(diff, t, ThresholdScope::functions, {{"work"}, {}}).empty());
    // helper is in /usr/bin/app, matched by its path or by its file name.
    EXPECT_EQ(exceeded_thresholds(diff, t, ThresholdScope::functions, {{}, {"app"}}).size(), 1u);
    EXPECT_EQ(exceeded_thresholds(diff, t, ThresholdScope::functions, {{}, {"/usr/*"}}).size(), 1u);
    EXPECT_TRUE(exceeded_thresholds(diff, t, ThresholdScope::functions, {{}, {"libc*"}}).empty());
}

TEST(DiffThresholds, AThresholdOnAMetricNotInBothProfilesIsAnError)
{
    const DiffResult diff =
        diff_profiles(load(test::two_event_profile()), load(test::two_event_profile()));
    EXPECT_EQ(error_of([&] {
                  exceeded_thresholds(diff, parse_thresholds("D1mr=+1%", "x"),
                                      ThresholdScope::totals);
              }),
              "threshold \"D1mr=+1%\": no metric \"D1mr\" in both profiles (compared: Ir Dr)");
}

} // namespace
} // namespace vgprof
