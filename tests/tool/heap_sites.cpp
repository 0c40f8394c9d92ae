// SPDX-License-Identifier: GPL-2.0-or-later
// heap_sites.cpp: DHAT's heap figures and vgprof's, site by site.
#include "heap_sites.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <ostream>
#include <sstream>
#include <set>

#include "harness.hpp"
#include "vgprof/format.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/load.hpp"

namespace vgtest {

namespace {

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

// An inlined function's frame is compared by its file and line alone:
// vgprof names inlined functions with their paths (read from the debug
// information), DHAT with the bare name Valgrind's reader gives them.
const char kInlined[] = "(inlined)";

// So is a Rust closure's or async body's: DHAT names it by its symbol
// ("{{closure}}" in the legacy mangling), vgprof by the debug information
// ("{closure#0}", "{async_fn#0}").
const char kClosure[] = "(closure)";

bool names_a_closure(const std::string& name)
{
   return name.find("{{closure}}") != std::string::npos ||
          name.find("{closure") != std::string::npos || name.find("{async") != std::string::npos;
}

std::string frame_text(const vgprof::Profile& p, const vgprof::HeapFrame& f)
{
   const std::string& file = p.file_path(f.file);
   std::string name = p.function(f.fn).inlined ? kInlined : valgrind_name(p.fn_name(f.fn));
   if (names_a_closure(name)) name = kClosure;
   if (file == "???")
      return name + " (in " + p.obj_path(p.function(f.fn).obj) + ")";
   return name + " (" + base_name(file) + ":" + std::to_string(f.line) + ")";
}

std::string stack_text(const Stack& stack)
{
   std::string out;
   for (const std::string& f : stack) out += "\n    " + f;
   return out;
}

}  // namespace

std::vector<std::string> heap_summary(const std::string& err)
{
   std::vector<std::string> lines;
   for (const char* label : kSummaryLabels)
      for (std::string& l : summary_lines(err, label))
         lines.push_back(std::move(l));
   return lines;
}

std::ostream& operator<<(std::ostream& out, const Site& s)
{
   out << "{bytes " << s.bytes << " in " << s.blocks << ", peak " << s.peak_bytes << " in "
       << s.peak_blocks << ", end " << s.end_bytes << " in " << s.end_blocks << ", read "
       << s.reads << ", written " << s.writes << ", " << s.accesses.size() << " offsets}";
   return out;
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

// "fn (dir/file.c:12)" as "fn (file.c:12)": DHAT names the files of
// inlined calls with the directory their debug info gives, vgprof with the
// whole path; both are compared by file name.
std::string without_dirs(const std::string& desc)
{
   const size_t paren = desc.rfind(" (");   // names can hold " (": call_once<fn(), ()>
   if (paren == std::string::npos || desc.compare(paren, 5, " (in ") == 0) return desc;
   return desc.substr(0, paren) + " (" + base_name(desc.substr(paren + 2));
}

// DHAT's JSON (version 2). A frame is "0xADDR: fn (file:line)"; an address
// in inlined code gives one frame per inlined function, innermost first,
// all with that address, as vgprof's stacks have them.
Sites read_dhat(const std::string& path)
{
   const boost::json::object doc = boost::json::parse(read_file(path)).as_object();
   const boost::json::array& ftbl = doc.at("ftbl").as_array();
   Sites sites;
   for (const boost::json::value& v : doc.at("pps").as_array()) {
      const boost::json::object& pp = v.as_object();
      Stack stack;
      const boost::json::array& fs = pp.at("fs").as_array();
      for (size_t i = 0; i < fs.size(); ++i) {
         const std::string text(ftbl.at(u64(fs[i])).as_string());
         std::string desc = without_dirs(text.substr(text.find(": ") + 2));
         if (in_allocator(desc)) continue;
         // Frames of one address but the last are its inlined calls.
         const std::string addr = text.substr(0, text.find(": "));
         const bool inlined = i + 1 < fs.size() &&
             std::string(ftbl.at(u64(fs[i + 1])).as_string()).rfind(addr + ": ", 0) == 0;
         if (inlined) desc = kInlined + desc.substr(desc.rfind(" ("));
         else if (names_a_closure(desc.substr(0, desc.rfind(" (")))) desc = kClosure + desc.substr(desc.rfind(" ("));
         stack.push_back(desc);
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

Sites vgprof_sites(const vgprof::Profile& p)
{
   Sites sites;
   const vgprof::Heap& heap = *p.heap();
   for (const vgprof::HeapSite& hs : heap.sites) {
      // The first frame is the allocator function the program called, as
      // DHAT's first is its replacement of that function.
      Stack stack;
      for (size_t i = 1; i < hs.frames.size(); ++i)
         stack.push_back(frame_text(p, heap.frame(hs.frames[i])));
      Site s;
      s.bytes = hs.bytes; s.blocks = hs.blocks;
      s.peak_bytes = hs.peak_bytes; s.peak_blocks = hs.peak_blocks;
      s.end_bytes = hs.end_bytes; s.end_blocks = hs.end_blocks;
      s.reads = hs.reads; s.writes = hs.writes;
      // DHAT 3.19 keeps a site's per-offset counts in 32 bits but writes
      // only their low 16 bits to its file (66,000 accesses come out as
      // 464): compared as it writes them.
      for (uint64_t count : hs.accesses) s.accesses.push_back(uint32_t(count & 0xFFFF));
      add(sites, stack, s);
   }
   return sites;
}

namespace {

bool within(uint64_t a, uint64_t b, double spread)
{
   const double d = a > b ? double(a - b) : double(b - a);
   return d <= spread * double(std::max(a, b));
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

}  // namespace

void expect_same_sites(const Sites& mine, const Sites& dhat, double spread)
{
   for (const auto& [stack, d] : dhat) {
      auto it = mine.find(stack);
      if (it == mine.end()) {
         ADD_FAILURE() << "DHAT's site " << d << " is not in the profile:" << stack_text(stack);
         continue;
      }
      if (spread == 0) {
         EXPECT_EQ(it->second, d) << "at" << stack_text(stack);
         continue;
      }
      Site m = it->second, t = d;
      EXPECT_TRUE(within(m.reads, t.reads, spread) && within(m.writes, t.writes, spread))
          << m << " against DHAT's " << t << " at" << stack_text(stack);
      m.reads = t.reads = m.writes = t.writes = 0;
      m.accesses.clear();
      t.accesses.clear();
      EXPECT_EQ(m, t) << "at" << stack_text(stack);
   }
   for (const auto& [stack, s] : mine)
      EXPECT_TRUE(dhat.count(stack)) << "the profile's site " << s << " is not DHAT's:"
                                     << stack_text(stack);
}
void expect_heap_matches_dhat(const std::vector<std::string>& program,
                              const std::vector<std::string>& options, const std::string& dir,
                              int exit_code, RunResult* vgprof_run, double spread)
{
   auto dh = run_tool("dhat", {"--dhat-out-file=dh.json"}, program, dir);
   ASSERT_EQ(dh.exit_code, exit_code) << dh.err;
   auto vp = run_tool("vgprof", with(with(options, "--heap=yes"), "--vgprof-out-file=vp.json"),
                      program, dir);
   if (vgprof_run) *vgprof_run = vp;
   ASSERT_EQ(vp.exit_code, exit_code) << vp.err;

   std::vector<std::string> mine = heap_summary(vp.err), theirs = heap_summary(dh.err);
   ASSERT_EQ(theirs.size(), 5u) << dh.err;
   ASSERT_EQ(mine.size(), 5u) << vp.err;
   if (spread > 0) {
      for (size_t i = 3; i < 5; i++)
         EXPECT_TRUE(within(first_number(mine[i]), first_number(theirs[i]), spread))
             << mine[i] << " against DHAT's " << theirs[i];
      mine.resize(3);
      theirs.resize(3);
   }
   EXPECT_EQ(mine, theirs);

   const vgprof::Profile p = vgprof::load_profile(dir + "/vp.json");
   ASSERT_NE(p.heap(), nullptr);
   expect_same_sites(vgprof_sites(p), read_dhat(dir + "/dh.json"), spread);
}

LineAllocations dhat_allocations_by_line(const std::string& dh_json, const std::string& file)
{
   LineAllocations out;
   const boost::json::object doc = boost::json::parse(read_file(dh_json)).as_object();
   const boost::json::array& ftbl = doc.at("ftbl").as_array();
   const std::string marker = "(" + file + ":";
   for (const boost::json::value& v : doc.at("pps").as_array()) {
      std::set<unsigned> lines;
      for (const boost::json::value& f : v.at("fs").as_array()) {
         const std::string text(ftbl.at(u64(f)).as_string());
         if (in_allocator(text)) continue;
         // DHAT names a file with the directory its debug info gives.
         size_t at = text.find(marker);
         if (at == std::string::npos) {
            const size_t slash = text.find("/" + file + ":");
            if (slash == std::string::npos) continue;
            at = slash;
         }
         lines.insert(unsigned(std::stoul(text.substr(at + marker.size()))));
      }
      for (unsigned line : lines) {
         out[line].first += u64(v.at("tb"));
         out[line].second += u64(v.at("tbk"));
      }
   }
   return out;
}

void expect_annotated_allocations(const std::string& listing, const std::string& source_path,
                                  const LineAllocations& expected)
{
   std::vector<std::string> source, out;
   std::istringstream in(read_file(source_path));
   for (std::string line; std::getline(in, line);) source.push_back(line);
   std::istringstream rows(listing);
   for (std::string line; std::getline(rows, line);) out.push_back(line);
   for (const auto& [line, figures] : expected) {
      const std::string want = vgprof::format_thousands(figures.first) + " (" +
                               vgprof::format_thousands(figures.second) + ")";
      ASSERT_LE(line, source.size());
      // The listing row of that source line: costs, the figures, the text.
      const std::string& text = source[line - 1];
      bool found = false;
      for (const std::string& row : out) {
         if (!ends_with(row, text)) continue;
         std::istringstream cells(row.substr(0, row.size() - text.size()));
         std::vector<std::string> words;
         for (std::string w; cells >> w;) words.push_back(w);
         if (words.size() >= 2 && words[words.size() - 2] + " " + words.back() == want)
            found = true;
      }
      EXPECT_TRUE(found) << "line " << line << " (" << text << ") should show " << want << "\n"
                         << listing;
   }
}

void expect_json_allocations(const std::string& report, const std::string& file,
                             const LineAllocations& expected)
{
   const boost::json::value doc = boost::json::parse(report);
   LineAllocations listed;
   bool found = false;
   for (const boost::json::value& f : doc.at("files").as_array()) {
      if (!ends_with(std::string(f.at("file").as_string()), "/" + file)) continue;
      found = true;
      for (const boost::json::value& l : f.at("lines").as_array()) {
         const boost::json::value& a = l.at("allocated");
         if (u64(a.at("bytes")) != 0 || u64(a.at("blocks")) != 0)
            listed[unsigned(u64(l.at("line")))] = {u64(a.at("bytes")), u64(a.at("blocks"))};
      }
   }
   EXPECT_TRUE(found) << file << " is not listed\n" << report;
   EXPECT_EQ(listed, expected) << report;
}

}  // namespace vgtest
