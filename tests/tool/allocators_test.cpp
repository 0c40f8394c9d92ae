// SPDX-License-Identifier: GPL-2.0-or-later
// allocators_test.cpp: the heap of programs that bring their own allocator,
// seen with no option: functions named as jemalloc, mimalloc, tcmalloc and
// the C library name theirs, Rust's global allocator, a pool that tells
// Valgrind of its blocks with client requests, and an in-house allocator
// named with --alloc-fn.  Each program counts what its allocator is asked
// for and prints the count; the profile must hold that count plus what
// DHAT sees of the C library's allocations in the same binary.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "harness.hpp"
#include "heap_sites.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/load.hpp"

using namespace vgtest;

namespace {

// "N bytes in M blocks", as a count.
struct Amount {
   uint64_t bytes = 0, blocks = 0;
   bool operator==(const Amount& o) const { return bytes == o.bytes && blocks == o.blocks; }
   Amount operator+(const Amount& o) const { return {bytes + o.bytes, blocks + o.blocks}; }
};

std::ostream& operator<<(std::ostream& out, const Amount& a)
{
   return out << a.bytes << " bytes in " << a.blocks << " blocks";
}

// What a program's allocator counted: its line "T bytes in N blocks; peak
// ...; end ..." on stdout.
struct Count {
   Amount total, peak, end;
};

Count program_count(const std::string& out)
{
   Count c;
   unsigned long long v[6] = {};
   const size_t at = out.find(" bytes in ");
   const size_t start = out.rfind('\n', at == std::string::npos ? 0 : at);
   const std::string line = out.substr(start == std::string::npos ? 0 : start + 1);
   EXPECT_EQ(std::sscanf(line.c_str(),
                         "%llu bytes in %llu blocks; peak %llu bytes in %llu blocks; "
                         "end %llu bytes in %llu blocks",
                         &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]),
             6)
       << out;
   c.total = {v[0], v[1]};
   c.peak = {v[2], v[3]};
   c.end = {v[4], v[5]};
   return c;
}

// The amount of one of DHAT's (or vgprof's) summary lines, "Total:     4,096
// bytes in 1 blocks".
Amount summary_amount(const std::string& err, const std::string& label)
{
   const std::vector<std::string> lines = summary_lines(err, label);
   EXPECT_EQ(lines.size(), 1u) << label << " in\n" << err;
   if (lines.empty()) return {};
   std::string digits;
   for (char ch : lines[0])
      if (ch != ',') digits += ch;
   Amount a;
   EXPECT_EQ(std::sscanf(digits.c_str() + label.size(), " %lu bytes in %lu", &a.bytes, &a.blocks), 2)
       << lines[0];
   return a;
}

struct Runs {
   RunResult vgprof, dhat;
};

Runs run_both(const std::vector<std::string>& program, const std::vector<std::string>& options,
             const TempDir& dir)
{
   Runs r;
   r.dhat = run_tool("dhat", {"--dhat-out-file=dh.json"}, program, dir.path());
   r.vgprof = run_tool("vgprof", with(options, "--vgprof-out-file=vp.json"), program, dir.path());
   EXPECT_EQ(r.dhat.exit_code, 0) << r.dhat.err;
   EXPECT_EQ(r.vgprof.exit_code, 0) << r.vgprof.err;
   return r;
}

// The profile's Total and At t-end: the program's count plus DHAT's.
void expect_count_plus_dhat(const Runs& r)
{
   const Count own = program_count(r.vgprof.out);
   EXPECT_EQ(summary_amount(r.vgprof.err, "Total:"), own.total + summary_amount(r.dhat.err, "Total:"));
   EXPECT_EQ(summary_amount(r.vgprof.err, "At t-end:"),
             own.end + summary_amount(r.dhat.err, "At t-end:"));
}

std::string allocators_line(const std::string& err)
{
   const std::vector<std::string> lines = summary_lines(err, "Allocators:");
   return lines.empty() ? "" : lines[0];
}

// Every site whose allocator function is one of `names` was allocated from
// `caller` (the function of the stack's second frame).
void expect_sites_called_from(const vgprof::Profile& p, const std::set<std::string>& names,
                              const std::string& caller, size_t at_least)
{
   const vgprof::Heap& heap = *p.heap();
   size_t found = 0;
   for (const vgprof::HeapSite& s : heap.sites) {
      const std::string fn = p.fn_name(heap.frame(s.frames.front()).fn);
      if (!names.count(fn)) continue;
      ++found;
      const auto f = vgprof::allocating_frame(p, s);
      ASSERT_TRUE(f.has_value()) << fn;
      EXPECT_EQ(p.fn_name(heap.frame(*f).fn), caller) << "a site of " << fn;
   }
   EXPECT_GE(found, at_least);
}

// jemalloc's, mimalloc's and tcmalloc's names, in the program itself:
// DHAT sees only stdout's buffer, from the C library's malloc, live from
// before the program's own allocations to the end; so the peak is the
// program's plus that buffer.
TEST(Allocators, FamiliesByNameAreSeenWithoutAnOption)
{
   TempDir dir;
   const Runs r = run_both({progs_dir() + "/alloc_families"}, {}, dir);
   expect_count_plus_dhat(r);
   EXPECT_EQ(summary_amount(r.vgprof.err, "At t-gmax:"),
             program_count(r.vgprof.out).peak + summary_amount(r.dhat.err, "At t-gmax:"));
   EXPECT_EQ(allocators_line(r.vgprof.err), "Allocators: libc malloc, jemalloc, mimalloc, tcmalloc");

   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   ASSERT_TRUE(p.meta().allocators.has_value());
   EXPECT_EQ(*p.meta().allocators,
             (std::vector<std::string>{"libc malloc", "jemalloc", "mimalloc", "tcmalloc"}));
   // Calls inside calls (mi_heap_malloc's mi_malloc, mi_realloc's mi_malloc
   // and mi_free) are part of the outer call: every site is main's, one per
   // call that made a block (a realloc's block keeps its first site).
   expect_sites_called_from(p,
                            {"je_malloc", "je_calloc", "_rjem_mallocx", "mallocx", "mi_malloc",
                             "mi_heap_malloc", "mi_zalloc_aligned", "tc_malloc", "tc_new",
                             "tc_posix_memalign"},
                            "main", 10);
}

// A malloc of the program's own replaces the C library's for every caller
// (as a statically linked jemalloc does): all of it is seen, and it is
// named after the program.
TEST(Allocators, AMallocOfTheProgramsOwnIsSeenWhole)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {progs_dir() + "/own_malloc"},
                      dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   const Count own = program_count(vp.out);
   EXPECT_EQ(summary_amount(vp.err, "Total:"), own.total);
   EXPECT_EQ(summary_amount(vp.err, "At t-gmax:"), own.peak);
   EXPECT_EQ(summary_amount(vp.err, "At t-end:"), own.end);
   EXPECT_EQ(allocators_line(vp.err), "Allocators: malloc in own_malloc");
}

// Client requests: each pool block is a block of its own inside the chunk
// malloc gave the pool (counted too, as massif counts both), and what the
// program writes into a pool block is written to it: 8 bytes into each of
// 10 blocks.  DHAT knows no pool and counts those writes against the chunk.
TEST(Allocators, PoolBlocksFromClientRequestsAreBlocksOfTheirOwn)
{
   TempDir dir;
   const Runs r = run_both({progs_dir() + "/pool"}, {}, dir);
   expect_count_plus_dhat(r);
   EXPECT_EQ(allocators_line(r.vgprof.err), "Allocators: libc malloc, client requests");

   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   uint64_t pool_writes = 0, chunk_writes = 0;
   for (const vgprof::HeapSite& s : p.heap()->sites) {
      const std::string fn = p.fn_name(p.heap()->frame(s.frames.front()).fn);
      if (fn.rfind("pool_get", 0) == 0) pool_writes += s.writes;   // or a clone of it
      if (fn == "malloc" && s.bytes == 4096) chunk_writes += s.writes;
   }
   EXPECT_EQ(pool_writes, 10u * 8);
   EXPECT_EQ(chunk_writes, 0u);
   const Sites dhat = read_dhat(dir / "dh.json");
   uint64_t dhat_chunk_writes = 0;
   for (const auto& [stack, site] : dhat)
      if (site.bytes == 4096) dhat_chunk_writes += site.writes;
   EXPECT_EQ(dhat_chunk_writes, 10u * 8);
}

// An in-house allocator under names no family uses is not seen, and the
// run says which functions look like an allocator's; named with
// --alloc-fn (its size and block are second, after the arena), it is.
TEST(Allocators, InHouseAllocatorIsNamedWithAllocFn)
{
   TempDir dir;
   const std::vector<std::string> program{progs_dir() + "/arena"};
   auto unseen = run_tool("vgprof", {"--vgprof-out-file=none.json"}, program, dir.path());
   ASSERT_EQ(unseen.exit_code, 0) << unseen.err;
   EXPECT_EQ(summary_amount(unseen.err, "Total:"), (Amount{0, 0}));
   EXPECT_EQ(allocators_line(unseen.err), "Allocators: none seen");
   EXPECT_NE(unseen.err.find("may be an allocator's: arena_alloc, arena_free"), std::string::npos)
       << unseen.err;

   const Runs r = run_both(program, {"--alloc-fn=arena_alloc=malloc:2", "--alloc-fn=arena_free=free:2"},
                          dir);
   const Count own = program_count(r.vgprof.out);
   EXPECT_EQ(summary_amount(r.dhat.err, "Total:"), (Amount{0, 0}));
   EXPECT_EQ(summary_amount(r.vgprof.err, "Total:"), own.total);
   EXPECT_EQ(summary_amount(r.vgprof.err, "At t-gmax:"), own.peak);
   EXPECT_EQ(summary_amount(r.vgprof.err, "At t-end:"), own.end);
   EXPECT_EQ(allocators_line(r.vgprof.err),
             "Allocators: arena_alloc (--alloc-fn), arena_free (--alloc-fn)");
}

TEST(Allocators, ABadAllocFnIsRefusedAtStart)
{
   TempDir dir;
   for (const std::string bad : {"--alloc-fn=pool", "--alloc-fn=pool=grab", "--alloc-fn=pool=malloc:9",
                                 "--alloc-fn=pool=calloc:1", "--alloc-fn==malloc"}) {
      auto r = run_tool("vgprof", {bad}, {progs_dir() + "/arena"}, dir.path());
      EXPECT_EQ(r.exit_code, 1) << bad;
      EXPECT_NE(r.err.find("Bad option: " + bad), std::string::npos) << r.err;
      EXPECT_EQ(r.out, "") << bad << ": the program must not run";
   }
}

// Rust: a #[global_allocator] of the program's own (a bump arena in a crate
// of its own, built in release mode), whose calls DHAT never sees.
// With every toolchain the Rust programs were built with (harness.hpp): the
// allocator shims' symbols changed between Rust releases.
class RustAllocator : public ::testing::TestWithParam<std::string> {};
INSTANTIATE_TEST_SUITE_P(Toolchains, RustAllocator, ::testing::ValuesIn(kRustToolchains),
                         [](const auto& info) { return rust_toolchain_label(info.param); });

TEST_P(RustAllocator, GlobalAllocatorIsSeen)
{
   const std::string program = rust_program(GetParam(), "rust_alloc");
   struct stat st;
   if (stat(program.c_str(), &st) != 0)
      GTEST_SKIP() << rust_missing(GetParam());
   TempDir dir;
   const Runs r = run_both({program}, {}, dir);
   expect_count_plus_dhat(r);
   EXPECT_NE(allocators_line(r.vgprof.err).find("Rust global allocator"), std::string::npos)
       << r.vgprof.err;
}

// Debian's libmimalloc exports mi_malloc, mi_free and the rest as aliases of
// malloc and free, and Valgrind names each such function by its plain name:
// the program's calls of mi_malloc must still be mimalloc's, under their
// own names. Linked with it, the program's and the C library's calls of
// malloc go to mimalloc too (DHAT cannot run such a program: Valgrind's
// allocator asserts), and the program writes its count without
// allocating, so the profile holds exactly the program's count.
TEST(Allocators, MimallocsOwnNamesAreKeptAndCountedAsItsFamily)
{
   const std::string program = progs_dir() + "/alloc_mimalloc";
   struct stat st;
   if (stat(program.c_str(), &st) != 0)
      GTEST_SKIP() << "skipped: libmimalloc-dev not installed (the program was not built)";
   TempDir dir;
   const RunResult r = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {program}, dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   const Count c = program_count(r.out);
   EXPECT_EQ(summary_amount(r.err, "Total:"), c.total);
   EXPECT_EQ(summary_amount(r.err, "At t-gmax:"), c.peak);
   EXPECT_EQ(summary_amount(r.err, "At t-end:"), c.end);
   EXPECT_EQ(allocators_line(r.err), "Allocators: mimalloc") << r.err;

   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   std::set<std::string> names;
   for (uint32_t f = 0; f < p.functions().size(); ++f)
      if (p.obj_path(p.function(vgprof::FnId(f)).obj).find("libmimalloc") != std::string::npos)
         names.insert(p.fn_name(vgprof::FnId(f)));
   for (const char* own : {"mi_malloc", "mi_zalloc", "mi_calloc", "mi_realloc", "mi_free"})
      EXPECT_TRUE(names.count(own)) << own;
   for (const char* plain : {"malloc", "calloc", "realloc", "free"})
      EXPECT_FALSE(names.count(plain)) << plain;
   expect_sites_called_from(p, {"mi_malloc", "mi_zalloc", "mi_calloc"}, "main", 3);
}

}  // namespace
