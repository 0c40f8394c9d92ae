// SPDX-License-Identifier: GPL-2.0-or-later
// The Source view's calls per line and its machine code: the "app"
// fixture's call sites (main calls parse at app.c:11 and compute at
// app.c:12; parse calls helper twice at app.c:21, compute five times at
// app.c:31), and listings of helper, compute and parse laid over a
// disassembly given as objdump prints it, alone and in diff mode.
#include "diff_link.hpp"
#include "function_code.hpp"
#include "source_calls.hpp"

#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

#include <cstring>

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

TEST(FunctionCode, CodeWithoutASymbolIsListedFromTheAddressItIsNamedBy)
{
    // The tool names code without a symbol by where it starts in its
    // object: helper renamed so, in a profile without instruction costs.
    // It runs to the next symbol (compute at 0x2000) or, sooner, to the
    // next such function of the object (0x1008 here).
    ProfileText text = app_profile();
    text.set("strs", R"(["???","/src/app.c","/usr/bin/app","compute","0x0000000000001000",)"
                     R"("main","parse","0x0000000000001008"])")
        .set("fns", "[[5,1,0,10],[6,1,0,20],[3,1,0,30],[4,1,0,40],[7,1,0,0]]");
    const auto doc = document_of(text);
    const AsmListing l = function_listing(doc->profile(), FnId(kHelper), disassembly(), 0, "app.json");
    EXPECT_TRUE(l.problem.empty()) << l.problem;
    ASSERT_EQ(l.lines.size(), 2u);
    EXPECT_EQ(l.lines[0].addr, 0x1000u);
    EXPECT_EQ(l.lines[1].addr, 0x1004u);
    // The last function of the object: up to the next symbol.
    const AsmListing last = function_listing(doc->profile(), FnId(4), disassembly(), 0, "app.json");
    EXPECT_TRUE(last.problem.empty()) << last.problem;
    ASSERT_EQ(last.lines.size(), 2u);
    EXPECT_EQ(last.lines[0].addr, 0x1008u);
    EXPECT_EQ(last.lines[1].addr, 0x100cu);
}

TEST(FunctionCode, JumpsWithinTheFunctionGoToNumberedLabels)
{
    const auto doc = document_of(with_instructions());
    // A backward jump to 0x1000, a forward one to 0x1008, one out of the
    // function (to compute) which stays as objdump wrote it.
    const ObjectCode o = fixed_object("0000000000001000 <helper>:\n"
                                      "    1000:\tpush   %rbp\n"
                                      "    1004:\tjne    1008 <helper+0x8>\n"
                                      "    1008:\tjmp    1000 <helper>\n"
                                      "    100c:\tjmp    2000 <compute>\n"
                                      "0000000000002000 <compute>:\n"
                                      "    2000:\tret\n");
    const AsmListing l = function_listing(doc->profile(), FnId(kHelper), o, 0, "app.json");
    ASSERT_EQ(l.lines.size(), 4u);
    EXPECT_EQ(l.lines[1].jump_to, std::optional<size_t>(2));
    EXPECT_EQ(l.lines[2].jump_to, std::optional<size_t>(0));
    EXPECT_FALSE(l.lines[3].jump_to);
    EXPECT_EQ(l.lines[0].label, std::optional<uint32_t>(1));  // in address order
    EXPECT_EQ(l.lines[2].label, std::optional<uint32_t>(2));
    EXPECT_FALSE(l.lines[1].label);
    EXPECT_EQ(listed_text(l.lines[1], l), "jne    -> L2");
    EXPECT_EQ(listed_text(l.lines[2], l), "jmp    -> L1");
    EXPECT_EQ(listed_text(l.lines[3], l), "jmp    2000 <compute>");
}

TEST(FunctionCode, EachInstructionTakesItsSourceOrigin)
{
    const auto doc = document_of(with_instructions());
    AsmListing l = function_listing(doc->profile(), FnId(kHelper), disassembly(), 0, "app.json");
    const std::vector<SourceFrame> inlined{{"/usr/include/c++/12/bits/stl_vector.h", 1278, "erase"},
                                           {"/src/app.c", 41, "helper"}};
    add_origins(l, SourceOrigins{{0x1004, inlined}, {0x1008, {{"/src/app.c", 42, "helper"}}}});
    EXPECT_TRUE(l.lines[0].origin.empty());
    EXPECT_EQ(l.lines[1].origin, inlined);
    EXPECT_EQ(l.lines[2].origin.front().line, 42u);
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

// compute's code: at app.c:31 a move then the call of helper (100 and 300
// Ir), at app.c:32 its own work (600 Ir).
const char* const kComputeCode = "0000000000002000 <compute>:\n"
                                 "    2000:\tmov    %edi,%ebx\n"
                                 "    2002:\tcall   1000 <helper>\n"
                                 "    2007:\tadd    $0x1,%eax\n"
                                 "    200a:\tret\n"
                                 "0000000000002010 <next>:\n"
                                 "    2010:\tret\n";

TEST(FunctionCode, ACallInstructionCarriesTheInclusiveCostOfItsCalls)
{
    // compute also calls main once from app.c:31, as the first call
    // through a PLT entry calls the dynamic linker's resolver.
    const auto doc = document_of(
        app_profile()
            .set("calls", "[[0,1,1,11,1,500],[0,2,1,12,1,1500],[1,3,1,21,2,200],[2,3,1,31,5,500],[2,0,1,31,1,7]]")
            .set("instrs", "[[8192,2,1,31,100],[8194,2,1,31,300],[8199,2,1,32,600]]"));
    const AsmListing l = function_listing(doc->profile(), FnId(kCompute), fixed_object(kComputeCode), 0, "app.json");
    ASSERT_TRUE(l.problem.empty()) << l.problem;
    ASSERT_EQ(l.lines.size(), 4u);
    // compute's 5 calls of helper from app.c:31, 500 Ir with everything
    // helper ran: under the call, not under the move of the same line;
    // the call of main, the line's only call, under it too.
    ASSERT_EQ(l.lines[1].calls.size(), 2u);
    EXPECT_EQ(l.lines[1].calls[1].callee, FnId(kMain));
    EXPECT_EQ(l.lines[1].calls[1].inclusive[0], 7u);
    EXPECT_EQ(l.lines[1].calls[0].callee, FnId(kHelper));
    EXPECT_EQ(l.lines[1].calls[0].count, 5u);
    EXPECT_EQ(l.lines[1].calls[0].inclusive[0], 500u);
    EXPECT_EQ(l.lines[1].cost[0], 300u);  // the call's own cost stays its own
    for (size_t i : {0u, 2u, 3u})
        EXPECT_TRUE(l.lines[i].calls.empty()) << "line " << i;
    EXPECT_TRUE(l.notes.empty());
}

// parse's code: at app.c:21 a call of helper and an indirect call, at
// app.c:22 a call of helper that never ran.
const char* const kParseCode = "0000000000003000 <parse>:\n"
                               "    3000:\tcall   1000 <helper>\n"
                               "    3005:\tcall   *%rax\n"
                               "    3007:\tcall   1000 <helper>\n"
                               "    300c:\tret\n";

TEST(FunctionCode, CallsOfOneLineGoToTheInstructionNamingTheCalleeOrTheOneLeft)
{
    // parse also calls compute once from app.c:21, through the register.
    const auto doc = document_of(
        app_profile()
            .set("calls", "[[0,1,1,11,1,500],[0,2,1,12,1,1500],[1,2,1,21,1,50],[1,3,1,21,2,200],[2,3,1,31,5,500]]")
            .set("instrs", "[[12288,1,1,21,10],[12293,1,1,21,10],[12300,1,1,23,10]]"));
    const AsmListing l = function_listing(doc->profile(), FnId(kParse), fixed_object(kParseCode), 0, "app.json");
    ASSERT_TRUE(l.problem.empty()) << l.problem;
    ASSERT_EQ(l.lines.size(), 4u);
    ASSERT_EQ(l.lines[0].calls.size(), 1u);
    EXPECT_EQ(l.lines[0].calls[0].callee, FnId(kHelper));
    EXPECT_EQ(l.lines[0].calls[0].inclusive[0], 200u);
    ASSERT_EQ(l.lines[1].calls.size(), 1u);
    EXPECT_EQ(l.lines[1].calls[0].callee, FnId(kCompute));
    EXPECT_EQ(l.lines[1].calls[0].count, 1u);
    EXPECT_TRUE(l.lines[2].calls.empty());  // not run
    EXPECT_TRUE(l.notes.empty());
}

TEST(FunctionCode, CallsThatFitNoSingleInstructionAreSaid)
{
    // Both calls of helper ran at app.c:21: which made which is unknown.
    const auto doc = document_of(app_profile().set("instrs", "[[12288,1,1,21,10],[12295,1,1,21,10]]"));
    const AsmListing l = function_listing(doc->profile(), FnId(kParse), fixed_object(kParseCode), 0, "app.json");
    ASSERT_TRUE(l.problem.empty()) << l.problem;
    for (const AsmLine& line : l.lines)
        EXPECT_TRUE(line.calls.empty()) << std::hex << line.addr;
    ASSERT_EQ(l.notes.size(), 1u);
    EXPECT_NE(l.notes[0].find("2 calls not shown"), std::string::npos) << l.notes[0];
}

// parse without lines: two calls into unnamed code.
const char* const kStrippedParseCode = "0000000000003000 <parse>:\n"
                                       "    3000:\tcall   5010 <other+0x10>\n"
                                       "    3005:\tcall   5020 <other+0x20>\n"
                                       "000000000000300a <next>:\n"
                                       "    300a:\tret\n";

TEST(FunctionCode, WithoutLinesTheCallThatRanAsOftenAsTheCallsMadeThem)
{
    // Stripped code: parse's two calls into unnamed code, run 3 and 2
    // times (1 Ir each time), no source line; the profile's one row of
    // parse's calls to compute there, 2 calls.
    const auto doc = document_of(
        app_profile()
            .set("calls", "[[0,1,1,11,1,500],[0,2,1,12,1,1500],[1,2,0,0,2,50],[2,3,1,31,5,500]]")
            .set("instrs", "[[12288,1,0,0,3],[12293,1,0,0,2]]"));
    const AsmListing l =
        function_listing(doc->profile(), FnId(kParse), fixed_object(kStrippedParseCode), 0, "app.json");
    ASSERT_TRUE(l.problem.empty()) << l.problem;
    ASSERT_EQ(l.lines.size(), 2u);
    EXPECT_TRUE(l.lines[0].calls.empty());
    ASSERT_EQ(l.lines[1].calls.size(), 1u);
    EXPECT_EQ(l.lines[1].calls[0].callee, FnId(kCompute));
    EXPECT_EQ(l.lines[1].calls[0].inclusive[0], 50u);
    EXPECT_TRUE(l.notes.empty());
}

TEST(FunctionCode, CallsNamingTheirInstructionGoUnderIt)
{
    // As above, but each of parse's two calls into unnamed code ran twice,
    // so only the addresses a version 8 profile records say which made
    // which call; and one more call from an instruction of parse that is
    // not in its listing.
    const auto doc = document_of(app_profile()
                                     .set("vgprof", "8")
                                     .set("calls", "[[0,1,1,11,1,1,500],[0,2,1,12,2,1,1500]"
                                                   ",[1,2,0,0,12288,2,30],[1,2,0,0,12293,2,20]"
                                                   ",[1,2,0,0,16384,1,5],[2,3,1,31,3,5,500]]")
                                     .set("instrs", "[[12288,1,0,0,2],[12293,1,0,0,2]]"));
    const AsmListing l =
        function_listing(doc->profile(), FnId(kParse), fixed_object(kStrippedParseCode), 0, "app.json");
    ASSERT_TRUE(l.problem.empty()) << l.problem;
    ASSERT_EQ(l.lines.size(), 2u);
    ASSERT_EQ(l.lines[0].calls.size(), 1u);
    EXPECT_EQ(l.lines[0].calls[0].callee, FnId(kCompute));
    EXPECT_EQ(l.lines[0].calls[0].count, 2u);
    EXPECT_EQ(l.lines[0].calls[0].inclusive[0], 30u);
    ASSERT_EQ(l.lines[1].calls.size(), 1u);
    EXPECT_EQ(l.lines[1].calls[0].inclusive[0], 20u);
    ASSERT_EQ(l.notes.size(), 1u);
    EXPECT_EQ(l.notes[0], "1 call not shown: made at instructions outside this listing.");
}

TEST(FunctionCode, DiffModeGivesEachInstructionsAndCallsChange)
{
    // The new run: compute's call ran 7 times for 700 Ir (helper's work
    // with them) and its own work at 0x2007 cost 900 instead of 600.
    const char* base_instrs = "[[8192,2,1,31,100],[8194,2,1,31,300],[8199,2,1,32,600]]";
    const auto base = document_of(app_profile().set("instrs", base_instrs), "base.json");
    const auto now = document_of(
        app_profile_slower()
            .set("calls", "[[0,1,1,11,1,500],[0,2,1,12,1,2000],[1,3,1,21,2,200],[2,3,1,31,7,700]]")
            .set("instrs", "[[8192,2,1,31,100],[8194,2,1,31,300],[8199,2,1,32,900]]"),
        "now.json");
    const DiffLink diff(*base, *now);
    const ObjectCode code = fixed_object(kComputeCode);
    AsmListing l = function_listing(now->profile(), FnId(kCompute), code, 0, "now.json");
    subtract_base(l, function_listing(base->profile(), FnId(kCompute), code, 0, "base.json"), diff);
    ASSERT_TRUE(l.diff);
    EXPECT_EQ(l.lines[0].delta[0], 0);
    EXPECT_EQ(l.lines[2].delta[0], 900 - 600);
    EXPECT_EQ(l.lines[3].delta[0], 0);  // never ran in either
    ASSERT_EQ(l.lines[1].calls.size(), 1u);
    EXPECT_EQ(l.lines[1].calls[0].delta[0], 700 - 500);
    EXPECT_TRUE(l.notes.empty());

    // A base recorded without instruction costs has no change to give.
    AsmListing alone = function_listing(now->profile(), FnId(kCompute), code, 0, "now.json");
    subtract_base(alone, function_listing(document_of(app_profile())->profile(), FnId(kCompute), code, 0, "b.json"),
                  diff);
    EXPECT_FALSE(alone.diff);
    ASSERT_EQ(alone.notes.size(), 1u);
    EXPECT_NE(alone.notes[0].find("--dump-instr=yes"), std::string::npos);
}

TEST(SourceAllocations, DiffModeGivesTheChangeOfEachLinesBytes)
{
    // helper's allocation at app.c:41 made both sites' blocks: 4000 + 500
    // bytes in the base; 4000 + 800 when the second site allocates more.
    const ProfileText base_text = app_profile_with_heap();
    std::string now_text = base_text.str();
    for (const auto& [from, to] : {std::pair{"[[0,2],500,", "[[0,2],800,"}, {"{\"bytes\":4500,", "{\"bytes\":4800,"}}) {
        ASSERT_NE(now_text.find(from), std::string::npos) << from;
        now_text.replace(now_text.find(from), std::strlen(from), to);
    }
    const auto base = document_of(base_text, "base.json");
    const auto now = document_of(now_text.c_str(), "now.json");
    EXPECT_EQ(now->allocated_in_file(FileId(1)).at(41), 4800u);
    const DiffLink diff(*base, *now);
    const std::vector<uint64_t> before = diff.base_allocated_in_file(FileId(1));
    ASSERT_EQ(before.size(), 42u);
    EXPECT_EQ(before[41], 4500u);
    // Inclusively: the first site's stack passes through app.c:31 too.
    EXPECT_EQ(before[31], 4000u);
    EXPECT_EQ(before[30], 0u);
    // No heap data in the base: nothing before.
    const auto no_heap = document_of(app_profile(), "plain.json");
    EXPECT_TRUE(DiffLink(*no_heap, *now).base_allocated_in_file(FileId(1)).empty());
}

} // namespace
} // namespace vgprof::viewer
