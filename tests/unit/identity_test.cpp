// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of vgprof/identity.hpp: the unknown marker, the key that
// matches functions across profiles, and the text of locations and labels.
#include "profile_text.hpp"

#include "vgprof/identity.hpp"
#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace vgprof {
namespace {

TEST(Identity, LocationLeavesOutWhatIsUnknown)
{
    EXPECT_EQ(location_text("/src/app.c", 12), "/src/app.c:12");
    EXPECT_EQ(location_text("/src/app.c", 0), "/src/app.c");
    EXPECT_EQ(location_text(std::string(kUnknown), 12), "???");
}

TEST(Identity, LabelNamesTheFunctionWhereItStartsAndItsObject)
{
    EXPECT_EQ(function_label("work", "/src/app.c", 3, "/usr/bin/app"),
              "work (/src/app.c:3)  [/usr/bin/app]");
    EXPECT_EQ(function_label("memset", "???", 0, "/lib/libc.so.6"), "memset  [/lib/libc.so.6]");
}

TEST(Identity, FunctionsMatchWhateverDirectoryTheirObjectWasLoadedFrom)
{
    const Profile a = parse_profile(test::ProfileText().str(), "a.json");
    const Profile b = parse_profile(
        test::ProfileText()
            .set("strs", R"(["???","/opt/other/app","/src/app.c","main","work"])")
            .str(),
        "b.json");
    EXPECT_EQ(function_match_key(a, FnId(1)), function_match_key(b, FnId(1)));
    EXPECT_EQ(function_match_key(a, FnId(1)).object, "app");
    EXPECT_FALSE(function_match_key(a, FnId(0)) == function_match_key(b, FnId(1)));
}

TEST(Identity, DeltasSaturateInsteadOfWrapping)
{
    EXPECT_EQ(signed_delta(7, 5), 2);
    EXPECT_EQ(signed_delta(5, 7), -2);
    EXPECT_EQ(signed_delta(0, ~uint64_t(0)), std::numeric_limits<int64_t>::min());
}

} // namespace
} // namespace vgprof
