// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of `vgprof report` output, driven through write_report on the
// two-event fixture, without and with its call graph (see report_fixture.hpp
// for the arithmetic).
#include "report_fixture.hpp"

#include "cli/commands.hpp"
#include "vgprof/error.hpp"
#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace vgprof {
namespace {

using cli::ReportOptions;

std::string report_of(const test::ProfileText& profile, const ReportOptions& options)
{
    const Profile p = parse_profile(profile.str(), "app.json");
    std::ostringstream out;
    cli::write_report(out, p, options);
    return out.str();
}

std::string report(const ReportOptions& options)
{
    return report_of(test::two_event_profile(), options);
}

std::string call_graph_report(const ReportOptions& options)
{
    return report_of(test::two_event_call_graph_profile(), options);
}

// The vgprof::Error message of a report that cannot be written.
std::string report_error(const test::ProfileText& profile, const ReportOptions& options)
{
    try {
        report_of(profile, options);
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

// Every recorded event shown (--events all): the wide layout these tests
// state; the default columns are ReportDefaultColumns' concern.
ReportOptions options(std::string sort = "", double threshold = 0.1, size_t top = 0)
{
    ReportOptions o;
    o.profile = "app.json";
    o.events = {"all"};
    o.sort = std::move(sort);
    o.threshold = threshold;
    o.top = top;
    return o;
}

ReportOptions inclusive_options(std::string sort = "", double threshold = 0.1)
{
    ReportOptions o = options(std::move(sort), threshold);
    o.inclusive = true;
    return o;
}

ReportOptions function_options(std::string name, std::string format = "text", std::string sort = "")
{
    ReportOptions o = options(std::move(sort));
    o.function = std::move(name);
    o.format = std::move(format);
    return o;
}

// The part after the last rule: the function rows.
std::string function_rows(const std::string& text)
{
    const std::string rule = std::string(80, '-') + "\n";
    return text.substr(text.rfind(rule) + rule.size());
}

TEST(ReportText, ShowsHeaderTotalsAndFunctionsByFirstEventLikeCgAnnotate)
{
    // Ir counts are right-aligned to "10,000", Dr counts to "5,000".
    EXPECT_EQ(report(options()),
              "--------------------------------------------------------------------------------\n"
              "Profile:          app.json\n"
              "Command:          ./app -n 3\n"
              "Events recorded:  Ir Dr\n"
              "Events shown:     Ir Dr\n"
              "Event sort order: Ir\n"
              "Threshold:        0.1%\n"
              "--------------------------------------------------------------------------------\n"
              "Ir              Dr\n"
              "--------------------------------------------------------------------------------\n"
              "10,000 (100.0%) 5,000 (100.0%)  PROGRAM TOTALS\n"
              "\n"
              "--------------------------------------------------------------------------------\n"
              "Ir              Dr              function (file:line)  [object]\n"
              "--------------------------------------------------------------------------------\n"
              " 8,000  (80.0%) 1,000  (20.0%)  work (/src/app.c:3)  [/usr/bin/app]\n"
              " 1,500  (15.0%) 3,990  (79.8%)  memset  [/lib/libc.so.6]\n"
              "   400   (4.0%)     0   (0.0%)  helper (/src/app.c:20)  [/usr/bin/app]\n"
              "   100   (1.0%)    10   (0.2%)  main (/src/app.c:10)  [/usr/bin/app]\n");
}

TEST(ReportText, SortEventOrdersRowsAndItsThresholdHidesFunctionsBelowIt)
{
    // helper has no Dr at all: 0% is below 0.1%.
    const std::string text = report(options("Dr"));
    EXPECT_NE(text.find("Event sort order: Dr\n"), std::string::npos);
    EXPECT_EQ(function_rows(text),
              " 1,500  (15.0%) 3,990  (79.8%)  memset  [/lib/libc.so.6]\n"
              " 8,000  (80.0%) 1,000  (20.0%)  work (/src/app.c:3)  [/usr/bin/app]\n"
              "   100   (1.0%)    10   (0.2%)  main (/src/app.c:10)  [/usr/bin/app]\n"
              "   400   (4.0%)     0   (0.0%)  (1 function below the 0.1% threshold, not shown)\n");
}

TEST(ReportText, FunctionsBelowTheThresholdAreSummedOnOneLine)
{
    // main is 1.0% of Ir, under a 2% threshold.
    EXPECT_EQ(function_rows(report(options("", 2))),
              " 8,000  (80.0%) 1,000  (20.0%)  work (/src/app.c:3)  [/usr/bin/app]\n"
              " 1,500  (15.0%) 3,990  (79.8%)  memset  [/lib/libc.so.6]\n"
              "   400   (4.0%)     0   (0.0%)  helper (/src/app.c:20)  [/usr/bin/app]\n"
              "   100   (1.0%)    10   (0.2%)  (1 function below the 2% threshold, not shown)\n");
}

TEST(ReportText, TopLimitsTheRowsAndCountsWhatItCut)
{
    // helper is cut by --top 2, main by the threshold: Ir 400 + 100, Dr 0 + 10.
    const std::string text = report(options("", 2, 2));
    EXPECT_NE(text.find("Function limit:   2\n"), std::string::npos);
    EXPECT_EQ(function_rows(text),
              " 8,000  (80.0%) 1,000  (20.0%)  work (/src/app.c:3)  [/usr/bin/app]\n"
              " 1,500  (15.0%) 3,990  (79.8%)  memset  [/lib/libc.so.6]\n"
              "   500   (5.0%)    10   (0.2%)  (2 functions not shown: 1 below the 2% threshold, "
              "1 beyond --top 2)\n");
}

TEST(ReportText, ZeroThresholdShowsEveryFunctionThatRan)
{
    const std::string rows = function_rows(report(options("Dr", 0)));
    EXPECT_NE(rows.find("helper"), std::string::npos);
    EXPECT_EQ(rows.find("not shown"), std::string::npos);
}

TEST(ReportJson, ListsTheSameFunctionsInTheSameOrderWithTotalsByEvent)
{
    ReportOptions o = options("", 2, 2);
    o.format = "json";
    EXPECT_EQ(report(o),
              R"({"profile":"app.json","command":["./app","-n","3"],"events":["Ir","Dr"],)"
              R"("sort":"Ir","sort_cost":"self","totals":{"Ir":10000,"Dr":5000},"functions":[)"
              R"({"name":"work","file":"/src/app.c","line":3,"object":"/usr/bin/app",)"
              R"("self":{"Ir":8000,"Dr":1000}},)"
              R"({"name":"memset","file":"???","line":0,"object":"/lib/libc.so.6",)"
              R"("self":{"Ir":1500,"Dr":3990}}],)"
              R"("omitted":{"functions":2,"self":{"Ir":500,"Dr":10}}})"
              "\n");
}

TEST(Report, UnknownSortEventIsAnErrorNamingTheRecordedEvents)
{
    try {
        report(options("D1mr"));
        FAIL() << "sorted by an event the profile lacks";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), R"(app.json: no event "D1mr" to sort by (events recorded: Ir Dr))");
    }
}

// --- with a call graph ------------------------------------------------------------

TEST(ReportText, CallGraphAddsAnInclusiveColumnBesideEachSelfColumnSortedBySelf)
{
    // "Ir self" is wider than "10,000": every Ir column pads to 7 digits.
    EXPECT_EQ(call_graph_report(options()),
              "--------------------------------------------------------------------------------\n"
              "Profile:          app.json\n"
              "Command:          ./app -n 3\n"
              "Events recorded:  Ir Dr\n"
              "Events shown:     Ir Dr\n"
              "Event sort order: Ir (self)\n"
              "Threshold:        0.1%\n"
              "--------------------------------------------------------------------------------\n"
              "Ir              Dr\n"
              "--------------------------------------------------------------------------------\n"
              "10,000 (100.0%) 5,000 (100.0%)  PROGRAM TOTALS\n"
              "\n"
              "--------------------------------------------------------------------------------\n"
              "Ir self          Ir incl          Dr self          Dr incl           "
              "function (file:line)  [object]\n"
              "--------------------------------------------------------------------------------\n"
              "  8,000  (80.0%)   9,000  (90.0%)   1,000  (20.0%)   3,000  (60.0%)  "
              "work (/src/app.c:3)  [/usr/bin/app]\n"
              "  1,500  (15.0%)   1,500  (15.0%)   3,990  (79.8%)   3,990  (79.8%)  "
              "memset  [/lib/libc.so.6]\n"
              "    400   (4.0%)     900   (9.0%)       0   (0.0%)   1,990  (39.8%)  "
              "helper (/src/app.c:20)  [/usr/bin/app]\n"
              "    100   (1.0%)  10,000 (100.0%)      10   (0.2%)   5,000 (100.0%)  "
              "main (/src/app.c:10)  [/usr/bin/app]\n");
}

TEST(ReportText, InclusiveSortsAndThresholdsByInclusiveCost)
{
    // Ir inclusive: main 100%, work 90%, memset 15%, helper 9% (< 10%). main,
    // 1% self, would be cut by a 10% self threshold. The omitted row sums
    // self costs only: inclusive costs overlap.
    const std::string text = call_graph_report(inclusive_options("", 10));
    EXPECT_NE(text.find("Event sort order: Ir (inclusive)\n"), std::string::npos) << text;
    EXPECT_EQ(function_rows(text),
              "    100   (1.0%)  10,000 (100.0%)      10   (0.2%)   5,000 (100.0%)  "
              "main (/src/app.c:10)  [/usr/bin/app]\n"
              "  8,000  (80.0%)   9,000  (90.0%)   1,000  (20.0%)   3,000  (60.0%)  "
              "work (/src/app.c:3)  [/usr/bin/app]\n"
              "  1,500  (15.0%)   1,500  (15.0%)   3,990  (79.8%)   3,990  (79.8%)  "
              "memset  [/lib/libc.so.6]\n"
              "    400   (4.0%)                        0   (0.0%)                   "
              "(1 function below the 10% threshold, not shown)\n");
}

TEST(ReportText, InclusiveSortUsesTheSortEventsInclusiveCost)
{
    // Dr inclusive: main 5000, memset 3990, work 3000, helper 1990.
    const std::string rows = function_rows(call_graph_report(inclusive_options("Dr")));
    EXPECT_LT(rows.find("main"), rows.find("memset"));
    EXPECT_LT(rows.find("memset"), rows.find("work"));
    EXPECT_LT(rows.find("work"), rows.find("helper"));
}

TEST(ReportJson, CallGraphAddsEachFunctionsInclusiveCost)
{
    ReportOptions o = inclusive_options("", 0);
    o.top = 1;
    o.format = "json";
    EXPECT_EQ(call_graph_report(o),
              R"({"profile":"app.json","command":["./app","-n","3"],"events":["Ir","Dr"],)"
              R"("sort":"Ir","sort_cost":"inclusive","totals":{"Ir":10000,"Dr":5000},"functions":[)"
              R"({"name":"main","file":"/src/app.c","line":10,"object":"/usr/bin/app",)"
              R"("self":{"Ir":100,"Dr":10},"inclusive":{"Ir":10000,"Dr":5000}}],)"
              R"("omitted":{"functions":3,"self":{"Ir":9900,"Dr":4990}}})"
              "\n");
}

TEST(Report, InclusiveWithoutACallGraphIsAnErrorSayingWhy)
{
    EXPECT_EQ(report_error(test::two_event_profile(), inclusive_options()),
              "app.json: --inclusive needs the call graph, which this profile does not have "
              "(recorded with --call-graph=no)");
    EXPECT_EQ(report_error(test::two_event_profile().set("vgprof", "1"), inclusive_options()),
              "app.json: --inclusive needs the call graph, which this profile does not have "
              "(format version 1 has none)");
}

// --- --function ----------------------------------------------------------------------

TEST(ReportFunction, ShowsSelfAndInclusiveCostThenCallersAndCalleesPerCallSite)
{
    // work: called by main from app.c:11 and :12 and by itself from app.c:5;
    // calls itself (2000 Ir) and memset (1000 Ir), highest Ir first.
    EXPECT_EQ(call_graph_report(function_options("work")),
              "--------------------------------------------------------------------------------\n"
              "Profile:          app.json\n"
              "Command:          ./app -n 3\n"
              "Events recorded:  Ir Dr\n"
              "Events shown:     Ir Dr\n"
              "Event sort order: Ir (inclusive)\n"
              "Function:         work (/src/app.c:3)  [/usr/bin/app]\n"
              "--------------------------------------------------------------------------------\n"
              "Ir              Dr\n"
              "--------------------------------------------------------------------------------\n"
              "10,000 (100.0%) 5,000 (100.0%)  PROGRAM TOTALS\n"
              "\n"
              "--------------------------------------------------------------------------------\n"
              "Ir self          Ir incl          Dr self          Dr incl           "
              "function (file:line)  [object]\n"
              "--------------------------------------------------------------------------------\n"
              "  8,000  (80.0%)   9,000  (90.0%)   1,000  (20.0%)   3,000  (60.0%)  "
              "work (/src/app.c:3)  [/usr/bin/app]\n"
              "\n"
              "--------------------------------------------------------------------------------\n"
              "Ir incl          Dr incl           calls  callers  [object]  call site\n"
              "--------------------------------------------------------------------------------\n"
              "  5,000  (50.0%)   1,000  (20.0%)      1  main  [/usr/bin/app]  /src/app.c:11\n"
              "  4,000  (40.0%)   2,000  (40.0%)      1  main  [/usr/bin/app]  /src/app.c:12\n"
              "  2,000  (20.0%)     200   (4.0%)      1  work  [/usr/bin/app]  /src/app.c:5\n"
              "\n"
              "--------------------------------------------------------------------------------\n"
              "Ir incl          Dr incl           calls  callees  [object]  call site\n"
              "--------------------------------------------------------------------------------\n"
              "  2,000  (20.0%)     200   (4.0%)      1  work  [/usr/bin/app]  /src/app.c:5\n"
              "  1,000  (10.0%)   2,000  (40.0%)      1  memset  [/lib/libc.so.6]  /src/app.c:6\n");
}

TEST(ReportFunction, SortEventOrdersCallersAndCallees)
{
    // Dr of work's callees: memset 2000, work 200.
    const std::string text = call_graph_report(function_options("work", "text", "Dr"));
    EXPECT_NE(text.find("Event sort order: Dr (inclusive)\n"), std::string::npos) << text;
    // work's recursive call is both a caller and a callee row: the last is the callee.
    EXPECT_LT(text.find("memset  [/lib"), text.rfind("work  [/usr/bin/app]  /src/app.c:5\n"));
}

TEST(ReportFunction, RootAndLeafSayTheyHaveNoCallersOrCallees)
{
    const std::string main_text = call_graph_report(function_options("main"));
    EXPECT_NE(main_text.find("call site\n" + std::string(80, '-') + "\n(no callers)\n"),
              std::string::npos)
        << main_text;
    const std::string memset_text = call_graph_report(function_options("memset"));
    EXPECT_EQ(memset_text.substr(memset_text.size() - 13), "(no callees)\n") << memset_text;
}

TEST(ReportFunction, CallCountsOfTheSameCallerAndSiteAreShownAsRecorded)
{
    // helper calls memset twice from app.c:23.
    EXPECT_NE(call_graph_report(function_options("helper"))
                  .find("    500   (5.0%)   1,990  (39.8%)      2  memset  [/lib/libc.so.6]  "
                        "/src/app.c:23\n"),
              std::string::npos);
}

TEST(ReportFunction, PartOfANameFindsTheOnlyFunctionContainingIt)
{
    EXPECT_NE(call_graph_report(function_options("mems"))
                  .find("Function:         memset  [/lib/libc.so.6]\n"),
              std::string::npos);
}

TEST(ReportFunctionJson, FunctionCostsThenCallersAndCalleesWithSiteCountAndInclusiveCost)
{
    EXPECT_EQ(call_graph_report(function_options("memset", "json")),
              R"({"profile":"app.json","command":["./app","-n","3"],"events":["Ir","Dr"],)"
              R"("sort":"Ir","sort_cost":"inclusive","totals":{"Ir":10000,"Dr":5000},)"
              R"("function":{"name":"memset","file":"???","line":0,"object":"/lib/libc.so.6",)"
              R"("self":{"Ir":1500,"Dr":3990},"inclusive":{"Ir":1500,"Dr":3990}},)"
              R"("callers":[{"name":"work","file":"/src/app.c","line":3,"object":"/usr/bin/app",)"
              R"("site":{"file":"/src/app.c","line":6},"count":1,"inclusive":{"Ir":1000,"Dr":2000}},)"
              R"({"name":"helper","file":"/src/app.c","line":20,"object":"/usr/bin/app",)"
              R"("site":{"file":"/src/app.c","line":23},"count":2,"inclusive":{"Ir":500,"Dr":1990}}],)"
              R"("callees":[]})"
              "\n");
}

TEST(ReportFunction, ProfileWithoutACallGraphIsAnErrorSayingWhy)
{
    EXPECT_EQ(report_error(test::two_event_profile(), function_options("work")),
              "app.json: --function needs the call graph, which this profile does not have "
              "(recorded with --call-graph=no)");
}

TEST(ReportFunction, UnknownOrAmbiguousNameIsAnErrorNamingTheProfile)
{
    EXPECT_EQ(report_error(test::two_event_call_graph_profile(), function_options("zlib")),
              R"(app.json: no function is named "zlib" or has it in its name)");
    EXPECT_EQ(report_error(test::two_event_call_graph_profile(), function_options("e")),
              "app.json: \"e\" is in the names of 2 functions:\n"
              "  helper (/src/app.c:20)  [/usr/bin/app]\n"
              "  memset  [/lib/libc.so.6]\n"
              "(give one as listed to choose it)");
}

// --- --thread ---------------------------------------------------------------------------

ReportOptions thread_options(uint32_t tid, ReportOptions o = options())
{
    o.thread = tid;
    return o;
}

std::string thread_report(const ReportOptions& options)
{
    return report_of(test::two_thread_profile(), options);
}

TEST(ReportThread, SelfAndInclusiveColumnsAreTheThreadsSaidInTheHeader)
{
    // tid 2 (report_fixture.hpp), from its path nodes 5-7: work self
    // 2500+1500 Ir, 300+100 Dr, inclusive 4400/1200; memset 400/800; helper
    // and main never ran there. The thread's totals: 4400/1200.
    EXPECT_EQ(thread_report(thread_options(2)),
              "--------------------------------------------------------------------------------\n"
              "Profile:          app.json\n"
              "Command:          ./app -n 3\n"
              "Events recorded:  Ir Dr\n"
              "Events shown:     Ir Dr\n"
              "Event sort order: Ir (self)\n"
              "Threshold:        0.1%\n"
              "Thread:           2 (self and inclusive costs and calls of this thread; "
              "percentages of the whole program's totals)\n"
              "--------------------------------------------------------------------------------\n"
              "Ir              Dr\n"
              "--------------------------------------------------------------------------------\n"
              "10,000 (100.0%) 5,000 (100.0%)  PROGRAM TOTALS\n"
              "\n"
              " 4,400  (44.0%) 1,200  (24.0%)  THREAD 2 TOTALS\n"
              "--------------------------------------------------------------------------------\n"
              "Ir self          Ir incl          Dr self          Dr incl           "
              "function (file:line)  [object]\n"
              "--------------------------------------------------------------------------------\n"
              "  4,000  (40.0%)   4,400  (44.0%)     400   (8.0%)   1,200  (24.0%)  "
              "work (/src/app.c:3)  [/usr/bin/app]\n"
              "    400   (4.0%)     400   (4.0%)     800  (16.0%)     800  (16.0%)  "
              "memset  [/lib/libc.so.6]\n");
}

TEST(ReportThread, InclusiveSortsAndThresholdsByTheThreadsInclusiveCost)
{
    // tid 2's Ir inclusive: work 44%, memset 4% (helper and main never ran
    // there); under a 10% threshold only work stays. The omitted row is
    // memset's self cost in the thread: 400 Ir, 800 Dr.
    EXPECT_EQ(function_rows(thread_report(thread_options(2, inclusive_options("", 10)))),
              "  4,000  (40.0%)   4,400  (44.0%)     400   (8.0%)   1,200  (24.0%)  "
              "work (/src/app.c:3)  [/usr/bin/app]\n"
              "    400   (4.0%)                      800  (16.0%)                   "
              "(1 function below the 10% threshold, not shown)\n");
}

TEST(ReportThreadJson, CarriesTheThreadAndItsInclusiveCosts)
{
    ReportOptions o = thread_options(1, options("", 0, 1));
    o.format = "json";
    // tid 1 (path nodes 0-4): work self 4000/600, inclusive 4600/1800; three
    // functions left out, self memset 500+600, helper 400, main 100 Ir and
    // 1990+1200, 0, 10 Dr. The thread's totals: 5600/3800.
    EXPECT_EQ(thread_report(o),
              R"({"profile":"app.json","command":["./app","-n","3"],"events":["Ir","Dr"],)"
              R"("sort":"Ir","sort_cost":"self","thread":1,"totals":{"Ir":10000,"Dr":5000},)"
              R"("functions":[{"name":"work","file":"/src/app.c","line":3,"object":"/usr/bin/app",)"
              R"("self":{"Ir":4000,"Dr":600},"inclusive":{"Ir":4600,"Dr":1800}}],)"
              R"("thread_totals":{"Ir":5600,"Dr":3800},)"
              R"("thread_below_truncated_node":{"Ir":0,"Dr":0},)"
              R"("omitted":{"functions":3,"self":{"Ir":1600,"Dr":3200}}})"
              "\n");
}

TEST(ReportThread, FunctionShowsTheThreadsCallersAndCallees)
{
    // In tid 2, work is the thread's start: called only by itself (app.c:5),
    // calling itself (1500/100) and memset from app.c:6 (400/800); its self
    // cost there 2500+1500 Ir, 300+100 Dr.
    EXPECT_EQ(thread_report(thread_options(2, function_options("work"))),
              "--------------------------------------------------------------------------------\n"
              "Profile:          app.json\n"
              "Command:          ./app -n 3\n"
              "Events recorded:  Ir Dr\n"
              "Events shown:     Ir Dr\n"
              "Event sort order: Ir (inclusive)\n"
              "Function:         work (/src/app.c:3)  [/usr/bin/app]\n"
              "Thread:           2 (self and inclusive costs and calls of this thread; "
              "percentages of the whole program's totals)\n"
              "--------------------------------------------------------------------------------\n"
              "Ir              Dr\n"
              "--------------------------------------------------------------------------------\n"
              "10,000 (100.0%) 5,000 (100.0%)  PROGRAM TOTALS\n"
              "\n"
              "--------------------------------------------------------------------------------\n"
              "Ir self          Ir incl          Dr self          Dr incl           "
              "function (file:line)  [object]\n"
              "--------------------------------------------------------------------------------\n"
              "  4,000  (40.0%)   4,400  (44.0%)     400   (8.0%)   1,200  (24.0%)  "
              "work (/src/app.c:3)  [/usr/bin/app]\n"
              "\n"
              "--------------------------------------------------------------------------------\n"
              "Ir incl          Dr incl           calls  callers  [object]  call site\n"
              "--------------------------------------------------------------------------------\n"
              "  1,500  (15.0%)     100   (2.0%)      1  work  [/usr/bin/app]  /src/app.c:5\n"
              "\n"
              "--------------------------------------------------------------------------------\n"
              "Ir incl          Dr incl           calls  callees  [object]  call site\n"
              "--------------------------------------------------------------------------------\n"
              "  1,500  (15.0%)     100   (2.0%)      1  work  [/usr/bin/app]  /src/app.c:5\n"
              "    400   (4.0%)     800  (16.0%)      1  memset  [/lib/libc.so.6]  /src/app.c:6\n");
}

TEST(ReportThread, FunctionThatNeverRanInTheThreadHasNoCallsThere)
{
    const std::string text = thread_report(thread_options(2, function_options("main")));
    EXPECT_NE(text.find("      0   (0.0%)       0   (0.0%)       0   (0.0%)       0   (0.0%)  "
                        "main"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("(no callers)\n"), std::string::npos);
    EXPECT_NE(text.find("(no callees)\n"), std::string::npos);
}

TEST(ReportThreadJson, FunctionCarriesTheThreadAndItsCalls)
{
    // memset in tid 1: 500 + 600 = 1100 Ir self and inclusive, 1990 + 1200
    // Dr; work's call (600 Ir) above helper's two (500 Ir).
    EXPECT_EQ(thread_report(thread_options(1, function_options("memset", "json"))),
              R"({"profile":"app.json","command":["./app","-n","3"],"events":["Ir","Dr"],)"
              R"("sort":"Ir","sort_cost":"inclusive","thread":1,"totals":{"Ir":10000,"Dr":5000},)"
              R"("function":{"name":"memset","file":"???","line":0,"object":"/lib/libc.so.6",)"
              R"("self":{"Ir":1100,"Dr":3190},"inclusive":{"Ir":1100,"Dr":3190}},)"
              R"("callers":[{"name":"work","file":"/src/app.c","line":3,"object":"/usr/bin/app",)"
              R"("site":{"file":"/src/app.c","line":6},"count":1,"inclusive":{"Ir":600,"Dr":1200}},)"
              R"({"name":"helper","file":"/src/app.c","line":20,"object":"/usr/bin/app",)"
              R"("site":{"file":"/src/app.c","line":23},"count":2,"inclusive":{"Ir":500,"Dr":1990}}],)"
              R"("callees":[]})"
              "\n");
}

TEST(ReportThread, UnknownThreadIsAnErrorListingTheThreads)
{
    EXPECT_EQ(report_error(test::two_thread_profile(), thread_options(3)),
              "app.json: no thread 3 in this profile (threads: 1 2)");
    EXPECT_EQ(report_error(test::two_thread_profile(), thread_options(3, function_options("work"))),
              "app.json: no thread 3 in this profile (threads: 1 2)");
}

TEST(ReportThread, ProfileWithoutPerThreadGraphsIsAnErrorSayingWhy)
{
    EXPECT_EQ(report_error(test::two_event_call_graph_profile(), thread_options(1)),
              "app.json: --thread needs per-thread call graphs, which this profile does not have "
              "(recorded without --separate-threads=yes)");
    EXPECT_EQ(report_error(test::two_event_profile(), thread_options(1)),
              "app.json: --thread needs the call graph, which this profile does not have "
              "(recorded with --call-graph=no)");
}

// --- cache and branch events (--events, --miss-rates) ------------------------------

ReportOptions events_options(std::vector<std::string> events, bool miss_rates = false)
{
    ReportOptions o = options();
    o.events = std::move(events);
    o.miss_rates = miss_rates;
    return o;
}

std::string cache_report(const ReportOptions& options)
{
    return report_of(test::cache_profile(), options);
}

TEST(ReportCache, HeaderShowsTheSimulatedCachesAndBranches)
{
    const std::string text = cache_report(events_options({"Ir"}));
    EXPECT_EQ(text.substr(0, text.find("Event sort order")),
              "--------------------------------------------------------------------------------\n"
              "Profile:          app.json\n"
              "Command:          ./app -n 3\n"
              "Events recorded:  Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim\n"
              "Events shown:     Ir\n"
              "Caches:           I1 32768 B 8-way 64 B lines; D1 32768 B 8-way 64 B lines; "
              "LL 8388608 B 16-way 64 B lines\n"
              "Branches:         simulated\n");
}

TEST(ReportCache, OnlySimulatedBranchesSayNothingOfCaches)
{
    const test::ProfileText branches = test::branch_profile();
    const std::string text = report_of(branches, options());
    EXPECT_EQ(text.find("Caches:"), std::string::npos);
    EXPECT_NE(text.find("Events shown:     Ir Bc Bcm Bi Bim\nBranches:         simulated\n"),
              std::string::npos);
}

TEST(ReportCache, EventsChoosesTheColumnsAndTheirOrderForANarrowTable)
{
    // Ir is right-aligned to "10,000", D1mr to its label (the total is "100").
    const std::string text = cache_report(events_options({"Ir", "D1mr"}));
    EXPECT_NE(text.find("Ir              D1mr\n"
                        "--------------------------------------------------------------------------------\n"
                        "10,000 (100.0%)  100 (100.0%)  PROGRAM TOTALS\n"),
              std::string::npos);
    EXPECT_EQ(function_rows(text),
              " 8,000  (80.0%)  100 (100.0%)  work (/src/app.c:3)  [/usr/bin/app]\n"
              " 2,000  (20.0%)    0   (0.0%)  main (/src/app.c:10)  [/usr/bin/app]\n");
    // D1mw's counts are right-aligned to its label, wider than "200".
    EXPECT_EQ(function_rows(cache_report(events_options({"D1mw", "Ir"}))),
              "  50  (25.0%)  8,000  (80.0%)  work (/src/app.c:3)  [/usr/bin/app]\n"
              " 150  (75.0%)  2,000  (20.0%)  main (/src/app.c:10)  [/usr/bin/app]\n");
}

TEST(ReportCache, SortEventNeedNotBeShown)
{
    // By D1mw main (150) comes before work (50).
    ReportOptions o = events_options({"Ir"});
    o.sort = "D1mw";
    const std::string text = cache_report(o);
    EXPECT_NE(text.find("Event sort order: D1mw\n"), std::string::npos);
    EXPECT_EQ(function_rows(text),
              " 2,000  (20.0%)  main (/src/app.c:10)  [/usr/bin/app]\n"
              " 8,000  (80.0%)  work (/src/app.c:3)  [/usr/bin/app]\n");
}

TEST(ReportCache, EveryRowOfAllThirteenEventsKeepsTheHeadersColumns)
{
    const std::string rows = function_rows(cache_report(options()));
    const std::string text = cache_report(options());
    const size_t header = text.rfind("function (file:line)");
    const size_t header_column = header - text.rfind('\n', header) - 1;
    size_t start = 0;
    for (const char* fn : {"work (", "main ("}) {
        const size_t at = rows.find(fn, start);
        ASSERT_NE(at, std::string::npos) << fn;
        EXPECT_EQ(at - start, header_column) << fn;
        start = rows.find('\n', at) + 1;
    }
}

TEST(ReportCache, UnknownOrRepeatedEventIsAnErrorNamingTheRecordedEvents)
{
    EXPECT_EQ(report_error(test::two_event_profile(), events_options({"Ir", "D1mr"})),
              R"(app.json: no event "D1mr" to show (events recorded: Ir Dr))");
    EXPECT_EQ(report_error(test::two_event_profile(), events_options({"Dr", "Ir", "Dr"})),
              R"(app.json: --events lists "Dr" twice)");
}

TEST(ReportCache, MissRatesAddCachegrindsSummaryAndARateBesideEachShownMissEvent)
{
    // Rates from report_fixture.hpp; main's D1mr/Dr has no Dr to miss.
    EXPECT_EQ(cache_report(events_options({"Ir", "I1mr", "Dr", "D1mr"}, true)),
              "--------------------------------------------------------------------------------\n"
              "Profile:          app.json\n"
              "Command:          ./app -n 3\n"
              "Events recorded:  Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim\n"
              "Events shown:     Ir I1mr Dr D1mr\n"
              "Caches:           I1 32768 B 8-way 64 B lines; D1 32768 B 8-way 64 B lines; "
              "LL 8388608 B 16-way 64 B lines\n"
              "Branches:         simulated\n"
              "Event sort order: Ir\n"
              "Threshold:        0.1%\n"
              "--------------------------------------------------------------------------------\n"
              "Ir              I1mr          Dr             D1mr\n"
              "--------------------------------------------------------------------------------\n"
              "10,000 (100.0%)  100 (100.0%) 2,000 (100.0%)  100 (100.0%)  PROGRAM TOTALS\n"
              "\n"
              "I1 miss rate:       1.00%  I1mr/Ir\n"
              "LLi miss rate:      0.10%  ILmr/Ir\n"
              "D1 miss rate:       7.50%  (D1mr+D1mw)/(Dr+Dw)\n"
              "LLd miss rate:      1.50%  (DLmr+DLmw)/(Dr+Dw)\n"
              "LL miss rate:       0.50%  (ILmr+DLmr+DLmw)/(Ir+Dr+Dw)\n"
              "Mispred rate:       6.82%  (Bcm+Bim)/(Bc+Bi)\n"
              "\n"
              "--------------------------------------------------------------------------------\n"
              "Ir              I1mr          I1mr/Ir Dr             D1mr          D1mr/Dr  "
              "function (file:line)  [object]\n"
              "--------------------------------------------------------------------------------\n"
              " 8,000  (80.0%)   80  (80.0%)   1.00% 2,000 (100.0%)  100 (100.0%)   5.00%  "
              "work (/src/app.c:3)  [/usr/bin/app]\n"
              " 2,000  (20.0%)   20  (20.0%)   1.00%     0   (0.0%)    0   (0.0%)       -  "
              "main (/src/app.c:10)  [/usr/bin/app]\n");
}

TEST(ReportCache, MissRatesOfTheOmittedRowAreThoseOfTheOmittedFunctionsSelfCosts)
{
    // main, cut by --top 1, is the omitted row: D1mw/Dw 150/1000.
    ReportOptions o = events_options({"Dw", "D1mw"}, true);
    o.top = 1;
    EXPECT_EQ(function_rows(cache_report(o)),
              "1,000  (50.0%)   50  (25.0%)   5.00%  work (/src/app.c:3)  [/usr/bin/app]\n"
              "1,000  (50.0%)  150  (75.0%)  15.00%  (1 function beyond --top 1, not shown)\n");
}

TEST(ReportCache, WithACallGraphEachRateHasASelfAndAnInclusiveColumn)
{
    // main's inclusive D1mr/Dr is the program's, 100/2000. Each column is as
    // wide as its label ("D1mr self", "D1mr/Dr incl").
    const std::string text =
        report_of(test::cache_call_graph_profile(), events_options({"D1mr"}, true));
    EXPECT_NE(text.find("D1mr self          D1mr incl          D1mr/Dr self D1mr/Dr incl  "
                        "function (file:line)  [object]\n"),
              std::string::npos);
    EXPECT_EQ(function_rows(text),
              "      100 (100.0%)       100 (100.0%)        5.00%        5.00%  "
              "work (/src/app.c:3)  [/usr/bin/app]\n"
              "        0   (0.0%)       100 (100.0%)            -        5.00%  "
              "main (/src/app.c:10)  [/usr/bin/app]\n");
}

TEST(ReportCache, FunctionViewShowsTheChosenEventsAndRatesOfEachCall)
{
    ReportOptions o = function_options("work");
    o.events = {"Dw", "D1mw"};
    o.miss_rates = true;
    // main's one call of work costs work's own Dw 1000 and D1mw 50.
    const std::string text = report_of(test::cache_call_graph_profile(), o);
    EXPECT_NE(text.find("Dw incl          D1mw incl          D1mw/Dw incl  calls  callers  "
                        "[object]  call site\n"
                        "--------------------------------------------------------------------------------\n"
                        "  1,000  (50.0%)        50  (25.0%)        5.00%      1  main  "
                        "[/usr/bin/app]  /src/app.c:12\n"),
              std::string::npos)
        << text;
}

TEST(ReportCache, MissRatesWithoutCacheOrBranchEventsIsAnErrorSayingWhy)
{
    EXPECT_EQ(report_error(test::two_event_profile(), events_options({}, true)),
              "app.json: --miss-rates needs cache or branch events, which this profile does not "
              "have (recorded without --cache-sim=yes or --branch-sim=yes)");
}

TEST(ReportCacheJson, CarriesTheCacheTheShownEventsAndTheRatesAsFractions)
{
    ReportOptions o = events_options({"D1mw", "Dw"}, true);
    o.format = "json";
    EXPECT_EQ(cache_report(o),
              R"({"profile":"app.json","command":["./app","-n","3"],"events":["D1mw","Dw"],)"
              R"("cache":{"I1":[32768,8,64],"D1":[32768,8,64],"LL":[8388608,16,64],"branches":true},)"
              R"("sort":"Ir","sort_cost":"self","totals":{"D1mw":200,"Dw":2000},)"
              R"("miss_rates":{"I1":1E-2,"LLi":1E-3,"D1":7.5E-2,"LLd":1.5E-2,"LL":5E-3,)"
              R"("Mispred":6.818181818181818E-2},"functions":[)"
              R"({"name":"work","file":"/src/app.c","line":3,"object":"/usr/bin/app",)"
              R"("self":{"D1mw":50,"Dw":1000},"self_miss_rates":{"D1mw/Dw":5E-2}},)"
              R"({"name":"main","file":"/src/app.c","line":10,"object":"/usr/bin/app",)"
              R"("self":{"D1mw":150,"Dw":1000},"self_miss_rates":{"D1mw/Dw":1.5E-1}}],)"
              R"("omitted":{"functions":0,"self":{"D1mw":0,"Dw":0},)"
              R"("self_miss_rates":{"D1mw/Dw":null}}})"
              "\n");
}

} // namespace
} // namespace vgprof

namespace vgprof {
namespace {

// LLm sums every last-level miss, as cachegrind's "LL misses" line: work's
// 8 + 20 + 10 = 38 of 10 + 20 + 40 = 70, main's 2 + 0 + 30 = 32.
TEST(ReportDefaultColumns, AreTheFirstEventAndAllLastLevelMissesSoThatARowFitsATerminal)
{
    ReportOptions o = options();
    o.events.clear();
    const std::string text = report_of(test::cache_profile(), o);
    EXPECT_NE(text.find("Events shown:     Ir LLm\n"), std::string::npos) << text;
    EXPECT_EQ(function_rows(text),
              " 8,000  (80.0%)  38  (54.3%)  work (/src/app.c:3)  [/usr/bin/app]\n"
              " 2,000  (20.0%)  32  (45.7%)  main (/src/app.c:10)  [/usr/bin/app]\n");
}

TEST(ReportDefaultColumns, WithoutCachesTheSummaryIsEveryMispredictedBranch)
{
    const test::ProfileText branches = test::branch_profile();
    ReportOptions o = options(std::string(), 0);
    o.events.clear();
    const std::string text = report_of(branches, o);
    EXPECT_NE(text.find("Events shown:     Ir Bm\n"), std::string::npos) << text;
    // work: 2 + 1 of 3 + 1; main: 1 + 0.
    EXPECT_NE(function_rows(text).find("2,484,747 (100.0%)  3  (75.0%)  work"), std::string::npos)
        << text;
}

TEST(ReportDefaultColumns, EventsAllShowsEveryRecordedEventAndJsonDoesByDefault)
{
    const std::string text = report_of(test::cache_profile(), events_options({"all"}));
    EXPECT_NE(text.find("Events shown:     Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim\n"),
              std::string::npos);
    ReportOptions json = options();
    json.events.clear();
    json.format = "json";
    const std::string out = report_of(test::cache_profile(), json);
    EXPECT_NE(out.find(R"("events":["Ir","I1mr","ILmr","Dr","D1mr","DLmr","Dw","D1mw","DLmw","Bc","Bcm","Bi","Bim"])"),
              std::string::npos)
        << out;
}

TEST(ReportDefaultColumns, SumsCanBeChosenLikeEventsAndComeAfterThem)
{
    const std::string text = report_of(test::cache_profile(), events_options({"LLm", "D1mr"}));
    EXPECT_NE(text.find("Events shown:     D1mr LLm\n"), std::string::npos) << text;
    EXPECT_EQ(report_error(test::two_event_profile(), events_options({"LLm"})),
              R"(app.json: no event "LLm" to show (events recorded: Ir Dr))");
}

TEST(ReportText, StripPrefixShortensTheFunctionsPaths)
{
    ReportOptions o = options();
    o.strip_prefixes = {"/src", "/usr/bin"};
    EXPECT_NE(function_rows(report(o)).find("work (app.c:3)  [app]"), std::string::npos)
        << report(o);
}

} // namespace
} // namespace vgprof
