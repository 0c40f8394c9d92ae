// SPDX-License-Identifier: GPL-2.0-or-later
// A data object in the shared selection: what selecting one selects, the
// heap site and its data object as one thing, and the functions and data
// linked through their misses; figures from the data fixture
// (tests/unit/data_fixture.hpp): object 0 heap site 0, missed by work (fn 1)
// only, 400 D1mr; object 1 the global "table", missed by main (fn 0) only,
// 100 D1mr; object 2 the stack, D1mw by both, D1mr by work alone.
#include "data_selection.hpp"
#include "function_table.hpp"

#include "../unit/data_fixture.hpp"
#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

constexpr size_t kDr = 0, kD1mr = 1, kD1mw = 4;
const FnId kMainFn(0), kWorkFn(1);
const DataObjId kSite(0), kTable(1), kStack(2);

TEST(DataSelection, SelectsTheObjectWithTheFunctionThatMissedMostOnIt)
{
    const auto doc = document_of(with_data());
    const Selection site = select_data_object(doc->profile(), kSite, kD1mr);
    EXPECT_EQ(site.kind, Selection::Kind::data_object);
    EXPECT_EQ(site.object, kSite);
    EXPECT_EQ(site.fn, kWorkFn);
    EXPECT_EQ(select_data_object(doc->profile(), kTable, kD1mr).fn, kMainFn);
    // The stack's D1mw: main 10, work 10; its D1mr: work's 40 alone.
    EXPECT_EQ(select_data_object(doc->profile(), kStack, kD1mr).fn, kWorkFn);
    // Nobody missed on the global by D1mw: the function with the most
    // misses of all comes with it, as for Dr, which no function counts.
    EXPECT_EQ(select_data_object(doc->profile(), kTable, kD1mw).fn, kMainFn);
    EXPECT_EQ(select_data_object(doc->profile(), kSite, kDr).fn, kWorkFn);
    // The stack's D1mw: main 10, work 10; work has more misses of all.
    EXPECT_EQ(select_data_object(doc->profile(), kStack, kD1mw).fn, kWorkFn);
}

TEST(DataSelection, IsAnEntryOfTheSharedHistory)
{
    const auto doc = document_of(with_data());
    SelectionHistory h;
    h.select(Selection::function(kMainFn));
    h.select(select_data_object(doc->profile(), kTable, kD1mr));
    EXPECT_NE(h.current(), Selection::function(kMainFn));
    h.select(select_data_object(doc->profile(), kSite, kD1mr));
    ASSERT_TRUE(h.back());
    EXPECT_EQ(h.current().object, kTable);
    ASSERT_TRUE(h.back());
    EXPECT_EQ(h.current(), Selection::function(kMainFn));
}

TEST(DataSelection, AHeapSiteAndItsObjectAreOneThing)
{
    const auto doc = document_of(with_data());
    const Profile& p = doc->profile();
    EXPECT_EQ(selected_data_object(p, Selection::heap_site(0, kWorkFn)), kSite);
    EXPECT_EQ(selected_site(p, Selection::data_object(kSite, kWorkFn)), SiteId(0));
    EXPECT_EQ(selected_site(p, Selection::heap_site(0, kWorkFn)), SiteId(0));
    // A global has no heap site; a function is no data object.
    EXPECT_EQ(selected_site(p, Selection::data_object(kTable, kMainFn)), std::nullopt);
    EXPECT_EQ(selected_data_object(p, Selection::function(kWorkFn)), std::nullopt);
    // Without a data section there is no data object to stand for.
    const auto plain = document_of(with_heap());
    EXPECT_EQ(selected_data_object(plain->profile(), Selection::heap_site(0, std::nullopt)),
              std::nullopt);
    EXPECT_EQ(selected_site(plain->profile(), Selection::heap_site(0, std::nullopt)), SiteId(0));
}

TEST(DataSelection, FunctionsThatMissedOnAnObjectAndDataAFunctionMissedOn)
{
    const auto doc = document_of(with_data());
    const DataProfile& data = *doc->profile().data();
    EXPECT_EQ(functions_missing_on(data, kSite), std::vector<FnId>{kWorkFn});
    EXPECT_EQ(functions_missing_on(data, kTable), std::vector<FnId>{kMainFn});
    EXPECT_EQ(functions_missing_on(data, kStack), (std::vector<FnId>{kMainFn, kWorkFn}));
    EXPECT_EQ(data_missed_by(data, kWorkFn), (std::vector<bool>{true, false, true}));
    EXPECT_EQ(data_missed_by(data, kMainFn), (std::vector<bool>{false, true, true}));
}

TEST(DataSelection, TheFunctionsTableNarrowsToTheFunctionsThatMissedOnIt)
{
    const auto doc = document_of(with_data());
    FunctionTable t(*doc, nullptr);
    EXPECT_EQ(t.rows().size(), 2u);
    t.set_only(functions_missing_on(*doc->profile().data(), kSite));
    EXPECT_TRUE(t.narrowed());
    EXPECT_EQ(t.rows(), std::vector<FnId>{kWorkFn});
    EXPECT_EQ(t.row_of(kMainFn), std::nullopt);
    // The search applies within them.
    t.set_filter("main");
    EXPECT_TRUE(t.rows().empty());
    t.set_only(std::nullopt);
    EXPECT_EQ(t.rows(), std::vector<FnId>{kMainFn});
}

} // namespace
} // namespace vgprof::viewer
