// SPDX-License-Identifier: GPL-2.0-or-later
// Paths as the commands show them: prefixes stripped whole components at a
// time, and, in text people read, the Rust toolchain's /rustc/<commit>/
// shown with nine digits.
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

TEST(PathDisplay, APrefixIsTheSameWithOrWithoutATrailingSlash)
{
    for (const char* prefix : {"/src", "/src/"}) {
        const PathDisplay display{{prefix}};
        EXPECT_EQ(display.stripped("/src/app.c"), "app.c") << prefix;
        EXPECT_EQ(display.show("/src/lib/util.c"), "lib/util.c") << prefix;
        EXPECT_TRUE(display.is_under_prefix("/src/app.c")) << prefix;
        EXPECT_FALSE(display.is_under_prefix("/srcdir/app.c")) << prefix;
    }
}

TEST(PathDisplay, APrefixEndingInsideAComponentDoesNotApply)
{
    const PathDisplay display{{"/src/ap"}};
    EXPECT_EQ(display.stripped("/src/app.c"), "/src/app.c");
    EXPECT_EQ(display.show("/src/app.c"), "/src/app.c");
    EXPECT_FALSE(display.is_under_prefix("/src/app.c"));
}

TEST(PathDisplay, StrippedKeepsRustToolchainPathsWholeForProgramsToResolve)
{
    const std::string path = "/rustc/" + kCommit + "/library/alloc/src/alloc.rs";
    EXPECT_EQ(PathDisplay{}.stripped(path), path);
    EXPECT_FALSE(PathDisplay{}.is_under_prefix(path));
    // A prefix that applies is taken off in both.
    const PathDisplay display{{"/rustc/" + kCommit}};
    EXPECT_EQ(display.stripped(path), "library/alloc/src/alloc.rs");
    EXPECT_EQ(display.show(path), "library/alloc/src/alloc.rs");
}

TEST(PathDisplay, TheFirstPrefixThatAppliesIsUsed)
{
    const PathDisplay display{{"/home", "/home/me"}};
    EXPECT_EQ(display.show("/home/me/a.c"), "me/a.c");
}

} // namespace
} // namespace vgprof
