// SPDX-License-Identifier: GPL-2.0-or-later
// bench_shares_test.cpp: examples/bench/record --share K/N, which splits
// the example suite over the jobs of a CI matrix. Every benchmark must be
// recorded by exactly one share, the shares together must record what the
// whole run records, each share must hold the benchmarks its rule deals it
// (names in order, the i-th to share (i mod N) + 1), and its list must
// name what it recorded; examples/bench/check-shares must pass the shares
// gathered and name a share whose job failed. The recorder is a stand-in for vgprof that notes
// each profile asked for: the split is the script's business, not the
// tool's, and this keeps the test to seconds.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"

using namespace vgtest;

namespace {

std::vector<std::string> lines_of(const std::string& text)
{
   std::vector<std::string> lines;
   std::istringstream in(text);
   for (std::string line; std::getline(in, line);)
      if (!line.empty()) lines.push_back(line);
   return lines;
}

// The benchmark names the stand-in was asked to record, in order.
class ShareRuns {
public:
   ShareRuns()
   {
      write_file(dir_ / "fake-vgprof", R"(#!/bin/sh
while [ $# -gt 0 ]; do
  if [ "$1" = -o ]; then
    basename "$2" .json >> "$ASKED"
    [ "$2" = "${FAIL_ON:-}" ] && exit 1
    : > "$2"
  fi
  shift
done
)");
      chmod((dir_ / "fake-vgprof").c_str(), 0755);
   }

   // Runs the script (with `share`, "K/N", unless empty) into OUT and
   // returns what it asked to record.
   // With `fail_on`, the recording of that benchmark fails.
   std::vector<std::string> record(const std::string& share, const std::string& out,
                                   RunResult* result = nullptr, const std::string& fail_on = "")
   {
      write_file(dir_ / "asked", "");
      const std::string failing = fail_on.empty() ? "" : dir_ / out + "/" + fail_on + ".json";
      std::vector<std::string> argv{"env",
                                    "ASKED=" + dir_ / "asked",
                                    "FAIL_ON=" + failing,
                                    "VGPROF=" + dir_ / "fake-vgprof",
                                    "VGPROF_BENCH_BIN=" + dir_ / "bin",
                                    "sh",
                                    source_dir() + "/examples/bench/record"};
      if (!share.empty()) {
         argv.push_back("--share");
         argv.push_back(share);
      }
      argv.push_back(source_dir());
      argv.push_back(dir_ / out);
      RunResult r = run(argv, dir_.path());
      if (result) *result = r;
      else EXPECT_EQ(r.exit_code, 0) << r.err;
      return lines_of(read_file(dir_ / "asked"));
   }

   RunResult check(const std::string& out)
   {
      return run({"sh", source_dir() + "/examples/bench/check-shares", dir_ / out}, dir_.path());
   }

   std::string list(const std::string& out, int k, int n)
   {
      return read_file(dir_ / (out + "/share-" + std::to_string(k) + "-of-" + std::to_string(n) +
                               ".list"));
   }

private:
   TempDir dir_;
};

TEST(BenchShares, EveryBenchmarkIsRecordedByExactlyOneShareAsTheRuleDealsIt)
{
   ShareRuns runs;
   std::vector<std::string> whole = runs.record("", "whole");
   ASSERT_GE(whole.size(), 2u) << "the suite should have several benchmarks to split";
   std::sort(whole.begin(), whole.end());

   // One share, as many shares as benchmarks, and more shares than benchmarks.
   for (const int n : {1, 3, static_cast<int>(whole.size()), static_cast<int>(whole.size()) + 1}) {
      const std::string out = "shares-of-" + std::to_string(n);
      std::map<std::string, int> times;
      for (int k = 1; k <= n; ++k) {
         const auto mine = runs.record(std::to_string(k) + "/" + std::to_string(n), out);
         std::vector<std::string> dealt;
         for (size_t i = 0; i < whole.size(); ++i)
            if (static_cast<int>(i % n) + 1 == k) dealt.push_back(whole[i]);
         auto sorted = mine;
         std::sort(sorted.begin(), sorted.end());
         EXPECT_EQ(sorted, dealt) << "share " << k << " of " << n;
         EXPECT_EQ(lines_of(runs.list(out, k, n)), mine) << "share " << k << " of " << n;
         for (const auto& name : mine) ++times[name];
      }
      ASSERT_EQ(times.size(), whole.size()) << n << " shares";
      for (const auto& name : whole)
         EXPECT_EQ(times[name], 1) << name << " in " << n << " shares";
   }
}

TEST(BenchShares, TheShareOfAFailedRecordingIsNamedMissingWhenTheSharesAreGathered)
{
   ShareRuns runs;
   std::vector<std::string> whole = runs.record("", "whole");
   std::sort(whole.begin(), whole.end());
   ASSERT_GE(whole.size(), 3u);
   const int n = 3;
   for (int k = 1; k <= n; ++k)
      runs.record(std::to_string(k) + "/3", "complete");
   const RunResult complete = runs.check("complete");
   EXPECT_EQ(complete.exit_code, 0) << complete.err;

   // The last benchmark by name fails to record: the rule put it in share
   // ((size - 1) mod 3) + 1, whose job then fails, and the others succeed.
   const std::string failing = whole.back();
   const int its_share = static_cast<int>((whole.size() - 1) % n) + 1;
   for (int k = 1; k <= n; ++k) {
      RunResult r;
      runs.record(std::to_string(k) + "/3", "gathered", &r, failing);
      EXPECT_EQ(r.exit_code, k == its_share ? 1 : 0) << "share " << k << ": " << r.err;
   }
   const RunResult gathered = runs.check("gathered");
   EXPECT_EQ(gathered.exit_code, 1);
   EXPECT_NE(gathered.err.find("share " + std::to_string(its_share) + " of 3 is missing"),
             std::string::npos)
       << gathered.err;
   EXPECT_EQ(std::count(gathered.err.begin(), gathered.err.end(), '\n'), 1) << gathered.err;
}

TEST(BenchShares, AShareThatIsNotKOfNIsRefusedWithStatus2)
{
   ShareRuns runs;
   for (const char* bad : {"0/3", "4/3", "3", "1/0", "a/3", "1/2/3", "01/3"}) {
      RunResult r;
      EXPECT_TRUE(runs.record(bad, "out", &r).empty()) << bad;
      EXPECT_EQ(r.exit_code, 2) << bad;
      EXPECT_NE(r.err.find("--share " + std::string(bad) + ": expected K/N"), std::string::npos)
          << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
   }
}

} // namespace
