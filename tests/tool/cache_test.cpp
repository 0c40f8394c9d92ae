// SPDX-License-Identifier: GPL-2.0-or-later
// cache_test.cpp: the cache and branch simulation against cachegrind's on
// the same binary, input and cache geometry: every line of the exit
// summary, and every event per source line and per function.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"
#include "vgprof/load.hpp"

using namespace vgtest;

namespace {

// A geometry different from vgprof's defaults and from a typical host, so
// that a test also proves the options are applied.
const std::vector<std::string> kGeometry = {"--I1=16384,4,64", "--D1=16384,2,64",
                                            "--LL=1048576,8,64"};
// An I1 of 16 lines and a small LL with longer lines: most fetches that
// vgprof does not leave out (the lines of the instructions before them in
// the block, and the most recently used line of a set, need no lookup)
// then miss or find their line behind another in the set.
const std::vector<std::string> kSmallCaches = {"--I1=1024,2,64", "--D1=16384,2,64",
                                               "--LL=65536,4,128"};

struct Case {
   std::string name;
   std::vector<std::string> program;   // relative to progs_dir() unless "bzip2"
   std::string input;                  // written to "input" if set
   bool call_graph = true;
   std::vector<std::string> geometry = kGeometry;
};

// A line of the heap's part of vgprof's exit summary.
bool heap_summary_line(const std::string& body)
{
   for (const char* label : {"Total:", "At t-gmax:", "At t-end:", "Reads:", "Writes:", "Allocators:"})
      if (body.rfind(label, 0) == 0) return true;
   return false;
}

// The lines of cachegrind's (or vgprof's) exit summary, from "I refs:"
// on, without the ==pid== prefix, and without vgprof's heap lines (and the
// blank line before them): cachegrind has none.
std::vector<std::string> summary_block(const std::string& err)
{
   std::vector<std::string> lines;
   std::istringstream in(err);
   bool inside = false;
   for (std::string line; std::getline(in, line);) {
      auto pos = line.find("== ");
      std::string body = line.rfind("==", 0) == 0 && pos != std::string::npos ? line.substr(pos + 3) : line;
      if (starts_with_label(body, "I refs:")) inside = true;
      if (!inside) continue;
      if (body.rfind("vgprof:", 0) == 0) break;
      if (heap_summary_line(body)) {
         if (body.rfind("Total:", 0) == 0 && !lines.empty() && lines.back().empty())
            lines.pop_back();
         continue;
      }
      if (line.rfind("==", 0) == 0 && pos != std::string::npos && pos + 3 >= line.size()) {
         lines.push_back("");   // "==pid== " blank separator
         continue;
      }
      lines.push_back(body);
   }
   while (!lines.empty() && lines.back().empty()) lines.pop_back();
   return lines;
}


class CacheMatchesCachegrind : public ::testing::TestWithParam<Case> {};

TEST_P(CacheMatchesCachegrind, SummaryAndEveryEventPerLineAreEqual)
{
   const Case& c = GetParam();
   TempDir dir;
   if (!c.input.empty()) write_file(dir / "input", c.input);
   std::vector<std::string> program = resolve_program(c.program);

   std::vector<std::string> cg_opts = c.geometry, vp_opts = c.geometry;
   cg_opts.insert(cg_opts.end(), {"--cache-sim=yes", "--branch-sim=yes", "--cachegrind-out-file=cg.out"});
   if (c.call_graph)
      cg_opts.insert(cg_opts.end(), {"--vex-guest-chase=no", "--vex-iropt-unroll-thresh=0"});
   vp_opts.insert(vp_opts.end(), {"--branch-sim=yes", "--vgprof-out-file=vp.json"});
   if (!c.call_graph) vp_opts.push_back("--call-graph=no");
   auto cg = run_tool("cachegrind", cg_opts, program, dir.path());
   auto vp = run_tool("vgprof", vp_opts, program, dir.path());
   ASSERT_EQ(vp.exit_code, cg.exit_code) << vp.err;
   ASSERT_EQ(vp.out, cg.out);

   auto mine = summary_block(vp.err), theirs = summary_block(cg.err);
   ASSERT_GE(theirs.size(), 18u) << cg.err;
   EXPECT_EQ(mine, theirs);

   CachegrindOut ref = read_cachegrind(dir / "cg.out");
   vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   ASSERT_EQ(p.meta().events, ref.events);
   for (const auto& event : ref.events) {
      expect_same_lines(vgprof_lines(p, event), ref.by_event[event], event);
      EXPECT_EQ(p.meta().totals[*p.event_index(event)], ref.summary[event]) << event;
   }
}

INSTANTIATE_TEST_SUITE_P(
    Programs, CacheMatchesCachegrind,
    ::testing::Values(Case{"matmul", {"matmul"}, ""},
                      Case{"stride", {"stride"}, ""},
                      Case{"branchy", {"branchy"}, ""},
                      Case{"bzip2", {"bzip2", "-9", "-c", "input"}, generated_text(200000)},
                      Case{"matmul_no_call_graph", {"matmul"}, "", false},
                      Case{"branchy_no_call_graph", {"branchy"}, "", false},
                      Case{"bzip2_small_caches", {"bzip2", "-9", "-c", "input"}, generated_text(30000),
                           true, kSmallCaches},
                      Case{"matmul_small_caches_no_call_graph", {"matmul"}, "", false, kSmallCaches}),
    [](const auto& info) { return info.param.name; });

// The two loop orders of matmul: walking b down its columns misses D1 far
// more often than walking it along its rows, and vgprof says so per
// function (the figures themselves are checked against cachegrind above).
TEST(Cache, ColumnOrderMatrixProductMissesMoreThanRowOrder)
{
   TempDir dir;
   auto r = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {progs_dir() + "/matmul"}, dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   auto d1mr = p.event_index("D1mr");
   ASSERT_TRUE(d1mr.has_value());
   std::map<std::string, uint64_t> misses;
   for (size_t i = 0; i < p.lines().size(); i++)
      misses[p.fn_name(p.lines()[i].fn)] += p.line_cost(i)[*d1mr];
   EXPECT_GT(misses["multiply_ijk"], 3 * misses["multiply_ikj"]);
}

TEST(Cache, DefaultGeometryIsFixedAndRecordedInTheProfile)
{
   TempDir dir;
   auto r = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {progs_dir() + "/exit_code"}, dir.path());
   EXPECT_EQ(r.exit_code, 7) << r.err;
   std::string text = read_file(dir / "vp.json");
   EXPECT_NE(text.find(R"("cache":{"I1":[32768,8,64],"D1":[32768,8,64],"LL":[8388608,16,64],"branches":false})"),
             std::string::npos)
       << text.substr(0, 600);
}

// Bad geometry: the same complaint as cachegrind's, and no run.
TEST(Cache, BadCacheOptionsAreRejectedAsCachegrindRejectsThem)
{
   TempDir dir;
   for (std::string bad : {"--I1=32768,3,64", "--D1=32768,8,60", "--LL=1000,8,64", "--I1=32768,8",
                           "--LL=12582912,16,64x"}) {
      auto vp = run_tool("vgprof", {bad}, {progs_dir() + "/exit_code"}, dir.path());
      auto cg = run_tool("cachegrind", {bad}, {progs_dir() + "/exit_code"}, dir.path());
      EXPECT_EQ(vp.exit_code, 1) << bad << "\n" << vp.err;
      EXPECT_EQ(cg.exit_code, 1) << bad << "\n" << cg.err;
      EXPECT_NE(vp.err.find("Bad option: " + bad), std::string::npos) << vp.err;
      // Whatever reason cachegrind gives, vgprof gives word for word.
      std::istringstream cg_lines(cg.err);
      for (std::string line; std::getline(cg_lines, line);) {
         if (line.find("Bad option") != std::string::npos || line.find("Bad argument") != std::string::npos ||
             line.find("Use --help") != std::string::npos)
            continue;
         EXPECT_NE(vp.err.find(line), std::string::npos) << bad << "\nvgprof: " << vp.err
                                                        << "\ncachegrind: " << cg.err;
      }
   }
}

}  // namespace

namespace {

// --cache-from-host=yes takes the host's caches as cachegrind does by
// default (with the same adjustments), so the figures are the same.
TEST(Cache, FromHostSimulatesTheCachesCachegrindTakesFromTheHost)
{
   TempDir dir;
   std::vector<std::string> program{progs_dir() + "/matmul"};
   auto cg = run_tool("cachegrind", {"--cache-sim=yes", "--cachegrind-out-file=cg.out"}, program, dir.path());
   auto vp = run_tool("vgprof", {"--cache-from-host=yes", "--call-graph=no", "--vgprof-out-file=vp.json"},
                      program, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   auto mine = summary_block(vp.err), theirs = summary_block(cg.err);
   ASSERT_GE(theirs.size(), 14u) << cg.err;
   EXPECT_EQ(mine, theirs);
   // The geometry used is the one cachegrind wrote in its output file.
   std::string cg_out = read_file(dir / "cg.out"), vp_out = read_file(dir / "vp.json");
   auto geometry_of = [](const std::string& text, const std::string& cache) {
      auto at = text.find("desc: " + cache + " cache:");
      return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
   };
   ASSERT_FALSE(geometry_of(cg_out, "LL").empty());
   std::istringstream ll(geometry_of(cg_out, "LL").substr(15));
   std::string size;
   ll >> size;   // "8388608"
   EXPECT_NE(vp_out.find("\"LL\":[" + size + ","), std::string::npos)
       << geometry_of(cg_out, "LL") << "\n" << vp_out.substr(0, 500);
}

}  // namespace
