// SPDX-License-Identifier: GPL-2.0-or-later
// The heap timeline's downsampling and navigation. Live memory read as a
// step function of instruction time: samples at 0 (0 bytes), 100 (1000),
// 150 (4000, the peak), 160 (500) and 400 (0).
#include "heap_timeline.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

std::vector<HeapSample> steps()
{
    return {{0, 0, 0}, {100, 1000, 1}, {150, 4000, 3}, {160, 500, 1}, {400, 0, 0}};
}

TEST(HeapTimeline, EachBucketSpansTheLeastAndMostLiveMemoryInIt)
{
    const auto b = downsample(steps(), 0, 500, 5);
    ASSERT_EQ(b.size(), 5u);
    // [0,100): 0 throughout.
    EXPECT_EQ(b[0].min_bytes, 0u);
    EXPECT_EQ(b[0].max_bytes, 0u);
    // [100,200): 1000, then the 4000 peak, then 500.
    EXPECT_EQ(b[1].t0, 100u);
    EXPECT_EQ(b[1].min_bytes, 500u);
    EXPECT_EQ(b[1].max_bytes, 4000u);
    EXPECT_EQ(b[1].max_blocks, 3u);
    // [200,300) and [300,400): no sample, the 500 carried in.
    EXPECT_EQ(b[2].min_bytes, 500u);
    EXPECT_EQ(b[2].max_bytes, 500u);
    EXPECT_EQ(b[3].max_bytes, 500u);
    // [400,500): back to 0.
    EXPECT_EQ(b[4].max_bytes, 0u);
    EXPECT_EQ(b[4].t1, 500u);
}

TEST(HeapTimeline, ANarrowPeakSurvivesDownsampling)
{
    const auto b = downsample(steps(), 0, 500, 1);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b[0].max_bytes, 4000u);
    EXPECT_EQ(b[0].min_bytes, 0u);
}

TEST(HeapTimeline, AZoomedWindowStartsFromTheValueInForce)
{
    const auto b = downsample(steps(), 155, 165, 2);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b[0].min_bytes, 4000u);  // [155,160): the peak still live
    EXPECT_EQ(b[0].max_bytes, 4000u);
    EXPECT_EQ(b[1].min_bytes, 500u);   // [160,165): 500 from 160 on
    EXPECT_EQ(b[1].max_bytes, 500u);
}

TEST(HeapTimeline, NoBucketsForAnEmptyWindow)
{
    EXPECT_TRUE(downsample(steps(), 10, 10, 4).empty());
    EXPECT_TRUE(downsample(steps(), 0, 10, 0).empty());
    const auto b = downsample({}, 0, 10, 2);
    EXPECT_EQ(b[1].max_bytes, 0u);
}

TEST(HeapTimeline, ValueAtAMoment)
{
    EXPECT_EQ(live_at(steps(), 159).bytes, 4000u);
    EXPECT_EQ(live_at(steps(), 160).bytes, 500u);
    EXPECT_EQ(live_at(steps(), 160).blocks, 1u);
    EXPECT_EQ(live_at({{10, 7, 1}}, 5).bytes, 0u);
}

TEST(HeapTimeline, TheSnapshotInForceIsTheLastBefore)
{
    Heap heap;
    heap.snapshots.resize(2);
    heap.snapshots[0].time = 100;
    heap.snapshots[1].time = 150;
    heap.snapshots[1].sites.resize(2);
    EXPECT_EQ(snapshot_at(heap, 99), nullptr);
    EXPECT_EQ(snapshot_at(heap, 120)->time, 100u);
    EXPECT_EQ(snapshot_at(heap, 150)->sites.size(), 2u);
}

TEST(TimeWindow, ZoomKeepsThePointUnderTheMouseInPlace)
{
    TimeWindow w(1000);
    w.zoom(250, 0.5);
    EXPECT_EQ(w.begin(), 125u);
    EXPECT_EQ(w.end(), 625u);
    w.zoom(500, 4);  // wider than the run: the whole run
    EXPECT_EQ(w.begin(), 0u);
    EXPECT_EQ(w.end(), 1000u);
}

TEST(TimeWindow, PanStopsAtTheEnds)
{
    TimeWindow w(1000);
    w.show(100, 300);
    w.pan(-500);
    EXPECT_EQ(w.begin(), 0u);
    EXPECT_EQ(w.end(), 200u);
    w.pan(5000);
    EXPECT_EQ(w.begin(), 800u);
    EXPECT_EQ(w.end(), 1000u);
}

TEST(TimeWindow, NeverNarrowerThanSixteenInstructions)
{
    TimeWindow w(1000);
    for (int i = 0; i < 100; ++i)
        w.zoom(500, 0.1);
    EXPECT_EQ(w.span(), 16u);
    EXPECT_LE(w.begin(), 500u);
    EXPECT_GE(w.end(), 500u);
}

// A dump after a zero at instruction 5,000 describes [5,000, 9,000]: the
// chart spans that period, and neither zooming out nor panning goes
// before its start.
TEST(TimeWindow, ADumpsChartStartsAtItsPeriodsStart)
{
    Heap heap;
    heap.start_time = 5000;
    heap.totals.end_time = 9000;
    TimeWindow w = heap_period(heap);
    EXPECT_EQ(w.begin(), 5000u);
    EXPECT_EQ(w.end(), 9000u);
    w.zoom(6000, 0.5);
    EXPECT_EQ(w.begin(), 5500u);
    EXPECT_EQ(w.end(), 7500u);
    w.pan(-10000);
    EXPECT_EQ(w.begin(), 5000u);
    EXPECT_EQ(w.end(), 7000u);
    w.zoom(5000, 10);
    EXPECT_EQ(w.begin(), 5000u);
    EXPECT_EQ(w.end(), 9000u);
    w.show(0, 100);
    EXPECT_EQ(w.begin(), 5000u);
    EXPECT_EQ(w.end(), 5016u);
}

// A whole run's period starts at 0.
TEST(TimeWindow, AWholeRunsChartStartsAtZero)
{
    Heap heap;
    heap.totals.end_time = 700;
    const TimeWindow w = heap_period(heap);
    EXPECT_EQ(w.begin(), 0u);
    EXPECT_EQ(w.end(), 700u);
}

} // namespace
} // namespace vgprof::viewer
