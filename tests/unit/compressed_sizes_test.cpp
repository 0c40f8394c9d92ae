// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of reading what the system's gzip and zstd commands write:
// every valid stream reads back as the bytes compressed, whatever their
// size (on, below and above the reader's 1 MiB buffers and zstd's 128 KiB
// blocks), in one frame or member or several; only a stream that stops
// inside a frame is "truncated"; a stream larger than the limit on
// decompressed data says that it is the limit.
#include "error_of.hpp"
#include "profile_text.hpp"
#include "scratch_dir.hpp"

#include "lib/input.hpp"
#include "vgprof/error.hpp"
#include "vgprof/file_io.hpp"
#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

namespace vgprof {
namespace {

using test::ProfileText;
using test::ScratchDir;

constexpr size_t KiB = 1024, MiB = 1024 * KiB;

// The sample profile followed by JSON whitespace up to `size` bytes: the
// same profile, whatever the size.
std::string padded_profile(size_t size)
{
    std::string text = ProfileText().str();
    EXPECT_LE(text.size(), size);
    for (size_t i = text.size(); i < size; ++i)
        text += i % 64 == 63 ? '\n' : ' ';
    return text;
}

struct Compressor {
    const char* name;
    const char* command;  // reads standard input, writes standard output
    const char* suffix;
};
void PrintTo(const Compressor& c, std::ostream* out) { *out << c.name; }

const Compressor kGzip{"gzip", "gzip -c -n", ".gz"};
const Compressor kZstd{"zstd", "zstd -q -c", ".zst"};

// `file` compressed by the command into file + suffix; the compressed path.
std::string compress(const Compressor& c, const std::string& file)
{
    const std::string out = file + c.suffix;
    const std::string command = std::string(c.command) + " < '" + file + "' > '" + out + "'";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return out;
}

// Everything the reader hands out for the file at `path`.
std::string read_back(const std::string& path, uint64_t limit = uint64_t(16) << 30)
{
    const auto input = detail::open_file(path, limit, {});
    std::string text;
    for (std::string_view chunk = input->next(); !chunk.empty(); chunk = input->next())
        text.append(chunk);
    return text;
}

std::string load_error(const std::string& path, const LoadLimits& limits = {})
{
    return test::error_of([&] { load_profile(path, limits); });
}

class CompressedBySystemTool : public ::testing::TestWithParam<Compressor> {
protected:
    ScratchDir dir_;
};

// On and around the reader's 1 MiB buffers (input and output alike) and
// zstd's 128 KiB blocks.
const size_t kSizes[] = {128 * KiB - 1, 128 * KiB,   128 * KiB + 1, MiB - 1,     MiB,
                         MiB + 1,       2 * MiB - 1, 2 * MiB,       2 * MiB + 1, 3 * MiB};

TEST_P(CompressedBySystemTool, EverySizeReadsBackAsTheBytesCompressed)
{
    for (const size_t size : kSizes) {
        const std::string text = padded_profile(size);
        const std::string plain = dir_.write("p" + std::to_string(size) + ".json", text);
        const std::string packed = compress(GetParam(), plain);
        std::string back;
        ASSERT_EQ(test::error_of([&] { back = read_back(packed); }), "no error") << size;
        EXPECT_EQ(back.size(), text.size());
        EXPECT_TRUE(back == text) << size << " bytes";
        EXPECT_EQ(load_profile(packed).meta().totals[0], 2485947u) << size << " bytes";
    }
}

TEST_P(CompressedBySystemTool, OneByteReadsBackAndTheProfileSaysWhatIsMissing)
{
    const std::string packed = compress(GetParam(), dir_.write("p.json", " "));
    EXPECT_EQ(read_back(packed), " ");
    EXPECT_EQ(load_error(packed), packed + ": truncated JSON: unexpected end of input at byte 1");
}

TEST_P(CompressedBySystemTool, NothingCompressedIsEmptyNotTruncated)
{
    const std::string packed = compress(GetParam(), dir_.write("p.json", ""));
    EXPECT_EQ(read_back(packed), "");
    EXPECT_EQ(load_error(packed), packed + ": empty: the compressed data decompresses to no bytes");
}

// `cat a.gz b.gz` and `cat a.zst b.zst` are valid streams of the two
// contents joined, wherever the first one ends.
TEST_P(CompressedBySystemTool, ConcatenatedStreamsReadBackJoinedWhereverTheFirstEnds)
{
    const std::string text = padded_profile(2 * MiB + 7);
    for (const size_t split : {size_t(1), 128 * KiB, MiB - 1, MiB, MiB + 1, 2 * MiB}) {
        const std::string first = compress(GetParam(), dir_.write("a.json", text.substr(0, split)));
        const std::string second = compress(GetParam(), dir_.write("b.json", text.substr(split)));
        const std::string joined = dir_.write("ab.json" + std::string(GetParam().suffix),
                                              read_file(first) + read_file(second));
        EXPECT_TRUE(read_back(joined) == text) << "split at " << split;
        EXPECT_EQ(load_profile(joined).meta().totals[0], 2485947u) << "split at " << split;
    }
}

TEST_P(CompressedBySystemTool, AStreamCutInsideAFrameIsTruncatedWhereverItIsCut)
{
    const std::string packed = compress(GetParam(), dir_.write("p.json", padded_profile(MiB)));
    const std::string whole = read_file(packed);
    // From just past the magic number to the last byte of the checksum.
    for (const size_t cut :
         {size_t(4), size_t(10), whole.size() / 2, whole.size() - 4, whole.size() - 1}) {
        const std::string cut_file =
            dir_.write("cut" + std::string(GetParam().suffix), whole.substr(0, cut));
        EXPECT_EQ(load_error(cut_file), cut_file + ": truncated " + GetParam().name +
                                            " data: the input ends at byte " + std::to_string(cut) +
                                            ", inside the compressed stream")
            << "cut at " << cut << " of " << whole.size();
    }
}

// Zeros compressed from /dev/zero: up to the limit they are read (and are
// not JSON); one byte more and the message names the limit.
TEST_P(CompressedBySystemTool, ABombStopsAtTheLimitAndTheMessageSaysSo)
{
    LoadLimits limits;
    limits.max_decompressed = 3 * MiB;
    const auto zeros = [&](size_t n) {
        return compress(GetParam(), dir_.write("zeros" + std::to_string(n), std::string(n, '\0')));
    };
    const std::string at_limit = zeros(3 * MiB);
    EXPECT_EQ(load_error(at_limit, limits),
              at_limit + ": line 1, column 1: invalid JSON: syntax error at byte 0");
    const std::string over = zeros(3 * MiB + 1);
    EXPECT_EQ(load_error(over, limits),
              over + ": the " + GetParam().name + " data decompresses to more than " +
                  std::to_string(3 * MiB) + " bytes, the limit vgprof sets on decompressed data");
}

// zstd alone: it decompresses a GiB of zeros in a fraction of a second.
TEST(CompressedBySystemToolError, ALimitOfWholeGiBIsAlsoSaidInGiB)
{
    ScratchDir dir;
    LoadLimits limits;
    limits.max_decompressed = uint64_t(1) << 30;
    const std::string bomb = dir / "bomb.zst";
    const std::string command = "head -c " + std::to_string(limits.max_decompressed + 1) +
                                " /dev/zero | " + kZstd.command + " > " + bomb;
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    EXPECT_EQ(load_error(bomb, limits),
              bomb + ": the zstd data decompresses to more than 1073741824 bytes (1 GiB), the "
                     "limit vgprof sets on decompressed data");
}

INSTANTIATE_TEST_SUITE_P(Formats, CompressedBySystemTool, ::testing::Values(kGzip, kZstd),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace vgprof
