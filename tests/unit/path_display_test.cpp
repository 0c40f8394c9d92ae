// SPDX-License-Identifier: GPL-2.0-or-later
// Paths shortened for text output: prefixes stripped whole components at a
// time, and the Rust toolchain's /rustc/<commit>/ shown with nine digits.
#include "vgprof/path_display.hpp"

#include <gtest/gtest.h>

#include <string>

namespace vgprof {
namespace {

const std::string kCommit = "59807616e1fa2540724bfbac14d7976d7e4a3860";

TEST(PathDisplay, RustToolchainPathsShowTheCommitAsRustcVersionDoes)
{
    EXPECT_EQ(PathDisplay{}.show("/rustc/" + kCommit + "/library/alloc/src/alloc.rs"),
              "/rustc/59807616e/library/alloc/src/alloc.rs");
    EXPECT_EQ(rustc_prefix_length("/rustc/" + kCommit + "/library/x.rs"), 48u);
}

TEST(PathDisplay, OtherRustcLookalikesStayAsTheyAre)
{
    for (const std::string& path : {std::string("/rustc/abc/library/x.rs"), "/rustc/" + kCommit,
                                    "/rustc/" + kCommit.substr(0, 39) + "g/x.rs",
                                    std::string("/src/rustc/x.rs")})
        EXPECT_EQ(PathDisplay{}.show(path), path);
}

TEST(PathDisplay, StripPrefixRemovesWholeComponentsOnly)
{
    const PathDisplay display{{"/home/me/src", "/usr/lib/x86_64-linux-gnu/"}};
    EXPECT_EQ(display.show("/home/me/src/app/main.c"), "app/main.c");
    EXPECT_EQ(display.show("/home/me/srcdir/main.c"), "/home/me/srcdir/main.c");
    EXPECT_EQ(display.show("/usr/lib/x86_64-linux-gnu/libbz2.so.1.0.4"), "libbz2.so.1.0.4");
    // A path that is the prefix itself has nothing left to show: it stays.
    EXPECT_EQ(display.show("/home/me/src"), "/home/me/src");
}

TEST(PathDisplay, TheFirstPrefixThatAppliesIsUsed)
{
    const PathDisplay display{{"/home", "/home/me"}};
    EXPECT_EQ(display.show("/home/me/a.c"), "me/a.c");
}

} // namespace
} // namespace vgprof
