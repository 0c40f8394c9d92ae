// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of the exports (vgprof/export_callgrind.hpp,
// vgprof/export_collapsed.hpp) and of `vgprof export`'s options, on the
// format's sample and the fixtures of report_fixture.hpp. The expected
// texts are written out by hand from the fixtures' tables.
#include "error_of.hpp"
#include "report_fixture.hpp"

#include "cli/commands.hpp"
#include "vgprof/error.hpp"
#include "vgprof/export_callgrind.hpp"
#include "vgprof/export_collapsed.hpp"
#include "vgprof/load.hpp"
#include "vgprof/merge.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace vgprof {
namespace {

using test::ProfileText;

Profile load(const ProfileText& text) { return parse_profile(text.str(), "p.json"); }

std::string callgrind(const Profile& p)
{
    std::ostringstream out;
    write_callgrind(out, p);
    return out.str();
}

std::string callgrind_of_thread(const Profile& p, uint32_t tid)
{
    std::ostringstream out;
    write_callgrind(out, p, p.thread(tid));
    return out.str();
}

std::string collapsed(const ProfileText& text, CollapsedOptions options = {})
{
    std::ostringstream out;
    write_collapsed(out, collapsed_stacks(load(text), "p.json", options));
    return out.str();
}

std::string collapsed_error(const ProfileText& text, CollapsedOptions options = {})
{
    return test::error_of([&] { collapsed_stacks(load(text), "p.json", options); });
}

// --- callgrind ----------------------------------------------------------------

// The sample: main (app.c:10, 1200 Ir at line 11) calls work (app.c:3,
// 2484747 Ir at line 4) once from line 12. Object 0 is /usr/bin/app and
// file 1 /src/app.c, so they are named (1) and (2).
TEST(ExportCallgrind, WritesHeaderSelfCostsAndCallsWithCompressedNames)
{
    EXPECT_EQ(callgrind(load(ProfileText())),
              "# callgrind format\n"
              "version: 1\n"
              "creator: vgprof-0.1.0\n"
              "pid: 4242\n"
              "cmd: ./app -n 3\n"
              "positions: line\n"
              "events: Ir\n"
              "summary: 2485947\n"
              "\n"
              "ob=(1) /usr/bin/app\n"
              "fl=(2) /src/app.c\n"
              "fn=(1) main\n"
              "11 1200\n"
              "cob=(1)\n"
              "cfi=(2)\n"
              "cfn=(2) work\n"
              "calls=1 3\n"
              "12 2484747\n"
              "ob=(1)\n"
              "fl=(2)\n"
              "fn=(2)\n"
              "4 2484747\n"
              "totals: 2485947\n");
}

// main's line 7 comes from a header, /src/app.h (file 2, named (3)): fi=
// enters it and fe= comes back for the call made at app.c:12. work's
// line 9 of the header cost nothing and is left out.
TEST(ExportCallgrind, SwitchesFilesForCodeFromAnotherFile)
{
    ProfileText p;
    p.set("strs", R"(["???","/usr/bin/app","/src/app.c","main","work","/src/app.h"])");
    p.set("files", "[0,2,5]");
    p.set("lines", "[[0,1,11,1000],[0,2,7,200],[1,1,4,2484747],[1,2,9,0]]");
    p.drop("instrs");
    const std::string text = callgrind(load(p));
    EXPECT_NE(text.find("fn=(1) main\n"
                        "11 1000\n"
                        "fi=(3) /src/app.h\n"
                        "7 200\n"
                        "fe=(2)\n"
                        "cob=(1)\n"
                        "cfi=(2)\n"
                        "cfn=(2) work\n"
                        "calls=1 3\n"
                        "12 2484747\n"
                        "ob=(1)\n"
                        "fl=(2)\n"
                        "fn=(2)\n"
                        "4 2484747\n"
                        "totals: 2485947\n"),
              std::string::npos)
        << text;
}

// cache_call_graph_profile(): main's costs end in four zeros, which the
// format lets a line leave out; the caches are described as cachegrind
// describes them.
TEST(ExportCallgrind, DescribesTheCachesAndLeavesOutTrailingZeros)
{
    const std::string text = callgrind(load(test::cache_call_graph_profile()));
    EXPECT_NE(text.find("desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
                        "desc: D1 cache: 32768 B, 64 B, 8-way associative\n"
                        "desc: LL cache: 8388608 B, 64 B, 16-way associative\n"
                        "positions: line\n"
                        "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim\n"
                        "summary: 10000 100 10 2000 100 20 2000 200 40 1000 50 100 25\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("fn=(1) main\n11 2000 20 2 0 0 0 1000 150 30\n"), std::string::npos)
        << text;
    EXPECT_NE(text.find("calls=1 3\n12 8000 80 8 2000 100 20 1000 50 10 1000 50 100 25\n"),
              std::string::npos)
        << text;
}

TEST(ExportCallgrind, WritesNoCallsWithoutACallGraph)
{
    const std::string text = callgrind(load(test::two_event_profile()));
    EXPECT_EQ(text.find("calls="), std::string::npos) << text;
    // memset (libc, object (1)) first: functions go in fn id order.
    EXPECT_NE(text.find("summary: 10000 5000\n\nob=(1) /lib/libc.so.6\nfl=(2) ???\n"
                        "fn=(1) memset\n0 1500 3990\n"),
              std::string::npos)
        << text;
}

TEST(ExportCallgrind, SaysHowManyRunsAMergedProfileSums)
{
    ProfileMerger merger;
    merger.add(load(ProfileText()), "a.json");
    merger.add(load(ProfileText()), "b.json");
    const std::string text = callgrind(merger.result());
    EXPECT_NE(text.find("cmd: ./app -n 3\ndesc: Runs merged: 2\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("pid:"), std::string::npos) << text;
}

// --- collapsed stacks -------------------------------------------------------------

// two_event_call_graph_profile()'s tree, one line per node, by text.
// two_thread_profile (report_fixture.hpp), thread 2: work self 2500+1500
// Ir, 300+100 Dr; memset 400/800; calls work -> memset at app.c:6 (400/800)
// and work -> work at app.c:5 (1500/100); totals 4400/1200. Neither
// function's cost in the thread is all of its self cost in the program
// (work 8000/1000, memset 1500/3990): each is at its first line (work
// app.c:3, memset line 0). Objects: (1) libc, (2) app; files: (1) app.c,
// (2) ???; functions: (1) memset, (4) work.
TEST(ExportCallgrind, OneThreadsFileHasItsSelfCostsCallsAndTotals)
{
    EXPECT_EQ(callgrind_of_thread(load(test::two_thread_profile()), 2),
              "# callgrind format\n"
              "version: 1\n"
              "creator: vgprof-0.1.0\n"
              "pid: 4242\n"
              "cmd: ./app -n 3\n"
              "thread: 2\n"
              "positions: line\n"
              "events: Ir Dr\n"
              "summary: 4400 1200\n"
              "\n"
              "ob=(1) /lib/libc.so.6\n"
              "fl=(2) ???\n"
              "fn=(1) memset\n"
              "0 400 800\n"
              "ob=(2) /usr/bin/app\n"
              "fl=(1) /src/app.c\n"
              "fn=(4) work\n"
              "3 4000 400\n"
              "cob=(1)\n"
              "cfi=(2)\n"
              "cfn=(1)\n"
              "calls=1 0\n"
              "6 400 800\n"
              "cob=(2)\n"
              "cfi=(1)\n"
              "cfn=(4)\n"
              "calls=1 3\n"
              "5 1500 100\n"
              "totals: 4400 1200\n");
}

// Thread 1 ran all of helper's self cost (400/0 over its lines 21 and 22):
// helper keeps its lines. main, all thread 1's too, keeps its own.
TEST(ExportCallgrind, OneThreadsFileKeepsTheLinesOfAFunctionThatRanInItAlone)
{
    const std::string text = callgrind_of_thread(load(test::two_thread_profile()), 1);
    EXPECT_NE(text.find("fn=(2) helper\n21 300\n22 100\n"), std::string::npos) << text;
    EXPECT_NE(text.find("fn=(3) main\n11 60 6\n12 40 4\n"), std::string::npos) << text;
    EXPECT_NE(text.find("totals: 5600 3800\n"), std::string::npos) << text;
}

TEST(ExportCollapsed, WritesEachNodesSelfCostUnderItsStack)
{
    EXPECT_EQ(collapsed(test::two_event_call_graph_profile()),
              "main 100\n"
              "main;helper 400\n"
              "main;helper;memset 500\n"
              "main;work 6000\n"
              "main;work;memset 1000\n"
              "main;work;work 2000\n");
}

// helper's own Dr is 0: its stack has no line of its own.
TEST(ExportCollapsed, CountsTheEventAskedForAndLeavesOutNodesWithoutCost)
{
    CollapsedOptions dr;
    dr.event = "Dr";
    EXPECT_EQ(collapsed(test::two_event_call_graph_profile(), dr),
              "main 10\n"
              "main;helper;memset 1990\n"
              "main;work 800\n"
              "main;work;memset 2000\n"
              "main;work;work 200\n");
}

TEST(ExportCollapsed, BeginsEachStackWithItsThreadWhenAsked)
{
    CollapsedOptions by_thread;
    by_thread.threads = true;
    EXPECT_EQ(collapsed(test::two_thread_profile(), by_thread),
              "thread 1;main 100\n"
              "thread 1;main;helper 400\n"
              "thread 1;main;helper;memset 500\n"
              "thread 1;main;work 4000\n"
              "thread 1;main;work;memset 600\n"
              "thread 2;work 2500\n"
              "thread 2;work;memset 400\n"
              "thread 2;work;work 1500\n");
}

// Thread 2's root made main's (fn 2) instead of work's: its stacks read as
// thread 1's do and are added to them.
TEST(ExportCollapsed, AddsUpStacksThatReadTheSame)
{
    ProfileText p = test::two_thread_profile();
    p.set("paths", "[[null,2,0,100,10,5600,3800]"
                   ",[0,1,1,400,0,900,1990]"
                   ",[1,0,2,500,1990,500,1990]"
                   ",[0,3,1,4000,600,4600,1800]"
                   ",[3,0,1,600,1200,600,1200]"
                   ",[null,2,0,2500,300,4400,1200]"
                   ",[5,0,1,400,800,400,800]"
                   ",[5,3,1,1500,100,1500,100]]");
    EXPECT_EQ(collapsed(p),
              "main 2600\n"
              "main;helper 400\n"
              "main;helper;memset 500\n"
              "main;memset 400\n"
              "main;work 5500\n"
              "main;work;memset 600\n");
}

TEST(ExportCollapsed, ShowsTheTruncatedNodeAsSuch)
{
    ProfileText p;
    p.set("paths", "[[null,0,0,1200,2485947],[0,1,1,2482747,2484747],[1,null,3,2000,2000]]");
    EXPECT_EQ(collapsed(p), "main 1200\nmain;work 2482747\nmain;work;[truncated] 2000\n");
}

TEST(ExportCollapsed, KeepsAFunctionNameOneFrame)
{
    ProfileText p;
    p.set("strs", R"(["???","/usr/bin/app","/src/app.c","main","operator;\nwork"])");
    EXPECT_EQ(collapsed(p), "main 1200\nmain;operator: work 2484747\n");
}

TEST(ExportCollapsed, DifferentialFormHasBothCountsOfEveryStack)
{
    std::ostringstream out;
    write_collapsed_diff(out, {{"main", 1}, {"main;a", 2}}, {{"main;a", 3}, {"main;b", 4}});
    EXPECT_EQ(out.str(), "main 1 0\nmain;a 2 3\nmain;b 0 4\n");
}

TEST(ExportCollapsed, NeedsTheCallPathTree)
{
    EXPECT_EQ(collapsed_error(test::two_event_profile()),
              "p.json: collapsed stacks need the call-path tree, which this profile does not "
              "have (recorded with --call-graph=no)");
    EXPECT_EQ(collapsed_error(ProfileText().set("vgprof", "1").drop_call_graph()),
              "p.json: collapsed stacks need the call-path tree, which this profile does not "
              "have (format version 1 has none)");
}

TEST(ExportCollapsed, NeedsTheEventAndThePerThreadGraphsAskedFor)
{
    CollapsedOptions d1mr;
    d1mr.event = "D1mr";
    EXPECT_EQ(collapsed_error(test::two_event_call_graph_profile(), d1mr),
              "p.json: no event \"D1mr\" to count (events recorded: Ir Dr)");
    CollapsedOptions by_thread;
    by_thread.threads = true;
    EXPECT_EQ(collapsed_error(test::two_event_call_graph_profile(), by_thread),
              "p.json: stacks by thread need per-thread call graphs, which this profile does "
              "not have (recorded without --separate-threads=yes)");
}

// --- vgprof export's options ------------------------------------------------------

cli::ExportOptions export_options(const std::string& format, std::vector<std::string> profiles)
{
    cli::ExportOptions o;
    o.format = format;
    o.output = "-";
    o.profiles = std::move(profiles);
    return o;
}

std::string options_error(const cli::ExportOptions& o)
{
    return test::error_of([&] { cli::check_export_options(o); });
}

TEST(ExportCommand, RefusesWhatTheFormatDoesNotTake)
{
    EXPECT_EQ(options_error(export_options("callgrind", {"a.json", "b.json"})),
              "--format callgrind takes one profile, got 2");
    cli::ExportOptions event = export_options("callgrind", {"a.json"});
    event.event = "Ir";
    EXPECT_EQ(options_error(event), "--event applies to --format collapsed, not callgrind");
    cli::ExportOptions threads = export_options("callgrind", {"a.json"});
    threads.threads = true;
    EXPECT_EQ(options_error(threads), "--threads applies to --format collapsed, not callgrind");
    EXPECT_EQ(options_error(export_options("collapsed", {"a.json", "b.json"})), "no error");
    cli::ExportOptions thread = export_options("pprof", {"a.json"});
    thread.thread = 2;
    EXPECT_EQ(options_error(thread),
              "--thread applies to --format callgrind, not pprof (speedscope and pprof files "
              "hold every thread's costs apart already)");
}

// As `vgprof report --thread` says it.
TEST(ExportCommand, ThreadTheProfileDoesNotHaveIsAnErrorListingItsThreads)
{
    std::vector<Profile> profiles;
    profiles.push_back(load(test::two_thread_profile()));
    cli::ExportOptions o = export_options("callgrind", {"app.json"});
    o.thread = 7;
    std::ostringstream out;
    EXPECT_EQ(test::error_of([&] { cli::write_export(out, profiles, o); }),
              "app.json: no thread 7 in this profile (threads: 1 2)");
    profiles[0] = load(test::two_event_call_graph_profile());
    EXPECT_EQ(test::error_of([&] { cli::write_export(out, profiles, o); }),
              "app.json: --thread needs per-thread call graphs, which this profile does not "
              "have (recorded without --separate-threads=yes)");
    EXPECT_EQ(out.str(), "");
}

// The heavier run of diff_test's fixture: work's line 4 costs 5200 Ir
// instead of 5000, so main;work's self cost is 6200 instead of 6000.
TEST(ExportCommand, TwoProfilesGiveTheDifferentialForm)
{
    ProfileText heavier = test::two_event_call_graph_profile();
    heavier.set("lines", "[[0,1,0,1500,3990],[1,0,21,300,0],[1,0,22,100,0],[2,0,11,60,6]"
                         ",[2,0,12,40,4],[3,0,4,5200,600],[3,0,5,3000,400]]");
    heavier.set_meta("totals", "[10200,5000]");
    heavier.set("calls", "[[1,0,0,23,2,500,1990],[2,1,0,13,1,900,1990],[2,3,0,11,1,5200,1000]"
                         ",[2,3,0,12,1,4000,2000],[3,0,0,6,1,1000,2000],[3,3,0,5,1,2000,200]]");
    heavier.set("inclusive", "[[0,1500,3990],[1,900,1990],[2,10200,5000],[3,9200,3000]]");
    heavier.set("paths", "[[null,2,0,100,10,10200,5000],[0,1,1,400,0,900,1990]"
                         ",[1,0,2,500,1990,500,1990],[0,3,2,6200,800,9200,3000]"
                         ",[3,0,1,1000,2000,1000,2000],[3,3,1,2000,200,2000,200]]");
    std::vector<Profile> profiles;
    profiles.push_back(load(test::two_event_call_graph_profile()));
    profiles.push_back(load(heavier));
    std::ostringstream out;
    cli::write_export(out, profiles, export_options("collapsed", {"base.json", "new.json"}));
    EXPECT_EQ(out.str(), "main 100 100\n"
                         "main;helper 400 400\n"
                         "main;helper;memset 500 500\n"
                         "main;work 6000 6200\n"
                         "main;work;memset 1000 1000\n"
                         "main;work;work 2000 2000\n");
}

// A profile without a call graph fails before anything is written.
TEST(ExportCommand, WritesNothingWhenTheSecondProfileCannotBeExported)
{
    std::vector<Profile> profiles;
    profiles.push_back(load(test::two_event_call_graph_profile()));
    profiles.push_back(load(test::two_event_profile()));
    std::ostringstream out;
    EXPECT_THROW(
        cli::write_export(out, profiles, export_options("collapsed", {"base.json", "new.json"})),
        Error);
    EXPECT_EQ(out.str(), "");
}

} // namespace
} // namespace vgprof
