// SPDX-License-Identifier: GPL-2.0-or-later
// The call graph view's neighbourhood of the selected function, and its
// layout by Graphviz: callers above, callees below.
#include "call_neighbourhood.hpp"
#include "graph_labels.hpp"
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

using Polyline = std::vector<Point>;

// The point of a piecewise cubic Bézier curve at fraction `t` of its pieces
// (as the layout gives them: a start point then three points a piece).
Point on_spline(const std::vector<Point>& s, float t)
{
    const size_t pieces = (s.size() - 1) / 3;
    const size_t piece = std::min(pieces - 1, size_t(t * float(pieces)));
    const float u = t * float(pieces) - float(piece), v = 1 - u;
    const Point* p = &s[3 * piece];
    return {v * v * v * p[0].x + 3 * v * v * u * p[1].x + 3 * v * u * u * p[2].x + u * u * u * p[3].x,
            v * v * v * p[0].y + 3 * v * v * u * p[1].y + 3 * v * u * u * p[2].y + u * u * u * p[3].y};
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

TEST(CallNeighbourhood, AnInlinedFunctionCarriesItsCodesCostAndIsLinkedToItsHostAndCallees)
{
    const auto doc = document_of(inlined_profile());
    const Neighbourhood g = call_neighbourhood(*doc, FnId(kWork), 0, 2, 10);
    const GraphNode* erase = node_of(g, FnId(kErase));
    ASSERT_NE(erase, nullptr);
    EXPECT_EQ(erase->level, 1);
    EXPECT_EQ(erase->self, 600u);                  // its own code; move's 300 is move's
    EXPECT_EQ(erase->inclusive, 600u + 300 + 400); // with move's code and the calls of helper
    const auto edge = [&](FnId from, FnId to) -> const GraphEdge* {
        for (const GraphEdge& e : g.edges)
            if (g.nodes[e.from].fn == from && g.nodes[e.to].fn == to)
                return &e;
        return nullptr;
    };
    ASSERT_NE(edge(FnId(kWork), FnId(kErase)), nullptr);
    EXPECT_EQ(edge(FnId(kWork), FnId(kErase))->count, 0u);   // inlined, not called
    EXPECT_EQ(edge(FnId(kWork), FnId(kErase))->cost, 900u);  // its code in work
    ASSERT_NE(edge(FnId(kErase), FnId(kInlHelper)), nullptr);
    EXPECT_EQ(edge(FnId(kErase), FnId(kInlHelper))->count, 2u);
    EXPECT_EQ(edge(FnId(kErase), FnId(kInlHelper))->cost, 400u);
}

TEST(CallNeighbourhood, FunctionsInlinedIntoTheCentreAreItsCalleesThoughTheyMadeNoCall)
{
    // move, inlined into erase, calls nothing: the path tree has no node
    // of it.
    const auto doc = document_of(inlined_profile());
    const Neighbourhood g = call_neighbourhood(*doc, FnId(kErase), 0, 1, 10);
    const GraphNode* move = node_of(g, FnId(kMove));
    ASSERT_NE(move, nullptr);
    EXPECT_EQ(move->level, 1);
    EXPECT_EQ(move->inclusive, 300u);
    const size_t at = size_t(move - g.nodes.data());
    const auto edge = std::find_if(g.edges.begin(), g.edges.end(),
                                   [&](const GraphEdge& e) { return e.from == 0 && e.to == at; });
    ASSERT_NE(edge, g.edges.end());
    EXPECT_EQ(edge->count, 0u);
    EXPECT_EQ(edge->cost, 300u);
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
    // tests/progs/heap_basic's do: calls within one rank, flat edges.
    Neighbourhood g;
    for (size_t i = 0; i < 6; ++i)
        g.nodes.push_back({FnId(uint32_t(i)), 1, 0, 0});
    for (const auto& [from, to] : {std::pair{3, 0}, {3, 1}, {3, 2}, {4, 2}, {5, 2}})
        g.edges.push_back({size_t(from), size_t(to), 1, 1});
    LayoutInput in;
    in.node_sizes.assign(g.nodes.size(), Point{120, 40});
    const GraphLayout layout = layout_graph(g, in);
    ASSERT_EQ(layout.edges.size(), g.edges.size());
    for (const EdgeRoute& r : layout.edges) {
        EXPECT_GE(r.spline.size(), 4u);
        // The middle of the curve lies between its two ends.
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

// start calls lib (a library's unnamed code), which calls main; main calls
// work, which calls lib again. Self Ir: start 10, lib 20 then 900, main
// 30, work 40.
ProfileText cycle_profile()
{
    return program_profile(R"(["???","/src/c.c","/usr/bin/c","lib","main","start","work"])",
                           "[[5,1,0,1],[3,1,0,10],[4,1,0,20],[6,1,0,30]]",
                           "[[0,1,2,10],[1,1,11,920],[2,1,21,30],[3,1,31,40]]",
                           "[[0,1,1,2,1,990],[1,2,1,11,1,970],[2,3,1,21,1,940],[3,1,1,31,1,900]]",
                           "[[0,1000],[1,990],[2,970],[3,940]]",
                           "[[null,0,0,10,1000],[0,1,1,20,990],[1,2,1,30,970],[2,3,1,40,940],"
                           "[3,1,1,900,900]]",
                           "[1000]");
}

TEST(CallNeighbourhood, CallersAreTheFramesAboveOnRealStacks)
{
    // Through the call edges alone, work (a callee of main, calling lib)
    // would be a caller of lib and so two levels above main.
    const auto doc = document_of(cycle_profile());
    const FnId start(0), lib(1), main(2), work(3);
    const Neighbourhood g = call_neighbourhood(*doc, main, 0, 2, 10);
    const auto level_of = [&](FnId fn, bool callers) {
        for (const GraphNode& n : g.nodes)
            if (n.fn == fn && (n.level < 0) == callers && n.level != 0)
                return n.level;
        return 0;
    };
    EXPECT_EQ(level_of(lib, true), -1);
    EXPECT_EQ(level_of(start, true), -2);
    EXPECT_EQ(level_of(work, true), 0);  // not among the callers
    // lib is a callee too, under work: shown on that side as well.
    EXPECT_EQ(level_of(work, false), 1);
    EXPECT_EQ(level_of(lib, false), 2);
    // No call is drawn from the callees' side up to the callers'.
    for (const GraphEdge& e : g.edges)
        EXPECT_FALSE(g.nodes[e.from].level > 0 && g.nodes[e.to].level < 0);
}

TEST(CallNeighbourhood, ARecursiveCallDoesNotHideWhatIsCalledBelowIt)
{
    // main > rec > rec > leaf: leaf is a callee of rec, one level below it
    // (and rec a caller of leaf, past its inner call).
    const auto doc = document_of(recursive_profile());
    const FnId main(0), rec(1), leaf(2);
    const Neighbourhood down = call_neighbourhood(*doc, main, 0, 2, 10);
    ASSERT_TRUE(node_of(down, leaf));
    EXPECT_EQ(node_of(down, leaf)->level, 2);
    const Neighbourhood up = call_neighbourhood(*doc, leaf, 0, 2, 10);
    EXPECT_EQ(node_of(up, rec)->level, -1);
    ASSERT_TRUE(node_of(up, main));
    EXPECT_EQ(node_of(up, main)->level, -2);
}

// main calls a, b, c and d; each of them calls e, f, g and h.
ProfileText fan_profile()
{
    const std::vector<std::string> names{"main", "a", "b", "c", "d", "e", "f", "g", "h"};
    std::string strs = R"(["???","/src/f.c","/usr/bin/f")", fns = "[", lines = "[", calls = "[",
                inclusive = "[", paths = "[[null,0,0,1,21]";
    for (size_t i = 0; i < names.size(); ++i) {
        strs += ",\"" + names[i] + "\"";
        fns += (i ? "," : "") + ("[" + std::to_string(3 + i) + ",1,0," + std::to_string(i + 1) + "]");
    }
    // Self cost 1 per path node: main 1, a..d 1 each, e..h 4 each.
    for (size_t f = 0; f < 9; ++f)
        lines += (f ? "," : "") + ("[" + std::to_string(f) + ",1," + std::to_string(f + 1) + "," +
                                   std::to_string(f < 5 ? 1 : 4) + "]");
    inclusive += "[0,21],[1,5],[2,5],[3,5],[4,5],[5,4],[6,4],[7,4],[8,4]";
    for (size_t a = 1; a <= 4; ++a) {
        calls += (a > 1 ? "," : "") + ("[0," + std::to_string(a) + ",1,1,1,5]");
        paths += ",[0," + std::to_string(a) + ",1,1,5]";
    }
    // Nodes 1..4 are a..d; their children come after them.
    for (size_t a = 1; a <= 4; ++a)
        for (size_t e = 5; e <= 8; ++e) {
            calls += ",[" + std::to_string(a) + "," + std::to_string(e) + ",1,2,1,1]";
            paths += ",[" + std::to_string(a) + "," + std::to_string(e) + ",1,1,1]";
        }
    return program_profile(strs + "]", fns + "]", lines + "]", calls + "]", inclusive + "]",
                           paths + "]", "[21]");
}

TEST(CallNeighbourhood, CallsBetweenOtherFunctionsAreCapped)
{
    const auto doc = document_of(fan_profile());
    const Neighbourhood g = call_neighbourhood(*doc, FnId(0), 0, 2, 10, 2);
    ASSERT_EQ(g.nodes.size(), 9u);
    // main's 4 calls, one linking call for each of e..h, 2 more; of the
    // 16 calls from a..d to e..h, 10 are left out.
    EXPECT_EQ(g.edges.size(), 4u + 4u + 2u);
    EXPECT_EQ(g.edges_left_out, 10u);
}

TEST(GraphLabels, LabelsOverlapNoBoxAndNoOtherLabel)
{
    const auto doc = document_of(fan_profile());
    const Neighbourhood g = call_neighbourhood(*doc, FnId(0), 0, 2, 10, 100);
    LayoutInput in;
    in.node_sizes.assign(g.nodes.size(), Point{100, 40});
    const GraphLayout layout = layout_graph(g, in);
    // Labels as wide as "5,000x": not all 20 fit between the boxes.
    const std::vector<Point> sizes(g.edges.size(), Point{45, 15});
    std::vector<uint64_t> priority;
    for (const GraphEdge& e : g.edges)
        priority.push_back(e.from == 0 ? 10 : 1);
    const auto at = place_labels(layout, sizes, priority).edges;
    std::vector<LabelBox> placed;
    for (size_t i = 0; i < at.size(); ++i) {
        if (!at[i])
            continue;
        const LabelBox label{*at[i], sizes[i]};
        for (const Box& b : layout.nodes)
            EXPECT_FALSE(label.overlaps({b.centre, {b.width, b.height}})) << "label " << i;
        for (const LabelBox& other : placed)
            EXPECT_FALSE(label.overlaps(other)) << "label " << i;
        placed.push_back(label);
    }
    EXPECT_LT(placed.size(), g.edges.size());
    // The centre's calls come first: all four have room.
    for (size_t i = 0; i < g.edges.size(); ++i)
        if (g.edges[i].from == 0)
            EXPECT_TRUE(at[i]) << "call " << i;
}

TEST(GraphLabels, BoxNotesGoNearTheirBoxClearOfLinesBoxesAndLabels)
{
    const auto doc = document_of(fan_profile());
    // Two functions a level: main, a and b have callees left out, whose
    // notes would go below them, where their calls leave.
    const Neighbourhood g = call_neighbourhood(*doc, FnId(0), 0, 2, 2, 100);
    LayoutInput in;
    in.node_sizes.assign(g.nodes.size(), Point{100, 40});
    const GraphLayout layout = layout_graph(g, in);
    std::vector<Polyline> lines;
    for (const EdgeRoute& r : layout.edges) {
        lines.emplace_back();
        for (int k = 0; r.spline.size() >= 4 && k <= 64; ++k)
            lines.back().push_back(on_spline(r.spline, float(k) / 64));
    }
    const auto on_a_line = [&](const LabelBox& b) {
        return std::any_of(lines.begin(), lines.end(), [&](const Polyline& l) { return covers_line(b, l); });
    };
    std::vector<BoxNote> notes;
    size_t under_calls = 0;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        if (g.nodes[i].hidden == 0)
            continue;
        const int side = g.nodes[i].level < 0 ? -1 : g.nodes[i].level > 0 ? 1 : 0;
        notes.push_back({i, Point{70, 15}, side});
        // Where the note used to go: right under (over) the box's middle.
        const Box& b = layout.nodes[i];
        under_calls += side != 0 && on_a_line({{b.centre.x, b.centre.y + float(side) * (b.height / 2 + 10)}, {70, 15}});
    }
    ASSERT_GE(notes.size(), 3u);
    EXPECT_GE(under_calls, 1u) << "no note's first place is on a line: the layout tests nothing";
    const std::vector<Point> sizes(g.edges.size(), Point{45, 15});
    const std::vector<uint64_t> priority(g.edges.size(), 1);
    const PlacedLabels placed = place_labels(layout, sizes, priority, notes);
    ASSERT_EQ(placed.notes.size(), notes.size());
    std::vector<LabelBox> others;
    for (size_t e = 0; e < placed.edges.size(); ++e)
        if (placed.edges[e])
            others.push_back({*placed.edges[e], sizes[e]});
    for (size_t n = 0; n < notes.size(); ++n) {
        const LabelBox note{placed.notes[n], notes[n].size};
        EXPECT_FALSE(on_a_line(note)) << "note " << n;
        for (const Box& b : layout.nodes)
            EXPECT_FALSE(note.overlaps({b.centre, {b.width, b.height}})) << "note " << n;
        for (const LabelBox& o : others)
            EXPECT_FALSE(note.overlaps(o)) << "note " << n;
        others.push_back(note);
        // Next to its box: within a note's size of it.
        const Box& own = layout.nodes[notes[n].node];
        EXPECT_LE(std::abs(note.centre.x - own.centre.x), own.width / 2 + 70 + 10) << "note " << n;
        EXPECT_LE(std::abs(note.centre.y - own.centre.y), own.height / 2 + 2 * 15 + 10) << "note " << n;
    }
}

TEST(GraphLabels, ALineCoversALabelOnlyWhereItCrossesIt)
{
    const LabelBox label{{50, 50}, {20, 10}};
    EXPECT_TRUE(covers_line(label, {{0, 0}, {100, 100}}));    // through it
    EXPECT_TRUE(covers_line(label, {{50, 0}, {50, 100}}));    // straight down through it
    EXPECT_TRUE(covers_line(label, {{45, 48}, {46, 49}}));    // wholly inside
    EXPECT_FALSE(covers_line(label, {{0, 0}, {100, 0}}));     // above it
    EXPECT_FALSE(covers_line(label, {{61, 0}, {61, 100}}));   // just right of it
    EXPECT_FALSE(covers_line(label, {{0, 30}, {30, 60}}));    // past its corner
    EXPECT_FALSE(covers_line(label, {{50, 0}}));              // a single point is no piece
}

} // namespace
} // namespace vgprof::viewer
