// SPDX-License-Identifier: GPL-2.0-or-later
// Diff mode's color bins: a change too small against the largest stays
// neutral, small and large changes land in different bins on round edges,
// and percentages step on fixed edges; a change under the gate's noise
// floor (1% of the base, 5,000) is none; the legend lists each bin once.
#include "diff_scale.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

TEST(DiffScale, CountsAreBinnedAgainstTheLargestChange)
{
    const DiffScale s = DiffScale::counts(1000000, NoiseFloor::none());
    // Edges at a thousandth, a hundredth, 5%, 20% and half of it.
    EXPECT_DOUBLE_EQ(s.edge(1), 1000);
    EXPECT_DOUBLE_EQ(s.edge(2), 10000);
    EXPECT_DOUBLE_EQ(s.edge(3), 50000);
    EXPECT_DOUBLE_EQ(s.edge(5), 500000);
    EXPECT_EQ(s.bin(0, 10), 0);
    EXPECT_EQ(s.bin(999, 10), 0);    // too small to show
    EXPECT_EQ(s.bin(1000, 10), 1);
    EXPECT_EQ(s.bin(-20000, 10), -2);
    EXPECT_EQ(s.bin(1000000, 10), 5);
    // A small change and the largest look apart; so do more and less.
    EXPECT_FALSE(s.color(2000, 0) == s.color(1000000, 0));
    EXPECT_FALSE(s.color(-2000, 0) == s.color(2000, 0));
    EXPECT_EQ(s.color(10, 0), DiffScale::bin_color(0));
}

TEST(DiffScale, EdgesAreRoundNumbers)
{
    const DiffScale s = DiffScale::counts(2485947, NoiseFloor::none());
    EXPECT_DOUBLE_EQ(s.edge(1), 2000);    // 2,486 rounded down to 2, 5 or 1 times a power of ten
    EXPECT_DOUBLE_EQ(s.edge(4), 200000);  // 497,189
    EXPECT_DOUBLE_EQ(DiffScale::counts(0, NoiseFloor::none()).edge(1), 1);
}

TEST(DiffScale, PercentagesOfTheBase)
{
    const DiffScale s = DiffScale::percentages(NoiseFloor::none());
    EXPECT_TRUE(s.relative());
    EXPECT_EQ(s.bin(5, 1000), 0);      // 0.5%
    EXPECT_EQ(s.bin(60, 1000), 2);     // 6%
    EXPECT_EQ(s.bin(-600, 1000), -4);  // -60%
    EXPECT_EQ(s.bin(10, 0), 5);        // from nothing: as large as there is
}

TEST(DiffScale, ElevenInstructionsMoreAreNoChange)
{
    // The largest change a view shows is +11: without a floor every edge
    // rounds to 1, 2 or 5 and +11 took the darkest red.
    const DiffScale s = DiffScale::counts(11);
    EXPECT_EQ(s.bin(11, 2000), 0);
    EXPECT_EQ(s.bin(-11, 2000), 0);
    EXPECT_EQ(s.color(11, 2000), DiffScale::bin_color(0));
    EXPECT_EQ(s.bin(11, 0), 0);  // a new function of 11 instructions too
}

TEST(DiffScale, AChangeCountsWhenAtLeastOnePercentAndFiveThousand)
{
    const DiffScale s = DiffScale::counts(1000000);
    EXPECT_DOUBLE_EQ(s.edge(1), 5000);   // a thousandth of 1,000,000 raised to the floor
    EXPECT_DOUBLE_EQ(s.edge(2), 10000);  // a hundredth, above it
    EXPECT_EQ(s.bin(6000, 1000000), 0);     // 0.6% of the base
    EXPECT_EQ(s.bin(6000, 100000), 1);      // 6%, and more than 5,000
    EXPECT_EQ(s.bin(-6000, 100000), -1);
    EXPECT_EQ(s.bin(4999, 100), 0);         // 4,999%, but under 5,000
    EXPECT_EQ(s.bin(5000, 0), 1);           // from nothing
    EXPECT_EQ(s.bin(1000000, 10000000), 5); // 10%
}

TEST(DiffScale, PercentagesHaveTheFloorToo)
{
    const DiffScale s = DiffScale::percentages();
    EXPECT_EQ(s.bin(60, 1000), 0);          // 6%, but 60
    EXPECT_EQ(s.bin(60000, 1000000), 2);    // 6%, 60,000
    EXPECT_EQ(s.bin(-600000, 1000000), -4); // -60%
    const DiffScale half = DiffScale::percentages(NoiseFloor{3, 0});
    EXPECT_DOUBLE_EQ(half.edge(1), 3);      // the 1% edge raised to a 3% floor
    EXPECT_EQ(half.bin(2, 100), 0);
    EXPECT_EQ(half.bin(4, 100), 1);
}

TEST(DiffScale, TheLegendListsEachBinOnce)
{
    // Largest change 11, no floor: edges 1, 1, 1, 2 and 5 (0.011, 0.11
    // and 0.55 round up to 1), so a change of 1 lands in bin 3.
    const DiffScale small = DiffScale::counts(11, NoiseFloor::none());
    EXPECT_EQ(small.bins(), (std::vector<int>{-5, -4, -3, 0, 3, 4, 5}));
    EXPECT_EQ(small.bin(1, 0), 3);
    // With the floor every edge is 5,000: one bin each side.
    EXPECT_EQ(DiffScale::counts(11).bins(), (std::vector<int>{-5, 0, 5}));
    // Edges 1,000 to 500,000 all differ.
    EXPECT_EQ(DiffScale::counts(1000000, NoiseFloor::none()).bins().size(), 11u);
}

} // namespace
} // namespace vgprof::viewer
