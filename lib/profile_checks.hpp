// SPDX-License-Identifier: GPL-2.0-or-later
// The invariants of docs/profile-format.md that hold between tables (sums,
// totals, bounds), checked on ProfileTables. Shared by the loader, which
// runs each at its place in its order of checks, and by ProfileBuilder,
// which runs them on what the other readers built. Each throws
// vgprof::Error naming the profile and the place as a path of the format.
// Internal to libvgprof.
#ifndef VGPROF_PROFILE_CHECKS_HPP
#define VGPROF_PROFILE_CHECKS_HPP

#include "text.hpp"
#include "vgprof/profile.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace vgprof::detail {

// A sum that remembers passing 2^64-1, so a message can say so instead of
// showing a wrapped-round number.
struct CheckedSum {
    uint64_t value = 0;
    bool overflow = false;

    void add(uint64_t n) { overflow |= __builtin_add_overflow(value, n, &value); }
    bool operator==(const CheckedSum& o) const
    {
        return !overflow && !o.overflow && value == o.value;
    }
    std::string str() const { return overflow ? std::string("more than 2^64-1") : cat(value); }
};

// The most frames an allocation stack may have, inlined frames included.
// Valgrind unwinds at most 500 addresses (--num-callers), vgprof's tool 200
// (--heap-depth); the bound keeps what the exporters write of a site's stack
// in proportion, a massif tree indenting each frame by its depth.
inline constexpr size_t kMaxSiteFrames = 4096;

// The most events a profile records, and the longest name one may have:
// Valgrind's tools record at most some twenty events, with names of a few
// letters; each event is a column of every table the viewer draws, which
// Dear ImGui bounds in number and in the length of their titles.
inline constexpr size_t kMaxEvents = 64;
inline constexpr size_t kMaxEventName = 256;

// Why `events` cannot be a profile's, or an empty string when they can.
std::string events_problem(size_t events, const std::string& longest_name);

// Why Valgrind would not simulate a cache of this geometry (its rules for
// --I1, --D1 and --LL: each figure fits a C int, the line is a power of
// two of at least 16 bytes, the sets a power of two, the size above the
// line size), or an empty string when it would. Readers show the figures
// on the geometry's word, dividing by them.
std::string cache_geometry_problem(const CacheGeometry& g);

// "NAME: PLACE: MESSAGE", or "NAME: MESSAGE" without a place.
[[noreturn]] void fail_at(const std::string& name, const std::string& place,
                          const std::string& message);

// meta.totals is the per-event sum of the lines.
void check_line_totals(const ProfileTables& t, const std::string& name);

// Each path node's inclusive cost is its self cost plus its children's
// inclusive costs.
void check_path_inclusive_costs(const ProfileTables& t, const std::string& name);

// The path nodes' self costs add up to meta.totals.
void check_path_self_totals(const ProfileTables& t, const std::string& name);

// A site's live figures do not exceed its own highest, which does not
// exceed what it allocated unless the period began with blocks live;
// `site` is its row in heap.sites.
void check_site_bounds(const HeapSite& s, size_t site, const std::string& name,
                       bool began_with_live_blocks);

// The sites add up to heap.totals.
void check_heap_sums(const Heap& heap, const std::string& name);

} // namespace vgprof::detail

#endif
