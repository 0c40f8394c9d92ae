// SPDX-License-Identifier: GPL-2.0-or-later
// stress_test.cpp: the tool under heavy load and concurrent clients, each
// case compared with what the reference tools record on the same binary:
// sixteen threads freeing each other's blocks, fork (also from a thread,
// and a fork of a fork), exec with and without --trace-children, recursion
// 100,000 deep, a million allocations (ten million in the long form) and
// blocks of 1 GiB with realloc to 0.  VGPROF_STRESS_LONG=1 runs the long
// form.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "harness.hpp"
#include "heap_sites.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/load.hpp"

using namespace vgtest;

namespace {

bool long_form()
{
   const char* v = std::getenv("VGPROF_STRESS_LONG");
   return v && std::string(v) == "1";
}

// The short form's size, or the long form's.
unsigned long sized(unsigned long short_size, unsigned long long_size)
{
   return long_form() ? long_size : short_size;
}

std::string prog(const std::string& name) { return progs_dir() + "/../stress/" + name; }

uint64_t ir_total(const vgprof::Profile& p) { return p.meta().totals.at(0); }

// A function's self Ir, by name, in vgprof's profile and in cachegrind's.
uint64_t ir_of_function(const vgprof::Profile& p, const std::string& fn)
{
   return function_cost(vgprof_lines(p, "Ir"), fn);
}

uint64_t ir_of_function(const CachegrindOut& cg, const std::string& fn)
{
   return function_cost(cg.by_event.at("Ir"), fn);
}

// The line costs of one source file (by its base name).
LineCosts of_file(const LineCosts& all, const std::string& name)
{
   LineCosts some;
   for (const auto& [key, cost] : all)
      if (base_name(std::get<0>(key)) == name) some[key] = cost;
   return some;
}

// Heap totals as DHAT's file gives them (the sum over its program points)
// and as a profile holds them: bytes, blocks, at t-gmax, at t-end.
using HeapTotals = std::vector<uint64_t>;

HeapTotals dhat_totals(const std::string& path)
{
   HeapTotals t(6, 0);
   const boost::json::object doc = boost::json::parse(read_file(path)).as_object();
   for (const boost::json::value& pp : doc.at("pps").as_array()) {
      size_t i = 0;
      for (const char* key : {"tb", "tbk", "gb", "gbk", "eb", "ebk"}) t[i++] += u64(pp.at(key));
   }
   return t;
}

HeapTotals vgprof_totals(const vgprof::Profile& p)
{
   const vgprof::HeapTotals& t = p.heap()->totals;
   return {t.bytes, t.blocks, t.peak_bytes, t.peak_blocks, t.end_bytes, t.end_blocks};
}

// ---------------------------------------------------------------------------
// 1. Sixteen threads, blocks freed by another thread than the allocating one.

const unsigned long kThreadRounds = sized(1000, 20000);

TEST(Threads, SixteenThreadsFreeingEachOthersBlocksHaveDhatsHeap)
{
   TempDir dir;
   // Which thread gets which address depends on how the host schedules
   // them, in DHAT's run as in vgprof's: a block can land right above a
   // thread's stack in one run and not the other, and DHAT's rule leaves
   // out accesses there. Bytes read and written agree within 1%.
   expect_heap_matches_dhat({prog("threads"), std::to_string(kThreadRounds)}, {}, dir.path(), 0,
                            nullptr, 0.01);
}

// Under Valgrind a threaded program runs one thread at a time, but which
// thread runs after one blocks in the kernel (a contended lock, a barrier)
// depends on the host: the C library's locking and malloc arenas execute a
// different number of instructions from one run to the next, under
// cachegrind as under vgprof (cachegrind alone: 11,573,217 to 11,582,481
// over runs of 1,000 rounds).  The program's own code runs the same in
// every interleaving, and its every line has cachegrind's Ir; the totals
// agree to within that spread.
TEST(Threads, SixteenThreadsOwnCodeHasCachegrindsIrOnEveryLine)
{
   TempDir dir;
   const std::vector<std::string> program{prog("threads"), std::to_string(kThreadRounds)};
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, program, dir.path());
   auto cg = run_tool("cachegrind", with(kCachegrindAsVgprof, "--cachegrind-out-file=cg.out"),
                      program, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   ASSERT_EQ(cg.exit_code, 0) << cg.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   CachegrindOut ref = read_cachegrind(dir / "cg.out");

   const LineCosts mine = of_file(vgprof_lines(p, "Ir"), "threads.c");
   const LineCosts theirs = of_file(ref.by_event["Ir"], "threads.c");
   ASSERT_GT(theirs.size(), 10u);
   expect_same_lines(mine, theirs, "Ir");
   EXPECT_GT(ir_of_function(p, "worker"), 16 * kThreadRounds * 20);

   const double total = double(ir_total(p)), reference = double(ref.summary["Ir"]);
   EXPECT_NEAR(total, reference, reference * 0.005);
   std::cout << "threads: Ir " << ir_total(p) << ", cachegrind " << ref.summary["Ir"] << "\n";
}

// ---------------------------------------------------------------------------
// 2. fork: main forks a child that forks a grandchild, and a thread forks
// another child; with --vgprof-out-file=...%p each of the four processes
// writes a complete profile of its own.

TEST(Fork, EachProcessHasCachegrindsIr)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.%p.json"}, {prog("fork")}, dir.path());
   auto cg = run_tool("cachegrind", with(kCachegrindAsVgprof, "--cachegrind-out-file=cg.%p.out"),
                      {prog("fork")}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   ASSERT_EQ(cg.exit_code, 0) << cg.err;
   const auto vp_files = dir.files_starting_with("vp.");
   const auto cg_files = dir.files_starting_with("cg.");
   ASSERT_EQ(vp_files.size(), 4u);
   ASSERT_EQ(cg_files.size(), 4u);

   // The processes work 1,000, 2,000, 3,000 and 4,000 rounds in work(),
   // which tells them apart under both tools: the profile of each, by its
   // exit status, and cachegrind's file with the same cost of work().
   struct Process {
      uint64_t total = 0;
      LineCosts own;   // the lines of fork.c
   };
   std::map<int64_t, std::pair<uint64_t, Process>> mine;   // status -> work(), process
   std::map<uint64_t, Process> theirs;                      // work() -> process
   for (const auto& f : vp_files) {
      const vgprof::Profile p = vgprof::load_profile(dir / f);
      const LineCosts lines = vgprof_lines(p, "Ir");
      mine[p.meta().exit_code.value_or(-1)] = {function_cost(lines, "work"),
                                               {ir_total(p), of_file(lines, "fork.c")}};
   }
   for (const auto& f : cg_files) {
      CachegrindOut cg_out = read_cachegrind(dir / f);
      const LineCosts& lines = cg_out.by_event["Ir"];
      theirs[function_cost(lines, "work")] = {cg_out.summary["Ir"], of_file(lines, "fork.c")};
   }
   ASSERT_EQ(mine.size(), 4u);
   ASSERT_EQ(theirs.size(), 4u);
   for (const int64_t status : {0, 11, 12, 13}) {
      SCOPED_TRACE("the process that exits " + std::to_string(status));
      ASSERT_TRUE(mine.count(status));
      const auto& [work, process] = mine[status];
      ASSERT_TRUE(theirs.count(work)) << "no cachegrind file has work() cost " << work;
      // The child a thread forked inherits the parent's counts at the
      // fork, and where the parent's main thread was then (in
      // pthread_create, or waiting in pthread_join) depends on the host, as
      // does the parent's own count of pthread_create and pthread_join (see
      // threads above): main's lines are left out of that child's, and the
      // totals of both agree within that spread.  The child and grandchild
      // forked before any thread have cachegrind's totals.
      LineCosts own = process.own, ref_own = theirs[work].own;
      if (status == 12)
         for (LineCosts* lines : {&own, &ref_own})
            for (auto it = lines->begin(); it != lines->end();)
               it = std::get<1>(it->first) == "main" ? lines->erase(it) : std::next(it);
      expect_same_lines(own, ref_own, "Ir");
      const Process& ref = theirs[work];
      if (status == 0 || status == 12)
         EXPECT_NEAR(double(process.total), double(ref.total), ref.total * 0.005);
      else
         EXPECT_EQ(process.total, ref.total);
   }
}

// The same with the heap on (vgprof's default): each process's heap, as
// DHAT records it for that process.
TEST(Fork, EachProcessHasDhatsHeap)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--heap=yes", "--vgprof-out-file=vp.%p.json"}, {prog("fork")},
                      dir.path());
   auto dh = run_tool("dhat", {"--dhat-out-file=dh.%p.json"}, {prog("fork")}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   ASSERT_EQ(dh.exit_code, 0) << dh.err;
   const auto vp_files = dir.files_starting_with("vp.");
   const auto dh_files = dir.files_starting_with("dh.");
   ASSERT_EQ(vp_files.size(), 4u);
   ASSERT_EQ(dh_files.size(), 4u);

   // Paired by their totals, which differ from process to process.
   std::vector<std::pair<HeapTotals, std::string>> mine, theirs;
   for (const auto& f : vp_files) {
      const vgprof::Profile p = vgprof::load_profile(dir / f);
      ASSERT_NE(p.heap(), nullptr) << f;
      mine.emplace_back(vgprof_totals(p), f);
   }
   for (const auto& f : dh_files) theirs.emplace_back(dhat_totals(dir / f), f);
   std::sort(mine.begin(), mine.end());
   std::sort(theirs.begin(), theirs.end());
   // Bytes read and written are not DHAT's in the child forked from a
   // thread: DHAT's allocator puts that thread's blocks right above its
   // stack, and its rule for stack accesses then leaves their writes out
   // (the C library's thread arena lies elsewhere).  fork.c's own count is
   // the reference: work() writes one byte into each block of its loop.
   for (size_t i = 0; i < mine.size(); i++) {
      EXPECT_EQ(mine[i].first, theirs[i].first) << mine[i].second << " and " << theirs[i].second;
      const vgprof::Profile p = vgprof::load_profile(dir / mine[i].second);
      expect_same_sites(vgprof_sites(p), read_dhat(dir / theirs[i].second), 1.0);
      size_t loops = 0;
      for (const vgprof::HeapSite& s : p.heap()->sites) {
         const auto caller = vgprof::allocating_frame(p, s);
         if (!caller || p.fn_name(p.heap()->frame(*caller).fn) != "work" || s.blocks < 1000)
            continue;
         EXPECT_EQ(s.writes, s.blocks) << mine[i].second;
         ++loops;
      }
      EXPECT_EQ(loops, 1u) << mine[i].second;
   }
}

// ---------------------------------------------------------------------------
// 3. exec: the reference tools keep only the program exec'd (the image
// before the exec is gone with its tool); vgprof writes the one before as
// a numbered dump and the one after as usual, both under the same pid.

TEST(Exec, TraceChildrenGivesAProfileBeforeAndAfterWithCachegrindsIr)
{
   TempDir dir;
   const std::string program = prog("exec");
   auto vp = run_tool("vgprof", {"--trace-children=yes", "--vgprof-out-file=vp.%p.json"},
                      {program}, dir.path());
   auto cg = run_tool("cachegrind",
                      with(with(kCachegrindAsVgprof, "--trace-children=yes"),
                           "--cachegrind-out-file=cg.%p.out"),
                      {program}, dir.path());
   auto cg_before = run_tool("cachegrind",
                             with(kCachegrindAsVgprof, "--cachegrind-out-file=before.out"),
                             {program, "noexec"}, dir.path());
   ASSERT_EQ(vp.exit_code, 4) << vp.err;
   ASSERT_EQ(cg.exit_code, 4) << cg.err;
   ASSERT_EQ(cg_before.exit_code, 0) << cg_before.err;
   EXPECT_EQ(vp.out, cg.out);

   const auto vp_files = dir.files_starting_with("vp.");
   const auto cg_files = dir.files_starting_with("cg.");
   ASSERT_EQ(cg_files.size(), 1u);
   ASSERT_EQ(vp_files.size(), 2u);
   const std::string dumped = vp_files[0], last = vp_files[1];
   ASSERT_EQ(dumped.substr(dumped.size() - 7), ".1.json");
   ASSERT_EQ(last.size(), dumped.size() - 2);

   // After the exec: the whole program, as cachegrind counts it.
   const vgprof::Profile after = vgprof::load_profile(dir / last);
   const CachegrindOut ref = read_cachegrind(dir / cg_files[0]);
   EXPECT_EQ(ir_total(after), ref.summary.at("Ir"));
   EXPECT_EQ(after.meta().exit_code, 4);
   EXPECT_EQ(after.meta().argv, (std::vector<std::string>{program, "after"}));
   EXPECT_EQ(ir_of_function(after, "before_exec"), 0u);

   // Before it: a profile marked as ended by the exec, with the work done
   // before it as cachegrind counts it in a run that exits there instead.
   const vgprof::Profile before = vgprof::load_profile(dir / dumped);
   EXPECT_EQ(before.meta().dump_number, 1);
   EXPECT_EQ(before.meta().dump_label, "exec " + program);
   EXPECT_FALSE(before.meta().exit_code.has_value());
   EXPECT_EQ(before.meta().argv, std::vector<std::string>{program});
   const uint64_t work = ir_of_function(read_cachegrind(dir / "before.out"), "before_exec");
   // At least two instructions an iteration (three with GCC 12, two with 14).
   EXPECT_GT(work, 30000u * 2);
   EXPECT_EQ(ir_of_function(before, "before_exec"), work);
   EXPECT_EQ(ir_of_function(before, "after_exec"), 0u);
   EXPECT_GT(ir_total(before), work);
}

// With the heap on: the program exec'd has DHAT's heap (DHAT too keeps
// only that one); the dump before it prints no summary of its own.
TEST(Exec, TraceChildrenHeapOfTheProgramExecdIsDhats)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--heap=yes", "--trace-children=yes", "--vgprof-out-file=vp.json"},
                      {prog("exec")}, dir.path());
   auto dh = run_tool("dhat", {"--trace-children=yes", "--dhat-out-file=dh.json"},
                      {prog("exec")}, dir.path());
   ASSERT_EQ(vp.exit_code, 4) << vp.err;
   ASSERT_EQ(dh.exit_code, 4) << dh.err;
   // Bytes, blocks, at t-gmax and at t-end: the bytes read and written
   // differ in printf, which runs DHAT's own string functions under DHAT.
   std::vector<std::string> mine = heap_summary(vp.err), theirs = heap_summary(dh.err);
   ASSERT_EQ(theirs.size(), 5u) << dh.err;
   ASSERT_EQ(mine.size(), 5u) << vp.err;
   mine.resize(3);
   theirs.resize(3);
   EXPECT_EQ(mine, theirs);
   const vgprof::Profile after = vgprof::load_profile(dir / "vp.json");
   EXPECT_EQ(vgprof_totals(after), dhat_totals(dir / "dh.json"));
   EXPECT_NO_THROW(vgprof::load_profile(dir / "vp.1.json"));
}

// Without --trace-children the program exec'd runs outside Valgrind; the
// profile of the one before is still written.
TEST(Exec, WithoutTraceChildrenTheProgramBeforeStillHasItsProfile)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {prog("exec")}, dir.path());
   EXPECT_EQ(vp.exit_code, 4) << vp.err;
   EXPECT_NE(vp.out.find("after "), std::string::npos) << vp.out;
   EXPECT_EQ(dir.files_starting_with("vp."), std::vector<std::string>{"vp.1.json"});
   const vgprof::Profile before = vgprof::load_profile(dir / "vp.1.json");
   EXPECT_GT(ir_of_function(before, "before_exec"), 30000u * 2);
}

// ---------------------------------------------------------------------------
// 4. Recursion 100,000 deep.

// Calls from or to the given functions, as the call graph holds them.
CallMap calls_touching(const vgprof::Profile& p, const std::set<std::string>& fns)
{
   CallMap calls;
   const vgprof::CallGraph& g = p.call_graph();
   for (size_t i = 0; i < g.calls().size(); i++) {
      const auto& e = g.calls()[i];
      const std::string caller = p.fn_name(e.caller), callee = p.fn_name(e.callee);
      if (!fns.count(caller) && !fns.count(callee)) continue;
      auto& t = calls[{caller, callee}];
      t.count += e.count;
      t.inclusive += g.call_cost(i)[0];
   }
   return calls;
}

TEST(Recursion, HundredThousandDeepHasCachegrindsIrAndCallgrindsCalls)
{
   TempDir dir;
   const std::vector<std::string> program{prog("recursion"), "100000"};
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, program, dir.path());
   auto cg = run_tool("cachegrind", with(kCachegrindAsVgprof, "--cachegrind-out-file=cg.out"),
                      program, dir.path());
   auto cl = run_tool("callgrind", {"--callgrind-out-file=cl.out"}, program, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   ASSERT_EQ(cg.exit_code, 0) << cg.err;
   ASSERT_EQ(cl.exit_code, 0) << cl.err;
   EXPECT_EQ(vp.out, cl.out);

   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   EXPECT_EQ(ir_total(p), read_cachegrind(dir / "cg.out").summary.at("Ir"));

   // callgrind splits the recursion into levels (descend'2 ...), folded here.
   const std::set<std::string> own{"main", "descend"};
   CallMap theirs;
   for (const auto& [edge, t] : read_callgrind_calls(dir / "cl.out"))
      if (own.count(edge.first) || own.count(edge.second)) theirs[edge] = t;
   const CallMap mine = calls_touching(p, own);
   ASSERT_EQ(theirs.at({"descend", "descend"}).count, 100000u);
   EXPECT_EQ(mine, theirs);

   // The tool's memory stays within a small multiple of callgrind's, which
   // keeps a shadow stack of the same depth.
   std::cout << "recursion: peak memory vgprof " << vp.max_rss_kb << " KiB, callgrind "
             << cl.max_rss_kb << " KiB, cachegrind " << cg.max_rss_kb << " KiB\n";
   EXPECT_LT(vp.max_rss_kb, 3 * std::max(cl.max_rss_kb, cg.max_rss_kb));

   // And the companions read the deep call-path tree.
   auto r = run({cli_path(), "report", "--inclusive", "--top", "3", "vp.json"}, dir.path());
   EXPECT_EQ(r.exit_code, 0) << r.err;
}

// ---------------------------------------------------------------------------
// 5. Many allocations: 1,000,000 (10,000,000 in the long form), from
// malloc, calloc, realloc and a helper, with a ring of live blocks.

TEST(Allocations, MillionsOfAllocationsHaveDhatsHeap)
{
   TempDir dir;
   // Each round allocates 1.25 blocks (a realloc every fourth round).
   const unsigned long rounds = sized(800000, 8000000);
   RunResult vp;
   expect_heap_matches_dhat({prog("allocs"), std::to_string(rounds)}, {}, dir.path(), 0,
                            &vp);
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   EXPECT_EQ(p.heap()->totals.blocks, rounds + rounds / 4);
   std::cout << "allocations: " << p.heap()->totals.blocks << " blocks, peak memory "
             << vp.max_rss_kb << " KiB\n";
}

// ---------------------------------------------------------------------------
// 6. Blocks of 1 GiB, two live at once (one grown to it by realloc), and
// realloc to 0 of a block, of NULL and of a grown block.

TEST(HugeBlocks, GibBlocksAndReallocToZeroHaveDhatsHeap)
{
   TempDir dir;
   RunResult vp;
   expect_heap_matches_dhat({prog("big")}, {}, dir.path(), 0, &vp);
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   EXPECT_EQ(p.heap()->totals.peak_bytes, uint64_t(2) << 30);
   // The tool keeps no shadow of a block's bytes: its memory stays far
   // below one block's size.
   EXPECT_LT(vp.max_rss_kb, 256 * 1024) << "KiB";
   std::cout << "1 GiB blocks: peak memory " << vp.max_rss_kb << " KiB\n";
}

}  // namespace
