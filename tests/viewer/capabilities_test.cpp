// SPDX-License-Identifier: GPL-2.0-or-later
// What each kind of file can show, and how the views say what it lacks: a
// callgrind file (calls, no call paths), a cachegrind file (no calls), a
// DHAT file (the heap only, with no timeline), a vgprof profile recorded
// without the call graph or the heap.
#include "capabilities.hpp"

#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

bool says(const std::optional<std::string>& why, const char* text)
{
    return why && why->find(text) != std::string::npos;
}

TEST(Capabilities, ACallgrindFileHasCallsButNoCallPaths)
{
    const Profile p = parse_profile(kCallgrindFile, "callgrind.out.1");
    EXPECT_FALSE(why_no_call_graph(p));
    EXPECT_TRUE(says(why_no_call_paths(p), "callgrind file records the calls between functions"));
    EXPECT_FALSE(says(why_no_call_paths(p), "--call-graph"));
    EXPECT_TRUE(says(why_no_heap(p), "callgrind does not follow allocations"));
    EXPECT_TRUE(says(why_no_simulation(p), "callgrind ran without"));
}

TEST(Capabilities, ACachegrindFileHasNoCalls)
{
    const Profile p = parse_profile(kCachegrindFile, "cachegrind.out.1");
    EXPECT_TRUE(says(why_no_call_graph(p), "cachegrind file records costs per function and line"));
    EXPECT_TRUE(says(why_no_call_paths(p), "cachegrind file"));
}

TEST(Capabilities, ADhatFileHasTheHeapOnlyAndNoTimeline)
{
    const Profile p = parse_profile(kDhatFile, "dhat.out.7");
    EXPECT_FALSE(why_no_heap(p));
    EXPECT_FALSE(has_heap_timeline(p));
    EXPECT_TRUE(says(why_no_costs(p), "counts no instructions"));
    EXPECT_TRUE(says(why_no_call_graph(p), "DHAT file records the heap only"));
    EXPECT_TRUE(says(why_no_simulation(p), "DHAT file"));
}

TEST(Capabilities, AVgprofProfileNamesTheOptionThatLeftAPartOut)
{
    const Profile no_graph = parse_profile(ProfileText().drop_call_graph().str(), "p.json");
    EXPECT_TRUE(says(why_no_call_graph(no_graph), "--call-graph=no"));
    const Profile no_heap = parse_profile(app_profile().str(), "p.json");
    EXPECT_TRUE(says(why_no_heap(no_heap), "--heap=no"));
    EXPECT_FALSE(why_no_call_paths(no_heap));
    EXPECT_FALSE(why_no_costs(no_heap));
    const Profile heap = parse_profile(app_profile_with_heap().str(), "p.json");
    EXPECT_TRUE(has_heap_timeline(heap));
    const Profile empty = parse_profile(empty_profile().str(), "e.json");
    EXPECT_TRUE(says(why_no_call_graph(empty), "nothing ran while it was collecting"));
    EXPECT_TRUE(says(why_no_call_paths(empty), "nothing ran while it was collecting"));
}

TEST(Capabilities, EventsAreDescribed)
{
    EXPECT_EQ(event_description("D1mr"), "D1mr: data reads that missed D1");
    EXPECT_EQ(event_description("Bim"), "Bim: indirect branches mispredicted");
    EXPECT_EQ(event_description("Foo"), "Foo");
}

} // namespace
} // namespace vgprof::viewer
