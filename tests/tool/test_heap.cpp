// SPDX-License-Identifier: GPL-2.0-or-later
// test_heap.cpp: the heap profile against DHAT's on the same binary and
// input: the five summary lines, and per allocation site the bytes and
// blocks allocated, live at the peak (t-gmax) and at the end (t-end), read
// and written, and the per-offset access counts. Sites are matched by their
// stacks as DHAT prints them (function and source line of each frame), the
// allocator's own frames left out.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

using namespace vgtest;

namespace {

const char* const kSummaryLabels[] = {"Total:", "At t-gmax:", "At t-end:", "Reads:", "Writes:"};

std::vector<std::string> heap_summary(const std::string& err)
{
   std::vector<std::string> lines;
   for (const char* label : kSummaryLabels)
      for (std::string& l : summary_lines(err, label))
         lines.push_back(std::move(l));
   return lines;
}

// The first number of a summary line, "Reads:     23,939,225 bytes".
uint64_t first_number(const std::string& line)
{
   uint64_t n = 0;
   size_t   i = line.find_first_of("0123456789");
   for (; i < line.size() && (std::isdigit((unsigned char)line[i]) || line[i] == ','); i++)
      if (line[i] != ',') n = n * 10 + uint64_t(line[i] - '0');
   return n;
}

// What both tools say about one allocation site.
struct Site {
   uint64_t bytes = 0, blocks = 0, peak_bytes = 0, peak_blocks = 0, end_bytes = 0,
            end_blocks = 0, reads = 0, writes = 0;
   std::vector<uint32_t> accesses;
   bool operator==(const Site& o) const
   {
      return bytes == o.bytes && blocks == o.blocks && peak_bytes == o.peak_bytes &&
             peak_blocks == o.peak_blocks && end_bytes == o.end_bytes &&
             end_blocks == o.end_blocks && reads == o.reads && writes == o.writes &&
             accesses == o.accesses;
   }
};

std::ostream& operator<<(std::ostream& out, const Site& s)
{
   out << "{bytes " << s.bytes << " in " << s.blocks << ", peak " << s.peak_bytes << " in "
       << s.peak_blocks << ", end " << s.end_bytes << " in " << s.end_blocks << ", read "
       << s.reads << ", written " << s.writes << ", " << s.accesses.size() << " offsets}";
   return out;
}

// A site's stack as text, frame by frame: "main (heap_basic.c:120)" or
// "fn (in /lib/object.so)" without source, as DHAT prints frames.
using Stack = std::vector<std::string>;
using Sites = std::map<Stack, Site>;

void add(Sites& sites, const Stack& stack, const Site& s)
{
   auto [it, fresh] = sites.emplace(stack, s);
   if (fresh) return;
   // Two sites of one tool can only look alike when they differ in the
   // allocator frames left out: add them up (their access counts then no
   // longer describe one block shape).
   Site& t = it->second;
   t.bytes += s.bytes; t.blocks += s.blocks; t.peak_bytes += s.peak_bytes;
   t.peak_blocks += s.peak_blocks; t.end_bytes += s.end_bytes; t.end_blocks += s.end_blocks;
   t.reads += s.reads; t.writes += s.writes;
   t.accesses.clear();
}

bool in_allocator(const std::string& frame)
{
   return frame.find("/vgpreload_") != std::string::npos;
}

std::string base_name(const std::string& path)
{
   const size_t slash = path.rfind('/');
   return slash == std::string::npos ? path : path.substr(slash + 1);
}

uint64_t u64(const boost::json::value& v) { return v.to_number<uint64_t>(); }

// DHAT's JSON (version 2). A frame is "0xADDR: fn (file:line)"; an address
// in inlined code gives one frame per inlined function, innermost first,
// all with that address: they are one frame of vgprof's, named after the
// function the code was compiled in, with the innermost source line.
Sites read_dhat(const std::string& path)
{
   const boost::json::object doc = boost::json::parse(read_file(path)).as_object();
   const boost::json::array& ftbl = doc.at("ftbl").as_array();
   Sites sites;
   for (const boost::json::value& v : doc.at("pps").as_array()) {
      const boost::json::object& pp = v.as_object();
      Stack stack;
      std::string last_addr, first_place;
      for (const boost::json::value& f : pp.at("fs").as_array()) {
         const std::string text(ftbl.at(u64(f)).as_string());
         const size_t colon = text.find(": ");
         const std::string addr = text.substr(0, colon), desc = text.substr(colon + 2);
         if (in_allocator(desc)) continue;
         const size_t paren = desc.find(" (");
         const std::string fn = desc.substr(0, paren);
         const std::string place = paren == std::string::npos ? "" : desc.substr(paren);
         if (addr == last_addr && !stack.empty()) {
            stack.back() = fn + first_place;
         } else {
            stack.push_back(desc);
            first_place = place;
         }
         last_addr = addr;
      }
      Site s;
      s.bytes = u64(pp.at("tb")); s.blocks = u64(pp.at("tbk"));
      s.peak_bytes = u64(pp.at("gb")); s.peak_blocks = u64(pp.at("gbk"));
      s.end_bytes = u64(pp.at("eb")); s.end_blocks = u64(pp.at("ebk"));
      s.reads = u64(pp.at("rb")); s.writes = u64(pp.at("wb"));
      if (const boost::json::value* acc = pp.if_contains("acc")) {
         // Run-length encoded: "-N,M" is N offsets of M, a plain M one offset.
         const boost::json::array& a = acc->as_array();
         for (size_t i = 0; i < a.size(); ++i) {
            const int64_t x = a[i].to_number<int64_t>();
            if (x < 0) {
               s.accesses.insert(s.accesses.end(), size_t(-x), uint32_t(u64(a[i + 1])));
               ++i;
            } else {
               s.accesses.push_back(uint32_t(x));
            }
         }
      }
      add(sites, stack, s);
   }
   return sites;
}

std::string frame_text(const vgprof::Profile& p, const vgprof::HeapFrame& f)
{
   const std::string& file = p.file_path(f.file);
   if (file == "???")
      return p.fn_name(f.fn) + " (in " + p.obj_path(p.function(f.fn).obj) + ")";
   return p.fn_name(f.fn) + " (" + base_name(file) + ":" + std::to_string(f.line) + ")";
}

Sites vgprof_sites(const vgprof::Profile& p)
{
   Sites sites;
   const vgprof::Heap& heap = *p.heap();
   for (const vgprof::HeapSite& hs : heap.sites) {
      Stack stack;
      for (vgprof::FrameId f : hs.frames) {
         std::string text = frame_text(p, heap.frame(f));
         if (!in_allocator(text)) stack.push_back(std::move(text));
      }
      Site s;
      s.bytes = hs.bytes; s.blocks = hs.blocks;
      s.peak_bytes = hs.peak_bytes; s.peak_blocks = hs.peak_blocks;
      s.end_bytes = hs.end_bytes; s.end_blocks = hs.end_blocks;
      s.reads = hs.reads; s.writes = hs.writes;
      s.accesses = hs.accesses;
      add(sites, stack, s);
   }
   return sites;
}

std::string stack_text(const Stack& stack)
{
   std::string out;
   for (const std::string& f : stack) out += "\n    " + f;
   return out;
}

// With compare_accesses false, reads, writes and access counts are left
// out: DHAT replaces libc's string functions with simple loops of its own,
// so in code that calls them the bytes read and written differ.
void expect_same_sites(Sites mine, Sites dhat, bool compare_accesses)
{
   if (!compare_accesses)
      for (Sites* sites : {&mine, &dhat})
         for (auto& [stack, s] : *sites) {
            s.reads = s.writes = 0;
            s.accesses.clear();
         }
   for (const auto& [stack, d] : dhat) {
      auto it = mine.find(stack);
      if (it == mine.end()) {
         ADD_FAILURE() << "DHAT's site " << d << " is not in the profile:" << stack_text(stack);
         continue;
      }
      EXPECT_EQ(it->second, d) << "at" << stack_text(stack);
   }
   for (const auto& [stack, s] : mine)
      EXPECT_TRUE(dhat.count(stack)) << "the profile's site " << s << " is not DHAT's:"
                                     << stack_text(stack);
}

struct Case {
   std::string name;
   std::vector<std::string> program;
   std::string input;                    // written to "input" if set
   bool compare_accesses = true;         // reads, writes and per-offset counts too
   std::vector<std::string> options;     // more vgprof options
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

class HeapMatchesDhat : public ::testing::TestWithParam<Case> {};

TEST_P(HeapMatchesDhat, SummaryAndEverySiteAreEqual)
{
   const Case& c = GetParam();
   TempDir dir;
   if (!c.input.empty()) write_file(dir / "input", c.input);
   const std::vector<std::string> program = resolve_program(c.program);

   auto dh = run_tool("dhat", {"--dhat-out-file=dh.json"}, program, dir.path());
   ASSERT_EQ(dh.exit_code, 0) << dh.err;
   auto vp = run_tool("vgprof", with(with(c.options, "--heap=yes"), "--vgprof-out-file=vp.json"),
                      program, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;

   std::vector<std::string> mine = heap_summary(vp.err), theirs = heap_summary(dh.err);
   ASSERT_EQ(theirs.size(), 5u) << dh.err;
   ASSERT_EQ(mine.size(), 5u) << vp.err;
   if (!c.compare_accesses) {
      // Where the program calls libc's string functions DHAT counts its
      // own replacements' byte loops and vgprof what libc's vectorised
      // code touches: the totals read and written agree within 0.1%.
      for (size_t i = 3; i < 5; i++) {
         const double a = double(first_number(mine[i])), b = double(first_number(theirs[i]));
         EXPECT_GT(b, 0) << theirs[i];
         EXPECT_LE(std::abs(a - b), b / 1000) << mine[i] << " against DHAT's " << theirs[i];
      }
      mine.resize(3);
      theirs.resize(3);
   }
   EXPECT_EQ(mine, theirs);

   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   ASSERT_NE(p.heap(), nullptr);
   expect_same_sites(vgprof_sites(p), read_dhat(dir / "dh.json"), c.compare_accesses);
}

INSTANTIATE_TEST_SUITE_P(
    Programs, HeapMatchesDhat,
    ::testing::Values(Case{"basic", {"heap_basic"}, "", true, {}},
                      Case{"cxx", {"heap_cxx"}, "", true, {}},
                      Case{"basic_no_cache_sim", {"heap_basic"}, "", true, {"--cache-sim=no"}},
                      Case{"basic_no_call_graph", {"heap_basic"}, "", true, {"--call-graph=no"}},
                      Case{"threads", {"heap_threads"}, "", true, {}},
                      Case{"bzip2", {"bzip2", "-9", "-c", "input"}, generated_text(100000), false,
                           {}}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

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

// Misuse of the allocator is ignored rather than passed on (DHAT hands an
// invalid free to Valgrind's arena, which aborts), and a 1 GiB block is
// counted like any other.
TEST(Heap, InvalidFreesAreIgnoredAndHugeBlocksCounted)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--heap=yes", "--vgprof-out-file=vp.json"},
                      {progs_dir() + "/heap_bad"}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   const vgprof::HeapTotals& t = p.heap()->totals;
   EXPECT_EQ(t.bytes, 100u + (1u << 30));
   EXPECT_EQ(t.blocks, 2u);
   EXPECT_EQ(t.peak_bytes, 1u << 30);
   EXPECT_EQ(t.end_bytes, 0u);
   EXPECT_EQ(t.writes, 2u);
}

TEST(Heap, HeapNoLeavesTheAllocatorAndWritesNoHeap)
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
// line the bytes allocated by the calls on it: for each line of heap_basic.c
// that calls the allocator, DHAT's bytes for the sites allocating there.
TEST_F(HeapBasicRecorded, AnnotateShowsDhatsBytesOnTheAllocatingLines)
{
   TempDir& dir = *dir_;
   std::map<unsigned, uint64_t> dhat_bytes;   // heap_basic.c line -> bytes
   const boost::json::object doc = boost::json::parse(read_file(dir / "dh.json")).as_object();
   const boost::json::array& ftbl = doc.at("ftbl").as_array();
   for (const boost::json::value& v : doc.at("pps").as_array())
      for (const boost::json::value& f : v.at("fs").as_array()) {
         const std::string text(ftbl.at(u64(f)).as_string());
         if (in_allocator(text)) continue;
         const size_t at = text.find("(heap_basic.c:");
         if (at != std::string::npos)
            dhat_bytes[unsigned(std::stoul(text.substr(at + 14)))] += u64(v.at("tb"));
         break;
      }
   ASSERT_GE(dhat_bytes.size(), 8u);

   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   std::string source_path;
   for (vgprof::StrId f : p.files())
      if (base_name(p.str(f)) == "heap_basic.c") source_path = p.str(f);
   std::vector<std::string> source;
   std::istringstream in(read_file(source_path));
   for (std::string line; std::getline(in, line);) source.push_back(line);

   auto r = run({cli_path(), "annotate", "--all", "--events", "Ir", "vp.json", "heap_basic.c"},
                dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   std::vector<std::string> out;
   std::istringstream listing(r.out);
   for (std::string line; std::getline(listing, line);) out.push_back(line);
   for (const auto& [line, bytes] : dhat_bytes) {
      ASSERT_LE(line, source.size());
      // The listing row of that source line: costs, the bytes, the text.
      const std::string& text = source[line - 1];
      bool found = false;
      for (const std::string& row : out) {
         if (row.size() < text.size() || row.compare(row.size() - text.size(), text.size(), text))
            continue;
         std::istringstream cells(row.substr(0, row.size() - text.size()));
         std::vector<std::string> words;
         for (std::string w; cells >> w;) words.push_back(w);
         if (!words.empty() && words.back() == vgprof::format_thousands(bytes)) found = true;
      }
      EXPECT_TRUE(found) << "line " << line << " (" << text << ") should show "
                         << vgprof::format_thousands(bytes) << " bytes\n" << r.out;
   }
}

}  // namespace
