// SPDX-License-Identifier: GPL-2.0-or-later
// The phases of a profile's timeline: the stretches between consecutive
// marks (the period's beginning and end bound the first and the last), each
// with its costs, heap and longest calls. Costs and heap come from the
// marks' running totals by subtraction, so they are exact whatever spans
// the threshold dropped.
#ifndef VGPROF_TIMELINE_HPP
#define VGPROF_TIMELINE_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vgprof {

struct TimelinePhase {
    std::string from, to;       // the labels of its bounds; empty: the period's beginning / end
    uint64_t start = 0, end = 0;
    std::vector<uint64_t> costs;    // per event: the totals' difference
    uint64_t live_bytes = 0, live_blocks = 0;   // at its end
    int64_t bytes_change = 0, blocks_change = 0;
    // The longest spans lying within it (at most `top`), in the order they
    // started: indices into Timeline::spans.
    std::vector<size_t> spans;
};

// The phases of `timeline`; an empty last phase (the profile ends at its
// last mark, as a dump does) is left out. `top`: spans kept per phase.
std::vector<TimelinePhase> timeline_phases(const Timeline& timeline, size_t top);

// Whether span a of a thread was entered before span b: it started
// earlier, or at the same instruction it is the caller (less deep), or
// the longer.
bool entered_before(const TimelineSpan& a, const TimelineSpan& b);

// One thread's spans in the order they were entered (a caller before the
// calls it made), for the exports that draw a thread's calls as nested
// bars.
struct ThreadSpans {
    uint32_t thread = 0;
    std::vector<size_t> spans;   // indices into Timeline::spans
};

// Each thread's spans, threads in ascending order. Throws vgprof::Error
// naming both calls when two spans of a thread overlap without one holding
// the other, which no run records but a reader of the exports refuses.
std::vector<ThreadSpans> spans_by_thread(const Profile& profile);

// The profile's timeline; throws vgprof::Error saying how to record one
// when it has none, for `what` ("--format chrome").
const Timeline& require_timeline(const Profile& profile, const std::string& what);

} // namespace vgprof

#endif
