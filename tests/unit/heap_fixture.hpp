// SPDX-License-Identifier: GPL-2.0-or-later
// A heap section for the unit tests' profiles: two allocation sites with
// every figure set, a timeline and the peak and end snapshots, on the
// format's sample (fns 0 main, 1 work; file 1 /src/app.c).
//
// The fixture, worked out by hand:
//   site 0: allocated by work (app.c:5) called from main (app.c:20):
//           1000 bytes in 10 blocks of 100, lifetimes 3000 (300 each:
//           short-lived), 300 bytes in 3 blocks live at the peak, 100 in 1
//           never freed, never read, 1000 bytes written; per offset: the
//           first 50 bytes accessed twice, the other 50 never.
//   site 1: allocated by main (app.c:22): one block of 2000 bytes, live
//           90000 instructions, live at the peak, freed; 4000 bytes read,
//           2000 written (3 accesses per byte).
//   totals: 3000 bytes in 11 blocks; peak 2300 bytes in 4 blocks at 500;
//           end 100 bytes in 1 block at 100000; 4000 read, 3000 written.
#ifndef VGPROF_TESTS_HEAP_FIXTURE_HPP
#define VGPROF_TESTS_HEAP_FIXTURE_HPP

#include "profile_text.hpp"

#include <string>

namespace vgprof::test {

inline const char* const kTotals =
    R"({"bytes":3000,"blocks":11,"peak_bytes":2300,"peak_blocks":4,"peak_time":500,)"
    R"("end_bytes":100,"end_blocks":1,"end_time":100000,"reads":4000,"writes":3000})";
inline const char* const kFrames = "[[4198600,1,1,5],[4198700,0,1,20],[4198800,0,1,22]]";
inline const char* const kSite0 = "[[0,1],1000,10,3000,400,4,300,3,100,1,0,1000,[50,2,50,0]]";
inline const char* const kSite1 = "[[2],2000,1,90000,2000,1,2000,1,0,0,4000,2000,null]";
inline const char* const kTimeline = R"({"width":4,"samples":[[100,400,4],[500,2300,4],[900,100,1]]})";
inline const char* const kSnapshots =
    R"([{"kind":"peak","time":500,"bytes":2300,"blocks":4,"sites":[[1,2000,1],[0,300,3]]},)"
    R"({"kind":"end","time":100000,"bytes":100,"blocks":1,"sites":[[0,100,1]]}])";

inline std::string heap_json(const std::string& totals = kTotals, const std::string& frames = kFrames,
                      const std::string& sites = std::string("[") + kSite0 + "," + kSite1 + "]",
                      const std::string& timeline = kTimeline,
                      const std::string& snapshots = kSnapshots)
{
    return R"({"depth":12,"totals":)" + totals + R"(,"frames":)" + frames + R"(,"sites":)" +
           sites + R"(,"timeline":)" + timeline + R"(,"snapshots":)" + snapshots + "}";
}

inline ProfileText with_heap(const std::string& heap = heap_json())
{
    ProfileText t;
    t.set("vgprof", "3").set("heap", heap);
    return t;
}

// The whole run's figures of the fixture as version 9 writes them
// (`whole_run`): 2900 bytes in 10 blocks freed.
inline const char* const kWholeRun =
    R"({"bytes":3000,"blocks":11,"freed_bytes":2900,"freed_blocks":10,"peak_bytes":2300,)"
    R"("peak_blocks":4,"peak_time":500,"end_bytes":100,"end_blocks":1,"end_time":100000,)"
    R"("reads":4000,"writes":3000})";

// The fixture in the period after a zero at instruction 50: site 1's
// block of 2000 bytes was live then (allocated before, freed within);
// site 0's 10 blocks were allocated within. 2000 + 1000 - 2900 = 100.
inline const char* const kAfterZero =
    R"({"start_time":50,"start_bytes":2000,"start_blocks":1,"bytes":1000,"blocks":10,)"
    R"("freed_bytes":2900,"freed_blocks":10,"peak_bytes":2300,"peak_blocks":4,"peak_time":500,)"
    R"("end_bytes":100,"end_blocks":1,"end_time":100000,"reads":4000,"writes":3000})";
inline const std::string kSiteFromBefore = "[[2],0,0,0,2000,1,2000,1,0,0,4000,2000,null]";
inline const std::string kSitesAfterZero = std::string("[") + kSite0 + "," + kSiteFromBefore + "]";

} // namespace vgprof::test

#endif
