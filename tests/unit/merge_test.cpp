// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of merging profiles (vgprof/merge.hpp) and of the merged
// profile's meta.merged (format version 4), on the call-graph fixtures of
// report_fixture.hpp and on run_b() below, a second run of the same program
// numbered differently. Every expected number is worked out beside it.
#include "data_fixture.hpp"
#include "error_of.hpp"
#include "heap_fixture.hpp"
#include "profile_compare.hpp"
#include "report_fixture.hpp"
#include "timeline_fixture.hpp"

#include "vgprof/error.hpp"
#include "vgprof/inlined.hpp"
#include "vgprof/load.hpp"
#include "vgprof/merge.hpp"
#include "vgprof/write.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace vgprof {
namespace {

using test::ProfileText;
using test::Row;

Profile load(const ProfileText& text, const std::string& name = "p.json")
{
    return parse_profile(text.str(), name);
}

// Written and read back, so that every merged profile is also checked
// against the format's invariants, which the loader enforces.
Profile reloaded(const Profile& p)
{
    std::ostringstream out;
    write_profile(out, p);
    const Profile again = parse_profile(out.str(), "merged.json");
    test::expect_same_profile(again, p);
    return again;
}

Profile merge(const std::vector<std::pair<std::string, ProfileText>>& inputs,
              std::vector<std::string>* notes = nullptr)
{
    ProfileMerger merger;
    for (const auto& [name, text] : inputs)
        merger.add(load(text, name), name);
    if (notes)
        *notes = merger.notes();
    return reloaded(merger.result());
}

std::string merge_error(const ProfileText& a, const ProfileText& b)
{
    return test::error_of([&] { merge({{"a.json", a}, {"b.json", b}}); });
}

// Multiplies every column from `from` on (counts and costs, past the key
// columns) of every row by `factor`.
std::vector<Row> scaled(std::vector<Row> rows, size_t from, uint64_t factor)
{
    for (Row& row : rows)
        for (size_t i = from; i < row.size(); ++i)
            row[i] *= factor;
    return rows;
}

// A second run of two_event_call_graph_profile()'s program, on another
// input: main also calls a new function aaa, which takes fn id 1, so every
// other function but memset has another id than in the first run:
//
//   main  (./app -n 4)  self   50/5     inclusive 3000/1310
//   ├─ aaa     (1 call, app.c:14)  self   50/5     inclusive   50/5
//   ├─ helper  (1 call, app.c:13)  self  200/0     inclusive  900/1000
//   │  └─ memset (1 call)          self  700/1000  inclusive  700/1000
//   └─ work    (1 call, app.c:11)  self 2000/300   inclusive 2000/300
ProfileText run_b()
{
    ProfileText p = test::two_event_call_graph_profile();
    p.set_meta("argv", R"(["./app","-n","4"])");
    p.set("strs", R"(["/lib/libc.so.6","/src/app.c","/usr/bin/app","???",)"
                  R"("aaa","helper","main","memset","work"])");
    // 0 memset, 1 aaa, 2 helper, 3 main, 4 work
    p.set("fns", "[[7,1,0,0],[4,0,1,30],[5,0,1,20],[6,0,1,10],[8,0,1,3]]");
    p.set("lines", "[[0,1,0,700,1000],[1,0,31,50,5],[2,0,21,200,0]"
                   ",[3,0,11,30,3],[3,0,13,20,2],[4,0,4,2000,300]]");
    p.set_meta("totals", "[3000,1310]");
    p.set("calls", "[[2,0,0,23,1,700,1000],[3,1,0,14,1,50,5],[3,2,0,13,1,900,1000]"
                   ",[3,4,0,11,1,2000,300]]");
    p.set("inclusive", "[[0,700,1000],[1,50,5],[2,900,1000],[3,3000,1310],[4,2000,300]]");
    p.set("paths", "[[null,3,0,50,5,3000,1310],[0,1,1,50,5,50,5],[0,2,1,200,0,900,1000]"
                   ",[2,0,1,700,1000,700,1000],[0,4,1,2000,300,2000,300]]");
    return p;
}

// Two runs of a program whose helper (fn 1) the compiler inlined into main
// (fn 2) at app.c:11, and fill (fn 0) into helper at app.c:21; helper's
// code is app.c:20, fill's app.c:30. Version 7, one event (Ir).
ProfileText inlined_run(const std::string& lines, const std::string& inlines,
                        const std::string& inline_lines, uint64_t main_self, uint64_t work)
{
    ProfileText p;
    p.set("vgprof", "7");
    p.set("strs", R"(["/src/app.c","/usr/bin/app","???","fill","helper","main","work"])");
    p.set("objs", "[1]");
    p.set("files", "[0,2]");
    p.set("fns", "[[3,1,0,0,1],[4,1,0,0,1],[5,0,0,10],[6,0,0,3]]");
    p.set("lines", lines);
    p.set("inlines", inlines);
    p.set("inline_lines", inline_lines);
    p.drop("instrs");
    const std::string total = std::to_string(main_self + work), w = std::to_string(work);
    p.set_meta("totals", "[" + total + "]");
    p.set("calls", "[[2,3,0,12,1," + w + "]]");
    p.set("inclusive", "[[2," + total + "],[3," + w + "]]");
    p.set("paths", "[[null,2,0," + std::to_string(main_self) + "," + total + "],[0,3,1," + w +
                       "," + w + "]]");
    return p;
}

// Run A: main's own line 11 costs 100, helper's code 300, fill's 50.
ProfileText inlined_run_a()
{
    return inlined_run("[[2,0,11,100],[2,0,20,300],[2,0,30,50],[3,0,4,2000]]",
                       "[[1,null,0,11],[0,0,0,21]]", "[[2,0,0,20,300],[2,1,0,30,50]]",
                       100 + 300 + 50, 2000);
}

// Run B, on another input, also reaches a second call of helper, inlined
// at app.c:13 (inlined call 2): helper's line 20 costs 600 in the call at
// line 11 and 100 in the one at line 13; fill's line 30 costs 90.
ProfileText inlined_run_b()
{
    return inlined_run("[[2,0,11,200],[2,0,13,10],[2,0,20,700],[2,0,30,90],[3,0,4,5000]]",
                       "[[1,null,0,11],[0,0,0,21],[1,null,0,13]]",
                       "[[2,0,0,20,600],[2,1,0,30,90],[2,2,0,20,100]]", 200 + 10 + 700 + 90,
                       5000);
}

// --- merging a profile with itself ------------------------------------------

TEST(MergeProfiles, AProfileWithItselfDoublesEveryNumber)
{
    const Profile one = load(test::two_event_call_graph_profile());
    const Profile two =
        merge({{"a.json", test::two_event_call_graph_profile()},
               {"b.json", test::two_event_call_graph_profile()}});
    // The fixture's tables are sorted as the format sorts them, so the ids
    // stay the same and only the numbers double.
    EXPECT_EQ(two.strs(), one.strs());
    EXPECT_EQ(two.meta().totals, (std::vector<uint64_t>{20000, 10000}));
    EXPECT_EQ(test::line_rows(two), scaled(test::line_rows(one), 3, 2));
    EXPECT_EQ(test::call_rows(two.call_graph()), scaled(test::call_rows(one.call_graph()), 5, 2));
    EXPECT_EQ(test::inclusive_rows(two.call_graph()),
              scaled(test::inclusive_rows(one.call_graph()), 1, 2));
    EXPECT_EQ(test::path_rows(two), scaled(test::path_rows(one), 2, 2));
}

TEST(MergeProfiles, AProfileWithItselfDoublesEachThreadsGraphAndKeepsTheirRootsApart)
{
    const Profile one = load(test::two_thread_profile());
    const Profile two =
        merge({{"a.json", test::two_thread_profile()}, {"b.json", test::two_thread_profile()}});
    EXPECT_EQ(test::path_rows(two), scaled(test::path_rows(one), 2, 2));
    ASSERT_TRUE(two.has_thread_graphs());
    ASSERT_EQ(two.threads().size(), 2u);
    for (size_t t = 0; t < 2; ++t) {
        const ThreadGraph &doubled = two.threads()[t], &single = one.threads()[t];
        EXPECT_EQ(doubled.tid, single.tid);
        EXPECT_EQ(test::call_rows(doubled), scaled(test::call_rows(single), 5, 2));
        EXPECT_EQ(test::inclusive_rows(doubled), scaled(test::inclusive_rows(single), 1, 2));
        ASSERT_EQ(doubled.roots.size(), 1u);
        EXPECT_EQ(doubled.roots[0], single.roots[0]);
    }
}

TEST(MergeProfiles, AProfileWithItselfDoublesPerInstructionCosts)
{
    const Profile two = merge({{"a.json", ProfileText()}, {"b.json", ProfileText()}});
    // The sample's files are not sorted by path; the sum's are, so
    // /src/app.c is file 0.
    EXPECT_EQ(test::instr_rows(two), (std::vector<Row>{{4198694, 1, 0, 4, 6}}));
}

// --- two different runs -----------------------------------------------------

TEST(MergeProfiles, MatchesFunctionsByNameAndSumsEveryTable)
{
    const Profile sum =
        merge({{"a.json", test::two_event_call_graph_profile()}, {"b.json", run_b()}});
    // The union of the functions, numbered as run_b numbers them:
    // 0 memset, 1 aaa, 2 helper, 3 main, 4 work.
    std::vector<std::string> names;
    for (size_t f = 0; f < sum.functions().size(); ++f)
        names.push_back(sum.fn_name(FnId(uint32_t(f))));
    EXPECT_EQ(names, (std::vector<std::string>{"memset", "aaa", "helper", "main", "work"}));
    // 10000 + 3000 Ir, 5000 + 1310 Dr.
    EXPECT_EQ(sum.meta().totals, (std::vector<uint64_t>{13000, 6310}));
    EXPECT_EQ(test::line_rows(sum), (std::vector<Row>{{0, 1, 0, 1500 + 700, 3990 + 1000},
                                                      {1, 0, 31, 50, 5},
                                                      {2, 0, 21, 300 + 200, 0},
                                                      {2, 0, 22, 100, 0},
                                                      {3, 0, 11, 60 + 30, 6 + 3},
                                                      {3, 0, 12, 40, 4},
                                                      {3, 0, 13, 20, 2},
                                                      {4, 0, 4, 5000 + 2000, 600 + 300},
                                                      {4, 0, 5, 3000, 400}}));
    // [caller, callee, file, line, addr (none before version 8), count, Ir, Dr]
    EXPECT_EQ(test::call_rows(sum.call_graph()),
              (std::vector<Row>{{2, 0, 0, 23, 0, 2 + 1, 500 + 700, 1990 + 1000},
                                {3, 1, 0, 14, 0, 1, 50, 5},
                                {3, 2, 0, 13, 0, 1 + 1, 900 + 900, 1990 + 1000},
                                {3, 4, 0, 11, 0, 1 + 1, 5000 + 2000, 1000 + 300},
                                {3, 4, 0, 12, 0, 1, 4000, 2000},
                                {4, 0, 0, 6, 0, 1, 1000, 2000},
                                {4, 4, 0, 5, 0, 1, 2000, 200}}));
    EXPECT_EQ(test::inclusive_rows(sum.call_graph()),
              (std::vector<Row>{{0, 1500 + 700, 3990 + 1000},
                                {1, 50, 5},
                                {2, 900 + 900, 1990 + 1000},
                                {3, 10000 + 3000, 5000 + 1310},
                                {4, 9000 + 2000, 3000 + 300}}));
}

// main;helper;memset and main;work are in both runs and are added up;
// main;aaa is only in run_b and main;work;memset only in the first.
TEST(MergeProfiles, MatchesCallPathsByTheirStackFromTheRoot)
{
    const Profile sum =
        merge({{"a.json", test::two_event_call_graph_profile()}, {"b.json", run_b()}});
    const uint64_t none = UINT64_MAX;
    // [parent, fn, count, self Ir, self Dr, incl Ir, incl Dr], depth first.
    EXPECT_EQ(test::path_rows(sum),
              (std::vector<Row>{{none, 3, 0, 100 + 50, 10 + 5, 10000 + 3000, 5000 + 1310},
                                {0, 1, 1, 50, 5, 50, 5},
                                {0, 2, 1 + 1, 400 + 200, 0, 900 + 900, 1990 + 1000},
                                {2, 0, 2 + 1, 500 + 700, 1990 + 1000, 500 + 700, 1990 + 1000},
                                {0, 4, 2 + 1, 6000 + 2000, 800 + 300, 9000 + 2000, 3000 + 300},
                                {4, 0, 1, 1000, 2000, 1000, 2000},
                                {4, 4, 1, 2000, 200, 2000, 200}}));
}

TEST(MergeProfiles, MetaListsTheRunsMergedAndIsTheFirstRunsOtherwise)
{
    const Profile sum =
        merge({{"a.json", test::two_event_call_graph_profile()}, {"b.json", run_b()}});
    const Meta& m = sum.meta();
    EXPECT_EQ(m.version, 4);
    EXPECT_EQ(m.argv, (std::vector<std::string>{"./app", "-n", "3"}));
    EXPECT_EQ(m.exit_code, std::optional<int64_t>(0));
    EXPECT_FALSE(m.pid || m.ppid || m.elapsed_ms);
    ASSERT_EQ(m.merged.size(), 2u);
    EXPECT_EQ(m.merged[0].argv, (std::vector<std::string>{"./app", "-n", "3"}));
    EXPECT_EQ(m.merged[0].totals, (std::vector<uint64_t>{10000, 5000}));
    EXPECT_EQ(m.merged[1].argv, (std::vector<std::string>{"./app", "-n", "4"}));
    EXPECT_EQ(m.merged[1].totals, (std::vector<uint64_t>{3000, 1310}));
    EXPECT_EQ(m.merged[1].options, (std::vector<std::string>{"--vgprof-out-file=p.json"}));
    EXPECT_EQ(m.merged[1].exit_code, std::optional<int64_t>(0));
}

TEST(MergeProfiles, AMergedProfileAddsItsRunsNotItself)
{
    ProfileMerger first;
    first.add(load(test::two_event_call_graph_profile()), "a.json");
    first.add(load(run_b()), "b.json");
    ProfileMerger again;
    again.add(reloaded(first.result()), "ab.json");
    again.add(load(test::two_event_call_graph_profile().set_meta("exit", "null").set_meta(
                  "dump", R"({"number":1,"label":"warm"})")),
              "c.json");
    const Profile sum = reloaded(again.result());
    ASSERT_EQ(sum.meta().merged.size(), 3u);
    EXPECT_EQ(sum.meta().merged[1].argv[2], "4");
    EXPECT_EQ(sum.meta().merged[2].exit_code, std::nullopt);
    EXPECT_EQ(sum.meta().merged[2].dump_number, std::optional<int64_t>(1));
    EXPECT_EQ(sum.meta().merged[2].dump_label, "warm");
    EXPECT_EQ(sum.meta().totals, (std::vector<uint64_t>{23000, 11310}));
}

// The second run lists its events the other way round, its costs too.
TEST(MergeProfiles, MatchesEventsByName)
{
    ProfileText swapped = test::two_event_call_graph_profile();
    swapped.set_meta("events", R"(["Dr","Ir"])").set_meta("totals", "[5000,10000]");
    swapped.set("lines", "[[0,1,0,3990,1500],[1,0,21,0,300],[1,0,22,0,100],[2,0,11,6,60]"
                         ",[2,0,12,4,40],[3,0,4,600,5000],[3,0,5,400,3000]]");
    swapped.set("calls", "[[1,0,0,23,2,1990,500],[2,1,0,13,1,1990,900],[2,3,0,11,1,1000,5000]"
                         ",[2,3,0,12,1,2000,4000],[3,0,0,6,1,2000,1000],[3,3,0,5,1,200,2000]]");
    swapped.set("inclusive", "[[0,3990,1500],[1,1990,900],[2,5000,10000],[3,3000,9000]]");
    swapped.set("paths", "[[null,2,0,10,100,5000,10000],[0,1,1,0,400,1990,900]"
                         ",[1,0,2,1990,500,1990,500],[0,3,2,800,6000,3000,9000]"
                         ",[3,0,1,2000,1000,2000,1000],[3,3,1,200,2000,200,2000]]");
    const Profile sum = merge({{"a.json", test::two_event_call_graph_profile()}, {"b.json", swapped}});
    const Profile twice = merge({{"a.json", test::two_event_call_graph_profile()},
                                 {"b.json", test::two_event_call_graph_profile()}});
    EXPECT_EQ(sum.meta().events, (std::vector<std::string>{"Ir", "Dr"}));
    EXPECT_EQ(test::line_rows(sum), test::line_rows(twice));
    EXPECT_EQ(test::call_rows(sum.call_graph()), test::call_rows(twice.call_graph()));
    EXPECT_EQ(test::path_rows(sum), test::path_rows(twice));
    EXPECT_EQ(sum.meta().merged[1].totals, (std::vector<uint64_t>{10000, 5000}));
}

// Inlined calls are matched by their function, call site and the calls
// they lie in; the costs of inlined code are summed like the lines they
// are part of.
TEST(MergeProfiles, SumsTheCostsOfInlinedCode)
{
    std::vector<std::string> notes;
    const Profile sum = merge({{"a.json", inlined_run_a()}, {"b.json", inlined_run_b()}}, &notes);
    EXPECT_TRUE(notes.empty());
    // Runs of version 7, whose calls do not name their instructions.
    EXPECT_EQ(sum.meta().version, 7);
    // [fn, parent, file, line]: helper at app.c:11, fill within it at
    // app.c:21 (in both runs), helper at app.c:13 (in run B only).
    const uint64_t none = UINT64_MAX;
    EXPECT_EQ(test::inlined_call_rows(sum),
              (std::vector<Row>{{1, none, 0, 11}, {0, 0, 0, 21}, {1, none, 0, 13}}));
    // [fn, inlined call, file, line, Ir]
    EXPECT_EQ(test::inlined_line_rows(sum), (std::vector<Row>{{2, 0, 0, 20, 300 + 600},
                                                              {2, 1, 0, 30, 50 + 90},
                                                              {2, 2, 0, 20, 100}}));
    EXPECT_EQ(test::line_rows(sum), (std::vector<Row>{{2, 0, 11, 100 + 200},
                                                      {2, 0, 13, 10},
                                                      {2, 0, 20, 300 + 700},
                                                      {2, 0, 30, 50 + 90},
                                                      {3, 0, 4, 2000 + 5000}}));
    // What report --function and annotate show of helper: its own code
    // (line 20), and with fill's code inlined into it.
    const InlinedFunctionCost helper = inlined_function_cost(sum, FnId(1));
    EXPECT_EQ(helper.self, std::vector<uint64_t>{300 + 700});
    EXPECT_EQ(helper.inclusive, std::vector<uint64_t>{300 + 700 + 50 + 90});
}

// --- what not every profile has -----------------------------------------------

TEST(MergeProfiles, LeavesOutTheCallGraphWhenARunHasNone)
{
    std::vector<std::string> notes;
    const Profile sum = merge({{"a.json", test::two_event_call_graph_profile()},
                               {"b.json", test::two_event_profile()}},
                              &notes);
    EXPECT_FALSE(sum.has_call_graph());
    EXPECT_EQ(sum.meta().totals, (std::vector<uint64_t>{20000, 10000}));
    EXPECT_EQ(notes, std::vector<std::string>{
                         "b.json has no call graph: the merged profile has none"});
}

TEST(MergeProfiles, LeavesOutPerInstructionCostsWhenARunHasNone)
{
    std::vector<std::string> notes;
    const Profile sum =
        merge({{"a.json", ProfileText()}, {"b.json", ProfileText().drop("instrs")}}, &notes);
    EXPECT_TRUE(sum.instrs().empty());
    EXPECT_EQ(notes, std::vector<std::string>{
                         "b.json has no per-instruction costs: the merged profile has none"});
}

// A profile older than version 7 does not say what its inlined code cost.
TEST(MergeProfiles, LeavesOutTheCostsOfInlinedCodeWhenARunHasNone)
{
    std::vector<std::string> notes;
    const Profile sum =
        merge({{"a.json", inlined_run_a()}, {"b.json", ProfileText().drop("instrs")}}, &notes);
    EXPECT_TRUE(sum.inlined_calls().empty());
    EXPECT_TRUE(sum.inlined_lines().empty());
    // Its paths still name inlined functions, which version 7 brought.
    EXPECT_EQ(sum.meta().version, 7);
    EXPECT_EQ(sum.meta().totals, std::vector<uint64_t>{2450 + 2485947});
    EXPECT_EQ(notes, std::vector<std::string>{
                         "b.json has no costs of inlined code: the merged profile has none"});
}

// Version 8: main calls work from two instructions of line 12, once each
// (1,000,000 and 1,484,747 Ir); or, with `addresses` false, as version 7
// records the same run: one row for the line.
ProfileText two_call_instructions(bool addresses)
{
    ProfileText p;
    p.set("vgprof", addresses ? "8" : "7");
    p.set("calls", addresses ? "[[0,1,1,12,4198689,1,1000000],[0,1,1,12,4198700,1,1484747]]"
                             : "[[0,1,1,12,2,2484747]]");
    p.set("paths", "[[null,0,0,1200,2485947],[0,1,2,2484747,2484747]]");
    return p;
}

TEST(MergeProfiles, KeepsEachCallInstructionApartWhenEveryRunNamesThem)
{
    std::vector<std::string> notes;
    const Profile sum = merge(
        {{"a.json", two_call_instructions(true)}, {"b.json", two_call_instructions(true)}}, &notes);
    EXPECT_EQ(sum.meta().version, 8);
    ASSERT_EQ(sum.calls().size(), 2u);
    EXPECT_EQ(sum.calls()[0].addr, 4198689u);
    EXPECT_EQ(sum.calls()[0].count, 2u);
    EXPECT_EQ(sum.call_cost(0)[0], 2000000u);
    EXPECT_EQ(sum.calls()[1].addr, 4198700u);
    EXPECT_EQ(sum.calls()[1].count, 2u);
    EXPECT_EQ(sum.call_cost(1)[0], 2969494u);
    EXPECT_TRUE(notes.empty());
}

TEST(MergeProfiles, SumsACallSitesInstructionsWhenARunDoesNotNameThem)
{
    for (const bool first_has_them : {true, false}) {
        std::vector<std::string> notes;
        const Profile sum = merge({{"a.json", two_call_instructions(first_has_them)},
                                   {"b.json", two_call_instructions(!first_has_them)}},
                                  &notes);
        EXPECT_LT(sum.meta().version, 8);
        ASSERT_EQ(sum.calls().size(), 1u);
        EXPECT_EQ(sum.calls()[0].addr, 0u);
        EXPECT_EQ(sum.calls()[0].line, 12u);
        EXPECT_EQ(sum.calls()[0].count, 4u);
        EXPECT_EQ(sum.call_cost(0)[0], 2u * 2484747);
        EXPECT_EQ(notes, std::vector<std::string>{
                             (first_has_them ? "b.json" : "a.json") +
                             std::string(" has no addresses of call instructions: the merged "
                                         "profile has none")});
    }
}

TEST(MergeProfiles, LeavesOutTheHeap)
{
    std::vector<std::string> notes;
    const Profile sum = merge({{"a.json", ProfileText()}, {"b.json", test::with_heap()}}, &notes);
    EXPECT_EQ(sum.heap(), nullptr);
    EXPECT_EQ(sum.meta().totals, std::vector<uint64_t>{2 * 2485947});
    EXPECT_EQ(notes, std::vector<std::string>{
                         "b.json has heap data, which is not merged (a heap's peak, times and "
                         "timeline are one run's): the merged profile has none"});
}

// A timeline is one run's clock: spans and marks of two runs do not add up.
TEST(MergeProfiles, LeavesOutTheTimeline)
{
    const ProfileText run = test::with_timeline(test::timeline());
    const Profile sum = merge({{"a.json", run}, {"b.json", run}});
    EXPECT_EQ(sum.timeline(), nullptr);
    EXPECT_EQ(sum.meta().totals, std::vector<uint64_t>{2 * 2485947});
}

// The data objects go with the heap: a heap object is one of its sites.
TEST(MergeProfiles, LeavesOutTheDataObjectsWithTheHeap)
{
    std::vector<std::string> notes;
    const Profile sum = merge({{"a.json", test::with_data()}, {"b.json", test::with_data()}},
                              &notes);
    EXPECT_EQ(sum.data(), nullptr);
    EXPECT_EQ(sum.meta().totals[4], 2 * 540u);  // D1mr
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_EQ(notes[1], "a.json says which data was accessed, which is not merged (its heap "
                        "objects are the heap's allocation sites): the merged profile has no "
                        "data objects");
}

// Without per-thread graphs, the roots of one function are one root: tid
// 1's main root (100/10 self) and the other run's (100/10) become one,
// while tid 2's work root stays a root of its own.
TEST(MergeProfiles, JoinsTheThreadsRootsWhenARunHasNoPerThreadGraphs)
{
    std::vector<std::string> notes;
    const Profile sum = merge({{"a.json", test::two_thread_profile()},
                               {"b.json", test::two_event_call_graph_profile()}},
                              &notes);
    EXPECT_FALSE(sum.has_thread_graphs());
    EXPECT_EQ(notes, std::vector<std::string>{
                         "b.json has no per-thread call graphs: the merged profile has none"});
    std::vector<Row> roots;
    for (const Row& row : test::path_rows(sum))
        if (row[0] == UINT64_MAX)
            roots.push_back(row);
    // [parent, fn, count, self Ir, self Dr, incl Ir, incl Dr]; fn 2 main, 3 work.
    EXPECT_EQ(roots, (std::vector<Row>{{UINT64_MAX, 2, 0, 200, 20, 5600 + 10000, 3800 + 5000},
                                       {UINT64_MAX, 3, 0, 2500, 300, 4400, 1200}}));
}

// --- what cannot be merged ----------------------------------------------------

TEST(MergeProfiles, RefusesDifferentEvents)
{
    EXPECT_EQ(merge_error(test::two_event_profile(), test::cache_profile()),
              "b.json: its events (Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim) differ "
              "from a.json's (Ir Dr); only profiles of the same events can be merged");
}

TEST(MergeProfiles, RefusesDifferentCacheSimulations)
{
    ProfileText bigger_ll = test::cache_profile();
    bigger_ll.set_meta("cache", R"({"I1":[32768,8,64],"D1":[32768,8,64],"LL":[16777216,16,64],)"
                                R"("branches":true})");
    EXPECT_EQ(merge_error(test::cache_profile(), bigger_ll),
              "b.json: its simulation (I1 32768,8,64 D1 32768,8,64 LL 16777216,16,64 branches) "
              "differs from a.json's (I1 32768,8,64 D1 32768,8,64 LL 8388608,16,64 branches); "
              "only profiles of the same simulation can be merged");
}

// 18446744073709500000 + 1200 Ir, twice, is more than 2^64-1.
TEST(MergeProfiles, RefusesSumsBeyond64Bits)
{
    const ProfileText huge = ProfileText()
                                 .drop_call_graph()
                                 .drop("instrs")
                                 .set("lines", "[[0,1,11,1200],[1,1,4,18446744073709500000]]")
                                 .set_meta("totals", "[18446744073709501200]");
    EXPECT_EQ(merge_error(huge, huge),
              "b.json: adding its Ir costs to those of the profiles before it exceeds 2^64-1");
}

TEST(MergeProfiles, NeedsAProfile)
{
    ProfileMerger merger;
    EXPECT_THROW(merger.result(), Error);
}

// --- meta.merged in the format ------------------------------------------------

std::string load_error(const ProfileText& text)
{
    return test::error_of([&] { load(text); });
}

const char* const kTwoRuns =
    R"([{"argv":["./app","1"],"options":[],"totals":[2000000],"exit":{"code":0}})"
    R"(,{"argv":["./app","2"],"options":[],"totals":[485947],"exit":null,)"
    R"("dump":{"number":1,"label":"x"}}])";

TEST(LoadMergedProfile, ReadsTheRunsOfVersion4)
{
    const Profile p = load(ProfileText().set("vgprof", "4").set_meta("merged", kTwoRuns));
    ASSERT_EQ(p.meta().merged.size(), 2u);
    EXPECT_EQ(p.meta().merged[0].argv, (std::vector<std::string>{"./app", "1"}));
    EXPECT_EQ(p.meta().merged[1].totals, std::vector<uint64_t>{485947});
    EXPECT_EQ(p.meta().merged[1].dump_label, "x");
}

TEST(LoadMergedProfile, RefusesRunsBeforeVersion4)
{
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "3").set_meta("merged", kTwoRuns)),
              "p.json: meta.merged: not part of format version 3 (merged profiles are version 4)");
}

TEST(LoadMergedProfile, RefusesRunsThatDoNotAddUpToTheTotals)
{
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "4").set_meta(
                  "merged", R"([{"argv":[],"options":[],"totals":[1],"exit":null}])")),
              "p.json: meta.merged: the runs' Ir totals add up to 1 but meta.totals[0] is 2485947");
}

TEST(LoadMergedProfile, RefusesAnEmptyListOfRuns)
{
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "4").set_meta("merged", "[]")),
              "p.json: meta.merged: expected at least one run, got an empty array");
}

TEST(LoadMergedProfile, NamesTheRunWhoseTotalsAreMalformed)
{
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "4").set_meta(
                  "merged", R"([{"argv":[],"options":[],"totals":[1,2],"exit":null}])")),
              "p.json: meta.merged[0].totals: expected 1 entry (one per event), got 2");
}

} // namespace
} // namespace vgprof
