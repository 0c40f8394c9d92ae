// SPDX-License-Identifier: GPL-2.0-or-later
// Variants of the two-event fixture (report_fixture.hpp) for the diff
// tests, each change stated beside it, and of the heap fixture
// (heap_fixture.hpp).
#ifndef VGPROF_TESTS_DIFF_FIXTURE_HPP
#define VGPROF_TESTS_DIFF_FIXTURE_HPP

#include "heap_fixture.hpp"
#include "report_fixture.hpp"

#include "vgprof/load.hpp"

#include <string>

namespace vgprof::test {

inline Profile load(const ProfileText& text, const std::string& name = "p.json")
{
    return parse_profile(text.str(), name);
}

// The two-event fixture's lines with some of their costs changed: the Ir
// of helper's two lines (at helper_line and the next) and of work's lines
// 4 and 5, and memset's Dr; the totals follow from them.
struct TwoEventLines {
    uint64_t helper_first = 300, work_first = 5000, work_second = 3000, memset_dr = 3990;
    uint32_t helper_line = 21;
};

inline ProfileText with_lines(ProfileText p, const TwoEventLines& l)
{
    const auto n = [](uint64_t v) { return std::to_string(v); };
    p.set("lines", "[[0,1,0,1500," + n(l.memset_dr) + "]" + ",[1,0," + n(l.helper_line) + "," +
                       n(l.helper_first) + ",0],[1,0," + n(l.helper_line + 1) + ",100,0]" +
                       ",[2,0,11,60,6],[2,0,12,40,4]" + ",[3,0,4," + n(l.work_first) +
                       ",600],[3,0,5," + n(l.work_second) + ",400]]");
    p.set_meta("totals", "[" + n(1500 + l.helper_first + 100 + 100 + l.work_first + l.work_second) +
                             "," + n(l.memset_dr + 10 + 1000) + "]");
    return p;
}

// work's line 4 costs 5200 Ir instead of 5000: work 8200, total 10200 Ir
// (+200, +2%); Dr unchanged.
inline ProfileText heavier_profile()
{
    TwoEventLines l;
    l.work_first = 5200;
    return with_lines(two_event_profile(), l);
}

// helper's line 21 costs 400 instead of 300 (helper 500: +100, +25%) and
// work's line 5 2900 instead of 3000 (work 7900: -100): the total stays
// 10000 Ir.
inline ProfileText shifted_profile()
{
    TwoEventLines l;
    l.helper_first = 400;
    l.work_second = 2900;
    return with_lines(two_event_profile(), l);
}

// A new function "aaa" (50 Ir) sorts before the others, so every function
// of the app gets another id; libc is loaded from /usr/lib instead of /lib.
inline ProfileText renumbered_profile()
{
    ProfileText p = two_event_profile();
    p.set("strs", R"(["/src/app.c","/usr/bin/app","/usr/lib/libc.so.6","???",)"
                  R"("aaa","helper","main","memset","work"])");
    p.set("objs", "[1,2]");   // 0 app, 1 libc
    p.set("files", "[0,3]");  // 0 /src/app.c, 1 ???
    // 0 aaa, 1 helper, 2 main, 3 work (app), 4 memset (libc)
    p.set("fns", "[[4,0,0,30],[5,0,0,20],[6,0,0,10],[8,0,0,3],[7,1,1,0]]");
    p.set("lines", "[[0,0,31,50,0]"
                   ",[1,0,21,300,0],[1,0,22,100,0]"
                   ",[2,0,11,60,6],[2,0,12,40,4]"
                   ",[3,0,4,5000,600],[3,0,5,3000,400]"
                   ",[4,1,0,1500,3990]]");
    p.set_meta("totals", "[10050,5000]");
    return p;
}

// helper moved from /src/app.c:20 to /src/util.c:40, its two lines with
// it (41 and 42), costing what they did.
inline ProfileText moved_helper_profile()
{
    ProfileText p = two_event_profile();
    p.set("strs", R"(["/lib/libc.so.6","/src/app.c","/src/util.c","/usr/bin/app","???",)"
                  R"("helper","main","memset","work"])");
    p.set("objs", "[0,3]");     // 0 libc, 1 app
    p.set("files", "[1,2,4]");  // 0 /src/app.c, 1 /src/util.c, 2 ???
    p.set("fns", "[[7,2,0,0],[5,1,1,40],[6,0,1,10],[8,0,1,3]]");
    p.set("lines", "[[0,2,0,1500,3990]"
                   ",[1,1,41,300,0],[1,1,42,100,0]"
                   ",[2,0,11,60,6],[2,0,12,40,4]"
                   ",[3,0,4,5000,600],[3,0,5,3000,400]]");
    return p;
}

// helper renamed assist, where it was, its code unchanged.
inline ProfileText renamed_helper_profile()
{
    ProfileText p = two_event_profile();
    p.set("strs", R"(["/lib/libc.so.6","/src/app.c","/usr/bin/app","???",)"
                  R"("assist","main","memset","work"])");
    p.set("fns", "[[6,1,0,0],[4,0,1,20],[5,0,1,10],[7,0,1,3]]");
    return p;
}

// The heap fixture with site 0 (allocated from work, app.c:5) making 15
// blocks of 100 bytes instead of 10, all written: 16 blocks and 3500
// bytes in all, 3500 written; the peak and the end as they were.
inline ProfileText more_blocks_profile()
{
    const std::string totals =
        R"({"bytes":3500,"blocks":16,"peak_bytes":2300,"peak_blocks":4,"peak_time":500,)"
        R"("end_bytes":100,"end_blocks":1,"end_time":100000,"reads":4000,"writes":3500})";
    const std::string site0 = "[[0,1],1500,15,4500,400,4,300,3,100,1,0,1500,null]";
    return with_heap(heap_json(totals, kFrames, "[" + site0 + "," + kSite1 + "]"));
}

// A Rust program whose costs are in the C library's memset: app::main
// (main.rs:40) calls app::handle, whose code inlines app::build_payload
// (at main.rs:70), which inlines the standard library's alloc_zeroed (at
// main.rs:17), whose code (alloc.rs:95) calls libc's calloc 300 times;
// calloc calls memset, which costs `zeroed` there. main also calls memset
// itself, once, at main.rs:41, where it costs `direct`.
inline ProfileText calls_into_libc_profile(uint64_t zeroed, uint64_t direct)
{
    const auto n = [](uint64_t v) { return std::to_string(v); };
    ProfileText p;
    p.set("vgprof", "7");
    p.set("strs", R"(["???","/home/u/app/target/release/app","/usr/lib/x86_64-linux-gnu/libc.so.6",)"
                  R"("/home/u/app/src/main.rs",)"
                  R"("/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/alloc/src/alloc.rs",)"
                  R"("app::handle","app::build_payload","alloc::alloc::alloc_zeroed",)"
                  R"("__memset_avx2_unaligned_erms","calloc","app::main"])");
    p.set("objs", "[1,2]");
    p.set("files", "[0,3,4]");
    // main, handle; build_payload and alloc_zeroed (inlined); calloc, memset.
    p.set("fns", "[[10,1,0,38],[5,1,0,60],[6,0,0,0,1],[7,0,0,0,1],[9,0,1,0],[8,0,1,0]]");
    p.set("inlines", "[[2,null,1,70],[3,0,1,17]]");
    p.set("inline_lines", "[[1,1,2,95,10]]");
    p.set("lines", "[[0,1,40,100],[1,1,70,50],[1,2,95,10],[4,0,0,200],[5,0,0," +
                       n(zeroed + direct) + "]]");
    p.drop("instrs");
    p.set("calls", "[[0,1,1,40,1," + n(260 + zeroed) + "],[0,5,1,41,1," + n(direct) +
                       "],[1,4,2,95,300," + n(200 + zeroed) + "],[4,5,0,0,300," + n(zeroed) +
                       "]]");
    p.set("inclusive", "[[0," + n(360 + zeroed + direct) + "],[1," + n(260 + zeroed) + "],[4," +
                           n(200 + zeroed) + "],[5," + n(zeroed + direct) + "]]");
    p.set("paths", "[[null,0,0,100," + n(360 + zeroed + direct) + "],[0,1,1,60," +
                       n(260 + zeroed) + "],[1,4,300,200," + n(200 + zeroed) + "],[2,5,300," +
                       n(zeroed) + "," + n(zeroed) + "],[0,5,1," + n(direct) + "," + n(direct) +
                       "]]");
    p.set_meta("totals", "[" + n(360 + zeroed + direct) + "]");
    return p;
}

// `p` as a version 7 profile with meta.fingerprint: working directory
// `cwd`, `env` ([[name, hash], ...]) and Valgrind's options `valgrind`.
inline ProfileText fingerprinted(ProfileText p, const std::string& cwd, const std::string& env,
                                 const std::string& valgrind = "[]")
{
    p.set("vgprof", "7");
    p.set_meta("fingerprint", R"({"cwd":")" + cwd + R"(","env_bytes":100,"env":)" + env +
                                  R"(,"valgrind_options":)" + valgrind + "}");
    return p;
}

} // namespace vgprof::test

#endif
