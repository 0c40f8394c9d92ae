// SPDX-License-Identifier: GPL-2.0-or-later
// The data heatmap's rows, cells and one scale, and the code heatmap's
// shared scale, figures from the data fixture (tests/unit/data_fixture.hpp):
// heap site 0, 100-byte blocks in 8-byte buckets, D1mr 300 at offset 0 and
// 100 at offset 8, D1mw 5 and 5; the global "table", 64 bytes, D1mr 100 at
// offset 0; the stack, without offsets; D1 lines of 64 bytes.
#include "data_heatmap.hpp"

#include "../unit/data_fixture.hpp"
#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

constexpr size_t kD1mr = 1, kD1mw = 4;

TEST(DataHeatmap, HeapSitesAndGlobalsWorstFirst)
{
    const auto doc = document_of(with_data());
    const DataHeatmap m = data_heatmap(doc->profile(), kD1mr);
    // The stack has no offsets: not a row.
    ASSERT_EQ(m.rows.size(), 2u);
    EXPECT_EQ(m.rows[0].object, DataObjId(0));
    EXPECT_EQ(m.rows[0].total, 400u);
    EXPECT_EQ(m.rows[1].object, DataObjId(1));
    EXPECT_EQ(m.rows[1].total, 100u);
    EXPECT_EQ(m.line_size, 64u);
}

TEST(DataHeatmap, CellsAreCacheLinesStripedBy8Bytes)
{
    const auto doc = document_of(with_data());
    const DataHeatmap m = data_heatmap(doc->profile(), kD1mr);
    const DataHeatRow& site = m.rows[0];
    // 100 bytes: two lines, each 8 stripes of 8 bytes.
    EXPECT_EQ(site.lines, 2u);
    EXPECT_EQ(site.stripes, 8u);
    ASSERT_EQ(site.cells(), 2u);
    std::vector<uint64_t> expected(16, 0);
    expected[0] = 300;
    expected[1] = 100;
    EXPECT_EQ(site.values, expected);
    // The global: one line, its first 8 bytes missed.
    EXPECT_EQ(m.rows[1].cells(), 1u);
    EXPECT_EQ(m.rows[1].values[0], 100u);
    EXPECT_EQ(m.columns, 2u);
}

TEST(DataHeatmap, OneScaleForEveryCell)
{
    const auto doc = document_of(with_data());
    const DataHeatmap m = data_heatmap(doc->profile(), kD1mr);
    EXPECT_EQ(m.max, 300u);
    EXPECT_DOUBLE_EQ(data_cell_position(m, 300), 1.0);
    // The global's 100 sits where the site's 100 does, below the site's 300.
    EXPECT_DOUBLE_EQ(data_cell_position(m, m.rows[1].values[0]), data_cell_position(m, m.rows[0].values[1]));
    EXPECT_LT(data_cell_position(m, 100), 1.0);
    EXPECT_DOUBLE_EQ(data_cell_position(m, 0), 0.0);
}

TEST(DataHeatmap, AnEventLeavesOutObjectsWithoutIt)
{
    const auto doc = document_of(with_data());
    const DataHeatmap m = data_heatmap(doc->profile(), kD1mw);
    ASSERT_EQ(m.rows.size(), 1u);  // the global has no write misses
    EXPECT_EQ(m.rows[0].values[0], 5u);
    EXPECT_EQ(m.rows[0].values[1], 5u);
}

TEST(DataHeatmap, WideObjectsSumLinesInACell)
{
    const auto doc = document_of(with_data());
    const DataHeatmap m = data_heatmap(doc->profile(), kD1mr, 1);
    const DataHeatRow& site = m.rows[0];
    EXPECT_EQ(site.lines_per_cell, 2u);
    EXPECT_EQ(site.stripes, 1u);
    EXPECT_EQ(site.values, std::vector<uint64_t>{400});
    EXPECT_EQ(m.columns, 1u);
}

TEST(DataHeatmap, NoDataSectionNoRows)
{
    const auto doc = document_of(cache_profile());
    const DataHeatmap m = data_heatmap(doc->profile(), kD1mr);
    EXPECT_TRUE(m.rows.empty());
    EXPECT_EQ(m.max, 0u);
}

TEST(DataHeatmap, AProfileWithoutDataSaysWhy)
{
    EXPECT_EQ(why_no_data(document_of(with_data())->profile()), std::nullopt);
    // Format version 7, the cache simulated, the heap watched, no data:
    // recorded with --data=no.
    ProfileText t = with_data();
    t.drop("data");
    EXPECT_NE(why_no_data(document_of(t)->profile())->find("--data=no"), std::string::npos);
    // The cache fixture is of an older format, before data sections.
    EXPECT_NE(why_no_data(document_of(cache_profile())->profile())->find("format version"),
              std::string::npos);
    EXPECT_NE(why_no_data(document_of(kCallgrindFile, "callgrind.out.1")->profile())->find("callgrind"),
              std::string::npos);
}

// with_changed_data(): heap site 0's D1mr 400 -> 100 (300 -> 75 on bytes
// 0-7, 100 -> 25 on bytes 8-15), the global's 100 -> 150.
TEST(DataHeatmapDiff, EachCellIsItsChangeFromTheBasesSameObject)
{
    const auto base = document_of(with_data());
    const auto now = document_of(with_changed_data());
    const DataHeatmap m = data_heatmap_diff(now->profile(), base->profile(), kD1mr);
    EXPECT_TRUE(m.diff);
    ASSERT_EQ(m.rows.size(), 2u);
    const DataHeatRow& site = m.rows[0];
    EXPECT_EQ(site.object, DataObjId(0));
    EXPECT_EQ(site.total, 100u);
    EXPECT_EQ(site.total_delta, 100 - 400);
    // The same cells as without a base: two lines of 8 stripes.
    std::vector<int64_t> expected(16, 0);
    expected[0] = 75 - 300;
    expected[1] = 25 - 100;
    EXPECT_EQ(site.deltas, expected);
    EXPECT_EQ(site.values[0], 75u);
    const DataHeatRow& global = m.rows[1];
    EXPECT_EQ(global.object, DataObjId(1));
    EXPECT_EQ(global.total_delta, 150 - 100);
    std::vector<int64_t> global_expected(8, 0);
    global_expected[0] = 150 - 100;
    EXPECT_EQ(global.deltas, global_expected);
    EXPECT_EQ(m.largest_change, 300 - 75);
}

// Without a base the global (150) comes before the site (100); the site
// changed most.
TEST(DataHeatmapDiff, TheMostChangedObjectComesFirst)
{
    const auto base = document_of(with_data());
    const auto now = document_of(with_changed_data());
    EXPECT_EQ(data_heatmap(now->profile(), kD1mr).rows[0].object, DataObjId(1));
    EXPECT_EQ(data_heatmap_diff(now->profile(), base->profile(), kD1mr).rows[0].object, DataObjId(0));
}

TEST(DataHeatmapDiff, WithoutTheBasesDataEverythingIsNew)
{
    const auto base = document_of(cache_profile());
    const auto now = document_of(with_data());
    const DataHeatmap m = data_heatmap_diff(now->profile(), base->profile(), kD1mr);
    ASSERT_EQ(m.rows.size(), 2u);
    for (const DataHeatRow& row : m.rows) {
        EXPECT_EQ(row.total_delta, int64_t(row.total));
        for (size_t i = 0; i < row.values.size(); ++i)
            EXPECT_EQ(row.deltas[i], int64_t(row.values[i]));
    }
    EXPECT_EQ(m.largest_change, 300);
}

TEST(DataHeatmap, CodeHeatmapSharesOneScaleAcrossEvents)
{
    // work's line 4: D1mr 440, DLmr 44, D1mw 20, DLmw 2.
    const auto doc = document_of(with_data());
    const Heatmap m = shared_line_heatmap(*doc, FnId(1));
    std::vector<std::string> names;
    for (const HeatColumn& c : m.columns)
        names.push_back(c.name);
    EXPECT_EQ(names, (std::vector<std::string>{"I1mr", "ILmr", "D1mr", "DLmr", "D1mw", "DLmw"}));
    for (double max : m.column_max)
        EXPECT_DOUBLE_EQ(max, 440);
    ASSERT_EQ(m.rows.size(), 1u);
    EXPECT_EQ(m.rows[0].line, 4u);
    EXPECT_DOUBLE_EQ(*m.rows[0].cells[2], 440);
    EXPECT_DOUBLE_EQ(*m.rows[0].cells[4], 20);
    // 20 D1mw is colored as 20 D1mr would be: below the top, not at it.
    EXPECT_LT(cell_position(m, 4, 20), cell_position(m, 2, 440));
}

} // namespace
} // namespace vgprof::viewer
