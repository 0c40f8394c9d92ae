// SPDX-License-Identifier: GPL-2.0-or-later
// Diff mode's matching of functions and call paths between a base and a new
// profile: the "app" fixture, and the same after compute's line 32 went from
// 600 to 900 Ir.
#include "diff_link.hpp"
#include "source_lines.hpp"

#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

TEST(DiffLink, DeltasOfFunctionsPathsAndTotals)
{
    const auto base = document_of(app_profile(), "base.json");
    const auto now = document_of(app_profile_slower(), "now.json");
    const DiffLink d(*base, *now);
    EXPECT_EQ(d.self_delta(FnId(kCompute), 0), 300);
    EXPECT_EQ(d.inclusive_delta(FnId(kCompute), 0), 300);
    EXPECT_EQ(d.inclusive_delta(FnId(kMain), 0), 300);
    EXPECT_EQ(d.self_delta(FnId(kMain), 0), 0);
    EXPECT_EQ(d.inclusive_delta(FnId(kHelper), 0), 0);
    EXPECT_EQ(d.path_delta(PathId(3), 0), 300);  // main > compute
    EXPECT_EQ(d.path_delta(PathId(4), 0), 0);    // main > compute > helper
    EXPECT_EQ(d.total_delta(0), 300);
    EXPECT_EQ(d.functions_only_in_base(), 0u);
}

TEST(DiffLink, MatchesByNameNotById)
{
    // The new profile numbers its functions the other way round and has a
    // function the base lacks.
    ProfileText renumbered = app_profile();
    renumbered.set("strs", R"(["???","/src/app.c","/usr/bin/app","main","work"])")
        .set("fns", "[[4,1,0,3],[3,1,0,10]]")
        .set("lines", "[[0,1,4,50],[1,1,11,100]]")
        .drop_call_graph()
        .set_meta("totals", "[150]");
    const auto base = document_of(app_profile());
    const auto now = document_of(renumbered);
    const DiffLink d(*base, *now);
    EXPECT_EQ(d.base_fn(FnId(1)), FnId(kMain));
    EXPECT_FALSE(d.base_fn(FnId(0)));  // work: new
    EXPECT_EQ(d.self_delta(FnId(0), 0), 50);
    EXPECT_EQ(d.functions_only_in_base(), 3u);  // parse, compute, helper
}

TEST(DiffLink, PathsMatchOnlyWhenTheWholeStackMatches)
{
    // In the new profile helper is called from main directly.
    ProfileText moved = app_profile();
    moved.set("calls", "[[0,3,1,13,1,700]]")
        .set("lines", "[[0,1,11,1400],[3,1,41,700]]")
        .set("inclusive", "[[0,2100],[3,700]]")
        .set("paths", "[[null,0,0,1400,2100],[0,3,1,700,700]]");
    const auto base = document_of(app_profile());
    const auto now = document_of(moved);
    const DiffLink d(*base, *now);
    EXPECT_EQ(d.base_path(PathId(0)), PathId(0));
    EXPECT_FALSE(d.base_path(PathId(1)));
    EXPECT_EQ(d.path_delta(PathId(1), 0), 700);
}

TEST(DiffLink, SignedDeltaSaturates)
{
    EXPECT_EQ(signed_delta(5, 7), -2);
    EXPECT_EQ(signed_delta(~uint64_t(0), 0), std::numeric_limits<int64_t>::max());
    EXPECT_EQ(signed_delta(0, ~uint64_t(0)), std::numeric_limits<int64_t>::min());
}

TEST(DiffLink, SourceLinesCarryTheirChange)
{
    const auto base = document_of(app_profile());
    const auto now = document_of(app_profile_slower());
    const DiffLink d(*base, *now);
    const std::string text(40, '\n');
    const SourceFile f = annotate_source(*now, FileId(1), text, FnId(kCompute), 0, &d);
    EXPECT_EQ(f.lines[31].delta[0], 300);  // line 32
    EXPECT_EQ(f.lines[30].delta[0], 0);
}

} // namespace
} // namespace vgprof::viewer
