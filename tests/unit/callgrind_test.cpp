// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of reading callgrind and cachegrind files into the model:
// what each line of the format becomes, worked out by hand from the
// fixtures below, and the message for each way such a file can be wrong.
#include "error_of.hpp"

#include "vgprof/error.hpp"
#include "vgprof/function_match.hpp"
#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

namespace vgprof {
namespace {

// What callgrind --dump-instr=yes writes, shortened to one run of each
// feature: name compression, an inlined line (fi=/fe=), a jump, a call into
// another object (cob=, cfi=), a recursion level (work'2) and subposition
// compression. Worked out by hand:
//
//   main (/src/app.c, /usr/bin/app)  self Ir 5+3+2+10+5 = 25, Dr 1+0+1+0+1 = 3
//     lines  app.c:10  5+3 = 8 / 1     app.c:11  2 / 1
//            inline.h:5  10 / 0        app.c:12  5 / 1
//     calls  work once from app.c:11, inclusive 830 / 83
//   work (/src/app.c)                self 30 + work'2's 700 = 730 / 3+70 = 73
//     calls  work'2 (itself) twice from app.c:20, 800 / 80
//            memset 5 times from app.c:20 (made by work'2), 100 / 10
//   memset (???, /lib/libc.so)       self 100 / 10
//   totals 855 / 86
//
// Inclusive costs, as callgrind_annotate --inclusive=yes gives them for the
// outermost level: main is called by nothing, 25 + 830 = 855 / 3 + 83 = 86;
// work is entered once from main, 830 / 83 (not 830 + 800: the recursive
// calls are inside it); memset 100 / 10.
const char* const kCallgrindFile = R"(# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 42
cmd:  ./app -n 3
part: 1

desc: I1 cache: 32768 B, 64 B, 8-way associative
desc: D1 cache: 32768 B, 64 B, 8-way associative
desc: LL cache: 8388608 B, 64 B, 16-way associative

positions: instr line
events: Ir Dr
summary: 855 86

ob=(1) /usr/bin/app
fl=(1) /src/app.c
fn=(1) main
0x401000 10 5 1
+4 * 3
+2 +1 2 1
cfn=(2) work
calls=1 0x401100 20
* * 830 83
fi=(2) /src/inline.h
+3 5 10
fe=(1)
+2 12 5 1
jump=2 +4 13
* 13
fn=(2)
0x401100 20 30 3
cfn=(3) work'2
calls=2 +8 20
* * 800 80
fn=(3)
+8 20 700 70
cob=(2) /lib/libc.so
cfi=(3) ???
cfn=(4) memset
calls=5 0x7000 0
* * 100 10
ob=(2)
fl=(3)
fn=(4)
0x7000 0 100 10

totals: 855 86
)";

// What cachegrind writes: fl= and fn= then "line costs" lines; a line may
// leave out trailing zero counts. work appears under two files (its own
// and a header whose code was inlined into it): cachegrind, and
// cg_annotate, keep them apart as (file, function) pairs.
//
//   main (/src/app.c)  Ir 5+3 = 8, I1mr 1, ILmr 1, Dr 1
//   work (/src/app.c)  Ir 30, Dr 3, D1mr 1, DLmr 1, Dw 2
//   work (/src/util.h) Ir 10
const char* const kCachegrindFile = R"(desc: I1 cache:         32768 B, 64 B, 8-way associative
desc: D1 cache:         32768 B, 64 B, 8-way associative
desc: LL cache:         8388608 B, 64 B, 16-way associative
cmd: ./app
events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw 
fl=/src/app.c
fn=main
10 5 1 1 1 0 0 0 0 0
11 3
fn=work
20 30 0 0 3 1 1 2 0 0
fl=/src/util.h
fn=work
5 10
summary: 48 1 1 4 1 1 2 0 0
)";

Profile load(const std::string& text) { return parse_profile(text, "p.out"); }

std::string load_error(const std::string& text)
{
    return test::error_of([&] { load(text); });
}

// "name | file | object" of every function, for comparing tables at once.
std::vector<std::string> functions(const Profile& p)
{
    std::vector<std::string> out;
    for (size_t f = 0; f < p.functions().size(); ++f) {
        const Function& fn = p.functions()[f];
        out.push_back(p.str(fn.name) + " | " + p.file_path(fn.file) + " | " + p.obj_path(fn.obj));
    }
    return out;
}

FnId fn_named(const Profile& p, const std::string& name, const std::string& file = "")
{
    for (size_t f = 0; f < p.functions().size(); ++f)
        if (p.fn_name(FnId(uint32_t(f))) == name &&
            (file.empty() || p.file_path(p.functions()[f].file) == file))
            return FnId(uint32_t(f));
    ADD_FAILURE() << "no function " << name << " " << file;
    return FnId(0);
}

std::vector<uint64_t> self_of(const Profile& p, FnId fn)
{
    return function_self_costs(p)[fn.index()].self;
}

using Costs = std::vector<uint64_t>;

// --- callgrind ---------------------------------------------------------------

TEST(LoadCallgrind, HeaderGivesToolCommandEventsAndTotals)
{
    const Profile p = load(kCallgrindFile);
    const Meta& m = p.meta();
    EXPECT_EQ(m.tool, "callgrind");
    EXPECT_EQ(m.tool_version, "3.19.0");
    EXPECT_EQ(m.valgrind, "3.19.0");
    EXPECT_EQ(m.argv, (std::vector<std::string>{"./app", "-n", "3"}));
    EXPECT_EQ(m.pid, 42);
    EXPECT_EQ(m.events, (std::vector<std::string>{"Ir", "Dr"}));
    EXPECT_EQ(m.totals, (Costs{855, 86}));
    EXPECT_FALSE(m.exit_code);
    // The caches are described but their events were not collected.
    EXPECT_FALSE(m.cache);
}

TEST(LoadCallgrind, RecursionLevelsAreFoldedIntoTheirFunction)
{
    const Profile p = load(kCallgrindFile);
    EXPECT_EQ(functions(p), (std::vector<std::string>{
                                "memset | ??? | /lib/libc.so",
                                "main | /src/app.c | /usr/bin/app",
                                "work | /src/app.c | /usr/bin/app",
                            }));
    EXPECT_EQ(self_of(p, fn_named(p, "main")), (Costs{25, 3}));
    EXPECT_EQ(self_of(p, fn_named(p, "work")), (Costs{730, 73}));
    EXPECT_EQ(self_of(p, fn_named(p, "memset")), (Costs{100, 10}));
}

TEST(LoadCallgrind, CostLinesBecomeLinesWithInlinedCodeInItsOwnFile)
{
    const Profile p = load(kCallgrindFile);
    const FnId main = fn_named(p, "main");
    std::vector<std::tuple<std::string, uint32_t, uint64_t, uint64_t>> rows;
    for (size_t r = 0; r < p.lines().size(); ++r)
        if (p.lines()[r].fn == main)
            rows.emplace_back(p.file_path(p.lines()[r].file), p.lines()[r].line,
                              p.line_cost(r)[0], p.line_cost(r)[1]);
    std::sort(rows.begin(), rows.end());
    EXPECT_EQ(rows, (decltype(rows){{"/src/app.c", 10, 8, 1},
                                    {"/src/app.c", 11, 2, 1},
                                    {"/src/app.c", 12, 5, 1},
                                    {"/src/inline.h", 5, 10, 0}}));
}

TEST(LoadCallgrind, InstructionPositionsBecomeInstrsRowsSortedByAddress)
{
    const Profile p = load(kCallgrindFile);
    std::vector<std::tuple<uint64_t, uint32_t, uint64_t>> rows;
    for (size_t r = 0; r < p.instrs().size(); ++r)
        rows.emplace_back(p.instrs()[r].addr, p.instrs()[r].line, p.instr_cost(r)[0]);
    EXPECT_EQ(rows, (decltype(rows){{0x7000, 0, 100},
                                    {0x401000, 10, 5},
                                    {0x401004, 10, 3},
                                    {0x401006, 11, 2},
                                    {0x401009, 5, 10},
                                    {0x40100b, 12, 5},
                                    {0x401100, 20, 30},
                                    {0x401108, 20, 700}}));
}

TEST(LoadCallgrind, CallsBecomeEdgesWithCountsSitesAndInclusiveCosts)
{
    const Profile p = load(kCallgrindFile);
    ASSERT_TRUE(p.has_call_graph());
    EXPECT_TRUE(p.paths().empty());
    const FnId main = fn_named(p, "main"), work = fn_named(p, "work"),
               memset = fn_named(p, "memset");
    std::vector<std::tuple<FnId, FnId, std::string, uint32_t, uint64_t, uint64_t, uint64_t>> rows;
    for (size_t r = 0; r < p.calls().size(); ++r) {
        const CallEdge& c = p.calls()[r];
        rows.emplace_back(c.caller, c.callee, p.file_path(c.file), c.line, c.count,
                          p.call_cost(r)[0], p.call_cost(r)[1]);
    }
    std::sort(rows.begin(), rows.end());
    decltype(rows) expected = {{main, work, "/src/app.c", 11, 1, 830, 83},
                               {work, memset, "/src/app.c", 20, 5, 100, 10},
                               {work, work, "/src/app.c", 20, 2, 800, 80}};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(rows, expected);
}

TEST(LoadCallgrind, InclusiveCostIsCallgrindAnnotatesForTheOutermostLevel)
{
    const Profile p = load(kCallgrindFile);
    EXPECT_EQ(inclusive_cost(p, fn_named(p, "main")), (Costs{855, 86}));
    EXPECT_EQ(inclusive_cost(p, fn_named(p, "work")), (Costs{830, 83}));
    EXPECT_EQ(inclusive_cost(p, fn_named(p, "memset")), (Costs{100, 10}));
}

TEST(LoadCallgrind, PartsAddUpAndLaterPartsMayNameMoreEvents)
{
    // Part 1 counts Ir only; part 2 adds Dr and a function.
    const Profile p = load("version: 1\ncreator: callgrind-3.19.0\ncmd: ./app\n"
                           "part: 1\nevents: Ir\nfl=(1) a.c\nfn=(1) main\n1 10\ntotals: 10\n"
                           "part: 2\nevents: Dr Ir\nfl=(1)\nfn=(1)\n1 2 5\nfn=(2) f\n2 1 1\n"
                           "totals: 3 6\n");
    EXPECT_EQ(p.meta().events, (std::vector<std::string>{"Ir", "Dr"}));
    EXPECT_EQ(p.meta().totals, (Costs{16, 3}));
    EXPECT_EQ(self_of(p, fn_named(p, "main")), (Costs{15, 2}));
    EXPECT_EQ(self_of(p, fn_named(p, "f")), (Costs{1, 1}));
}

TEST(LoadCallgrind, CacheDescriptionsWithTheirEventsGiveTheCacheConfiguration)
{
    const Profile p = load(R"(creator: callgrind-3.19.0
desc: I1 cache: 32768 B, 64 B, 8-way associative
desc: D1 cache: 49152 B, 64 B, 12-way associative
desc: LL cache: 536870912 B, 64 B, 2-way associative
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim
fl=a.c
fn=main
1 9 8 7 6 5 4 3 2 1 4 3 2 1
totals: 9 8 7 6 5 4 3 2 1 4 3 2 1
)");
    ASSERT_TRUE(p.meta().cache);
    const CacheConfig& c = *p.meta().cache;
    ASSERT_TRUE(c.i1 && c.d1 && c.ll);
    EXPECT_EQ(std::make_tuple(c.d1->size, c.d1->assoc, c.d1->line_size),
              std::make_tuple(49152u, 12u, 64u));
    EXPECT_EQ(std::make_tuple(c.ll->size, c.ll->assoc, c.ll->line_size),
              std::make_tuple(536870912u, 2u, 64u));
    EXPECT_TRUE(c.branches);
    EXPECT_EQ(p.event_index("D1mw"), 5u);
}

TEST(LoadCallgrind, RecognisedByContentWhateverTheName)
{
    EXPECT_EQ(parse_profile(kCallgrindFile, "profile.json").meta().tool, "callgrind");
    EXPECT_EQ(parse_profile(std::string("\n# comment\n") + kCachegrindFile, "x").meta().tool,
              "cachegrind");
}

// --- cachegrind --------------------------------------------------------------

TEST(LoadCachegrind, FunctionsAreFileAndNamePairsWithoutACallGraph)
{
    const Profile p = load(kCachegrindFile);
    EXPECT_EQ(p.meta().tool, "cachegrind");
    EXPECT_EQ(p.meta().argv, (std::vector<std::string>{"./app"}));
    EXPECT_FALSE(p.has_call_graph());
    EXPECT_EQ(functions(p), (std::vector<std::string>{"main | /src/app.c | ???",
                                                      "work | /src/app.c | ???",
                                                      "work | /src/util.h | ???"}));
    EXPECT_EQ(self_of(p, fn_named(p, "main")), (Costs{8, 1, 1, 1, 0, 0, 0, 0, 0}));
    EXPECT_EQ(self_of(p, fn_named(p, "work", "/src/app.c")), (Costs{30, 0, 0, 3, 1, 1, 2, 0, 0}));
    EXPECT_EQ(self_of(p, fn_named(p, "work", "/src/util.h")), (Costs{10, 0, 0, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(p.meta().totals, (Costs{48, 1, 1, 4, 1, 1, 2, 0, 0}));
}

TEST(LoadCachegrind, CacheGeometriesComeFromTheDescriptions)
{
    const Profile p = load(kCachegrindFile);
    ASSERT_TRUE(p.meta().cache && p.meta().cache->i1 && p.meta().cache->ll);
    EXPECT_EQ(std::make_tuple(p.meta().cache->i1->size, p.meta().cache->i1->assoc,
                              p.meta().cache->i1->line_size),
              std::make_tuple(32768u, 8u, 64u));
    EXPECT_EQ(p.meta().cache->ll->size, 8388608u);
    EXPECT_FALSE(p.meta().cache->branches);
}

// --- malformed files ----------------------------------------------------------

// The callgrind fixture with one line replaced.
std::string with_line(const std::string& from, const std::string& to)
{
    std::string text = kCallgrindFile;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
}

// One line of the sample file changed, and the message that names it.
struct BadLineCase {
    const char* from;
    const char* to;
    const char* message;
};

class LoadBadCallgrindLine : public ::testing::TestWithParam<BadLineCase> {};

TEST_P(LoadBadCallgrindLine, ProblemsNameTheFileTheLineAndWhatIsWrong)
{
    const BadLineCase& c = GetParam();
    EXPECT_EQ(load_error(with_line(c.from, c.to)), c.message);
}

INSTANTIATE_TEST_SUITE_P(
    LoadCallgrindError, LoadBadCallgrindLine,
    ::testing::Values(
        BadLineCase{"0x401000 10 5 1", "0x401000 10 5 x",
                    R"(p.out: line 19: expected a count, got "x")"},
        BadLineCase{"0x401000 10 5 1", "0x401000 10 5 1 7",
                    "p.out: line 19: cost line has 3 counts but the events: line names 2 events"},
        BadLineCase{"+4 * 3", "-9999999999 * 3", R"(p.out: line 20: bad position "-9999999999")"},
        BadLineCase{"fn=(2)\n", "fn=(9)\n",
                    "p.out: line 31: fn=: name (9) is used before it is defined"},
        BadLineCase{"* * 830 83", "fn=(2)",
                    "p.out: line 24: expected the cost line of the calls= line before"},
        BadLineCase{"cfn=(2) work\n", "",
                    "p.out: line 22: calls= without a cfn= line naming the function called"},
        BadLineCase{"jump=2 +4 13", "ln=13", R"(p.out: line 29: unknown specification "ln=")"},
        BadLineCase{"version: 1", "version: 2",
                    "p.out: line 2: callgrind format version 2 is newer than this vgprof reads "
                    "(version 1)"},
        BadLineCase{
            "positions: instr line", "positions: instr column",
            R"(p.out: line 12: positions: unknown position "column" (expected instr, bb, line))"},
        BadLineCase{"events: Ir Dr", "events: Ir Ir",
                    R"(p.out: line 13: events: "Ir" is listed twice)"},
        BadLineCase{"fl=(1) /src/app.c\n", "fl=(1) /src/app.c\n%%%\n",
                    R"(p.out: line 18: not a line of the callgrind format: "%%%")"}));

TEST(LoadCallgrindError, CostLineBeforeAnyFunctionIsRejected)
{
    EXPECT_EQ(load_error("events: Ir\nfl=a.c\n10 5\nsummary: 5\n"),
              "p.out: line 3: cost line before any fn= line");
}

TEST(LoadCallgrindError, TotalsThatDifferFromTheCostLinesAreRejected)
{
    EXPECT_EQ(load_error(with_line("totals: 855 86", "totals: 855 87")),
              "p.out: totals: line says Dr 87 but the cost lines add up to 86");
}

TEST(LoadCallgrindError, FileCutShortIsIncomplete)
{
    const std::string text = kCallgrindFile;
    EXPECT_EQ(load_error(text.substr(0, text.find("\nfn=(3)") + 1)),
              "p.out: no totals: line: the file is incomplete");
    EXPECT_EQ(load_error(text.substr(0, text.find("* * 830 83"))),
              "p.out: line 24: the file ends after a calls= line, before its cost line");
    const std::string cachegrind = kCachegrindFile;
    EXPECT_EQ(load_error(cachegrind.substr(0, cachegrind.find("summary:"))),
              "p.out: no summary: line: the file is incomplete");
}


// The same run as kCachegrindFile's, as callgrind writes it: with objects,
// and work's lines from util.h under its own name (fi=), not as a function
// of their own.
const char* const kSameRunFromCallgrind = R"(# callgrind format
version: 1
creator: callgrind-3.19.0
cmd: ./app
positions: line
events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
ob=/usr/bin/app
fl=/src/app.c
fn=main
10 5 1 1 1 0 0 0 0 0
11 3
fn=work
20 30 0 0 3 1 1 2 0 0
fi=/src/util.h
5 10

totals: 48 1 1 4 1 1 2 0 0
)";

// Against a cachegrind file, which names no objects and makes a function of
// each (file, name), functions pair by name: nothing added or removed.
TEST(DiffAgainstCachegrind, FunctionsPairByNameAloneAndNothingIsAddedOrRemoved)
{
    const Profile with_objects = load(kSameRunFromCallgrind);
    const Profile cachegrind = load(kCachegrindFile);
    EXPECT_TRUE(names_objects(with_objects));
    EXPECT_FALSE(names_objects(cachegrind));
    for (const auto& [base, now] : {std::pair{&with_objects, &cachegrind},
                                    std::pair{&cachegrind, &with_objects}}) {
        std::vector<std::string> matched;
        for (const FunctionMatch& m : match_functions(*base, *now)) {
            ASSERT_TRUE(m.base && m.now) << change_name(m.change);
            matched.push_back((m.now->name) + " " + change_name(m.change) + " " +
                              std::to_string(m.base->fns.size()) + ":" +
                              std::to_string(m.now->fns.size()));
        }
        const bool cachegrind_new = now == &cachegrind;
        EXPECT_EQ(matched, (std::vector<std::string>{
                               "main same 1:1",
                               cachegrind_new ? "work same 1:2" : "work same 2:1"}));
    }
}

} // namespace
} // namespace vgprof
