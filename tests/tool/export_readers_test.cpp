// SPDX-License-Identifier: GPL-2.0-or-later
// export_readers_test.cpp: `vgprof export` to speedscope, pprof, massif and
// heaptrack, each file opened by the program people open it with
// (speedscope's own app in headless Chromium, `go tool pprof`, ms_print,
// heaptrack_print), whose totals must be `vgprof report`'s; ms_print's peak
// must also be DHAT's t-gmax, DHAT run beside. A reader that is not
// installed skips its tests ("skipped: READER not installed"):
// scripts/install-deps installs the Debian ones, scripts/install-js
// speedscope.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "harness.hpp"
#include "vgprof/export_collapsed.hpp"
#include "vgprof/load.hpp"

using namespace vgtest;

namespace {

#define REQUIRE_READER(found, reader) \
   if (!(found)) GTEST_SKIP() << "skipped: " reader " not installed"

uint64_t number(const std::string& digits_and_commas)
{
   std::string digits;
   for (char c : digits_and_commas)
      if (isdigit(static_cast<unsigned char>(c))) digits += c;
   return std::stoull(digits);
}

std::vector<std::string> lines_of(const std::string& text)
{
   std::vector<std::string> lines;
   std::istringstream in(text);
   for (std::string line; std::getline(in, line);) lines.push_back(line);
   return lines;
}

// heap_basic recorded once with every default (the cache simulation and the
// heap), exported to every format, and DHAT run beside it; the figures of
// `vgprof report --format json` and `vgprof report --heap --format json`.
class ExportReaders : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      dir_ = new TempDir;
      const std::vector<std::string> program{progs_dir() + "/heap_basic"};
      dhat_ = new RunResult(run_tool("dhat", {"--dhat-out-file=dh.json"}, program, dir_->path()));
      auto vp = run_tool("vgprof", {"--heap=yes", "--vgprof-out-file=vp.json"}, program, dir_->path());
      ASSERT_EQ(vp.exit_code, 0) << vp.err;
      for (const char* format : {"speedscope", "pprof", "massif", "heaptrack"}) {
         auto ex = run({cli_path(), "export", "--format", format, "-o", std::string("vp.") + format,
                        "vp.json"},
                       dir_->path());
         ASSERT_EQ(ex.exit_code, 0) << format << ": " << ex.err;
      }
      auto report = run({cli_path(), "report", "--format", "json", "--threshold", "0", "vp.json"},
                        dir_->path());
      auto heap = run({cli_path(), "report", "--heap", "--format", "json", "vp.json"}, dir_->path());
      ASSERT_EQ(report.exit_code, 0) << report.err;
      ASSERT_EQ(heap.exit_code, 0) << heap.err;
      report_ = new boost::json::value(boost::json::parse(report.out));
      heap_ = new boost::json::value(boost::json::parse(heap.out));
   }
   static void TearDownTestSuite()
   {
      delete report_;
      delete heap_;
      delete dhat_;
      delete dir_;
   }

   static uint64_t total(const std::string& event)
   {
      return report_->at("totals").at(event).to_number<uint64_t>();
   }
   static uint64_t heap_total(const char* figure)
   {
      return heap_->at("totals").at(figure).to_number<uint64_t>();
   }
   static std::vector<std::string> events()
   {
      std::vector<std::string> out;
      for (const auto& e : report_->at("events").as_array()) out.emplace_back(e.as_string().c_str());
      return out;
   }
   static RunResult in_dir(const std::vector<std::string>& argv) { return run(argv, dir_->path()); }

   static TempDir* dir_;
   static RunResult* dhat_;
   static boost::json::value *report_, *heap_;
};
TempDir* ExportReaders::dir_ = nullptr;
RunResult* ExportReaders::dhat_ = nullptr;
boost::json::value* ExportReaders::report_ = nullptr;
boost::json::value* ExportReaders::heap_ = nullptr;

// --- speedscope ------------------------------------------------------------------

std::string js_dir()
{
   const char* dir = std::getenv("VGPROF_TEST_JS");
   return dir ? dir : "";
}

bool speedscope_installed()
{
   const std::string modules = js_dir() + "/node_modules/";
   return !on_path("node").empty() && access("/usr/bin/chromium", X_OK) == 0 &&
          access((modules + "speedscope/package.json").c_str(), R_OK) == 0 &&
          access((modules + "playwright-core/package.json").c_str(), R_OK) == 0;
}

// speedscope-read.mjs's lines: profiles (name -> total) and the stacks of
// the first one (stack -> self weight).
struct SpeedscopeRead {
   std::map<std::string, uint64_t> totals;
   std::map<std::string, uint64_t> first_stacks;
};

SpeedscopeRead read_speedscope(const std::string& out)
{
   SpeedscopeRead r;
   for (const std::string& line : lines_of(out)) {
      std::vector<std::string> f;
      std::istringstream in(line);
      for (std::string field; std::getline(in, field, '\t');) f.push_back(field);
      if (f.size() == 5 && f[0] == "profile") r.totals[f[2]] = std::stoull(f[4]);
      if (f.size() == 4 && f[0] == "stack" && f[1] == "0") r.first_stacks[f[2]] = std::stoull(f[3]);
   }
   return r;
}

TEST_F(ExportReaders, SpeedscopeShowsEveryEventsTotalAndTheHeapsAsTheReportDoes)
{
   REQUIRE_READER(speedscope_installed(), "speedscope");
   auto ss = in_dir({"node", js_dir() + "/speedscope-read.mjs", "vp.speedscope", "--stacks"});
   ASSERT_EQ(ss.exit_code, 0) << ss.err;
   const SpeedscopeRead read = read_speedscope(ss.out);
   std::map<std::string, uint64_t> expected;
   for (const std::string& e : events()) expected[e] = total(e);
   expected["heap: bytes allocated"] = heap_total("bytes");
   expected["heap: bytes at t-gmax"] = heap_total("peak_bytes");
   EXPECT_EQ(read.totals, expected);
   // Ir's flame graph is the call-path tree: each stack's own cost is what
   // the library finds in the tree.
   const vgprof::Profile p = vgprof::load_profile(*dir_ / "vp.json");
   EXPECT_EQ(read.first_stacks, vgprof::collapsed_stacks(p, "vp.json", {}));
}

// --- pprof ---------------------------------------------------------------------------

// The total `go tool pprof -top` gives a sample type ("of 503345 total";
// bytes asked for in bytes, not rounded to kB).
uint64_t pprof_total(const std::string& dir, const std::string& type, bool bytes)
{
   std::vector<std::string> argv{"go", "tool", "pprof", "-top", "-sample_index=" + type};
   if (bytes) argv.push_back("-unit=B");
   argv.push_back("vp.pprof");
   auto r = run(argv, dir);
   EXPECT_EQ(r.exit_code, 0) << r.err;
   const size_t of = r.out.find(" of "), end = r.out.find(" total", of);
   EXPECT_NE(end, std::string::npos) << r.out;
   return of == std::string::npos ? 0 : number(r.out.substr(of, end - of));
}

TEST_F(ExportReaders, GoToolPprofTotalsAreTheReportsForEveryEventAndHeapFigure)
{
   REQUIRE_READER(!on_path("go").empty(), "go tool pprof");
   for (const std::string& e : events()) EXPECT_EQ(pprof_total(dir_->path(), e, false), total(e)) << e;
   const std::pair<const char*, const char*> heap[] = {
      {"alloc_objects", "blocks"},      {"alloc_space", "bytes"},
      {"inuse_objects", "peak_blocks"}, {"inuse_space", "peak_bytes"},
      {"leaked_objects", "end_blocks"}, {"leaked_space", "end_bytes"}};
   for (const auto& [type, figure] : heap)
      EXPECT_EQ(pprof_total(dir_->path(), type, std::string(type).find("space") != std::string::npos),
                heap_total(figure))
         << type;
}

// Ir is the default; the program's own object names the profile; each
// function's own cost is what the call-path tree gives it: the self costs
// of its nodes, added up by the library. (A function's tree self cost is by
// call context, as callgrind's: a PLT stub's instructions count in the
// caller's node, so it can differ a little from the report's self column,
// by symbol; the totals are the same.)
TEST_F(ExportReaders, GoToolPprofTopListsEachFunctionsOwnCostInTheCallPathTree)
{
   REQUIRE_READER(!on_path("go").empty(), "go tool pprof");
   auto r = in_dir({"go", "tool", "pprof", "-top", "-nodefraction=0", "-nodecount=100000", "vp.pprof"});
   ASSERT_EQ(r.exit_code, 0) << r.err;
   EXPECT_NE(r.out.find("File: heap_basic\n"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("Type: Ir\n"), std::string::npos) << r.out;
   std::map<std::string, uint64_t> pprof_self, tree_self;
   bool rows = false;
   for (const std::string& line : lines_of(r.out)) {
      std::istringstream in(line);
      std::string flat, flat_pct, sum_pct, cum, cum_pct, name;
      if (rows && in >> flat >> flat_pct >> sum_pct >> cum >> cum_pct && std::getline(in >> std::ws, name) &&
          flat != "0")
         pprof_self[name] += std::stoull(flat);
      rows = rows || line.find("flat  flat%") != std::string::npos;
   }
   const vgprof::Profile p = vgprof::load_profile(*dir_ / "vp.json");
   for (size_t node = 0; node < p.paths().size(); ++node)
      if (const uint64_t self = p.path_self(node)[0])
         tree_self[vgprof::path_node_name(p, p.paths()[node])] += self;
   EXPECT_GT(tree_self.size(), 20u);
   EXPECT_EQ(pprof_self, tree_self);
}

// --- massif ---------------------------------------------------------------------------

struct MassifSnapshotRow {
   uint64_t time = 0, total = 0;
};

// ms_print's snapshot table rows, by number, and the number of its peak.
std::map<uint64_t, MassifSnapshotRow> ms_print_rows(const std::string& out, uint64_t* peak)
{
   std::map<uint64_t, MassifSnapshotRow> rows;
   for (const std::string& line : lines_of(out)) {
      std::istringstream in(line);
      std::vector<std::string> f;
      for (std::string w; in >> w;) f.push_back(w);
      if (f.size() == 6 && std::all_of(f[0].begin(), f[0].end(), ::isdigit))
         rows[std::stoull(f[0])] = {number(f[1]), number(f[2])};
      const size_t at = line.find(" (peak)");
      if (line.find("Detailed snapshots: [") != std::string::npos && at != std::string::npos)
         *peak = std::stoull(line.substr(line.find_last_of("[ ", at - 1) + 1));
   }
   return rows;
}

TEST_F(ExportReaders, MsPrintsPeakIsDhatsTGmaxAndItsLastSnapshotTheEnd)
{
   REQUIRE_READER(!on_path("ms_print").empty(), "ms_print");
   ASSERT_EQ(dhat_->exit_code, 0) << dhat_->err;
   auto ms = in_dir({"ms_print", "vp.massif"});
   ASSERT_EQ(ms.exit_code, 0) << ms.err;
   uint64_t peak = UINT64_MAX;
   const auto rows = ms_print_rows(ms.out, &peak);
   ASSERT_TRUE(rows.count(peak)) << ms.out.substr(0, 3000);
   // "At t-gmax: 48,100 bytes in 3,001 blocks"
   const std::string dhat_line = summary_lines(dhat_->err, "At t-gmax:").at(0);
   const size_t from = dhat_line.find_first_of("0123456789");
   const std::string dhat_peak = dhat_line.substr(from, dhat_line.find(" bytes") - from);
   EXPECT_EQ(rows.at(peak).total, number(dhat_peak));
   EXPECT_EQ(rows.at(peak).total, heap_total("peak_bytes"));
   EXPECT_EQ(rows.at(peak).time, heap_total("peak_time"));
   uint64_t highest = 0;
   for (const auto& [n, row] : rows) highest = std::max(highest, row.total);
   EXPECT_EQ(highest, heap_total("peak_bytes"));
   EXPECT_EQ(rows.rbegin()->second.time, heap_total("end_time"));
   EXPECT_EQ(rows.rbegin()->second.total, heap_total("end_bytes"));
   // The peak's tree accounts for all of it.
   EXPECT_NE(ms.out.find("100.00% (" + dhat_peak + "B) (heap allocation functions)"), std::string::npos);
}

// --- heaptrack ------------------------------------------------------------------------

// Adds up the last field of each line of a heaptrack_print output file.
uint64_t sum_of_last_fields(const std::string& text)
{
   uint64_t sum = 0;
   for (const std::string& line : lines_of(text)) sum += std::stoull(line.substr(line.rfind(' ') + 1));
   return sum;
}

TEST_F(ExportReaders, HeaptrackPrintsCallsPeakAndLeakAreTheReports)
{
   REQUIRE_READER(!on_path("heaptrack_print").empty(), "heaptrack_print");
   // heaptrack's built-in suppressions hide a few libc leaks; here nothing is
   // hidden, so the leak is the whole of what was never freed.
   auto r = in_dir({"heaptrack_print", "--disable-builtin-suppressions", "-f", "vp.heaptrack",
                    "-H", "sizes.txt", "-F", "peak.txt", "--flamegraph-cost-type", "peak"});
   ASSERT_EQ(r.exit_code, 0) << r.err;
   EXPECT_EQ(r.err, "");
   EXPECT_NE(r.out.find("calls to allocation functions: " + std::to_string(heap_total("blocks")) + " ("),
             std::string::npos)
      << r.out;
   EXPECT_EQ(sum_of_last_fields(read_file(*dir_ / "peak.txt")), heap_total("peak_bytes"));
   auto leaks = in_dir({"heaptrack_print", "--disable-builtin-suppressions", "-f", "vp.heaptrack",
                        "-F", "leaked.txt", "--flamegraph-cost-type", "leaked"});
   ASSERT_EQ(leaks.exit_code, 0) << leaks.err;
   EXPECT_EQ(sum_of_last_fields(read_file(*dir_ / "leaked.txt")), heap_total("end_bytes"));
   // The size histogram: "size<TAB>calls" lines, which add up to the bytes allocated.
   uint64_t bytes = 0;
   for (const std::string& line : lines_of(read_file(*dir_ / "sizes.txt")))
      bytes += std::stoull(line) * std::stoull(line.substr(line.find('\t') + 1));
   EXPECT_EQ(bytes, heap_total("bytes"));
}

// An export named .gz or .zst is compressed so, as heaptrack writes its own
// files; heaptrack_print, which picks its decompressor by the name, reads
// each as it reads the plain file.
TEST_F(ExportReaders, HeaptrackReadsExportsCompressedAsTheirNamesSay)
{
   REQUIRE_READER(!on_path("heaptrack_print").empty(), "heaptrack_print");
   for (const char* name : {"vp.heaptrack.gz", "vp.heaptrack.zst"}) {
      auto ex = in_dir({cli_path(), "export", "--format", "heaptrack", "-o", name, "vp.json"});
      ASSERT_EQ(ex.exit_code, 0) << ex.err;
      auto r = in_dir({"heaptrack_print", "--disable-builtin-suppressions", "-f", name});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_NE(r.out.find("calls to allocation functions: " + std::to_string(heap_total("blocks")) +
                           " ("),
                std::string::npos)
         << name << ":\n" << r.out;
   }
   // pprof reads gzip only, and its profiles are gzip data already.
   auto zst = in_dir({cli_path(), "export", "--format", "pprof", "-o", "vp.pb.zst", "vp.json"});
   EXPECT_EQ(zst.exit_code, 2);
   EXPECT_NE(zst.err.find("gzip"), std::string::npos) << zst.err;
}

// heaptrack counts calls per stack (the frames from the allocating call
// out): the sites with one such stack, added up, in the report.
TEST_F(ExportReaders, HeaptrackPrintsCallsPerStackAreTheReportsSites)
{
   REQUIRE_READER(!on_path("heaptrack_print").empty(), "heaptrack_print");
   auto r = in_dir({"heaptrack_print", "-f", "vp.heaptrack", "-F", "calls.txt",
                    "--flamegraph-cost-type", "allocations"});
   ASSERT_EQ(r.exit_code, 0) << r.err;
   std::vector<uint64_t> theirs;
   for (const std::string& line : lines_of(read_file(*dir_ / "calls.txt")))
      theirs.push_back(std::stoull(line.substr(line.rfind(' ') + 1)));
   std::map<std::vector<uint64_t>, uint64_t> by_stack;
   for (const auto& site : heap_->at("sites").as_array()) {
      std::vector<uint64_t> callers;
      for (const auto& frame : site.at("stack").as_array())
         if (std::string(frame.at("object").as_string().c_str()).find("/vgpreload_") == std::string::npos)
            callers.push_back(frame.at("addr").to_number<uint64_t>());
      by_stack[callers] += site.at("blocks").to_number<uint64_t>();
   }
   std::vector<uint64_t> mine;
   for (const auto& [stack, calls] : by_stack) mine.push_back(calls);
   std::sort(theirs.begin(), theirs.end());
   std::sort(mine.begin(), mine.end());
   EXPECT_GT(mine.size(), 5u);
   EXPECT_EQ(theirs, mine);
}

// --- per thread -----------------------------------------------------------------------

// tests/progs/threads recorded with --separate-threads=yes, and callgrind
// --separate-threads=yes run beside it; each thread's totals from `vgprof
// report --thread N --format json`.
class ThreadExports : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      dir_ = new TempDir;
      const std::vector<std::string> program{progs_dir() + "/threads"};
      auto cl = run_tool("callgrind", {"--separate-threads=yes", "--callgrind-out-file=cl.out"},
                         program, dir_->path());
      ASSERT_EQ(cl.exit_code, 0) << cl.err;
      auto vp = run_tool("vgprof", {"--separate-threads=yes", "--vgprof-out-file=vp.json"}, program,
                         dir_->path());
      ASSERT_EQ(vp.exit_code, 0) << vp.err;
      const vgprof::Profile p = vgprof::load_profile(*dir_ / "vp.json");
      ASSERT_GE(p.threads().size(), 2u);
      totals_ = new std::map<uint32_t, uint64_t>;
      for (const auto& t : p.threads()) {
         auto r = run({cli_path(), "report", "--format", "json", "--thread", std::to_string(t.tid),
                       "vp.json"},
                      dir_->path());
         ASSERT_EQ(r.exit_code, 0) << r.err;
         (*totals_)[t.tid] =
            boost::json::parse(r.out).at("thread_totals").at("Ir").to_number<uint64_t>();
      }
      for (const char* format : {"speedscope", "pprof"}) {
         auto ex = run({cli_path(), "export", "--format", format, "-o", std::string("vp.") + format,
                        "vp.json"},
                       dir_->path());
         ASSERT_EQ(ex.exit_code, 0) << format << ": " << ex.err;
      }
   }
   static void TearDownTestSuite()
   {
      delete totals_;
      delete dir_;
   }
   static RunResult in_dir(const std::vector<std::string>& argv) { return run(argv, dir_->path()); }

   static TempDir* dir_;
   static std::map<uint32_t, uint64_t>* totals_;  // tid -> THREAD N TOTALS' Ir
};
TempDir* ThreadExports::dir_ = nullptr;
std::map<uint32_t, uint64_t>* ThreadExports::totals_ = nullptr;

TEST_F(ThreadExports, SpeedscopesThreadProfilesAreEachThreadsTotals)
{
   REQUIRE_READER(speedscope_installed(), "speedscope");
   auto ss = in_dir({"node", js_dir() + "/speedscope-read.mjs", "vp.speedscope"});
   ASSERT_EQ(ss.exit_code, 0) << ss.err;
   const SpeedscopeRead read = read_speedscope(ss.out);
   uint64_t summed = 0;
   for (const auto& [tid, total] : *totals_) {
      const auto it = read.totals.find("thread " + std::to_string(tid) + ": Ir");
      ASSERT_NE(it, read.totals.end()) << "thread " << tid << "\n" << ss.out;
      EXPECT_EQ(it->second, total) << "thread " << tid;
      summed += it->second;
   }
   EXPECT_EQ(summed, read.totals.at("Ir"));
}

// `pprof -tags` sums Ir by the thread label, "thread: Total N" then a line
// per thread, "   36906.0 (18.53%): 2"; -tagfocus keeps one thread's.
TEST_F(ThreadExports, GoToolPprofTagsAndTagfocusGiveEachThreadsTotal)
{
   REQUIRE_READER(!on_path("go").empty(), "go tool pprof");
   auto tags = in_dir({"go", "tool", "pprof", "-tags", "vp.pprof"});
   ASSERT_EQ(tags.exit_code, 0) << tags.err;
   std::map<uint32_t, uint64_t> by_tag;
   bool in_thread = false;
   for (const std::string& line : lines_of(tags.out)) {
      if (line.find(" thread: Total") == 0) in_thread = true;
      else if (line.empty()) in_thread = false;
      else if (in_thread && line.rfind(": ") != std::string::npos) {
         const size_t colon = line.rfind(": ");
         by_tag[uint32_t(std::stoul(line.substr(colon + 2)))] =
            std::stoull(line.substr(0, line.find('.')));
      }
   }
   EXPECT_EQ(by_tag, *totals_) << tags.out;
   for (const auto& [tid, total] : *totals_) {
      auto r = in_dir({"go", "tool", "pprof", "-top", "-nodefraction=0", "-nodecount=100000",
                       "-tagfocus=thread=" + std::to_string(tid), "vp.pprof"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const size_t at = r.out.find("accounting for "), comma = r.out.find(',', at);
      ASSERT_NE(at, std::string::npos) << r.out;
      EXPECT_EQ(number(r.out.substr(at, comma - at)), total) << "thread " << tid;
   }
}

// callgrind_annotate's view of a file: its PROGRAM TOTALS' Ir and each
// function's self Ir, by name.
struct Annotated {
   uint64_t total = 0;
   std::map<std::string, uint64_t> self;
};

Annotated callgrind_annotate(const std::string& dir, const std::string& file)
{
   auto r = run({"callgrind_annotate", "--threshold=100", file}, dir);
   EXPECT_EQ(r.exit_code, 0) << r.err;
   Annotated a;
   for (const std::string& line : lines_of(r.out)) {
      const size_t paren = line.find(" (");
      if (paren == std::string::npos || !isdigit(static_cast<unsigned char>(line[line.find_first_not_of(' ')])))
         continue;
      const uint64_t ir = number(line.substr(0, paren));
      if (line.find("PROGRAM TOTALS") != std::string::npos) a.total = ir;
      const size_t colon = line.rfind(':'), bracket = line.find(" [", colon);
      if (colon != std::string::npos && bracket != std::string::npos)
         a.self[line.substr(colon + 1, bracket - colon - 1)] += ir;
   }
   return a;
}

// Each thread's callgrind file, read by callgrind_annotate: its totals
// are the thread's, and the program's own functions cost what callgrind's
// per-thread files say: main's thread alone, the workers' summed (which
// thread number a worker gets depends on the host's scheduling).
TEST_F(ThreadExports, CallgrindAnnotateOfEachThreadsFileAgreesWithCallgrindsPerThreadFiles)
{
   REQUIRE_READER(!on_path("callgrind_annotate").empty(), "callgrind_annotate");
   const auto own = [](const Annotated& a) {
      std::map<std::string, uint64_t> out;
      for (const char* fn : {"main", "worker", "compute"})
         if (a.self.count(fn)) out[fn] = a.self.at(fn);
      return out;
   };
   std::map<std::string, uint64_t> workers_mine, workers_theirs;
   for (const auto& [tid, total] : *totals_) {
      const std::string file = "vp.callgrind-" + std::to_string(tid);
      auto ex = in_dir({cli_path(), "export", "--format", "callgrind", "--thread",
                        std::to_string(tid), "-o", file, "vp.json"});
      ASSERT_EQ(ex.exit_code, 0) << ex.err;
      const Annotated mine = callgrind_annotate(dir_->path(), file);
      EXPECT_EQ(mine.total, total) << "thread " << tid;
      if (tid == 1)
         EXPECT_EQ(own(mine), own(callgrind_annotate(dir_->path(), "cl.out-01")));
      else
         for (const auto& [fn, ir] : own(mine)) workers_mine[fn] += ir;
   }
   for (const std::string& f : dir_->files_starting_with("cl.out-"))
      if (f != "cl.out-01")
         for (const auto& [fn, ir] : own(callgrind_annotate(dir_->path(), f))) workers_theirs[fn] += ir;
   EXPECT_FALSE(workers_theirs.empty());
   EXPECT_EQ(workers_mine, workers_theirs);
}

TEST_F(ThreadExports, ThreadTheProfileDoesNotHaveIsAOneLineErrorAndNoFile)
{
   auto r = in_dir({cli_path(), "export", "--format", "callgrind", "--thread", "99", "-o",
                    "none.out", "vp.json"});
   EXPECT_EQ(r.exit_code, 2);
   std::string listed;
   for (const auto& [tid, total] : *totals_) listed += (listed.empty() ? "" : " ") + std::to_string(tid);
   EXPECT_EQ(r.err, "vgprof: vp.json: no thread 99 in this profile (threads: " + listed + ")\n");
   EXPECT_NE(access((*dir_ / "none.out").c_str(), F_OK), 0);
}

// --- the timeline: speedscope's Time Order and the Chrome trace event format ------

// speedscope-read.mjs --calls: each call speedscope drew, by profile name:
// its stack ("a;b;c") and duration, in the order they closed. speedscope's
// Chrome importer names a frame by its event's name and args ("load
// {\"Ir\":618535,...}"): the args are kept apart, the last frame's in `args`.
struct SpeedscopeCall {
   std::string stack;
   uint64_t duration = 0;
   std::map<std::string, uint64_t> args;
};

SpeedscopeCall speedscope_call(const std::string& stack_with_args, uint64_t duration)
{
   SpeedscopeCall call{"", duration, {}};
   std::istringstream in(stack_with_args);
   for (std::string frame; std::getline(in, frame, ';');) {
      const size_t brace = frame.find(" {");
      call.stack += (call.stack.empty() ? "" : ";") + frame.substr(0, brace);
      call.args.clear();
      if (brace == std::string::npos) continue;
      const boost::json::value args = boost::json::parse(frame.substr(brace + 1));
      for (const auto& [key, value] : args.as_object())
         if (value.is_number()) call.args[key] = value.to_number<uint64_t>();
   }
   return call;
}

std::map<std::string, std::vector<SpeedscopeCall>> speedscope_calls(const std::string& out)
{
   std::map<std::string, std::string> name_of;   // profile number -> name
   std::map<std::string, std::vector<SpeedscopeCall>> calls;
   for (const std::string& line : lines_of(out)) {
      std::vector<std::string> f;
      std::istringstream in(line);
      for (std::string field; std::getline(in, field, '\t');) f.push_back(field);
      if (f.size() == 5 && f[0] == "profile") name_of[f[1]] = f[2];
      if (f.size() == 5 && f[0] == "call")
         calls[name_of.at(f[1])].push_back(speedscope_call(f[2], std::stoull(f[4])));
   }
   return calls;
}

// The calls of `fn` (the last frame of their stack).
std::vector<SpeedscopeCall> calls_of(const std::vector<SpeedscopeCall>& calls, const std::string& fn)
{
   std::vector<SpeedscopeCall> out;
   for (const SpeedscopeCall& c : calls)
      if (c.stack == fn || ends_with(c.stack, ";" + fn)) out.push_back(c);
   return out;
}

// The timeline's exports: --format and its options.
const std::vector<std::vector<std::string>> kTimelineFormats = {{"chrome"},
                                                                {"speedscope", "--timeline"}};

// vp.json in `dir` exported as `format` to tl.FORMAT.
RunResult export_timeline(const std::vector<std::string>& format, const std::string& dir)
{
   std::vector<std::string> argv{cli_path(), "export", "--format"};
   argv.insert(argv.end(), format.begin(), format.end());
   argv.insert(argv.end(), {"-o", "tl." + format[0], "vp.json"});
   return run(argv, dir);
}

// phases.c (load, work, flush between VGPROF_MARKs) recorded with
// --timeline=yes and callgrind run beside; exported as a Chrome trace and
// as speedscope's evented profiles; the spans `vgprof report --timeline
// --format json` lists.
class TimelineExports : public ::testing::Test {
public:
   static void SetUpTestSuite()
   {
      dir_ = new TempDir;
      const std::vector<std::string> program{progs_dir() + "/phases"};
      auto cl = run_tool("callgrind", {"--callgrind-out-file=cl.out"}, program, dir_->path());
      ASSERT_EQ(cl.exit_code, 0) << cl.err;
      callgrind_ = new CallMap(read_callgrind_calls(*dir_ / "cl.out"));
      auto vp = run_tool("vgprof", {"--timeline=yes", "--vgprof-out-file=vp.json"}, program,
                         dir_->path());
      ASSERT_EQ(vp.exit_code, 0) << vp.err;
      for (const auto& format : kTimelineFormats) {
         auto ex = export_timeline(format, dir_->path());
         ASSERT_EQ(ex.exit_code, 0) << format[0] << ": " << ex.err;
      }
      auto report = run({cli_path(), "report", "--timeline", "--format", "json", "--top", "100000",
                         "vp.json"},
                        dir_->path());
      ASSERT_EQ(report.exit_code, 0) << report.err;
      report_ = new boost::json::value(boost::json::parse(report.out));
   }
   static void TearDownTestSuite()
   {
      delete report_;
      delete callgrind_;
      delete dir_;
   }
   static RunResult in_dir(const std::vector<std::string>& argv) { return run(argv, dir_->path()); }

   // The costs the report gives the one span of `fn`, by event.
   static std::map<std::string, uint64_t> report_span_costs(const std::string& fn)
   {
      std::map<std::string, uint64_t> costs;
      size_t found = 0;
      for (const auto& phase : report_->at("phases").as_array())
         for (const auto& span : phase.at("spans").as_array())
            if (span.at("function").as_string().find(fn + " (") == 0) {
               ++found;
               for (const auto& [event, cost] : span.at("costs").as_object())
                  costs[event] = cost.to_number<uint64_t>();
            }
      EXPECT_EQ(found, 1u) << fn;
      return costs;
   }
   static uint64_t callgrind_inclusive(const std::string& fn) { return callgrind_->at({"main", fn}).inclusive; }

   static TempDir* dir_;
   static CallMap* callgrind_;
   static boost::json::value* report_;
};
TempDir* TimelineExports::dir_ = nullptr;
CallMap* TimelineExports::callgrind_ = nullptr;
boost::json::value* TimelineExports::report_ = nullptr;

const char* const kPhaseFns[] = {"load", "work", "flush"};

// `file` as speedscope reads it: one thread, one profile (its name ending
// in `name`). Each phase's call, called by main, lasts as long on the
// instruction clock as it cost Ir (nothing else ran): what the report's span
// and callgrind's main -> fn say; with args (the Chrome trace's), its costs
// in every event are the report's.
void expect_phase_calls_as_long_as_their_ir(const std::string& file, const std::string& name,
                                            bool with_args)
{
   auto ss = TimelineExports::in_dir({"node", js_dir() + "/speedscope-read.mjs", file, "--calls"});
   ASSERT_EQ(ss.exit_code, 0) << ss.err;
   const auto calls = speedscope_calls(ss.out);
   ASSERT_EQ(calls.size(), 1u) << ss.out.substr(0, 2000);
   EXPECT_TRUE(ends_with(calls.begin()->first, name)) << calls.begin()->first;
   for (const char* fn : kPhaseFns) {
      const std::vector<SpeedscopeCall> of_fn = calls_of(calls.begin()->second, fn);
      ASSERT_EQ(of_fn.size(), 1u) << fn;
      EXPECT_TRUE(ends_with(of_fn[0].stack, std::string(";main;") + fn)) << of_fn[0].stack;
      EXPECT_EQ(of_fn[0].duration, TimelineExports::report_span_costs(fn).at("Ir")) << fn;
      EXPECT_EQ(of_fn[0].duration, TimelineExports::callgrind_inclusive(fn)) << fn;
      if (with_args) EXPECT_EQ(of_fn[0].args, TimelineExports::report_span_costs(fn)) << fn;
   }
}

TEST_F(TimelineExports, SpeedscopeTimeOrderDrawsEachPhaseCallAsLongAsItsIr)
{
   REQUIRE_READER(speedscope_installed(), "speedscope");
   expect_phase_calls_as_long_as_their_ir("tl.speedscope", "thread 1: instructions in time order",
                                          false);
}

// speedscope's own importer of the Chrome trace event format reads the
// same calls with the same durations and costs, the thread named as the
// trace names it ("PROGRAM (pid N), thread 1 (tid 1)").
TEST_F(TimelineExports, SpeedscopeReadsTheChromeTraceWithEachPhaseCallAsLongAsItsIr)
{
   REQUIRE_READER(speedscope_installed(), "speedscope");
   expect_phase_calls_as_long_as_their_ir("tl.chrome", ", thread 1 (tid 1)", true);
}

// The Chrome trace's own fields, which speedscope does not read: each
// phase call's args are its costs in every event as the report gives them,
// the marks are global instants in order, and the heap counter at each mark
// is what phases.c holds then (100 blocks of 1000 bytes after load).
TEST_F(TimelineExports, ChromeTraceCarriesEveryEventsCostTheMarksAndTheLiveHeap)
{
   const boost::json::value trace = boost::json::parse(read_file(*dir_ / "tl.chrome"));
   std::map<std::string, std::map<std::string, uint64_t>> args_of;
   std::vector<std::pair<std::string, uint64_t>> marks;
   std::map<uint64_t, uint64_t> heap_at;
   for (const auto& e : trace.at("traceEvents").as_array()) {
      const std::string ph(e.at("ph").as_string());
      if (ph == "X") {
         const std::string name(e.at("name").as_string());
         if (std::find(std::begin(kPhaseFns), std::end(kPhaseFns), name) == std::end(kPhaseFns))
            continue;
         auto& args = args_of[name];
         for (const auto& [event, cost] : e.at("args").as_object())
            if (cost.is_number()) args[event] = cost.to_number<uint64_t>();
         EXPECT_EQ(e.at("dur").to_number<uint64_t>(), args.at("Ir")) << name;
      } else if (ph == "i") {
         EXPECT_EQ(e.at("s").as_string(), "g");
         marks.emplace_back(std::string(e.at("name").as_string()), e.at("ts").to_number<uint64_t>());
      } else if (ph == "C") {
         heap_at[e.at("ts").to_number<uint64_t>()] = e.at("args").at("bytes").to_number<uint64_t>();
      }
   }
   for (const char* fn : kPhaseFns) EXPECT_EQ(args_of.at(fn), report_span_costs(fn)) << fn;
   const std::vector<std::string> labels = {"start", "loaded", "worked", "flushed"};
   const uint64_t live[] = {0, 100 * 1000, 100 * 1000, 0};
   ASSERT_EQ(marks.size(), labels.size());
   for (size_t i = 0; i < labels.size(); i++) {
      EXPECT_EQ(marks[i].first, labels[i]);
      if (i) EXPECT_LT(marks[i - 1].second, marks[i].second);
      ASSERT_TRUE(heap_at.count(marks[i].second)) << labels[i];
      EXPECT_EQ(heap_at.at(marks[i].second), live[i]) << labels[i];
   }
   EXPECT_NE(trace.at("otherData").at("clock").as_string().find("1 instruction"), std::string::npos);
}

// threads.c: four workers calling compute and main calling it too, under
// Valgrind's thread numbers (a finished worker's number is given to the
// next): one speedscope profile per thread number, from both exports, and
// the calls of compute in them, added up, are as many as callgrind counts.
TEST(TimelineThreadExports, EachThreadIsOneProfileWithItsOwnCalls)
{
   REQUIRE_READER(speedscope_installed(), "speedscope");
   TempDir dir;
   const std::vector<std::string> program{progs_dir() + "/threads"};
   auto cl = run_tool("callgrind", {"--callgrind-out-file=cl.out"}, program, dir.path());
   ASSERT_EQ(cl.exit_code, 0) << cl.err;
   uint64_t computes = 0;
   for (const auto& [edge, totals] : read_callgrind_calls(dir / "cl.out"))
      if (edge.second == "compute") computes += totals.count;
   auto vp = run_tool("vgprof", {"--timeline=yes", "--vgprof-out-file=vp.json"}, program, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   // The threads with a call that lasted: speedscope has nothing to draw of
   // a thread whose calls all lasted no time.
   std::set<uint32_t> tids;
   for (const auto& span : vgprof::load_profile(dir / "vp.json").timeline()->spans)
      if (span.end > span.start) tids.insert(span.thread);
   EXPECT_GT(tids.size(), 1u);
   for (const auto& format : kTimelineFormats) {
      SCOPED_TRACE(format[0]);
      auto ex = export_timeline(format, dir.path());
      ASSERT_EQ(ex.exit_code, 0) << ex.err;
      auto ss = run({"node", js_dir() + "/speedscope-read.mjs", "tl." + format[0], "--calls"},
                    dir.path());
      ASSERT_EQ(ss.exit_code, 0) << ss.err;
      const auto calls = speedscope_calls(ss.out);
      EXPECT_EQ(calls.size(), tids.size());
      uint64_t drawn = 0;
      for (const auto& [name, of_thread] : calls) drawn += calls_of(of_thread, "compute").size();
      EXPECT_EQ(drawn, computes);
   }
}

}  // namespace
