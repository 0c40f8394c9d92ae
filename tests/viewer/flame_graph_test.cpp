// SPDX-License-Identifier: GPL-2.0-or-later
// The flame graph's boxes from the "app" fixture's call-path tree (nodes:
// 0 main, 1 parse, 2 helper under parse, 3 compute, 4 helper under
// compute), widths as fractions of the 2100 Ir total; and the inlined
// functions' boxes on the "inlined" fixture, against the call tree.
#include "call_tree.hpp"
#include "flame_graph.hpp"

#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

const FlameBox& box_of(const FlameGraph& g, uint32_t node)
{
    for (const FlameBox& b : g.boxes)
        if (b.path && b.path->value == node)
            return b;
    throw std::runtime_error("no box for node " + std::to_string(node));
}

bool has_box(const FlameGraph& g, uint32_t node)
{
    for (const FlameBox& b : g.boxes)
        if (b.path && b.path->value == node)
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
    const FlameGraph g = build_flame_graph(*doc, 0, 3u, 0);
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
        if (!b.path || !p.path(*b.path).parent)
            continue;
        const FlameBox& parent = box_of(g, p.path(*b.path).parent->value);
        EXPECT_EQ(b.depth, parent.depth + 1);
        EXPECT_GE(b.x0, parent.x0);
        EXPECT_LE(b.x1, parent.x1);
    }
}

// The box of the function `fn` at row `depth`.
const FlameBox& box_of_fn(const FlameGraph& g, uint32_t fn, int depth)
{
    for (const FlameBox& b : g.boxes)
        if (b.fn == FnId(fn) && b.depth == depth)
            return b;
    throw std::runtime_error("no box for function " + std::to_string(fn));
}

// The inlined fixture: main (50 Ir) > work (1000 Ir of its own code, 600
// of them in erase inlined at app.cpp:32, 300 in move inlined into erase)
// > erase (a path node: the call to helper, 400 Ir, was made from its
// code). work is on one stack, so its inlined code is erase's and move's
// there.
TEST(FlameGraph, InlinedFunctionsAreBoxesUnderTheirHostWithTheirOwnCost)
{
    const auto doc = document_of(inlined_profile());
    const FlameGraph g = build_flame_graph(*doc, 0, std::nullopt, 0);
    EXPECT_EQ(g.width_value, 1450u);
    const FlameBox& work = box_of_fn(g, kWork, 2);
    EXPECT_EQ(work.value, 1400u);
    EXPECT_EQ(work.self, 100u);
    const FlameBox& erase = box_of_fn(g, kErase, 3);
    EXPECT_EQ(erase.value, 600u + 300 + 400);
    EXPECT_EQ(erase.self, 600u);
    EXPECT_DOUBLE_EQ(erase.x1 - erase.x0, 1300.0 / 1450);
    // helper's call (400) before move's code (300), both inside erase.
    const FlameBox& helper = box_of_fn(g, kInlHelper, 4);
    const FlameBox& move = box_of_fn(g, kMove, 4);
    EXPECT_EQ(move.value, 300u);
    EXPECT_EQ(move.self, 300u);
    EXPECT_FALSE(move.path);  // the path tree has no node for move
    EXPECT_DOUBLE_EQ(helper.x0, erase.x0);
    EXPECT_DOUBLE_EQ(move.x0, erase.x0 + 400.0 / 1450);
    EXPECT_LE(move.x1, erase.x1);

    // Zoomed to move's box: it is the full width, under erase, work, main.
    const FlameGraph zoomed = build_flame_graph(*doc, 0, *move.node, 0);
    EXPECT_EQ(zoomed.width_value, 300u);
    ASSERT_EQ(zoomed.boxes.size(), 5u);
    EXPECT_EQ(zoomed.boxes[3].fn, FnId(kErase));
    EXPECT_TRUE(zoomed.boxes[3].above_zoom);
    EXPECT_EQ(zoomed.boxes[4].fn, FnId(kMove));
    EXPECT_DOUBLE_EQ(zoomed.boxes[4].x1, 1.0);
}

// Every box has the own and inclusive costs of the call tree's node at the
// same stack, inlined functions' too.
TEST(FlameGraph, BoxesHaveTheCallTreesCosts)
{
    for (const ProfileText& text : {app_profile(), inlined_profile()}) {
        const auto doc = document_of(text);
        const FlameTree tree(*doc, 0, true);
        const FlameGraph g = build_flame_graph(tree, std::nullopt, 0);
        const CallTree t = build_call_tree(*doc, 0, {}, "", nullptr);
        for (const FlameBox& b : g.boxes) {
            if (!b.node)
                continue;
            std::vector<NodeKey> keys;
            for (std::optional<uint32_t> n = b.node; n; n = tree.parent(*n))
                keys.insert(keys.begin(), NodeKey::of(*tree.fn(*n)));
            const auto node = t.find(keys);
            ASSERT_TRUE(node) << key_name(doc->profile(), keys.back());
            EXPECT_EQ(b.self, t.node(*node).self) << key_name(doc->profile(), keys.back());
            EXPECT_EQ(b.value, t.node(*node).total) << key_name(doc->profile(), keys.back());
        }
        EXPECT_EQ(g.boxes.size(), t.nodes().size() + 1);  // "all" above them
    }
}

} // namespace
} // namespace vgprof::viewer
