// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of `vgprof annotate`: the per-line and per-instruction
// costs and hot regions (vgprof/annotate.hpp), finding sources
// (vgprof/source.hpp), reading objdump and placing run-time addresses in an
// object file (vgprof/disasm.hpp), and write_annotation's listing, on the
// two-event fixture (report_fixture.hpp):
//   function  file        line  Ir    Dr
//   memset    ???            0  1500  3990
//   helper    /src/app.c    21   300     0
//                           22   100     0
//   main      /src/app.c    11    60     6
//                           12    40     4
//   work      /src/app.c     4  5000   600
//                            5  3000   400
//   total                      10000  5000
// so /src/app.c costs 8500 Ir (85%) and 1010 Dr (20.2%), ??? the rest.
#include "report_fixture.hpp"
#include "scratch_dir.hpp"

#include "cli/commands.hpp"
#include "vgprof/annotate.hpp"
#include "vgprof/disasm.hpp"
#include "vgprof/error.hpp"
#include "vgprof/load.hpp"
#include "vgprof/source.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

namespace vgprof {
namespace {

using test::ProfileText;
using test::ScratchDir;

Profile load(const ProfileText& text)
{
    return parse_profile(text.str(), "app.json");
}

const FileLineCosts& costs_of(const std::vector<FileLineCosts>& files, const Profile& p,
                              const std::string& path)
{
    for (const FileLineCosts& f : files)
        if (p.file_path(f.file) == path)
            return f;
    throw std::runtime_error("no file " + path);
}

std::vector<uint64_t> row(const PositionCosts& c, uint64_t position)
{
    const std::optional<size_t> r = c.row_of(position);
    if (!r)
        return {};
    return std::vector<uint64_t>(c.cost(*r), c.cost(*r) + c.num_events);
}

using Costs = std::vector<uint64_t>;

// --- per-line costs ----------------------------------------------------------

TEST(FileLineCosts, GivesEachFileItsLinesWithTheirCostsAndTotal)
{
    const Profile p = load(test::two_event_profile());
    const std::vector<FileLineCosts> files = file_line_costs(p);
    ASSERT_EQ(files.size(), 2u);
    const FileLineCosts& app = costs_of(files, p, "/src/app.c");
    EXPECT_EQ(app.lines.positions, (std::vector<uint64_t>{4, 5, 11, 12, 21, 22}));
    EXPECT_EQ(row(app.lines, 4), (Costs{5000, 600}));
    EXPECT_EQ(row(app.lines, 22), (Costs{100, 0}));
    EXPECT_EQ(row(app.lines, 6), Costs{});
    EXPECT_EQ(app.lines.total, (Costs{8500, 1010}));
    const FileLineCosts& unknown = costs_of(files, p, "???");
    EXPECT_EQ(unknown.lines.positions, (std::vector<uint64_t>{0}));
    EXPECT_EQ(unknown.lines.total, (Costs{1500, 3990}));
}

TEST(FileLineCosts, AddsTheFunctionsThatShareALine)
{
    // work's line 5 is on line 12 instead, beside main's: 40+3000 Ir, 4+400 Dr.
    ProfileText text = test::two_event_profile();
    text.set("lines", "[[0,1,0,1500,3990]"
                      ",[1,0,21,300,0],[1,0,22,100,0]"
                      ",[2,0,11,60,6],[2,0,12,40,4]"
                      ",[3,0,4,5000,600],[3,0,12,3000,400]]");
    const Profile p = load(text);
    const std::vector<FileLineCosts> files = file_line_costs(p);
    const FileLineCosts& app = costs_of(files, p, "/src/app.c");
    EXPECT_EQ(row(app.lines, 12), (Costs{3040, 404}));
    EXPECT_EQ(app.lines.positions.size(), 5u);
}

TEST(FileLineCosts, SortsByTheChosenEventsTotal)
{
    const Profile p = load(test::two_event_profile());
    std::vector<FileLineCosts> files = file_line_costs(p);
    sort_by_cost(files, p, 0);  // Ir: app.c 8500 before ??? 1500
    EXPECT_EQ(p.file_path(files[0].file), "/src/app.c");
    sort_by_cost(files, p, 1);  // Dr: ??? 3990 before app.c 1010
    EXPECT_EQ(p.file_path(files[0].file), "???");
}

TEST(FunctionCostsInFile, SumsEachFunctionsLinesInThatFileOnly)
{
    const Profile p = load(test::two_event_profile());
    const std::vector<FunctionCost> app = function_costs_in_file(p, FileId(0));
    ASSERT_EQ(app.size(), 3u);  // helper, main, work; memset has no line there
    EXPECT_EQ(p.fn_name(app[0].fn), "helper");
    EXPECT_EQ(app[0].self, (Costs{400, 0}));
    EXPECT_EQ(p.fn_name(app[1].fn), "main");
    EXPECT_EQ(app[1].self, (Costs{100, 10}));
    EXPECT_EQ(p.fn_name(app[2].fn), "work");
    EXPECT_EQ(app[2].self, (Costs{8000, 1000}));
}

// --- per-instruction costs -----------------------------------------------------

// The fixture with per-instruction costs that add up to its lines, app
// loaded 0x108000 above its own addresses (see kAppDisassembly):
//   main   0x109100 60/6  0x109104 40/4
//   helper 0x109120 300/0 0x109124 100/0
//   work   0x109140 2500/300 0x109144 2500/300 0x109148 3000/400
//   memset 0x4a00010 1500/3990 (libc)
ProfileText instr_profile()
{
    ProfileText p = test::two_event_profile();
    p.set("instrs", "[[1085696,2,0,11,60,6],[1085700,2,0,12,40,4]"
                    ",[1085728,1,0,21,300,0],[1085732,1,0,22,100,0]"
                    ",[1085760,3,0,4,2500,300],[1085764,3,0,4,2500,300],[1085768,3,0,5,3000,400]"
                    ",[77594640,0,1,0,1500,3990]]");
    return p;
}

TEST(FunctionInstrCosts, GivesEachFunctionsInstructionsInTheOrderAsked)
{
    const Profile p = load(instr_profile());
    const std::vector<PositionCosts> c = function_instr_costs(p, {FnId(3), FnId(1)});
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].positions, (std::vector<uint64_t>{0x109140, 0x109144, 0x109148}));
    EXPECT_EQ(row(c[0], 0x109148), (Costs{3000, 400}));
    EXPECT_EQ(c[0].total, (Costs{8000, 1000}));
    EXPECT_EQ(c[1].positions, (std::vector<uint64_t>{0x109120, 0x109124}));
    EXPECT_EQ(c[1].total, (Costs{400, 0}));
}

TEST(FunctionInstrCosts, IsEmptyForAProfileWithoutInstructions)
{
    ProfileText text = test::two_event_profile();  // no instrs table
    const Profile p = load(text);
    const std::vector<PositionCosts> c = function_instr_costs(p, {FnId(3)});
    ASSERT_EQ(c.size(), 1u);
    EXPECT_TRUE(c[0].positions.empty());
    EXPECT_EQ(c[0].total, (Costs{0, 0}));
}

// --- hot regions -------------------------------------------------------------

std::vector<std::pair<size_t, size_t>> regions(const std::vector<size_t>& hot, size_t count,
                                               size_t context)
{
    std::vector<std::pair<size_t, size_t>> out;
    for (const Region& r : hot_regions(hot, count, context))
        out.emplace_back(r.first, r.last);
    return out;
}

TEST(HotRegions, TakesContextOnEitherSideOfEachHotPosition)
{
    EXPECT_EQ(regions({10}, 30, 2), (std::vector<std::pair<size_t, size_t>>{{8, 12}}));
    EXPECT_EQ(regions({3, 20}, 30, 2),
              (std::vector<std::pair<size_t, size_t>>{{1, 5}, {18, 22}}));
}

TEST(HotRegions, MergesStretchesThatOverlapOrTouch)
{
    EXPECT_EQ(regions({3, 6}, 30, 2), (std::vector<std::pair<size_t, size_t>>{{1, 8}}));
    // 3 reaches 5, 8 starts at 6: touching, one stretch.
    EXPECT_EQ(regions({3, 8}, 30, 2), (std::vector<std::pair<size_t, size_t>>{{1, 10}}));
    // 3 reaches 5, 9 starts at 7: line 6 between them.
    EXPECT_EQ(regions({3, 9}, 30, 2),
              (std::vector<std::pair<size_t, size_t>>{{1, 5}, {7, 11}}));
}

TEST(HotRegions, StopsAtTheEndsOfTheListing)
{
    EXPECT_EQ(regions({0, 29}, 30, 8), (std::vector<std::pair<size_t, size_t>>{{0, 8}, {21, 29}}));
    EXPECT_EQ(regions({1}, 3, 1000), (std::vector<std::pair<size_t, size_t>>{{0, 2}}));
    EXPECT_EQ(regions({4}, 10, 0), (std::vector<std::pair<size_t, size_t>>{{4, 4}}));
    EXPECT_TRUE(regions({}, 10, 8).empty());
}

// --- finding sources -----------------------------------------------------------

TEST(Substitution, ParsesFromAndTo)
{
    const Substitution s = parse_substitution("/build/src=/home/me/src", "--subst");
    EXPECT_EQ(s.from, "/build/src");
    EXPECT_EQ(s.to, "/home/me/src");
    EXPECT_EQ(parse_substitution("/a=", "--subst").to, "");
}

TEST(Substitution, RefusesATextWithoutFromOrEquals)
{
    const auto error = [](const char* text) {
        try {
            parse_substitution(text, "--subst");
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    EXPECT_EQ(error("/a/b"),
              "--subst: \"/a/b\": no '=' (expected FROM=TO, e.g. /build/src=/home/me/src)");
    EXPECT_EQ(error("=/x"), "--subst: \"=/x\": nothing to replace before '=' (expected FROM=TO, "
                            "e.g. /build/src=/home/me/src)");
}

TEST(Substitution, RewritesWholeLeadingComponentsWithTheFirstThatApplies)
{
    const std::vector<Substitution> subst = {{"/src", "/new"}, {"/", "/other/"}};
    EXPECT_EQ(apply_substitutions("/src/app.c", subst), "/new/app.c");
    // "/src" is not a leading component of "/srcdir": the next one applies.
    EXPECT_EQ(apply_substitutions("/srcdir/a.c", subst), "/other/srcdir/a.c");
    EXPECT_EQ(apply_substitutions("rel/a.c", subst), "rel/a.c");
}

TEST(FindSource, LooksForARelativePathInEachDirectoryInOrder)
{
    ScratchDir dir;
    dir.write("second/lib/x.c", "x\n");
    dir.write("third/lib/x.c", "x\n");
    SourceSearch search;
    search.dirs = {dir / "first", dir / "second", dir / "third"};
    const SourceLookup found = find_source("lib/x.c", search);
    EXPECT_EQ(found.found, dir / "second/lib/x.c");
    EXPECT_EQ(found.tried, (std::vector<std::string>{dir / "first/lib/x.c", dir / "second/lib/x.c"}));
}

TEST(FindSource, SaysWhereItLookedWhenNothingIsFound)
{
    ScratchDir dir;
    SourceSearch search;
    search.dirs = {dir.path()};
    const SourceLookup missing = find_source("nope/a.c", search);
    EXPECT_TRUE(missing.found.empty());
    EXPECT_EQ(missing.tried, (std::vector<std::string>{dir / "nope/a.c", "nope/a.c"}));
    // An absolute path is looked for where it says, after substitution only.
    search.substitutions = {{"/src", dir / "src"}};
    const SourceLookup absolute = find_source("/src/a.c", search);
    EXPECT_TRUE(absolute.found.empty());
    EXPECT_EQ(absolute.tried, (std::vector<std::string>{dir / "src/a.c"}));
}

TEST(FindSource, TakesOnlyRegularFiles)
{
    ScratchDir dir;
    dir.write("src/a.c/inner", "");  // src/a.c is a directory
    SourceSearch search;
    search.dirs = {dir.path()};
    EXPECT_TRUE(find_source("src/a.c", search).found.empty());
}

// rustc records its standard library as /rustc/<commit>/library/...: read
// from the installed library sources, the first that has the file.
TEST(FindSource, RustLibraryPathsAreReadFromTheInstalledSources)
{
    ScratchDir dir;
    dir.write("new/library/core/src/iter/mod.rs", "x\n");
    SourceSearch search;
    search.rust_library_dirs = {dir / "old/library", dir / "new/library"};
    const std::string recorded =
        "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/iter/mod.rs";
    const SourceLookup found = find_source(recorded, search);
    EXPECT_EQ(found.found, dir / "new/library/core/src/iter/mod.rs");
    EXPECT_EQ(found.tried, (std::vector<std::string>{recorded,
                                                     dir / "old/library/core/src/iter/mod.rs",
                                                     dir / "new/library/core/src/iter/mod.rs"}));
}

TEST(FindSource, RustSrcPathIsTheFirstInstalledLibrary)
{
    ScratchDir dir;
    dir.write("library/core/src/lib.rs", "x\n");
    const char* saved = std::getenv("RUST_SRC_PATH");
    const std::string kept = saved ? saved : "";
    ::setenv("RUST_SRC_PATH", (dir / "library").c_str(), 1);
    const std::vector<std::string> dirs = installed_rust_library_dirs();
    if (saved) ::setenv("RUST_SRC_PATH", kept.c_str(), 1); else ::unsetenv("RUST_SRC_PATH");
    ASSERT_FALSE(dirs.empty());
    EXPECT_EQ(dirs.front(), dir / "library");
}

TEST(ReadLines, DropsLineEndsOfBothKinds)
{
    ScratchDir dir;
    const std::string path = dir.write("a.c", "one\r\ntwo\n\nfour");
    EXPECT_EQ(read_lines(path), (std::vector<std::string>{"one", "two", "", "four"}));
    EXPECT_THROW(read_lines(dir / "missing.c"), Error);
}

TEST(ModifiedAfter, ComparesModificationTimes)
{
    ScratchDir dir;
    const std::string older = dir.write("older", ""), newer = dir.write("newer", "");
    test::set_mtime(older, 1000000000);
    test::set_mtime(newer, 1000000001);
    EXPECT_TRUE(modified_after(newer, older));
    EXPECT_FALSE(modified_after(older, newer));
    EXPECT_FALSE(modified_after(older, older));
    EXPECT_FALSE(modified_after(dir / "missing", older));
}

// --- objdump's output and load offsets -------------------------------------------

// What objdump -d --no-show-raw-insn prints, by hand: main, helper and work
// of app at their own addresses; a PLT entry and a second section.
const char* const kAppDisassembly =
    "\n"
    "/usr/bin/app:     file format elf64-x86-64\n"
    "\n"
    "\n"
    "Disassembly of section .plt:\n"
    "\n"
    "0000000000001030 <work@plt>:\n"
    "    1030:\tjmp    *0x2fe2(%rip)        # 4018 <work@plt+0x2fe8>\n"
    "\n"
    "Disassembly of section .text:\n"
    "\n"
    "0000000000001100 <main>:\n"
    "    1100:\tpush   %rbp\n"
    "    1104:\tcall   1140 <work>\n"
    "    1108:\tret\n"
    "\t...\n"
    "\n"
    "0000000000001120 <helper>:\n"
    "    1120:\tmov    $0x1,%eax\n"
    "    1124:\tret\n"
    "\n"
    "0000000000001140 <work>:\n"
    "    1140:\tadd    $0x1,%eax\n"
    "    1144:\tadd    $0x2,%eax\n"
    "    1148:\tret\n"
    "    114c:\tnopl   0x0(%rax)\n"
    "\n"
    "0000000000002120 <helper>:\n"
    "    2120:\tret\n";

TEST(ParseObjdump, ReadsLabelsAndInstructions)
{
    const Disassembly d = parse_objdump(kAppDisassembly);
    ASSERT_EQ(d.symbols.size(), 5u);
    EXPECT_EQ(d.symbols[0].addr, 0x1030u);
    EXPECT_EQ(d.symbols[0].name, "work@plt");
    EXPECT_EQ(d.symbols[3].name, "work");
    ASSERT_EQ(d.instructions.size(), 11u);
    EXPECT_EQ(d.instructions[0].addr, 0x1030u);
    EXPECT_EQ(d.instructions[0].text, "jmp    *0x2fe2(%rip)        # 4018 <work@plt+0x2fe8>");
    EXPECT_EQ(d.instructions[2].text, "call   1140 <work>");
    EXPECT_EQ(d.instruction_at(0x1144), std::optional<size_t>(7));
    EXPECT_EQ(d.instruction_at(0x1145), std::nullopt);
    EXPECT_EQ(d.first_at_or_after(0x1109), 4u);  // 0x1120
    EXPECT_EQ(d.symbol_before(0x1146)->name, "work");
    EXPECT_EQ(d.symbol_before(0x1000), nullptr);
    EXPECT_EQ(d.next_symbol_after(0x1140), std::optional<uint64_t>(0x2120));
    EXPECT_EQ(d.next_symbol_after(0x2120), std::nullopt);
}

TEST(ParseObjdump, ReadsCxxNamesWithAngleBrackets)
{
    const Disassembly d = parse_objdump(
        "0000000000001200 <std::vector<int, std::allocator<int> >::size() const>:\n"
        "    1200:\tret\n");
    ASSERT_EQ(d.symbols.size(), 1u);
    EXPECT_EQ(d.symbols[0].name, "std::vector<int, std::allocator<int> >::size() const");
}

// What `objdump -d -l --inlines -C` printed for g++ 12's -O2 code of a
// vector's erase loop: a place's lines come before its first instruction
// and are left out while they do not change, the inlined-by lines alone
// when only they do.
const char* const kOriginsText =
    "00000000000015f0 <work(std::vector<int, std::allocator<int> >&)>:\n"
    "work(std::vector<int, std::allocator<int> >&):\n"
    "/tmp/t.cpp:3\n"
    "    15f0:\tpush   %r13\n"
    "    15f2:\tpush   %r12\n"
    "std::vector<int, std::allocator<int> >::end():\n"
    "/usr/include/c++/12/bits/stl_vector.h:889 (discriminator 1)\n"
    "inlined by /tmp/t.cpp:4 (_Z4workRSt6vectorIiSaIiEE)\n"
    "    15fd:\tmov    0x8(%rdi),%rdx\n"
    "inlined by /tmp/t.cpp:5 (_Z4workRSt6vectorIiSaIiEE)\n"
    "    1601:\tmov    0x8(%rbp),%rdx\n"
    "work(std::vector<int, std::allocator<int> >&):\n"
    "/tmp/t.cpp:4\n"
    "    1604:\tje     16f3 <work(std::vector<int, std::allocator<int> >&)+0x103>\n"
    "    160a:\tnop\n"
    "\n"
    "00000000000016f3 <other>:\n"
    "    16f3:\tret\n";

TEST(ParseObjdumpOrigins, EachInstructionHasItsLineAndTheInlinedCallsItLiesIn)
{
    const SourceOrigins o = parse_objdump_origins(kOriginsText);
    const std::string work = "work(std::vector<int, std::allocator<int> >&)";
    const std::string end = "std::vector<int, std::allocator<int> >::end";
    ASSERT_EQ(o.size(), 6u);  // 16f3 has no line
    EXPECT_EQ(o.at(0x15f0), (std::vector<SourceFrame>{{"/tmp/t.cpp", 3, work}}));
    EXPECT_EQ(o.at(0x15f2), o.at(0x15f0));
    EXPECT_EQ(o.at(0x15fd), (std::vector<SourceFrame>{{"/usr/include/c++/12/bits/stl_vector.h", 889, end},
                                                      {"/tmp/t.cpp", 4, work}}));
    // The same inlined line, inlined from another line of work.
    EXPECT_EQ(o.at(0x1601), (std::vector<SourceFrame>{{"/usr/include/c++/12/bits/stl_vector.h", 889, end},
                                                      {"/tmp/t.cpp", 5, work}}));
    EXPECT_EQ(o.at(0x1604), (std::vector<SourceFrame>{{"/tmp/t.cpp", 4, work}}));
    EXPECT_EQ(o.at(0x160a), o.at(0x1604));
    EXPECT_EQ(o.count(0x16f3), 0u);
}

TEST(JumpTarget, IsTheOperandOfADirectJump)
{
    EXPECT_EQ(jump_target("je     16f3 <work(std::vector<int>&)+0x103>"), std::optional<uint64_t>(0x16f3));
    EXPECT_EQ(jump_target("jmp    161c <work+0x2c>"), std::optional<uint64_t>(0x161c));
    EXPECT_EQ(jump_target("bnd jmp 1030 <f>"), std::optional<uint64_t>(0x1030));
    EXPECT_EQ(jump_target("jmp    *%rax"), std::nullopt);
    EXPECT_EQ(jump_target("notrack jmp *%rax"), std::nullopt);
    EXPECT_EQ(jump_target("call   1140 <work>"), std::nullopt);
    EXPECT_EQ(jump_target("add    $0x1,%eax"), std::nullopt);
}

TEST(SymbolNames, IgnoresVersionsButNotPltEntriesOrDerivedLabels)
{
    const auto names = [](const char* label, const char* function) {
        return Disassembly::Symbol{0, label}.names(function);
    };
    EXPECT_TRUE(names("memcpy@@GLIBC_2.14", "memcpy@@GLIBC_2.14"));
    EXPECT_TRUE(names("_dl_debug_state@@GLIBC_PRIVATE", "_dl_debug_state"));
    EXPECT_TRUE(names("main", "main"));
    EXPECT_FALSE(names("printf@plt", "printf"));
    EXPECT_FALSE(names("main+0x10", "main"));
    EXPECT_FALSE(names("_dl_debug_state@@GLIBC_PRIVATE-0x1000", "_dl_debug_state"));
    EXPECT_FALSE(names("mainly", "main"));
}

TEST(LoadOffset, IsWhereTheFunctionsEntriesMeetTheirSymbols)
{
    const Profile p = load(instr_profile());
    const Disassembly d = parse_objdump(kAppDisassembly);
    // main starts at 0x109100 in the profile and 0x1100 in the file. The
    // second "helper" (0x2120) offers 0x107000, where no instruction lands.
    EXPECT_EQ(load_offset(p, ObjId(1), d, false), std::optional<uint64_t>(0x108000));
    EXPECT_EQ(load_offset(p, ObjId(1), d, true), std::optional<uint64_t>(0));
}

TEST(LoadOffset, IsUnknownWhenNoFunctionMeetsASymbol)
{
    const Profile p = load(instr_profile());
    const Disassembly d = parse_objdump("0000000000001100 <other>:\n    1100:\tret\n");
    EXPECT_EQ(load_offset(p, ObjId(1), d, false), std::nullopt);
    // libc's memset at 0x4a00010 is no page multiple away from "memset" here.
    const Disassembly libc = parse_objdump("0000000000000020 <memset>:\n    20:\tret\n");
    EXPECT_EQ(load_offset(p, ObjId(0), libc, false), std::nullopt);
}

TEST(LinkedAtFixedAddress, ReadsTheElfType)
{
    ScratchDir dir;
    std::string header = "\x7f" "ELF";
    header += std::string("\x02\x01\x01", 3) + std::string(9, '\0');  // 64-bit little-endian
    EXPECT_EQ(linked_at_fixed_address(dir.write("exec", header + std::string("\x02\x00", 2))),
              std::optional<bool>(true));
    EXPECT_EQ(linked_at_fixed_address(dir.write("pie", header + std::string("\x03\x00", 2))),
              std::optional<bool>(false));
    EXPECT_EQ(linked_at_fixed_address(dir.write("text", "#!/bin/sh\necho not ELF\n")),
              std::nullopt);
    EXPECT_EQ(linked_at_fixed_address(dir / "missing"), std::nullopt);
}

// --- write_annotation: the source listing ------------------------------------------

// app.c as it is on disk: 30 lines "code N".
std::string app_source(size_t lines = 30)
{
    std::string text;
    for (size_t i = 1; i <= lines; ++i)
        text += "code " + std::to_string(i) + "\n";
    return text;
}

struct Annotated {
    ScratchDir dir;
    cli::AnnotateOptions options;

    // The profile file is app.json in the directory (its time matters for
    // the "modified after" note); /src is read from dir/src.
    Annotated()
    {
        options.profile = dir.write("app.json", test::two_event_profile().str());
        test::set_mtime(options.profile, 1500000000);
        options.substitutions = {"/src=" + dir / "src"};
        options.events = {"all"};   // the wide layout these tests state
    }

    std::string source(const std::string& text, long mtime = 1400000000)
    {
        const std::string path = dir.write("src/app.c", text);
        test::set_mtime(path, mtime);
        return path;
    }

    std::string run(const ProfileText& text = test::two_event_profile()) const
    {
        std::ostringstream out;
        cli::write_annotation(out, load(text), options);
        return out.str();
    }

    std::string error(const ProfileText& text = test::two_event_profile()) const
    {
        try {
            run(text);
        } catch (const Error& e) {
            return e.what();
        }
        return "(no error)";
    }
};

bool has_line(const std::string& text, const std::string& line)
{
    return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

// Columns: Ir is 6 digits wide ("10,000"), Dr 5 ("5,000"), each followed
// by its share in 8 characters; a dot stands for a zero.
const char* const kDots = "     .              .           ";

TEST(AnnotateSources, ListsCostlyLinesWithTheirContext)
{
    Annotated a;
    a.source(app_source());
    a.options.context = 2;
    const std::string out = a.run();
    // app.c is 85% of Ir: listed. Lines 4-5, 11-12 and 21-22 cost; two
    // lines either side make lines 2-7, 9-14 and 19-24.
    EXPECT_TRUE(has_line(out, "File:             /src/app.c")) << out;
    EXPECT_TRUE(has_line(out, "Read from:        " + a.dir / "src/app.c")) << out;
    EXPECT_TRUE(has_line(out, "-- line 2 " + std::string(70, '-'))) << out;
    EXPECT_TRUE(has_line(out, "-- line 9 " + std::string(70, '-'))) << out;
    EXPECT_TRUE(has_line(out, "-- line 19 " + std::string(69, '-'))) << out;
    EXPECT_EQ(out.find("-- line 1 "), std::string::npos) << out;
    EXPECT_TRUE(has_line(out, std::string(kDots) + "code 2")) << out;
    EXPECT_TRUE(has_line(out, " 5,000  (50.0%)   600  (12.0%)  code 4")) << out;
    EXPECT_TRUE(has_line(out, "   300   (3.0%)     .           code 21")) << out;
    EXPECT_TRUE(has_line(out, std::string(kDots) + "code 24")) << out;
    EXPECT_EQ(out.find("code 8\n"), std::string::npos) << out;
    EXPECT_EQ(out.find("code 25\n"), std::string::npos) << out;
}

// The JSON form lists each chosen file's lines with their costs, without
// reading the source; a profile without heap data has no allocations.
TEST(AnnotateSources, JsonListsEachLinesCostsByEvent)
{
    Annotated a;
    a.options.format = "json";
    const boost::json::value report = boost::json::parse(a.run());
    const boost::json::array& files = report.at("files").as_array();
    ASSERT_EQ(files.size(), 1u);  // ??? has no path to list
    EXPECT_EQ(files[0].at("file").as_string(), "/src/app.c");
    EXPECT_EQ(files[0].at("totals").at("Ir").as_int64(), 8500);
    const boost::json::array& lines = files[0].at("lines").as_array();
    ASSERT_EQ(lines.size(), 6u);
    EXPECT_EQ(lines[0].at("line").as_int64(), 4);
    EXPECT_EQ(lines[0].at("costs").at("Ir").as_int64(), 5000);
    EXPECT_EQ(lines[0].at("costs").at("Dr").as_int64(), 600);
    EXPECT_FALSE(lines[0].as_object().contains("allocated"));
}

TEST(AnnotateSources, JsonIsRefusedWithAsmAndData)
{
    Annotated a;
    a.options.format = "json";
    a.options.disassembly = true;
    EXPECT_EQ(a.error(), "--format json lists source lines: not with --asm");
    a.options.disassembly = false;
    a.options.data = "stack";
    EXPECT_EQ(a.error(), "--format json lists source lines: not with --data");
}

TEST(AnnotateSources, SummarisesTheFileAndItsFunctionsAboveTheThreshold)
{
    Annotated a;
    a.source(app_source());
    a.options.threshold = 2;  // 200 Ir: helper (400) and work, not main (100)
    const std::string out = a.run();
    EXPECT_TRUE(has_line(out, " 8,500  (85.0%) 1,010  (20.2%)  file total")) << out;
    EXPECT_TRUE(has_line(out, " 8,000  (80.0%) 1,000  (20.0%)    work (/src/app.c:3)  [/usr/bin/app]"))
        << out;
    EXPECT_TRUE(has_line(out, "   400   (4.0%)     .             helper (/src/app.c:20)  [/usr/bin/app]"))
        << out;
    EXPECT_EQ(out.find("main (/src/app.c"), std::string::npos) << out;
}

TEST(AnnotateSources, AccountsForEveryCost)
{
    Annotated a;
    a.source(app_source());
    const std::string out = a.run();
    EXPECT_TRUE(has_line(out, " 8,500  (85.0%) 1,010  (20.2%)  on the source lines listed above"))
        << out;
    EXPECT_TRUE(has_line(out, " 1,500  (15.0%) 3,990  (79.8%)  in code without source file "
                              "information (\"???\" in the profile)"))
        << out;
}

TEST(AnnotateSources, AllListsWholeFiles)
{
    Annotated a;
    a.source(app_source());
    a.options.all = true;
    const std::string out = a.run();
    EXPECT_TRUE(has_line(out, "-- line 1 " + std::string(70, '-'))) << out;
    EXPECT_EQ(out.find("-- line", out.find("-- line 1 ") + 1), std::string::npos) << out;
    EXPECT_TRUE(has_line(out, std::string(kDots) + "code 1")) << out;
    EXPECT_TRUE(has_line(out, std::string(kDots) + "code 30")) << out;
}

TEST(AnnotateSources, ThresholdAndFirstEventChooseTheFiles)
{
    Annotated a;
    a.source(app_source());
    a.options.events = {"Dr"};  // app.c has 1010 of 5000 Dr: 20.2%
    a.options.threshold = 30;
    const std::string out = a.run();
    EXPECT_TRUE(has_line(out, "No source file to list.")) << out;
    EXPECT_TRUE(has_line(out, "    .           on the source lines listed above")) << out;
    EXPECT_TRUE(has_line(out, "1,010  (20.2%)  in files below the 30% threshold")) << out;
    EXPECT_TRUE(has_line(out, "3,990  (79.8%)  in code without source file information (\"???\" "
                              "in the profile)"))
        << out;
}

TEST(AnnotateSources, MissingSourceIsANoteAndItsCostsAreAccountedFor)
{
    Annotated a;  // no src/app.c written
    const std::string out = a.run();
    EXPECT_TRUE(has_line(out, "note: source file not found (looked for " + a.dir / "src/app.c" + ")"))
        << out;
    EXPECT_EQ(out.find("-- line"), std::string::npos) << out;
    EXPECT_TRUE(has_line(out, " 8,500  (85.0%) 1,010  (20.2%)  in listed files whose source could "
                              "not be read"))
        << out;
    EXPECT_TRUE(has_line(out, std::string(kDots) + "on the source lines listed above"))
        << out;
}

TEST(AnnotateSources, SourceNewerThanTheProfileIsANote)
{
    Annotated a;
    const std::string path = a.source(app_source(), 1600000000);
    const std::string out = a.run();
    EXPECT_TRUE(has_line(out, "note: " + path + " was modified after the profile was written; the "
                              "costs may belong to other lines than those shown"))
        << out;
    EXPECT_TRUE(has_line(out, " 5,000  (50.0%)   600  (12.0%)  code 4")) << out;

    Annotated older;
    older.source(app_source(), 1400000000);
    EXPECT_EQ(older.run().find("modified after"), std::string::npos);
}

TEST(AnnotateSources, LinesPastTheEndOfTheSourceAreANote)
{
    Annotated a;
    a.source(app_source(10));  // lines 11, 12, 21 and 22 are past its end
    const std::string out = a.run();
    EXPECT_TRUE(has_line(out, "note: the profile has costs on lines up to 22, past the end of the "
                              "file's 10 lines: the file may have changed since the program was "
                              "built; those costs are counted at the end"))
        << out;
    // 60+40+300+100 Ir, 6+4 Dr off the source; lines 4 and 5 on it.
    EXPECT_TRUE(has_line(out, "   500   (5.0%)    10   (0.2%)  in listed files, on no line of the "
                              "source read (line 0: code without line information)"))
        << out;
    EXPECT_TRUE(has_line(out, " 8,000  (80.0%) 1,000  (20.0%)  on the source lines listed above"))
        << out;
}

TEST(AnnotateSources, NamedSourceMatchesTheEndOfAPath)
{
    Annotated a;
    a.source(app_source());
    a.options.sources = {"app.c"};
    a.options.threshold = 99;  // a named file is listed whatever its cost
    const std::string out = a.run();
    EXPECT_TRUE(has_line(out, "Sources named:    app.c")) << out;
    EXPECT_TRUE(has_line(out, " 5,000  (50.0%)   600  (12.0%)  code 4")) << out;
    EXPECT_TRUE(has_line(out, " 1,500  (15.0%) 3,990  (79.8%)  in code without source file "
                              "information (\"???\" in the profile)"))
        << out;
}

TEST(AnnotateSources, NamedSourceIsReadWhereItIsGiven)
{
    Annotated a;
    a.options.substitutions.clear();
    a.options.sources = {a.dir.write("elsewhere/src/app.c", app_source())};
    // The profile says /src/app.c, the end of the path given.
    const std::string out = a.run();
    EXPECT_TRUE(has_line(out, "Read from:        " + a.dir / "elsewhere/src/app.c")) << out;
    EXPECT_TRUE(has_line(out, " 5,000  (50.0%)   600  (12.0%)  code 4")) << out;
}

TEST(AnnotateSources, NamedSourceThatNamesNoFileIsAnError)
{
    Annotated a;
    a.options.sources = {"pp.c"};  // not a whole component of app.c
    EXPECT_EQ(a.error(), a.options.profile + ": \"pp.c\" names no source file of the profile "
                                             "(none is that path, ends with it or is its end)");
}

TEST(AnnotateSources, SourceDirFindsRelativePaths)
{
    // The profile names the file relatively, as Debian's C library does.
    ProfileText text = test::two_event_profile();
    text.set("strs", R"(["/lib/libc.so.6","/usr/bin/app","???","helper","main","memset",)"
                     R"("src/app.c","work"])");
    text.set("objs", "[0,1]");
    text.set("files", "[6,2]");
    text.set("fns", "[[5,1,0,0],[3,0,1,20],[4,0,1,10],[7,0,1,3]]");
    Annotated a;
    a.options.substitutions.clear();
    a.dir.write("tree/src/app.c", app_source());
    a.options.source_dirs = {a.dir / "none", a.dir / "tree"};
    const std::string out = a.run(text);
    EXPECT_TRUE(has_line(out, "Read from:        " + a.dir / "tree/src/app.c")) << out;
    EXPECT_TRUE(has_line(out, " 5,000  (50.0%)   600  (12.0%)  code 4")) << out;
}

TEST(AnnotateSources, CodeWithoutLineNumbersInAListedFileIsAccountedFor)
{
    // helper's 300 Ir at line 21 are at line 0 instead.
    ProfileText text = test::two_event_profile();
    text.set("lines", "[[0,1,0,1500,3990]"
                      ",[1,0,0,300,0],[1,0,22,100,0]"
                      ",[2,0,11,60,6],[2,0,12,40,4]"
                      ",[3,0,4,5000,600],[3,0,5,3000,400]]");
    Annotated a;
    a.source(app_source());
    const std::string out = a.run(text);
    EXPECT_TRUE(has_line(out, "note: some of the file's code has no line information (line 0); "
                              "its costs are counted at the end"))
        << out;
    EXPECT_TRUE(has_line(out, "   300   (3.0%)     .           in listed files, on no line of the "
                              "source read (line 0: code without line information)"))
        << out;
}

TEST(AnnotateSources, BadOptionsAreErrors)
{
    Annotated a;
    a.options.events = {"D1mr"};
    EXPECT_EQ(a.error(), a.options.profile + ": no event \"D1mr\" to show (events recorded: Ir Dr)");
    a.options.events = {};
    a.options.substitutions = {"nothing"};
    EXPECT_EQ(a.error(), "--subst: \"nothing\": no '=' (expected FROM=TO, e.g. "
                         "/build/src=/home/me/src)");
}

TEST(AnnotateDisassembly, NeedsPerInstructionCosts)
{
    Annotated a;
    a.options.disassembly = true;
    EXPECT_EQ(a.error(), a.options.profile + ": --asm needs per-instruction costs, which this "
                                             "profile does not have (recorded without "
                                             "--dump-instr=yes)");
}

TEST(AnnotateDisassembly, ObjectsThatCannotBeFoundAreNotes)
{
    // /usr/bin/app and /lib/libc.so.6 are not this machine's files (or at
    // least not the profile's): each listed function says so.
    Annotated a;
    a.options.disassembly = true;
    ProfileText text = instr_profile();
    text.set("strs", R"(["/nonexistent/libc.so.6","/src/app.c","/nonexistent/app","???",)"
                     R"("helper","main","memset","work"])");
    const std::string out = a.run(text);
    EXPECT_TRUE(has_line(out, "Function:         work (/src/app.c:3)  [/nonexistent/app]")) << out;
    EXPECT_TRUE(has_line(out, "note: object file /nonexistent/app not found")) << out;
    EXPECT_TRUE(has_line(out, "note: object file /nonexistent/libc.so.6 not found")) << out;
    // Functions above 0.1% of Ir: all four; nothing listed.
    EXPECT_TRUE(has_line(out, "10,000 (100.0%) 5,000 (100.0%)  in listed functions whose object "
                              "file could not be disassembled"))
        << out;
}

} // namespace
} // namespace vgprof
