// SPDX-License-Identifier: GPL-2.0-or-later
// Comparing two profiles of one program: the change of each event's total
// and of each function's self and inclusive cost, what makes the figures
// hard to compare (different caches, programs or events), and the CI
// thresholds (`Ir=+1%`, `Ir=+100000`) those changes are checked against.
#ifndef VGPROF_DIFF_HPP
#define VGPROF_DIFF_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vgprof {

// One cost in the base profile and in the new one.
struct CostDelta {
    uint64_t base = 0;
    uint64_t now = 0;

    // now - base, negative for a decrease (signed_delta: costs beyond 2^63
    // saturate).
    int64_t delta() const;
    // delta() / base as a fraction (0.05: 5% more); nullopt when base is 0,
    // where a change has no meaningful ratio.
    std::optional<double> relative() const;
};

// A function of either profile. Function ids differ between profiles, so a
// function is matched by its function_match_key (vgprof/identity.hpp).
struct FunctionDelta {
    std::string name;
    std::string file;    // source path; "???" when unknown
    std::string object;  // object path, the new profile's when in both
    bool in_base = false, in_now = false;
    // One entry per DiffResult::events.
    std::vector<CostDelta> self;
    // One entry per DiffResult::events when both profiles have a call graph
    // (DiffResult::inclusive), empty otherwise.
    std::vector<CostDelta> inclusive;
};

struct DiffResult {
    // The events both profiles recorded, in the new profile's order; every
    // cost vector below has one entry per event here.
    std::vector<std::string> events;
    std::vector<CostDelta> totals;
    // Whether both profiles have a call graph, so inclusive costs compare.
    bool inclusive = false;
    // Every function with a cost in either profile, the largest change of
    // the first event's self cost (by magnitude) first; ties by name, file
    // and object, so the order depends on nothing but the figures.
    std::vector<FunctionDelta> functions;
    // Why the figures may not compare: different meta.cache, different
    // meta.argv[0], different events, a call graph in only one profile.
    std::vector<std::string> warnings;
};

// Compares `now` against `base`. Throws vgprof::Error when the profiles
// have no event in common.
DiffResult diff_profiles(const Profile& base, const Profile& now);

// --- thresholds ----------------------------------------------------------------

// One item of a threshold SPEC: an increase of `event` above which the
// threshold is exceeded, relative (`Ir=+1%`) or absolute (`Ir=+100000`).
struct Threshold {
    std::string text;   // the item as given, "Ir=+1%"
    std::string event;
    bool relative = false;
    double percent = 0;     // relative: exceeded when the increase is above this
    uint64_t absolute = 0;  // absolute: exceeded when the increase is above this

    // Whether going from cost.base to cost.now exceeds the threshold. A rise
    // from 0 exceeds every relative threshold; a decrease exceeds none.
    bool exceeded_by(const CostDelta& cost) const;
};

// Parses SPEC, a comma-separated list of EVENT=+N% and EVENT=+N items (the
// `+` may be left out). Throws vgprof::Error, the message starting with
// `option` ("--fail-above"), for an empty list or item, a missing event or
// `=`, a negative or malformed number.
std::vector<Threshold> parse_thresholds(std::string_view spec, std::string_view option);

// A threshold exceeded by a total or by one function's self cost.
struct Breach {
    const Threshold* threshold;        // an element of the list checked
    const FunctionDelta* function;     // nullptr: the event's total
    CostDelta cost;
};

// The thresholds `diff` exceeds: each total and, with `per_function`, each
// function's self cost, in threshold order, totals before functions.
// Throws vgprof::Error when a threshold names an event not in diff.events.
std::vector<Breach> exceeded_thresholds(const DiffResult& diff,
                                        const std::vector<Threshold>& thresholds,
                                        bool per_function);

} // namespace vgprof

#endif
