// SPDX-License-Identifier: GPL-2.0-or-later
// What a profile can show and, when it cannot, why, in the terms of the
// file it was read from: a callgrind file records calls but not whole call
// paths, a cachegrind file no calls at all, a DHAT file only the heap (and
// of its timeline only the peak and the end); a vgprof profile lacks what
// an option left out. The views say these instead of drawing nothing.
#ifndef VGPROF_VIEWER_CAPABILITIES_HPP
#define VGPROF_VIEWER_CAPABILITIES_HPP

#include "vgprof/profile.hpp"

#include <optional>
#include <string>

namespace vgprof::viewer {

// Why there is no call graph (calls between functions), or nullopt.
std::optional<std::string> why_no_call_graph(const Profile& profile);
// Why there is no call-path tree (what the call tree, bottom-up tree,
// sandwich and flame graph are drawn from), or nullopt.
std::optional<std::string> why_no_call_paths(const Profile& profile);
// Why there is no heap data, or nullopt.
std::optional<std::string> why_no_heap(const Profile& profile);
// Why there is no cache or branch simulation, or nullopt.
std::optional<std::string> why_no_simulation(const Profile& profile);
// Why there are no instruction costs (a DHAT file), or nullopt.
std::optional<std::string> why_no_costs(const Profile& profile);
// Why there is no timeline of calls and marks (format version 10, recorded
// with --timeline=yes), or nullopt.
std::optional<std::string> why_no_timeline(const Profile& profile);
// Whether the heap's timeline was recorded over the run (a DHAT file knows
// only the peak and the end, which are no timeline to draw).
bool has_heap_timeline(const Profile& profile);

// "D1mr: data reads that missed D1", what an event counts, for tooltips; the event's
// name alone when it is none of cachegrind's.
std::string event_description(const std::string& event);

} // namespace vgprof::viewer

#endif
