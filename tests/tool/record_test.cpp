// SPDX-License-Identifier: GPL-2.0-or-later
// record_test.cpp: `vgprof record` runs the program under the tool, passes
// its exit status on and summarizes the profile it wrote: the total is
// cachegrind's, options reach the tool, and a missing valgrind is a clean
// error.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"
#include "vgprof/load.hpp"
#include "vgprof/profile.hpp"

using namespace vgtest;

namespace {

// What `vgprof record` leaves of the environment, for a reference tool
// run the same way.
const char* const kCleanPath = "PATH=/usr/local/bin:/usr/bin:/bin";

// FNV-1a, 64 bits, as 16 hex digits: the hash meta.fingerprint gives of a
// variable's value.
std::string fnv1a(const std::string& value)
{
   uint64_t h = 0xcbf29ce484222325ULL;
   for (const unsigned char c : value)
      h = (h ^ c) * 0x100000001b3ULL;
   char text[17];
   std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
   return text;
}

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
   // tool does with its call graph, in the clean environment record gives
   // the program.
   std::vector<std::string> cg_argv = {"/usr/bin/env", "-i", kCleanPath,
                                       "VALGRIND_LIB=" + vglib_dir(), valgrind_path(),
                                       "--tool=cachegrind", "--cachegrind-out-file=/dev/null"};
   cg_argv.insert(cg_argv.end(), kCachegrindAsVgprof.begin(), kCachegrindAsVgprof.end());
   cg_argv.push_back(resolve_program({"exit_code"})[0]);
   auto cg = run(cg_argv, dir.path());
   const auto refs = summary_lines(cg.err, "I refs:");
   ASSERT_EQ(refs.size(), 1u) << cg.err;
   EXPECT_NE(r.err.find("vgprof: totals: Ir " + last_word(refs[0])), std::string::npos) << r.err;
}

// The program prints the environment it got and its directory; the
// profile's fingerprint must say the same, hashing each value.
TEST(Record, TheFingerprintHoldsTheEnvironmentAndDirectoryTheProgramSaw)
{
   TempDir dir;
   std::filesystem::create_directories(dir / "work");
   // Without "--": --env takes one value, and the program is the next
   // argument.
   auto r = run({cli_path(), "record", "-q", "--env", "EXTRA=some value", "--cwd", dir / "work",
                 "-o", "p.json", progs_dir() + "/print_env"},
                dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   std::vector<std::pair<std::string, std::string>> env;  // name, value
   std::string cwd;
   uint64_t bytes = 0;
   std::istringstream lines(r.out);
   for (std::string line; std::getline(lines, line);) {
      if (line.rfind("cwd ", 0) == 0) {
         cwd = line.substr(4);
         continue;
      }
      const size_t equals = line.find('=');
      env.emplace_back(line.substr(0, equals), line.substr(equals + 1));
      bytes += line.size() + 1;
   }
   // The clean environment and the option's variable, with what valgrind
   // adds (LD_PRELOAD; Debian's valgrind script adds a few more), and not
   // the caller's own variables.
   std::map<std::string, std::string> values(env.begin(), env.end());
   EXPECT_EQ("PATH=" + values["PATH"], kCleanPath);
   EXPECT_EQ(values["EXTRA"], "some value");
   EXPECT_EQ(values["VALGRIND_LIB"], vglib_dir());
   EXPECT_EQ(values.count("LD_PRELOAD"), 1u);
   EXPECT_EQ(values.count("HOME"), 0u);

   const vgprof::Profile p = vgprof::load_profile(dir / "p.json");
   ASSERT_TRUE(p.meta().fingerprint);
   const vgprof::Fingerprint& f = *p.meta().fingerprint;
   ASSERT_EQ(f.env.size(), env.size());
   for (size_t i = 0; i < env.size(); ++i) {
      EXPECT_EQ(f.env[i].name, env[i].first);
      EXPECT_EQ(f.env[i].hash, fnv1a(env[i].second)) << env[i].first;
   }
   EXPECT_EQ(f.env_bytes, bytes);
   EXPECT_EQ(f.cwd, cwd);
   EXPECT_EQ(f.cwd, std::filesystem::canonical(dir / "work").string());
   EXPECT_EQ(f.valgrind_options, std::vector<std::string>{"-q"});
   EXPECT_EQ(p.meta().version, 11);   // the fingerprint came with version 7; the tool writes 11
}

TEST(Record, KeepEnvAndEnvChooseTheProgramsEnvironment)
{
   TempDir dir;
   auto r = run({"/usr/bin/env", "FROM_CALLER=1", "KEPT=yes", cli_path(), "record", "-q",
                 "--keep-env", "--env", "FROM_CALLER=2", "-o", "p.json", "--",
                 progs_dir() + "/print_env"},
                dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   EXPECT_NE(r.out.find("KEPT=yes\n"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("FROM_CALLER=2\n"), std::string::npos) << r.out;
   EXPECT_EQ(r.out.find("FROM_CALLER=1"), std::string::npos) << r.out;
   auto missing = run({cli_path(), "record", "--cwd", dir / "none", "--", progs_dir() + "/print_env"},
                      dir.path());
   EXPECT_EQ(missing.exit_code, 2);
   EXPECT_NE(missing.err.find("--cwd " + dir / "none" + ": no such directory"), std::string::npos)
       << missing.err;
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
