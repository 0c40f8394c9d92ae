// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of reading compressed profiles (gzip, zstd: recognised by
// their magic numbers) and of reading a profile in chunks: what loads, and
// the message for damaged, truncated or oversized compressed data.
#include "compress_text.hpp"
#include "error_of.hpp"
#include "profile_text.hpp"

#include "vgprof/error.hpp"
#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

namespace vgprof {
namespace {

using test::gzip;
using test::ProfileText;
using test::zstd;

std::string load_error(const std::string& data, const std::string& name,
                       const LoadLimits& limits = {})
{
    return test::error_of([&] { parse_profile(data, name, limits); });
}

// A profile large enough to take several chunks of input and of
// decompressed output (1 MiB each): the sample's two functions with
// `rows` more lines rows for work, each costing 1.
std::string large_profile(size_t rows)
{
    std::string lines = "[[0,1,11,1200],[1,1,4,2484747]";
    for (size_t i = 0; i < rows; ++i)
        lines += "\n,[1,1," + std::to_string(100 + i) + ",1]";
    lines += "]";
    return ProfileText()
        .set("lines", lines)
        .set_meta("totals", "[" + std::to_string(2485947 + rows) + "]")
        .drop_call_graph()
        .str();
}

class TempFile {
public:
    explicit TempFile(const std::string& contents)
    {
        char name[] = "/tmp/vgprof-unit-XXXXXX";
        const int fd = mkstemp(name);
        EXPECT_GE(fd, 0);
        close(fd);
        path_ = name;
        std::ofstream(path_, std::ios::binary) << contents;
    }
    ~TempFile() { std::remove(path_.c_str()); }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// --- compressed profiles ------------------------------------------------------------

TEST(LoadCompressed, GzipAndZstdProfilesLoadAsThePlainOne)
{
    const std::string text = ProfileText().str();
    for (const std::string& data : {gzip(text), zstd(text)}) {
        const Profile p = parse_profile(data, "p.json");
        EXPECT_EQ(p.meta().totals[0], 2485947u);
        EXPECT_EQ(p.lines().size(), 2u);
        EXPECT_TRUE(p.has_call_graph());
    }
}

TEST(LoadCompressed, FormatComesFromTheMagicNumberNotTheName)
{
    EXPECT_EQ(parse_profile(zstd(ProfileText().str()), "p.json.gz").meta().totals[0], 2485947u);
    EXPECT_EQ(parse_profile(gzip(ProfileText().str()), "profile").meta().totals[0], 2485947u);
}

TEST(LoadCompressed, LargeCompressedFilesDecompressAcrossChunks)
{
    const std::string text = large_profile(200000);
    ASSERT_GT(text.size(), size_t(2) << 20);
    for (const std::string& data : {gzip(text), zstd(text)}) {
        TempFile file(data);
        const Profile p = load_profile(file.path());
        EXPECT_EQ(p.lines().size(), 200002u);
        EXPECT_EQ(p.meta().totals[0], 2485947u + 200000u);
    }
}

TEST(LoadCompressed, ConcatenatedGzipMembersAreOneText)
{
    const std::string text = ProfileText().str();
    const size_t half = text.size() / 2;
    EXPECT_EQ(parse_profile(gzip(text.substr(0, half)) + gzip(text.substr(half)), "p.json.gz")
                  .meta()
                  .totals[0],
              2485947u);
}

TEST(LoadCompressedError, TruncatedStreamSaysWhereTheInputEnded)
{
    const std::string gz = gzip(ProfileText().str()), zs = zstd(ProfileText().str());
    EXPECT_EQ(load_error(gz.substr(0, gz.size() - 10), "p.json.gz"),
              "p.json.gz: truncated gzip data: the input ends at byte " +
                  std::to_string(gz.size() - 10) + ", inside the compressed stream");
    EXPECT_EQ(load_error(zs.substr(0, zs.size() - 10), "p.json.zst"),
              "p.json.zst: truncated zstd data: the input ends at byte " +
                  std::to_string(zs.size() - 10) + ", inside the compressed stream");
}

TEST(LoadCompressedError, DamagedStreamIsCorruptEvenWhereItDecompressesToText)
{
    // A changed byte in the middle of the compressed data may decompress to
    // wrong text; the checksum at the end of the stream tells.
    const std::string text = large_profile(2000);
    std::string gz = gzip(text), zs = zstd(text);
    gz[gz.size() / 2] ^= 0x10;
    zs[zs.size() / 2] ^= 0x10;
    EXPECT_EQ(load_error(gz, "p.json.gz").rfind("p.json.gz: corrupt gzip data: ", 0), 0u)
        << load_error(gz, "p.json.gz");
    EXPECT_EQ(load_error(zs, "p.json.zst").rfind("p.json.zst: corrupt zstd data: ", 0), 0u)
        << load_error(zs, "p.json.zst");
}

TEST(LoadCompressedError, DataAfterTheGzipStreamIsRejected)
{
    const std::string gz = gzip(ProfileText().str());
    EXPECT_EQ(load_error(gz + "junk", "p.json.gz"),
              "p.json.gz: unexpected data after the end of the gzip data at byte " +
                  std::to_string(gz.size()));
}

TEST(LoadCompressedError, DecompressionStopsAtTheLimit)
{
    LoadLimits limits;
    limits.max_decompressed = 100;
    EXPECT_EQ(load_error(gzip(ProfileText().str()), "p.json.gz", limits),
              "p.json.gz: the gzip data decompresses to more than 100 bytes, the limit vgprof "
              "sets on decompressed data");
    EXPECT_EQ(load_error(zstd(std::string(10000, ' ')), "p.json.zst", limits),
              "p.json.zst: the zstd data decompresses to more than 100 bytes, the limit vgprof "
              "sets on decompressed data");
}

// --- reading in chunks --------------------------------------------------------------

TEST(LoadChunks, SyntaxErrorPastTheFirstChunkHasItsLineAndColumn)
{
    std::string text = large_profile(100000);
    ASSERT_GT(text.size(), size_t(1) << 20);
    const size_t at = text.rfind(",[1,1,");  // the last row, on the last-but-two line
    text[at + 1] = '{';
    TempFile file(text);
    const size_t line = 1 + size_t(std::count(text.begin(), text.begin() + long(at), '\n'));
    try {
        load_profile(file.path());
        FAIL() << "loaded a broken profile";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), file.path() + ": line " + std::to_string(line) +
                                             ", column 3: invalid JSON: syntax error at byte " +
                                             std::to_string(at + 2));
    }
}

TEST(LoadChunks, TableBeforeItsEventsIsStillRead)
{
    // lines comes before meta, so its rows' length is not known yet.
    const std::string text =
        R"({"vgprof":2,"lines":[[0,0,1,5,7]],"meta":{"tool":"vgprof","tool_version":"0.1.0",)"
        R"("valgrind":"3.19.0","argv":["a"],"options":[],"events":["Ir","Dr"],"cache":null,)"
        R"("totals":[5,7],"exit":{"code":0},"run":{}},"strs":["???","f"],"objs":[0],)"
        R"("files":[0],"fns":[[1,0,0,0]]})";
    const Profile p = parse_profile(text, "p.json");
    ASSERT_EQ(p.lines().size(), 1u);
    EXPECT_EQ(p.line_cost(0)[1], 7u);
}

TEST(LoadChunks, RowErrorsAreReportedInTableOrderAfterEarlierIdChecks)
{
    // Row 0's function id is out of range, row 1 is not an array: the first
    // row's problem comes first although the parser met the second's first.
    EXPECT_EQ(load_error(ProfileText().set("lines", "[[7,1,11,1200],5]").str(), "p.json"),
              "p.json: lines[0][0]: fn id 7 out of range (2 functions)");
}

TEST(LoadChunksError, TopLevelKeyGivenTwiceIsRejected)
{
    EXPECT_EQ(load_error(ProfileText().str().replace(1, 0, "\"vgprof\":2,"), "p.json"),
              R"(p.json: top-level key "vgprof" appears twice)");
    std::string twice = ProfileText().str();
    twice.insert(twice.rfind('}'), ",\"lines\":[]");
    EXPECT_EQ(load_error(twice, "p.json"), R"(p.json: top-level key "lines" appears twice)");
}

} // namespace
} // namespace vgprof
