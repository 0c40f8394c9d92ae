// SPDX-License-Identifier: GPL-2.0-or-later
// A profile of format version 7 with the cache events, the heap of
// heap_fixture.hpp and a data section, for the unit tests of the data
// objects (fns 0 main, 1 work; strs 5 "table", the global's name).
//
// The fixture, worked out by hand (events Dr D1mr DLmr Dw D1mw DLmw):
//   object 0: heap site 0 (blocks of 100 bytes, 8-byte buckets):
//             800 400 40 100 10 1, all by work; at offset 0:
//             600 300 30 50 5 1, at offset 8: 200 100 10 50 5 0.
//   object 1: the global "table" of /usr/bin/app (64 bytes at 4210688):
//             300 100 10 0 0 0, all by main at offset 0.
//   object 2: the stack: 200 40 4 200 20 2; the misses (D1mr DLmr D1mw
//             DLmw) of main 0 0 10 1, of work 40 4 10 1.
//   lines:    main 300 100 10 100 10 1, work 1000 440 44 200 20 2 (their
//             misses are those of the fns rows); totals 1300 540 54 300 30 3.
#ifndef VGPROF_TESTS_DATA_FIXTURE_HPP
#define VGPROF_TESTS_DATA_FIXTURE_HPP

#include "heap_fixture.hpp"
#include "profile_text.hpp"

#include <string>

namespace vgprof::test {

inline const char* const kDataObjects =
    R"([["heap",0,null,null,null,100,8,800,400,40,100,10,1])"
    R"(,["global",null,5,0,4210688,64,8,300,100,10,0,0,0])"
    R"(,["stack",null,null,null,null,0,0,200,40,4,200,20,2]])";
inline const char* const kDataOffsets =
    "[[0,0,600,300,30,50,5,1],[0,8,200,100,10,50,5,0],[1,0,300,100,10,0,0,0]]";
inline const char* const kDataFns = "[[0,1,400,40,10,1],[1,0,100,10,0,0],[2,0,0,0,10,1],"
                                    "[2,1,40,4,10,1]]";

inline std::string data_json(const std::string& objects = kDataObjects,
                             const std::string& offsets = kDataOffsets,
                             const std::string& fns = kDataFns)
{
    return R"({"events":["Dr","D1mr","DLmr","Dw","D1mw","DLmw"],"objects":)" + objects +
           R"(,"offsets":)" + offsets + R"(,"fns":)" + fns + "}";
}

// The profile, with `data` as its data section.
inline ProfileText with_data(const std::string& data = data_json())
{
    ProfileText t = with_heap();
    t.set("vgprof", "7")
        .set("strs", R"(["???","/usr/bin/app","/src/app.c","main","work","table"])")
        .set("lines", "[[0,1,11,1200,10,10,300,100,10,100,10,1],"
                      "[1,1,4,2484747,0,0,1000,440,44,200,20,2]]")
        .drop("instrs")
        .drop_call_graph()
        .set_meta("events", R"(["Ir","I1mr","ILmr","Dr","D1mr","DLmr","Dw","D1mw","DLmw"])")
        .set_meta("cache",
                  R"({"I1":[32768,8,64],"D1":[32768,8,64],"LL":[8388608,16,64],"branches":false})")
        .set_meta("totals", "[2485947,10,10,1300,540,54,300,30,3]")
        .set("data", data);
    return t;
}

// The fixture after a change: heap site 0's D1mr 400 -> 100 (offset 0
// 300 -> 75, offset 8 100 -> 25), the global's 100 -> 150; work's line and
// main's with them, the program's D1mr 540 -> 290.
inline ProfileText with_changed_data()
{
    ProfileText p = with_data(data_json(
        R"([["heap",0,null,null,null,100,8,800,100,40,100,10,1])"
        R"(,["global",null,5,0,4210688,64,8,300,150,10,0,0,0])"
        R"(,["stack",null,null,null,null,0,0,200,40,4,200,20,2]])",
        "[[0,0,600,75,30,50,5,1],[0,8,200,25,10,50,5,0],[1,0,300,150,10,0,0,0]]",
        "[[0,1,100,40,10,1],[1,0,150,10,0,0],[2,0,0,0,10,1],[2,1,40,4,10,1]]"));
    p.set("lines", "[[0,1,11,1200,10,10,300,150,10,100,10,1],"
                   "[1,1,4,2484747,0,0,1000,140,44,200,20,2]]")
        .set_meta("totals", "[2485947,10,10,1300,290,54,300,30,3]");
    return p;
}

} // namespace vgprof::test

#endif
