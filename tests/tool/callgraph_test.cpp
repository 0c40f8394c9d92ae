// SPDX-License-Identifier: GPL-2.0-or-later
// callgraph_test.cpp: the call graph against callgrind's on the same
// binary: every call edge that touches the test program's own functions
// has the same count and inclusive Ir, main's inclusive Ir is the same,
// and the call-path tree adds up.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"
#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

using namespace vgtest;

namespace {

struct Case {
   std::string name;
   std::string program;
   std::set<std::string> own;   // the program's own functions
   // Functions main calls whose inclusive cost cannot be compared: their
   // calls are compared by count only, and main's inclusive cost without
   // them.  Either the cost depends on the host's scheduling (pthread_join
   // waits as long as the other threads take to finish; pthread_create's
   // cost depends on whether the new thread already ran), or callgrind
   // drops it: when a signal handler leaves by siglongjmp, callgrind never
   // charges the last block that ran before the signal (5 instructions of
   // pthread_kill here), which vgprof counts, as cachegrind does.
   std::set<std::string> timing_dependent = {};
};

class CallGraphMatchesCallgrind : public ::testing::TestWithParam<Case> {};

TEST_P(CallGraphMatchesCallgrind, EdgesAndMainInclusiveAreEqual)
{
   const Case& c = GetParam();
   TempDir dir;
   std::vector<std::string> program{progs_dir() + "/" + c.program};
   auto cl = run_tool("callgrind", {"--callgrind-out-file=cl.out"}, program, dir.path());
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, program, dir.path());
   ASSERT_EQ(cl.exit_code, vp.exit_code) << vp.err;
   ASSERT_EQ(cl.out, vp.out);

   vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   ASSERT_TRUE(p.has_call_graph());
   CallMap mine = touching(vgprof_calls(p), c.own);
   CallMap theirs = touching(read_callgrind_calls(dir / "cl.out"), c.own);
   ASSERT_FALSE(theirs.empty());

   // main's inclusive cost: what callgrind charges to the call that entered it.
   const auto into_main = theirs.find({"(below main)", "main"});
   ASSERT_NE(into_main, theirs.end());
   std::optional<uint64_t> main_incl;
   for (size_t f = 0; f < p.functions().size(); f++)
      if (p.fn_name(vgprof::FnId(f)) == "main" && p.fn_inclusive(vgprof::FnId(f)))
         main_incl = p.fn_inclusive(vgprof::FnId(f))[0];
   ASSERT_TRUE(main_incl.has_value());
   uint64_t their_main = into_main->second.inclusive;
   for (const auto& callee : c.timing_dependent) {
      auto& m = mine[{"main", callee}];
      auto& t = theirs[{"main", callee}];
      EXPECT_EQ(m.count, t.count) << callee;
      *main_incl -= m.inclusive;
      their_main -= t.inclusive;
      m.inclusive = t.inclusive = 0;
      mine[{"(below main)", "main"}].inclusive = theirs[{"(below main)", "main"}].inclusive = 0;
   }
   EXPECT_EQ(mine, theirs) << "vgprof:\n" << show_calls(mine) << "callgrind:\n" << show_calls(theirs);
   EXPECT_EQ(*main_incl, their_main);
}

INSTANTIATE_TEST_SUITE_P(
    Programs, CallGraphMatchesCallgrind,
    ::testing::Values(
        Case{"recursion", "recursion", {"main", "fib", "is_even", "is_odd"}},
        Case{"fptr", "fptr", {"main", "op_add", "op_mul", "op_xor", "op_shift"}},
        Case{"qsort_callback", "libc_calls", {"main", "cmp_int"}},
        Case{"longjmp", "longjmp", {"main", "dive", "after"}},
        Case{"cxx_exception", "throw", {"main", "level1(int)", "level2(int)", "level3(int)", "after(int)"}},
        Case{"signal_handler", "signal", {"main", "on_usr1", "in_handler", "between"}},
        Case{"siglongjmp_out_of_handler", "sigjmp", {"main", "on_usr1", "dive", "after"},
             {"dive.constprop.0"}},
        Case{"threads", "threads", {"main", "worker", "compute"},
             {"pthread_join@@GLIBC_2.34", "pthread_create@@GLIBC_2.34"}},
        Case{"paths", "paths", {"main", "a", "b", "c"}},
        // The heap profiled: calls into the C library's allocator, and its
        // own calls, are the program's.
        Case{"allocator", "heap_basic",
             {"main", "malloc", "free", "calloc", "realloc", "posix_memalign", "_int_malloc",
              "_int_free"}},
        // The C library's clean-up: exit flushes stdout through _IO_cleanup;
        // the clean-up Valgrind runs once the program has ended calls it
        // again, which neither tool counts.
        Case{"exit_cleanup", "heap_strings", {"main", "_IO_cleanup", "_IO_flush_all_lockp"}}),
    [](const auto& info) { return info.param.name; });

// Every call is recorded at the instruction that made it, as callgrind
// records it (the position of its calls= line with --dump-instr=yes): b's
// two calls of c on one line are two call sites (a call, then a tail
// call's jump), as are is_even's and is_odd's tail calls of each other; a
// call through the PLT is made by the caller's call of the stub; qsort's
// calls of cmp_int come from a call instruction in the stripped C library,
// which has no lines.
// The profile holds run-time addresses, callgrind's file the object file's:
// the caller's object's load offset is how far the caller's lowest
// instruction either tool saw run lies in the one from the other.
class CallSitesMatchCallgrind : public ::testing::TestWithParam<Case> {};

TEST_P(CallSitesMatchCallgrind, EachCallInstructionHasCallgrindsCount)
{
   const Case& c = GetParam();
   TempDir dir;
   std::vector<std::string> program{progs_dir() + "/" + c.program};
   auto cl = run_tool("callgrind",
                      {"--callgrind-out-file=cl.out", "--dump-instr=yes", "--dump-line=no",
                       "--compress-pos=no", "--compress-strings=no"},
                      program, dir.path());
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json", "--dump-instr=yes"}, program, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   ASSERT_EQ(cl.exit_code, vp.exit_code);
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");

   using Function = std::pair<std::string, std::string>;   // object path, name
   std::map<Function, uint64_t> lowest_in_file, lowest_at_run;
   const auto lower = [](std::map<Function, uint64_t>& lowest, const Function& f, uint64_t addr) {
      auto [it, added] = lowest.try_emplace(f, addr);
      it->second = std::min(it->second, addr);
   };
   for (const auto& [key, cost] : read_callgrind_instrs(dir / "cl.out").self)
      lower(lowest_in_file, {std::get<0>(key), without_recursion_level(std::get<1>(key))},
            std::get<2>(key));
   for (const auto& i : p.instrs())
      lower(lowest_at_run, {p.obj_path(p.function(i.fn).obj), p.fn_name(i.fn)}, i.addr);
   // The calls into or out of the case's functions, made by a function
   // with a name (the load offset is found by the caller's name).
   const auto own = [&](const CallSiteCounts& all) {
      CallSiteCounts some;
      for (const auto& [key, count] : all)
         if ((c.own.count(std::get<0>(key)) || c.own.count(std::get<1>(key))) &&
             std::get<0>(key) != "???")
            some[key] = count;
      return some;
   };
   CallSiteCounts mine;
   for (const auto& [key, count] : own(vgprof_call_sites(p))) {
      ASSERT_NE(std::get<2>(key), 0u) << std::get<0>(key) << " -> " << std::get<1>(key);
      const Function caller{std::get<3>(key), std::get<0>(key)};
      ASSERT_TRUE(lowest_in_file.count(caller) && lowest_at_run.count(caller)) << caller.second;
      const uint64_t offset = lowest_at_run[caller] - lowest_in_file[caller];
      EXPECT_EQ(offset % 4096, 0u) << caller.first;   // objects are mapped at page boundaries
      mine[{std::get<0>(key), std::get<1>(key), std::get<2>(key) - offset, caller.first}] = count;
   }
   const CallSiteCounts theirs = own(read_callgrind_call_sites(dir / "cl.out"));
   const auto show = [](const CallSiteCounts& sites) {
      std::ostringstream s;
      for (const auto& [key, count] : sites)
         s << "  " << std::get<0>(key) << " -> " << std::get<1>(key) << " at 0x" << std::hex
           << std::get<2>(key) << std::dec << " of " << std::get<3>(key) << ": " << count << "\n";
      return s.str();
   };
   ASSERT_FALSE(theirs.empty());
   EXPECT_EQ(mine, theirs) << "vgprof:\n" << show(mine) << "callgrind:\n" << show(theirs);
}

INSTANTIATE_TEST_SUITE_P(
    Programs, CallSitesMatchCallgrind,
    ::testing::Values(Case{"two_calls_on_one_line", "paths", {"a", "b", "c"}},
                      Case{"tail_calls", "recursion", {"fib", "is_even", "is_odd"}},
                      Case{"through_a_pointer", "fptr", {"op_add", "op_mul", "op_xor", "op_shift"}},
                      // main's calls through the PLT, each from main's call of
                      // the stub, and qsort's calls of cmp_int.
                      Case{"from_the_stripped_c_library", "libc_calls", {"main", "cmp_int"}}),
    [](const auto& info) { return info.param.name; });

// The tree's own arithmetic, checked directly rather than through the
// loader's validation: self costs add up to the total, and a node's
// inclusive cost is its self cost plus its children's.
TEST(CallPathTree, SelfCostsAddUpToTheTotalAndInclusiveToSelfPlusChildren)
{
   TempDir dir;
   auto r = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {progs_dir() + "/threads"}, dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   uint64_t self_sum = 0;
   std::vector<uint64_t> children(p.paths().size(), 0);
   for (size_t i = 0; i < p.paths().size(); i++) {
      self_sum += p.path_self(i)[0];
      if (p.paths()[i].parent) children[p.paths()[i].parent->index()] += p.path_inclusive(i)[0];
   }
   EXPECT_EQ(self_sum, p.meta().totals[0]);
   for (size_t i = 0; i < p.paths().size(); i++)
      EXPECT_EQ(p.path_inclusive(i)[0], p.path_self(i)[0] + children[i]) << "node " << i;
}

// a() and b() both call c(): the tree keeps the two paths apart, and each
// path's cost is exactly what callgrind charges to that caller's calls.
TEST(CallPathTree, EachPathToTheSameFunctionHasItsOwnExactCost)
{
   TempDir dir;
   std::vector<std::string> program{progs_dir() + "/paths"};
   auto cl = run_tool("callgrind", {"--callgrind-out-file=cl.out"}, program, dir.path());
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, program, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   CallMap ref = read_callgrind_calls(dir / "cl.out");

   auto path_of = [&](size_t i) {
      std::vector<std::string> names;
      for (std::optional<vgprof::PathId> n = vgprof::PathId(i); n; n = p.paths()[n->index()].parent) {
         const auto& node = p.paths()[n->index()];
         names.insert(names.begin(), node.fn ? p.fn_name(*node.fn) : "[truncated]");
      }
      return names;
   };
   std::map<std::string, std::pair<uint64_t, uint64_t>> c_under;   // caller -> count, inclusive
   for (size_t i = 0; i < p.paths().size(); i++) {
      auto names = path_of(i);
      if (names.size() >= 3 && names.back() == "c" && names[names.size() - 3] == "main")
         c_under[names[names.size() - 2]] = {p.paths()[i].count, p.path_inclusive(i)[0]};
   }
   ASSERT_EQ(c_under.size(), 2u);
   EXPECT_EQ(c_under["a"].first, 3u);
   EXPECT_EQ(c_under["b"].first, 4u);
   EXPECT_EQ(c_under["a"].second, (ref[{"a", "c"}].inclusive));
   EXPECT_EQ(c_under["b"].second, (ref[{"b", "c"}].inclusive));
   // b's calls do seven times a's work per call (700 against 100 iterations).
   EXPECT_GT(c_under["b"].second / 4, 6 * (c_under["a"].second / 3));
}

TEST(CallPathTree, NodeLimitGathersTheRestIntoATruncatedNodeWithExactCosts)
{
   TempDir dir;
   auto r = run_tool("vgprof", {"--vgprof-out-file=vp.json", "--max-path-nodes=50"},
                     {progs_dir() + "/recursion"}, dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   auto full = run_tool("vgprof", {"--vgprof-out-file=full.json"}, {progs_dir() + "/recursion"}, dir.path());
   vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   vgprof::Profile f = vgprof::load_profile(dir / "full.json");
   size_t truncated = 0;
   uint64_t self_sum = 0;
   for (size_t i = 0; i < p.paths().size(); i++) {
      self_sum += p.path_self(i)[0];
      if (!p.paths()[i].fn) truncated++;
   }
   EXPECT_GT(truncated, 0u);
   EXPECT_LE(p.paths().size(), 50u + truncated);
   EXPECT_EQ(self_sum, p.meta().totals[0]);
   // Edges and inclusive costs do not depend on the tree's bound.
   EXPECT_EQ(vgprof_calls(p), vgprof_calls(f));
}

}  // namespace

namespace {

struct ToggleCase {
   std::string name;
   std::vector<std::string> options;   // given to both tools
   std::string mode;                   // the program's argument
   bool main_entered_by_a_call;        // false when instrumentation starts inside main
};

class CollectionControlMatchesCallgrind : public ::testing::TestWithParam<ToggleCase> {};

// The program does first_half() and second_half(); collection (or
// instrumentation) starts between them, so only the second half and what
// follows it is recorded, as callgrind records it under the same options.
TEST_P(CollectionControlMatchesCallgrind, OnlyTheSecondHalfIsRecorded)
{
   const ToggleCase& c = GetParam();
   TempDir dir;
   std::vector<std::string> program{progs_dir() + "/toggle", c.mode};
   auto cl_opts = c.options, vp_opts = c.options;
   cl_opts.push_back("--callgrind-out-file=cl.out");
   vp_opts.push_back("--vgprof-out-file=vp.json");
   auto cl = run_tool("callgrind", cl_opts, program, dir.path());
   auto vp = run_tool("vgprof", vp_opts, program, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   ASSERT_EQ(cl.out, vp.out);

   const std::set<std::string> own{"main", "first_half", "second_half", "step"};
   vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   CallMap mine = touching(vgprof_calls(p), own);
   CallMap theirs = touching(read_callgrind_calls(dir / "cl.out"), own);
   if (!c.main_entered_by_a_call)
      theirs.erase({"(below main)", "main"});   // callgrind invents this call on the underflow
   EXPECT_EQ(mine, theirs) << "vgprof:\n" << show_calls(mine) << "callgrind:\n" << show_calls(theirs);
   EXPECT_EQ(mine.count({"first_half", "step"}), 0u);
   ASSERT_EQ(mine.count({"second_half", "step"}), 1u);
   EXPECT_EQ((mine[{"second_half", "step"}].count), 30000u);

   // Nothing of the first half, in any event (the cache simulation ran
   // through it, but its counts were not kept).
   ASSERT_GT(p.num_events(), 1u);
   uint64_t first_half_self = 0, second_half_self = 0;
   for (size_t i = 0; i < p.lines().size(); i++)
      for (size_t e = 0; e < p.num_events(); e++) {
         const std::string& fn = p.fn_name(p.lines()[i].fn);
         if (fn == "first_half") first_half_self += p.line_cost(i)[e];
         if (fn == "second_half") second_half_self += p.line_cost(i)[e];
      }
   EXPECT_EQ(first_half_self, 0u);
   EXPECT_GT(second_half_self, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Options, CollectionControlMatchesCallgrind,
    ::testing::Values(
        ToggleCase{"collect_atstart_no_and_toggle_request", {"--collect-atstart=no"}, "toggle", true},
        ToggleCase{"toggle_collect_function", {"--collect-atstart=no", "--toggle-collect=second_half"}, "none", true},
        ToggleCase{"instr_atstart_no_and_start_request", {"--instr-atstart=no"}, "start", false}),
    [](const auto& info) { return info.param.name; });

}  // namespace

namespace {

// With --separate-threads=yes, each thread has its own graph: the main
// thread's is callgrind's thread-1 file, the other threads' graphs add up
// to callgrind's other files (which thread number a worker gets depends on
// the host's scheduling, so only their sum can be compared), and the
// whole-program graph is the same as without the option.
TEST(SeparateThreads, EachThreadsGraphMatchesCallgrindsPerThreadFiles)
{
   TempDir dir;
   std::vector<std::string> program{progs_dir() + "/threads"};
   auto cl = run_tool("callgrind", {"--separate-threads=yes", "--callgrind-out-file=cl.out"},
                      program, dir.path());
   auto vp = run_tool("vgprof", {"--separate-threads=yes", "--vgprof-out-file=vp.json"},
                      program, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   ASSERT_TRUE(p.has_thread_graphs());
   ASSERT_NE(p.thread(1), nullptr);

   const std::set<std::string> own{"main", "worker", "compute"};
   auto own_calls = [&](const vgprof::CallGraph& g) { return touching(graph_calls(p, g), own); };
   auto without_timing = [](CallMap m) {
      for (const char* f : {"pthread_join@@GLIBC_2.34", "pthread_create@@GLIBC_2.34"})
         m[{"main", f}].inclusive = 0;   // how long these wait depends on the host
      m.erase({"(below main)", "main"});
      return m;
   };

   CallMap main_mine = without_timing(own_calls(*p.thread(1)));
   CallMap main_theirs = without_timing(touching(read_callgrind_calls(dir / "cl.out-01"), own));
   EXPECT_EQ(main_mine, main_theirs) << "vgprof:\n" << show_calls(main_mine) << "callgrind:\n" << show_calls(main_theirs);

   CallMap others_mine, others_theirs;
   for (const auto& t : p.threads())
      if (t.tid != 1)
         for (const auto& [edge, c] : own_calls(t)) {
            others_mine[edge].count += c.count;
            others_mine[edge].inclusive += c.inclusive;
         }
   for (const auto& f : dir.files_starting_with("cl.out-"))
      if (f != "cl.out-01")
         for (const auto& [edge, c] : touching(read_callgrind_calls(dir / f), own)) {
            others_theirs[edge].count += c.count;
            others_theirs[edge].inclusive += c.inclusive;
         }
   ASSERT_FALSE(others_theirs.empty());
   EXPECT_EQ(others_mine, others_theirs) << "vgprof:\n" << show_calls(others_mine) << "callgrind:\n" << show_calls(others_theirs);

   // Every worker thread's stack begins at its own root, apart from main's.
   for (const auto& t : p.threads())
      EXPECT_FALSE(t.roots.empty()) << "thread " << t.tid;

   // The self costs of the program's functions, thread by thread, as
   // callgrind's per-thread files have them (read as `vgprof report` reads
   // a callgrind file): main's thread alone, the workers' summed.
   auto own_self = [&](const vgprof::Profile& profile, std::vector<vgprof::FunctionCost> costs) {
      std::map<std::string, uint64_t> out;
      for (const auto& c : costs)
         if (own.count(profile.fn_name(c.fn)) && c.self[0] != 0)
            out[profile.fn_name(c.fn)] += c.self[0];
      return out;
   };
   const vgprof::Profile theirs_main = vgprof::load_profile(dir / "cl.out-01");
   EXPECT_EQ(own_self(p, vgprof::thread_costs(p, *p.thread(1)).functions),
             own_self(theirs_main, vgprof::function_self_costs(theirs_main)));
   std::map<std::string, uint64_t> workers_mine, workers_theirs;
   for (const auto& t : p.threads())
      if (t.tid != 1)
         for (const auto& [fn, self] : own_self(p, vgprof::thread_costs(p, t).functions))
            workers_mine[fn] += self;
   for (const auto& f : dir.files_starting_with("cl.out-"))
      if (f != "cl.out-01") {
         const vgprof::Profile theirs = vgprof::load_profile(dir / f);
         for (const auto& [fn, self] : own_self(theirs, vgprof::function_self_costs(theirs)))
            workers_theirs[fn] += self;
      }
   EXPECT_FALSE(workers_theirs.empty());
   EXPECT_EQ(workers_mine, workers_theirs);
   // The threads' totals are their parts of the program's: they add up to it.
   uint64_t summed = 0;
   for (const auto& t : p.threads()) {
      const vgprof::ThreadCosts costs = vgprof::thread_costs(p, t);
      EXPECT_EQ(costs.untold[0], 0u);
      summed += costs.totals[0];
   }
   EXPECT_EQ(summed, p.meta().totals[0]);
}

}  // namespace
