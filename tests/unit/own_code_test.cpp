// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of what counts as the program's own code (own_code.hpp),
// and of the places named for a heap cost: the innermost own frame of a
// site, in diff's figures and changed lines.
#include "diff_fixture.hpp"
#include "heap_fixture.hpp"
#include "profile_text.hpp"

#include "vgprof/diff.hpp"
#include "vgprof/load.hpp"
#include "vgprof/own_code.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace vgprof {
namespace {

const std::string kRustStd =
    "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/alloc/src/alloc.rs";

TEST(OwnCode, TheToolchainsSourcesAreNotTheProgramsOwn)
{
    EXPECT_TRUE(is_toolchain_source(kRustStd));
    EXPECT_TRUE(is_toolchain_source("/rust/deps/hashbrown-0.16.1/src/map.rs"));
    EXPECT_TRUE(is_toolchain_source("/home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/tokio-1.38.0/src/net/tcp/listener.rs"));
    EXPECT_TRUE(is_toolchain_source("/usr/share/cargo/registry/tokio-1.43.1/src/runtime/task/mod.rs"));
    // Debian's own rustc names its standard library where rust-src puts it.
    EXPECT_TRUE(is_toolchain_source("/usr/src/rustc-1.63.0/library/alloc/src/alloc.rs"));
    EXPECT_TRUE(is_toolchain_source("/usr/include/c++/12/bits/stl_vector.h"));
    EXPECT_TRUE(is_toolchain_source("/usr/lib/gcc/x86_64-linux-gnu/12/include/emmintrin.h"));
    EXPECT_FALSE(is_toolchain_source("/home/u/tsrv/src/main.rs"));
    EXPECT_FALSE(is_toolchain_source("src/main.rs"));
    // A directory of the user's that only looks like one.
    EXPECT_FALSE(is_toolchain_source("/home/u/rustc/src/lib.rs"));
}

TEST(OwnCode, SystemLibrariesAreNotTheProgramsOwn)
{
    EXPECT_TRUE(is_system_object("/usr/lib/x86_64-linux-gnu/libc.so.6"));
    EXPECT_TRUE(is_system_object("/lib/x86_64-linux-gnu/libstdc++.so.6"));
    EXPECT_TRUE(is_system_object("/usr/libexec/valgrind/vgpreload_vgprof-amd64-linux.so"));
    EXPECT_FALSE(is_system_object("/home/u/tsrv/target/release/tsrv"));
    EXPECT_FALSE(is_system_object("/usr/libfoo/app"));
}

TEST(OwnCode, SourceAndObjectMustBothBeTheProgramsOwnByDefault)
{
    const OwnCodeRules none;
    EXPECT_TRUE(is_own_code(none, "/home/u/app/main.c", "/home/u/app/app"));
    EXPECT_FALSE(is_own_code(none, "./malloc/malloc.c", "/usr/lib/x86_64-linux-gnu/libc.so.6"));
    EXPECT_FALSE(is_own_code(none, kRustStd, "/home/u/app/app"));
    EXPECT_FALSE(is_own_code(none, "???", "/home/u/app/app"));
}

TEST(OwnCode, TheLongerOfTheUsersRulesDecidesAndASourceRuleComesFirst)
{
    OwnCodeRules rules;
    rules.not_own = {"*/vendor/*", "/home/u/app/third_party"};
    rules.own = {"/home/u/app/vendor/ours", "/usr/src/mylib"};
    EXPECT_FALSE(is_own_code(rules, "/home/u/app/vendor/zlib/inflate.c", "/home/u/app/app"));
    EXPECT_TRUE(is_own_code(rules, "/home/u/app/vendor/ours/x.c", "/home/u/app/app"));
    EXPECT_FALSE(is_own_code(rules, "/home/u/app/third_party/y.c", "/home/u/app/app"));
    // Whole components: third_party_tools is not under third_party.
    EXPECT_TRUE(is_own_code(rules, "/home/u/app/third_party_tools/z.c", "/home/u/app/app"));
    // The user's library installed with the system's.
    EXPECT_TRUE(is_own_code(rules, "/usr/src/mylib/m.c", "/usr/lib/libmylib.so.1"));
}

// A Rust program's allocation: calloc in libc, called from the standard
// library's alloc_zeroed, called from the program's build_payload
// (main.rs:17), called from its main (main.rs:40): site 0, `bytes` in 300
// blocks. Site 1: 1,000 bytes allocated in main itself (main.rs:41).
std::string rust_program(uint64_t bytes)
{
    const std::string site0 = "[[0,1,2,3]," + std::to_string(bytes) + ",300,3000," +
                              std::to_string(bytes / 300) + ",1,0,0,0,0,0,0,null]";
    const std::string site1 = "[[0,3],1000,1,10,1000,1,0,0,0,0,0,0,null]";
    return test::ProfileText()
        .set("vgprof", "5")
        .set("strs", R"(["???","/home/u/app/target/release/app","/usr/lib/x86_64-linux-gnu/libc.so.6",)"
                     R"("/home/u/app/src/main.rs",")" +
                         kRustStd +
                         R"(","app::main","app::build_payload","alloc::alloc::alloc_zeroed","calloc"])")
        .set("objs", "[1,2]")
        .set("files", "[0,3,4]")
        .set("fns", "[[5,1,0,38],[6,1,0,16],[7,2,0,170],[8,0,1,0]]")
        .set("lines", "[[0,1,40,100]]")
        .set_meta("totals", "[100]")
        .drop("instrs")
        .drop_call_graph()
        .set("heap", test::heap_json(
                         R"({"bytes":)" + std::to_string(bytes + 1000) +
                             R"(,"blocks":301,"peak_bytes":0,"peak_blocks":0,"peak_time":0,)"
                             R"("end_bytes":0,"end_blocks":0,"end_time":100,"reads":0,"writes":0})",
                         "[[4096,3,0,0],[8192,2,2,178],[8300,1,1,17],[8400,0,1,40],[8500,0,1,41]]",
                         "[" + site0 + "," + site1 + "]", R"({"width":100,"samples":[]})", "[]"))
        .str();
}

TEST(OwnCode, ASitesOwnFrameIsItsInnermostFrameOfTheProgramsCode)
{
    const Profile p = parse_profile(rust_program(1228800), "p.json");
    const OwnCode own(p);
    const std::optional<FrameId> f = own.own_frame(p.heap()->sites[0]);
    ASSERT_TRUE(f);
    EXPECT_EQ(p.heap()->frame(*f).line, 17u);
    EXPECT_EQ(p.fn_name(p.heap()->frame(*f).fn), "app::build_payload");
}

TEST(OwnCode, WithTheProgramsSourcesNotItsOwnTheCallerOfTheAllocatorIsNamed)
{
    const Profile p = parse_profile(rust_program(1228800), "p.json");
    OwnCodeRules rules;
    rules.not_own = {"/home/u/app"};
    const OwnCode own(p, rules);
    EXPECT_FALSE(own.own_frame(p.heap()->sites[0]));
    const std::optional<FrameId> named = own.named_frame(p.heap()->sites[0]);
    ASSERT_TRUE(named);
    EXPECT_EQ(p.fn_name(p.heap()->frame(*named).fn), "alloc::alloc::alloc_zeroed");
}

TEST(OwnCode, ADoubledAllocationRisesInTheProgramsFunctionAtItsLine)
{
    const Profile base = parse_profile(rust_program(1228800), "base.json");
    const Profile now = parse_profile(rust_program(2457600), "new.json");
    const DiffResult diff = diff_profiles(base, now);
    const size_t bytes = *diff.metric_index("HeapBytes");
    const auto rose = std::max_element(
        diff.functions.begin(), diff.functions.end(), [&](const FunctionDelta& a, const FunctionDelta& b) {
            return a.self[bytes].delta() < b.self[bytes].delta();
        });
    ASSERT_NE(rose, diff.functions.end());
    EXPECT_EQ(rose->name, "app::build_payload");
    EXPECT_EQ(rose->self[bytes].delta(), 1228800);
    const std::vector<LineDelta> lines = changed_lines(base, now, diff, *rose, bytes, 3);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].file, "/home/u/app/src/main.rs");
    EXPECT_EQ(lines[0].line, 17u);
    // The standard library's function holds none of it as its own.
    for (const FunctionDelta& f : diff.functions)
        if (f.name == "alloc::alloc::alloc_zeroed")
            EXPECT_EQ(f.self[bytes].delta(), 0);
}

// memset is not the program's own: its cost is placed on the own lines it
// was reached through, through calloc and the inlined standard-library
// code of alloc.rs:95 out to build_payload's line, and main's own call.
TEST(OwnCallSites, ALibraryFunctionsCostIsPlacedOnTheOwnLinesItWasCalledThrough)
{
    const Profile p = test::load(test::calls_into_libc_profile(3000, 500));
    const OwnCode own(p);
    const std::vector<OwnCallSite> sites = own_call_sites(p, own, {FnId(5)}, 0);
    ASSERT_EQ(sites.size(), 2u);
    EXPECT_EQ(p.fn_name(sites[0].fn), "app::build_payload");
    EXPECT_EQ(p.file_path(sites[0].file), "/home/u/app/src/main.rs");
    EXPECT_EQ(sites[0].line, 17u);
    EXPECT_DOUBLE_EQ(sites[0].cost, 3000);
    EXPECT_EQ(p.fn_name(sites[1].fn), "app::main");
    EXPECT_EQ(sites[1].line, 41u);
    EXPECT_DOUBLE_EQ(sites[1].cost, 500);
}

TEST(OwnCallSites, WithoutACallGraphThereIsNoCaller)
{
    test::ProfileText text = test::calls_into_libc_profile(3000, 500);
    const Profile p = test::load(text.drop_call_graph());
    EXPECT_TRUE(own_call_sites(p, OwnCode(p), {FnId(5)}, 0).empty());
}

// The diff names a rise in memset by the own lines whose part of it rose,
// the largest part first; a line whose part stayed is not named.
TEST(OwnCallSites, ADiffNamesTheOwnLinesARiseInALibraryCameThrough)
{
    const Profile base = test::load(test::calls_into_libc_profile(3000, 500), "base.json");
    const Profile now = test::load(test::calls_into_libc_profile(6000, 800), "new.json");
    const DiffResult diff = diff_profiles(base, now);
    const auto memset = std::find_if(diff.functions.begin(), diff.functions.end(),
                                     [](const FunctionDelta& f) {
                                         return f.name == "__memset_avx2_unaligned_erms";
                                     });
    ASSERT_NE(memset, diff.functions.end());
    EXPECT_EQ(memset->self[0].delta(), 3300);
    const std::vector<CallerDelta> callers = own_callers(base, now, diff, *memset, 0, 5);
    ASSERT_EQ(callers.size(), 2u);
    EXPECT_EQ(callers[0].function, "app::build_payload");
    EXPECT_EQ(callers[0].file, "/home/u/app/src/main.rs");
    EXPECT_EQ(callers[0].line, 17u);
    EXPECT_EQ(callers[0].cost.base, 3000u);
    EXPECT_EQ(callers[0].cost.now, 6000u);
    EXPECT_EQ(callers[1].function, "app::main");
    EXPECT_EQ(callers[1].line, 41u);
    EXPECT_EQ(callers[1].cost.delta(), 300);

    const Profile same_direct = test::load(test::calls_into_libc_profile(6000, 500), "new.json");
    const DiffResult only_zeroed = diff_profiles(base, same_direct);
    for (const FunctionDelta& f : only_zeroed.functions)
        if (f.name == "__memset_avx2_unaligned_erms") {
            const std::vector<CallerDelta> one = own_callers(base, same_direct, only_zeroed, f, 0, 5);
            ASSERT_EQ(one.size(), 1u);
            EXPECT_EQ(one[0].line, 17u);
        }
    // The program's own function is named by its own lines, not callers.
    for (const FunctionDelta& f : diff.functions)
        if (f.name == "app::main")
            EXPECT_TRUE(own_callers(base, now, diff, f, 0, 5).empty());
}

} // namespace
} // namespace vgprof
