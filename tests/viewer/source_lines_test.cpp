// SPDX-License-Identifier: GPL-2.0-or-later
// The Source view's lines: costs charged from the profile's lines rows of
// the file, the selected function's lines marked, its hottest line found.
#include "source_lines.hpp"

#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

// 45 numbered lines, "line 1" .. "line 45".
std::string numbered_text()
{
    std::string text;
    for (int i = 1; i <= 45; ++i)
        text += "line " + std::to_string(i) + "\n";
    return text;
}

TEST(SourceLines, EachLineCarriesWhatTheProfileChargedToIt)
{
    const auto doc = document_of(app_profile());
    const SourceFile f = annotate_source(*doc, FileId(1), numbered_text(), FnId(kCompute), 0, nullptr);
    EXPECT_EQ(f.path, "/src/app.c");
    ASSERT_EQ(f.lines.size(), 45u);
    EXPECT_EQ(f.lines[10].text, "line 11");
    EXPECT_EQ(f.lines[10].cost[0], 100u);  // main
    EXPECT_EQ(f.lines[30].cost[0], 400u);  // compute
    EXPECT_EQ(f.lines[31].cost[0], 600u);
    EXPECT_EQ(f.lines[40].cost[0], 700u);  // helper
    EXPECT_EQ(f.lines[0].cost[0], 0u);
    EXPECT_EQ(f.max_cost[0], 700u);
    EXPECT_FALSE(f.stale);
}

TEST(SourceLines, TheHottestLineIsTheSelectedFunctionsOwn)
{
    const auto doc = document_of(app_profile());
    const SourceFile f = annotate_source(*doc, FileId(1), numbered_text(), FnId(kCompute), 0, nullptr);
    EXPECT_EQ(f.hottest, 32u);  // 600 > 400; helper's 700 is not compute's
    EXPECT_TRUE(f.lines[30].in_function);
    EXPECT_TRUE(f.lines[31].in_function);
    EXPECT_FALSE(f.lines[40].in_function);
}

TEST(SourceLines, AShorterFileThanTheProfileIsStale)
{
    const auto doc = document_of(app_profile());
    const SourceFile f = annotate_source(*doc, FileId(1), "only\r\ntwo lines", FnId(kHelper), 0, nullptr);
    ASSERT_EQ(f.lines.size(), 2u);
    EXPECT_EQ(f.lines[0].text, "only");
    EXPECT_TRUE(f.stale);
    EXPECT_FALSE(f.hottest);
}

TEST(SourceLines, TheFileOfAFunctionIsItsEntryPointsFile)
{
    const auto doc = document_of(app_profile());
    EXPECT_EQ(source_file_of(*doc, FnId(kMain)), FileId(1));
    ProfileText unknown = app_profile();
    unknown.set("fns", "[[5,0,0,0],[6,1,0,20],[3,1,0,30],[4,1,0,40]]");
    const auto doc2 = document_of(unknown);
    // main's entry is in "???", but its lines are in app.c.
    EXPECT_EQ(source_file_of(*doc2, FnId(kMain)), FileId(1));
}

} // namespace
} // namespace vgprof::viewer
