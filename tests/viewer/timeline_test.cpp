// SPDX-License-Identifier: GPL-2.0-or-later
// The Timeline view's model: how spans nest, what a stretch of time cost,
// and the boxes a row draws. Built by hand, one event (Ir), thread 1:
//
//   main [0,100)   1400 Ir   holds work
//   work [20,60)    500 Ir   holds leaf
//   leaf [30,40)    200 Ir
//
// So own costs and times: main 1400 - 500 = 900 over 100 - 40 = 60
// instructions (15 a time unit), work 500 - 200 = 300 over 40 - 10 = 30
// (10 a unit), leaf 200 over 10 (20 a unit).
#include "timeline_costs.hpp"
#include "timeline_spans.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace vgprof::viewer {
namespace {

enum : uint32_t { kMain = 0, kWork = 1, kLeaf = 2 };

void add_span(Timeline& t, uint32_t thread, uint32_t depth, uint32_t fn, uint64_t start, uint64_t end,
              uint64_t ir)
{
    TimelineSpan s;
    s.thread = thread;
    s.depth = depth;
    s.fn = FnId(fn);
    s.start = start;
    s.end = end;
    t.spans.push_back(s);
    t.span_costs.push_back(ir);
}

// In the order the profile writes them: as they ended.
Timeline nest()
{
    Timeline t;
    add_span(t, 1, 2, kLeaf, 30, 40, 200);
    add_span(t, 1, 1, kWork, 20, 60, 500);
    add_span(t, 1, 0, kMain, 0, 100, 1400);
    return t;
}

TEST(TimelineSpans, EachSpanOwnsWhatItsKeptCalleesDoNot)
{
    const Timeline t = nest();
    const SpanTree tree(t, 1);
    EXPECT_EQ(tree.parent(0), 1u);
    EXPECT_EQ(tree.parent(1), 2u);
    EXPECT_EQ(tree.parent(2), SpanTree::kNone);
    EXPECT_EQ(tree.self(2, 0), 900u);
    EXPECT_EQ(tree.own_time(2), 60u);
    EXPECT_EQ(tree.self(1, 0), 300u);
    EXPECT_EQ(tree.own_time(1), 30u);
    EXPECT_EQ(tree.self(0, 0), 200u);
    EXPECT_EQ(tree.own_time(0), 10u);
    ASSERT_EQ(tree.lanes().size(), 1u);
    const auto& rows = tree.lanes()[0].rows;
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0], std::vector<uint32_t>{2});
    EXPECT_EQ(rows[2], std::vector<uint32_t>{0});
}

TEST(TimelineCosts, EachBucketGetsTheOwnCostOfTheTimeInIt)
{
    const Timeline t = nest();
    const SpanTree tree(t, 1);
    const std::vector<double> b = cost_per_bucket(tree, 0, 0, 100, 10);
    // main's 15 a unit in [0,20) and [60,100), work's 10 in [20,30) and
    // [40,60), leaf's 20 in [30,40).
    const std::vector<double> expected{150, 150, 100, 200, 100, 100, 150, 150, 150, 150};
    ASSERT_EQ(b.size(), expected.size());
    for (size_t k = 0; k < b.size(); ++k)
        EXPECT_DOUBLE_EQ(b[k], expected[k]) << "bucket " << k;
    EXPECT_DOUBLE_EQ(std::accumulate(b.begin(), b.end(), 0.0), 1400.0);
}

TEST(TimelineCosts, ARangeOnSpanBoundariesCostsExactlyWhatRanInIt)
{
    const Timeline t = nest();
    const SpanTree tree(t, 1);
    const RangeCosts r = range_costs(tree, 3, 20, 60);  // work's call
    EXPECT_EQ(r.total, std::vector<uint64_t>{500});
    EXPECT_EQ(r.functions[kMain].self[0], 0u);
    EXPECT_EQ(r.functions[kMain].inclusive[0], 500u);
    EXPECT_EQ(r.functions[kWork].self[0], 300u);
    EXPECT_EQ(r.functions[kWork].inclusive[0], 500u);
    EXPECT_EQ(r.functions[kLeaf].self[0], 200u);
    EXPECT_EQ(r.functions[kLeaf].inclusive[0], 200u);
    EXPECT_EQ(r.ran, (std::vector<FnId>{FnId(kMain), FnId(kWork), FnId(kLeaf)}));
}

TEST(TimelineCosts, ASpanCutByTheRangeCountsItsOwnTimeInsideItProrated)
{
    const Timeline t = nest();
    const SpanTree tree(t, 1);
    const RangeCosts r = range_costs(tree, 3, 0, 30);
    // main: 20 of its 60 own units (300 of 900); work: [20,30), 10 of 30
    // (100 of 300); leaf not yet.
    EXPECT_EQ(r.functions[kMain].self[0], 300u);
    EXPECT_EQ(r.functions[kWork].self[0], 100u);
    EXPECT_EQ(r.functions[kLeaf].self[0], 0u);
    EXPECT_EQ(r.functions[kMain].inclusive[0], 400u);
    EXPECT_EQ(r.functions[kWork].inclusive[0], 100u);
    EXPECT_EQ(r.total, std::vector<uint64_t>{400});
    EXPECT_EQ(r.ran, (std::vector<FnId>{FnId(kMain), FnId(kWork)}));
}

TEST(TimelineCosts, ARecursiveCallCountsOnceInItsFunctionsInclusiveCost)
{
    // main [0,100) 1000 holds rec [10,90) 600 holds rec [20,50) 300.
    Timeline t;
    add_span(t, 1, 2, kWork, 20, 50, 300);
    add_span(t, 1, 1, kWork, 10, 90, 600);
    add_span(t, 1, 0, kMain, 0, 100, 1000);
    const SpanTree tree(t, 1);
    EXPECT_TRUE(tree.recursive(0));
    EXPECT_FALSE(tree.recursive(1));
    const RangeCosts r = range_costs(tree, 3, 0, 100);
    EXPECT_EQ(r.functions[kWork].inclusive[0], 600u);
    EXPECT_EQ(r.functions[kWork].self[0], 600u);  // 300 + 300
    EXPECT_EQ(r.functions[kMain].inclusive[0], 1000u);
    EXPECT_EQ(r.total, std::vector<uint64_t>{1000});
}

TEST(TimelineCosts, ThreadsHaveTheirOwnLanesAndCanBeCountedAlone)
{
    Timeline t = nest();
    add_span(t, 2, 0, kLeaf, 10, 50, 80);
    const SpanTree tree(t, 1);
    ASSERT_EQ(tree.lanes().size(), 2u);
    EXPECT_EQ(tree.lanes()[1].thread, 2u);
    EXPECT_EQ(tree.parent(3), SpanTree::kNone);
    EXPECT_EQ(range_costs(tree, 3, 0, 100).total, std::vector<uint64_t>{1480});
    // [20,30) of thread 2's leaf: 10 of its 40 units.
    EXPECT_EQ(range_costs(tree, 3, 20, 30, 2u).total, std::vector<uint64_t>{20});
    EXPECT_EQ(range_costs(tree, 3, 0, 100, 1u).total, std::vector<uint64_t>{1400});
}

// One row: [0,50), ten spans one unit long at 50, 52, ... 68, then [70,100).
Timeline row_of_small_spans(std::vector<uint32_t>& row)
{
    Timeline t;
    add_span(t, 1, 0, kMain, 0, 50, 1);
    for (uint64_t s = 50; s < 70; s += 2)
        add_span(t, 1, 0, kLeaf, s, s + 1, 1);
    add_span(t, 1, 0, kWork, 70, 100, 1);
    row.resize(t.spans.size());
    std::iota(row.begin(), row.end(), 0);
    return t;
}

TEST(TimelineBoxes, SpansNarrowerThanAPixelAreFoldedPerPixel)
{
    std::vector<uint32_t> row;
    const Timeline t = row_of_small_spans(row);
    // 10 pixels of 10 units: the small spans start in pixels 5 and 6.
    const std::vector<SpanBox> boxes = visible_boxes(t, row, 0, 100, 10);
    ASSERT_EQ(boxes.size(), 4u);
    EXPECT_EQ(boxes[0].span, 0u);
    EXPECT_EQ(boxes[0].count, 1u);
    EXPECT_EQ(boxes[1].t0, 50u);
    EXPECT_EQ(boxes[1].t1, 59u);
    EXPECT_EQ(boxes[1].count, 5u);
    EXPECT_EQ(boxes[2].t0, 60u);
    EXPECT_EQ(boxes[2].count, 5u);
    EXPECT_EQ(boxes[3].span, 11u);
}

TEST(TimelineBoxes, ZoomedInEverySpanIsItsOwnBoxAndOnlyTheVisibleOnes)
{
    std::vector<uint32_t> row;
    const Timeline t = row_of_small_spans(row);
    const std::vector<SpanBox> boxes = visible_boxes(t, row, 50, 60, 10);
    ASSERT_EQ(boxes.size(), 5u);
    for (size_t k = 0; k < boxes.size(); ++k) {
        EXPECT_EQ(boxes[k].span, 1 + k);
        EXPECT_EQ(boxes[k].count, 1u);
    }
}

TEST(TimelineBoxes, AHundredThousandSpansGiveAtMostTwoBoxesAPixel)
{
    Timeline t;
    std::vector<uint32_t> row;
    for (uint32_t k = 0; k < 100000; ++k) {
        add_span(t, 1, 0, kLeaf, uint64_t(k) * 10, uint64_t(k) * 10 + 7, 1);
        row.push_back(k);
    }
    const std::vector<SpanBox> boxes = visible_boxes(t, row, 0, 1000000, 1000);
    EXPECT_LE(boxes.size(), 2000u);
    EXPECT_GE(boxes.size(), 1000u);
    uint64_t folded = 0;
    for (const SpanBox& b : boxes)
        folded += b.count;
    EXPECT_EQ(folded, 100000u);
}

} // namespace
} // namespace vgprof::viewer
