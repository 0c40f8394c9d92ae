// SPDX-License-Identifier: GPL-2.0-or-later
// Lookups on the Profile model that need more than an inline accessor.
#include "vgprof/profile.hpp"

#include <algorithm>

namespace vgprof {

std::optional<size_t> Profile::event_index(std::string_view event) const
{
    const auto& events = meta_.events;
    for (size_t i = 0; i < events.size(); ++i)
        if (events[i] == event)
            return i;
    return std::nullopt;
}

const uint64_t* CallGraph::fn_inclusive(FnId fn) const
{
    const auto it = std::lower_bound(inclusive_fns_.begin(), inclusive_fns_.end(), fn);
    if (it == inclusive_fns_.end() || *it != fn)
        return nullptr;
    return &inclusive_costs_[size_t(it - inclusive_fns_.begin()) * num_events_];
}

const ThreadGraph* Profile::thread(uint32_t tid) const
{
    const auto it = std::lower_bound(threads_.begin(), threads_.end(), tid,
                                     [](const ThreadGraph& t, uint32_t id) { return t.tid < id; });
    return it != threads_.end() && it->tid == tid ? &*it : nullptr;
}

} // namespace vgprof
