// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of `vgprof report` output, driven through write_report on the
// two-event fixture (see report_fixture.hpp for the arithmetic).
#include "report_fixture.hpp"

#include "cli/commands.hpp"
#include "vgprof/error.hpp"
#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace vgprof {
namespace {

using cli::ReportOptions;

std::string report(const ReportOptions& options)
{
    const Profile p = parse_profile(test::two_event_profile().str(), "app.json");
    std::ostringstream out;
    cli::write_report(out, p, options);
    return out.str();
}

ReportOptions options(std::string sort = "", double threshold = 0.1, size_t top = 0)
{
    ReportOptions o;
    o.profile = "app.json";
    o.sort = std::move(sort);
    o.threshold = threshold;
    o.top = top;
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
              R"("sort":"Ir","totals":{"Ir":10000,"Dr":5000},"functions":[)"
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

} // namespace
} // namespace vgprof
