// SPDX-License-Identifier: GPL-2.0-or-later
// The heap section of a profile (format version 3, and 5's additions):
// loading and checking it, the questions vgprof/heap.hpp answers, and
// `vgprof report --heap`.
// The fixture is heap_fixture.hpp's.
#include "heap_fixture.hpp"
#include "profile_text.hpp"

#include "cli/commands.hpp"
#include "vgprof/error.hpp"
#include "vgprof/export_dhat.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/load.hpp"
#include "vgprof/write.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace vgprof {
namespace {

using test::ProfileText;
using test::heap_json;
using test::with_heap;
using test::kFrames;
using test::kSite0;
using test::kSite1;
using test::kSnapshots;
using test::kTimeline;
using test::kTotals;
using test::kAfterZero;
using test::kSitesAfterZero;
using test::kWholeRun;

Profile load(const ProfileText& t) { return parse_profile(t.str(), "p.json"); }

std::string load_error(const ProfileText& t)
{
    try {
        load(t);
    } catch (const Error& e) {
        return e.what();
    }
    return "(loaded)";
}

TEST(HeapLoad, ReadsEveryTable)
{
    const Profile p = load(with_heap());
    ASSERT_NE(p.heap(), nullptr);
    const Heap& h = *p.heap();
    EXPECT_EQ(h.depth, 12u);
    EXPECT_EQ(h.totals.bytes, 3000u);
    EXPECT_EQ(h.totals.peak_time, 500u);
    EXPECT_EQ(h.totals.end_time, 100000u);
    ASSERT_EQ(h.frames.size(), 3u);
    EXPECT_EQ(h.frames[0].addr, 4198600u);
    EXPECT_EQ(p.fn_name(h.frames[0].fn), "work");
    EXPECT_EQ(h.frames[2].line, 22u);
    ASSERT_EQ(h.sites.size(), 2u);
    EXPECT_EQ(h.sites[0].frames, (std::vector<FrameId>{FrameId(0), FrameId(1)}));
    EXPECT_EQ(h.sites[0].lifetimes, 3000u);
    EXPECT_EQ(h.sites[0].end_blocks, 1u);
    // [50,2,50,0]: 50 offsets accessed twice, then 50 never.
    ASSERT_EQ(h.sites[0].accesses.size(), 100u);
    EXPECT_EQ(h.sites[0].accesses[49], 2u);
    EXPECT_EQ(h.sites[0].accesses[50], 0u);
    EXPECT_TRUE(h.sites[1].accesses.empty());
    EXPECT_EQ(h.sample_width, 4u);
    ASSERT_EQ(h.samples.size(), 3u);
    EXPECT_EQ(h.samples[1].bytes, 2300u);
    ASSERT_EQ(h.snapshots.size(), 2u);
    EXPECT_EQ(h.snapshots[0].kind, HeapSnapshot::Kind::peak);
    EXPECT_EQ(h.snapshots[0].sites[0].site, SiteId(1));
    EXPECT_EQ(h.snapshots[1].kind, HeapSnapshot::Kind::end);
}

TEST(HeapLoad, AbsentWithHeapNoAndIgnoredBeforeVersion3)
{
    EXPECT_EQ(load(ProfileText().set("vgprof", "3")).heap(), nullptr);
    // Version 2 reserved the key: a reader ignores it.
    EXPECT_EQ(load(ProfileText().set("heap", heap_json())).heap(), nullptr);
}

// A profile's heap section replaced, and the message that says where and
// what is wrong with it.
struct BadHeapCase {
    std::string heap;
    std::string message;
};

class BadHeap : public ::testing::TestWithParam<BadHeapCase> {};

TEST_P(BadHeap, IsReportedWithWhereAndWhat)
{
    EXPECT_EQ(load_error(with_heap(GetParam().heap)), GetParam().message);
}

const std::string kBothSites = std::string("[") + kSite0 + "," + kSite1 + "]";

INSTANTIATE_TEST_SUITE_P(
    HeapLoad, BadHeap,
    ::testing::Values(
        BadHeapCase{heap_json(kTotals, "[[1,9,1,5]]"),
                    "p.json: heap.frames[0][1]: fn id 9 out of range (2 functions)"},
        BadHeapCase{heap_json(kTotals, kFrames, "[[[0,7],1,1,0,1,1,0,0,0,0,0,0,null]]"),
                    "p.json: heap.sites[0][0][1]: heap frame id 7 out of range (3 frames)"},
        BadHeapCase{heap_json(kTotals, kFrames, "[[[],1,1,0,1,1,0,0,0,0,0,0,null]]"),
                    "p.json: heap.sites[0][0]: an allocation site needs at least one frame"},
        BadHeapCase{heap_json(kTotals, kFrames, "[[[0],1,1,0]]"),
                    "p.json: heap.sites[0]: expected 13 entries [frames, bytes, blocks, "
                    "lifetimes, max_bytes, max_blocks, peak_bytes, peak_blocks, end_bytes, "
                    "end_blocks, reads, writes, accesses], got 4"},
        // A site cannot have more live than its own highest.
        BadHeapCase{heap_json(kTotals, kFrames,
                              std::string("[") + kSite0 + "," +
                                  "[[2],2000,1,90000,2000,1,2001,1,0,0,4000,2000,null]]"),
                    "p.json: heap.sites[1][6]: 2001 is more than the site's highest live "
                    "bytes (2000)"},
        // The sites must add up to the totals.
        BadHeapCase{heap_json(kTotals, kFrames, std::string("[") + kSite0 + "]"),
                    "p.json: heap.totals.bytes: bytes total is 3000 but the sites add up to "
                    "1000"},
        BadHeapCase{heap_json(kTotals, kFrames,
                              "[[[0,1],1000,10,3000,400,4,300,3,100,1,0,1000,[0,2]]," +
                                  std::string(kSite1) + "]"),
                    "p.json: heap.sites[0][12][0]: a run of zero offsets"},
        BadHeapCase{heap_json(kTotals, kFrames, kBothSites,
                              R"({"width":4,"samples":[[500,1,1],[100,1,1]]})"),
                    "p.json: heap.timeline.samples[1][0]: time 100 comes before the previous "
                    "sample's (500)"},
        BadHeapCase{heap_json(kTotals, kFrames, kBothSites,
                              R"({"width":4,"samples":[[500,2301,1]]})"),
                    "p.json: heap.timeline.samples[0][1]: 2301 live bytes, more than the peak "
                    "(2300)"},
        BadHeapCase{heap_json(kTotals, kFrames, kBothSites, kTimeline,
                              R"([{"kind":"now","time":1,"bytes":1,"blocks":1,"sites":[]}])"),
                    "p.json: heap.snapshots[0].kind: unknown snapshot kind \"now\" (expected "
                    "\"periodic\", \"peak\" or \"end\")"},
        BadHeapCase{heap_json(kTotals, kFrames, kBothSites, kTimeline,
                              R"([{"kind":"end","time":1,"bytes":1,"blocks":1,"sites":[[2,1,1]]}])"),
                    "p.json: heap.snapshots[0].sites[0][0]: heap site id 2 out of range (2 "
                    "sites)"},
        BadHeapCase{R"({"depth":12})", "p.json: heap: missing required key \"totals\""}));

TEST(HeapLoad, TooManyAccessOffsets)
{
    EXPECT_EQ(load_error(with_heap(heap_json(
                  kTotals, kFrames,
                  "[[[0,1],1000,10,3000,400,4,300,3,100,1,0,1000,[1000,2,25,0]]," +
                      std::string(kSite1) + "]"))),
              "p.json: heap.sites[0][12]: more than 1024 offsets (counts are kept only for "
              "blocks of up to 1024 bytes)");
}

// --- version 9: the period since the last zero or dump ---------------------------

// The fixture as version 9 writes it: a run with no zero or dump, its
// period the whole run (3000 bytes in 11 blocks allocated, 100 in 1 live at
// the end: 2900 in 10 freed).
const char* const kPeriod =
    R"({"start_time":0,"start_bytes":0,"start_blocks":0,"bytes":3000,"blocks":11,)"
    R"("freed_bytes":2900,"freed_blocks":10,"peak_bytes":2300,"peak_blocks":4,"peak_time":500,)"
    R"("end_bytes":100,"end_blocks":1,"end_time":100000,"reads":4000,"writes":3000})";

// A version 9 profile whose heap has `totals` and `whole_run` as given
// (none when empty), its other tables the fixture's.
ProfileText with_period(const std::string& totals, const std::string& whole_run = kWholeRun,
                        const std::string& sites = kBothSites)
{
    std::string heap = heap_json(totals, kFrames, sites);
    if (!whole_run.empty())
        heap.insert(heap.find(R"(,"frames")"), R"(,"whole_run":)" + whole_run);
    ProfileText t = with_heap(heap);
    t.set("vgprof", "9").drop_call_graph();
    return t;
}

TEST(HeapLoad, Version9ReadsThePeriodAndTheWholeRunAndWritesThemBack)
{
    const Profile p = load(with_period(kAfterZero, kWholeRun, kSitesAfterZero));
    const Heap& h = *p.heap();
    EXPECT_EQ(h.start_time, 50u);
    EXPECT_EQ(h.start_bytes, 2000u);
    EXPECT_EQ(h.start_blocks, 1u);
    EXPECT_EQ(h.totals.bytes, 1000u);
    EXPECT_EQ(h.totals.freed_bytes, 2900u);
    EXPECT_EQ(h.totals.freed_blocks, 10u);
    ASSERT_TRUE(h.whole_run);
    EXPECT_EQ(h.whole_run->bytes, 3000u);
    EXPECT_EQ(h.whole_run->freed_blocks, 10u);
    // Live in the period without being allocated in it.
    EXPECT_EQ(h.sites[1].bytes, 0u);
    EXPECT_EQ(h.sites[1].max_bytes, 2000u);

    std::ostringstream out;
    write_profile(out, p);
    const Profile again = parse_profile(out.str(), "again.json");
    EXPECT_EQ(again.meta().version, 9);
    EXPECT_EQ(again.heap()->start_time, 50u);
    EXPECT_EQ(again.heap()->start_bytes, 2000u);
    EXPECT_EQ(again.heap()->totals.freed_bytes, 2900u);
    ASSERT_TRUE(again.heap()->whole_run);
    EXPECT_EQ(again.heap()->whole_run->peak_bytes, 2300u);
    // An older profile stays as it was: its figures are the whole run's.
    const Profile old = load(with_heap());
    EXPECT_FALSE(old.heap()->whole_run);
    std::ostringstream old_out;
    write_profile(old_out, old);
    EXPECT_EQ(old_out.str().find("whole_run"), std::string::npos);
    EXPECT_EQ(old_out.str().find("freed_bytes"), std::string::npos);
}

TEST(HeapLoad, Version9FiguresMustAccountForWhatIsLive)
{
    EXPECT_EQ(load(with_period(kPeriod)).heap()->totals.freed_bytes, 2900u);
    std::string unbalanced = kPeriod;
    unbalanced.replace(unbalanced.find("2900"), 4, "2800");
    EXPECT_EQ(load_error(with_period(unbalanced)),
              "p.json: heap.totals.end_bytes: 100 live bytes at the end, but 0 at the start + "
              "3000 allocated - 2800 freed is not that");
    std::string whole_unbalanced = kWholeRun;
    whole_unbalanced.replace(whole_unbalanced.find(R"("freed_blocks":10)"), 17,
                             R"("freed_blocks":12)");
    EXPECT_EQ(load_error(with_period(kPeriod, whole_unbalanced)),
              "p.json: heap.whole_run.end_blocks: 1 live blocks at the end, but 0 at the start + "
              "11 allocated - 12 freed is not that");
    EXPECT_EQ(load_error(with_period(kPeriod, "")),
              "p.json: heap: missing required key \"whole_run\"");
    std::string late = kAfterZero;
    late.replace(late.find(R"("start_time":50)"), 15, R"("start_time":600)");
    EXPECT_EQ(load_error(with_period(late, kWholeRun, kSitesAfterZero)),
              "p.json: heap.totals.start_time: the period's start (600) comes after its peak "
              "(500)");
    // A site may have more live than it allocated only when its period
    // began with blocks live: never before version 9.
    EXPECT_EQ(load_error(with_heap(heap_json(kTotals, kFrames, kSitesAfterZero))),
              "p.json: heap.sites[1][4]: 2000 is more than the bytes allocated (0)");
}

TEST(HeapQueries, OrdersPutTheLargestFirst)
{
    const Profile p = load(with_heap());
    const Heap& h = *p.heap();
    const auto first = [&](HeapOrder o) { return sites_in_order(h, o).front().value; };
    EXPECT_EQ(first(HeapOrder::bytes), 1u);     // 2000 > 1000
    EXPECT_EQ(first(HeapOrder::blocks), 0u);    // 10 > 1
    EXPECT_EQ(first(HeapOrder::peak), 1u);      // 2000 > 300
    EXPECT_EQ(first(HeapOrder::leaked), 0u);    // 100 > 0
    EXPECT_EQ(first(HeapOrder::lifetime), 1u);  // 90000 > 300 each
    EXPECT_EQ(first(HeapOrder::reads), 1u);
    EXPECT_EQ(first(HeapOrder::density), 1u);   // 3 > 1 access per byte
    EXPECT_DOUBLE_EQ(average_lifetime(h.sites[0]), 300.0);
    EXPECT_DOUBLE_EQ(access_density(h.sites[1]), 3.0);
    EXPECT_EQ(heap_order_named("leaked"), HeapOrder::leaked);
    EXPECT_FALSE(heap_order_named("size"));
}

TEST(HeapQueries, NotesSayWhatStandsOut)
{
    const Profile p = load(with_heap());
    const Heap& h = *p.heap();
    EXPECT_EQ(site_notes(h.sites[0]),
              (std::vector<std::string>{"short-lived", "never read",
                                        "leaked: 100 bytes in 1 block never freed",
                                        "50 of 100 bytes never accessed"}));
    EXPECT_TRUE(site_notes(h.sites[1]).empty());
}

TEST(HeapQueries, SitesUnderAFunctionAndFrameLabels)
{
    const Profile p = load(with_heap());
    const Heap& h = *p.heap();
    const FnId main = FnId(0), work = FnId(1);
    EXPECT_TRUE(site_is_under(h, h.sites[0], work));
    EXPECT_TRUE(site_is_under(h, h.sites[0], main));
    EXPECT_FALSE(site_is_under(h, h.sites[1], work));
    EXPECT_EQ(frame_label(p, h.frames[0]), "work (/src/app.c:5)");
}

TEST(HeapQueries, BytesAllocatedPerLineGoToEveryCallingLine)
{
    const Profile p = load(with_heap());
    // No frame is in the allocator's library here: the first frame calls.
    EXPECT_EQ(allocating_frame(p, p.heap()->sites[0]), FrameId(0));
    const auto by_line = allocated_bytes_by_line(p);
    ASSERT_EQ(by_line.size(), 3u);
    EXPECT_EQ(by_line.at({FileId(1), 5}), 1000u);    // site 0, work app.c:5
    EXPECT_EQ(by_line.at({FileId(1), 20}), 1000u);   // site 0 through main's call of work
    EXPECT_EQ(by_line.at({FileId(1), 22}), 2000u);   // site 1, main app.c:22
    const auto figures = allocated_by_line(p);
    EXPECT_EQ(figures.at({FileId(1), 20}).blocks, 10u);
    EXPECT_EQ(figures.at({FileId(1), 22}).blocks, 1u);
    EXPECT_TRUE(allocated_bytes_by_line(load(ProfileText().set("vgprof", "3"))).empty());
}

// meta.allocators (format version 5): the families of allocator functions
// whose calls the tool saw making or freeing blocks, in order.
TEST(HeapMeta, AllocatorsSeenAreReadAndWrittenBack)
{
    const Profile p = load(with_heap().set("vgprof", "5").set_meta(
        "allocators", R"(["libc malloc","Rust global allocator"])"));
    ASSERT_TRUE(p.meta().allocators.has_value());
    EXPECT_EQ(*p.meta().allocators,
              (std::vector<std::string>{"libc malloc", "Rust global allocator"}));
    std::ostringstream out;
    write_profile(out, p);
    EXPECT_NE(out.str().find(R"(,"allocators":["libc malloc","Rust global allocator"])"),
              std::string::npos)
        << out.str();
    EXPECT_EQ(parse_profile(out.str(), "again.json").meta().allocators, p.meta().allocators);
    EXPECT_FALSE(load(with_heap()).meta().allocators.has_value());
}

TEST(HeapMeta, AllocatorsAreVersion5AndStrings)
{
    EXPECT_EQ(load_error(with_heap().set_meta("allocators", "[]")),
              "p.json: meta.allocators: not part of format version 3 (the allocators seen are "
              "version 5)");
    EXPECT_EQ(load_error(with_heap().set("vgprof", "5").set_meta("allocators", "[1]")),
              "p.json: meta.allocators[0]: expected a string, got 1");
}

// Since format version 5 a stack's first frame is the allocator function
// the program called, whatever its object: the next one calls it.
TEST(HeapQueries, TheFirstFrameIsTheAllocatorsSinceVersion5)
{
    const Profile p = load(with_heap().set("vgprof", "5"));
    EXPECT_EQ(allocating_frame(p, p.heap()->sites[0]), FrameId(1));   // work < main
    EXPECT_EQ(allocating_frame(p, p.heap()->sites[1]), std::nullopt); // one frame only
    const auto by_line = allocated_bytes_by_line(p);
    ASSERT_EQ(by_line.size(), 1u);
    EXPECT_EQ(by_line.at({FileId(1), 20}), 1000u);   // site 0's caller, main app.c:20
}

std::string heap_report(const Profile& p, cli::ReportOptions options)
{
    options.profile = "p.json";
    options.heap = true;
    std::ostringstream out;
    cli::write_report(out, p, options);
    return out.str();
}

TEST(HeapReport, TextShowsDhatSummaryThenSitesWithStacks)
{
    const Profile p = load(with_heap());
    const std::string text = heap_report(p, {});
    for (const char* line :
         {"Total:     3,000 bytes in 11 blocks\n", "At t-gmax: 2,300 bytes in 4 blocks\n",
          "At t-end:  100 bytes in 1 block\n", "Reads:     4,000 bytes\n",
          "Writes:    3,000 bytes\n", "Allocation sites by bytes: 2 of 2 shown\n",
          // Titled by the innermost frame of the program's own code.
          "#1: main (/src/app.c:22)\n"
          "  allocated: 2,000 bytes (66.7%), 1 block (9.1%), 2000.0 bytes each on average\n",
          "  notes:     short-lived; never read; leaked: 100 bytes in 1 block never freed; 50 "
          "of 100 bytes never accessed\n",
          "  allocated at:\n    work (/src/app.c:5)\n    main (/src/app.c:20)\n"})
        EXPECT_NE(text.find(line), std::string::npos) << line << "\nin:\n" << text;
    // Site 1 (bytes) before site 0.
    EXPECT_LT(text.find("main (/src/app.c:22)"), text.find("work (/src/app.c:5)"));
}

// The timeline as ms_print draws massif's: 72 columns over the 100,000
// instructions of the run, 12 rows up to the peak of 2,300 bytes. The
// first column (instructions 0 to 1,388) holds every sample, the peak at
// 500 among them, and is full; afterwards 100 bytes stay live, less than
// the 2,300 / 12 = 192 a row stands for.
TEST(HeapReport, TextChartsTheLiveBytesOverTime)
{
    const std::string text = heap_report(load(with_heap()), {});
    std::string chart = "Live bytes over time (instructions):\n2,300 ^#\n";
    for (int row = 1; row < 12; ++row)
        chart += "      |#\n";
    chart += "    0 +" + std::string(72, '-') + ">\n";
    chart += "       0" + std::string(71 - 7, ' ') + "100,000\n";
    EXPECT_NE(text.find(chart), std::string::npos) << text;
}

// After a zero at instruction 50, the report says where its period began,
// what was live and what was freed, and the whole run's figures; the
// chart spans the period.
TEST(HeapReport, TextSaysThePeriodSinceTheLastZeroAndTheWholeRun)
{
    const std::string text =
        heap_report(load(with_period(kAfterZero, kWholeRun, kSitesAfterZero)), {});
    EXPECT_NE(text.find("Total:     1,000 bytes in 10 blocks\n"), std::string::npos) << text;
    EXPECT_NE(text.find("Period:    since instruction 50 (the last zero or dump), 2,000 bytes "
                        "in 1 block live then, 2,900 bytes in 10 blocks freed since\n"
                        "Whole run: 3,000 bytes in 11 blocks allocated, 2,300 bytes in 4 "
                        "blocks at its peak\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("    0 +" + std::string(72, '-') + ">\n       50" +
                        std::string(72 - 2 - 7, ' ') + "100,000\n"),
              std::string::npos)
        << text;
    EXPECT_EQ(heap_report(load(with_heap()), {}).find("Period:"), std::string::npos);
}

TEST(HeapReport, JsonGivesThePeriodTheWholeRunAndEachSitesOwnFrame)
{
    cli::ReportOptions json;
    json.format = "json";
    const boost::json::object r =
        boost::json::parse(heap_report(load(with_period(kAfterZero, kWholeRun, kSitesAfterZero)), json))
            .as_object();
    EXPECT_EQ(r.at("period").at("start_time").to_number<uint64_t>(), 50u);
    EXPECT_EQ(r.at("period").at("start_bytes").to_number<uint64_t>(), 2000u);
    EXPECT_EQ(r.at("totals").at("bytes").to_number<uint64_t>(), 1000u);
    EXPECT_EQ(r.at("totals").at("freed_bytes").to_number<uint64_t>(), 2900u);
    EXPECT_EQ(r.at("whole_run").at("bytes").to_number<uint64_t>(), 3000u);
    // Without a zero the whole run is the period.
    const boost::json::object plain = boost::json::parse(heap_report(load(with_heap()), json)).as_object();
    EXPECT_EQ(plain.at("whole_run"), plain.at("totals"));
    EXPECT_EQ(plain.at("period").at("start_time").to_number<uint64_t>(), 0u);
    // work's frame, the first of site 0's stack, is the program's own.
    const boost::json::array& sites = plain.at("sites").as_array();
    ASSERT_EQ(sites.size(), 2u);
    EXPECT_EQ(sites[1].at("own_frame").as_int64(), 0);
    // With the program's sources said to be another's, no frame is its own.
    json.own_code.not_own = {"/src"};
    const boost::json::object others = boost::json::parse(heap_report(load(with_heap()), json)).as_object();
    EXPECT_TRUE(others.at("sites").as_array()[1].at("own_frame").is_null());
}

TEST(HeapReport, FunctionKeepsTheSitesUnderItAndTopLimits)
{
    const Profile p = load(with_heap());
    cli::ReportOptions under;
    under.function = "work";
    const std::string text = heap_report(p, under);
    EXPECT_NE(text.find("Allocation sites by bytes: 1 of 1 shown"), std::string::npos) << text;
    EXPECT_EQ(text.find("app.c:22"), std::string::npos) << text;

    cli::ReportOptions top;
    top.top = 1;
    top.heap_sort = "leaked";
    const std::string one = heap_report(p, top);
    EXPECT_NE(one.find("Allocation sites by leaked: 1 of 2 shown"), std::string::npos) << one;
    EXPECT_NE(one.find("work (/src/app.c:5)"), std::string::npos) << one;
}

TEST(HeapReport, JsonCarriesTheFigures)
{
    const Profile p = load(with_heap());
    cli::ReportOptions options;
    options.format = "json";
    const boost::json::object r = boost::json::parse(heap_report(p, options)).as_object();
    EXPECT_EQ(r.at("totals").at("peak_bytes").as_int64(), 2300);
    const boost::json::array& sites = r.at("sites").as_array();
    ASSERT_EQ(sites.size(), 2u);
    EXPECT_EQ(sites[0].at("site").as_int64(), 1);
    EXPECT_EQ(sites[1].at("end_bytes").as_int64(), 100);
    EXPECT_EQ(sites[1].at("stack").as_array()[0].at("name").as_string(), "work");
    EXPECT_EQ(sites[1].at("notes").as_array().size(), 4u);
}

TEST(HeapReport, ErrorsNameTheProblem)
{
    const Profile plain = load(ProfileText().set("vgprof", "3"));
    EXPECT_THROW(heap_report(plain, {}), Error);
    try {
        heap_report(plain, {});
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("has no heap data"), std::string::npos) << e.what();
    }
    cli::ReportOptions nobody;
    nobody.function = "nobody";
    EXPECT_THROW(heap_report(load(with_heap()), nobody), Error);
}

TEST(DhatExport, WritesDhatsHeapModeFile)
{
    const Profile p = load(with_heap());
    std::ostringstream out;
    write_dhat(out, p);
    const boost::json::object d = boost::json::parse(out.str()).as_object();
    EXPECT_EQ(d.at("dhatFileVersion").as_int64(), 2);
    EXPECT_EQ(d.at("mode").as_string(), "heap");
    EXPECT_EQ(d.at("cmd").as_string(), "./app -n 3");
    EXPECT_EQ(d.at("pid").as_int64(), 4242);
    EXPECT_EQ(d.at("te").as_int64(), 100000);
    EXPECT_EQ(d.at("tg").as_int64(), 500);
    const boost::json::array& ftbl = d.at("ftbl").as_array();
    ASSERT_EQ(ftbl.size(), 4u);
    EXPECT_EQ(ftbl[0].as_string(), "[root]");
    EXPECT_EQ(ftbl[1].as_string(), "0x4010C8: work (app.c:5)");   // 4198600
    const boost::json::array& pps = d.at("pps").as_array();
    ASSERT_EQ(pps.size(), 2u);
    const boost::json::object& pp = pps[0].as_object();
    EXPECT_EQ(pp.at("tb").as_int64(), 1000);
    EXPECT_EQ(pp.at("tl").as_int64(), 3000);
    EXPECT_EQ(pp.at("gb").as_int64(), 300);
    EXPECT_EQ(pp.at("eb").as_int64(), 100);
    EXPECT_EQ(pp.at("wb").as_int64(), 1000);
    EXPECT_EQ(boost::json::serialize(pp.at("acc")), "[-50,2,-50,0]");
    EXPECT_EQ(boost::json::serialize(pp.at("fs")), "[1,2]");
    EXPECT_FALSE(pps[1].as_object().contains("acc"));
}

TEST(DhatExport, RefusesAProfileWithoutHeap)
{
    std::ostringstream out;
    EXPECT_THROW(write_dhat(out, load(ProfileText().set("vgprof", "3"))), Error);
}

// A DHAT file, worked out by hand: two program points, one with access
// counts; frame 1 a C++ allocator in its object, 2 and 3 program frames.
const char* const kDhatFile = R"dhat({"dhatFileVersion":2,"mode":"heap","verb":"Allocated",
"bklt":true,"bkacc":true,"tu":"instrs","Mtu":"Minstr","tuth":500,"cmd":"./app -n 3","pid":77,
"te":9000,"tg":4000,
"pps":[{"tb":300,"tbk":3,"tl":600,"mb":200,"mbk":2,"gb":200,"gbk":2,"eb":100,"ebk":1,
        "rb":50,"wb":300,"acc":[-60,1,-40,0],"fs":[1,2]},
       {"tb":1000,"tbk":1,"tl":5000,"mb":0,"mbk":0,"gb":1000,"gbk":1,"eb":0,"ebk":0,
        "rb":2000,"wb":1000,"fs":[3]}],
"ftbl":["[root]","0x4848F5: operator new(unsigned long) (in /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)",
        "0x10A1C4: work (app.c:42)","0x10A200: main (app.c:50)"]})dhat";

TEST(DhatFile, ReadsProgramPointsAsHeapSites)
{
    const Profile p = parse_profile(kDhatFile, "dhat.out.77");
    EXPECT_EQ(p.meta().tool, "dhat");
    EXPECT_EQ(p.meta().argv, (std::vector<std::string>{"./app", "-n", "3"}));
    EXPECT_EQ(p.meta().pid, 77);
    ASSERT_NE(p.heap(), nullptr);
    const Heap& h = *p.heap();
    EXPECT_EQ(h.totals.bytes, 1300u);
    EXPECT_EQ(h.totals.blocks, 4u);
    EXPECT_EQ(h.totals.peak_bytes, 1200u);
    EXPECT_EQ(h.totals.end_bytes, 100u);
    EXPECT_EQ(h.totals.reads, 2050u);
    EXPECT_EQ(h.totals.peak_time, 4000u);
    EXPECT_EQ(h.totals.end_time, 9000u);
    ASSERT_EQ(h.sites.size(), 2u);
    ASSERT_EQ(h.sites[0].frames.size(), 2u);
    const HeapFrame& alloc = h.frame(h.sites[0].frames[0]);
    EXPECT_EQ(p.fn_name(alloc.fn), "operator new(unsigned long)");
    EXPECT_EQ(p.obj_path(p.function(alloc.fn).obj),
              "/usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so");
    const HeapFrame& work = h.frame(h.sites[0].frames[1]);
    EXPECT_EQ(work.addr, 0x10A1C4u);
    EXPECT_EQ(p.fn_name(work.fn), "work");
    EXPECT_EQ(p.file_path(work.file), "app.c");
    EXPECT_EQ(work.line, 42u);
    ASSERT_EQ(h.sites[0].accesses.size(), 100u);
    EXPECT_EQ(h.sites[0].accesses[59], 1u);
    EXPECT_EQ(h.sites[0].accesses[60], 0u);
    // DHAT's "mb" of 0 for the second point is below its live figure at
    // the peak, which stands as its highest.
    EXPECT_EQ(h.sites[1].max_bytes, 1000u);
    // The allocating frame skips the allocator's library.
    EXPECT_EQ(allocating_frame(p, h.sites[0]), h.sites[0].frames[1]);
    ASSERT_EQ(h.snapshots.size(), 2u);
    EXPECT_EQ(h.snapshots[0].sites[0].site, SiteId(1));   // 1000 at the peak, before 200
}

TEST(DhatFile, ReportShowsItsHeapAndRefusesTheCpuViews)
{
    const Profile p = parse_profile(kDhatFile, "dhat.out.77");
    const std::string text = heap_report(p, {});
    EXPECT_NE(text.find("Total:     1,300 bytes in 4 blocks"), std::string::npos) << text;
    EXPECT_NE(text.find("    work (app.c:42)"), std::string::npos) << text;
    cli::ReportOptions cpu;
    cpu.profile = "dhat.out.77";
    std::ostringstream out;
    EXPECT_THROW(cli::write_report(out, p, cpu), Error);
}

TEST(DhatFile, BadFilesAreReportedWithWhereAndWhat)
{
    const auto error_of = [](const std::string& text) {
        try {
            parse_profile(text, "d.json");
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("(loaded)");
    };
    EXPECT_EQ(error_of(R"({"dhatFileVersion":2,"mode":"copy"})"),
              "d.json: mode: only DHAT's heap mode has heap data (not copy or ad-hoc)");
    EXPECT_EQ(error_of(R"({"dhatFileVersion":1})"), "d.json: dhatFileVersion: only version 2 is read");
    EXPECT_EQ(error_of(R"({"dhatFileVersion":2,"mode":"heap","te":5,"tg":1,"pps":[{"tb":1}],"ftbl":[]})"),
              "d.json: pps[0]: missing required key \"tbk\"");
    EXPECT_EQ(error_of(R"({"dhatFileVersion":2,"mode":"heap","te":5,"tg":1,"pps":[)"
                       R"({"tb":1,"tbk":1,"tl":0,"mb":1,"mbk":1,"gb":0,"gbk":0,"eb":0,"ebk":0,)"
                       R"("rb":0,"wb":0,"fs":[4]}],"ftbl":["[root]"]})"),
              "d.json: pps[0].fs: frame 4 out of range (1 in ftbl)");
    EXPECT_EQ(error_of(R"({"dhatFileVersion":2,"mode":"heap","te":5,"tg":1,"pps":[)"
                       R"({"tb":1,"tbk":1,"tl":0,"mb":1,"mbk":1,"gb":0,"gbk":0,"eb":0,"ebk":0,)"
                       R"("rb":0,"wb":0,"fs":[1]}],"ftbl":["[root]","garbage"]})"),
              "d.json: ftbl[1]: not a frame of the form \"0xADDR: function (file:line)\": "
              "\"garbage\"");
}

} // namespace
} // namespace vgprof
