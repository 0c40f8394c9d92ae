// SPDX-License-Identifier: GPL-2.0-or-later
// A profile in speedscope's own file format (its JSON "file-format-schema"),
// which the speedscope app opens offline: flame graphs, a left-heavy view and
// a table of functions ("sandwich"), one profile per event.
#ifndef VGPROF_EXPORT_SPEEDSCOPE_HPP
#define VGPROF_EXPORT_SPEEDSCOPE_HPP

#include "vgprof/profile.hpp"

#include <iosfwd>

namespace vgprof {

// Writes `profile` as one speedscope file holding "sampled" profiles:
//  - one per recorded event (Ir, I1mr...), unit "none": a sample per node of
//    the call-path tree with a self cost of the event, its stack the
//    functions from the root down to the node and its weight that cost, so
//    the flame graph is the exact tree;
//  - with heap data, "heap: bytes allocated" and "heap: bytes at t-gmax",
//    unit "bytes": a sample per allocation site, its stack the site's
//    (caller_frames, outermost first) and its weight the site's bytes
//    allocated, or live at the peak.
//  - with per-thread graphs (--separate-threads=yes), after those, one per
//    event and thread, "thread N: EVENT": the event's samples of the nodes
//    below the thread's roots (path_threads), so each thread's profile
//    adds up to its own total (thread_costs) and speedscope's profile
//    chooser steps from thread to thread.
// The frames are shared: one per function (name; source file and line, or
// the object when there is no source), [truncated] last. Throws
// vgprof::Error when the profile has neither a call-path tree nor a heap.
void write_speedscope(std::ostream& out, const Profile& profile);

// Writes `profile`'s timeline as one speedscope file holding an "evented"
// profile per thread, "thread N: instructions in time order", unit "none":
// each span a frame opened at its start and closed at its end on the run's
// instruction clock, so that speedscope's Time Order view draws the
// thread's calls as they ran (a span cut open ends at the period's end).
// speedscope's evented profiles have one weight, time, so the other
// events' costs are not in it. The frames are write_speedscope's. Throws
// vgprof::Error, writing nothing, when the profile has no timeline or its
// spans do not nest.
void write_speedscope_timeline(std::ostream& out, const Profile& profile);

} // namespace vgprof

#endif
