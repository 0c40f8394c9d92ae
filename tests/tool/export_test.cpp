// SPDX-License-Identifier: GPL-2.0-or-later
// export_test.cpp: `vgprof export` on recorded profiles. The callgrind file
// is read by callgrind_annotate, which must find in it every figure
// `vgprof report` shows; the collapsed stacks add up to the total and
// their paths through paths.c cost what callgrind's call edges say.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"
#include "vgprof/load.hpp"

using namespace vgtest;

namespace {

std::string prog(const std::string& name) { return progs_dir() + "/" + name; }

using Costs = std::vector<uint64_t>;               // one per event
using ByFunction = std::map<std::string, Costs>;   // function name -> costs

void add_to(Costs& into, const Costs& costs)
{
   into.resize(costs.size(), 0);
   for (size_t e = 0; e < costs.size(); e++) into[e] += costs[e];
}

// Reads `n` counts from the start of a callgrind_annotate row ("1,234",
// "1,234 (5.67%)" or "." for none, each), returning them and the rest of
// the row after them.
std::pair<Costs, std::string> annotate_counts(const std::string& row, size_t n)
{
   Costs counts;
   size_t at = 0;
   auto skip_blanks = [&] { while (at < row.size() && row[at] == ' ') at++; };
   for (size_t i = 0; i < n; i++) {
      skip_blanks();
      size_t end = row.find(' ', at);
      std::string token = row.substr(at, end == std::string::npos ? std::string::npos : end - at);
      at = end == std::string::npos ? row.size() : end;
      std::string digits;
      for (char c : token) if (c != ',') digits += c;
      counts.push_back(digits == "." ? 0 : std::stoull(digits));
      skip_blanks();
      if (at < row.size() && row[at] == '(') at = row.find(')', at) + 1;
   }
   skip_blanks();
   return {counts, row.substr(at)};
}

struct Annotated {
   std::vector<std::string> events;
   Costs totals;
   // By "file:function" as callgrind_annotate names them.
   std::map<std::string, Costs> functions;
};

// callgrind_annotate's summary: the events, the PROGRAM TOTALS row and one
// row per "file:function [object]" after the table's header.
Annotated read_annotate(const std::string& out)
{
   Annotated a;
   std::istringstream in(out);
   bool in_functions = false;
   for (std::string line; std::getline(in, line);) {
      if (line.rfind("Events recorded:", 0) == 0) {
         std::istringstream ev(line.substr(16));
         for (std::string e; ev >> e;) a.events.push_back(e);
      } else if (line.find("PROGRAM TOTALS") != std::string::npos) {
         a.totals = annotate_counts(line, a.events.size()).first;
      } else if (line.find(" file:function") != std::string::npos) {
         in_functions = true;
      } else if (in_functions && !line.empty() && line[0] != '-') {
         auto [counts, name] = annotate_counts(line, a.events.size());
         const size_t object = name.rfind(" [");
         if (!name.empty() && name.back() == ']' && object != std::string::npos) name.erase(object);
         add_to(a.functions[name], counts);
      }
   }
   return a;
}

// The function part of callgrind_annotate's "file:function".
std::string function_of(const std::string& file_function)
{
   return file_function.substr(file_function.find(':') + 1);
}

ByFunction without_zeros(ByFunction m)
{
   for (auto it = m.begin(); it != m.end();)
      it = std::all_of(it->second.begin(), it->second.end(), [](uint64_t c) { return c == 0; })
               ? m.erase(it) : std::next(it);
   return m;
}

struct Reported {
   std::vector<std::string> events;
   Costs totals;
   ByFunction self, inclusive;   // by function name
};

Costs costs_of(const boost::json::value& by_event, const std::vector<std::string>& events)
{
   Costs c;
   for (const auto& e : events) c.push_back(by_event.at(e).to_number<uint64_t>());
   return c;
}

Reported read_report(const std::string& json)
{
   Reported r;
   boost::json::value doc = boost::json::parse(json);
   for (const auto& e : doc.at("events").as_array()) r.events.emplace_back(e.as_string().c_str());
   r.totals = costs_of(doc.at("totals"), r.events);
   for (const auto& f : doc.at("functions").as_array()) {
      std::string name = f.at("name").as_string().c_str();
      add_to(r.self[name], costs_of(f.at("self"), r.events));
      add_to(r.inclusive[name], costs_of(f.at("inclusive"), r.events));
   }
   return r;
}

std::string show(const ByFunction& m)
{
   std::string s;
   for (const auto& [name, costs] : m) {
      s += "  " + name + ":";
      for (uint64_t c : costs) s += " " + std::to_string(c);
      s += "\n";
   }
   return s;
}

// One recording of paths with every cache and branch event, exported once,
// read by vgprof report and by callgrind_annotate (both ways).
class CallgrindExport : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      dir_ = new TempDir;
      auto vp = run_tool("vgprof", {"--cache-sim=yes", "--branch-sim=yes", "--vgprof-out-file=vp.json"},
                         {prog("paths")}, dir_->path());
      ASSERT_EQ(vp.exit_code, 0) << vp.err;
      auto ex = run({cli_path(), "export", "--format", "callgrind", "-o", "vp.callgrind", "vp.json"},
                    dir_->path());
      ASSERT_EQ(ex.exit_code, 0) << ex.err;
      ASSERT_EQ(ex.err, "");
      auto report = run({cli_path(), "report", "--format", "json", "--threshold", "0", "vp.json"},
                        dir_->path());
      ASSERT_EQ(report.exit_code, 0) << report.err;
      reported_ = new Reported(read_report(report.out));
      for (bool inclusive : {false, true}) {
         auto ca = run({callgrind_annotate_path(), "--threshold=100", "--auto=no",
                        std::string("--inclusive=") + (inclusive ? "yes" : "no"), "vp.callgrind"},
                       dir_->path());
         ASSERT_EQ(ca.exit_code, 0) << ca.err;
         ASSERT_EQ(ca.err, "") << "callgrind_annotate complained";
         (inclusive ? annotated_inclusive_ : annotated_self_) = new Annotated(read_annotate(ca.out));
      }
   }
   static void TearDownTestSuite()
   {
      delete annotated_self_;
      delete annotated_inclusive_;
      delete reported_;
      delete dir_;
   }

   static TempDir* dir_;
   static Reported* reported_;
   static Annotated *annotated_self_, *annotated_inclusive_;
};
TempDir* CallgrindExport::dir_ = nullptr;
Reported* CallgrindExport::reported_ = nullptr;
Annotated* CallgrindExport::annotated_self_ = nullptr;
Annotated* CallgrindExport::annotated_inclusive_ = nullptr;

TEST_F(CallgrindExport, CallgrindAnnotateShowsTheReportsEventsAndTotals)
{
   ASSERT_EQ(reported_->events.size(), 13u);
   EXPECT_EQ(annotated_self_->events, reported_->events);
   EXPECT_EQ(annotated_self_->totals, reported_->totals);
}

// callgrind_annotate lists a function once per file its code comes from
// (inlined code); vgprof report once per function: both are added up by
// name before comparing.
TEST_F(CallgrindExport, CallgrindAnnotateShowsEveryFunctionsSelfCostsAsTheReportDoes)
{
   ByFunction annotated;
   for (const auto& [file_function, costs] : annotated_self_->functions)
      add_to(annotated[function_of(file_function)], costs);
   ByFunction mine = without_zeros(reported_->self), theirs = without_zeros(annotated);
   EXPECT_GT(mine.size(), 20u);
   EXPECT_EQ(mine, theirs) << "vgprof report:\n" << show(mine) << "callgrind_annotate:\n" << show(theirs);
}

TEST_F(CallgrindExport, CallgrindAnnotateInclusiveCostsOfTheProgramsFunctionsAreTheReports)
{
   for (const std::string name : {"main", "a", "b", "c"}) {
      const auto it = std::find_if(annotated_inclusive_->functions.begin(),
                                   annotated_inclusive_->functions.end(), [&](const auto& f) {
                                      return function_of(f.first) == name &&
                                             f.first.find("paths.c:") != std::string::npos;
                                   });
      ASSERT_NE(it, annotated_inclusive_->functions.end()) << name;
      EXPECT_EQ(it->second, reported_->inclusive.at(name)) << name;
   }
}

// --- collapsed stacks ---------------------------------------------------------

std::map<std::string, uint64_t> read_collapsed(const std::string& text)
{
   std::map<std::string, uint64_t> stacks;
   std::istringstream in(text);
   for (std::string line; std::getline(in, line);) {
      const size_t space = line.rfind(' ');
      stacks[line.substr(0, space)] += std::stoull(line.substr(space + 1));
   }
   return stacks;
}

// The one stack that ends with `tail`, and its count.
std::pair<std::string, uint64_t> stack_ending(const std::map<std::string, uint64_t>& stacks,
                                              const std::string& tail)
{
   std::pair<std::string, uint64_t> found;
   int n = 0;
   for (const auto& [stack, count] : stacks)
      if (ends_with(stack, tail)) {
         found = {stack, count};
         n++;
      }
   EXPECT_EQ(n, 1) << "stacks ending with " << tail;
   return found;
}

// paths.c: main calls a() 3 times and b() twice; both call c(), a() with
// 100 iterations, b() twice with 700. c calls nothing, so its cost under a
// is the inclusive cost of callgrind's a -> c edge, and a's own cost
// under main that of main -> a less a -> c.
TEST(CollapsedExport, StacksThroughPathsCostWhatCallgrindsEdgesSay)
{
   TempDir dir;
   std::vector<std::string> program{prog("paths")};
   auto cl = run_tool("callgrind", {"--callgrind-out-file=cl.out"}, program, dir.path());
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, program, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   ASSERT_EQ(cl.exit_code, 0) << cl.err;
   auto ex = run({cli_path(), "export", "--format", "collapsed", "-o", "-", "vp.json"}, dir.path());
   ASSERT_EQ(ex.exit_code, 0) << ex.err;
   const auto stacks = read_collapsed(ex.out);

   uint64_t sum = 0;
   for (const auto& [stack, count] : stacks) sum += count;
   vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   EXPECT_EQ(sum, p.meta().totals[0]);

   CallMap calls = read_callgrind_calls(dir / "cl.out");
   const auto edge = [&](const char* from, const char* to) { return calls.at({from, to}).inclusive; };
   const auto a_c = stack_ending(stacks, ";main;a;c"), b_c = stack_ending(stacks, ";main;b;c");
   EXPECT_EQ(a_c.second, edge("a", "c"));
   EXPECT_EQ(b_c.second, edge("b", "c"));
   EXPECT_EQ(stack_ending(stacks, ";main;a").second, edge("main", "a") - edge("a", "c"));
   EXPECT_EQ(stack_ending(stacks, ";main;b").second, edge("main", "b") - edge("b", "c"));
   // Both stacks of c begin where main's does.
   EXPECT_EQ(a_c.first.substr(0, a_c.first.size() - 7), b_c.first.substr(0, b_c.first.size() - 7));
}

TEST(CollapsedExport, AProfileWithoutACallGraphIsAnErrorAndWritesNothing)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--call-graph=no", "--vgprof-out-file=flat.json"}, {prog("paths")},
                      dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   auto ex = run({cli_path(), "export", "--format", "collapsed", "-o", "out.folded", "flat.json"},
                 dir.path());
   EXPECT_EQ(ex.exit_code, 2);
   EXPECT_EQ(ex.err, "vgprof: flat.json: collapsed stacks need the call-path tree, which this "
                     "profile does not have (recorded with --call-graph=no)\n");
   EXPECT_EQ(dir.files_starting_with("out.folded"), std::vector<std::string>{});
}

}  // namespace
