// SPDX-License-Identifier: GPL-2.0-or-later
// The heap's allocations per stretch of time, from its changes: two sites,
// rows given out of time order as the profile holds them (by site):
//   site 0: 100 bytes in 1 block at 10, 300 in 3 at 250, frees 400 in 4 at 390;
//   site 1: 50 bytes in 1 block at 120.
#include "heap_allocations.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

HeapChanges changes()
{
    HeapChanges c;
    c.rows = {{SiteId(0), 10, 100, 1, 0, 0},
              {SiteId(0), 250, 300, 3, 0, 0},
              {SiteId(0), 390, 0, 0, 400, 4},
              {SiteId(1), 120, 50, 1, 0, 0}};
    return c;
}

TEST(HeapAllocations, EachStretchCountsWhatWasAllocatedAndFreedInIt)
{
    const HeapAllocations a(changes());
    const std::vector<AllocationBucket> b = a.per_bucket(0, 400, 4);
    ASSERT_EQ(b.size(), 4u);
    EXPECT_EQ(b[0].blocks, 1u);   // [0,100): site 0's first block
    EXPECT_EQ(b[0].bytes, 100u);
    EXPECT_EQ(b[1].bytes, 50u);   // [100,200): site 1's
    EXPECT_EQ(b[2].blocks, 3u);   // [200,300)
    EXPECT_EQ(b[3].blocks, 0u);   // [300,400): the frees alone
    EXPECT_EQ(b[3].freed_bytes, 400u);
    EXPECT_EQ(b[3].freed_blocks, 4u);
}

TEST(HeapAllocations, AStretchOutsideTheRecordHoldsNothing)
{
    const HeapAllocations a(changes());
    // [100,260): site 1's block and site 0's three, in halves of 80.
    const std::vector<AllocationBucket> b = a.per_bucket(100, 260, 2);
    EXPECT_EQ(b[0].blocks, 1u);
    EXPECT_EQ(b[1].blocks, 3u);
    for (const AllocationBucket& x : a.per_bucket(400, 1000, 3))
        EXPECT_EQ(x.blocks + x.freed_blocks, 0u);
}

} // namespace
} // namespace vgprof::viewer
