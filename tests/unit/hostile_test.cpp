// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of the limits a profile of a shape no real run takes meets
// in the library: cache geometries Valgrind would not simulate, allocation
// stacks longer than vgprof reads, and exports whose stacks, each written
// whole, would come to more frames than vgprof writes (a recursion deep
// with a cost at every level: N levels make N*(N+1)/2 frames).
#include "error_of.hpp"
#include "profile_text.hpp"
#include "tree_profile.hpp"

#include "vgprof/export_collapsed.hpp"
#include "vgprof/export_pprof.hpp"
#include "vgprof/export_speedscope.hpp"
#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <sstream>
#include <string>

namespace vgprof {
namespace {

using test::error_of;
using test::ProfileText;

std::string load_error(const std::string& data, const std::string& name = "p.json")
{
    return error_of([&] { parse_profile(data, name); });
}

// The cache-simulated sample profile with D1 of [size, assoc, line].
std::string with_d1(const std::string& geometry)
{
    return ProfileText()
        .drop_call_graph()
        .drop("instrs")
        .set_meta("events", R"(["Ir","I1mr","ILmr","Dr","D1mr","DLmr","Dw","D1mw","DLmw"])")
        .set_meta("cache", R"({"I1":[32768,8,64],"D1":)" + geometry +
                               R"(,"LL":[8388608,16,64],"branches":false})")
        .set("lines", "[[0,1,11,1200,0,0,0,0,0,0,0,0],[1,1,4,2484747,0,0,0,0,0,0,0,0]]")
        .set_meta("totals", "[2485947,0,0,0,0,0,0,0,0]")
        .str();
}

TEST(CacheGeometry, TheLargestCacheValgrindSimulatesIsRead)
{
    // 2^30 bytes (a C int holds up to 2^31-1) of two 2^29-byte lines.
    EXPECT_EQ(load_error(with_d1("[1073741824,1,536870912]")), "no error");
}

TEST(CacheGeometry, OneValgrindWouldNotSimulateIsRefusedSayingWhy)
{
    const std::string place = "p.json: meta.cache.D1: not a cache Valgrind simulates: ";
    EXPECT_EQ(load_error(with_d1("[2199023255552,1,1099511627776]")),
              place + "a figure is more than 2147483647, the most Valgrind simulates");
    EXPECT_EQ(load_error(with_d1("[32768,8,48]")),
              place + "the line size 48 is not a power of two of at least 16");
    EXPECT_EQ(load_error(with_d1("[32768,8,8]")),
              place + "the line size 8 is not a power of two of at least 16");
    EXPECT_EQ(load_error(with_d1("[64,1,64]")),
              place + "the size 64 is not more than the line size 64");
    EXPECT_EQ(load_error(with_d1("[1024,32,64]")),
              place + "the associativity 32 is more than the 16 lines");
    // 3 sets of 8 ways.
    EXPECT_EQ(load_error(with_d1("[1536,8,64]")),
              place + "the number of sets is not a power of two");
}

TEST(CacheGeometry, ACallgrindFileDescribingOneIsRefused)
{
    const std::string file = "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n"
                             "desc: D1 cache: 32768 B, 24 B, 8-way associative\n"
                             "events: Ir\nfl=a.c\nfn=main\n1 10\n";
    EXPECT_EQ(load_error(file, "callgrind.out.1"),
              "callgrind.out.1: line 4: D1 cache: not a cache Valgrind simulates: the line size 24 "
              "is not a power of two of at least 16");
}

// Each event is a column of the viewer's tables, which Dear ImGui bounds
// (a fuzzed profile with an event named by 34,460 bytes aborted it).
TEST(Events, MoreThanSixtyFourOrANameOfMoreThan256BytesAreRefused)
{
    std::string many = "[\"Ir\"", costs = "1200", totals = "2485947";
    for (int i = 1; i < 65; ++i) {
        many += ",\"E" + std::to_string(i) + "\"";
        costs += ",0";
        totals += ",0";
    }
    const ProfileText sixty_five = ProfileText()
                                       .drop_call_graph()
                                       .drop("instrs")
                                       .set_meta("events", many + "]")
                                       .set_meta("totals", "[" + totals + "]")
                                       .set("lines", "[[0,1,11," + costs + "],[1,1,4,2484747" +
                                                         costs.substr(4) + "]]");
    EXPECT_EQ(load_error(sixty_five.str()), "p.json: meta.events: 65 events, more than the 64 vgprof reads");
    const std::string name(257, 'E');
    EXPECT_EQ(load_error(ProfileText().set_meta("events", "[\"" + name + "\"]").str()),
              "p.json: meta.events: an event name of 257 bytes, more than the 256 vgprof reads");
    EXPECT_EQ(load_error("# callgrind format\nevents: Ir " + name + "\nfl=a.c\nfn=main\n1 10 0\n",
                         "callgrind.out.1"),
              "callgrind.out.1: line 2: events: an event name of 257 bytes, more than the 256 vgprof "
              "reads");
}

TEST(AllocationStacks, TheMostFramesVgprofReadsAreRead)
{
    EXPECT_EQ(load_error(test::profile_text(test::chain(3, true), test::heap_text(1, 4096, 1))),
              "no error");
}

TEST(AllocationStacks, OneFrameMoreIsRefused)
{
    EXPECT_EQ(load_error(test::profile_text(test::chain(3, true), test::heap_text(1, 4097, 1))),
              "p.json: heap.sites[0][0]: 4097 frames, more than the 4096 of an allocation stack "
              "vgprof reads");
}

TEST(AllocationStacks, ADhatStackOfOneFrameMoreIsRefused)
{
    std::string frames = "\"[root]\"", stack;
    for (int i = 1; i <= 4097; ++i) {
        frames += ",\"0x" + std::to_string(1000 + i) + ": f (a.c:1)\"";
        stack += (i > 1 ? "," : "") + std::to_string(i);
    }
    const std::string dhat =
        R"({"dhatFileVersion":2,"mode":"heap","verb":"Allocated","bklt":true,"bkacc":true,)"
        R"("tu":"instrs","Mtu":"instr","tuth":500,"cmd":"./a","pid":1,"te":10,"tg":5,)"
        R"("pps":[{"tb":1,"tbk":1,"tl":1,"mb":1,"mbk":1,"gb":1,"gbk":1,"eb":0,"ebk":0,)"
        R"("rb":0,"wb":0,"fs":[)" +
        stack + R"(]}],"ftbl":[)" + frames + "]}";
    EXPECT_EQ(load_error(dhat, "dhat.out.1"),
              "dhat.out.1: pps[0].fs: 4097 frames, more than the 4096 of an allocation stack "
              "vgprof reads");
}

// main (1 frame) and 16,383 levels of descend below it, each costing 1:
// stacks of 1 to 16,384 frames, 16,384 * 16,385 / 2 = 134,225,920 in all,
// past the 2^27 = 134,217,728 vgprof writes.
Profile just_too_deep()
{
    return parse_profile(test::profile_text(test::chain(16383, true)), "deep.json");
}

const std::string kTooMany = "the stacks would hold 134225920 frames, more than the 134217728 "
                             "vgprof writes";

TEST(StackExports, CollapsedStacksPastTheLimitAreRefusedBeforeAnyIsBuilt)
{
    const Profile p = just_too_deep();
    const std::string error = error_of([&] { collapsed_stacks(p, "deep.json", {}); });
    EXPECT_EQ(error.rfind("deep.json: collapsed stacks: " + kTooMany, 0), 0u) << error;
}

TEST(StackExports, PprofAndSpeedscopePastTheLimitAreRefused)
{
    const Profile p = just_too_deep();
    std::ostringstream out;
    const std::string pprof = error_of([&] { write_pprof(out, p); });
    EXPECT_EQ(pprof.rfind("pprof: " + kTooMany, 0), 0u) << pprof;
    const std::string speedscope = error_of([&] { write_speedscope(out, p); });
    EXPECT_EQ(speedscope.rfind("speedscope: " + kTooMany, 0), 0u) << speedscope;
    EXPECT_TRUE(out.str().empty());
}

TEST(StackExports, ARecursion100000DeepWithACostAtItsInnermostLevelIsOneStack)
{
    const Profile p = parse_profile(test::profile_text(test::chain(100000, false)), "deep.json");
    const auto stacks = collapsed_stacks(p, "deep.json", {});
    // main's own cost, and the innermost level's: 1 + 100,000 frames.
    ASSERT_EQ(stacks.size(), 2u);
    EXPECT_EQ(stacks.begin()->first, "main");
    const std::string& deep = std::next(stacks.begin())->first;
    EXPECT_EQ(std::count(deep.begin(), deep.end(), ';'), 100000);
}

} // namespace
} // namespace vgprof
