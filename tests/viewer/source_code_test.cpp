// SPDX-License-Identifier: GPL-2.0-or-later
// The Source view's calls per line and its machine code: the "app"
// fixture's call sites (main calls parse at app.c:11 and compute at
// app.c:12; parse calls helper twice at app.c:21, compute five times at
// app.c:31), and a listing of helper laid over a disassembly given as
// objdump prints it.
#include "function_code.hpp"
#include "source_calls.hpp"

#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

TEST(SourceCalls, EachLineListsTheCallsMadeThereWithTheirInclusiveCost)
{
    const auto doc = document_of(app_profile());
    const FileCalls calls = file_calls(*doc, FileId(1));
    ASSERT_EQ(calls.by_line.size(), 4u);
    const std::vector<LineCall>& at31 = calls.by_line.at(31);
    ASSERT_EQ(at31.size(), 1u);
    EXPECT_EQ(at31[0].callee, FnId(kHelper));
    EXPECT_EQ(at31[0].count, 5u);
    EXPECT_EQ(at31[0].inclusive[0], 500u);
    EXPECT_EQ(calls.total.at(12)[0], 1500u);  // compute, from main
    EXPECT_FALSE(calls.by_line.count(32));     // compute's own work, no call
    // Found by path in a profile that numbers its files otherwise.
    EXPECT_EQ(file_calls(*doc, "/src/app.c").total.at(21)[0], 200u);
    EXPECT_TRUE(file_calls(*doc, "/src/other.c").by_line.empty());
}

// helper's instructions at 0x1000, 0x1004 and 0x1008 of /usr/bin/app,
// executed for 100, 500 and 100 Ir; compute's at 0x2000.
ProfileText with_instructions()
{
    return app_profile().set(
        "instrs", "[[4096,3,1,41,100],[4100,3,1,41,500],[4104,3,1,41,100],[8192,2,1,31,400]]");
}

// An executable linked at fixed addresses whose code objdump printed so.
ObjectCode fixed_object(const char* objdump)
{
    ObjectCode o;
    o.fixed = true;
    o.code = parse_objdump(objdump);
    return o;
}

const char* const kAppCode = "0000000000001000 <helper>:\n"
                             "    1000:\tpush   %rbp\n"
                             "    1004:\tadd    $0x1,%eax\n"
                             "    1008:\tret\n"
                             "    100c:\tnop\n"
                             "0000000000002000 <compute>:\n"
                             "    2000:\tret\n";

ObjectCode disassembly() { return fixed_object(kAppCode); }

TEST(FunctionCode, AFunctionsInstructionsCarryTheirCosts)
{
    const auto doc = document_of(with_instructions());
    const AsmListing l = function_listing(doc->profile(), FnId(kHelper), disassembly(), 0, "app.json");
    EXPECT_TRUE(l.problem.empty()) << l.problem;
    EXPECT_TRUE(l.costs);
    // From its symbol to the next one: four instructions, the last not run.
    ASSERT_EQ(l.lines.size(), 4u);
    EXPECT_EQ(l.lines[1].addr, 0x1004u);
    EXPECT_EQ(l.lines[1].text, "add    $0x1,%eax");
    EXPECT_EQ(l.lines[1].cost[0], 500u);
    EXPECT_TRUE(l.lines[3].cost.empty());
    EXPECT_EQ(l.hottest, 1u);
    EXPECT_EQ(l.max_cost[0], 500u);
    EXPECT_TRUE(l.notes.empty());
}

TEST(FunctionCode, WithoutASymbolTheExecutedStretchIsListed)
{
    const auto doc = document_of(with_instructions());
    // Another function's symbol before helper's code, none at it.
    const ObjectCode o = fixed_object("0000000000000ff8 <other>:\n"
                                      "     ff8:\tnop\n"
                                      "    1000:\tpush   %rbp\n"
                                      "    1004:\tadd    $0x1,%eax\n"
                                      "    1008:\tret\n"
                                      "    100c:\tnop\n");
    const AsmListing l = function_listing(doc->profile(), FnId(kHelper), o, 0, "app.json");
    EXPECT_TRUE(l.problem.empty()) << l.problem;
    // 0x1000 to 0x1008: the first and the last executed instruction.
    ASSERT_EQ(l.lines.size(), 3u);
    EXPECT_EQ(l.notes.size(), 1u);
}

TEST(FunctionCode, WithoutInstructionCostsTheSymbolIsListedAlone)
{
    const auto doc = document_of(app_profile());  // no instrs rows
    const AsmListing l = function_listing(doc->profile(), FnId(kHelper), disassembly(), 0, "app.json");
    EXPECT_TRUE(l.problem.empty()) << l.problem;
    EXPECT_FALSE(l.costs);
    EXPECT_EQ(l.lines.size(), 4u);
    EXPECT_FALSE(l.hottest);
    ASSERT_EQ(l.notes.size(), 1u);
    EXPECT_NE(l.notes[0].find("--dump-instr=yes"), std::string::npos);
}

TEST(FunctionCode, AStrippedObjectsLoadOffsetIsFoundFromItsInstructions)
{
    // No symbol names anything; the code ran 0x108000 above the file's
    // addresses, where every executed address is an instruction's.
    const ObjectCode o = fixed_object(kAppCode);
    EXPECT_EQ(offset_from_instructions({0x109000, 0x109004, 0x109008, 0x10a000}, o.code), 0x108000u);
    // Addresses that no offset puts on instructions.
    EXPECT_FALSE(offset_from_instructions({0x109001, 0x109002, 0x109003}, o.code));
    EXPECT_FALSE(offset_from_instructions({}, o.code));
}

TEST(FunctionCode, WhatCannotBeListedSaysWhy)
{
    const auto doc = document_of(app_profile());
    const AsmListing no_symbol = function_listing(doc->profile(), FnId(kMain), disassembly(), 0, "app.json");
    EXPECT_NE(no_symbol.problem.find("No symbol"), std::string::npos) << no_symbol.problem;
    ObjectCode missing;
    missing.problem = "/usr/bin/app is not on this machine, so its code cannot be shown.";
    EXPECT_EQ(function_listing(doc->profile(), FnId(kMain), missing, 0, "app.json").problem, missing.problem);
    EXPECT_FALSE(read_object_code("/no/such/object").problem.empty());
}

} // namespace
} // namespace vgprof::viewer
