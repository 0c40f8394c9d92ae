// SPDX-License-Identifier: GPL-2.0-or-later
// Adding up the profiles of several runs, as cg_merge adds up cachegrind's
// outputs: one profile whose every cost is the sum of the runs' costs.
// Function ids differ between profiles, so everything is matched by name:
// strings, objects and files by their text, functions by (object path, name,
// file path, line), call-path nodes by the stack of functions from their
// root (and, with per-thread graphs, the thread).
#ifndef VGPROF_MERGE_HPP
#define VGPROF_MERGE_HPP

#include "vgprof/profile.hpp"

#include <memory>
#include <string>
#include <vector>

namespace vgprof {

namespace detail { class Merger; }

// Takes the profiles one at a time, so that only the sum and the profile
// being added need be in memory.
class ProfileMerger {
public:
    ProfileMerger();
    ~ProfileMerger();
    ProfileMerger(const ProfileMerger&) = delete;
    ProfileMerger& operator=(const ProfileMerger&) = delete;

    // Adds `profile`'s costs; `name` (its path) stands for it in messages.
    // Throws vgprof::Error, naming it and the first profile added, when its
    // events or its simulated caches (meta.cache) differ from the first
    // one's, and when a sum would exceed 2^64-1.
    void add(const Profile& profile, const std::string& name);

    // What the sum leaves out because some profiles added have it and some
    // do not (the call graph, per-instruction costs, per-thread graphs),
    // naming the first profile without it, and the heap data, which it
    // always leaves out (DHAT's figures of one run, its peak, the times and
    // the timeline, do not add up across runs), naming the first profile
    // with it, and the data objects (the `data` section, whose heap objects
    // are the heap's sites), likewise; one sentence each.
    std::vector<std::string> notes() const;

    // The sum of the profiles added (at least one), a format version 4
    // profile whose meta.merged lists the runs they recorded. Its meta's
    // tool versions, argv, options, exit and dump are the first profile's,
    // and meta.run is empty (it is no one process's).
    Profile result();

private:
    std::unique_ptr<detail::Merger> merger_;
};

} // namespace vgprof

#endif
