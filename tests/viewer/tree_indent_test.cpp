// SPDX-License-Identifier: GPL-2.0-or-later
// Tree rows indented a step per level while the name keeps its room, the
// deeper ones at one place with their depth shown.
#include "tree_indent.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

// A 400-pixel column, 10 per level, names of at least 200, labels 30 wide:
// 170 pixels of indentation, 17 levels.
const TreeIndent kIndent(400, 10, 200, 30);

TEST(TreeIndent, ShallowRowsStepOnePerLevelWithoutALabel)
{
    for (uint32_t depth : {0u, 1u, 5u, 17u}) {
        const RowIndent r = kIndent.of(depth);
        EXPECT_FLOAT_EQ(r.name, 10.0f * float(depth)) << depth;
        EXPECT_FALSE(r.depth_shown) << depth;
    }
    EXPECT_EQ(kIndent.last_stepped(), 17u);
}

TEST(TreeIndent, DeepRowsKeepTheirNameInTheColumnAndShowTheirDepth)
{
    for (uint32_t depth : {18u, 40u, 1000u}) {
        const RowIndent r = kIndent.of(depth);
        EXPECT_TRUE(r.depth_shown) << depth;
        EXPECT_FLOAT_EQ(r.label, 170.0f) << depth;
        EXPECT_FLOAT_EQ(r.name, 200.0f) << depth;  // 200 left for the name: 400 - 200
    }
}

TEST(TreeIndent, ADeeperRowNeverStartsLeftOfItsParent)
{
    float last = -1;
    for (uint32_t depth = 0; depth < 60; ++depth) {
        const float name = kIndent.of(depth).name;
        EXPECT_GT(name, last) << depth;  // strictly right up to the cap...
        last = name;
        if (depth > kIndent.last_stepped())
            break;  // ...then all at one place
    }
}

TEST(TreeIndent, AColumnNarrowerThanANameIndentsNothingButShowsDepth)
{
    const TreeIndent narrow(150, 10, 200, 30);
    EXPECT_FLOAT_EQ(narrow.of(0).name, 0.0f);
    EXPECT_FALSE(narrow.of(0).depth_shown);
    const RowIndent r = narrow.of(3);
    EXPECT_TRUE(r.depth_shown);
    EXPECT_FLOAT_EQ(r.label, 0.0f);
    EXPECT_FLOAT_EQ(r.name, 30.0f);
}

} // namespace
} // namespace vgprof::viewer
