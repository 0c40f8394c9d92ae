// SPDX-License-Identifier: GPL-2.0-or-later
// The heap views' model: naming sites by the code that asked for the
// memory, the chart stacked by site, a range of time read from the
// snapshots, the allocation tree and the summary. Most figures come from
// the "app" fixture with heap data (viewer_fixture.hpp): site 0, helper <
// compute, 4000 bytes in 4 blocks live at the peak (instruction 900);
// site 1, helper < parse, 500 bytes in 1 block never freed; the timeline
// [300: 1000 bytes], [900: 4000], [1500: 500] up to the end at 2100.
#include "heap_chart.hpp"
#include "heap_range.hpp"
#include "heap_sites.hpp"
#include "heap_summary.hpp"
#include "heap_tree.hpp"
#include "merged_tree.hpp"
#include "names.hpp"

#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

// A profile of heap data alone, no call graph: `strs`, `objs` and `fns`
// (file 1 is strs[1]), heap frames and sites as JSON arrays' contents, and
// the totals of sites that were all freed by the end (instruction 1000).
ProfileText heap_only_profile(const std::string& strs, const std::string& objs, const std::string& fns,
                              const std::string& frames, const std::string& sites, uint64_t bytes,
                              uint64_t blocks)
{
    ProfileText t;
    t.set("vgprof", "3")
        .set("strs", strs)
        .set("objs", objs)
        .set("files", "[0,1]")
        .set("fns", fns)
        .set("lines", "[[0,1,2,100]]")
        .drop("instrs")
        .drop_call_graph()
        .set("heap", R"({"depth":12,"totals":{"bytes":)" + std::to_string(bytes) + R"(,"blocks":)" +
                         std::to_string(blocks) +
                         R"(,"peak_bytes":0,"peak_blocks":0,"peak_time":0,"end_bytes":0,"end_blocks":0,)"
                         R"("end_time":1000,"reads":0,"writes":0},"frames":[)" +
                         frames + R"(],"sites":[)" + sites +
                         R"(],"timeline":{"width":1,"samples":[]},"snapshots":[]})")
        .set_meta("totals", "[100]");
    return t;
}

// Six sites of a program whose allocations go through the allocator's
// preload library (malloc) and C++ (operator new), some of them through a
// stripped library's unnamed code (??? in libx.so):
//   0: malloc < a < b < main        1: malloc < a < b < c
//   2: operator new < ??? < a < b   3: malloc < ??? < a < b
//   4: malloc                       5: malloc < ???
// Site i allocated 100 * (i + 1) bytes in one block.
ProfileText naming_profile()
{
    return heap_only_profile(
        R"(["???","/src/app.c","/usr/bin/app","main","a","b","c","malloc",)"
        R"("/usr/libexec/valgrind/vgpreload_vgprof-amd64-linux.so","/usr/lib/libx.so",)"
        R"x("operator new(unsigned long)","/usr/lib/libstdc++.so.6"])x",
        "[2,8,9,11]", "[[3,1,0,1],[4,1,0,10],[5,1,0,20],[6,1,0,30],[7,0,1,0],[0,0,2,0],[10,0,3,0]]",
        // 0 malloc, 1 a:11, 2 b:21, 3 main:2, 4 c:31, 5 ???, 6 operator new
        "[1,4,0,0],[2,1,1,11],[3,2,1,21],[4,0,1,2],[5,3,1,31],[6,5,0,0],[7,6,0,0]",
        "[[0,1,2,3],100,1,10,100,1,0,0,0,0,0,0,null],[[0,1,2,4],200,1,10,200,1,0,0,0,0,0,0,null],"
        "[[6,5,1,2],300,1,10,300,1,0,0,0,0,0,0,null],[[0,5,1,2],400,1,10,400,1,0,0,0,0,0,0,null],"
        "[[0],500,1,10,500,1,0,0,0,0,0,0,null],[[0,5],600,1,10,600,1,0,0,0,0,0,0,null]",
        2100, 6);
}

TEST(HeapSites, TheAllocatorsOwnFramesDoNotNameASite)
{
    const auto doc = document_of(naming_profile());
    const Profile& p = doc->profile();
    EXPECT_TRUE(is_allocator_function(p, FnId(4)));   // in vgpreload_*
    EXPECT_TRUE(is_allocator_function(p, FnId(6)));   // operator new(unsigned long)
    EXPECT_FALSE(is_allocator_function(p, FnId(1)));  // a
    const Heap& heap = *p.heap();
    EXPECT_EQ(first_outside_allocator(p, heap.sites[0]), 1u);
    EXPECT_EQ(site_function(p, heap.sites[0]), FnId(1));
    EXPECT_FALSE(first_outside_allocator(p, heap.sites[4]));
    EXPECT_EQ(site_label(p, heap.sites[0]), "a:11 < b");
    // The unnamed frame is passed over for the named ones.
    EXPECT_EQ(site_label(p, heap.sites[2]), "a:11 < b");
    EXPECT_EQ(site_callers(p, heap.sites[0]), "b < main");
    EXPECT_EQ(site_label(p, heap.sites[4]), "malloc");
    EXPECT_EQ(site_label(p, heap.sites[5]), "??? [libx.so]");
}

TEST(HeapSites, LabelsAreLengthenedUntilNoTwoSitesShareOne)
{
    const auto doc = document_of(naming_profile());
    const std::vector<std::string> labels = distinct_site_labels(doc->profile());
    ASSERT_EQ(labels.size(), 6u);
    EXPECT_EQ(labels[0], "a:11 < b < main");
    EXPECT_EQ(labels[1], "a:11 < b < c");
    // Sites 2 and 3 differ only in frames without a name: numbered, the
    // one that allocated more first.
    EXPECT_EQ(labels[3], "a:11 < b #1");
    EXPECT_EQ(labels[2], "a:11 < b #2");
    EXPECT_EQ(labels[4], "malloc");
}

// Ten sites that all allocate through the program's own wrapper w (from
// its line 5): malloc < w < f<i> < main, f0 to f9; site i 10 * (i + 1)
// bytes.
ProfileText wrapper_profile()
{
    std::string strs = R"(["???","/src/w.c","/usr/bin/w","main","w","malloc","/usr/libexec/valgrind/vgpreload_x.so")";
    std::string fns = "[[3,1,0,1],[4,1,0,5],[5,0,1,0]", frames = "[1,2,0,0],[2,1,1,5],[3,0,1,9]",
                sites;
    uint64_t bytes = 0;
    for (int i = 0; i < 10; ++i) {
        strs += ",\"f" + std::to_string(i) + "\"";
        fns += ",[" + std::to_string(7 + i) + ",1,0," + std::to_string(20 + i) + "]";
        frames += ",[" + std::to_string(10 + i) + "," + std::to_string(3 + i) + ",1," + std::to_string(20 + i) + "]";
        const uint64_t b = 10 * uint64_t(i + 1);
        bytes += b;
        sites += std::string(i ? "," : "") + "[[0,1," + std::to_string(3 + i) + ",2]," + std::to_string(b) +
                 ",1,10," + std::to_string(b) + ",1,0,0,0,0,0,0,null]";
    }
    return heap_only_profile(strs + "]", "[2,6]", fns + "]", frames, sites, bytes, 10);
}

TEST(HeapSites, TheProgramsOwnAllocationWrapperIsPassedOverInLabels)
{
    const auto doc = document_of(wrapper_profile());
    const Profile& p = doc->profile();
    EXPECT_EQ(allocation_wrappers(p), std::set<FnId>{FnId(1)});
    EXPECT_EQ(site_label(p, p.heap()->sites[3]), "w:5 < f3");  // the first frame outside the allocator
    EXPECT_EQ(site_function(p, p.heap()->sites[3]), FnId(1));
    const std::vector<std::string> labels = distinct_site_labels(p);
    EXPECT_EQ(labels[3], "f3:23 < main");
    // Too few sites through a function make no wrapper.
    const auto small = document_of(naming_profile());
    EXPECT_TRUE(allocation_wrappers(small->profile()).empty());
}

TEST(Names, TextTooLongToDrawIsCutInTheMiddleBetweenCharacters)
{
    EXPECT_EQ(drawable("short"), "short");
    const std::string exact(kMostDrawn, 'x');
    EXPECT_EQ(drawable(exact), exact);
    // 3,000 two-byte characters: cut after whole ones, and says how much went.
    std::string wide;
    for (int i = 0; i < 3000; ++i)
        wide += "\xc3\xa9";
    const std::string cut = drawable(wide);
    EXPECT_LT(cut.size(), kMostDrawn + 64);
    const size_t mark = cut.find(" ... (");
    ASSERT_NE(mark, std::string::npos);
    EXPECT_EQ(mark % 2, 0u);   // whole characters before the mark
    const size_t left_out = std::stoul(cut.substr(mark + 6));
    const size_t tail = cut.size() - (cut.find(" bytes left out) ... ") + 21);
    EXPECT_EQ(mark + left_out + tail, wide.size());
    EXPECT_EQ(tail % 2, 0u);
}

TEST(Names, SharedFunctionNamesCarryTheirObject)
{
    const auto doc = document_of(naming_profile());
    const Names& names = doc->names();
    EXPECT_EQ(names.function(FnId(1)), "a");
    EXPECT_FALSE(names.shared(FnId(1)));
    // ??? and main share no name in this profile either; two ??? would.
    ProfileText t = naming_profile();
    t.set("fns", "[[3,1,0,1],[4,1,0,10],[5,1,0,20],[6,1,0,30],[7,0,1,0],[0,0,2,0],[0,0,0,0]]");
    const auto twice = document_of(t);
    EXPECT_EQ(twice->names().function(FnId(5)), "??? [libx.so]");
    EXPECT_EQ(twice->names().function(FnId(6)), "??? [app]");
}

TEST(HeapChart, BandsAreTheSnapshotSharesOfTheTimeline)
{
    const auto doc = document_of(app_profile_with_heap());
    const Heap& heap = *doc->heap();
    const std::vector<SiteId> top = top_sites(heap, 5);
    ASSERT_EQ(top.size(), 2u);
    EXPECT_EQ(top[0], SiteId(0));  // 4000 at the peak
    EXPECT_EQ(top[1], SiteId(1));  // 500 at the end
    EXPECT_DOUBLE_EQ(site_share(heap, SiteId(0), 900), 1.0);
    EXPECT_DOUBLE_EQ(site_share(heap, SiteId(0), 100), 1.0);  // before the first snapshot: its shares
    EXPECT_DOUBLE_EQ(site_share(heap, SiteId(0), 1500), 0.5);  // half way to the end's, where it has none
    EXPECT_DOUBLE_EQ(site_share(heap, SiteId(1), 2100), 1.0);

    // Columns of 300 instructions.
    const HeapChart chart = heap_chart(heap, top, 0, 2100, 7);
    ASSERT_EQ(chart.columns.size(), 7u);
    EXPECT_EQ(chart.max_bytes, 4000u);
    EXPECT_EQ(chart.columns[0].bytes, 0u);
    EXPECT_EQ(chart.columns[1].bytes, 1000u);
    EXPECT_EQ(chart.columns[1].bands, (std::vector<uint64_t>{1000, 0}));
    // [900, 1200): 4000 at its top; at its middle, 1050, site 0 had
    // 1 - 150/1200 of the live bytes and site 1 the rest.
    EXPECT_EQ(chart.columns[3].bytes, 4000u);
    EXPECT_EQ(chart.columns[3].bands, (std::vector<uint64_t>{3500, 500}));
    EXPECT_EQ(chart.columns[3].other(), 0u);
}

TEST(HeapChart, AxisTicksAreRoundNumbers)
{
    EXPECT_EQ(axis_ticks(0, 4000, 4), (std::vector<uint64_t>{0, 1000, 2000, 3000, 4000}));
    EXPECT_EQ(axis_ticks(0, 2100, 3), (std::vector<uint64_t>{0, 1000, 2000}));
    // 330 / 3 = 110 rounds up to a step of 200.
    EXPECT_EQ(axis_ticks(150, 480, 3), (std::vector<uint64_t>{200, 400}));
    EXPECT_EQ(axis_ticks(5, 5, 3), (std::vector<uint64_t>{5}));
}

TEST(HeapRange, ARangeIsReadFromTheSnapshotsAtItsEnds)
{
    const auto doc = document_of(app_profile_with_heap());
    const HeapRange r = heap_range(*doc->heap(), 2100, 1000);
    EXPECT_EQ(r.t0, 1000u);
    ASSERT_TRUE(r.start && r.end);
    EXPECT_EQ(r.start->time, 900u);  // the peak's
    EXPECT_EQ(r.end->time, 2100u);   // the end's
    EXPECT_EQ(r.snapshots, 2u);
    ASSERT_EQ(r.sites.size(), 2u);
    // The leak grew by its 500 bytes; site 0's blocks were all freed.
    EXPECT_EQ(r.sites[0].site, SiteId(1));
    EXPECT_EQ(r.sites[0].growth(), 500);
    EXPECT_EQ(r.sites[1].growth(), -4000);
    EXPECT_EQ(r.sites[1].most, 4000u);
    // Before the first snapshot nothing is known to be live.
    EXPECT_FALSE(heap_range(*doc->heap(), 0, 100).end);
}

TEST(HeapRange, ARangeIsReadExactlyFromTheChanges)
{
    const auto doc = document_of(
        app_profile_with_changes(1, "[[0,300,1000,1,0,0],[0,900,3000,3,0,0],[0,1200,0,0,4000,4],[1,1400,500,1,0,0]]"));
    // 1300 to 2100: the snapshot in force at 1300 is the peak's, with site
    // 0's 4000 bytes, but site 0 held nothing from 1200.
    HeapRange r = heap_range(*doc->heap(), 2100, 1300);
    EXPECT_TRUE(r.from_changes);
    EXPECT_EQ(r.exact_t0, 1300u);
    EXPECT_EQ(r.exact_t1, 2100u);
    ASSERT_EQ(r.sites.size(), 1u);
    EXPECT_EQ(r.sites[0].site, SiteId(1));
    EXPECT_EQ(r.sites[0].growth(), 500);
    EXPECT_EQ(r.sites[0].allocated_bytes, 500u);
    EXPECT_EQ(r.sites[0].allocated_blocks, 1u);
    // 1000 to 2100: site 0 held 4000 and freed them all.
    r = heap_range(*doc->heap(), 1000, 2100);
    ASSERT_EQ(r.sites.size(), 2u);
    EXPECT_EQ(r.sites[1].site, SiteId(0));
    EXPECT_EQ(r.sites[1].at_start, 4000u);
    EXPECT_EQ(r.sites[1].growth(), -4000);
    EXPECT_EQ(r.sites[1].freed_bytes, 4000u);
    EXPECT_EQ(r.sites[1].allocated_bytes, 0u);
    // Before the first change: nothing live, nothing allocated.
    EXPECT_TRUE(heap_range(*doc->heap(), 0, 100).sites.empty());
    // 800 to 1300: site 0 rose to 4000 and fell to nothing.
    r = heap_range(*doc->heap(), 800, 1300);
    ASSERT_EQ(r.sites.size(), 1u);
    EXPECT_EQ(r.sites[0].most, 4000u);
    EXPECT_EQ(r.sites[0].allocated_blocks, 3u);
}

TEST(HeapRange, ARangeOfWideStretchesSaysWhereItIsExact)
{
    const auto doc = document_of(
        app_profile_with_changes(1000, "[[0,0,1000,1,0,0],[0,1000,3000,3,4000,4],[1,1000,500,1,0,0]]"));
    const HeapRange r = heap_range(*doc->heap(), 1100, 1300);
    EXPECT_EQ(r.exact_t0, 1000u);
    EXPECT_EQ(r.exact_t1, 2000u);
    EXPECT_EQ(r.width, 1000u);
}

TEST(HeapChart, WithChangesEachBandIsTheSitesExactLiveBytesAsSteps)
{
    const auto doc = document_of(app_profile_with_changes(1, kExactRows));
    const Heap& heap = *doc->heap();
    // A column for each instruction.
    const HeapChart chart = heap_chart(heap, {SiteId(0), SiteId(1)}, 0, 2100, 2100);
    ASSERT_EQ(chart.columns.size(), 2100u);
    EXPECT_TRUE(chart.exact);
    EXPECT_EQ(chart.max_bytes, 4000u);
    EXPECT_EQ(chart.max_blocks, 4u);
    const auto bands = [&](size_t t) { return chart.columns[t].bands; };
    EXPECT_EQ(chart.columns[299].bytes, 0u);
    EXPECT_EQ(bands(300), (std::vector<uint64_t>{1000, 0}));
    EXPECT_EQ(bands(301), (std::vector<uint64_t>{1000, 0}));
    EXPECT_EQ(bands(899), (std::vector<uint64_t>{1000, 0}));
    // The whole 4000 bytes up to the instruction before the free, not a
    // slope down to it.
    EXPECT_EQ(bands(1199), (std::vector<uint64_t>{4000, 0}));
    EXPECT_EQ(chart.columns[1199].blocks, 4u);
    EXPECT_EQ(chart.columns[1200].bytes, 0u);
    EXPECT_EQ(bands(1200), (std::vector<uint64_t>{0, 0}));
    // The block never freed keeps its size to the end.
    EXPECT_EQ(bands(1400), (std::vector<uint64_t>{0, 500}));
    EXPECT_EQ(bands(1800), (std::vector<uint64_t>{0, 500}));
    EXPECT_EQ(bands(2099), (std::vector<uint64_t>{0, 500}));
    for (const ChartColumn& c : chart.columns)
        EXPECT_EQ(c.other(), 0u);
}

TEST(HeapChart, AColumnOfManyChangesIsReadAtItsHighestMoment)
{
    const auto doc = document_of(app_profile_with_changes(1, kExactRows));
    const Heap& heap = *doc->heap();
    const HeapChart one = heap_chart(heap, {SiteId(0), SiteId(1)}, 0, 2100, 1);
    ASSERT_EQ(one.columns.size(), 1u);
    EXPECT_EQ(one.columns[0].bytes, 4000u);
    EXPECT_EQ(one.columns[0].moment, 900u);
    EXPECT_EQ(one.columns[0].bands, (std::vector<uint64_t>{4000, 0}));
    // Columns of 300 instructions: [1200, 1500) is highest from 1400.
    const HeapChart seven = heap_chart(heap, {SiteId(0)}, 0, 2100, 7);
    EXPECT_EQ(seven.columns[3].bytes, 4000u);
    EXPECT_EQ(seven.columns[4].bytes, 500u);
    EXPECT_EQ(seven.columns[4].moment, 1400u);
    EXPECT_EQ(seven.columns[4].bands, std::vector<uint64_t>{0});
    EXPECT_EQ(seven.columns[4].other(), 500u);
}

TEST(HeapChart, WithChangesTheLargestSitesAreThoseOfTheStretchShown)
{
    const auto doc = document_of(app_profile_with_changes(1, kExactRows));
    const HeapSteps steps(*doc->heap());
    EXPECT_EQ(top_sites(steps, 5, 0, 2100), (std::vector<SiteId>{SiteId(0), SiteId(1)}));
    EXPECT_EQ(top_sites(steps, 1, 0, 2100), std::vector<SiteId>{SiteId(0)});
    // Site 0 held nothing from 1200 on.
    EXPECT_EQ(top_sites(steps, 5, 1300, 2100), std::vector<SiteId>{SiteId(1)});
    EXPECT_TRUE(top_sites(steps, 5, 0, 300).empty());
}

TEST(HeapSteps, LiveBytesAtAMomentCountEveryChangeUpToIt)
{
    const auto doc = document_of(app_profile_with_changes(1, kExactRows));
    const HeapSteps steps(*doc->heap());
    EXPECT_EQ(steps.total_at(299).bytes, 0u);
    EXPECT_EQ(steps.total_at(300).bytes, 1000u);
    EXPECT_EQ(steps.total_at(1199).bytes, 4000u);
    EXPECT_EQ(steps.total_at(1199).blocks, 4u);
    EXPECT_EQ(steps.total_at(1200).bytes, 0u);
    EXPECT_EQ(steps.total_at(2100).bytes, 500u);
    EXPECT_EQ(steps.site_at(SiteId(0), 1199).bytes, 4000u);
    EXPECT_EQ(steps.site_at(SiteId(0), 1200).bytes, 0u);
    EXPECT_EQ(steps.site_at(SiteId(1), 1399).bytes, 0u);
    EXPECT_EQ(steps.site_at(SiteId(1), 2100).bytes, 500u);
    EXPECT_EQ(steps.site_at(SiteId(1), 2100).blocks, 1u);
}

TEST(HeapChart, WideStretchesStepAtTheirEdges)
{
    // Stretches of 1000: site 0 gained 1000 bytes in [0, 1000) and lost
    // them in [1000, 2000), site 1 gained 500 there.
    const auto doc =
        document_of(app_profile_with_changes(1000, "[[0,0,1000,1,0,0],[0,1000,3000,3,4000,4],[1,1000,500,1,0,0]]"));
    const HeapChart chart = heap_chart(*doc->heap(), {SiteId(0), SiteId(1)}, 0, 2100, 2100);
    EXPECT_EQ(chart.columns[0].bands, (std::vector<uint64_t>{1000, 0}));
    EXPECT_EQ(chart.columns[999].bands, (std::vector<uint64_t>{1000, 0}));
    EXPECT_EQ(chart.columns[1000].bands, (std::vector<uint64_t>{0, 500}));
    EXPECT_EQ(chart.columns[2099].bands, (std::vector<uint64_t>{0, 500}));
}

TEST(HeapTree, AllocationsMergeIntoTheirCallersTree)
{
    const auto doc = document_of(app_profile_with_heap());
    const Profile& p = doc->profile();
    const CallTree bytes = allocation_tree(p, HeapMeasure::bytes, 0, nullptr);
    EXPECT_EQ(bytes.total(), 4500u);
    ASSERT_EQ(bytes.roots().size(), 2u);
    EXPECT_EQ(bytes.node(bytes.roots()[0]).key, NodeKey::of(FnId(kCompute)));
    const auto helper = bytes.find({NodeKey::of(FnId(kCompute)), NodeKey::of(FnId(kHelper))});
    ASSERT_TRUE(helper);
    EXPECT_EQ(bytes.node(*helper).self, 4000u);
    EXPECT_EQ(bytes.node(*helper).calls, 4u);  // blocks
    EXPECT_EQ(allocation_tree(p, HeapMeasure::leaked, 0, nullptr).total(), 500u);
    EXPECT_EQ(allocation_tree(p, HeapMeasure::peak, 0, nullptr).total(), 4000u);
    EXPECT_EQ(allocation_tree(p, HeapMeasure::at_time, 2100, nullptr).total(), 500u);
    EXPECT_EQ(allocation_tree(p, HeapMeasure::at_time, 1000, nullptr).total(), 4000u);
    // The merged tree finds every stack that asked for memory through helper.
    MergedTree callers = MergedTree::callers_of(bytes, NodeKey::of(FnId(kHelper)));
    EXPECT_EQ(callers.total(), 4500u);
}

TEST(HeapTree, WithChangesAMomentReadsEverySiteExactly)
{
    const auto doc = document_of(app_profile_with_changes(1, kExactRows));
    const Profile& p = doc->profile();
    // At 1300 the snapshot in force is the peak's, with site 0's 4000
    // bytes; but site 0 freed them all at 1200.
    EXPECT_EQ(allocation_tree(p, HeapMeasure::at_time, 1300, nullptr).total(), 0u);
    EXPECT_EQ(allocation_tree(p, HeapMeasure::at_time, 1199, nullptr).total(), 4000u);
    EXPECT_EQ(allocation_tree(p, HeapMeasure::at_time, 300, nullptr).total(), 1000u);
    // At 1500 site 1 holds its 500 bytes, which no snapshot before lists.
    const CallTree later = allocation_tree(p, HeapMeasure::at_time, 1500, nullptr);
    EXPECT_EQ(later.total(), 500u);
    const auto site1 = later.find({NodeKey::of(FnId(kParse)), NodeKey::of(FnId(kHelper))});
    ASSERT_TRUE(site1);
    EXPECT_EQ(later.node(*site1).self, 500u);
}

TEST(HeapTree, WithChangesARangeGivesWhatWasAllocatedInIt)
{
    const auto doc = document_of(app_profile_with_changes(1, kExactRows));
    const Profile& p = doc->profile();
    EXPECT_TRUE(measured_in_range(*doc->heap(), HeapMeasure::bytes));
    EXPECT_FALSE(measured_in_range(*doc->heap(), HeapMeasure::peak));
    // [800, 1500): 3000 bytes in 3 blocks at site 0, 500 in 1 at site 1.
    const CallTree bytes = allocation_tree(p, HeapMeasure::bytes, 0, nullptr, TimeRange{800, 1500});
    EXPECT_EQ(bytes.total(), 3500u);
    const auto helper = bytes.find({NodeKey::of(FnId(kCompute)), NodeKey::of(FnId(kHelper))});
    ASSERT_TRUE(helper);
    EXPECT_EQ(bytes.node(*helper).self, 3000u);
    EXPECT_EQ(bytes.node(*helper).calls, 3u);
    EXPECT_EQ(allocation_tree(p, HeapMeasure::blocks, 0, nullptr, TimeRange{800, 1500}).total(), 4u);
    // [1000, 1300) allocated nothing, though it freed 4000 bytes.
    EXPECT_EQ(allocation_tree(p, HeapMeasure::bytes, 0, nullptr, TimeRange{1000, 1300}).total(), 0u);
    // Figures of no range are the period's.
    EXPECT_EQ(allocation_tree(p, HeapMeasure::peak, 0, nullptr, TimeRange{1000, 1300}).total(), 4000u);
}

TEST(HeapTree, WithoutChangesARangeLeavesTheFiguresThePeriods)
{
    const auto doc = document_of(app_profile_with_heap());
    EXPECT_FALSE(measured_in_range(*doc->heap(), HeapMeasure::bytes));
    EXPECT_EQ(allocation_tree(doc->profile(), HeapMeasure::bytes, 0, nullptr, TimeRange{1000, 1300}).total(),
              4500u);
}

TEST(HeapSummary, FiguresAndLeadingSites)
{
    const auto doc = document_of(app_profile_with_heap());
    const HeapSummary s = heap_summary(*doc->heap(), 5);
    EXPECT_EQ(s.totals.peak_bytes, 4000u);
    // Blocks lived 1000 instructions on average at both sites: none temporary.
    EXPECT_EQ(s.temporary_blocks, 0u);
    EXPECT_DOUBLE_EQ(s.blocks_per_million, 5 * 1e6 / 2100);
    EXPECT_EQ(s.largest_at_peak, std::vector<SiteId>{SiteId(0)});
    EXPECT_EQ(s.largest_leaks, std::vector<SiteId>{SiteId(1)});
    EXPECT_EQ(s.most_blocks, (std::vector<SiteId>{SiteId(0), SiteId(1)}));
    EXPECT_TRUE(s.most_temporary.empty());
}

} // namespace
} // namespace vgprof::viewer
