// SPDX-License-Identifier: GPL-2.0-or-later
// A small two-event profile for the query and report tests. The numbers
// are chosen so every share is easy to work out by hand:
//   function  Ir                 Dr
//   work      5000+3000 = 8000   600+400 = 1000
//   memset    1500               3990
//   helper    300+100   = 400    0+0     = 0
//   main      60+40     = 100    6+4     = 10
//   total     10000              5000
//
// two_event_call_graph_profile() adds a call graph over the same self costs:
//
//   main                  self  100/10    inclusive 10000/5000
//   ├─ helper   (1 call)  self  400/0     inclusive   900/1990
//   │  └─ memset (2)      self  500/1990  inclusive   500/1990
//   └─ work     (2 calls) self 6000/800   inclusive  9000/3000
//      ├─ memset (1)      self 1000/2000  inclusive  1000/2000
//      └─ work   (1)      self 2000/200   inclusive  2000/200   (recursion)
//
// main calls work from two sites, app.c:11 (5000/1000 of the 9000/3000)
// and app.c:12 (4000/2000); memset has two callers, helper and work. A
// function's inclusive cost counts its outermost call only: work's is
// 9000/3000, not 9000 + 2000.
//
// two_thread_profile() has the same self costs, recorded with
// --separate-threads=yes from two threads; thread 2 starts in work:
//
//   tid 1: main               self  100/10    inclusive 5600/3800
//          ├─ helper (1)      self  400/0     inclusive  900/1990
//          │  └─ memset (2)   self  500/1990  inclusive  500/1990
//          └─ work (1, :11)   self 4000/600   inclusive 4600/1800
//             └─ memset (1)   self  600/1200  inclusive  600/1200
//   tid 2: work               self 2500/300   inclusive 4400/1200
//          ├─ memset (1)      self  400/800   inclusive  400/800
//          └─ work (1, :5)    self 1500/100   inclusive 1500/100   (recursion)
//
// Both threads call memset from work's app.c:6, so the top-level row of
// that call site sums them: 2 calls, 600+400 = 1000 Ir, 1200+800 = 2000 Dr.
// work's top-level inclusive cost is tid 1's 4600/1800 plus tid 2's
// 4400/1200 = 9000/3000; memset's is 500+600+400 = 1500 Ir, all its own.
//
// cache_profile() records cachegrind's thirteen events (--cache-sim=yes
// --branch-sim=yes) for two functions, main and work:
//
//   event  work   main   total     event  work   main   total
//   Ir     8000   2000   10000     Dw     1000   1000    2000
//   I1mr     80     20     100     D1mw     50    150     200
//   ILmr      8      2      10     DLmw     10     30      40
//   Dr     2000      0    2000     Bc     1000      0    1000
//   D1mr    100      0     100     Bcm      50      0      50
//   DLmr     20      0      20     Bi      100      0     100
//                                  Bim      25      0      25
//
// so cachegrind's summary rates are I1 100/10000 = 1%, LLi 10/10000 =
// 0.1%, D1 (100+200)/(2000+2000) = 7.5%, LLd (20+40)/4000 = 1.5%, LL
// (10+20+40)/(10000+4000) = 0.5%, Mispred (50+25)/(1000+100) = 6.818...%.
// Per function: work's D1mr/Dr is 100/2000 = 5%, its D1mw/Dw 50/1000 = 5%;
// main's D1mr/Dr has no references (Dr 0), its D1mw/Dw is 150/1000 = 15%;
// both have I1mr/Ir 1%. cache_call_graph_profile() adds that main calls
// work once from app.c:12, so main's inclusive cost is the total and
// work's its own.
#ifndef VGPROF_TESTS_REPORT_FIXTURE_HPP
#define VGPROF_TESTS_REPORT_FIXTURE_HPP

#include "profile_text.hpp"

#include <string>

namespace vgprof::test {

inline ProfileText two_event_profile()
{
    ProfileText p;
    // strs sorted by byte value, as the tool writes them.
    p.set("strs", R"(["/lib/libc.so.6","/src/app.c","/usr/bin/app","???",)"
                  R"("helper","main","memset","work"])");
    p.set("objs", "[0,2]");   // 0 libc, 1 app
    p.set("files", "[1,3]");  // 0 /src/app.c, 1 ???
    // fns sorted by (object, name, file, line): 0 memset, 1 helper, 2 main, 3 work
    p.set("fns", "[[6,1,0,0],[4,0,1,20],[5,0,1,10],[7,0,1,3]]");
    p.set("lines", "[[0,1,0,1500,3990]"
                   ",[1,0,21,300,0],[1,0,22,100,0]"
                   ",[2,0,11,60,6],[2,0,12,40,4]"
                   ",[3,0,4,5000,600],[3,0,5,3000,400]]");
    p.drop("instrs");
    p.drop_call_graph();
    p.set_meta("events", R"(["Ir","Dr"])");
    p.set_meta("totals", "[10000,5000]");
    return p;
}

inline ProfileText two_event_call_graph_profile()
{
    ProfileText p = two_event_profile();
    // [caller, callee, file, line, count, Ir, Dr], sorted by the first four.
    p.set("calls", "[[1,0,0,23,2,500,1990]"
                   ",[2,1,0,13,1,900,1990]"
                   ",[2,3,0,11,1,5000,1000]"
                   ",[2,3,0,12,1,4000,2000]"
                   ",[3,0,0,6,1,1000,2000]"
                   ",[3,3,0,5,1,2000,200]]");
    p.set("inclusive", "[[0,1500,3990],[1,900,1990],[2,10000,5000],[3,9000,3000]]");
    // [parent, fn, count, self Ir, self Dr, incl Ir, incl Dr], depth-first.
    p.set("paths", "[[null,2,0,100,10,10000,5000]"
                   ",[0,1,1,400,0,900,1990]"
                   ",[1,0,2,500,1990,500,1990]"
                   ",[0,3,2,6000,800,9000,3000]"
                   ",[3,0,1,1000,2000,1000,2000]"
                   ",[3,3,1,2000,200,2000,200]]");
    return p;
}

inline ProfileText two_thread_profile()
{
    ProfileText p = two_event_profile();
    // [caller, callee, file, line, count, Ir, Dr]; fns 0 memset, 1 helper, 2 main, 3 work.
    p.set("calls", "[[1,0,0,23,2,500,1990]"
                   ",[2,1,0,13,1,900,1990]"
                   ",[2,3,0,11,1,4600,1800]"
                   ",[3,0,0,6,2,1000,2000]"
                   ",[3,3,0,5,1,1500,100]]");
    p.set("inclusive", "[[0,1500,3990],[1,900,1990],[2,5600,3800],[3,9000,3000]]");
    // Depth-first; each thread's root stays apart (nodes 0 and 5).
    p.set("paths", "[[null,2,0,100,10,5600,3800]"
                   ",[0,1,1,400,0,900,1990]"
                   ",[1,0,2,500,1990,500,1990]"
                   ",[0,3,1,4000,600,4600,1800]"
                   ",[3,0,1,600,1200,600,1200]"
                   ",[null,3,0,2500,300,4400,1200]"
                   ",[5,0,1,400,800,400,800]"
                   ",[5,3,1,1500,100,1500,100]]");
    p.set("threads", R"([{"tid":1)"
                     R"(,"calls":[[1,0,0,23,2,500,1990],[2,1,0,13,1,900,1990])"
                     R"(,[2,3,0,11,1,4600,1800],[3,0,0,6,1,600,1200]])"
                     R"(,"inclusive":[[0,1100,3190],[1,900,1990],[2,5600,3800],[3,4600,1800]])"
                     R"(,"roots":[0]})"
                     R"(,{"tid":2)"
                     R"(,"calls":[[3,0,0,6,1,400,800],[3,3,0,5,1,1500,100]])"
                     R"(,"inclusive":[[0,400,800],[3,4400,1200]])"
                     R"(,"roots":[5]}])");
    return p;
}

inline const char* const kCacheEvents =
    R"(["Ir","I1mr","ILmr","Dr","D1mr","DLmr","Dw","D1mw","DLmw","Bc","Bcm","Bi","Bim"])";
inline const char* const kWorkCosts = "8000,80,8,2000,100,20,1000,50,10,1000,50,100,25";
inline const char* const kMainCosts = "2000,20,2,0,0,0,1000,150,30,0,0,0,0";
inline const char* const kCacheTotals = "10000,100,10,2000,100,20,2000,200,40,1000,50,100,25";

// Profile text's default tables: fns 0 main (app.c:10), 1 work (app.c:3).
inline ProfileText cache_profile()
{
    using std::string;
    ProfileText p;
    p.set_meta("events", kCacheEvents);
    p.set_meta("cache", R"({"I1":[32768,8,64],"D1":[32768,8,64],"LL":[8388608,16,64],)"
                        R"("branches":true})");
    p.set_meta("totals", string("[") + kCacheTotals + "]");
    p.set("lines", string("[[0,1,11,") + kMainCosts + "],[1,1,4," + kWorkCosts + "]]");
    p.drop("instrs");
    p.drop_call_graph();
    return p;
}

// Only the branch predictors simulated (--cache-sim=no --branch-sim=yes):
// main has Bc 10 (1 mispredicted), work Bc 20 (2) and Bi 4 (1).
inline ProfileText branch_profile()
{
    ProfileText p;
    p.set_meta("events", R"(["Ir","Bc","Bcm","Bi","Bim"])");
    p.set_meta("cache", R"({"branches":true})");
    p.set_meta("totals", "[2485947,30,3,4,1]");
    p.set("lines", "[[0,1,11,1200,10,1,0,0],[1,1,4,2484747,20,2,4,1]]");
    p.drop("instrs").drop_call_graph();
    return p;
}

inline ProfileText cache_call_graph_profile()
{
    using std::string;
    ProfileText p = cache_profile();
    p.set("calls", string("[[0,1,1,12,1,") + kWorkCosts + "]]");
    p.set("inclusive", string("[[0,") + kCacheTotals + "],[1," + kWorkCosts + "]]");
    p.set("paths", string("[[null,0,0,") + kMainCosts + "," + kCacheTotals + "]" +
                       ",[0,1,1," + kWorkCosts + "," + kWorkCosts + "]]");
    return p;
}

} // namespace vgprof::test

#endif
