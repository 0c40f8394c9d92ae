// SPDX-License-Identifier: GPL-2.0-or-later
// output_test.cpp: how the tool writes its profile: deterministically,
// one per process after fork, also when the client crashes, never half a
// file, and with a clear message when it cannot write (more destinations
// that refuse it, and odd names: tests/fault/destinations_test.cpp).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <regex>
#include <string>

#include "harness.hpp"
#include "vgprof/load.hpp"

using namespace vgtest;

namespace {

std::string prog(const std::string& name) { return progs_dir() + "/" + name; }

// The profile with its one varying section, meta.run, cut out.
std::string without_run_section(const std::string& text)
{
   return std::regex_replace(text, std::regex(R"(,"run":\{[^}]*\})"), "");
}

uint64_t ir_of_function(const vgprof::Profile& p, const std::string& name)
{
   auto ir = p.event_index("Ir");
   uint64_t sum = 0;
   for (size_t i = 0; i < p.lines().size(); i++)
      if (p.fn_name(p.lines()[i].fn) == name) sum += p.line_cost(i)[*ir];
   return sum;
}

TEST(Output, TwoRunsGiveIdenticalProfilesApartFromTheRunSection)
{
   TempDir dir;
   // The same options both times (the output name is part of the profile).
   auto record = [&] {
      auto r = run_tool("vgprof", {"--vgprof-out-file=same.json", "--dump-instr=yes"},
                        {prog("libc_calls")}, dir.path());
      EXPECT_EQ(r.exit_code, 0) << r.err;
      return read_file(dir / "same.json");
   };
   std::string first = record();
   std::string second = record();
   ASSERT_NE(first.find(",\"run\":{\"pid\":"), std::string::npos);
   EXPECT_EQ(without_run_section(first), without_run_section(second));
   EXPECT_NE(first, second) << "the run sections should differ (process ids)";
}

TEST(Output, DefaultNameCarriesThePidAndNoTemporaryFileRemains)
{
   TempDir dir;
   auto r = run_tool("vgprof", {}, {prog("loops")}, dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   auto files = dir.files_starting_with("vgprof.out.");
   ASSERT_EQ(files.size(), 1u);
   EXPECT_TRUE(std::regex_match(files[0], std::regex(R"(vgprof\.out\.[0-9]+\.json)"))) << files[0];
   EXPECT_NO_THROW(vgprof::load_profile(dir / files[0]));
}

TEST(Output, ForkedChildWritesItsOwnProfileWithCountsEqualToCachegrinds)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.%p.json"}, {prog("forks")}, dir.path());
   auto cg = run_tool("cachegrind", with(kCachegrindAsVgprof, "--cachegrind-out-file=cg.%p.out"),
                      {prog("forks")}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   auto vp_files = dir.files_starting_with("vp.");
   auto cg_files = dir.files_starting_with("cg.");
   ASSERT_EQ(vp_files.size(), 2u);
   ASSERT_EQ(cg_files.size(), 2u);

   // Parent and child differ in work: spin(1000) against spin(50000).
   std::vector<uint64_t> mine, theirs;
   for (const auto& f : vp_files) mine.push_back(vgprof::load_profile(dir / f).meta().totals[0]);
   for (const auto& f : cg_files) theirs.push_back(read_cachegrind(dir / f).summary["Ir"]);
   std::sort(mine.begin(), mine.end());
   std::sort(theirs.begin(), theirs.end());
   EXPECT_EQ(mine, theirs);
   EXPECT_NE(mine[0], mine[1]);
}

TEST(Output, ClientDyingOfSigsegvStillLeavesACompleteProfile)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {prog("crash")}, dir.path());
   auto cg = run_tool("cachegrind", with(kCachegrindAsVgprof, "--cachegrind-out-file=cg.out"),
                      {prog("crash")}, dir.path());
   EXPECT_EQ(vp.signal, SIGSEGV) << "valgrind passes the client's death on";
   vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   EXPECT_TRUE(p.meta().killed) << "the profile says how the client ended";
   EXPECT_EQ(p.meta().exit_code, std::nullopt);
   // The loop that ran before the crash is counted exactly.
   auto ref = read_cachegrind(dir / "cg.out");
   uint64_t spin_ref = 0;
   for (const auto& [key, cost] : ref.by_event["Ir"])
      if (std::get<1>(key) == "spin") spin_ref += cost;
   // At least two instructions an iteration: GCC 12 makes the loop three,
   // GCC 14 two.
   EXPECT_GT(spin_ref, 20000u * 2);
   EXPECT_EQ(ir_of_function(p, "spin"), spin_ref);
   EXPECT_TRUE(dir.files_starting_with("vp.json.tmp").empty());
}

// A destination that cannot be created stops the run before the client
// starts (status 1), as callgrind stops; one that fails at the end keeps
// the client's status (the fault tests fill a disk).
TEST(Output, UnwritableDestinationStopsTheRunAtStartWithAClearMessage)
{
   TempDir dir;
   auto r = run_tool("vgprof", {"--vgprof-out-file=no/such/dir/p.json"},
                     {prog("exit_code")}, dir.path());
   EXPECT_EQ(r.exit_code, 1);
   EXPECT_NE(r.err.find("vgprof: cannot create the profile"), std::string::npos) << r.err;
   EXPECT_NE(r.err.find("No such file or directory"), std::string::npos) << r.err;
   EXPECT_EQ(dir.files_starting_with(""), std::vector<std::string>{}) << "nothing left behind";
}

TEST(Output, ProfileRecordsTheClientsExitStatus)
{
   TempDir dir;
   auto r = run_tool("vgprof", {"--vgprof-out-file=p.json"}, {prog("exit_code")}, dir.path());
   EXPECT_EQ(r.exit_code, 7) << r.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "p.json");
   EXPECT_EQ(p.meta().exit_code, 7);
   EXPECT_FALSE(p.meta().killed);
}

// --vgprof-out-file=/dev/null must not replace the device with a file; a
// link to it stands in for it here, so a failure cannot break the machine.
TEST(Output, DeviceOrLinkDestinationIsWrittenInPlaceNotReplaced)
{
   TempDir dir;
   ASSERT_EQ(symlink("/dev/null", (dir / "sink.json").c_str()), 0);
   auto r = run_tool("vgprof", {"--vgprof-out-file=sink.json"}, {prog("exit_code")}, dir.path());
   EXPECT_EQ(r.exit_code, 7) << r.err;
   struct stat st;
   ASSERT_EQ(lstat((dir / "sink.json").c_str(), &st), 0);
   EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link was replaced";
   ASSERT_EQ(stat("/dev/null", &st), 0);
   EXPECT_TRUE(S_ISCHR(st.st_mode));
   EXPECT_TRUE(dir.files_starting_with("sink.json.tmp").empty());
}

// Command-line arguments are bytes; the profile is JSON, which must be
// valid UTF-8 whatever they hold (overlong forms, surrogates, bytes above
// U+10FFFF, stray continuation bytes).
TEST(Output, ArgumentsThatAreNotUtf8StillGiveAProfileThatLoads)
{
   TempDir dir;
   std::vector<std::string> argv{prog("exit_code"), "\xed\xa0\x80", "\xf5\x80\x80\x80",
                                 "\xe0\x80\x80", "\xc0\xaf", "caf\xc3\xa9", "\x80"};
   auto r = run_tool("vgprof", {"--vgprof-out-file=p.json"}, argv, dir.path());
   EXPECT_EQ(r.exit_code, 7) << r.err;
   vgprof::Profile p = vgprof::load_profile(dir / "p.json");
   ASSERT_EQ(p.meta().argv.size(), argv.size());
   EXPECT_EQ(p.meta().argv[5], "caf\xc3\xa9") << "valid UTF-8 passes through unchanged";
}

TEST(Output, EnvironmentVariableInTheNameIsExpanded)
{
   TempDir dir;
   setenv("VGPROF_TEST_TAG", "tagged", 1);
   auto r = run_tool("vgprof", {"--vgprof-out-file=p.%q{VGPROF_TEST_TAG}.json"},
                     {prog("exit_code")}, dir.path());
   unsetenv("VGPROF_TEST_TAG");
   EXPECT_EQ(r.exit_code, 7);
   EXPECT_EQ(dir.files_starting_with("p."), std::vector<std::string>{"p.tagged.json"});
}

TEST(Output, PerInstructionCostsAddUpToEachLine)
{
   TempDir dir;
   auto r = run_tool("vgprof", {"--vgprof-out-file=p.json", "--dump-instr=yes"},
                     {prog("loops")}, dir.path());
   ASSERT_EQ(r.exit_code, 0);
   vgprof::Profile p = vgprof::load_profile(dir / "p.json");
   ASSERT_FALSE(p.instrs().empty());
   std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint64_t> by_line, from_instrs;
   for (size_t i = 0; i < p.lines().size(); i++) {
      const auto& l = p.lines()[i];
      by_line[{l.fn.value, l.file.value, l.line}] += p.line_cost(i)[0];
   }
   uint64_t prev_addr = 0;
   for (size_t i = 0; i < p.instrs().size(); i++) {
      const auto& in = p.instrs()[i];
      EXPECT_GE(in.addr, prev_addr) << "instructions are sorted by address";
      prev_addr = in.addr;
      from_instrs[{in.fn.value, in.file.value, in.line}] += p.instr_cost(i)[0];
   }
   EXPECT_EQ(by_line, from_instrs);
}

}  // namespace

namespace {

uint64_t cachegrind_ir_of(const CachegrindOut& cg, const std::string& fn)
{
   return function_cost(cg.by_event.at("Ir"), fn);
}

TEST(ClientRequests, DumpWritesANumberedProfileAndZeroForgetsTheCostsBefore)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {prog("dumps")}, dir.path());
   auto cg = run_tool("cachegrind", with(kCachegrindAsVgprof, "--cachegrind-out-file=cg.out"),
                      {prog("dumps")}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   ASSERT_EQ(dir.files_starting_with("vp."), (std::vector<std::string>{"vp.1.json", "vp.json"}));
   CachegrindOut ref = read_cachegrind(dir / "cg.out");

   // The dump holds phase_a, exactly, and nothing of the later phases.
   vgprof::Profile dump = vgprof::load_profile(dir / "vp.1.json");
   EXPECT_EQ(dump.meta().dump_number, 1);
   EXPECT_EQ(dump.meta().dump_label, "after a");
   EXPECT_FALSE(dump.meta().exit_code.has_value());
   EXPECT_GT(ir_of_function(dump, "phase_a"), 30000u);
   EXPECT_EQ(ir_of_function(dump, "phase_a"), cachegrind_ir_of(ref, "phase_a"));
   EXPECT_EQ(ir_of_function(dump, "phase_b"), 0u);
   EXPECT_EQ(ir_of_function(dump, "phase_c"), 0u);

   // The final profile holds phase_c, exactly; phase_b was zeroed.
   vgprof::Profile final_profile = vgprof::load_profile(dir / "vp.json");
   EXPECT_EQ(final_profile.meta().exit_code, 0);
   EXPECT_EQ(ir_of_function(final_profile, "phase_a"), 0u);
   EXPECT_EQ(ir_of_function(final_profile, "phase_b"), 0u);
   EXPECT_GT(ir_of_function(final_profile, "phase_c"), 10000u);
   EXPECT_EQ(ir_of_function(final_profile, "phase_c"), cachegrind_ir_of(ref, "phase_c"));

   // Nothing is counted twice or lost between the two files but phase_b's
   // share and the zeroing request: the dump plus the final profile is the
   // whole run less what ran between the dump and the zero.
   EXPECT_LT(dump.meta().totals[0] + final_profile.meta().totals[0], ref.summary["Ir"]);
}

}  // namespace
