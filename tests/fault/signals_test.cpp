// SPDX-License-Identifier: GPL-2.0-or-later
// signals_test.cpp: signal handlers on an alternate stack, and handlers
// left by siglongjmp over and over (from a raised signal and from a fault):
// the instruction counts equal cachegrind's line by line, and the calls
// into, out of and between the program's own functions equal callgrind's.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "fault_progs.hpp"
#include "harness.hpp"
#include "vgprof/load.hpp"

using namespace vgtest;

namespace {

struct ThreeRuns {
   RunResult vp, cg, cl;
   vgprof::Profile profile;
   CachegrindOut cachegrind;
   CallMap callgrind;
};

// The program under vgprof, cachegrind (translating as vgprof does) and
// callgrind, each run the same way.
ThreeRuns run_three(const TempDir& dir, const std::vector<std::string>& program)
{
   ThreeRuns r;
   r.vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, program, dir.path());
   r.cg = run_tool("cachegrind", with(kCachegrindAsVgprof, "--cachegrind-out-file=cg.out"),
                   program, dir.path());
   r.cl = run_tool("callgrind", {"--callgrind-out-file=cl.out"}, program, dir.path());
   r.profile = vgprof::load_profile(dir / "vp.json");
   r.cachegrind = read_cachegrind(dir / "cg.out");
   r.callgrind = read_callgrind_calls(dir / "cl.out");
   return r;
}

TEST(Signals, HandlersOnAnAlternateStackCountAsCachegrindAndCallAsCallgrind)
{
   TempDir dir;
   ThreeRuns r = run_three(dir, fault_prog("altstack", {rounds(30, 30000)}));
   ASSERT_EQ(r.vp.exit_code, 0) << "a handler ran off the alternate stack\n" << r.vp.err;
   ASSERT_EQ(r.cg.exit_code, 0);
   ASSERT_EQ(r.cl.exit_code, 0);
   ASSERT_EQ(r.vp.out, r.cg.out);
   ASSERT_EQ(r.vp.out, r.cl.out);

   EXPECT_EQ(r.profile.meta().totals[0], r.cachegrind.summary["Ir"]);
   expect_same_lines(vgprof_lines(r.profile, "Ir"), r.cachegrind.by_event["Ir"], "Ir");

   const std::set<std::string> own{"main", "on_usr1", "on_usr2", "in_handler", "between"};
   CallMap mine = touching(vgprof_calls(r.profile), own);
   CallMap theirs = touching(r.callgrind, own);
   ASSERT_GT((theirs[{"on_usr1", "in_handler"}].count), 0u);
   ASSERT_GT((theirs[{"on_usr2", "in_handler"}].count), 0u);
   EXPECT_EQ(mine, theirs) << "vgprof:\n" << show_calls(mine) << "callgrind:\n" << show_calls(theirs);
}

TEST(Signals, RepeatedSiglongjmpOutOfHandlersCountsAsCachegrindAndCallsAsCallgrind)
{
   TempDir dir;
   const std::string jumps = rounds(200, 100000);
   ThreeRuns r = run_three(dir, fault_prog("jumps", {jumps}));
   ASSERT_EQ(r.vp.exit_code, 0) << r.vp.err;
   ASSERT_EQ(r.cg.exit_code, 0);
   ASSERT_EQ(r.cl.exit_code, 0);
   ASSERT_EQ(r.vp.out, r.cg.out);
   ASSERT_EQ(r.vp.out, r.cl.out);
   ASSERT_EQ(r.vp.out.substr(0, jumps.size() + 1), jumps + " ");

   EXPECT_EQ(r.profile.meta().totals[0], r.cachegrind.summary["Ir"]);
   expect_same_lines(vgprof_lines(r.profile, "Ir"), r.cachegrind.by_event["Ir"], "Ir");

   const std::set<std::string> own{"main", "leave", "dive", "after"};
   CallMap mine = touching(vgprof_calls(r.profile), own);
   CallMap theirs = touching(r.callgrind, own);
   ASSERT_GT((theirs[{"main", "after"}].count), 0u);
   EXPECT_EQ(mine, theirs) << "vgprof:\n" << show_calls(mine) << "callgrind:\n" << show_calls(theirs);
}

}  // namespace
