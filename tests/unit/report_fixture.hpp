// SPDX-License-Identifier: GPL-2.0-or-later
// A small two-event profile for the query and report tests. The numbers
// are chosen so every share is easy to work out by hand:
//   function  Ir                 Dr
//   work      5000+3000 = 8000   600+400 = 1000
//   memset    1500               3990
//   helper    300+100   = 400    0+0     = 0
//   main      60+40     = 100    6+4     = 10
//   total     10000              5000
#ifndef VGPROF_TESTS_REPORT_FIXTURE_HPP
#define VGPROF_TESTS_REPORT_FIXTURE_HPP

#include "profile_text.hpp"

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
    p.set_meta("events", R"(["Ir","Dr"])");
    p.set_meta("totals", "[10000,5000]");
    return p;
}

} // namespace vgprof::test

#endif
