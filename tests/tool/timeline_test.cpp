// SPDX-License-Identifier: GPL-2.0-or-later
// The timeline (--timeline=yes): spans of calls and marks, on
// tests/progs/phases.c, whose phases are functions called once between
// marks and whose heap is known by construction. A span's cost is compared
// with callgrind's inclusive cost of the same call; the phases of `vgprof
// report --timeline` with the marks' own differences.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "harness.hpp"

#include "vgprof/heap_changes.hpp"
#include "vgprof/load.hpp"
#include "vgprof/profile.hpp"

using namespace vgtest;

namespace {

// phases.c's N blocks of K bytes.
constexpr uint64_t kBlocks = 100, kBlockBytes = 1000;

const std::vector<std::string> kPhaseFns = {"load", "work", "flush"};
const std::vector<std::string> kMarks = {"start", "loaded", "worked", "flushed"};

// The spans of function `name`.
std::vector<size_t> spans_of(const vgprof::Profile& p, const std::string& name)
{
   std::vector<size_t> out;
   const vgprof::Timeline& t = *p.timeline();
   for (size_t i = 0; i < t.spans.size(); i++)
      if (p.fn_name(t.spans[i].fn) == name) out.push_back(i);
   return out;
}

struct PhasesRun {
   TempDir dir;
   vgprof::Profile profile;
   CallMap callgrind;
   explicit PhasesRun(const std::vector<std::string>& options = {},
                      const std::vector<std::string>& args = {})
   {
      std::vector<std::string> program{progs_dir() + "/phases"};
      program.insert(program.end(), args.begin(), args.end());
      auto cl = run_tool("callgrind", {"--callgrind-out-file=cl.out"}, program, dir.path());
      std::vector<std::string> all = with(options, "--vgprof-out-file=vp.json");
      all.insert(all.begin(), "--timeline=yes");
      auto vp = run_tool("vgprof", all, program, dir.path());
      EXPECT_EQ(cl.exit_code, 0) << cl.err;
      EXPECT_EQ(vp.exit_code, 0) << vp.err;
      profile = vgprof::load_profile(dir / "vp.json");
      callgrind = read_callgrind_calls(dir / "cl.out");
   }
};

TEST(Timeline, EachPhaseSpanCostsWhatCallgrindAndThePathTreeSay)
{
   PhasesRun run;
   const vgprof::Profile& p = run.profile;
   ASSERT_NE(p.timeline(), nullptr);
   for (const std::string& fn : kPhaseFns) {
      const std::vector<size_t> spans = spans_of(p, fn);
      ASSERT_EQ(spans.size(), 1u) << fn;
      const vgprof::TimelineSpan& s = p.timeline()->spans[spans[0]];
      EXPECT_FALSE(s.open) << fn;
      const uint64_t ir = p.span_cost(spans[0])[0];
      EXPECT_EQ(ir, run.callgrind.at({"main", fn}).inclusive) << fn;
      EXPECT_EQ(ir, p.path_inclusive(s.node.index())[0]) << fn;
      for (size_t e = 0; e < p.num_events(); e++)
         EXPECT_EQ(p.span_cost(spans[0])[e], p.path_inclusive(s.node.index())[e])
             << fn << " " << p.meta().events[e];
      // Its duration on the run's clock is its own Ir: nothing else ran.
      EXPECT_EQ(s.end - s.start, ir) << fn;
   }
}

TEST(Timeline, SpansOfAThreadNestOrAreDisjoint)
{
   PhasesRun run;
   const vgprof::Timeline& t = *run.profile.timeline();
   ASSERT_GT(t.spans.size(), 3u);
   for (const vgprof::TimelineSpan& a : t.spans)
      for (const vgprof::TimelineSpan& b : t.spans) {
         if (&a == &b || a.thread != b.thread) continue;
         const bool disjoint = a.end <= b.start || b.end <= a.start;
         const bool a_in_b = b.start <= a.start && a.end <= b.end;
         const bool b_in_a = a.start <= b.start && b.end <= a.end;
         EXPECT_TRUE(disjoint || a_in_b || b_in_a)
             << run.profile.fn_name(a.fn) << " [" << a.start << "," << a.end << "] and "
             << run.profile.fn_name(b.fn) << " [" << b.start << "," << b.end << "]";
         if (a_in_b && !b_in_a) EXPECT_LT(b.depth, a.depth);
      }
   // main returns; the thread's first frame never does: it is cut, open,
   // at the end.
   const std::vector<size_t> main = spans_of(run.profile, "main");
   ASSERT_EQ(main.size(), 1u);
   EXPECT_FALSE(t.spans[main[0]].open);
   bool root_open = false;
   for (const vgprof::TimelineSpan& s : t.spans)
      root_open |= s.depth == 0 && s.open && s.end == t.end.time;
   EXPECT_TRUE(root_open);
}

TEST(Timeline, MarksComeInOrderAroundTheirPhasesWithTheProgramsHeap)
{
   PhasesRun run;
   const vgprof::Timeline& t = *run.profile.timeline();
   ASSERT_EQ(t.marks.size(), kMarks.size());
   for (size_t i = 0; i < kMarks.size(); i++) {
      EXPECT_EQ(t.marks[i].label, kMarks[i]);
      if (i) EXPECT_LT(t.marks[i - 1].time, t.marks[i].time);
   }
   for (size_t i = 0; i < kPhaseFns.size(); i++) {
      const vgprof::TimelineSpan& s = t.spans[spans_of(run.profile, kPhaseFns[i])[0]];
      EXPECT_LE(t.marks[i].time, s.start) << kPhaseFns[i];
      EXPECT_LE(s.end, t.marks[i + 1].time) << kPhaseFns[i];
   }
   const uint64_t live[] = {0, kBlocks * kBlockBytes, kBlocks * kBlockBytes, 0};
   const uint64_t blocks[] = {0, kBlocks, kBlocks, 0};
   for (size_t i = 0; i < kMarks.size(); i++) {
      EXPECT_EQ(t.marks[i].live_bytes, live[i]) << kMarks[i];
      EXPECT_EQ(t.marks[i].live_blocks, blocks[i]) << kMarks[i];
   }
}

// Between two marks the heap's changes say what phases.c did in the phase:
// load allocates its N blocks of K bytes, work nothing, flush frees them.
TEST(Timeline, TheHeapsChangesBetweenMarksAreWhatEachPhaseAllocatedAndFreed)
{
   PhasesRun run;
   const vgprof::Heap& h = *run.profile.heap();
   ASSERT_TRUE(h.changes);
   EXPECT_EQ(h.changes->width, 1u);
   const vgprof::Timeline& t = *run.profile.timeline();
   ASSERT_EQ(t.marks.size(), kMarks.size());
   const uint64_t allocated[] = {kBlocks, 0, 0}, freed[] = {0, 0, kBlocks};
   for (size_t i = 0; i + 1 < kMarks.size(); i++) {
      const vgprof::HeapInRange r = vgprof::heap_in_range(h, t.marks[i].time, t.marks[i + 1].time);
      EXPECT_EQ(r.t0, t.marks[i].time);
      EXPECT_EQ(r.t1, t.marks[i + 1].time);
      EXPECT_EQ(r.total.blocks, allocated[i]) << kPhaseFns[i];
      EXPECT_EQ(r.total.bytes, allocated[i] * kBlockBytes) << kPhaseFns[i];
      EXPECT_EQ(r.total.freed_blocks, freed[i]) << kPhaseFns[i];
      EXPECT_EQ(r.total.freed_bytes, freed[i] * kBlockBytes) << kPhaseFns[i];
      EXPECT_EQ(r.total.live_bytes_before, i == 0 ? 0 : kBlocks * kBlockBytes) << kPhaseFns[i];
      EXPECT_EQ(r.total.live_bytes_after, i == 2 ? 0 : kBlocks * kBlockBytes) << kPhaseFns[i];
      EXPECT_EQ(r.sites.size(), 1u) << kPhaseFns[i];
   }
   // Each block in its own row: they came at distinct instructions.
   EXPECT_EQ(h.changes->rows.size(), 2 * kBlocks);
}

// Bounded to one row beyond two per site, the stretches widen until the
// rows fit; what they add up to stays exact.
TEST(Timeline, TheHeapsChangesWidenToStayWithinTheirBound)
{
   PhasesRun run({"--heap-changes=1"});
   const vgprof::Heap& h = *run.profile.heap();
   ASSERT_TRUE(h.changes);
   EXPECT_EQ(h.changes->max, 1u);
   EXPECT_GT(h.changes->width, 1u);
   EXPECT_LE(h.changes->rows.size(), 2 * h.sites.size() + 1);
   const vgprof::HeapInRange all = vgprof::heap_in_range(h, 0, h.totals.end_time);
   EXPECT_EQ(all.total.blocks, kBlocks);
   EXPECT_EQ(all.total.freed_bytes, kBlocks * kBlockBytes);
   EXPECT_EQ(all.total.live_bytes_after, 0u);
}

TEST(Timeline, ReportedPhasesCostTheMarksDifferences)
{
   PhasesRun run;
   const vgprof::Timeline& t = *run.profile.timeline();
   auto r = vgtest::run({cli_path(), "report", "--timeline", "--format", "json", "vp.json"},
                        run.dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   const boost::json::array phases = boost::json::parse(r.out).at("phases").as_array();
   // Beginning .. start, the three phases, flushed .. end.
   ASSERT_EQ(phases.size(), kMarks.size() + 1);
   for (size_t i = 1; i < kMarks.size(); i++) {
      const boost::json::object& ph = phases[i].as_object();
      const vgprof::TimelineMark &from = t.marks[i - 1], &to = t.marks[i];
      EXPECT_EQ(ph.at("from").as_string(), kMarks[i - 1]);
      EXPECT_EQ(ph.at("to").as_string(), kMarks[i]);
      const boost::json::object& costs = ph.at("costs").as_object();
      EXPECT_EQ(costs.at("Ir").to_number<uint64_t>(), to.time - from.time);
      for (size_t e = 0; e < run.profile.num_events(); e++)
         EXPECT_EQ(costs.at(run.profile.meta().events[e]).to_number<uint64_t>(),
                   to.totals[e] - from.totals[e])
             << run.profile.meta().events[e];
      EXPECT_EQ(ph.at("live_bytes").to_number<uint64_t>(), to.live_bytes);
      // load allocates phases.c's blocks, flush frees them.
      EXPECT_EQ(ph.at("allocated_blocks").to_number<uint64_t>(), i == 1 ? kBlocks : 0) << i;
      EXPECT_EQ(ph.at("freed_bytes").to_number<uint64_t>(), i == 3 ? kBlocks * kBlockBytes : 0)
          << i;
      if (i == 1)
         EXPECT_EQ(ph.at("most_allocated_by").as_string().rfind("load (", 0), 0u) << r.out;
      // The phase's function is among its longest calls.
      bool found = false;
      for (const auto& s : ph.at("spans").as_array())
         found |= s.at("function").as_string().find(kPhaseFns[i - 1]) == 0;
      EXPECT_TRUE(found) << kPhaseFns[i - 1] << " in " << r.out;
   }
   // The last phase ends when the program does: its Ir is its time, and
   // the phases' Ir add up to the profile's total, though Valgrind runs the
   // C library's clean-up after the end, which no profile counts.
   const boost::json::object& last = phases.back().as_object();
   EXPECT_EQ(last.at("costs").at("Ir").to_number<uint64_t>(),
             t.end.time - t.marks.back().time);
   uint64_t sum = 0;
   for (const auto& ph : phases)
      sum += ph.at("costs").at("Ir").to_number<uint64_t>();
   EXPECT_EQ(sum, run.profile.meta().totals[0]);
   auto text = vgtest::run({cli_path(), "report", "--timeline", "vp.json"}, run.dir.path());
   ASSERT_EQ(text.exit_code, 0) << text.err;
   EXPECT_NE(text.out.find("Phase 3: mark \"loaded\" .. mark \"worked\""), std::string::npos)
       << text.out;
}

// 5000 calls of a tiny function and room for 100 spans: the threshold
// rises, the long phases stay.
TEST(Timeline, ShortCallsFallBelowARisingThresholdWithinTheBound)
{
   PhasesRun run({"--timeline-spans=100"}, {"many"});
   const vgprof::Timeline& t = *run.profile.timeline();
   EXPECT_LE(t.spans.size(), 100u);
   EXPECT_EQ(t.max_spans, 100u);
   EXPECT_GT(t.threshold, 1u);
   EXPECT_GE(t.dropped, 5000u);
   for (const vgprof::TimelineSpan& s : t.spans)
      if (!s.open) EXPECT_GE(s.end - s.start, t.threshold) << run.profile.fn_name(s.fn);
   for (const std::string& fn : kPhaseFns) EXPECT_EQ(spans_of(run.profile, fn).size(), 1u) << fn;
}

TEST(Timeline, RecordedByDefaultWithinTwentyThousandSpans)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {progs_dir() + "/phases"},
                      dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   ASSERT_NE(p.timeline(), nullptr);
   EXPECT_EQ(p.timeline()->max_spans, 20000u);
   EXPECT_EQ(p.timeline()->marks.size(), kMarks.size());
}

TEST(Timeline, NoneWithTheOptionOffOrWithoutTheCallGraph)
{
   for (const std::vector<std::string>& options :
        {std::vector<std::string>{"--timeline=no"}, {"--timeline=yes", "--call-graph=no"}}) {
      TempDir dir;
      const std::string option = options.back();
      auto vp = run_tool("vgprof", with(options, "--vgprof-out-file=vp.json"),
                         {progs_dir() + "/phases"}, dir.path());
      ASSERT_EQ(vp.exit_code, 0) << vp.err;
      EXPECT_EQ(vgprof::load_profile(dir / "vp.json").timeline(), nullptr) << option;
   }
}

// The timeline's exports need one: recorded with --timeline=no, a one-line error naming the
// option to record it with, exit 2, and no file.
TEST(Timeline, ExportsOfAProfileWithoutOneNameTheOptionAndWriteNothing)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--timeline=no", "--vgprof-out-file=vp.json"}, {progs_dir() + "/phases"},
                      dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   for (const std::vector<std::string>& format :
        {std::vector<std::string>{"chrome"}, {"speedscope", "--timeline"}}) {
      std::vector<std::string> argv{cli_path(), "export", "--format"};
      argv.insert(argv.end(), format.begin(), format.end());
      argv.insert(argv.end(), {"-o", "out.json", "vp.json"});
      auto ex = vgtest::run(argv, dir.path());
      EXPECT_EQ(ex.exit_code, 2) << format[0];
      EXPECT_EQ(std::count(ex.err.begin(), ex.err.end(), '\n'), 1) << ex.err;
      EXPECT_NE(ex.err.find("vp.json: "), std::string::npos) << ex.err;
      EXPECT_NE(ex.err.find("--timeline=yes"), std::string::npos) << ex.err;
      EXPECT_EQ(dir.files_starting_with("out.json"), std::vector<std::string>{}) << format[0];
   }
   auto other = vgtest::run({cli_path(), "export", "--format", "pprof", "--timeline", "-o",
                             "out.json", "vp.json"},
                            dir.path());
   EXPECT_EQ(other.exit_code, 2);
   EXPECT_NE(other.err.find("--timeline applies to --format speedscope"), std::string::npos)
       << other.err;
}

} // namespace
