// SPDX-License-Identifier: GPL-2.0-or-later
// The thread chooser's entries: each thread of a profile recorded with
// --separate-threads=yes, with its totals, so that the chooser can say how
// much of the program each thread is without working out any thread's
// costs function by function.
#ifndef VGPROF_VIEWER_THREAD_CHOICE_HPP
#define VGPROF_VIEWER_THREAD_CHOICE_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vgprof::viewer {

struct ThreadChoice {
    uint32_t tid = 0;
    std::vector<uint64_t> totals;  // per event: the self costs of its path nodes
};

// One per thread of `profile`, by ascending tid; empty without per-thread
// graphs.
std::vector<ThreadChoice> thread_choices(const Profile& profile);

// "Thread 2 (44.0% of Ir)", the share of the program's total of `event`.
std::string thread_choice_label(const Profile& profile, const ThreadChoice& choice, size_t event);

} // namespace vgprof::viewer

#endif
