// SPDX-License-Identifier: GPL-2.0-or-later
// record_test.cpp: `vgprof record` runs the program under the tool, passes
// its exit status on and summarizes the profile it wrote: the total is
// cachegrind's, options reach the tool, and a missing valgrind is a clean
// error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness.hpp"
#include "vgprof/load.hpp"
#include "vgprof/profile.hpp"

using namespace vgtest;

namespace {

// "I   refs:      1,234,567" -> "1,234,567"
std::string last_word(const std::string& line) { return line.substr(line.find_last_of(' ') + 1); }

TEST(Record, RunsTheProgramPassesItsExitStatusOnAndSummarizesTheProfile)
{
   TempDir dir;
   // Without the heap's malloc replacement, which runs instructions of its own.
   auto r = run({cli_path(), "record", "--heap=no", "-o", "p.json", "--",
                 resolve_program({"exit_code"})[0]},
                dir.path());
   EXPECT_EQ(r.exit_code, 7) << r.err;   // exit_code exits with 7
   EXPECT_NE(r.err.find("vgprof: profile written to p.json\n"), std::string::npos) << r.err;
   EXPECT_FALSE(vgprof::load_profile(dir / "p.json").meta().events.empty());

   // The total is the instructions cachegrind counts, translating as the
   // tool does with its call graph.
   auto cg = run_tool("cachegrind", with(kCachegrindAsVgprof, "--cachegrind-out-file=/dev/null"),
                      resolve_program({"exit_code"}), dir.path());
   const auto refs = summary_lines(cg.err, "I   refs:");
   ASSERT_EQ(refs.size(), 1u) << cg.err;
   EXPECT_NE(r.err.find("vgprof: totals: Ir " + last_word(refs[0])), std::string::npos) << r.err;
}

TEST(Record, TopFunctionsComeHottestFirst)
{
   TempDir dir;
   auto r = run({cli_path(), "record", "-o", "loops.json", resolve_program({"loops"})[0]}, dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   // loops runs grid's 300 x 1000 inner iterations and sum_to's 100 x 1000
   // of a loop no longer: grid first, then sum_to, among the top 5.
   const size_t top = r.err.find("vgprof: top functions by Ir (self):\n");
   ASSERT_NE(top, std::string::npos) << r.err;
   const size_t grid = r.err.find(" grid (", top), sum_to = r.err.find(" sum_to (", top);
   ASSERT_NE(grid, std::string::npos) << r.err;
   ASSERT_NE(sum_to, std::string::npos) << r.err;
   EXPECT_LT(grid, sum_to);
   EXPECT_NE(r.err.find("vgprof: the whole report: vgprof report loops.json"), std::string::npos);
}

TEST(Record, KilledProgramEndsWithTheShellsStatusForItsSignalAndStillHasAProfile)
{
   TempDir dir;
   auto r = run({cli_path(), "record", "-o", "crash.json", "--", resolve_program({"crash"})[0]},
                dir.path());
   EXPECT_EQ(r.exit_code, 128 + 11) << r.err;   // SIGSEGV
   EXPECT_NE(r.err.find("vgprof: profile written to crash.json"), std::string::npos) << r.err;
}

TEST(Record, OptionsGoToTheToolAndTheProgramKeepsItsOwn)
{
   TempDir dir;
   const std::string prog = resolve_program({"exit_code"})[0];
   // -o after a tool option, and the program's own -o after "--".
   auto r = run({cli_path(), "record", "--cache-sim=no", "--dump-instr=yes", "-o", "ir.json", "--",
                 prog, "-o", "ignored"},
                dir.path());
   EXPECT_EQ(r.exit_code, 7) << r.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "ir.json");
   EXPECT_EQ(p.meta().events, (std::vector<std::string>{"Ir"}));
   EXPECT_FALSE(p.instrs().empty());
   EXPECT_EQ(p.meta().argv, (std::vector<std::string>{prog, "-o", "ignored"}));
}

TEST(Record, WithoutOutputTheProfileHasTheToolsDefaultName)
{
   TempDir dir;
   auto r = run({cli_path(), "record", "--cache-sim=no", resolve_program({"exit_code"})[0]},
                dir.path());
   EXPECT_EQ(r.exit_code, 7) << r.err;
   const auto files = dir.files_starting_with("vgprof.out.");
   ASSERT_EQ(files.size(), 1u);
   EXPECT_NE(r.err.find("vgprof: profile written to " + files[0] + "\n"), std::string::npos) << r.err;
}

TEST(Record, MissingValgrindOrProgramIsACleanError)
{
   TempDir dir;
   auto r = run({"/usr/bin/env", "PATH=/nonexistent", cli_path(), "record", "--", "/bin/true"},
                dir.path());
   EXPECT_EQ(r.exit_code, 2);
   EXPECT_EQ(r.err.rfind("vgprof: valgrind not found on PATH", 0), 0u) << r.err;
   auto none = run({cli_path(), "record", "-o", "x.json"}, dir.path());
   EXPECT_EQ(none.exit_code, 2);
   EXPECT_NE(none.err.find("no program to run"), std::string::npos) << none.err;
}

}  // namespace
