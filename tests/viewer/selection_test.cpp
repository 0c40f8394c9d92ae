// SPDX-License-Identifier: GPL-2.0-or-later
// The shared selection: one history every view reads, browser-like back and
// forward, and a version that tells views something changed.
#include "selection.hpp"

#include <gtest/gtest.h>

#include <type_traits>

namespace vgprof::viewer {
namespace {

TEST(SelectionHistory, StartsWithNothingSelected)
{
    SelectionHistory h;
    EXPECT_EQ(h.current().kind, Selection::Kind::none);
    EXPECT_FALSE(h.can_go_back());
    EXPECT_FALSE(h.can_go_forward());
}

TEST(SelectionHistory, WhatOneViewSelectsEveryViewReads)
{
    SelectionHistory shared;
    // Two views holding the same history: the flame graph selects, the
    // call graph reads it and notices the change from the version.
    SelectionHistory& flame = shared;
    const SelectionHistory& graph = shared;
    const uint64_t seen = graph.version();
    flame.select(Selection::function(FnId(3)));
    EXPECT_NE(graph.version(), seen);
    EXPECT_EQ(graph.current().fn, FnId(3));
}

TEST(SelectionHistory, WhatAViewReadItKeepsWhileItSelects)
{
    // A table view reads the selection, then selects a row while it still
    // draws the rows after it: what it read must not move under it when
    // the history grows (AddressSanitizer saw that in the heap view).
    static_assert(!std::is_reference_v<decltype(SelectionHistory().current())>);
    SelectionHistory h;
    h.select(Selection::function(FnId(7)));
    const Selection& read = h.current();
    for (uint32_t i = 0; i < 100; ++i)
        h.select(Selection::heap_site(i, std::nullopt));
    EXPECT_EQ(read.kind, Selection::Kind::function);
    EXPECT_EQ(read.fn, FnId(7));
}

TEST(SelectionHistory, BackAndForwardWalkTheSelections)
{
    SelectionHistory h;
    h.select(Selection::function(FnId(1)));
    h.select(Selection::source_line(FnId(1), FileId(2), 31));
    h.select(Selection::function(FnId(2)));
    ASSERT_TRUE(h.back());
    EXPECT_EQ(h.current(), Selection::source_line(FnId(1), FileId(2), 31));
    ASSERT_TRUE(h.back());
    EXPECT_EQ(h.current(), Selection::function(FnId(1)));
    ASSERT_TRUE(h.forward());
    ASSERT_TRUE(h.forward());
    EXPECT_EQ(h.current(), Selection::function(FnId(2)));
    EXPECT_FALSE(h.forward());
}

TEST(SelectionHistory, SelectingAfterGoingBackDropsTheForwardEntries)
{
    SelectionHistory h;
    h.select(Selection::function(FnId(1)));
    h.select(Selection::function(FnId(2)));
    h.back();
    h.select(Selection::function(FnId(3)));
    EXPECT_FALSE(h.can_go_forward());
    h.back();
    EXPECT_EQ(h.current(), Selection::function(FnId(1)));
}

TEST(SelectionHistory, SelectingTheCurrentSelectionAgainAddsNoEntry)
{
    SelectionHistory h;
    h.select(Selection::function(FnId(1)));
    const uint64_t v = h.version();
    h.select(Selection::function(FnId(1)));
    EXPECT_EQ(h.version(), v);
    h.back();
    EXPECT_EQ(h.current().kind, Selection::Kind::none);
}

TEST(SelectionHistory, KeepsOnlyTheNewestEntries)
{
    SelectionHistory h;
    for (uint32_t i = 0; i < SelectionHistory::kLimit + 10; ++i)
        h.select(Selection::function(FnId(i)));
    size_t steps = 0;
    while (h.back())
        ++steps;
    EXPECT_EQ(steps, SelectionHistory::kLimit - 1);
    EXPECT_EQ(h.current().fn, FnId(10));  // the last kLimit of 0 .. kLimit + 9
}

TEST(Selection, KindsDifferEvenOnTheSameFunction)
{
    EXPECT_NE(Selection::function(FnId(1)), Selection::source_line(FnId(1), FileId(0), 0));
    EXPECT_NE(Selection::time_range(0, 10), Selection::time_range(0, 11));
    EXPECT_EQ(Selection::heap_site(4, FnId(2)).fn, FnId(2));
}

} // namespace
} // namespace vgprof::viewer
