// SPDX-License-Identifier: GPL-2.0-or-later
// Profiles for the viewer's model tests, small enough that every expected
// figure below is worked out by hand from them.
//
// "app": main calls parse once (app.c:11) and compute once (app.c:12);
// parse calls helper twice (app.c:21), compute calls it five times
// (app.c:31). Self Ir: main 100, parse 300, compute 400 + 600 (lines 31
// and 32), helper 200 under parse and 500 under compute. So inclusive Ir:
// helper 700, parse 500, compute 1500, main 2100 (the total).
#ifndef VGPROF_TESTS_VIEWER_FIXTURE_HPP
#define VGPROF_TESTS_VIEWER_FIXTURE_HPP

#include "../unit/profile_text.hpp"

#include "document.hpp"
#include "vgprof/load.hpp"

#include <memory>
#include <string>

namespace vgprof::test {

enum AppFn : uint32_t { kMain = 0, kParse = 1, kCompute = 2, kHelper = 3 };

// A program of one object (strs[2]) and one source file (strs[1]) with a
// call graph: each argument is the JSON of the table of that name.
inline ProfileText program_profile(const std::string& strs, const std::string& fns,
                                   const std::string& lines, const std::string& calls,
                                   const std::string& inclusive, const std::string& paths,
                                   const std::string& totals)
{
    ProfileText t;
    t.set("strs", strs)
        .set("objs", "[2]")
        .set("files", "[0,1]")
        .set("fns", fns)
        .set("lines", lines)
        .drop("instrs")
        .set("calls", calls)
        .set("inclusive", inclusive)
        .set("paths", paths)
        .set_meta("totals", totals);
    return t;
}

inline ProfileText app_profile()
{
    return program_profile(R"(["???","/src/app.c","/usr/bin/app","compute","helper","main","parse"])",
                           "[[5,1,0,10],[6,1,0,20],[3,1,0,30],[4,1,0,40]]",
                           "[[0,1,11,100],[1,1,21,300],[2,1,31,400],[2,1,32,600],[3,1,41,700]]",
                           "[[0,1,1,11,1,500],[0,2,1,12,1,1500],[1,3,1,21,2,200],[2,3,1,31,5,500]]",
                           "[[0,2100],[1,500],[2,1500],[3,700]]",
                           "[[null,0,0,100,2100],[0,1,1,300,500],[1,3,2,200,200],"
                           "[0,2,1,1000,1500],[3,3,5,500,500]]",
                           "[2100]");
}

// main calls rec, which calls itself once, which calls leaf. Self Ir:
// main 10, the outer rec 20, the inner rec 30, leaf 40.
inline ProfileText recursive_profile()
{
    return program_profile(R"(["???","/src/r.c","/usr/bin/r","leaf","main","rec"])",
                           "[[4,1,0,1],[5,1,0,10],[3,1,0,20]]",
                           "[[0,1,2,10],[1,1,11,50],[2,1,21,40]]",
                           "[[0,1,1,2,1,90],[1,1,1,11,1,70],[1,2,1,11,1,40]]",
                           "[[0,100],[1,90],[2,40]]",
                           "[[null,0,0,10,100],[0,1,1,20,90],[1,1,1,30,70],[2,2,1,40,40]]",
                           "[100]");
}

// As app_profile (or `t`, one of its variants), after a change that made
// compute's line 32 cost 900 instead of 600: compute +300 self and
// inclusive, main +300 inclusive.
inline ProfileText app_profile_slower(ProfileText t = app_profile())
{
    t.set("lines", "[[0,1,11,100],[1,1,21,300],[2,1,31,400],[2,1,32,900],[3,1,41,700]]")
        .set("calls", "[[0,1,1,11,1,500],[0,2,1,12,1,1800],[1,3,1,21,2,200],[2,3,1,31,5,500]]")
        .set("inclusive", "[[0,2400],[1,500],[2,1800],[3,700]]")
        .set("paths", "[[null,0,0,100,2400],[0,1,1,300,500],[1,3,2,200,200],"
                      "[0,2,1,1300,1800],[3,3,5,500,500]]")
        .set_meta("totals", "[2400]");
    return t;
}

// The sites, frames, timeline and snapshots of the fixture's heap.
inline const char* const kAppHeapSites =
    R"("frames":[[100,3,1,41],[200,2,1,31],[300,1,1,21]],)"
    R"("sites":[[[0,1],4000,4,4000,4000,4,4000,4,0,0,8000,4000,null],)"
    R"([[0,2],500,1,1000,500,1,0,0,500,1,0,500,null]],)"
    R"("timeline":{"width":100,"samples":[[300,1000,1],[900,4000,4],[1500,500,1]]},)"
    R"("snapshots":[{"kind":"peak","time":900,"bytes":4000,"blocks":4,"sites":[[0,4000,4]]},)"
    R"({"kind":"end","time":2100,"bytes":500,"blocks":1,"sites":[[1,500,1]]}])";

// As app_profile, with heap data (format version 3). helper allocates, at
// app.c:41; its callers' calls are at app.c:31 (compute) and app.c:21
// (parse).
//   site 0, helper < compute: 4000 bytes in 4 blocks, all live at the peak
//           (instruction 900), freed; 8000 bytes read, 4000 written.
//   site 1, helper < parse: 500 bytes in 1 block, never freed.
inline ProfileText app_profile_with_heap()
{
    ProfileText t = app_profile();
    t.set("vgprof", "3")
        .set("heap", R"({"depth":12,)"
                     R"("totals":{"bytes":4500,"blocks":5,"peak_bytes":4000,"peak_blocks":4,)"
                     R"("peak_time":900,"end_bytes":500,"end_blocks":1,"end_time":2100,)"
                     R"("reads":8000,"writes":4500},)"
                     + std::string(kAppHeapSites) + "}");
    return t;
}

// The fixture's heap as format version 11 records it, with each site's
// changes: site 0 allocates 1000 bytes in a block at 300 and 3000 in 3 at
// 900 (the peak), and frees all 4000 at 1200; site 1 allocates its 500
// bytes at 1400. Live: 1000 from 300, 4000 from 900, 0 from 1200, 500
// from 1400.
inline ProfileText app_profile_with_changes(uint64_t width, const std::string& rows)
{
    ProfileText t = app_profile();
    t.set("vgprof", "11")
        .drop_call_graph()
        .set("heap", R"({"depth":12,)"
                     R"("totals":{"start_time":0,"start_bytes":0,"start_blocks":0,"bytes":4500,"blocks":5,)"
                     R"("freed_bytes":4000,"freed_blocks":4,"peak_bytes":4000,"peak_blocks":4,)"
                     R"("peak_time":900,"end_bytes":500,"end_blocks":1,"end_time":2100,)"
                     R"("reads":8000,"writes":4500},)"
                     R"("whole_run":{"bytes":4500,"blocks":5,)"
                     R"("freed_bytes":4000,"freed_blocks":4,"peak_bytes":4000,"peak_blocks":4,)"
                     R"("peak_time":900,"end_bytes":500,"end_blocks":1,"end_time":2100,)"
                     R"("reads":8000,"writes":4500},)"
                     + std::string(kAppHeapSites) + R"(,"changes":{"width":)" +
                         std::to_string(width) + R"(,"max":50000,"rows":)" + rows + "}}");
    return t;
}

// Site 0: a block of 1000 bytes allocated at 300, three more of 3000 in
// all at 900, all four freed at 1200. Site 1: 500 bytes at 1400, never
// freed. The timeline's samples (every 100 instructions) still show 4000
// bytes up to 1500.
inline const char* const kExactRows =
    "[[0,300,1000,1,0,0],[0,900,3000,3,0,0],[0,1200,0,0,4000,4],[1,1400,500,1,0,0]]";

// "inlined" (format version 7): main (app.cpp:11, 50 Ir) calls work once
// at app.cpp:12. work's code costs 1000 Ir: 100 on its own line app.cpp:31,
// 600 at stl_vector.h:1278 in erase, inlined at app.cpp:32, and 300 at
// stl_algobase.h:400 in move, inlined into erase at stl_vector.h:1280.
// erase's code calls helper (400 Ir, app.cpp:51) twice, at
// stl_vector.h:1279. Files: 1 app.cpp, 2 stl_vector.h, 3 stl_algobase.h.
enum InlinedFn : uint32_t { kErase = 0, kInlHelper = 1, kInlMain = 2, kMove = 3, kWork = 4 };
inline ProfileText inlined_profile()
{
    ProfileText t = program_profile(
        R"(["???","/src/app.cpp","/usr/bin/app","/usr/include/c++/12/bits/stl_vector.h",)"
        R"("/usr/include/c++/12/bits/stl_algobase.h","erase","helper","main","move","work"])",
        "[[5,0,0,0,1],[6,1,0,50],[7,1,0,10],[8,0,0,0,1],[9,1,0,30]]",
        "[[1,1,51,400],[2,1,11,50],[4,1,31,100],[4,2,1278,600],[4,3,400,300]]",
        "[[2,4,1,12,1,1400],[4,1,2,1279,2,400]]", "[[1,400],[2,1450],[4,1400]]",
        "[[null,2,0,50,1450],[0,4,1,1000,1400],[1,0,0,0,400],[2,1,2,400,400]]", "[1450]");
    t.set("vgprof", "7")
        .set("files", "[0,1,3,4]")
        .set("inlines", "[[0,null,1,32],[3,0,2,1280]]")
        .set("inline_lines", "[[4,0,2,1278,600],[4,1,3,400,300]]");
    return t;
}

// A cache-simulated profile of main and work, no call graph. Events: Ir
// I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw.
inline ProfileText cache_profile()
{
    ProfileText t;
    t.drop_call_graph()
        .drop("instrs")
        .set_meta("events", R"(["Ir","I1mr","ILmr","Dr","D1mr","DLmr","Dw","D1mw","DLmw"])")
        .set_meta("cache", R"({"I1":[32768,8,64],"D1":[32768,8,64],"LL":[8388608,16,64],"branches":false})")
        .set("lines", "[[0,1,11,1000,10,5,400,40,4,100,1,0],"
                      "[1,1,4,5000,2,1,2000,500,100,1000,50,25]]")
        .set_meta("totals", "[6000,12,6,2400,540,104,1100,51,25]");
    return t;
}

// A run that collected nothing (--collect-atstart=no and no toggle): no
// function, no call, no allocation; the heap's end is still a time.
inline ProfileText empty_profile()
{
    ProfileText t;
    t.set("vgprof", "3")
        .set("strs", "[]")
        .set("objs", "[]")
        .set("files", "[]")
        .set("fns", "[]")
        .set("lines", "[]")
        .drop("instrs")
        .set("calls", "[]")
        .set("inclusive", "[]")
        .set("paths", "[]")
        .set("heap", R"({"depth":12,)"
                     R"("totals":{"bytes":0,"blocks":0,"peak_bytes":0,"peak_blocks":0,)"
                     R"("peak_time":0,"end_bytes":0,"end_blocks":0,"end_time":143190,)"
                     R"("reads":0,"writes":0},"frames":[],"sites":[],)"
                     R"("timeline":{"width":1,"samples":[]},)"
                     R"("snapshots":[{"kind":"peak","time":0,"bytes":0,"blocks":0,"sites":[]},)"
                     R"({"kind":"end","time":143190,"bytes":0,"blocks":0,"sites":[]}]})")
        .set_meta("totals", "[0]");
    return t;
}

// Other tools' files, as the loader reads them.
// main calls work once; Ir only.
inline const char* const kCallgrindFile = "version: 1\ncreator: callgrind-3.19.0\ncmd: ./app\n"
                                   "events: Ir\nfl=(1) app.c\nfn=(1) main\n3 10\n"
                                   "cfn=(2) work\ncalls=1 4\n4 90\nfn=(2)\n5 90\ntotals: 100\n";
inline const char* const kCachegrindFile = "desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
                                    "cmd: ./app\nevents: Ir\nfl=app.c\nfn=main\n3 10\nsummary: 10\n";
// One program point: 100 bytes in one block, live at the peak.
inline const char* const kDhatFile =
    R"x({"dhatFileVersion":2,"mode":"heap","verb":"Allocated","bklt":true,"bkacc":false,)x"
    R"x("tu":"instrs","Mtu":"Minstr","tuth":500,"cmd":"./app","pid":7,"te":900,"tg":400,)x"
    R"x("pps":[{"tb":100,"tbk":1,"tl":50,"mb":100,"mbk":1,"gb":100,"gbk":1,"eb":0,"ebk":0,)x"
    R"x("rb":10,"wb":100,"fs":[1]}],"ftbl":["[root]","0x10A1C4: main (app.c:42)"]})x";

inline std::unique_ptr<viewer::Document> document_of(const ProfileText& text,
                                                     const std::string& name = "app.json")
{
    return std::make_unique<viewer::Document>(parse_profile(text.str(), name), name);
}

inline std::unique_ptr<viewer::Document> document_of(const char* file_text, const std::string& name)
{
    return std::make_unique<viewer::Document>(parse_profile(file_text, name), name);
}

} // namespace vgprof::test

#endif
