// SPDX-License-Identifier: GPL-2.0-or-later
// Derived events: costs computed from the recorded events as weighted sums,
// such as the cache hits and the estimated cycles KCachegrind and Gungraun
// show. A derived event is added to a loaded Profile as one more event of
// every cost row, so that everything that reads costs (report, diff, the
// viewer) treats it as it treats a recorded one.
#ifndef VGPROF_DERIVED_HPP
#define VGPROF_DERIVED_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vgprof {

// One term of a formula: `weight` times the event `event`, a recorded event
// or a derived one defined before. An optional term (written `NAME?`) counts
// 0 in a profile that cannot have its event; any other term makes the
// derived event unavailable there.
struct DerivedTerm {
    int64_t weight = 1;
    std::string event;
    bool optional = false;
};

struct DerivedEvent {
    std::string name;
    std::string formula;  // as written: "Ir + 10*L1m + 100*LLm + 10*Bm?"
    std::vector<DerivedTerm> terms;
    std::string meaning;  // one line for people; empty for one defined by the user
};

// The built-in derived events, in the order they are added:
//   L1m  = I1mr + D1mr + D1mw          L1 misses (KCachegrind)
//   LLm  = ILmr + DLmr + DLmw          LL misses (KCachegrind)
//   Bm   = Bcm + Bim                   mispredicted branches (KCachegrind)
//   TotalRW = Ir + Dr + Dw             memory accesses (Gungraun)
//   L1hits  = TotalRW - L1m            (Gungraun)
//   LLhits  = L1m - LLm                (Gungraun)
//   RamHits = LLm                      (Gungraun)
//   EstimatedCycles = L1hits + 5*LLhits + 35*RamHits   (Gungraun's weights)
//   CEst = Ir + 10*L1m + 100*LLm + 10*Bm?              (KCachegrind's weights)
const std::vector<DerivedEvent>& builtin_derived_events();

// Parses "NAME=FORMULA": FORMULA is terms joined by + or -, each `N*EVENT`,
// `N EVENT` or `EVENT`, N a whole number, EVENT followed by `?` when
// optional. Throws vgprof::Error, the message starting with `option`, for a
// malformed definition.
DerivedEvent parse_derived_event(std::string_view definition, std::string_view option);

// The derived events `profile` can have: the built-ins, each replaced by
// the definition of the same name in `definitions`, then the other
// definitions in their order; those whose events the profile did not
// record (nor can derive) are left out. Throws vgprof::Error when a
// definition names a recorded event.
std::vector<DerivedEvent> available_derived_events(const Profile& profile,
                                                   const std::vector<DerivedEvent>& definitions);

// Whether `name` is a derived event of `available`.
bool is_derived(const std::vector<DerivedEvent>& available, std::string_view name);

// Adds the events of `names` (in that order, skipping any the profile
// already has) after the recorded ones: to meta.events and meta.totals and
// to every cost row of every table. Throws vgprof::Error naming the events
// the profile can derive when a name is not one of them, and when a user's
// formula comes out negative (it subtracts more than it adds).
void add_derived_events(Profile& profile, const std::vector<std::string>& names,
                        const std::vector<DerivedEvent>& definitions = {});

// Adds every derived event `profile` can have.
void add_all_derived_events(Profile& profile, const std::vector<DerivedEvent>& definitions = {});

} // namespace vgprof

#endif
