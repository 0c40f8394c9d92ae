// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of vgprof/file_io.hpp and of reading a source file through
// vgprof/source.hpp's search: what `vgprof annotate`, the baselines and the
// viewer's Source view read and write.
#include "error_of.hpp"
#include "scratch_dir.hpp"

#include "vgprof/file_io.hpp"
#include "vgprof/source.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <ostream>

namespace vgprof {
namespace {

using test::error_of;
using test::ScratchDir;

TEST(FileIo, ReadsAWholeFileAndTellsHowFarItGot)
{
    ScratchDir dir;
    const std::string path = dir.write("a.txt", "one\ntwo\n");
    uint64_t read = 0, size = 0;
    EXPECT_EQ(read_file(path, [&](uint64_t r, uint64_t s) { read = r, size = s; }), "one\ntwo\n");
    EXPECT_EQ(read, 8u);
    EXPECT_EQ(size, 8u);
}

TEST(FileIo, NamesTheFileItCannotRead)
{
    ScratchDir dir;
    EXPECT_EQ(error_of([&] { read_file(dir / "none"); }),
              dir / "none" + ": cannot open: No such file or directory");
    EXPECT_EQ(error_of([&] { read_file(dir.path()); }),
              dir.path() + ": cannot read: it is a directory");
}

TEST(FileIo, ASyncedWriteLeavesOnlyTheFile)
{
    ScratchDir dir;
    write_file_atomically(dir / "kept.json", [](std::ostream& out) { out << "{}"; },
                          Durability::synced);
    EXPECT_EQ(read_file(dir / "kept.json"), "{}");
    size_t entries = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path()))
        ++entries;
    EXPECT_EQ(entries, 1u);
}

TEST(FileIo, ASourceIsReadWhereTheSearchFindsIt)
{
    ScratchDir dir;
    dir.write("src/app.c", "int main() {}\n");
    SourceSearch search;
    search.dirs = {dir / "src"};
    EXPECT_EQ(read_source("app.c", search), "int main() {}\n");
    search.substitutions = {{"/build", dir / "src"}};
    EXPECT_EQ(read_source("/build/app.c", search), "int main() {}\n");
    EXPECT_EQ(error_of([&] { read_source("/build/gone.c", search); }),
              dir / "src/gone.c" + ": cannot open: No such file or directory");
}

} // namespace
} // namespace vgprof
