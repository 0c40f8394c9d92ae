// SPDX-License-Identifier: GPL-2.0-or-later
// The flame graph's boxes from the "app" fixture's call-path tree (nodes:
// 0 main, 1 parse, 2 helper under parse, 3 compute, 4 helper under
// compute), widths as fractions of the 2100 Ir total.
#include "flame_graph.hpp"

#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

const FlameBox& box_of(const FlameGraph& g, uint32_t node)
{
    for (const FlameBox& b : g.boxes)
        if (b.node && b.node->value == node)
            return b;
    throw std::runtime_error("no box for node " + std::to_string(node));
}

bool has_box(const FlameGraph& g, uint32_t node)
{
    for (const FlameBox& b : g.boxes)
        if (b.node && b.node->value == node)
            return true;
    return false;
}

TEST(FlameGraph, WidthsAreInclusiveCostsOverTheTotal)
{
    const auto doc = document_of(app_profile());
    const FlameGraph g = build_flame_graph(*doc, 0, std::nullopt, 0);
    ASSERT_EQ(g.boxes.size(), 6u);
    EXPECT_EQ(g.width_value, 2100u);
    EXPECT_EQ(g.depth, 4);
    EXPECT_FALSE(g.boxes[0].node);  // "all"
    EXPECT_EQ(box_of(g, 0).depth, 1);
    EXPECT_DOUBLE_EQ(box_of(g, 0).x1 - box_of(g, 0).x0, 1.0);
    // compute (1500) before parse (500), most expensive first.
    EXPECT_DOUBLE_EQ(box_of(g, 3).x0, 0.0);
    EXPECT_DOUBLE_EQ(box_of(g, 3).x1, 1500.0 / 2100);
    EXPECT_DOUBLE_EQ(box_of(g, 1).x0, 1500.0 / 2100);
    EXPECT_DOUBLE_EQ(box_of(g, 1).x1, 2000.0 / 2100);
    // Each helper sits under its own caller, at its left edge.
    EXPECT_EQ(box_of(g, 4).depth, 3);
    EXPECT_DOUBLE_EQ(box_of(g, 4).x1, 500.0 / 2100);
    EXPECT_DOUBLE_EQ(box_of(g, 2).x0, 1500.0 / 2100);
    EXPECT_DOUBLE_EQ(box_of(g, 2).x1, 1700.0 / 2100);
    EXPECT_EQ(box_of(g, 2).value, 200u);
}

TEST(FlameGraph, ZoomingMakesTheNodeFullWidthUnderItsCallers)
{
    const auto doc = document_of(app_profile());
    const FlameGraph g = build_flame_graph(*doc, 0, PathId(3), 0);
    EXPECT_EQ(g.width_value, 1500u);
    EXPECT_TRUE(box_of(g, 0).above_zoom);
    EXPECT_DOUBLE_EQ(box_of(g, 0).x1, 1.0);
    EXPECT_FALSE(box_of(g, 3).above_zoom);
    EXPECT_DOUBLE_EQ(box_of(g, 3).x0, 0.0);
    EXPECT_DOUBLE_EQ(box_of(g, 3).x1, 1.0);
    EXPECT_DOUBLE_EQ(box_of(g, 4).x1, 500.0 / 1500);
    EXPECT_FALSE(has_box(g, 1));  // parse is outside the zoomed subtree
    EXPECT_FALSE(has_box(g, 2));
}

TEST(FlameGraph, BoxesNarrowerThanTheMinimumAreLeftOut)
{
    const auto doc = document_of(app_profile());
    const FlameGraph g = build_flame_graph(*doc, 0, std::nullopt, 0.2);
    EXPECT_TRUE(has_box(g, 1));   // 500/2100 = 0.24
    EXPECT_TRUE(has_box(g, 4));   // 500/2100
    EXPECT_FALSE(has_box(g, 2));  // 200/2100 = 0.095
}

TEST(FlameGraph, ChildrenStayInsideTheirParent)
{
    const auto doc = document_of(app_profile());
    const FlameGraph g = build_flame_graph(*doc, 0, std::nullopt, 0);
    const Profile& p = doc->profile();
    for (const FlameBox& b : g.boxes) {
        if (!b.node || !p.path(*b.node).parent)
            continue;
        const FlameBox& parent = box_of(g, p.path(*b.node).parent->value);
        EXPECT_EQ(b.depth, parent.depth + 1);
        EXPECT_GE(b.x0, parent.x0);
        EXPECT_LE(b.x1, parent.x1);
    }
}

} // namespace
} // namespace vgprof::viewer
