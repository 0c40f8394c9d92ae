// SPDX-License-Identifier: GPL-2.0-or-later
// The thread chooser's entries and their labels.
#include "thread_choice.hpp"

#include "vgprof/query.hpp"

#include <cstdio>
#include <map>

namespace vgprof::viewer {

std::vector<ThreadChoice> thread_choices(const Profile& profile)
{
    std::vector<ThreadChoice> out;
    std::map<uint32_t, size_t> index;
    for (const ThreadGraph& t : profile.threads()) {
        index.emplace(t.tid, out.size());
        out.push_back({t.tid, std::vector<uint64_t>(profile.num_events(), 0)});
    }
    // One pass over the tree for every thread rather than thread_costs
    // per thread: a program may have hundreds.
    const std::vector<uint32_t> tids = path_threads(profile);
    for (size_t node = 0; node < tids.size(); ++node) {
        const auto it = index.find(tids[node]);
        if (it == index.end())
            continue;
        std::vector<uint64_t>& totals = out[it->second].totals;
        const uint64_t* self = profile.path_self(node);
        for (size_t e = 0; e < totals.size(); ++e)
            totals[e] += self[e];
    }
    return out;
}

std::string thread_choice_label(const Profile& profile, const ThreadChoice& choice, size_t event)
{
    const uint64_t total = profile.meta().totals[event];
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%",
                  total == 0 ? 0.0 : 100.0 * double(choice.totals[event]) / double(total));
    return "Thread " + std::to_string(choice.tid) + " (" + share + " of " +
           profile.meta().events[event] + ")";
}

} // namespace vgprof::viewer
