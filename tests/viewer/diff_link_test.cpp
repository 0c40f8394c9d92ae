// SPDX-License-Identifier: GPL-2.0-or-later
// Diff mode's matching of functions and call paths between a base and a new
// profile: the "app" fixture, and the same after compute's line 32 went from
// 600 to 900 Ir; functions moved and renamed, which `vgprof diff` pairs;
// profiles of another command, which it refuses to compare.
#include "diff_link.hpp"
#include "source_lines.hpp"

#include "viewer_fixture.hpp"

#include "vgprof/identity.hpp"

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

TEST(DiffLink, AFunctionMovedToAnotherFileIsPairedWithItself)
{
    // As app_profile_slower (compute +300 Ir), with helper moved from
    // /src/app.c:40 to /src/util.c:40, its line and costs with it.
    ProfileText moved = app_profile_slower();
    moved.set("strs", R"(["???","/src/app.c","/src/util.c","/usr/bin/app",)"
                      R"("compute","helper","main","parse"])")
        .set("objs", "[3]")
        .set("files", "[0,1,2]")
        .set("fns", "[[6,1,0,10],[7,1,0,20],[4,1,0,30],[5,2,0,40]]")
        .set("lines", "[[0,1,11,100],[1,1,21,300],[2,1,31,400],[2,1,32,900],[3,2,41,700]]");
    const auto base = document_of(app_profile(), "base.json");
    const auto now = document_of(moved, "now.json");
    const DiffLink d(*base, *now);
    const FnId helper(kHelper);
    ASSERT_EQ(now->profile().file_path(now->profile().function(helper).file), "/src/util.c");
    EXPECT_EQ(d.base_fn(helper), FnId(kHelper));
    EXPECT_EQ(d.self_delta(helper, 0), 0);       // 700 - 700, not 700 from nothing
    EXPECT_EQ(d.inclusive_delta(helper, 0), 0);
    EXPECT_EQ(d.path_delta(PathId(4), 0), 0);    // main > compute > helper: 500 - 500
    EXPECT_EQ(d.self_delta(FnId(kCompute), 0), 300);
    EXPECT_EQ(d.functions_only_in_base(), 0u);
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

// app_profile_with_heap with site 0 (helper < compute) allocating 6000
// bytes instead of 4000, or with site 1's stack at another line.
ProfileText heap_changed(const std::string& site0, const std::string& site1, uint64_t bytes)
{
    ProfileText t = app_profile_with_heap();
    const std::string heap = R"({"depth":12,"totals":{"bytes":)" + std::to_string(bytes) +
                             R"(,"blocks":5,"peak_bytes":4000,"peak_blocks":4,"peak_time":900,)"
                             R"("end_bytes":500,"end_blocks":1,"end_time":2100,"reads":8000,"writes":4500},)"
                             R"("frames":[[100,3,1,41],[200,2,1,31],[300,1,1,22]],"sites":[)" +
                             site0 + "," + site1 +
                             R"(],"timeline":{"width":100,"samples":[[900,4000,4]]},"snapshots":[]})";
    return t.set("heap", heap);
}

TEST(DiffLink, HeapSitesMatchByTheirWholeStack)
{
    const auto base = document_of(app_profile_with_heap());
    // Site 0 grew by 2000 bytes; site 1's caller now calls from app.c:22.
    const auto now = document_of(
        heap_changed("[[0,1],6000,4,4000,4000,4,4000,4,0,0,8000,4000,null]",
                     "[[0,2],500,1,1000,500,1,0,0,500,1,0,500,null]", 6500));
    const DiffLink d(*base, *now);
    EXPECT_EQ(d.base_site(SiteId(0)), SiteId(0));
    EXPECT_EQ(d.site_bytes_delta(SiteId(0)), 2000);
    EXPECT_FALSE(d.base_site(SiteId(1)));
    EXPECT_EQ(d.site_bytes_delta(SiteId(1)), 500);
}

TEST(DiffLink, ARenamedFunctionsPathsAndAllocationSitesMatch)
{
    // helper is called finish, its code and allocations unchanged.
    ProfileText renamed = app_profile_with_heap();
    renamed.set("strs", R"(["???","/src/app.c","/usr/bin/app","compute","finish","main","parse"])");
    const auto base = document_of(app_profile_with_heap(), "base.json");
    const auto now = document_of(renamed, "now.json");
    const DiffLink d(*base, *now);
    ASSERT_EQ(now->profile().fn_name(FnId(kHelper)), "finish");
    EXPECT_EQ(d.base_fn(FnId(kHelper)), FnId(kHelper));
    EXPECT_EQ(d.self_delta(FnId(kHelper), 0), 0);  // 700 - 700
    EXPECT_EQ(d.functions_only_in_base(), 0u);
    EXPECT_EQ(d.base_path(PathId(2)), PathId(2));  // main > parse > finish
    EXPECT_EQ(d.path_delta(PathId(2), 0), 0);
    EXPECT_EQ(d.base_site(SiteId(0)), SiteId(0));  // finish < compute
    EXPECT_EQ(d.site_bytes_delta(SiteId(0)), 0);
    EXPECT_EQ(d.base_site(SiteId(1)), SiteId(1));  // finish < parse
}

TEST(DiffLink, NoSitesMatchWithoutHeapDataOnBothSides)
{
    const auto base = document_of(app_profile());
    const auto now = document_of(app_profile_with_heap());
    const DiffLink d(*base, *now);
    EXPECT_FALSE(d.base_site(SiteId(0)));
    EXPECT_EQ(d.site_bytes_delta(SiteId(0)), 4000);
}

TEST(DiffLink, SaysWhyProfilesOfAnotherCommandDoNotCompare)
{
    ProfileText other = app_profile_slower();
    other.set_meta("argv", R"(["./app","-n","4"])");
    const auto base = document_of(app_profile());
    const auto now = document_of(other);
    const DiffLink d(*base, *now);
    ASSERT_EQ(d.differences().size(), 1u);
    EXPECT_EQ(d.differences()[0], "the commands differ (base: ./app -n 3; new: ./app -n 4)");
}

TEST(DiffLink, ProfilesOfOneCommandCompareWithAWordOnTheirMissingFingerprints)
{
    const auto base = document_of(app_profile());
    const auto now = document_of(app_profile_slower());
    const DiffLink d(*base, *now);
    EXPECT_TRUE(d.differences().empty());
    ASSERT_EQ(d.warnings().size(), 1u);
    EXPECT_NE(d.warnings()[0].find("neither profile has a fingerprint"), std::string::npos);
}

} // namespace
} // namespace vgprof::viewer
