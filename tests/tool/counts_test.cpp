// SPDX-License-Identifier: GPL-2.0-or-later
// counts_test.cpp: vgprof's instruction counts equal cachegrind's, in
// total, per source line and per function, on small programs and on a
// real program from Debian (bzip2), at vgprof's defaults: the heap
// profiled while the program's own allocator runs.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "harness.hpp"
#include "vgprof/load.hpp"

using namespace vgtest;

namespace {

struct Case {
   std::string name;
   std::vector<std::string> program;   // relative to progs_dir() unless absolute
   std::string input;                  // if set, written to "input" in the run directory
   bool call_graph = true;             // vgprof's default, or --call-graph=no
};

class IrMatchesCachegrind : public ::testing::TestWithParam<Case> {};

TEST_P(IrMatchesCachegrind, TotalPerLineAndPerFunctionAreEqual)
{
   const Case& c = GetParam();
   TempDir dir;
   if (!c.input.empty()) write_file(dir / "input", c.input);
   auto program = resolve_program(c.program);

   // With the call graph vgprof translates as callgrind does, without it as
   // cachegrind does by default (see kCachegrindAsVgprof).
   auto cg = run_tool("cachegrind",
                      c.call_graph ? with(kCachegrindAsVgprof, "--cachegrind-out-file=cg.out")
                                   : std::vector<std::string>{"--cache-sim=no", "--cachegrind-out-file=cg.out"},
                      program, dir.path());
   auto vp = run_tool("vgprof",
                      c.call_graph ? std::vector<std::string>{"--vgprof-out-file=vp.json"}
                                   : std::vector<std::string>{"--vgprof-out-file=vp.json", "--call-graph=no"},
                      program, dir.path());
   ASSERT_EQ(cg.exit_code, vp.exit_code) << vp.err;
   ASSERT_EQ(cg.out, vp.out) << "the program must behave the same under both tools";

   CachegrindOut ref = read_cachegrind(dir / "cg.out");
   vgprof::Profile prof = vgprof::load_profile(dir / "vp.json");
   auto ir = prof.event_index("Ir");
   ASSERT_TRUE(ir.has_value());

   // Total.
   ASSERT_GT(ref.summary["Ir"], 0u);
   EXPECT_EQ(prof.meta().totals.at(*ir), ref.summary["Ir"]);

   // The exit summary reads like cachegrind's, to the character.
   EXPECT_EQ(summary_lines(vp.err, "I refs:"), summary_lines(cg.err, "I refs:"));

   // Every (file, function, line).
   LineCosts mine = vgprof_lines(prof, "Ir");
   const LineCosts& theirs = ref.by_event["Ir"];
   expect_same_lines(mine, theirs, "Ir");

   // Every (file, function) pair, as cg_annotate's function summary groups them.
   std::map<std::pair<std::string, std::string>, uint64_t> fn_mine, fn_theirs;
   for (const auto& [key, cost] : mine) fn_mine[{std::get<0>(key), std::get<1>(key)}] += cost;
   for (const auto& [key, cost] : theirs) fn_theirs[{std::get<0>(key), std::get<1>(key)}] += cost;
   EXPECT_EQ(fn_mine, fn_theirs);
}

INSTANTIATE_TEST_SUITE_P(
    Programs, IrMatchesCachegrind,
    ::testing::Values(Case{"loops", {"loops"}, ""},
                      Case{"recursion", {"recursion"}, ""},
                      Case{"libc_calls", {"libc_calls"}, ""},
                      Case{"bzip2", {"bzip2", "-9", "-c", "input"}, generated_text(300000)},
                      // The heap profiled (the default) with the program's own
                      // malloc and free: their instructions are counted too.
                      Case{"allocating", {"heap_basic"}, ""},
                      Case{"allocating_no_call_graph", {"heap_basic"}, "", false},
                      Case{"loops_no_call_graph", {"loops"}, "", false},
                      Case{"libc_calls_no_call_graph", {"libc_calls"}, "", false},
                      Case{"bzip2_no_call_graph", {"bzip2", "-9", "-c", "input"}, generated_text(300000), false}),
    [](const auto& info) { return info.param.name; });

}  // namespace
