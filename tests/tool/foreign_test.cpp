// SPDX-License-Identifier: GPL-2.0-or-later
// foreign_test.cpp: `vgprof report` on callgrind's and cachegrind's own
// output files shows the figures cg_annotate and callgrind_annotate
// (--inclusive=yes too) print for the same files; compressed copies read
// the same; damaged files are clean errors.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <zlib.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"

using namespace vgtest;

namespace {

namespace json = boost::json;

struct ReportedFunction {
   std::string name, file, object;
   std::vector<uint64_t> self, inclusive;
};

struct Reported {
   std::vector<std::string> events;
   std::vector<uint64_t> totals;
   std::vector<ReportedFunction> functions;
};

std::vector<uint64_t> costs_of(const json::value& v, const std::vector<std::string>& events)
{
   std::vector<uint64_t> out;
   for (const auto& e : events) out.push_back(v.at(e).to_number<uint64_t>());
   return out;
}

// Every function of `vgprof report --format json --threshold 0 FILE`.
Reported vgprof_report(const std::string& file, const std::string& dir)
{
   auto r = run({cli_path(), "report", "--format", "json", "--threshold", "0", file}, dir);
   EXPECT_EQ(r.exit_code, 0) << r.err;
   const json::value doc = json::parse(r.out);
   Reported rep;
   for (const auto& e : doc.at("events").as_array()) rep.events.emplace_back(e.as_string());
   rep.totals = costs_of(doc.at("totals"), rep.events);
   for (const auto& f : doc.at("functions").as_array()) {
      ReportedFunction fn{std::string(f.at("name").as_string()), std::string(f.at("file").as_string()),
                          std::string(f.at("object").as_string()), costs_of(f.at("self"), rep.events), {}};
      if (const json::value* incl = f.as_object().if_contains("inclusive"))
         fn.inclusive = costs_of(*incl, rep.events);
      rep.functions.push_back(fn);
   }
   return rep;
}

// "fib'2" -> "fib": callgrind's recursion levels, which vgprof folds.
std::string base_name(const std::string& name, bool* is_base = nullptr)
{
   const size_t quote = name.rfind('\'');
   const bool level = quote != std::string::npos && quote + 1 < name.size() &&
                      std::all_of(name.begin() + long(quote) + 1, name.end(),
                                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
   if (is_base) *is_base = !level;
   return level ? name.substr(0, quote) : name;
}

std::vector<uint64_t>& add(std::vector<uint64_t>& into, const std::vector<uint64_t>& costs)
{
   into.resize(costs.size(), 0);
   for (size_t e = 0; e < costs.size(); e++) into[e] += costs[e];
   return into;
}

using Key = std::pair<std::string, std::string>;   // (file, function)

std::string show(const Key& k) { return k.first + ":" + k.second; }

// The counts of the file's "totals:" line.
std::vector<uint64_t> totals_line(const std::string& path)
{
   std::istringstream in(read_file(path));
   for (std::string line; std::getline(in, line);)
      if (line.rfind("totals: ", 0) == 0) {
         std::istringstream counts(line.substr(8));
         std::vector<uint64_t> out;
         for (uint64_t n; counts >> n;) out.push_back(n);
         return out;
      }
   return {};
}

std::string gzip(const std::string& text)
{
   z_stream s{};
   deflateInit2(&s, 6, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY);
   std::string out(deflateBound(&s, uLong(text.size())), '\0');
   s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
   s.avail_in = uInt(text.size());
   s.next_out = reinterpret_cast<Bytef*>(out.data());
   s.avail_out = uInt(out.size());
   deflate(&s, Z_FINISH);
   out.resize(s.total_out);
   deflateEnd(&s);
   return out;
}

// Records the recursion program (direct and mutual recursion) once under
// callgrind with its defaults, once with every event and per-instruction
// positions, and once under cachegrind with both simulations.
class Foreign : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      dir_ = new TempDir;
      const std::vector<std::string> program = resolve_program({"recursion"});
      auto plain = run_tool("callgrind", {"--callgrind-out-file=callgrind.out"}, program, dir_->path());
      ASSERT_EQ(plain.exit_code, 0) << plain.err;
      auto full = run_tool("callgrind",
                           {"--callgrind-out-file=callgrind-full.out", "--dump-instr=yes",
                            "--cache-sim=yes", "--branch-sim=yes"},
                           program, dir_->path());
      ASSERT_EQ(full.exit_code, 0) << full.err;
      auto cg = run_tool("cachegrind",
                         {"--cachegrind-out-file=cachegrind.out", "--cache-sim=yes", "--branch-sim=yes"},
                         program, dir_->path());
      ASSERT_EQ(cg.exit_code, 0) << cg.err;
   }
   static void TearDownTestSuite() { delete dir_; }

   static std::string path(const std::string& name) { return *dir_ / name; }

   static AnnotateTable annotate(const std::vector<std::string>& argv, size_t events)
   {
      auto r = run(argv, dir_->path());
      EXPECT_EQ(r.exit_code, 0) << r.err;
      return read_annotate(r.out, events);
   }

   // Compares vgprof's report of a callgrind file with callgrind_annotate's
   // self and --inclusive=yes figures, function by function, every event.
   static void expect_callgrind_annotate_figures(const std::string& file);

   static TempDir* dir_;
};
TempDir* Foreign::dir_ = nullptr;

TEST_F(Foreign, CachegrindFileReportsCgAnnotatesTotalsAndFunctions)
{
   const Reported vg = vgprof_report("cachegrind.out", dir_->path());
   ASSERT_EQ(vg.events.size(), 13u);   // Ir, 8 cache events, 4 branch events
   const AnnotateTable cg =
      annotate({"cg_annotate", "--auto=no", "--threshold=0", "cachegrind.out"}, vg.events.size());
   EXPECT_EQ(vg.totals, cg.totals);
   std::map<Key, std::vector<uint64_t>> mine;
   for (const auto& f : vg.functions) add(mine[{f.file, f.name}], f.self);
   EXPECT_EQ(mine.size(), cg.rows.size());
   size_t compared = 0;
   for (const auto& row : cg.rows) {
      const Key key{row.file, row.function};
      auto it = mine.find(key);
      ASSERT_NE(it, mine.end()) << "vgprof has no " << show(key);
      EXPECT_EQ(it->second, row.costs) << show(key);
      compared++;
   }
   EXPECT_GT(compared, 50u);
}

void Foreign::expect_callgrind_annotate_figures(const std::string& file)
{
   const Reported vg = vgprof_report(file, dir_->path());
   const size_t events = vg.events.size();
   const AnnotateTable self =
      annotate({"callgrind_annotate", "--auto=no", "--threshold=100", file}, events);
   const AnnotateTable inclusive = annotate(
      {"callgrind_annotate", "--auto=no", "--threshold=100", "--inclusive=yes", file}, events);
   EXPECT_EQ(vg.totals, totals_line(path(file)));

   // callgrind_annotate lists the lines a function inlined from another
   // file as a row of their own (no object); vgprof keeps them in the
   // function, so such functions are left out. It keys functions by file
   // and name only, so vgprof's are summed by those too.
   std::set<std::string> with_inlined_rows;
   for (const auto& row : self.rows)
      if (row.object.empty()) with_inlined_rows.insert(base_name(row.function));
   std::map<Key, std::vector<uint64_t>> mine_self, mine_inclusive;
   std::map<Key, size_t> functions_with_key;
   for (const auto& f : vg.functions) {
      const Key key{f.file, f.name};
      add(mine_self[key], f.self);
      mine_inclusive[key] = f.inclusive;
      functions_with_key[key]++;
   }

   // Self: a function's recursion levels add up.
   std::map<Key, std::vector<uint64_t>> theirs_self;
   for (const auto& row : self.rows)
      if (!row.object.empty()) add(theirs_self[{row.file, base_name(row.function)}], row.costs);
   size_t compared = 0;
   for (const auto& [key, costs] : theirs_self) {
      if (with_inlined_rows.count(key.second)) continue;
      EXPECT_EQ(mine_self[key], costs) << "self of " << show(key);
      compared++;
   }
   EXPECT_GT(compared, 50u);
   for (const char* own : {"main", "fib", "is_even", "is_odd"})
      EXPECT_EQ(with_inlined_rows.count(own), 0u) << own;

   // Inclusive: that of the outermost level (the function's name without
   // a level), which callgrind_annotate counts once however deep it went.
   compared = 0;
   for (const auto& row : inclusive.rows) {
      bool is_base = false;
      const Key key{row.file, base_name(row.function, &is_base)};
      if (row.object.empty() || !is_base || with_inlined_rows.count(key.second) ||
          functions_with_key[key] != 1)
         continue;
      EXPECT_EQ(mine_inclusive[key], row.costs) << "inclusive of " << show(key);
      compared++;
   }
   EXPECT_GT(compared, 50u);
}

TEST_F(Foreign, CallgrindFileReportsCallgrindAnnotatesSelfAndInclusiveCosts)
{
   expect_callgrind_annotate_figures("callgrind.out");
   // Without cache simulation callgrind's summary: equals its totals:, and
   // callgrind_annotate prints it as the program total.
   const Reported vg = vgprof_report("callgrind.out", dir_->path());
   const AnnotateTable ann =
      annotate({"callgrind_annotate", "--auto=no", "callgrind.out"}, vg.events.size());
   EXPECT_EQ(vg.totals, ann.totals);
}

TEST_F(Foreign, CallgrindFileWithEveryEventAndInstructionsReportsTheSameFigures)
{
   expect_callgrind_annotate_figures("callgrind-full.out");
}

TEST_F(Foreign, RecursionLevelsAreFoldedIntoOneFunction)
{
   const Reported vg = vgprof_report("callgrind.out", dir_->path());
   std::set<std::string> names;
   for (const auto& f : vg.functions) names.insert(f.name);
   EXPECT_TRUE(names.count("fib") && names.count("is_even") && names.count("is_odd"));
   for (const auto& name : names) EXPECT_EQ(base_name(name), name);
}

TEST_F(Foreign, CompressedCopiesReportTheSame)
{
   for (const std::string file : {"callgrind.out", "cachegrind.out"}) {
      write_file(path(file + ".gz"), gzip(read_file(path(file))));
      auto plain = run({cli_path(), "report", file}, dir_->path());
      auto packed = run({cli_path(), "report", file + ".gz"}, dir_->path());
      ASSERT_EQ(packed.exit_code, 0) << packed.err;
      // Only the "Profile:" line, naming the file, differs.
      const size_t plain_body = plain.out.find('\n', plain.out.find("Profile:"));
      const size_t packed_body = packed.out.find('\n', packed.out.find("Profile:"));
      EXPECT_EQ(plain.out.substr(plain_body), packed.out.substr(packed_body));
   }
}

TEST_F(Foreign, DamagedFilesAreCleanErrors)
{
   const std::string text = read_file(path("callgrind.out"));
   write_file(path("cut.out"), text.substr(0, text.size() / 2));
   std::string damaged = text;
   const size_t cost = damaged.find("\n0 ") + 1;   // the first "0 COST" line
   damaged.replace(cost, 2, "0 x");
   write_file(path("damaged.out"), damaged);
   const std::string gz = gzip(text);
   write_file(path("cut.out.gz"), gz.substr(0, gz.size() / 2));
   const size_t line = size_t(std::count(text.begin(), text.begin() + long(cost), '\n')) + 1;
   const std::map<std::string, std::string> expected = {
      {"cut.out", "cut.out: "},
      {"damaged.out", "damaged.out: line " + std::to_string(line) + ": expected a count"},
      {"cut.out.gz", "cut.out.gz: truncated gzip data"},
   };
   for (const auto& [file, what] : expected) {
      auto r = run({cli_path(), "report", file}, dir_->path());
      EXPECT_EQ(r.exit_code, 2) << file << ": " << r.err;
      EXPECT_EQ(r.signal, 0);
      EXPECT_TRUE(r.out.empty());
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      EXPECT_EQ(r.err.rfind("vgprof: " + what, 0), 0u) << r.err;
   }
}

}  // namespace
