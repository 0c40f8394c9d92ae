// SPDX-License-Identifier: GPL-2.0-or-later
// The Heatmap view's data heatmap drawn without a window, from the data
// fixture (tests/unit/data_fixture.hpp): it opens on the worst object (heap
// site 0, missed on by work), a function's data chosen below selects its
// object, and the object's functions select theirs.
#include "views.hpp"

#include "../unit/data_fixture.hpp"
#include "headless.hpp"
#include "viewer_fixture.hpp"

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

constexpr FnId kDataMain{0}, kDataWork{1};

class DataHeatmapView : public Headless {
protected:
    // Clicks down the column at `x`, in the lower part where the linked
    // lists are, until `done` (or the bottom).
    void click_down(const std::function<void()>& draw, float x, const std::function<bool()>& done)
    {
        for (float y = 430; y < 700 && !done(); y += 4)
            click(draw, x, y);
    }
};

TEST_F(DataHeatmapView, OpensOnTheWorstObjectAndLinksBothWays)
{
    const auto doc = document_of(with_data());
    SelectionHistory selection;
    ViewContext ctx{*doc, nullptr, selection, 0};
    HeatmapView heat;
    const auto draw = [&] { heat.draw(ctx); };
    for (int i = 0; i < 3; ++i)
        EXPECT_GT(frame(draw), 500);

    // The first list names the functions that missed on the worst object,
    // heap site 0: only work. Clicking it selects work.
    click_down(draw, 20, [&] { return selection.current().fn.has_value(); });
    ASSERT_EQ(selection.current().fn, kDataWork);

    // The middle list, the data main missed on, has one row: the global
    // "table". Clicking it chooses that object...
    selection.select(Selection::function(kDataMain));
    click_down(draw, ImGui::GetIO().DisplaySize.x / 3 + 20, [] { return false; });
    // ...whose functions the first list shows: main alone, where heap
    // site 0 would show work.
    selection.select(Selection{});
    click_down(draw, 20, [&] { return selection.current().fn.has_value(); });
    EXPECT_EQ(selection.current().fn, kDataMain);
}

// A row of the map chosen is the shared selection's data object, with
// the function that missed most on it; the Functions view then lists the
// functions that missed on it.
TEST_F(DataHeatmapView, ChoosingARowSelectsTheObjectForEveryView)
{
    const auto doc = document_of(with_data());
    SelectionHistory selection;
    ViewContext ctx{*doc, nullptr, selection, 0};
    HeatmapView heat;
    const auto draw = [&] { heat.draw(ctx); };
    frame(draw);
    const auto chosen = [&] { return selection.current().kind == Selection::Kind::data_object; };
    // Below the toolbar's Event list.
    for (float y = 40; y < 200 && !chosen(); y += 4)
        click(draw, 40, y);
    ASSERT_TRUE(chosen());
    EXPECT_EQ(selection.current().object, DataObjId(0));  // heap site 0, the worst
    EXPECT_EQ(selection.current().fn, kDataWork);
    FunctionsView functions(*doc, nullptr, false);
    EXPECT_GT(frame([&] { functions.draw(ctx); }), 100);
}

TEST_F(DataHeatmapView, DiffModeDrawsTheChanges)
{
    const auto base = document_of(with_data());
    const auto now = document_of(with_data());
    const DiffLink diff(*base, *now);
    SelectionHistory selection;
    ViewContext ctx{*now, &diff, selection, 0};
    HeatmapView heat;
    for (int i = 0; i < 3; ++i)
        EXPECT_GT(frame([&] { heat.draw(ctx); }), 500);
}

TEST_F(DataHeatmapView, AProfileWithoutDataSaysSo)
{
    // Simulated caches, no data section: the view says what is missing.
    const auto doc = document_of(cache_profile());
    SelectionHistory selection;
    ViewContext ctx{*doc, nullptr, selection, 0};
    HeatmapView heat;
    for (int i = 0; i < 3; ++i)
        EXPECT_GT(frame([&] { heat.draw(ctx); }), 200);
}

} // namespace
} // namespace vgprof::viewer
