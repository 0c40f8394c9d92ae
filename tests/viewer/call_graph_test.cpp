// SPDX-License-Identifier: GPL-2.0-or-later
// The call graph view's neighbourhood of the selected function, and its
// layout by Graphviz: callers above, callees below.
#include "call_neighbourhood.hpp"
#include "graph_layout.hpp"

#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

const GraphNode* node_of(const Neighbourhood& g, FnId fn)
{
    for (const GraphNode& n : g.nodes)
        if (n.fn == fn)
            return &n;
    return nullptr;
}

const GraphEdge* edge_of(const Neighbourhood& g, FnId from, FnId to)
{
    for (const GraphEdge& e : g.edges)
        if (g.nodes[e.from].fn == from && g.nodes[e.to].fn == to)
            return &e;
    return nullptr;
}

TEST(CallNeighbourhood, OneLevelOfHelperIsItsTwoCallers)
{
    const auto doc = document_of(app_profile());
    const Neighbourhood g = call_neighbourhood(*doc, FnId(kHelper), 0, 1, 10);
    ASSERT_EQ(g.nodes.size(), 3u);
    EXPECT_EQ(g.nodes[0].fn, FnId(kHelper));
    EXPECT_EQ(g.nodes[0].inclusive, 700u);
    EXPECT_EQ(node_of(g, FnId(kParse))->level, -1);
    EXPECT_EQ(node_of(g, FnId(kCompute))->level, -1);
    EXPECT_EQ(edge_of(g, FnId(kCompute), FnId(kHelper))->count, 5u);
    EXPECT_EQ(edge_of(g, FnId(kCompute), FnId(kHelper))->cost, 500u);
    EXPECT_EQ(edge_of(g, FnId(kParse), FnId(kHelper))->count, 2u);
    // main is two levels up: not shown, counted on both callers.
    EXPECT_FALSE(node_of(g, FnId(kMain)));
    EXPECT_EQ(node_of(g, FnId(kParse))->hidden, 1u);
}

TEST(CallNeighbourhood, TwoLevelsReachMainAndItsEdges)
{
    const auto doc = document_of(app_profile());
    const Neighbourhood g = call_neighbourhood(*doc, FnId(kHelper), 0, 2, 10);
    ASSERT_EQ(g.nodes.size(), 4u);
    EXPECT_EQ(node_of(g, FnId(kMain))->level, -2);
    EXPECT_EQ(edge_of(g, FnId(kMain), FnId(kCompute))->cost, 1500u);
    EXPECT_EQ(g.edges.size(), 4u);
}

TEST(CallNeighbourhood, CalleesGoBelowAndEachLevelKeepsTheMostExpensive)
{
    const auto doc = document_of(app_profile());
    // main's callees: compute (1500 through its call) beats parse (500).
    const Neighbourhood g = call_neighbourhood(*doc, FnId(kMain), 0, 2, 1);
    ASSERT_EQ(g.nodes.size(), 3u);
    EXPECT_EQ(node_of(g, FnId(kCompute))->level, 1);
    EXPECT_EQ(node_of(g, FnId(kHelper))->level, 2);
    EXPECT_FALSE(node_of(g, FnId(kParse)));
    EXPECT_EQ(g.nodes[0].hidden, 1u);  // parse
}

TEST(CallNeighbourhood, DepthZeroIsTheFunctionAlone)
{
    const auto doc = document_of(app_profile());
    const Neighbourhood g = call_neighbourhood(*doc, FnId(kCompute), 0, 0, 10);
    ASSERT_EQ(g.nodes.size(), 1u);
    EXPECT_TRUE(g.edges.empty());
    EXPECT_EQ(g.nodes[0].hidden, 2u);  // main above, helper below
}

TEST(GraphLayout, CallsBetweenFunctionsOfOneLevelAreLaidOut)
{
    // Three functions calling malloc, free and another of their level, as
    // tests/progs/heap_basic's do: labelled calls within one rank, which
    // Graphviz 2.42 lays out as flat edges and then frees twice.
    Neighbourhood g;
    for (size_t i = 0; i < 6; ++i)
        g.nodes.push_back({FnId(uint32_t(i)), 1, 0, 0});
    for (const auto& [from, to] : {std::pair{3, 0}, {3, 1}, {3, 2}, {4, 2}, {5, 2}})
        g.edges.push_back({size_t(from), size_t(to), 1, 1});
    LayoutInput in;
    in.node_sizes.assign(g.nodes.size(), Point{120, 40});
    in.edge_labels.assign(g.edges.size(), "1x");
    const GraphLayout layout = layout_graph(g, in);
    ASSERT_EQ(layout.edges.size(), g.edges.size());
    for (const EdgeRoute& r : layout.edges) {
        EXPECT_GE(r.spline.size(), 4u);
        // Their labels, placed by the viewer, lie between the two ends.
        const Point a = r.spline.front(), b = r.spline.back();
        EXPECT_GE(r.label_centre.x, std::min(a.x, b.x) - 1);
        EXPECT_LE(r.label_centre.x, std::max(a.x, b.x) + 1);
        EXPECT_GT(r.label_centre.x + r.label_centre.y, 0);
    }
}

TEST(GraphLayout, CallersAboveCalleesBelowAndNoBoxesOverlap)
{
    const auto doc = document_of(app_profile());
    const Neighbourhood g = call_neighbourhood(*doc, FnId(kCompute), 0, 2, 10);
    LayoutInput in;
    in.node_sizes.assign(g.nodes.size(), Point{120, 40});
    in.edge_labels.assign(g.edges.size(), "5x");
    const GraphLayout layout = layout_graph(g, in);
    ASSERT_EQ(layout.nodes.size(), g.nodes.size());
    ASSERT_EQ(layout.edges.size(), g.edges.size());
    for (size_t i = 0; i < g.nodes.size(); ++i)
        for (size_t j = 0; j < g.nodes.size(); ++j) {
            if (g.nodes[i].level < g.nodes[j].level) {
                EXPECT_LT(layout.nodes[i].centre.y, layout.nodes[j].centre.y);
            }
            if (i < j) {
                const Box& a = layout.nodes[i];
                const Box& b = layout.nodes[j];
                const bool apart = std::abs(a.centre.x - b.centre.x) >= (a.width + b.width) / 2 ||
                                   std::abs(a.centre.y - b.centre.y) >= (a.height + b.height) / 2;
                EXPECT_TRUE(apart) << i << " and " << j << " overlap";
            }
        }
    for (const Box& b : layout.nodes) {
        EXPECT_FLOAT_EQ(b.width, 120);
        EXPECT_GE(b.centre.x - b.width / 2, -0.5f);
        EXPECT_LE(b.centre.x + b.width / 2, layout.width + 0.5f);
    }
    // Each edge starts at its caller's box and its arrow ends at its callee's.
    for (size_t i = 0; i < g.edges.size(); ++i) {
        const EdgeRoute& r = layout.edges[i];
        ASSERT_GE(r.spline.size(), 4u);
        const Box& from = layout.nodes[g.edges[i].from];
        const Box& to = layout.nodes[g.edges[i].to];
        EXPECT_NEAR(std::abs(r.spline.front().y - from.centre.y), from.height / 2, 2.0);
        EXPECT_NEAR(std::abs(r.arrow_end.y - to.centre.y), to.height / 2, 2.0);
    }
}

} // namespace
} // namespace vgprof::viewer
