// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of what a file cannot make the readers do: hold a string
// longer than LoadLimits::max_string (JSON profiles, callgrind lines, DHAT
// files), or print a message that is not one short line however long or
// unprintable the text it quotes; and of the progress a load reports.
#include "error_of.hpp"
#include "profile_text.hpp"
#include "scratch_dir.hpp"

#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <string>

namespace vgprof {
namespace {

using test::error_of;
using test::ProfileText;

LoadLimits strings_of_at_most(uint64_t bytes)
{
    LoadLimits limits;
    limits.max_string = bytes;
    return limits;
}

std::string load_error(const std::string& data, const LoadLimits& limits = {})
{
    return error_of([&] { parse_profile(data, "p.json", limits); });
}

TEST(StringLimit, AStringAsLongAsTheLimitIsRead)
{
    const std::string text =
        ProfileText().set_meta("tool_version", '"' + std::string(64, 'v') + '"').str();
    EXPECT_EQ(load_error(text, strings_of_at_most(64)), "no error");
}

TEST(StringLimit, ALongerStringIsRefusedNamingTheSection)
{
    const std::string text =
        ProfileText().set_meta("tool_version", '"' + std::string(65, 'v') + '"').str();
    EXPECT_EQ(load_error(text, strings_of_at_most(64)),
              "p.json: a string in \"meta\" is longer than 64 bytes, the most vgprof reads");
}

TEST(StringLimit, ALongerTopLevelKeyIsRefused)
{
    EXPECT_EQ(load_error(R"({"vgprof":3,"abcdefghijk":1})", strings_of_at_most(10)),
              "p.json: a top-level key is longer than 10 bytes, the most vgprof reads");
}

TEST(StringLimit, TheDefaultIsSixteenMebibytes)
{
    EXPECT_EQ(LoadLimits{}.max_string, uint64_t(16) << 20);
}

TEST(StringLimit, ACallgrindLineLongerThanTheLimitIsRefused)
{
    const std::string text = "events: Ir\nfn=" + std::string(100, 'f') + "\n0 1\n";
    EXPECT_EQ(load_error(text, strings_of_at_most(64)),
              "p.json: line 2: the line is longer than 64 bytes, the most vgprof reads");
}

TEST(StringLimit, ADhatStringLongerThanTheLimitIsRefused)
{
    const std::string text =
        R"({"dhatFileVersion":2,"mode":"heap","cmd":")" + std::string(100, 'c') + "\"}";
    EXPECT_EQ(load_error(text, strings_of_at_most(64)),
              "p.json: a string is longer than 64 bytes, the most vgprof reads");
}

TEST(StringLimit, ADhatFileIsReadAcrossChunksAndMayEndInWhiteSpace)
{
    // Only what follows the document matters here: it is otherwise empty.
    EXPECT_EQ(load_error("{\"dhatFileVersion\":2} \n\n"),
              "p.json: missing required key \"mode\"");
    EXPECT_EQ(load_error("{\"dhatFileVersion\":2} x"),
              "p.json: invalid JSON: unexpected data after the end of the document");
}

TEST(QuotedText, ALongValueIsCutInTheMessage)
{
    const std::string text = ProfileText().set_meta("tool", '"' + std::string(1000, 't') + '"').str();
    EXPECT_EQ(load_error(text), "p.json: meta.tool: expected \"vgprof\", got \"" +
                                    std::string(80, 't') + "\"... (1000 bytes)");
}

TEST(QuotedText, ControlCharactersAreEscaped)
{
    const std::string text = ProfileText().set_meta("tool", R"("a\nb\u001b[1m")").str();
    EXPECT_EQ(load_error(text), R"(p.json: meta.tool: expected "vgprof", got "a\u000ab\u001b[1m")");
}

TEST(QuotedText, ACallgrindLineIsQuotedEscaped)
{
    EXPECT_EQ(load_error("events: Ir\nfn=x\n\x1b[2J\n"),
              R"(p.json: line 3: not a line of the callgrind format: "\u001b[2J")");
}

TEST(LoadProgress, IsToldOfEveryByteReadAndTheFileSize)
{
    test::ScratchDir dir;
    const std::string text = ProfileText().str();
    const std::string path = dir.write("p.json", text);
    uint64_t last_read = 0, size = 0;
    load_profile(path, {}, [&](uint64_t read, uint64_t total) {
        EXPECT_GE(read, last_read);
        last_read = read;
        size = total;
    });
    EXPECT_EQ(last_read, text.size());
    EXPECT_EQ(size, text.size());
}

} // namespace
} // namespace vgprof
