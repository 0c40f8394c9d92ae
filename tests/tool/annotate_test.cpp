// SPDX-License-Identifier: GPL-2.0-or-later
// annotate_test.cpp: `vgprof annotate` on recorded profiles. Each source
// line it lists costs what cachegrind says that line cost, and each
// instruction --asm lists costs what callgrind --dump-instr=yes says; a
// source that is missing or newer than the profile gets a note.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <cctype>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"
#include "vgprof/load.hpp"
#include "vgprof/profile.hpp"

using namespace vgtest;

namespace {

// One "File:" or "Function:" section of the output.
struct Listing {
   std::string title;        // the path, or the function's label
   std::string read_from;    // "Read from:", when the file was read elsewhere
   std::vector<std::string> notes;
   uint64_t total = 0;       // the first event of the "... total" row
   // Line number (or address) -> the first event's count and the row.
   std::map<uint64_t, std::pair<uint64_t, std::string>> rows;
   // --asm: the source rows ("loops.c:12 <- ...  text"), and for each
   // address the number of source rows above it (0: none).
   std::vector<std::string> sources;
   std::map<uint64_t, size_t> source_of;
};

struct Annotation {
   std::vector<Listing> listings;
   std::vector<std::pair<std::string, uint64_t>> ledger;   // label -> count
};

// The first count of a row: "1,801,510  (77.2%)  ..." -> 1801510, ". ..." -> 0.
uint64_t first_count(const std::string& row)
{
   std::istringstream in(row);
   std::string token;
   in >> token;
   if (token == ".") return 0;
   std::string digits;
   for (char c : token)
      if (c != ',') digits += c;
   return std::stoull(digits);
}

// What follows the cells of a row: the text after the share "(...%)  " or,
// for a row of dots, after the dot and its blank share.
std::string after_cells(const std::string& row)
{
   size_t pos = row.find("%)  ");
   if (pos != std::string::npos) return row.substr(pos + 4);
   pos = row.find_first_not_of(" .");
   return pos == std::string::npos ? "" : row.substr(pos);
}

Annotation parse_annotation(const std::string& out)
{
   Annotation a;
   std::istringstream in(out);
   bool in_listing = false, in_ledger = false, by_address = false;
   uint64_t position = 0;
   for (std::string line; std::getline(in, line);) {
      if (line.rfind("File:             ", 0) == 0 || line.rfind("Function:         ", 0) == 0) {
         a.listings.push_back({line.substr(18), "", {}, 0, {}, {}, {}});
         in_listing = false;
      } else if (line == "Where the program's costs are") {
         in_ledger = true;
         in_listing = false;
      } else if (in_ledger) {
         if (!line.empty() && line[0] != '-' && line.find('%') != std::string::npos)
            a.ledger.emplace_back(after_cells(line), first_count(line));
      } else if (a.listings.empty()) {
         continue;
      } else if (line.rfind("Read from:        ", 0) == 0) {
         a.listings.back().read_from = line.substr(18);
      } else if (line.rfind("note: ", 0) == 0) {
         a.listings.back().notes.push_back(line.substr(6));
      } else if (line.rfind("-- line ", 0) == 0) {
         in_listing = true;
         by_address = false;
         position = std::stoull(line.substr(8));
      } else if (line.rfind("-- address ", 0) == 0) {
         in_listing = true;
         by_address = true;
      } else if (line.size() > 12 && (line.substr(line.size() - 12) == "  file total" ||
                                      line.substr(line.size() - 16) == "  function total")) {
         a.listings.back().total = first_count(line);
      } else if (in_listing && line.empty()) {
         in_listing = false;
      } else if (in_listing) {
         if (by_address) {
            const std::string text = after_cells(line);
            if (text.rfind("; ", 0) == 0) {   // the source line of the instructions below
               a.listings.back().sources.push_back(text.substr(2));
               continue;
            }
            position = std::stoull(text.substr(0, text.find(':')), nullptr, 16);
            a.listings.back().source_of[position] = a.listings.back().sources.size();
         }
         a.listings.back().rows[position] = {first_count(line), line};
         ++position;
      }
   }
   return a;
}

const Listing* listing_of(const Annotation& a, const std::string& title_part)
{
   for (const Listing& l : a.listings)
      if (l.title.find(title_part) != std::string::npos) return &l;
   return nullptr;
}

std::vector<std::string> lines_of(const std::string& path)
{
   std::vector<std::string> lines;
   std::istringstream in(read_file(path));
   for (std::string line; std::getline(in, line);) {
      line.erase(line.find_last_not_of(' ') + 1);
      lines.push_back(line);
   }
   return lines;
}

// The profile's path of the test program's source file `name`.
std::string recorded_source(const std::string& profile, const std::string& name)
{
   const vgprof::Profile p = vgprof::load_profile(profile);
   for (size_t i = 0; i < p.files().size(); ++i) {
      const std::string& path = p.file_path(vgprof::FileId(uint32_t(i)));
      if (path.size() > name.size() && path.compare(path.size() - name.size(), name.size(), name) == 0 &&
          path[path.size() - name.size() - 1] == '/')
         return path;
   }
   return "";
}

std::string dir_of(const std::string& path) { return path.substr(0, path.rfind('/')); }

struct Program {
   std::string name;     // in progs_dir()
   std::string source;   // its source file's name
};

void PrintTo(const Program& p, std::ostream* os) { *os << p.name; }

class AnnotateMatchesCachegrind : public ::testing::TestWithParam<Program> {};

TEST_P(AnnotateMatchesCachegrind, EveryListedLineCostsWhatCachegrindSays)
{
   const Program& prog = GetParam();
   TempDir dir;
   auto program = resolve_program({prog.name});
   auto cg = run_tool("cachegrind", {"--cache-sim=no", "--cachegrind-out-file=cg.out"}, program, dir.path());
   auto vp = run_tool("vgprof", {"--call-graph=no", "--vgprof-out-file=vp.json"}, program, dir.path());
   ASSERT_EQ(cg.exit_code, 0) << cg.err;
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   // The sources are in the source tree, not below the directory annotate
   // runs in: named as a place to read them from.
   const std::string source = recorded_source(dir / "vp.json", prog.source);
   ASSERT_FALSE(source.empty());
   auto r = run({cli_path(), "annotate", "vp.json", "--events", "Ir", "--source-dir", dir_of(source)},
                dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   EXPECT_TRUE(r.err.empty()) << r.err;

   // Cachegrind's Ir per (file, line), over every function on the line.
   CachegrindOut ref = read_cachegrind(dir / "cg.out");
   std::map<std::pair<std::string, unsigned>, uint64_t> by_line;
   std::map<std::string, uint64_t> by_file;
   for (const auto& [key, cost] : ref.by_event["Ir"]) {
      by_line[{std::get<0>(key), std::get<2>(key)}] += cost;
      by_file[std::get<0>(key)] += cost;
   }

   const Annotation a = parse_annotation(r.out);
   const Listing* listing = listing_of(a, source);
   ASSERT_NE(listing, nullptr) << r.out;
   EXPECT_TRUE(listing->notes.empty()) << listing->notes[0];
   EXPECT_EQ(listing->total, by_file[source]);

   // Every row: cachegrind's figure for that line, beside that line's text.
   const std::vector<std::string> text = lines_of(source);
   ASSERT_FALSE(listing->rows.empty()) << r.out;
   size_t costly = 0;
   for (const auto& [line, row] : listing->rows) {
      ASSERT_GE(line, 1u);
      ASSERT_LE(line, text.size());
      const auto it = by_line.find({source, unsigned(line)});
      EXPECT_EQ(row.first, it == by_line.end() ? 0 : it->second) << "line " << line << ": " << row.second;
      EXPECT_EQ(row.second.substr(row.second.size() - text[line - 1].size()), text[line - 1]) << "line " << line;
      costly += row.first != 0;
   }
   // ... and no costly line left out.
   size_t cachegrind_lines = 0;
   for (const auto& [key, cost] : by_line)
      cachegrind_lines += key.first == source && key.second != 0;
   EXPECT_EQ(costly, cachegrind_lines);

   // The last block accounts for cachegrind's whole total.
   uint64_t accounted = 0;
   for (const auto& [label, count] : a.ledger) accounted += count;
   EXPECT_EQ(accounted, ref.summary["Ir"]) << r.out;
}

INSTANTIATE_TEST_SUITE_P(Programs, AnnotateMatchesCachegrind,
                         ::testing::Values(Program{"loops", "loops.c"}, Program{"matmul", "matmul.c"}),
                         [](const auto& info) { return info.param.name; });

// Records loops once for the tests of notes.
class AnnotateNotes : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      dir_ = new TempDir;
      auto r = run_tool("vgprof", {"--call-graph=no", "--vgprof-out-file=loops.json"},
                        resolve_program({"loops"}), dir_->path());
      ASSERT_EQ(r.exit_code, 0) << r.err;
      source_ = recorded_source(dir_->path() + "/loops.json", "loops.c");
   }
   static void TearDownTestSuite() { delete dir_; }

   static RunResult annotate(const std::vector<std::string>& more)
   {
      std::vector<std::string> argv = {cli_path(), "annotate", "loops.json", "--events", "Ir"};
      argv.insert(argv.end(), more.begin(), more.end());
      return run(argv, dir_->path());
   }

   static TempDir* dir_;
   static std::string source_;
};
TempDir* AnnotateNotes::dir_ = nullptr;
std::string AnnotateNotes::source_;

TEST_F(AnnotateNotes, MissingSourceIsANoteNotAnError)
{
   ASSERT_FALSE(source_.empty());
   const std::string nowhere = dir_->path() + "/nowhere";
   auto r = annotate({"loops.c", "--subst", dir_of(source_) + "=" + nowhere});
   EXPECT_EQ(r.exit_code, 0) << r.err;
   const Annotation a = parse_annotation(r.out);
   const Listing* listing = listing_of(a, source_);
   ASSERT_NE(listing, nullptr) << r.out;
   ASSERT_EQ(listing->notes.size(), 1u) << r.out;
   EXPECT_EQ(listing->notes[0], "source file not found (looked for " + nowhere + "/loops.c)");
   EXPECT_TRUE(listing->rows.empty());
   // Its costs are accounted for as unread.
   bool unread = false;
   for (const auto& [label, count] : a.ledger)
      if (label == "in listed files whose source could not be read") unread = count == listing->total;
   EXPECT_TRUE(unread) << r.out;
}

TEST_F(AnnotateNotes, SourceNewerThanTheProfileIsANote)
{
   ASSERT_FALSE(source_.empty());
   const std::string copy = dir_->path() + "/loops.c";
   write_file(copy, read_file(source_));
   struct stat profile;
   ASSERT_EQ(stat((dir_->path() + "/loops.json").c_str(), &profile), 0);
   const struct timespec later[2] = {{profile.st_mtim.tv_sec + 60, 0}, {profile.st_mtim.tv_sec + 60, 0}};
   ASSERT_EQ(utimensat(AT_FDCWD, copy.c_str(), later, 0), 0);

   auto r = annotate({"--subst", dir_of(source_) + "=" + dir_->path()});
   EXPECT_EQ(r.exit_code, 0) << r.err;
   const Annotation a = parse_annotation(r.out);
   const Listing* listing = listing_of(a, source_);
   ASSERT_NE(listing, nullptr) << r.out;
   EXPECT_EQ(listing->read_from, copy);
   ASSERT_EQ(listing->notes.size(), 1u) << r.out;
   EXPECT_EQ(listing->notes[0], copy + " was modified after the profile was written; the costs "
                                       "may belong to other lines than those shown");
   EXPECT_FALSE(listing->rows.empty());   // still listed

   // A copy older than the profile is trusted.
   const struct timespec earlier[2] = {{profile.st_mtim.tv_sec - 60, 0}, {profile.st_mtim.tv_sec - 60, 0}};
   ASSERT_EQ(utimensat(AT_FDCWD, copy.c_str(), earlier, 0), 0);
   auto older = annotate({"--subst", dir_of(source_) + "=" + dir_->path()});
   EXPECT_EQ(older.out.find("modified after"), std::string::npos) << older.out;
}

TEST_F(AnnotateNotes, SourceNamingNoFileIsAnError)
{
   auto r = annotate({"no_such_file.c"});
   EXPECT_EQ(r.exit_code, 2);
   EXPECT_TRUE(r.out.empty()) << r.out;
   EXPECT_NE(r.err.find("\"no_such_file.c\" names no source file of the profile"), std::string::npos) << r.err;
}

TEST_F(AnnotateNotes, AsmWithoutPerInstructionCostsIsAnError)
{
   auto r = annotate({"--asm"});
   EXPECT_EQ(r.exit_code, 2);
   EXPECT_NE(r.err.find("--asm needs per-instruction costs"), std::string::npos) << r.err;
}

// --asm on a position-independent executable: each instruction's Ir is
// callgrind's for that address of the file, which also proves the load
// offset vgprof worked out (the profile holds run-time addresses,
// callgrind's file writes the file's).
TEST(AnnotateAsm, EveryListedInstructionCostsWhatCallgrindSays)
{
   TempDir dir;
   auto program = resolve_program({"loops"});
   auto cl = run_tool("callgrind",
                      {"--dump-instr=yes", "--dump-line=no", "--compress-pos=no", "--compress-strings=no",
                       "--callgrind-out-file=cl.out"},
                      program, dir.path());
   auto vp = run_tool("vgprof", {"--dump-instr=yes", "--vgprof-out-file=vp.json"}, program, dir.path());
   ASSERT_EQ(cl.exit_code, 0) << cl.err;
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   auto r = run({cli_path(), "annotate", "vp.json", "loops.c", "--asm", "--all", "--threshold", "0",
                 "--events", "Ir"},
                dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;

   const CallgrindInstrs ref = read_callgrind_instrs(dir / "cl.out");
   const Annotation a = parse_annotation(r.out);
   // loops.c's functions: main, sum_to and grid.
   size_t compared = 0;
   for (const char* fn : {"main", "sum_to", "grid"}) {
      const Listing* listing = listing_of(a, std::string(fn) + " (");
      ASSERT_NE(listing, nullptr) << fn << "\n" << r.out;
      EXPECT_TRUE(listing->notes.empty()) << fn << ": " << listing->notes[0];
      uint64_t listed_total = 0;
      for (const auto& [addr, row] : listing->rows) {
         listed_total += row.first;
         const InstrKey key{program[0], fn, addr};
         if (ref.call_sites.count(key)) continue;   // callgrind adds PLT stubs there
         const auto it = ref.self.find(key);
         EXPECT_EQ(row.first, it == ref.self.end() ? 0 : it->second)
             << fn << " at " << std::hex << addr << ": " << row.second;
         ++compared;
      }
      // Whole functions: every instruction callgrind saw run is listed.
      for (const auto& [key, cost] : ref.self) {
         if (std::get<0>(key) != program[0] || std::get<1>(key) != fn) continue;
         EXPECT_EQ(listing->rows.count(std::get<2>(key)), 1u) << fn << " " << std::hex << std::get<2>(key);
      }
      EXPECT_EQ(listed_total, listing->total) << fn;
   }
   EXPECT_GT(compared, 30u);
}

// --asm interleaves each run of instructions with the source line it came
// from, as addr2line, which reads the same debug information apart from
// objdump, places each address.
TEST(AnnotateAsm, EachInstructionFollowsTheSourceLineItCameFrom)
{
   TempDir dir;
   auto program = resolve_program({"loops"});
   auto vp = run_tool("vgprof", {"--dump-instr=yes", "--vgprof-out-file=vp.json"}, program, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   auto r = run({cli_path(), "annotate", "vp.json", "loops.c", "--asm", "--all", "--threshold", "0", "--events", "Ir"},
                dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   const Annotation a = parse_annotation(r.out);
   const Listing* listing = listing_of(a, "sum_to (");
   ASSERT_NE(listing, nullptr) << r.out;
   ASSERT_FALSE(listing->sources.empty()) << r.out;
   std::vector<std::string> argv{"addr2line", "-e", program[0]};
   std::vector<uint64_t> addrs;
   for (const auto& [addr, row] : listing->rows) {
      char hex[32];
      std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(addr));
      argv.push_back(hex);
      addrs.push_back(addr);
   }
   auto lines = run(argv, dir.path());
   ASSERT_EQ(lines.exit_code, 0) << lines.err;
   std::istringstream in(lines.out);
   size_t compared = 0;
   for (uint64_t addr : addrs) {
      std::string place;
      std::getline(in, place);
      place = place.substr(place.rfind('/') + 1);
      place = place.substr(0, place.find(' '));   // " (discriminator 1)"
      const size_t above = listing->source_of.at(addr);
      if (place.find(":?") != std::string::npos || above == 0) continue;
      const std::string& source = listing->sources[above - 1];
      EXPECT_EQ(source.substr(0, source.find_first_of(" ")), place) << std::hex << addr << "\n" << r.out;
      ++compared;
   }
   EXPECT_GT(compared, 10u);
}

}  // namespace
