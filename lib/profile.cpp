// SPDX-License-Identifier: GPL-2.0-or-later
// Lookups on the Profile model that need more than an inline accessor.
#include "vgprof/profile.hpp"

#include <algorithm>

namespace vgprof {

Profile::Profile(ProfileTables tables, const detail::Checked& checked)
    : t_(std::move(tables)), graph_(std::move(t_.graph), checked)
{
    threads_.reserve(t_.threads.size());
    for (ThreadTables& thread : t_.threads)
        threads_.push_back(
            ThreadGraph{CallGraph(std::move(thread.graph), checked), thread.tid,
                        std::move(thread.roots)});
    t_.threads.clear();
}

ProfileTables Profile::take_tables() &&
{
    ProfileTables t = std::move(t_);
    t.graph = std::move(graph_).take_tables();
    t.threads.reserve(threads_.size());
    for (ThreadGraph& thread : threads_)
        t.threads.push_back(
            ThreadTables{thread.tid, std::move(thread.roots), std::move(thread).take_tables()});
    *this = Profile();
    return t;
}

void Profile::drop_call_paths()
{
    // Swapped with empty vectors, which gives their memory back (clear()
    // keeps it).
    std::vector<PathNode>().swap(t_.paths);
    std::vector<uint64_t>().swap(t_.path_costs);
    for (ThreadGraph& thread : threads_)
        std::vector<PathId>().swap(thread.roots);
}

std::optional<size_t> Profile::event_index(std::string_view event) const
{
    const auto& events = t_.meta.events;
    for (size_t i = 0; i < events.size(); ++i)
        if (events[i] == event)
            return i;
    return std::nullopt;
}

const uint64_t* CallGraph::fn_inclusive(FnId fn) const
{
    const std::vector<FnId>& fns = t_.inclusive_fns;
    const auto it = std::lower_bound(fns.begin(), fns.end(), fn);
    if (it == fns.end() || *it != fn)
        return nullptr;
    return &t_.inclusive_costs[size_t(it - fns.begin()) * t_.num_events];
}

const ThreadGraph* Profile::thread(uint32_t tid) const
{
    const auto it = std::lower_bound(threads_.begin(), threads_.end(), tid,
                                     [](const ThreadGraph& t, uint32_t id) { return t.tid < id; });
    return it != threads_.end() && it->tid == tid ? &*it : nullptr;
}

} // namespace vgprof
