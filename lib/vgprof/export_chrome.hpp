// SPDX-License-Identifier: GPL-2.0-or-later
// A profile's timeline in the Chrome trace event format (JSON), which
// Perfetto's UI (ui.perfetto.dev), chrome://tracing and speedscope open:
// each thread's calls as nested bars in instruction time.
#ifndef VGPROF_EXPORT_CHROME_HPP
#define VGPROF_EXPORT_CHROME_HPP

#include "vgprof/profile.hpp"

#include <iosfwd>

namespace vgprof {

// Writes `profile`'s timeline as one JSON object {"traceEvents":[...],
// "otherData":{...}}. The clock is the run's instructions, one instruction
// written as one microsecond (the format's unit for ts and dur). The events:
//  - metadata: the process's name (the program's file name) and label (the
//    clock; otherData holds it too, with the whole command), and
//    each thread's name, "thread N" (Valgrind's thread number);
//  - a complete event ("X") per span: pid the process, tid the thread, ts
//    its start, dur its length, name the function, args its cost in every
//    event (and "open": true when it was cut at the period's end);
//  - an instant event ("i", global scope) per mark, named by its label,
//    args its running totals and the heap live then;
//  - with the heap, a counter ("C") "heap live" (bytes, blocks) at the
//    period's bounds, at each mark and at each point of heap.timeline.
// Throws vgprof::Error, writing nothing, when the profile has no timeline
// or its spans do not nest.
void write_chrome_trace(std::ostream& out, const Profile& profile);

} // namespace vgprof

#endif
