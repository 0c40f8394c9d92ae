// SPDX-License-Identifier: GPL-2.0-or-later
// The views' model on shapes no real run takes but a hostile profile can:
// a recursion 100,000 deep (the flame graph lays it out without recursing
// as deep; the inverted tree opens it with bounded work), and the longest
// cache line Valgrind simulates (the data heatmap's cells stay a few
// stripes wide).
#include "call_tree.hpp"
#include "data_heatmap.hpp"
#include "flame_graph.hpp"
#include "merged_tree.hpp"

#include "../unit/data_fixture.hpp"
#include "../unit/tree_profile.hpp"
#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

TEST(DeepRecursion, TheFlameGraphHasABoxForEveryLevel)
{
    // main, then 100,000 levels of descend, each costing 1: level k (main
    // 0) is 100,001 - k wide of 100,001, never narrower than 1e-9.
    const std::string text = profile_text(chain(100000, true));
    const auto doc = document_of(text.c_str(), "deep.json");
    const FlameGraph g = build_flame_graph(*doc, 0, std::nullopt, 1e-9);
    ASSERT_EQ(g.boxes.size(), 100002u);  // "all" above them
    EXPECT_EQ(g.depth, 100002);
    EXPECT_EQ(g.boxes.back().depth, 100001);
    EXPECT_EQ(g.boxes.back().value, 1u);
}

TEST(DeepRecursion, OpeningTheInvertedTreeStopsAfterBoundedWork)
{
    // Each level of the inverted tree follows every deeper level's node:
    // opened all the way down, 20,000 levels would follow 2*10^8 of them.
    const std::string text = profile_text(chain(20000, true));
    const auto doc = document_of(text.c_str(), "deep.json");
    const CallTree t = build_call_tree(*doc, 0, {}, "", nullptr);
    MergedTree up = MergedTree::bottom_up(t);
    const uint32_t descend = up.roots().front();
    ASSERT_EQ(up.node(descend).key, NodeKey::of(FnId(1)));
    up.expand_hottest(descend, 0.0);
    // Level k follows 20,000 - k nodes: the budget of 2^20 is spent after
    // some 50 levels, each of which made a node or two.
    EXPECT_LT(up.size(), 200u);
    EXPECT_GT(up.rows().size(), 40u);
}

TEST(LongCacheLines, DataHeatmapCellsHaveAtMostSixteenStripes)
{
    ProfileText p = with_data();
    p.set_meta("cache", R"({"I1":[32768,8,64],"D1":[1073741824,1,536870912],)"
                        R"("LL":[1073741824,1,536870912],"branches":false})");
    const auto doc = document_of(p);
    const DataHeatmap m = data_heatmap(doc->profile(), 1, 64);
    ASSERT_EQ(m.line_size, uint64_t(1) << 29);
    ASSERT_FALSE(m.rows.empty());
    for (const DataHeatRow& row : m.rows) {
        // Each object fits one line: one cell of 8-byte buckets.
        EXPECT_EQ(row.lines, 1u);
        EXPECT_EQ(row.stripes, kMaxStripes);
        EXPECT_EQ(row.values.size(), kMaxStripes);
    }
    // Heap site 0's offsets 0 and 8 fall into the first of the 16 stripes
    // of 2^25 bytes: its 400 D1mr.
    EXPECT_EQ(m.rows[0].values[0], 400u);
}

} // namespace
} // namespace vgprof::viewer
