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

}  // namespace
