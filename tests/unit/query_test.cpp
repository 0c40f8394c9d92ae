// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of the per-function queries (self and inclusive costs,
// callers and callees, finding a function by name) and of formatting.
#include "profile_text.hpp"
#include "report_fixture.hpp"

#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

#include <gtest/gtest.h>

#include <tuple>

namespace vgprof {
namespace {

std::vector<std::string> names(const Profile& p, const std::vector<FunctionCost>& costs)
{
    std::vector<std::string> out;
    for (const FunctionCost& c : costs)
        out.push_back(p.fn_name(c.fn));
    return out;
}

// Function ids of the two-event fixture (report_fixture.hpp).
const FnId kMemset(0), kHelper(1), kMain(2), kWork(3);

Profile call_graph_profile()
{
    return parse_profile(test::two_event_call_graph_profile().str(), "p.json");
}

// (fn, site line or 0 when merged, count, Ir, Dr) per row, for comparing
// call rows in one expression.
using CallRow = std::tuple<FnId, uint32_t, uint64_t, uint64_t, uint64_t>;

std::vector<CallRow> rows(const std::vector<CallCost>& calls)
{
    std::vector<CallRow> out;
    for (const CallCost& c : calls)
        out.emplace_back(c.fn, c.site ? c.site->line : 0, c.count, c.inclusive.at(0),
                         c.inclusive.at(1));
    return out;
}

// The message find_function throws for `name`.
std::string find_error(const Profile& p, const std::string& name)
{
    try {
        find_function(p, name);
    } catch (const Error& e) {
        return e.what();
    }
    return "(found)";
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
                                        .drop_call_graph()
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
                                 .drop_call_graph()
                                 .str();
    const Profile p = parse_profile(text, "p.json");
    std::vector<FunctionCost> costs = function_self_costs(p);
    sort_by_cost(costs, p, 0);
    ASSERT_EQ(costs.size(), 3u);
    EXPECT_EQ(costs[0].fn, FnId(2));  // a, /y.c
    EXPECT_EQ(costs[1].fn, FnId(1));  // a, /z.c
    EXPECT_EQ(costs[2].fn, FnId(0));  // b
}

TEST(FunctionCosts, InclusiveCostIsTheFunctionsInclusiveRowBesideItsSelfCost)
{
    const std::vector<FunctionCost> costs = function_costs(call_graph_profile());
    ASSERT_EQ(costs.size(), 4u);
    EXPECT_EQ(costs[kWork.index()].self, (std::vector<uint64_t>{8000, 1000}));
    // Its outermost call only: the recursive call's 2000/200 is inside it.
    EXPECT_EQ(costs[kWork.index()].inclusive, (std::vector<uint64_t>{9000, 3000}));
    EXPECT_EQ(costs[kMain.index()].inclusive, (std::vector<uint64_t>{10000, 5000}));
    EXPECT_EQ(costs[kHelper.index()].inclusive, (std::vector<uint64_t>{900, 1990}));
    EXPECT_EQ(costs[kMemset.index()].inclusive, (std::vector<uint64_t>{1500, 3990}));
}

TEST(FunctionCosts, ProfileWithoutCallGraphHasNoInclusiveCosts)
{
    const Profile p = parse_profile(test::two_event_profile().str(), "p.json");
    for (const FunctionCost& c : function_costs(p))
        EXPECT_TRUE(c.inclusive.empty());
    EXPECT_EQ(inclusive_cost(p, kWork), (std::vector<uint64_t>{0, 0}));
}

TEST(InclusiveCost, FunctionWithoutAnInclusiveRowCostsZero)
{
    const Profile p = parse_profile(test::two_event_call_graph_profile()
                                        .set("inclusive", "[[0,1500,3990],[2,10000,5000]]")
                                        .str(),
                                    "p.json");
    EXPECT_EQ(inclusive_cost(p, kMain), (std::vector<uint64_t>{10000, 5000}));
    EXPECT_EQ(inclusive_cost(p, kWork), (std::vector<uint64_t>{0, 0}));
}

TEST(DropZeroCosts, KeepsAFunctionWithOnlyAnInclusiveCost)
{
    // A dispatcher whose own instructions were all inlined away still ran.
    std::vector<FunctionCost> costs = {{FnId(0), {0, 0}, {0, 0}}, {FnId(1), {0, 0}, {5, 0}}};
    drop_zero_costs(costs);
    ASSERT_EQ(costs.size(), 1u);
    EXPECT_EQ(costs[0].fn, FnId(1));
}

TEST(SortByCost, InclusiveOrderPutsCallersAboveWhatTheyCall)
{
    const Profile p = call_graph_profile();
    std::vector<FunctionCost> costs = function_costs(p);
    // Ir inclusive: main 10000, work 9000, memset 1500, helper 900.
    sort_by_cost(costs, p, 0, CostKind::inclusive);
    EXPECT_EQ(names(p, costs), (std::vector<std::string>{"main", "work", "memset", "helper"}));
    // Dr inclusive: main 5000, memset 3990, work 3000, helper 1990.
    sort_by_cost(costs, p, 1, CostKind::inclusive);
    EXPECT_EQ(names(p, costs), (std::vector<std::string>{"main", "memset", "work", "helper"}));
}

TEST(CallersOf, MergesEachCallersSitesAndIncludesARecursiveCall)
{
    // main calls work from app.c:11 and :12 (5000+4000, 1000+2000); work
    // calls itself once (2000/200).
    EXPECT_EQ(rows(callers_of(call_graph_profile(), kWork)),
              (std::vector<CallRow>{{kMain, 0, 2, 9000, 3000}, {kWork, 0, 1, 2000, 200}}));
    for (const CallCost& c : callers_of(call_graph_profile(), kWork))
        EXPECT_EQ(c.site, std::nullopt);
}

TEST(CallersOf, SeparateCallSitesGiveOneRowPerSite)
{
    const Profile p = call_graph_profile();
    const std::vector<CallCost> callers = callers_of(p, kWork, CallSites::separate);
    EXPECT_EQ(rows(callers), (std::vector<CallRow>{{kMain, 11, 1, 5000, 1000},
                                                   {kMain, 12, 1, 4000, 2000},
                                                   {kWork, 5, 1, 2000, 200}}));
    ASSERT_TRUE(callers[0].site);
    EXPECT_EQ(p.file_path(callers[0].site->file), "/src/app.c");
}

TEST(CallersOf, FunctionWithTwoCallersHasARowForEach)
{
    // memset: twice from helper (500/1990), once from work (1000/2000).
    EXPECT_EQ(rows(callers_of(call_graph_profile(), kMemset)),
              (std::vector<CallRow>{{kHelper, 0, 2, 500, 1990}, {kWork, 0, 1, 1000, 2000}}));
}

TEST(CallersOf, RootFunctionHasNoCallers)
{
    EXPECT_TRUE(callers_of(call_graph_profile(), kMain).empty());
}

TEST(CallersOf, ProfileWithoutCallGraphHasNoCallers)
{
    const Profile p = parse_profile(test::two_event_profile().str(), "p.json");
    EXPECT_TRUE(callers_of(p, kWork).empty());
    EXPECT_TRUE(callees_of(p, kMain).empty());
}

TEST(CalleesOf, MergesSitesPerCalleeWithCountsAndInclusiveCostsOfTheCalls)
{
    EXPECT_EQ(rows(callees_of(call_graph_profile(), kMain)),
              (std::vector<CallRow>{{kHelper, 0, 1, 900, 1990}, {kWork, 0, 2, 9000, 3000}}));
    EXPECT_EQ(rows(callees_of(call_graph_profile(), kMain, CallSites::separate)),
              (std::vector<CallRow>{{kHelper, 13, 1, 900, 1990},
                                    {kWork, 11, 1, 5000, 1000},
                                    {kWork, 12, 1, 4000, 2000}}));
}

TEST(CalleesOf, RecursiveFunctionIsAmongItsOwnCallees)
{
    EXPECT_EQ(rows(callees_of(call_graph_profile(), kWork, CallSites::separate)),
              (std::vector<CallRow>{{kMemset, 6, 1, 1000, 2000}, {kWork, 5, 1, 2000, 200}}));
}

TEST(CalleesOf, LeafFunctionHasNoCallees)
{
    EXPECT_TRUE(callees_of(call_graph_profile(), kMemset).empty());
}

TEST(SortCallsByCost, HighestInclusiveCostOfTheEventFirst)
{
    const Profile p = call_graph_profile();
    std::vector<CallCost> callers = callers_of(p, kMemset);
    sort_by_cost(callers, p, 0);  // Ir: work 1000, helper 500
    EXPECT_EQ(callers[0].fn, kWork);
    std::vector<CallCost> sites = callers_of(p, kWork, CallSites::separate);
    sort_by_cost(sites, p, 1);  // Dr: main:12 2000, main:11 1000, work:5 200
    EXPECT_EQ(rows(sites), (std::vector<CallRow>{{kMain, 12, 1, 4000, 2000},
                                                 {kMain, 11, 1, 5000, 1000},
                                                 {kWork, 5, 1, 2000, 200}}));
}

TEST(SortCallsByCost, EqualCostsAreOrderedByNameThenCallSite)
{
    const Profile p = call_graph_profile();
    const FileId app(0);
    std::vector<CallCost> calls = {{kWork, CallSite{app, 4}, 1, {7, 0}},
                                   {kMain, CallSite{app, 12}, 1, {7, 0}},
                                   {kMain, CallSite{app, 11}, 1, {7, 0}}};
    sort_by_cost(calls, p, 0);
    EXPECT_EQ(rows(calls), (std::vector<CallRow>{{kMain, 11, 1, 7, 0},
                                                 {kMain, 12, 1, 7, 0},
                                                 {kWork, 4, 1, 7, 0}}));
}

// --- one thread's graph ---------------------------------------------------------------

Profile two_thread_profile()
{
    return parse_profile(test::two_thread_profile().str(), "p.json");
}

TEST(ThreadGraphQueries, CallersAndCalleesAreThoseOfTheThreadsCalls)
{
    const Profile p = two_thread_profile();
    const ThreadGraph& t1 = *p.thread(1);
    const ThreadGraph& t2 = *p.thread(2);
    // tid 2 began in work: its only call into work is the recursive one.
    EXPECT_EQ(rows(callers_of(t2, kWork)), (std::vector<CallRow>{{kWork, 0, 1, 1500, 100}}));
    EXPECT_EQ(rows(callees_of(t2, kWork, CallSites::separate)),
              (std::vector<CallRow>{{kMemset, 6, 1, 400, 800}, {kWork, 5, 1, 1500, 100}}));
    EXPECT_EQ(rows(callers_of(t1, kMemset)),
              (std::vector<CallRow>{{kHelper, 0, 2, 500, 1990}, {kWork, 0, 1, 600, 1200}}));
    EXPECT_TRUE(callers_of(t2, kMain).empty());
    EXPECT_TRUE(callees_of(t2, kMain).empty());
}

TEST(ThreadGraphQueries, WholeProgramGraphSumsTheThreadsCallsPerSite)
{
    // work calls memset from app.c:6 once in each thread: 600+400, 1200+800.
    const Profile p = two_thread_profile();
    EXPECT_EQ(rows(callers_of(p, kMemset)),
              (std::vector<CallRow>{{kHelper, 0, 2, 500, 1990}, {kWork, 0, 2, 1000, 2000}}));
    EXPECT_EQ(rows(callers_of(p.call_graph(), kMemset)), rows(callers_of(p, kMemset)));
}

TEST(ThreadGraphQueries, InclusiveCostIsTheThreadsAndTheThreadsAddUpToTheProgram)
{
    const Profile p = two_thread_profile();
    EXPECT_EQ(inclusive_cost(*p.thread(1), kWork), (std::vector<uint64_t>{4600, 1800}));
    EXPECT_EQ(inclusive_cost(*p.thread(2), kWork), (std::vector<uint64_t>{4400, 1200}));
    EXPECT_EQ(inclusive_cost(*p.thread(2), kMain), (std::vector<uint64_t>{0, 0}));
    for (FnId fn : {kMemset, kHelper, kMain, kWork}) {
        std::vector<uint64_t> sum(2, 0);
        for (const ThreadGraph& t : p.threads())
            for (size_t e = 0; e < 2; ++e)
                sum[e] += inclusive_cost(t, fn)[e];
        EXPECT_EQ(sum, inclusive_cost(p, fn)) << p.fn_name(fn);
    }
}

TEST(ThreadGraphQueries, FunctionCostsPairTheProgramsSelfCostWithTheThreadsInclusiveCost)
{
    const Profile p = two_thread_profile();
    const std::vector<FunctionCost> costs = function_costs(p, *p.thread(2));
    ASSERT_EQ(costs.size(), 4u);
    EXPECT_EQ(costs[kWork.index()].self, (std::vector<uint64_t>{8000, 1000}));
    EXPECT_EQ(costs[kWork.index()].inclusive, (std::vector<uint64_t>{4400, 1200}));
    EXPECT_EQ(costs[kMemset.index()].inclusive, (std::vector<uint64_t>{400, 800}));
    EXPECT_EQ(costs[kMain.index()].self, (std::vector<uint64_t>{100, 10}));
    EXPECT_EQ(costs[kMain.index()].inclusive, (std::vector<uint64_t>{0, 0}));
}

TEST(FindFunction, ExactNameOrTheOnlyNameContainingIt)
{
    const Profile p = call_graph_profile();
    EXPECT_EQ(find_function(p, "work"), kWork);
    EXPECT_EQ(find_function(p, "mems"), kMemset);
    EXPECT_EQ(find_function(p, "elp"), kHelper);
}

// Functions "work" in a.c, "worker" in a.c and "work" in b.c (a second
// static function of the same name), in one object.
test::ProfileText work_and_worker()
{
    return test::ProfileText()
        .set("strs", R"(["/src/a.c","/src/b.c","/usr/bin/app","work","worker"])")
        .set("objs", "[2]")
        .set("files", "[0,1]")
        .set("fns", "[[3,0,0,1],[4,0,0,9],[3,1,0,5]]")
        .set("lines", "[[0,0,2,1]]")
        .set_meta("totals", "[1]")
        .drop("instrs")
        .drop_call_graph();
}

TEST(FindFunction, ExactNameWinsOverLongerNamesContainingIt)
{
    const Profile p = parse_profile(work_and_worker().set("fns", "[[3,0,0,1],[4,0,0,9]]").str(),
                                    "p.json");
    EXPECT_EQ(find_function(p, "work"), FnId(0));
    EXPECT_EQ(find_function(p, "orke"), FnId(1));
}

TEST(FindFunction, SeveralFunctionsWithTheExactNameAreListed)
{
    EXPECT_EQ(find_error(parse_profile(work_and_worker().str(), "p.json"), "work"),
              "2 functions are named \"work\":\n"
              "  work (/src/a.c:1)  [/usr/bin/app]\n"
              "  work (/src/b.c:5)  [/usr/bin/app]\n"
              "(give one as listed to choose it)");
}

TEST(FindFunction, SeveralNamesContainingItAreListedByName)
{
    EXPECT_EQ(find_error(call_graph_profile(), "e"),
              "\"e\" is in the names of 2 functions:\n"
              "  helper (/src/app.c:20)  [/usr/bin/app]\n"
              "  memset  [/lib/libc.so.6]\n"
              "(give one as listed to choose it)");
}

TEST(FindFunction, AtMostTenCandidatesAreListed)
{
    // f00 ... f11, each at line 1 of the "???" file.
    std::string strs = R"(["???","/obj")", fns = "[";
    for (int i = 0; i < 12; ++i) {
        strs += ",\"f" + std::string(i < 10 ? "0" : "") + std::to_string(i) + "\"";
        fns += (i ? "," : "") + std::string("[") + std::to_string(i + 2) + ",0,0,1]";
    }
    const Profile p = parse_profile(test::ProfileText()
                                        .set("strs", strs + "]")
                                        .set("objs", "[1]")
                                        .set("files", "[0]")
                                        .set("fns", fns + "]")
                                        .set("lines", "[]")
                                        .set_meta("totals", "[0]")
                                        .drop("instrs")
                                        .drop_call_graph()
                                        .str(),
                                    "p.json");
    const std::string message = find_error(p, "f");
    EXPECT_EQ(message.substr(0, message.find('\n')),
              "\"f\" is in the names of 12 functions:");
    EXPECT_NE(message.find("\n  f09  [/obj]\n  and 2 more"), std::string::npos) << message;
    EXPECT_EQ(message.find("f10"), std::string::npos) << message;
}

// malloc in libc and in the dynamic loader, work in two files of one
// object, tsrv::serve_conn beside a generic instance naming it, code
// without a symbol at 0x1f30 and 0x2000 of a stripped library, and an
// inlined function.
Profile shared_names()
{
    return parse_profile(
        test::ProfileText()
            .set("vgprof", "7")
            .set("strs",
                 R"(["???","/usr/lib/x86_64-linux-gnu/libc.so.6","/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",)"
                 R"("/src/app","./malloc/malloc.c","./elf/dl-minimal-malloc.c","/src/a.c","/src/b.c",)"
                 R"("malloc","work","tsrv::serve_conn","core::ptr::drop_in_place<tsrv::serve_conn::{{closure}}>",)"
                 R"("/usr/lib/libfoo.so","0x0000000000001f30","0x0000000000002000","helper"])")
            .set("objs", "[1,2,3,12]")
            .set("files", "[0,4,5,6,7]")
            .set("fns", "[[8,1,0,3281],[8,2,1,30],[9,3,2,1],[9,4,2,5],[10,3,2,40],[11,3,2,90],"
                        "[13,0,3,0],[14,0,3,0],[15,0,2,0,1]]")
            .set("lines", "[[0,1,3281,1]]")
            .set_meta("totals", "[1]")
            .drop("instrs")
            .drop_call_graph()
            .str(),
        "p.json");
}

TEST(FindFunction, ObjectQualifiedNamesSelectAmongFunctionsOfOneName)
{
    const Profile p = shared_names();
    EXPECT_EQ(find_function(p, "malloc [libc.so.6]"), FnId(0));
    EXPECT_EQ(find_function(p, "malloc  [/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2]"), FnId(1));
    EXPECT_EQ(find_function(p, "malloc (./malloc/malloc.c:3281)"), FnId(0));
    EXPECT_EQ(find_function(p, "malloc (dl-minimal-malloc.c)"), FnId(1));
}

TEST(FindFunction, EveryCandidateListedSelectsItself)
{
    const Profile p = shared_names();
    for (const std::string name : {"malloc", "work"}) {
        const std::string message = find_error(p, name);
        std::vector<FnId> chosen;
        for (size_t at = message.find("\n  "); at != std::string::npos;
             at = message.find("\n  ", at + 1)) {
            const size_t end = message.find('\n', at + 1);
            chosen.push_back(find_function(p, message.substr(at + 3, end - at - 3)));
            EXPECT_EQ(p.fn_name(chosen.back()), name);
        }
        ASSERT_EQ(chosen.size(), 2u) << message;
        EXPECT_NE(chosen[0], chosen[1]) << message;
    }
}

TEST(FindFunction, TheViewersQualifiedNamesSelectTheirFunction)
{
    const Profile p = shared_names();
    // The viewer names functions of one name "name [object]", adding the
    // file's basename where the object has two.
    EXPECT_EQ(find_function(p, "work [app] (a.c)"), FnId(2));
    EXPECT_EQ(find_function(p, "work [app] (b.c)"), FnId(3));
    EXPECT_EQ(find_function(p, "helper  [/src/app] (inlined)"), FnId(8));
}

TEST(FindFunction, ALastPathComponentSelectsThatFunctionNotAnotherNamingIt)
{
    const Profile p = shared_names();
    EXPECT_EQ(choose_function(p, "serve_conn").fn, FnId(4));
    EXPECT_EQ(choose_function(p, "serve_conn").note, "");
}

// An async fn's body beside the function that makes its future and a
// generic instance naming both.
TEST(FindFunction, AnAsyncFunctionsNameSelectsItsBody)
{
    const Profile p = parse_profile(
        test::ProfileText()
            .set("vgprof", "7")
            .set("strs", R"(["/src/app","/src/main.rs","tsrv::serve_conn","tsrv::serve_conn::{async_fn#0}",)"
                         R"("core::ptr::drop_in_place<tsrv::serve_conn::{async_fn_env#0}>"])")
            .set("objs", "[0]")
            .set("files", "[1]")
            .set("fns", "[[2,0,0,40],[3,0,0,40,1],[4,0,0,1]]")
            .set("lines", "[[1,0,41,1]]")
            .set_meta("totals", "[1]")
            .drop("instrs")
            .drop_call_graph()
            .str(),
        "p.json");
    EXPECT_EQ(choose_function(p, "serve_conn").fn, FnId(1));
    EXPECT_EQ(choose_function(p, "serve_conn").note, "");
    EXPECT_EQ(find_function(p, "tsrv::serve_conn"), FnId(0));
    EXPECT_EQ(find_function(p, "tsrv::serve_conn::{async_fn#0}"), FnId(1));
}

TEST(FindFunction, TheOnlyNameContainingTheTextIsChosenWithANoteSayingSo)
{
    const FunctionChoice choice = choose_function(shared_names(), "drop_in");
    EXPECT_EQ(choice.fn, FnId(5));
    EXPECT_EQ(choice.note,
              "no function is named \"drop_in\"; chose "
              "core::ptr::drop_in_place<tsrv::serve_conn::{{closure}}> (/src/a.c:90)  [/src/app], "
              "the only one whose name contains it");
}

TEST(FindFunction, AnAddressInAnObjectSelectsTheCodeWithoutASymbolHoldingIt)
{
    const Profile p = shared_names();
    EXPECT_EQ(find_function(p, "0x1f38 [libfoo.so]"), FnId(6));
    EXPECT_EQ(find_function(p, "0x2000 [libfoo.so]"), FnId(7));
    EXPECT_EQ(find_function(p, "0x0000000000001f30  [/usr/lib/libfoo.so]"), FnId(6));
    EXPECT_EQ(find_error(p, "0x1000 [libfoo.so]"),
              "no function is named \"0x1000 [libfoo.so]\" or has it in its name");
}

TEST(FindFunction, NoMatchingNameIsAnError)
{
    EXPECT_EQ(find_error(call_graph_profile(), "zlib"),
              "no function is named \"zlib\" or has it in its name");
}

TEST(FunctionLabel, NameStartAndObjectLeavingOutWhatIsUnknown)
{
    const Profile p = call_graph_profile();
    EXPECT_EQ(function_label(p, kWork), "work (/src/app.c:3)  [/usr/bin/app]");
    EXPECT_EQ(function_label(p, kMemset), "memset  [/lib/libc.so.6]");
    const Profile no_line = parse_profile(test::two_event_profile()
                                              .set("fns", "[[6,1,0,0],[4,0,1,0],[5,0,1,10],[7,0,1,3]]")
                                              .str(),
                                          "p.json");
    EXPECT_EQ(function_label(no_line, kHelper), "helper (/src/app.c)  [/usr/bin/app]");
}

TEST(SumCosts, AddsEachEventSeparately)
{
    const std::vector<FunctionCost> costs = {{FnId(0), {1, 10}, {}}, {FnId(1), {2, 20}, {}}};
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

// --- miss rates ----------------------------------------------------------------

TEST(MissRates, SummaryRatesAreCachegrindsInItsOrderFromTheProgramTotals)
{
    // The arithmetic is in report_fixture.hpp.
    const Profile p = parse_profile(test::cache_profile().str(), "p.json");
    const std::vector<MissRate> rates = summary_miss_rates(p);
    std::vector<std::string> formulas;
    for (const MissRate& r : rates)
        formulas.push_back(r.name + " " + r.formula);
    EXPECT_EQ(formulas, (std::vector<std::string>{
                            "I1 I1mr/Ir", "LLi ILmr/Ir", "D1 (D1mr+D1mw)/(Dr+Dw)",
                            "LLd (DLmr+DLmw)/(Dr+Dw)", "LL (ILmr+DLmr+DLmw)/(Ir+Dr+Dw)",
                            "Mispred (Bcm+Bim)/(Bc+Bi)"}));
    ASSERT_EQ(rates.size(), 6u);
    const std::vector<uint64_t>& totals = p.meta().totals;
    EXPECT_DOUBLE_EQ(*rates[0].of(totals), 100.0 / 10000);
    EXPECT_DOUBLE_EQ(*rates[1].of(totals), 10.0 / 10000);
    EXPECT_DOUBLE_EQ(*rates[2].of(totals), 300.0 / 4000);
    EXPECT_DOUBLE_EQ(*rates[3].of(totals), 60.0 / 4000);
    EXPECT_DOUBLE_EQ(*rates[4].of(totals), 70.0 / 14000);
    EXPECT_DOUBLE_EQ(*rates[5].of(totals), 75.0 / 1100);
}

TEST(MissRates, SummaryHasOnlyTheRatesWhoseEventsWereRecorded)
{
    const test::ProfileText branches = test::branch_profile();
    const Profile p = parse_profile(branches.str(), "p.json");
    const std::vector<MissRate> rates = summary_miss_rates(p);
    ASSERT_EQ(rates.size(), 1u);
    EXPECT_EQ(rates[0].name, "Mispred");
    EXPECT_DOUBLE_EQ(*rates[0].of(p.meta().totals), (3.0 + 1) / (30 + 4));

    EXPECT_TRUE(summary_miss_rates(parse_profile(test::ProfileText().str(), "p.json")).empty());
}

TEST(MissRates, EachMissEventIsRatedOverTheEventItCountsMissesOf)
{
    const Profile p = parse_profile(test::cache_profile().str(), "p.json");
    std::vector<std::string> names;
    for (size_t e = 0; e < p.num_events(); ++e)
        if (const std::optional<MissRate> rate = event_miss_rate(p, e))
            names.push_back(rate->name);
    EXPECT_EQ(names, (std::vector<std::string>{"I1mr/Ir", "ILmr/Ir", "D1mr/Dr", "DLmr/Dr",
                                               "D1mw/Dw", "DLmw/Dw", "Bcm/Bc", "Bim/Bi"}));
    const std::optional<MissRate> d1mr = event_miss_rate(p, *p.event_index("D1mr"));
    ASSERT_TRUE(d1mr);
    // work's 100 D1mr of 2000 Dr; main has no Dr, so no rate at all.
    const std::vector<FunctionCost> costs = function_self_costs(p);
    EXPECT_DOUBLE_EQ(*d1mr->of(costs[1].self), 0.05);
    EXPECT_EQ(d1mr->of(costs[0].self), std::nullopt);
}

} // namespace
} // namespace vgprof
