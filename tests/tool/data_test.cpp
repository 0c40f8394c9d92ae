// SPDX-License-Identifier: GPL-2.0-or-later
// test_data.cpp: the data objects against cachegrind on the same binary
// and cache geometry.  tests/progs/data_objects.c marks each line that
// touches one object (and nothing else in memory) with the object's name,
// and each allocation of one with "site: NAME": the object's accesses and
// misses, event by event, must be cachegrind's on the lines marked with it,
// and each function's misses on the object cachegrind's on that function's
// marked lines.  Then the sum rule on programs with threads, collection control,
// dumps and pools: the data objects add up to the program's totals.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "harness.hpp"
#include "vgprof/data.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/load.hpp"

using namespace vgtest;

namespace {

const std::vector<std::string> kGeometry = {"--I1=32768,8,64", "--D1=32768,8,64",
                                            "--LL=8388608,16,64"};

// The source's markers: line -> name, for "data: NAME" and "site: NAME".
struct Markers {
   std::map<unsigned, std::string> data, site;
};

Markers read_markers(const std::string& path)
{
   Markers m;
   std::ifstream in(path);
   const std::regex marker(R"(/\* (data|site): (\w+) \*/)");
   unsigned n = 0;
   for (std::string line; std::getline(in, line);) {
      ++n;
      std::smatch match;
      if (std::regex_search(line, match, marker))
         (match[1] == "data" ? m.data : m.site)[n] = match[2];
   }
   return m;
}

// Cachegrind's data events summed over the lines of `file` marked `name`
// (of function `fn` only, unless empty).
vgprof::DataCost marked_cost(const CachegrindOut& cg, const Markers& m, const std::string& file,
                             const std::string& name, const std::string& fn = "")
{
   vgprof::DataCost sum{};
   for (size_t e = 0; e < vgprof::kDataEvents; ++e) {
      const auto it = cg.by_event.find(vgprof::kDataEventNames[e]);
      if (it == cg.by_event.end()) continue;
      for (const auto& [key, cost] : it->second) {
         const auto& [f, function, line] = key;
         const auto mark = m.data.find(line);
         if (f == file && mark != m.data.end() && mark->second == name
             && (fn.empty() || function == fn))
            sum[e] += cost;
      }
   }
   return sum;
}

// The misses of a cost: what is counted per function.
vgprof::DataCost misses(vgprof::DataCost c)
{
   c[0] = c[3] = 0;
   return c;
}

vgprof::DataCost plus(vgprof::DataCost a, const vgprof::DataCost& b)
{
   for (size_t e = 0; e < vgprof::kDataEvents; ++e) a[e] += b[e];
   return a;
}

std::string text(const vgprof::DataCost& c)
{
   std::string s;
   for (size_t e = 0; e < vgprof::kDataEvents; ++e)
      s += std::string(e ? " " : "") + vgprof::kDataEventNames[e] + "=" + std::to_string(c[e]);
   return s;
}

// The heap site object allocated from the line marked "site: name".
vgprof::DataObjId site_object(const vgprof::Profile& p, const Markers& m, const std::string& name)
{
   const vgprof::DataProfile& data = *p.data();
   for (size_t i = 0; i < data.objects.size(); ++i) {
      const vgprof::DataObject& o = data.objects[i];
      if (!o.site) continue;
      for (vgprof::FrameId f : p.heap()->site(*o.site).frames) {
         const auto mark = m.site.find(p.heap()->frame(f).line);
         if (mark != m.site.end() && mark->second == name)
            return vgprof::DataObjId(uint32_t(i));
      }
   }
   ADD_FAILURE() << "no heap site allocated on the line marked site: " << name;
   return vgprof::DataObjId(0);
}

// The object's offsets in [from, to), summed.
vgprof::DataCost offsets_cost(const vgprof::DataProfile& d, vgprof::DataObjId id, uint64_t from,
                              uint64_t to)
{
   vgprof::DataCost sum{};
   const auto [first, last] = d.offsets_of(id);
   for (size_t i = first; i < last; ++i)
      if (d.offsets[i].offset >= from && d.offsets[i].offset < to)
         sum = plus(sum, d.offsets[i].cost);
   return sum;
}

class DataObjects : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      dir_ = new TempDir;
      std::vector<std::string> cg = kGeometry, vp = kGeometry;
      cg.insert(cg.end(), {"--cache-sim=yes", "--vex-guest-chase=no", "--vex-iropt-unroll-thresh=0",
                           "--cachegrind-out-file=cg.out"});
      vp.push_back("--vgprof-out-file=vp.json");
      const auto program = resolve_program({"data_objects"});
      ASSERT_EQ(run_tool("cachegrind", cg, program, dir_->path()).exit_code, 0);
      ASSERT_EQ(run_tool("vgprof", vp, program, dir_->path()).exit_code, 0);
      cg_ = new CachegrindOut(read_cachegrind(*dir_ / "cg.out"));
      profile_ = new vgprof::Profile(vgprof::load_profile(*dir_ / "vp.json"));
      for (const auto& [event, lines] : cg_->by_event)
         for (const auto& [key, cost] : lines)
            if (ends_with(std::get<0>(key), "data_objects.c"))
               source_ = std::get<0>(key);
      markers_ = new Markers(read_markers(source_));
   }
   static void TearDownTestSuite()
   {
      delete profile_;
      delete cg_;
      delete markers_;
      delete dir_;
   }

   static const vgprof::DataProfile& data() { return *profile_->data(); }

   // Each function's misses on the object equal cachegrind's on that
   // function's lines marked `name`.
   static void expect_functions_match(vgprof::DataObjId id, const std::string& name)
   {
      const auto [first, last] = data().fns_of(id);
      vgprof::DataCost sum{};
      for (size_t i = first; i < last; ++i) {
         const vgprof::DataFunction& f = data().fns[i];
         const std::string& fn = profile_->fn_name(f.fn);
         EXPECT_EQ(text(f.cost), text(misses(marked_cost(*cg_, *markers_, source_, name, fn))))
            << name << " in " << fn;
         sum = plus(sum, f.cost);
      }
      EXPECT_EQ(text(sum), text(misses(data().object(id).cost))) << name;
   }

   static TempDir* dir_;
   static CachegrindOut* cg_;
   static vgprof::Profile* profile_;
   static Markers* markers_;
   static std::string source_;
};

TempDir* DataObjects::dir_;
CachegrindOut* DataObjects::cg_;
vgprof::Profile* DataObjects::profile_;
Markers* DataObjects::markers_;
std::string DataObjects::source_;

TEST_F(DataObjects, EachArraysMissesAreCachegrindsOnTheLinesThatTouchOnlyIt)
{
   ASSERT_NE(profile_->data(), nullptr);
   ASSERT_FALSE(source_.empty());
   for (const char* name : {"rows", "cols"}) {
      const vgprof::DataObjId id = site_object(*profile_, *markers_, name);
      const vgprof::DataCost expected = marked_cost(*cg_, *markers_, source_, name);
      EXPECT_NE(expected[1], 0u) << name << ": the walk misses";
      EXPECT_EQ(text(data().object(id).cost), text(expected)) << name;
      expect_functions_match(id, name);
   }
   // Row order misses once per line, column order once per access.
   const vgprof::DataCost rows = data().object(site_object(*profile_, *markers_, "rows")).cost;
   const vgprof::DataCost cols = data().object(site_object(*profile_, *markers_, "cols")).cost;
   EXPECT_LT(rows[1] * 7, rows[0]);
   EXPECT_EQ(cols[1], cols[0]);
}

TEST_F(DataObjects, TheHotFieldsOffsetsHoldTheWalksMisses)
{
   const vgprof::DataObjId id = site_object(*profile_, *markers_, "nodes");
   const vgprof::DataObject& nodes = data().object(id);
   EXPECT_EQ(nodes.width, 8u);    // blocks of at most 1 KiB: 8-byte buckets
   EXPECT_EQ(nodes.size, 128u);
   const vgprof::DataCost hot = marked_cost(*cg_, *markers_, source_, "hot");
   const vgprof::DataCost cold = marked_cost(*cg_, *markers_, source_, "cold");
   EXPECT_EQ(text(offsets_cost(data(), id, 0, 16)), text(hot));
   EXPECT_EQ(text(offsets_cost(data(), id, 16, 128)), text(cold));
   EXPECT_EQ(text(nodes.cost), text(plus(hot, cold)));
   EXPECT_NE(hot[1], 0u);    // the walks miss on the hot field...
   EXPECT_EQ(cold[0], 0u);   // ...and never read the cold ones
}

TEST_F(DataObjects, AGlobalIsNamedByItsSymbolAndCountedByOffset)
{
   const vgprof::DataObjId id = vgprof::find_data_object(*profile_, "table");
   const vgprof::DataObject& table = data().object(id);
   EXPECT_EQ(table.kind, vgprof::DataKind::global);
   EXPECT_EQ(table.size, 8192u * 8);
   EXPECT_EQ(table.width, 64u);   // more than 1 KiB: one bucket a cache line
   EXPECT_EQ(text(table.cost), text(marked_cost(*cg_, *markers_, source_, "table")));
   expect_functions_match(id, "table");
   // Read with a stride of one line: every line's bucket read once a walk.
   const auto [first, last] = data().offsets_of(id);
   EXPECT_EQ(last - first, 1024u);
}

TEST_F(DataObjects, AFunctionThatTouchesOnlyItsStackHasAllItsMissesThere)
{
   const vgprof::DataObjId stack = vgprof::find_data_object(*profile_, "stack");
   vgprof::DataCost expected{};
   for (size_t e = 0; e < vgprof::kDataEvents; ++e) {
      const auto it = cg_->by_event.find(vgprof::kDataEventNames[e]);
      if (it != cg_->by_event.end()) expected[e] = function_cost(it->second, "stack_walk");
   }
   bool found = false;
   const auto [first, last] = data().fns_of(stack);
   for (size_t i = first; i < last; ++i)
      if (profile_->fn_name(data().fns[i].fn) == "stack_walk") {
         EXPECT_EQ(text(data().fns[i].cost), text(misses(expected)));
         found = true;
      }
   EXPECT_TRUE(found);
}

TEST_F(DataObjects, AddUpToTheProgramsTotalsEventByEvent)
{
   const vgprof::DataCost total = vgprof::data_total(data());
   for (size_t e = 0; e < vgprof::kDataEvents; ++e)
      EXPECT_EQ(total[e], cg_->summary.at(vgprof::kDataEventNames[e])) << vgprof::kDataEventNames[e];
}

// The sum rule wherever accesses could escape it: other threads' stacks,
// collection switched off and on, dumps that zero the counts, blocks that
// client requests make.
struct SumCase {
   std::string name;
   std::vector<std::string> options;
   std::vector<std::string> program;
};

class DataSums : public ::testing::TestWithParam<SumCase> {};

TEST_P(DataSums, TheObjectsAddUpToEveryProfilesTotals)
{
   const SumCase& c = GetParam();
   TempDir dir;
   std::vector<std::string> options = c.options;
   options.push_back("--vgprof-out-file=vp.json");
   const RunResult r = run_tool("vgprof", options, resolve_program(c.program), dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   std::vector<std::string> files = dir.files_starting_with("vp.");
   ASSERT_FALSE(files.empty());
   for (const std::string& f : files) {
      const vgprof::Profile p = vgprof::load_profile(dir / f);   // checks every sum
      ASSERT_NE(p.data(), nullptr) << f;
      const vgprof::DataCost total = vgprof::data_total(*p.data());
      for (size_t e = 0; e < vgprof::kDataEvents; ++e)
         EXPECT_EQ(total[e], p.meta().totals[*p.event_index(vgprof::kDataEventNames[e])])
            << f << " " << vgprof::kDataEventNames[e];
   }
   if (c.name == "threads") {
      const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
      EXPECT_NE(p.data()->object(vgprof::find_data_object(p, "stack")).cost[0], 0u);
   }
}

INSTANTIATE_TEST_SUITE_P(
   Programs, DataSums,
   ::testing::Values(SumCase{"threads", {}, {"heap_threads"}},
                     SumCase{"toggle_request", {"--collect-atstart=no"}, {"toggle", "toggle"}},
                     SumCase{"toggle_collect", {"--collect-atstart=no", "--toggle-collect=second_half"},
                             {"toggle", "none"}},
                     SumCase{"instr_atstart_no", {"--instr-atstart=no"}, {"toggle", "start"}},
                     SumCase{"dumps", {}, {"dumps"}},
                     SumCase{"pool", {}, {"pool"}},
                     SumCase{"no_call_graph", {"--call-graph=no"}, {"heap_cxx"}}),
   [](const ::testing::TestParamInfo<SumCase>& i) { return i.param.name; });

// Two 4-byte globals and 8 bytes outside any symbol share one 16-byte
// granule and are read in turn: however the reads alternate between the
// granule's objects, each is booked to the one it touched, N to each
// global (the program's own count).
TEST(DataCaches, ReadsTakingTurnsInOneGranuleAreEachBookedToTheirObject)
{
   TempDir dir;
   const uint64_t n = 100000;
   const RunResult r = run_tool("vgprof", {"--vgprof-out-file=vp.json"},
                                {progs_dir() + "/shared_granule", std::to_string(n)}, dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   ASSERT_NE(p.data(), nullptr);
   for (const char* name : {"granule_a", "granule_b"}) {
      const vgprof::DataObject& o = p.data()->object(vgprof::find_data_object(p, name));
      EXPECT_EQ(o.kind, vgprof::DataKind::global) << name;
      EXPECT_EQ(o.size, 4u) << name;
      EXPECT_EQ(o.cost[0], n) << name;   // Dr
      EXPECT_EQ(o.cost[3], 0u) << name;  // Dw
   }
   // The 8 bytes after them: the program's writable data outside any symbol.
   uint64_t outside = 0;
   for (const vgprof::DataObject& o : p.data()->objects)
      if (o.kind == vgprof::DataKind::unnamed && o.obj && ends_with(p.obj_path(*o.obj), "/shared_granule"))
         outside += o.cost[0];
   EXPECT_GE(outside, n);
}

TEST(DataOption, NoDataSectionWithoutItOrWhatItNeeds)
{
   for (const char* option : {"--data=no", "--cache-sim=no", "--heap=no"}) {
      TempDir dir;
      const RunResult r = run_tool("vgprof", {option, "--vgprof-out-file=vp.json"},
                                   resolve_program({"loops"}), dir.path());
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(vgprof::load_profile(dir / "vp.json").data(), nullptr) << option;
   }
}

}  // namespace
