// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of vgprof/safe_text.hpp: how each kind of output writes a
// name that came from a profile, so that it stays data.
#include "vgprof/safe_text.hpp"

#include <gtest/gtest.h>

namespace vgprof {
namespace {

TEST(EscapedControls, ShowsControlsAndHiddenCharactersAsEscapes)
{
    EXPECT_EQ(escaped_controls("a\nb\rc\td"), "a\\nb\\rc\\td");
    EXPECT_EQ(escaped_controls("\x1b[2J\x07\x7f"), "\\x1b[2J\\x07\\x7f");
    // C1's CSI (U+009B) and a right-to-left override (U+202E), in UTF-8.
    EXPECT_EQ(escaped_controls("a\xc2\x9b" "b\xe2\x80\xae" "c"), "a\\u009bb\\u202ec");
    // A byte that is no UTF-8: as a raw 0x9b it is CSI to an 8-bit terminal.
    EXPECT_EQ(escaped_controls("a\x9b" "b"), "a\\x9bb");
}

TEST(EscapedControls, LeavesPrintableTextAsItIs)
{
    const std::string names[] = {"std::vector<int>::push_back", "caf\xc3\xa9", "a\\nb",
                                 "<alloc::vec::Vec<T> as Drop>::drop", "\xf0\x9f\xa6\x80"};
    for (const std::string& name : names)
        EXPECT_EQ(escaped_controls(name), name);
}

TEST(PlainLine, NeverStartsAWorkflowCommand)
{
    EXPECT_EQ(plain_line("::error::x"), "\\x3a:error::x");
    EXPECT_EQ(plain_line("   \t::add-mask::x"), "   \t\\x3a:add-mask::x");
    // .NET's TrimStart() also removes Unicode spaces (U+3000 here).
    EXPECT_EQ(plain_line("\xe3\x80\x80::warning::x"), "\xe3\x80\x80\\x3a:warning::x");
    // The older form is read anywhere in a line.
    EXPECT_EQ(plain_line("work ##[error]x"), "work ##\\x5berror]x");
    EXPECT_EQ(plain_line("  8,000  std::swap"), "  8,000  std::swap");
    EXPECT_EQ(plain_line("a\tb\nc"), "a\tb\\nc");
}

TEST(PlainLines, PassesEachLineThroughPlainLine)
{
    EXPECT_EQ(plain_lines("ok\n::error::x\nlast"), "ok\n\\x3a:error::x\nlast");
}

TEST(MarkdownCode, FencesWithMoreBackticksThanTheTextHas)
{
    EXPECT_EQ(markdown_code("main"), "`main`");
    EXPECT_EQ(markdown_code("a`b"), "``a`b``");
    EXPECT_EQ(markdown_code("`x``"), "``` `x`` ```");
    EXPECT_EQ(markdown_code("a\nb"), "`a\\nb`");
}

TEST(MarkdownCode, TextWithAPipeIsWrittenAsEscapedText)
{
    EXPECT_EQ(markdown_code("operator|"), "operator\\|");
}

TEST(MarkdownText, EscapesWhatWouldBeMarkup)
{
    EXPECT_EQ(markdown_text("![x](http://e) <img> *a* _b_ ~c~ |d| `g` \\h"),
              "!\\[x\\](http://e) \\<img> \\*a\\* \\_b\\_ \\~c\\~ \\|d\\| \\`g\\` \\\\h");
}

TEST(MarkdownText, LeavesAPathsWordsAsTheyAre)
{
    EXPECT_EQ(markdown_text("/usr/lib/x86_64-linux-gnu/libc.so.6 +200 (10 -> 12)"),
              "/usr/lib/x86_64-linux-gnu/libc.so.6 +200 (10 -> 12)");
}

TEST(WorkflowEscaping, IsGitHubsEscapingOfDataAndProperties)
{
    EXPECT_EQ(workflow_data("50% a:b,c"), "50%25 a:b,c");
    EXPECT_EQ(workflow_property("50% a:b,c"), "50%25 a%3Ab%2Cc");
    // A newline cannot end the command: shown escaped.
    EXPECT_EQ(workflow_data("a\n::error::b"), "a\\n::error::b");
}

} // namespace
} // namespace vgprof
