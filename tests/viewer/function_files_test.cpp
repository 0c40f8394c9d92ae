// SPDX-License-Identifier: GPL-2.0-or-later
// The Source view's list of the files a function's code came from: its own
// file first, then each file code was inlined from with its share, and the
// lines of an inlined header charged to the function.
#include "function_files.hpp"
#include "source_lines.hpp"

#include "viewer_fixture.hpp"

#include "vgprof/error.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

std::string text_of(uint32_t lines)
{
    std::string text;
    for (uint32_t i = 1; i <= lines; ++i)
        text += "line " + std::to_string(i) + "\n";
    return text;
}

TEST(FunctionFiles, OwnFileFirstThenEachInlinedFileWithItsShare)
{
    const auto doc = document_of(inlined_profile());
    const FunctionFiles f = files_of_function(*doc, FnId(kWork), 0);
    EXPECT_EQ(f.total, std::vector<uint64_t>{1000});
    ASSERT_EQ(f.files.size(), 3u);
    EXPECT_EQ(f.files[0].file, FileId(1));  // app.cpp, its own
    EXPECT_TRUE(f.files[0].own);
    EXPECT_EQ(f.files[0].cost, std::vector<uint64_t>{100});
    EXPECT_TRUE(f.files[0].inlined.empty());
    EXPECT_EQ(f.files[1].file, FileId(2));  // stl_vector.h: erase's 600
    EXPECT_FALSE(f.files[1].own);
    EXPECT_EQ(f.files[1].cost, std::vector<uint64_t>{600});
    ASSERT_EQ(f.files[1].inlined.size(), 1u);
    EXPECT_EQ(f.files[1].inlined[0].fn, FnId(kErase));
    EXPECT_EQ(f.files[2].file, FileId(3));  // stl_algobase.h: move's 300
    ASSERT_EQ(f.files[2].inlined.size(), 1u);
    EXPECT_EQ(f.files[2].inlined[0].fn, FnId(kMove));
    EXPECT_EQ(f.files[2].inlined[0].cost, std::vector<uint64_t>{300});
}

TEST(FunctionFiles, AnInlinedFunctionsCodeIsWhereItWasInlinedWithWhatWasInlinedIntoIt)
{
    const auto doc = document_of(inlined_profile());
    const FunctionFiles f = files_of_function(*doc, FnId(kErase), 0);
    EXPECT_EQ(f.total, std::vector<uint64_t>{600 + 300});
    ASSERT_EQ(f.files.size(), 2u);
    EXPECT_EQ(f.files[0].file, FileId(2));
    EXPECT_FALSE(f.files[0].own);
    EXPECT_TRUE(f.files[0].inlined.empty());  // erase's own code
    EXPECT_EQ(f.files[1].file, FileId(3));
    ASSERT_EQ(f.files[1].inlined.size(), 1u);
    EXPECT_EQ(f.files[1].inlined[0].fn, FnId(kMove));
    EXPECT_EQ(first_file_of(*doc, FnId(kErase), 0), FileId(2));
    EXPECT_EQ(first_file_of(*doc, FnId(kWork), 0), FileId(1));
}

TEST(FunctionFiles, AHeadersLinesAreMarkedAsTheFunctionsCode)
{
    const auto doc = document_of(inlined_profile());
    const SourceFile f = annotate_source(*doc, FileId(2), text_of(1300), FnId(kWork), 0, nullptr);
    EXPECT_EQ(f.lines[1277].cost, std::vector<uint64_t>{600});
    EXPECT_TRUE(f.lines[1277].in_function);
    EXPECT_EQ(f.lines[1277].fn_cost, std::vector<uint64_t>{600});
    EXPECT_EQ(f.hottest, 1278u);
}

TEST(FunctionFiles, AnInlinedFunctionsLinesAreMarkedInTheHeader)
{
    const auto doc = document_of(inlined_profile());
    const SourceFile f = annotate_source(*doc, FileId(3), text_of(500), FnId(kMove), 0, nullptr);
    EXPECT_TRUE(f.lines[399].in_function);
    EXPECT_EQ(f.lines[399].fn_cost, std::vector<uint64_t>{300});
    EXPECT_EQ(f.hottest, 400u);
}

TEST(FunctionFiles, ALineNamedByTheEndOfItsPathIsSelectedInItsFunction)
{
    const auto doc = document_of(inlined_profile());
    const Selection s = line_to_select(*doc, "bits/stl_vector.h:1278", FnId(kInlMain), 0);
    EXPECT_EQ(s.kind, Selection::Kind::line);
    EXPECT_EQ(s.file, FileId(2));
    EXPECT_EQ(s.line, 1278u);
    EXPECT_EQ(s.fn, FnId(kWork));  // main has no code there; work's 600 Ir are
    EXPECT_EQ(line_to_select(*doc, "/src/app.cpp:11", FnId(kWork), 0).fn, FnId(kInlMain));
}

TEST(FunctionFiles, ALineOfNoFileOrWithoutANumberIsAnError)
{
    const auto doc = document_of(inlined_profile());
    EXPECT_THROW(line_to_select(*doc, "vector.h:3", std::nullopt, 0), Error);  // not a whole component
    EXPECT_THROW(line_to_select(*doc, "stl_vector.h", std::nullopt, 0), Error);
    EXPECT_THROW(line_to_select(*doc, "stl_vector.h:12x", std::nullopt, 0), Error);
}

} // namespace
} // namespace vgprof::viewer
