// SPDX-License-Identifier: GPL-2.0-or-later
// heap_test.cpp: the heap profile against DHAT's on the same binary and
// input (the comparison is in heap_sites.hpp), and what is made from it.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness.hpp"
#include "heap_sites.hpp"
#include "vgprof/format.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/load.hpp"

using namespace vgtest;

namespace {

// Tables filled, indexed and queried: sqlite3 allocates and frees
// throughout, and copies and compares with libc's string functions.
std::string sql_workload()
{
   std::string sql = "create table t(id integer primary key, name text, v real);\nbegin;\n";
   for (int i = 1; i <= 2000; i++)
      sql += "insert into t(name, v) values ('n" + std::to_string(i * 7919 % 10007) + "', " +
             std::to_string(i % 977) + ");\n";
   sql += "commit;\ncreate index tn on t(name);\n"
          "select count(*), sum(v) from t where name like 'n1%';\n"
          "select name, count(*) from t group by name order by 2 desc limit 5;\n";
   return sql;
}

struct Case {
   std::string name;
   std::vector<std::string> program;
   std::string input;                    // written to "input" if set
   std::vector<std::string> options;     // more vgprof options
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

class HeapMatchesDhat : public ::testing::TestWithParam<Case> {};

TEST_P(HeapMatchesDhat, SummaryAndEverySiteAreEqual)
{
   const Case& c = GetParam();
   TempDir dir;
   if (!c.input.empty()) write_file(dir / "input", c.input);
   expect_heap_matches_dhat(resolve_program(c.program), c.options, dir.path());
}

INSTANTIATE_TEST_SUITE_P(
    Programs, HeapMatchesDhat,
    ::testing::Values(Case{"basic", {"heap_basic"}, "", {}},
                      Case{"cxx", {"heap_cxx"}, "", {}},
                      Case{"strings", {"heap_strings"}, "", {}},
                      Case{"basic_no_cache_sim", {"heap_basic"}, "", {"--cache-sim=no"}},
                      Case{"basic_no_call_graph", {"heap_basic"}, "", {"--call-graph=no"}},
                      Case{"bzip2", {"bzip2", "-9", "-c", "input"}, generated_text(100000),
                           {}},
                      Case{"sqlite3", {"sqlite3", "-init", "input", ":memory:"}, sql_workload(),
                           {}}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// Threads: DHAT's figures, but for the bytes read and written, which its
// rule for stack accesses gets wrong here: it leaves out every access
// within 16 KiB above the accessing thread's stack pointer, and DHAT's own
// allocator puts one worker's blocks right above that worker's stack (the
// C library's arenas for threads lie elsewhere). What heap_threads reads
// and writes follows from its source: each of the 1,200 short blocks gets
// 8 one-byte writes; each kept block a read and a write on each of its
// thread's 300 rounds, and main reads one byte of each.
TEST(Heap, ThreadsHaveDhatsBlocksAndTheProgramsAccesses)
{
   TempDir dir;
   expect_heap_matches_dhat({progs_dir() + "/heap_threads"}, {}, dir.path(), 0, nullptr, 1.0);
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   uint64_t short_writes = 0, kept_reads = 0, kept_writes = 0;
   // The sites by their sizes: 300 blocks of 32 + id bytes per thread, and
   // one kept block of 64 + 16 * id bytes.
   for (const vgprof::HeapSite& s : p.heap()->sites) {
      if (s.blocks == 1200 && s.bytes == 300u * (32 + 33 + 34 + 35)) short_writes += s.writes;
      if (s.blocks == 4 && s.bytes == 64u + 80 + 96 + 112) {
         kept_reads += s.reads;
         kept_writes += s.writes;
      }
   }
   EXPECT_EQ(short_writes, 1200u * 8);
   EXPECT_EQ(kept_reads, 4u * 300 + 4);
   EXPECT_EQ(kept_writes, 4u * 300);
}

// The timeline and snapshots agree with the totals: the peak is a sample,
// no sample is higher, and the peak snapshot lists sites at their peak
// figures. heap_basic allocates and frees more than 8,000 times, so the
// timeline has been halved (wider intervals) and the peak had to survive.
TEST(Heap, TimelinePeakIsTheGlobalPeak)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--heap=yes", "--vgprof-out-file=vp.json"},
                      {progs_dir() + "/heap_basic"}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   const vgprof::Heap& heap = *p.heap();
   ASSERT_FALSE(heap.samples.empty());
   EXPECT_LE(heap.samples.size(), 2048u);
   EXPECT_GT(heap.sample_width, 1u);
   uint64_t highest = 0;
   bool peak_is_a_sample = false;
   for (const vgprof::HeapSample& s : heap.samples) {
      highest = std::max(highest, s.bytes);
      if (s.time == heap.totals.peak_time && s.bytes == heap.totals.peak_bytes &&
          s.blocks == heap.totals.peak_blocks)
         peak_is_a_sample = true;
   }
   EXPECT_EQ(highest, heap.totals.peak_bytes);
   EXPECT_TRUE(peak_is_a_sample);

   size_t peaks = 0;
   for (const vgprof::HeapSnapshot& sn : heap.snapshots) {
      if (sn.kind != vgprof::HeapSnapshot::Kind::peak) continue;
      ++peaks;
      EXPECT_EQ(sn.bytes, heap.totals.peak_bytes);
      EXPECT_EQ(sn.time, heap.totals.peak_time);
      ASSERT_FALSE(sn.sites.empty());
      for (const vgprof::SnapshotSite& row : sn.sites)
         EXPECT_EQ(row.bytes, heap.site(row.site).peak_bytes);
   }
   EXPECT_EQ(peaks, 1u);
}

// The corners of the allocator's interface, counted as the C library
// handles them: a failed request makes no block, realloc from NULL is a
// malloc and to 0 a free, malloc(0) is a block (of 1 byte, as DHAT counts
// it), and a 1 GiB block is counted like any other (the figures are
// heap_edges.c's own arithmetic).
TEST(Heap, EdgesOfTheInterfaceAreCountedAsTheLibraryHandlesThem)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--heap=yes", "--vgprof-out-file=vp.json"},
                      {progs_dir() + "/heap_edges"}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   const vgprof::HeapTotals& t = p.heap()->totals;
   const uint64_t gib = uint64_t(1) << 30;
   EXPECT_EQ(t.bytes, 1 + 40 + gib);
   EXPECT_EQ(t.blocks, 3u);
   EXPECT_EQ(t.peak_bytes, gib + 1);
   EXPECT_EQ(t.peak_blocks, 2u);
   EXPECT_EQ(t.end_bytes, 0u);
   EXPECT_EQ(t.end_blocks, 0u);
   EXPECT_EQ(t.writes, 2u);
}

// The reads and writes of each site of a single block, by the block's size.
using ByBlockSize = std::map<uint64_t, std::pair<uint64_t, uint64_t>>;

ByBlockSize single_block_sites(const vgprof::Profile& p)
{
   ByBlockSize sizes;
   for (const vgprof::HeapSite& s : p.heap()->sites)
      if (s.blocks == 1) sizes[s.bytes] = {s.reads, s.writes};
   return sizes;
}

ByBlockSize single_block_sites(const Sites& dhat)
{
   ByBlockSize sizes;
   for (const auto& [stack, s] : dhat)
      if (s.blocks == 1) sizes[s.bytes] = {s.reads, s.writes};
   return sizes;
}

// What system calls read from and write into blocks counts, as the
// kernel touches the bytes (heap_syscalls.c's own arithmetic): a path
// string is read with its terminating zero. DHAT agrees on the buffers of
// write(2) and read(2) but counts a path two bytes short: it takes the
// length of the string after its first character.
TEST(Heap, SystemCallsReadAndWriteBlocks)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"},
                      {progs_dir() + "/heap_syscalls"}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   auto dh = run_tool("dhat", {"--dhat-out-file=dh.json"}, {progs_dir() + "/heap_syscalls"},
                      dir.path());
   ASSERT_EQ(dh.exit_code, 0) << dh.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   ByBlockSize mine = single_block_sites(p), dhat = single_block_sites(read_dhat(dir / "dh.json"));
   const size_t path = sizeof "/dev/null";
   EXPECT_EQ(mine[48], std::make_pair(uint64_t(path), uint64_t(path)));
   EXPECT_EQ(mine[100], std::make_pair(uint64_t(100), uint64_t(100)));
   EXPECT_EQ(mine[72], std::make_pair(uint64_t(0), uint64_t(72)));
   EXPECT_EQ(dhat[100], mine[100]);
   EXPECT_EQ(dhat[72], mine[72]);
   EXPECT_EQ(dhat[48], std::make_pair(uint64_t(path - 2), uint64_t(path)));
}

// Valgrind's preloaded library, DHAT's included, wraps setenv and unsetenv
// and walks each string it is given, one byte at a time to its terminating
// zero, before calling the C library's. The program does not make those
// reads, so DHAT counts each string's length and zero once more per call
// than vgprof does: heap_setenv's value (40 characters) once, its name (13)
// twice. Everything else the two count alike.
TEST(Heap, DhatReadsTheStringsOfSetenvOnceMoreInItsWrapper)
{
   TempDir dir;
   const std::string program = progs_dir() + "/heap_setenv";
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {program}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   auto dh = run_tool("dhat", {"--dhat-out-file=dh.json"}, {program}, dir.path());
   ASSERT_EQ(dh.exit_code, 0) << dh.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   const Sites theirs = read_dhat(dir / "dh.json");
   ByBlockSize mine = single_block_sites(p), dhat = single_block_sites(theirs);
   const uint64_t name = sizeof "VGPROF_SETENV", value = 41;
   ASSERT_EQ(mine[32].second, name);
   ASSERT_EQ(mine[100].second, value);
   EXPECT_EQ(dhat[32], std::make_pair(mine[32].first + 2 * name, name));
   EXPECT_EQ(dhat[100], std::make_pair(mine[100].first + value, value));
   uint64_t dhat_reads = 0, dhat_writes = 0;
   for (const auto& [stack, s] : theirs) {
      dhat_reads += s.reads;
      dhat_writes += s.writes;
   }
   EXPECT_EQ(dhat_reads, p.heap()->totals.reads + 2 * name + value);
   EXPECT_EQ(dhat_writes, p.heap()->totals.writes);
}

// A shared library's 40 static objects with destructors (exitfns_lib.cpp):
// their exit functions lie past the C library's 32 built-in slots, in a
// block of the heap, and at exit each shared object's destructor walk reads
// every one. DHAT's own preloaded library is one more shared object in the
// process, so DHAT reads that list once more than the program does without
// a tool: its five lines are vgprof's with one more shared object preloaded.
TEST(Heap, DhatReadsTheExitFunctionsOnceMoreForItsOwnSharedObject)
{
   TempDir dir;
   const std::string program = progs_dir() + "/exitfns";
   auto dh = run_tool("dhat", {"--dhat-out-file=dh.json"}, {program}, dir.path());
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {program}, dir.path());
   auto more = run({"/usr/bin/env", "LD_PRELOAD=" + progs_dir() + "/libnothing.so", valgrind_path(),
                    "--tool=vgprof", "--vgprof-out-file=more.json", program},
                   dir.path());
   ASSERT_EQ(dh.exit_code, 0) << dh.err;
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   ASSERT_EQ(more.exit_code, 0) << more.err;
   EXPECT_EQ(heap_summary(more.err), heap_summary(dh.err));
   const vgprof::HeapTotals alone = vgprof::load_profile(dir / "vp.json").heap()->totals;
   const vgprof::HeapTotals with_one = vgprof::load_profile(dir / "more.json").heap()->totals;
   EXPECT_LT(alone.reads, with_one.reads);
   EXPECT_EQ((with_one.reads - alone.reads) % 8, 0u) << "8 bytes of each exit function";
   EXPECT_EQ(alone.writes, with_one.writes);
   EXPECT_EQ(alone.bytes, with_one.bytes);
}

// What heap_phases.c allocates and frees in a period, in bytes or blocks,
// and what is live at its start, end and peak.
struct Period {
   uint64_t start, allocated, freed, end, peak;
};

void expect_period(const vgprof::HeapTotals& t, uint64_t start_bytes, uint64_t start_blocks,
                   const Period& bytes, const Period& blocks)
{
   EXPECT_EQ(start_bytes, bytes.start);
   EXPECT_EQ(start_blocks, blocks.start);
   EXPECT_EQ(t.bytes, bytes.allocated);
   EXPECT_EQ(t.freed_bytes, bytes.freed);
   EXPECT_EQ(t.end_bytes, bytes.end);
   EXPECT_EQ(t.peak_bytes, bytes.peak);
   EXPECT_EQ(t.blocks, blocks.allocated);
   EXPECT_EQ(t.freed_blocks, blocks.freed);
   EXPECT_EQ(t.end_blocks, blocks.end);
   EXPECT_EQ(t.peak_blocks, blocks.peak);
}

// The site whose blocks `fn` allocated.
const vgprof::HeapSite& site_of(const vgprof::Profile& p, const std::string& fn)
{
   for (const vgprof::HeapSite& s : p.heap()->sites) {
      const auto frame = vgprof::allocating_frame(p, s);
      if (frame && p.fn_name(p.heap()->frame(*frame).fn) == fn)
         return s;
   }
   throw std::runtime_error("no site allocated in " + fn);
}

// A dump's heap section is the period since the last zero, as its costs
// are, and so is the profile at exit after a dump; the whole run's figures
// stand apart. Every number is heap_phases.c's arithmetic: a keeps 4 x
// 1000 and frees 10 x 100 of its own, then the zero; b allocates 20 x 200
// and frees 2 of a's and 10 of its own; c allocates 5 x 300, a realloc
// moves one of a's 1000 to 1500 (one block of 1500 more, one of 1000
// freed) and frees b's other 10 and its own 5.
TEST(Heap, DumpsAndZerosStartTheHeapsFiguresAfreshAndKeepTheWholeRunApart)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {progs_dir() + "/heap_phases"},
                      dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   const vgprof::Profile dump = vgprof::load_profile(dir / "vp.1.json");
   const vgprof::Profile end = vgprof::load_profile(dir / "vp.json");

   // Phase b: a's 4,000 bytes in 4 blocks live at the zero; the peak when
   // b's 20 blocks are allocated, before any is freed.
   const vgprof::Heap& b = *dump.heap();
   EXPECT_GT(b.start_time, 0u);
   expect_period(b.totals, b.start_bytes, b.start_blocks,
                 {4000, 20 * 200, 2 * 1000 + 10 * 200, 2 * 1000 + 10 * 200, 4000 + 20 * 200},
                 {4, 20, 2 + 10, 2 + 10, 4 + 20});
   EXPECT_LE(b.start_time, b.totals.peak_time);
   // The whole run: phase a's 14 blocks (10 of them freed) and phase b's;
   // its peak is phase b's.
   ASSERT_TRUE(b.whole_run);
   EXPECT_EQ(b.whole_run->bytes, 4 * 1000 + 10 * 100 + 20 * 200);
   EXPECT_EQ(b.whole_run->blocks, 14u + 20);
   EXPECT_EQ(b.whole_run->freed_bytes, 10 * 100 + 2 * 1000 + 10 * 200);
   EXPECT_EQ(b.whole_run->freed_blocks, 10u + 12);
   EXPECT_EQ(b.whole_run->peak_bytes, 4000 + 20 * 200);
   EXPECT_EQ(b.whole_run->end_bytes, b.totals.end_bytes);
   // By site: a allocated nothing in the period, but its blocks were live
   // in it; scratch_a's are gone.
   const vgprof::HeapSite& kept = site_of(dump, "keep_a");
   EXPECT_EQ(kept.bytes, 0u);
   EXPECT_EQ(kept.blocks, 0u);
   EXPECT_EQ(kept.max_bytes, 4000u);
   EXPECT_EQ(kept.peak_bytes, 4000u);
   EXPECT_EQ(kept.end_bytes, 2000u);
   EXPECT_EQ(kept.lifetimes, 0u);
   EXPECT_EQ(site_of(dump, "phase_b").bytes, 20 * 200u);
   EXPECT_EQ(site_of(dump, "phase_b").end_blocks, 10u);
   EXPECT_EQ(site_of(dump, "scratch_a").bytes, 0u);

   // Phase c, from the dump to the exit: its peak after the realloc, before
   // the frees; a[2] (1,500) and a[3] (1,000) live at the end.
   const vgprof::Heap& c = *end.heap();
   EXPECT_GE(c.start_time, b.totals.end_time);
   expect_period(c.totals, c.start_bytes, c.start_blocks,
                 {4000, 5 * 300 + 1500, 1000 + 10 * 200 + 5 * 300, 2500,
                  4000 + 5 * 300 + (1500 - 1000)},
                 {12, 5 + 1, 1 + 10 + 5, 2, 12 + 5});
   ASSERT_TRUE(c.whole_run);
   EXPECT_EQ(c.whole_run->bytes, 4 * 1000 + 10 * 100 + 20 * 200 + 5 * 300 + 1500);
   EXPECT_EQ(c.whole_run->blocks, 14u + 20 + 6);
   EXPECT_EQ(c.whole_run->freed_blocks, 10u + 12 + 16);
   EXPECT_EQ(c.whole_run->peak_bytes, 4000 + 20 * 200);
   EXPECT_EQ(c.whole_run->end_bytes, 2500u);
   EXPECT_EQ(site_of(end, "keep_a").bytes, 1500u);   // the realloc
   EXPECT_EQ(site_of(end, "phase_c").bytes, 5 * 300u);
   EXPECT_EQ(site_of(end, "phase_b").bytes, 0u);
}

// --heap=no only leaves the heap out: the allocator ran in both runs.
TEST(Heap, HeapNoWritesNoHeap)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--heap=no", "--vgprof-out-file=vp.json"},
                      {progs_dir() + "/heap_basic"}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   EXPECT_TRUE(heap_summary(vp.err).empty()) << vp.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   EXPECT_EQ(p.heap(), nullptr);
   // The client's own malloc ran: its code is in the profile.
   bool glibc_malloc = false;
   for (const vgprof::LineCost& l : p.lines())
      if (p.fn_name(l.fn) == "malloc" &&
          p.obj_path(p.function(l.fn).obj).find("libc.so") != std::string::npos)
         glibc_malloc = true;
   EXPECT_TRUE(glibc_malloc);
}

// `vgprof report --heap` shows DHAT's summary lines as DHAT prints them
// and says which site leaked.
// heap_basic recorded once under DHAT (dh.json) and vgprof (vp.json) for
// the tests of what is made from a profile.
class HeapBasicRecorded : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      dir_ = new TempDir;
      dhat_ = new RunResult(run_tool("dhat", {"--dhat-out-file=dh.json"},
                                     {progs_dir() + "/heap_basic"}, dir_->path()));
      vgprof_ = new RunResult(run_tool("vgprof", {"--heap=yes", "--vgprof-out-file=vp.json"},
                                       {progs_dir() + "/heap_basic"}, dir_->path()));
   }
   static void TearDownTestSuite()
   {
      delete dhat_;
      delete vgprof_;
      delete dir_;
   }
   void SetUp() override
   {
      ASSERT_EQ(dhat_->exit_code, 0) << dhat_->err;
      ASSERT_EQ(vgprof_->exit_code, 0) << vgprof_->err;
   }
   static TempDir* dir_;
   static RunResult* dhat_;
   static RunResult* vgprof_;
};
TempDir* HeapBasicRecorded::dir_ = nullptr;
RunResult* HeapBasicRecorded::dhat_ = nullptr;
RunResult* HeapBasicRecorded::vgprof_ = nullptr;

TEST_F(HeapBasicRecorded, ReportShowsDhatSummaryAndLeaks)
{
   TempDir& dir = *dir_;
   const RunResult& dh = *dhat_;
   auto r = run({cli_path(), "report", "--heap", "--heap-sort", "leaked", "--top", "2", "vp.json"},
                dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   // DHAT writes "1 blocks"; the report writes English.
   std::string total = summary_lines(dh.err, "Total:").at(0);
   EXPECT_NE(r.out.find(total), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("leaked: 3,000 bytes in 1 block never freed"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("leaked: 100 bytes in 1 block never freed"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("Allocation sites by leaked: 2 of "), std::string::npos) << r.out;

   auto none = run({cli_path(), "report", "--heap", "nosuch.json"}, dir.path());
   EXPECT_EQ(none.exit_code, 2);
   auto no_heap = run_tool("vgprof", {"--heap=no", "--vgprof-out-file=plain.json"},
                           {progs_dir() + "/heap_basic"}, dir.path());
   ASSERT_EQ(no_heap.exit_code, 0);
   auto r2 = run({cli_path(), "report", "--heap", "plain.json"}, dir.path());
   EXPECT_EQ(r2.exit_code, 2);
   EXPECT_NE(r2.err.find("no heap data"), std::string::npos) << r2.err;
}

// The DHAT export of a profile carries DHAT's own totals: each program
// point field summed over the file equals the sum over DHAT's file.
TEST_F(HeapBasicRecorded, DhatExportHasDhatsTotals)
{
   TempDir& dir = *dir_;
   auto r = run({cli_path(), "export", "--format", "dhat", "-o", "exported.json", "vp.json"},
                dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;

   const auto sums = [](const std::string& text) {
      std::map<std::string, uint64_t> sum;
      const boost::json::object doc = boost::json::parse(text).as_object();
      for (const boost::json::value& pp : doc.at("pps").as_array())
         for (const char* key : {"tb", "tbk", "gb", "gbk", "eb", "ebk", "rb", "wb"})
            sum[key] += u64(pp.at(key));
      sum["pps"] = doc.at("pps").as_array().size();
      return sum;
   };
   EXPECT_EQ(sums(read_file(dir / "exported.json")), sums(read_file(dir / "dh.json")));

   // Without heap data there is nothing to export: exit 2, no file.
   auto plain = run_tool("vgprof", {"--heap=no", "--vgprof-out-file=plain.json"},
                         {progs_dir() + "/heap_basic"}, dir.path());
   ASSERT_EQ(plain.exit_code, 0) << plain.err;
   auto none = run({cli_path(), "export", "--format", "dhat", "-o", "none.json", "plain.json"},
                   dir.path());
   EXPECT_EQ(none.exit_code, 2);
   EXPECT_NE(none.err.find("plain.json: the profile has no heap data"), std::string::npos)
       << none.err;
   EXPECT_FALSE(std::ifstream(dir / "none.json").good());
}

// DHAT's own file read by vgprof: `vgprof report --heap` on it prints
// DHAT's five summary lines as DHAT printed them at exit.
TEST_F(HeapBasicRecorded, ReportReadsDhatsOwnFile)
{
   TempDir& dir = *dir_;
   auto r = run({cli_path(), "report", "--heap", "dh.json"}, dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   std::vector<std::string> shown;
   std::istringstream out(r.out);
   for (std::string line; std::getline(out, line);)
      for (const char* label : kSummaryLabels)
         if (line.rfind(label, 0) == 0) shown.push_back(line);
   EXPECT_EQ(shown, heap_summary(dhat_->err));
}

// `vgprof annotate` on a profile with heap data puts before each source
// line the bytes and blocks allocated by the calls made on it, inclusively:
// for each line of heap_basic.c on an allocation stack, below the
// allocator, DHAT's bytes and blocks for the sites whose stacks pass
// through it, each site once per line.
TEST_F(HeapBasicRecorded, AnnotateShowsDhatsBytesOnTheLinesOfEveryAllocatingCall)
{
   TempDir& dir = *dir_;
   const LineAllocations expected = dhat_allocations_by_line(dir / "dh.json", "heap_basic.c");
   ASSERT_GE(expected.size(), 8u);
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   std::string source_path;
   for (vgprof::StrId f : p.files())
      if (base_name(p.str(f)) == "heap_basic.c") source_path = p.str(f);
   // The source lies outside the run's directory: named as a place to read.
   auto r = run({cli_path(), "annotate", "--all", "--events", "Ir", "--source-dir",
                 source_path.substr(0, source_path.rfind('/')), "vp.json", "heap_basic.c"},
                dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   expect_annotated_allocations(r.out, source_path, expected);
}

// The same figures in annotate's JSON, each line's "allocated" bytes and
// blocks, and no allocation on a line DHAT has none through.
TEST_F(HeapBasicRecorded, AnnotateJsonGivesDhatsBytesAndBlocksOfEveryAllocatingLine)
{
   TempDir& dir = *dir_;
   const LineAllocations expected = dhat_allocations_by_line(dir / "dh.json", "heap_basic.c");
   ASSERT_GE(expected.size(), 8u);
   auto r = run({cli_path(), "annotate", "--format", "json", "vp.json", "heap_basic.c"}, dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   expect_json_allocations(r.out, "heap_basic.c", expected);
}

}  // namespace
