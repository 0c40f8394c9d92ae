// SPDX-License-Identifier: GPL-2.0-or-later
// The cache-miss heatmap's cells, order and color scale, figures from the
// "cache" fixture (viewer_fixture.hpp): main D1mr 40 of Dr 400, D1mw 1 of
// Dw 100; work D1mr 500 of Dr 2000, D1mw 50 of Dw 1000.
#include "color_scale.hpp"
#include "heatmap.hpp"

#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

size_t column(const Heatmap& m, const std::string& name)
{
    for (size_t c = 0; c < m.columns.size(); ++c)
        if (m.columns[c].name == name)
            return c;
    throw std::runtime_error("no column " + name);
}

TEST(Heatmap, ColumnsAreTheMissEventsThenCachegrindsRates)
{
    const auto doc = document_of(cache_profile());
    std::vector<std::string> names;
    for (const HeatColumn& c : heat_columns(doc->profile()))
        names.push_back(c.name);
    EXPECT_EQ(names, (std::vector<std::string>{"I1mr", "ILmr", "D1mr", "DLmr", "D1mw", "DLmw",
                                               "I1 rate", "LLi rate", "D1 rate", "LLd rate",
                                               "LL rate"}));
}

TEST(Heatmap, NoCacheSimulationNoColumns)
{
    const auto doc = document_of(app_profile());
    EXPECT_TRUE(heat_columns(doc->profile()).empty());
    EXPECT_TRUE(function_heatmap(*doc, nullptr).rows.empty());
}

TEST(Heatmap, CellsHoldCountsAndRates)
{
    const auto doc = document_of(cache_profile());
    Heatmap m = function_heatmap(*doc, nullptr);
    ASSERT_EQ(m.rows.size(), 2u);
    sort_heatmap(m, doc->profile(), column(m, "D1mr"), true);
    EXPECT_EQ(doc->profile().fn_name(m.rows[0].fn), "work");
    EXPECT_DOUBLE_EQ(*m.rows[0].cells[column(m, "D1mr")], 500);
    EXPECT_DOUBLE_EQ(*m.rows[0].cells[column(m, "D1 rate")], 550.0 / 3000);
    EXPECT_DOUBLE_EQ(*m.rows[1].cells[column(m, "D1 rate")], 41.0 / 500);
    EXPECT_DOUBLE_EQ(m.column_max[column(m, "D1mr")], 500);
    sort_heatmap(m, doc->profile(), column(m, "I1mr"), true);
    EXPECT_EQ(doc->profile().fn_name(m.rows[0].fn), "main");  // 10 against 2
}

TEST(Heatmap, LineRowsOfOneFunction)
{
    const auto doc = document_of(cache_profile());
    const Heatmap m = line_heatmap(*doc, FnId(1));
    ASSERT_EQ(m.rows.size(), 1u);
    EXPECT_EQ(m.rows[0].line, 4u);
    EXPECT_DOUBLE_EQ(*m.rows[0].cells[column(m, "DLmw")], 25);
}

TEST(Heatmap, CountsGoOnALogScaleRatesOnALinearOne)
{
    const auto doc = document_of(cache_profile());
    const Heatmap m = function_heatmap(*doc, nullptr);
    const size_t d1mr = column(m, "D1mr");
    EXPECT_DOUBLE_EQ(cell_position(m, d1mr, 500), 1.0);
    EXPECT_DOUBLE_EQ(cell_position(m, d1mr, 40), std::log(41.0) / std::log(501.0));
    EXPECT_DOUBLE_EQ(cell_position(m, d1mr, 0), 0.0);
    const size_t rate = column(m, "D1 rate");
    EXPECT_DOUBLE_EQ(cell_position(m, rate, 41.0 / 500), (41.0 / 500) / (550.0 / 3000));
}

TEST(Heatmap, DiffCellsAreChangesOnASymmetricScale)
{
    const auto base = document_of(cache_profile());
    ProfileText more = cache_profile();
    more.set("lines", "[[0,1,11,1000,10,5,400,40,4,100,1,0],"
                      "[1,1,4,5000,2,1,2000,300,100,1000,50,25]]")
        .set_meta("totals", "[6000,12,6,2400,340,104,1100,51,25]");
    const auto now = document_of(more);
    const DiffLink diff(*base, *now);
    const Heatmap m = function_heatmap(*now, &diff);
    ASSERT_TRUE(m.diff);
    const size_t d1mr = column(m, "D1mr");
    for (const HeatRow& r : m.rows)
        if (now->profile().fn_name(r.fn) == "work")
            EXPECT_DOUBLE_EQ(*r.cells[d1mr], -200);
        else
            EXPECT_DOUBLE_EQ(*r.cells[d1mr], 0);
    EXPECT_DOUBLE_EQ(cell_position(m, d1mr, -200), -1.0);
}

TEST(ColorScale, SequentialLightnessRisesSteadily)
{
    double previous = -1;
    for (int i = 0; i <= 20; ++i) {
        const double l = oklab_lightness(sequential_color(i / 20.0));
        EXPECT_GT(l, previous + 0.02) << "at " << i / 20.0;
        previous = l;
    }
    EXPECT_LT(oklab_lightness(sequential_color(0)), 0.35);
    EXPECT_GT(oklab_lightness(sequential_color(1)), 0.9);
}

TEST(ColorScale, DivergingIsNeutralAtZeroAndSymmetricInLightness)
{
    const Rgb mid = diverging_color(0);
    EXPECT_EQ(mid.r, mid.g);
    EXPECT_EQ(mid.g, mid.b);
    for (double t : {0.25, 0.5, 1.0}) {
        EXPECT_NEAR(oklab_lightness(diverging_color(t)), oklab_lightness(diverging_color(-t)), 0.08);
        EXPECT_GT(diverging_color(t).r, diverging_color(t).b);   // more: red
        EXPECT_LT(diverging_color(-t).r, diverging_color(-t).b); // less: blue
    }
}

TEST(ColorScale, OklabOfWhiteAndBlack)
{
    EXPECT_NEAR(oklab_lightness({255, 255, 255}), 1.0, 1e-3);
    EXPECT_NEAR(oklab_lightness({0, 0, 0}), 0.0, 1e-3);
}

TEST(ColorScale, BinsCutTheScaleIntoEqualParts)
{
    EXPECT_EQ(bin_of(0.0, 8), 0);
    EXPECT_EQ(bin_of(0.124, 8), 0);
    EXPECT_EQ(bin_of(0.125, 8), 1);
    EXPECT_EQ(bin_of(1.0, 8), 7);
    EXPECT_DOUBLE_EQ(bin_centre(0, 8), 0.0625);
    // Edges of a log scale up to 999: 10^(3k/3) - 1 for 3 bins.
    EXPECT_NEAR(log_bin_edge(1, 3, 999), 9, 1e-9);
    EXPECT_NEAR(log_bin_edge(2, 3, 999), 99, 1e-9);
    EXPECT_NEAR(log_bin_edge(3, 3, 999), 999, 1e-9);
}

TEST(ColorScale, TextIsBlackOnLightAndWhiteOnDark)
{
    EXPECT_EQ(text_color_on(sequential_color(1)), (Rgb{0, 0, 0}));
    EXPECT_EQ(text_color_on(sequential_color(0)), (Rgb{255, 255, 255}));
}

} // namespace
} // namespace vgprof::viewer
