// SPDX-License-Identifier: GPL-2.0-or-later
// Diff mode's color bins: a change too small against the largest stays
// neutral, small and large changes land in different bins on round edges,
// and percentages step on fixed edges.
#include "diff_scale.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

TEST(DiffScale, CountsAreBinnedAgainstTheLargestChange)
{
    const DiffScale s = DiffScale::counts(1000000);
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
    const DiffScale s = DiffScale::counts(2485947);
    EXPECT_DOUBLE_EQ(s.edge(1), 2000);    // 2,486 rounded down to 2, 5 or 1 times a power of ten
    EXPECT_DOUBLE_EQ(s.edge(4), 200000);  // 497,189
    EXPECT_DOUBLE_EQ(DiffScale::counts(0).edge(1), 1);
}

TEST(DiffScale, PercentagesOfTheBase)
{
    const DiffScale s = DiffScale::percentages();
    EXPECT_TRUE(s.relative());
    EXPECT_EQ(s.bin(5, 1000), 0);      // 0.5%
    EXPECT_EQ(s.bin(60, 1000), 2);     // 6%
    EXPECT_EQ(s.bin(-600, 1000), -4);  // -60%
    EXPECT_EQ(s.bin(10, 0), 5);        // from nothing: as large as there is
}

} // namespace
} // namespace vgprof::viewer
