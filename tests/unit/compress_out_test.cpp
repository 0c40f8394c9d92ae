// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of compressed output: what write_compressed writes is read
// back by the system's gzip and zstd commands as the bytes written, at every
// size around its 128 KiB buffer; a file's name says which compression.
#include "scratch_dir.hpp"

#include "vgprof/compress_out.hpp"
#include "vgprof/file_io.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>

namespace vgprof {
namespace {

using test::ScratchDir;

TEST(CompressionFor, TheNameSaysWhichCompression)
{
    EXPECT_EQ(compression_for("app.heaptrack.gz"), Compression::gzip);
    EXPECT_EQ(compression_for("app.heaptrack.zst"), Compression::zstd);
    EXPECT_EQ(compression_for("app.heaptrack"), Compression::none);
    EXPECT_EQ(compression_for("out.gzip"), Compression::none);
    EXPECT_EQ(compression_for(".gz"), Compression::none);   // a name with nothing before the suffix
}

struct Decompressor {
    Compression compression;
    const char* command;   // file name appended; writes standard output
};
void PrintTo(const Decompressor& d, std::ostream* out)
{
    *out << (d.compression == Compression::gzip ? "gzip" : "zstd");
}

class CompressedOutput : public ::testing::TestWithParam<Decompressor> {};

TEST_P(CompressedOutput, EverySizeDecompressesToTheTextWritten)
{
    ScratchDir dir;
    constexpr size_t KiB = 1024;
    for (size_t size : {size_t(0), size_t(1), 128 * KiB - 1, 128 * KiB, 128 * KiB + 1,
                        1024 * KiB + 3}) {
        std::string text;
        for (size_t i = 0; i < size; ++i)
            text += char('a' + (i * 7 + i / 13) % 26);
        const std::string file = dir / "out";
        write_file_atomically(file, [&](std::ostream& out) {
            // Written in pieces, as an exporter writes.
            write_compressed(out, GetParam().compression, [&](std::ostream& in) {
                for (size_t at = 0; at < text.size(); at += 1000)
                    in << text.substr(at, 1000);
            });
        });
        const std::string command = std::string(GetParam().command) + " '" + file + "' > '" +
                                    file + ".plain'";
        ASSERT_EQ(std::system(command.c_str()), 0) << command << " (" << size << " bytes)";
        EXPECT_EQ(read_file(file + ".plain"), text) << size << " bytes";
    }
}

INSTANTIATE_TEST_SUITE_P(Formats, CompressedOutput,
                         ::testing::Values(Decompressor{Compression::gzip, "gzip -dc <"},
                                           Decompressor{Compression::zstd, "zstd -q -dc <"}));

TEST(CompressedOutput, NoneWritesTheTextAsItIs)
{
    std::ostringstream out;
    write_compressed(out, Compression::none, [](std::ostream& in) { in << "plain"; });
    EXPECT_EQ(out.str(), "plain");
}

} // namespace
} // namespace vgprof
