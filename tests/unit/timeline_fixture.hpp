// SPDX-License-Identifier: GPL-2.0-or-later
// A profile with a timeline (format version 10) for the tests of the
// loader, the writer and the exports: the format page's sample (main calls
// work once) with main's span cut open at the end, work's span and two
// marks around work.
#ifndef VGPROF_TESTS_TIMELINE_FIXTURE_HPP
#define VGPROF_TESTS_TIMELINE_FIXTURE_HPP

#include "profile_text.hpp"

#include <string>

namespace vgprof::test {

inline const char* const kSpans =
    "[[1,1,1,1,600,2485347,0,2484747],[1,0,0,0,0,2485947,1,2485947]]";
inline const char* const kMarks =
    R"([[600,1,"work begins",0,0,600],[2485347,1,"work done",4000,4,2485347]])";

// The timeline member, with `spans`, `marks` and `more` members in place of
// the sample's.
inline std::string timeline(const std::string& spans = kSpans, const std::string& marks = kMarks,
                            const std::string& more = "")
{
    return R"({"clock":"instructions","threshold":2,"max_spans":100,"begin":[0,0,0,0],)"
           R"("end":[2485947,0,0,2485947],"spans":)" +
           spans + R"(,"dropped":0,"marks":)" + marks + R"(,"marks_dropped":0)" + more + "}";
}

inline ProfileText with_timeline(const std::string& text, const char* version = "10")
{
    ProfileText p;
    p.set("vgprof", version);
    p.set("calls", "[[0,1,1,12,4198690,1,2484747]]");
    p.set("timeline", text);
    return p;
}

} // namespace vgprof::test

#endif
