// SPDX-License-Identifier: GPL-2.0-or-later
// endings_test.cpp: a client that dies of SIGSEGV, one that calls abort(),
// and one that calls _exit(42) from a thread while three others spin: each
// run ends as the program does without Valgrind, and leaves one complete
// profile that says how the client ended (naming the signal), whose counts
// up to the end equal cachegrind's, with the heap recorded (the default)
// and the cache simulated.
#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <vector>

#include "fault_progs.hpp"
#include "harness.hpp"
#include "vgprof/load.hpp"

using namespace vgtest;

namespace {

struct Ending {
   std::string name;
   std::vector<std::string> program;
   int exit_code;   // -1: killed by `signal`
   int signal;
   // The functions whose counts do not depend on how threads are
   // scheduled; empty: the whole program's counts are compared.
   std::vector<std::string> deterministic;
   bool allocates_as_die = false;   // die.c's blocks, whose totals are known
};

std::ostream& operator<<(std::ostream& out, const Ending& e) { return out << e.name; }

class ClientEnding : public ::testing::TestWithParam<Ending> {};

// The figures die.c's allocations give: ten blocks of 1000, 2000 ...
// 10000 bytes, of which those of 1000, 3000 ... 9000 are freed.
constexpr uint64_t kDieBytes = 55000, kDieBlocks = 10, kDieEndBytes = 30000, kDieEndBlocks = 5;

TEST_P(ClientEnding, LeavesACompleteProfileMarkedWithHowTheClientEnded)
{
   const Ending& e = GetParam();
   TempDir dir;
   RunResult native = run(e.program, dir.path());
   ASSERT_EQ(native.exit_code, e.exit_code) << "the program itself";
   ASSERT_EQ(native.signal, e.signal) << "the program itself";

   // Counts against cachegrind's: the client's own allocator, as cachegrind runs it.
   RunResult plain = run_tool("vgprof", {"--vgprof-out-file=plain.json"}, e.program, dir.path());
   RunResult cg = run_tool("cachegrind", with(kCachegrindAsVgprof, "--cachegrind-out-file=cg.out"),
                           e.program, dir.path());
   EXPECT_EQ(plain.exit_code, native.exit_code) << plain.err;
   EXPECT_EQ(plain.signal, native.signal) << plain.err;
   EXPECT_EQ(cg.signal, native.signal);
   const vgprof::Profile p = vgprof::load_profile(dir / "plain.json");
   const CachegrindOut ref = read_cachegrind(dir / "cg.out");
   if (e.deterministic.empty()) {
      EXPECT_EQ(p.meta().totals[0], ref.summary.at("Ir"));
      expect_same_lines(vgprof_lines(p, "Ir"), ref.by_event.at("Ir"), "Ir");
   }
   for (const std::string& fn : e.deterministic) {
      EXPECT_GT(cachegrind_ir_of(ref, fn), 0u) << fn;
      EXPECT_EQ(vgprof_ir_of(p, fn), cachegrind_ir_of(ref, fn)) << fn;
   }

   // The defaults (heap on) with the cache simulated too.
   RunResult full = run_tool("vgprof", {"--vgprof-out-file=full.json", "--heap=yes", "--cache-sim=yes"},
                             e.program, dir.path());
   EXPECT_EQ(full.exit_code, native.exit_code) << full.err;
   EXPECT_EQ(full.signal, native.signal) << full.err;
   for (const char* name : {"plain.json", "full.json"}) {
      SCOPED_TRACE(name);
      const vgprof::Profile q = vgprof::load_profile(dir / name);
      EXPECT_EQ(q.meta().killed, e.signal != 0);
      if (e.signal)
         EXPECT_EQ(q.meta().exit_code, std::nullopt);
      else
         EXPECT_EQ(q.meta().exit_code, e.exit_code);
      EXPECT_EQ(q.meta().signal, e.signal ? std::optional<int>(e.signal) : std::nullopt);
   }
   const vgprof::Profile f = vgprof::load_profile(dir / "full.json");
   ASSERT_NE(f.heap(), nullptr);
   EXPECT_TRUE(f.meta().cache.has_value());
   EXPECT_TRUE(f.event_index("D1mr").has_value());
   if (e.allocates_as_die) {
      const vgprof::HeapTotals& t = f.heap()->totals;
      EXPECT_EQ(t.bytes, kDieBytes);
      EXPECT_EQ(t.blocks, kDieBlocks);
      EXPECT_EQ(t.end_bytes, kDieEndBytes);
      EXPECT_EQ(t.end_blocks, kDieEndBlocks);
      EXPECT_EQ(vgprof_ir_of(f, "spin"), cachegrind_ir_of(ref, "spin"));
   }
   EXPECT_EQ(dir.files_starting_with("plain.json.tmp"), std::vector<std::string>{});
   EXPECT_EQ(dir.files_starting_with("full.json.tmp"), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(
    Clients, ClientEnding,
    ::testing::Values(
        Ending{"sigsegv", fault_prog("die", {"segv"}), -1, SIGSEGV, {}, true},
        Ending{"abort", fault_prog("die", {"abort"}), -1, SIGABRT, {}, true},
        // The spinning threads run as long as the scheduler lets them.
        Ending{"exit_from_a_thread", fault_prog("thread_exit"), 42, 0, {"work", "finisher"}}),
    [](const ::testing::TestParamInfo<Ending>& info) { return info.param.name; });

}  // namespace
