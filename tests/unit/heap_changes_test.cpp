// SPDX-License-Identifier: GPL-2.0-or-later
// heap.changes (format version 11): what each site allocated and freed over
// time; loading and checking it, writing it back, and what a range of time
// holds (vgprof/heap_changes.hpp).
//
// The fixture's period after a zero at instruction 50 (heap_test.cpp's
// kAfterZero), worked out by hand:
//   site 0: allocates 3 blocks of 100 at 100; 7 more at 800, freeing 3 of
//           them; frees 6 at 900: 1000 bytes in 10 blocks allocated, 900
//           in 9 freed, 100 in 1 live at the end.
//   site 1: holds its 2000-byte block from before the period, frees it at
//           700.
//   live: 2000 from 50, 2300 from 100 (the peak at 500 is within), 300 from
//         700, 700 from 800, 100 from 900.
#include "heap_fixture.hpp"
#include "profile_text.hpp"

#include "vgprof/error.hpp"
#include "vgprof/heap_changes.hpp"
#include "vgprof/load.hpp"
#include "vgprof/write.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace vgprof {
namespace {

using test::heap_json;
using test::kFrames;
using test::kSite0;
using test::ProfileText;
using test::kAfterZero;
using test::kSitesAfterZero;
using test::kWholeRun;
using test::with_heap;

const char* const kRows = "[[0,100,300,3,0,0],[0,800,700,7,300,3],[0,900,0,0,600,6],"
                          "[1,700,0,0,2000,1]]";

std::string changes(const std::string& rows = kRows, uint64_t width = 1)
{
    return R"({"width":)" + std::to_string(width) + R"(,"max":50000,"rows":)" + rows + "}";
}

ProfileText with_changes(const std::string& changes_json, const char* version = "11")
{
    std::string heap = heap_json(kAfterZero, kFrames, kSitesAfterZero);
    heap.insert(heap.find(R"(,"frames")"), std::string(R"(,"whole_run":)") + kWholeRun);
    if (!changes_json.empty())
        heap.insert(heap.size() - 1, R"(,"changes":)" + changes_json);
    ProfileText t = with_heap(heap);
    t.set("vgprof", version).drop_call_graph();
    return t;
}

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

TEST(HeapChanges, Version11ReadsEachSitesRowsAndWritesThemBack)
{
    const Profile p = load(with_changes(changes()));
    ASSERT_TRUE(p.heap()->changes);
    const HeapChanges& c = *p.heap()->changes;
    EXPECT_EQ(c.width, 1u);
    EXPECT_EQ(c.max, 50000u);
    ASSERT_EQ(c.rows.size(), 4u);
    EXPECT_EQ(c.rows[1].site.value, 0u);
    EXPECT_EQ(c.rows[1].time, 800u);
    EXPECT_EQ(c.rows[1].bytes, 700u);
    EXPECT_EQ(c.rows[1].freed_blocks, 3u);
    EXPECT_EQ(c.rows[3].site.value, 1u);

    std::ostringstream out;
    write_profile(out, p);
    const Profile again = parse_profile(out.str(), "again.json");
    EXPECT_EQ(again.meta().version, 11);
    ASSERT_TRUE(again.heap()->changes);
    EXPECT_EQ(again.heap()->changes->rows.size(), 4u);
    EXPECT_EQ(again.heap()->changes->rows[2].freed_bytes, 600u);
}

TEST(HeapChanges, Version11NeedsThemAndOlderVersionsHaveNone)
{
    EXPECT_EQ(load_error(with_changes("")), "p.json: heap: missing required key \"changes\"");
    const Profile old = load(with_changes("", "10"));
    EXPECT_FALSE(old.heap()->changes);
    std::ostringstream out;
    write_profile(out, old);
    EXPECT_EQ(out.str().find("\"changes\""), std::string::npos);
}

TEST(HeapChanges, RowsMustAddUpToTheSitesAndNeverFreeWhatWasNotLive)
{
    EXPECT_EQ(load_error(with_changes(changes(
                  "[[0,100,300,3,0,0],[0,800,600,7,300,3],[0,900,0,0,600,6],[1,700,0,0,2000,1]]"))),
              "p.json: heap.changes.rows: site 0's rows allocate 900 bytes in 10 blocks, but the "
              "site allocated 1000 in 10");
    // Site 0 frees 6 blocks when it has allocated 3: the totals agree.
    EXPECT_EQ(load_error(with_changes(changes(
                  "[[0,100,300,3,600,6],[0,800,700,7,300,3],[0,900,0,0,0,0],[1,700,0,0,2000,1]]"))),
              "p.json: heap.changes.rows[0]: the row frees more than site 0 held (300 bytes in "
              "3 blocks)");
    EXPECT_EQ(load_error(with_changes(changes(
                  "[[0,100,300,3,0,0],[0,800,700,7,300,3],[0,900,0,0,600,6],[1,700,0,0,1000,1]]"))),
              "p.json: heap.changes.rows: the rows free 1900 bytes in 10 blocks, but the period "
              "freed 2900 in 10");
    EXPECT_EQ(load_error(with_changes(changes(
                  "[[0,800,700,7,300,3],[0,100,300,3,0,0],[0,900,0,0,600,6],[1,700,0,0,2000,1]]"))),
              "p.json: heap.changes.rows[1]: rows must be in order of site, then of time, each "
              "once");
    EXPECT_EQ(load_error(with_changes(changes(kRows, 3))),
              "p.json: heap.changes.rows[0][1]: time 100 is not the start of a stretch of 3 "
              "instructions");
    EXPECT_EQ(load_error(with_changes(changes("[[0,100,300,3,0,0],[0,800,700,7,300,3],"
                                              "[0,900,0,0,600,6],[1,200000,0,0,2000,1]]"))),
              "p.json: heap.changes.rows[3][1]: time 200000 is outside the period (50 to 100000)");
    EXPECT_EQ(load_error(with_changes(changes("[[2,100,300,3,0,0]]"))),
              "p.json: heap.changes.rows[0][0]: heap site id 2 out of range (2 sites)");
    EXPECT_EQ(load_error(with_changes(changes("[[0,100,300,3,0]]"))),
              "p.json: heap.changes.rows[0]: expected 6 entries [site, time, bytes, blocks, "
              "freed_bytes, freed_blocks], got 5");
    EXPECT_EQ(load_error(with_changes(changes(kRows, 0))),
              "p.json: heap.changes.width: the width of a stretch must be at least 1");
}

TEST(HeapChanges, ARangeHoldsWhatItsSitesDidWithin)
{
    const Profile p = load(with_changes(changes()));
    // From 750 to 850: site 1 is gone; site 0 goes from 300 to 700.
    HeapInRange r = heap_in_range(*p.heap(), 750, 850);
    EXPECT_EQ(r.t0, 750u);
    EXPECT_EQ(r.t1, 850u);
    ASSERT_EQ(r.sites.size(), 1u);
    EXPECT_EQ(r.sites[0].site.value, 0u);
    EXPECT_EQ(r.sites[0].live_bytes_before, 300u);
    EXPECT_EQ(r.sites[0].live_bytes_after, 700u);
    EXPECT_EQ(r.sites[0].bytes, 700u);
    EXPECT_EQ(r.sites[0].blocks, 7u);
    EXPECT_EQ(r.sites[0].freed_bytes, 300u);
    EXPECT_EQ(r.sites[0].most_bytes, 700u);
    // From the period's start to 701: site 1's block, live at the start,
    // freed at 700; site 0's first 3 blocks.
    r = heap_in_range(*p.heap(), 50, 701);
    ASSERT_EQ(r.sites.size(), 2u);
    EXPECT_EQ(r.sites[1].live_bytes_before, 2000u);
    EXPECT_EQ(r.sites[1].live_bytes_after, 0u);
    EXPECT_EQ(r.sites[1].freed_blocks, 1u);
    EXPECT_EQ(r.sites[1].most_bytes, 2000u);
    EXPECT_EQ(r.sites[0].most_bytes, 300u);
    EXPECT_EQ(r.total.live_bytes_before, 2000u);
    EXPECT_EQ(r.total.live_bytes_after, 300u);
    EXPECT_EQ(r.total.bytes, 300u);
    // The whole period: what the totals say.
    r = heap_in_range(*p.heap(), 50, 100000);
    EXPECT_EQ(r.total.bytes, 1000u);
    EXPECT_EQ(r.total.freed_bytes, 2900u);
    EXPECT_EQ(r.total.live_bytes_after, 100u);
    EXPECT_EQ(r.total.live_blocks_after, 1u);
    // An empty range after everything: site 0's last block alone.
    r = heap_in_range(*p.heap(), 5000, 5000);
    ASSERT_EQ(r.sites.size(), 1u);
    EXPECT_EQ(r.total.live_bytes_before, 100u);
    EXPECT_EQ(r.total.bytes, 0u);
}

TEST(HeapChanges, ARangeWidensToTheStretches)
{
    // The same changes in stretches of 100 instructions.
    const Profile p = load(with_changes(changes(kRows, 100)));
    const HeapInRange r = heap_in_range(*p.heap(), 750, 850);
    EXPECT_EQ(r.t0, 700u);
    EXPECT_EQ(r.t1, 900u);
    EXPECT_EQ(r.total.freed_bytes, 2300u);   // site 1 at 700, site 0 at 800
    EXPECT_EQ(r.total.bytes, 700u);
    EXPECT_EQ(r.total.live_bytes_before, 2300u);
    EXPECT_EQ(r.total.live_bytes_after, 700u);
}

} // namespace
} // namespace vgprof
