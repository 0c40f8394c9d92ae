// SPDX-License-Identifier: GPL-2.0-or-later
// merge_test.cpp: `vgprof merge` on recorded profiles: a profile merged with
// itself doubles every number (the costs of inlined code too), the runs of two inputs add up per source
// line and event as cg_merge adds up cachegrind's runs of them, and
// profiles of different events are refused; and the library's writer
// rewrites a profile the tool wrote byte for byte, heap included.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "../unit/profile_compare.hpp"
#include "harness.hpp"
#include "vgprof/load.hpp"
#include "vgprof/write.hpp"

using namespace vgtest;
using vgprof::test::Row;

namespace {

std::string prog(const std::string& name) { return progs_dir() + "/" + name; }

// Every column from `from` on (counts and costs), times two.
std::vector<Row> doubled(std::vector<Row> rows, size_t from)
{
   for (Row& row : rows)
      for (size_t i = from; i < row.size(); i++) row[i] *= 2;
   return rows;
}

// Every table of the tool's profile is sorted as the format sorts it, so
// the merged profile keeps its ids and only the numbers double.
TEST(Merge, AProfileWithItselfDoublesEveryNumber)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--heap=no", "--dump-instr=yes", "--separate-threads=yes",
                                 "--vgprof-out-file=vp.json"},
                      {prog("threads")}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   auto merge = run({cli_path(), "merge", "vp.json", "vp.json", "-o", "twice.json"}, dir.path());
   ASSERT_EQ(merge.exit_code, 0) << merge.err;
   EXPECT_EQ(merge.err, "");
   auto report = run({cli_path(), "report", "twice.json"}, dir.path());
   EXPECT_EQ(report.exit_code, 0) << report.err;

   using namespace vgprof::test;
   vgprof::Profile one = vgprof::load_profile(dir / "vp.json");
   vgprof::Profile two = vgprof::load_profile(dir / "twice.json");
   ASSERT_TRUE(one.has_thread_graphs());
   ASSERT_FALSE(one.instrs().empty());
   for (size_t e = 0; e < one.num_events(); e++)
      EXPECT_EQ(two.meta().totals[e], 2 * one.meta().totals[e]);
   EXPECT_EQ(two.strs(), one.strs());
   EXPECT_EQ(line_rows(two), doubled(line_rows(one), 3));
   EXPECT_EQ(instr_rows(two), doubled(instr_rows(one), 4));
   EXPECT_EQ(call_rows(two.call_graph()), doubled(call_rows(one.call_graph()), 5));
   EXPECT_EQ(inclusive_rows(two.call_graph()), doubled(inclusive_rows(one.call_graph()), 1));
   EXPECT_EQ(path_rows(two), doubled(path_rows(one), 2));
   ASSERT_EQ(two.threads().size(), one.threads().size());
   for (size_t t = 0; t < one.threads().size(); t++) {
      EXPECT_EQ(call_rows(two.threads()[t]), doubled(call_rows(one.threads()[t]), 5));
      EXPECT_EQ(inclusive_rows(two.threads()[t]), doubled(inclusive_rows(one.threads()[t]), 1));
      EXPECT_EQ(two.threads()[t].roots, one.threads()[t].roots);
   }
   ASSERT_EQ(two.meta().merged.size(), 2u);
   EXPECT_EQ(two.meta().merged[1].argv, one.meta().argv);
}

// A program built as a release build is, with inlined templates and
// library code: what each inlined call's code cost doubles, the calls
// themselves stay as they were.
TEST(Merge, AProfileWithItselfDoublesTheCostsOfInlinedCode)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--heap=no", "--vgprof-out-file=vp.json"}, {prog("cxx_templates")},
                      dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   auto merge = run({cli_path(), "merge", "vp.json", "vp.json", "-o", "twice.json"}, dir.path());
   ASSERT_EQ(merge.exit_code, 0) << merge.err;
   EXPECT_EQ(merge.err, "");

   using namespace vgprof::test;
   vgprof::Profile one = vgprof::load_profile(dir / "vp.json");
   vgprof::Profile two = vgprof::load_profile(dir / "twice.json");
   ASSERT_FALSE(one.inlined_lines().empty());
   // 8, the newest version whose content a sum holds: 9 changed only the
   // heap, which is not merged.
   EXPECT_EQ(two.meta().version, 8);
   EXPECT_EQ(inlined_call_rows(two), inlined_call_rows(one));
   EXPECT_EQ(inlined_line_rows(two), doubled(inlined_line_rows(one), 4));
}

// bzip2 compresses two different texts; cachegrind records each run with
// the same caches, cg_merge adds its two outputs up, and so must vgprof
// merge, for every event of every source line.
TEST(Merge, RunsOfTwoInputsAddUpAsCgMergeAddsUpCachegrinds)
{
   TempDir dir;
   write_file(dir / "small", generated_text(30000));
   write_file(dir / "large", generated_text(90000));
   const std::vector<std::string> caches = {"--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64",
                                            "--branch-sim=yes"};
   for (const std::string input : {"small", "large"}) {
      auto cg_opts = caches, vp_opts = caches;
      for (const char* o : {"--cache-sim=yes", "--vex-guest-chase=no", "--vex-iropt-unroll-thresh=0"})
         cg_opts.push_back(o);
      cg_opts.push_back("--cachegrind-out-file=cg." + input);
      vp_opts.push_back("--vgprof-out-file=" + input + ".json");
      auto cg = run_tool("cachegrind", cg_opts, {"bzip2", "-9", "-c", input}, dir.path());
      auto vp = run_tool("vgprof", vp_opts, {"bzip2", "-9", "-c", input}, dir.path());
      ASSERT_EQ(cg.exit_code, 0) << cg.err;
      ASSERT_EQ(vp.exit_code, 0) << vp.err;
   }
   auto cg = run({cg_merge_path(), "-o", "cg.merged", "cg.small", "cg.large"}, dir.path());
   ASSERT_EQ(cg.exit_code, 0) << cg.err;
   auto vp = run({cli_path(), "merge", "small.json", "large.json", "-o", "merged.json"}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;

   CachegrindOut ref = read_cachegrind(dir / "cg.merged");
   vgprof::Profile merged = vgprof::load_profile(dir / "merged.json");
   vgprof::Profile small = vgprof::load_profile(dir / "small.json");
   vgprof::Profile large = vgprof::load_profile(dir / "large.json");
   ASSERT_EQ(merged.meta().events, ref.events);
   for (const auto& event : ref.events) {
      const size_t e = *merged.event_index(event);
      EXPECT_EQ(merged.meta().totals[e], small.meta().totals[e] + large.meta().totals[e]) << event;
      EXPECT_EQ(merged.meta().totals[e], ref.summary[event]) << event;
      expect_same_lines(vgprof_lines(merged, event), ref.by_event[event], event);
   }
}

TEST(Merge, ProfilesOfDifferentEventsAreRefused)
{
   TempDir dir;
   auto all = run_tool("vgprof", {"--vgprof-out-file=a.json"}, {prog("paths")}, dir.path());
   auto ir = run_tool("vgprof", {"--cache-sim=no", "--vgprof-out-file=b.json"}, {prog("paths")}, dir.path());
   ASSERT_EQ(all.exit_code, 0) << all.err;
   ASSERT_EQ(ir.exit_code, 0) << ir.err;
   auto merge = run({cli_path(), "merge", "a.json", "b.json", "-o", "ab.json"}, dir.path());
   EXPECT_EQ(merge.exit_code, 2);
   EXPECT_EQ(merge.err, "vgprof: b.json: its events (Ir) differ from a.json's (Ir I1mr ILmr Dr D1mr "
                        "DLmr Dw D1mw DLmw); only profiles of the same events can be merged\n");
   EXPECT_EQ(dir.files_starting_with("ab.json"), std::vector<std::string>{});
}

TEST(ProfileWriter, RewritesAProfileTheToolWroteByteForByte)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--dump-instr=yes", "--separate-threads=yes", "--branch-sim=yes",
                                 "--heap=yes", "--vgprof-out-file=vp.json"},
                      {prog("heap_threads")}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   ASSERT_NE(p.heap(), nullptr);
   ASSERT_TRUE(p.has_thread_graphs());
   std::ostringstream out;
   vgprof::write_profile(out, p);
   EXPECT_TRUE(out.str() == read_file(dir / "vp.json")) << "the rewritten profile differs";
}

}  // namespace
