// SPDX-License-Identifier: GPL-2.0-or-later
// Questions asked of a loaded Profile that more than one companion needs:
// per-function self and inclusive costs, callers and callees, finding a
// function by name, a deterministic ordering. (How numbers and functions
// read as text is vgprof/format.hpp's and vgprof/identity.hpp's.)
// The call-graph questions take a CallGraph, so they answer for the whole
// program (profile.call_graph(), what the Profile overloads use) or for one
// thread (an element of profile.threads()) alike.
#ifndef VGPROF_QUERY_HPP
#define VGPROF_QUERY_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vgprof {

// Which of a function's costs a report orders and thresholds by: what its
// own instructions cost, or everything that ran while it was on the stack.
enum class CostKind { self, inclusive };

// A function's costs: one entry per event, in meta().events order.
struct FunctionCost {
    FnId fn;
    std::vector<uint64_t> self;
    // Empty unless filled by function_costs() from a profile with a call graph.
    std::vector<uint64_t> inclusive;
};

// The self cost of every function (the sum of its lines rows), one entry per
// row of functions(), in function id order.
std::vector<FunctionCost> function_self_costs(const Profile& profile);

// As function_self_costs, plus each function's inclusive cost when the
// profile has a call graph (zeros for a function without an inclusive row).
std::vector<FunctionCost> function_costs(const Profile& profile);

// As function_self_costs (the whole program's), plus each function's
// inclusive cost in `graph`, a graph of `profile`.
std::vector<FunctionCost> function_costs(const Profile& profile, const CallGraph& graph);

// Thread `thread`'s costs: each function's self cost in it (from the
// call-path tree below the thread's roots, the costs of the nodes of the
// function, as callgrind's per-thread files have them) and its inclusive
// cost in the thread's graph. `totals` gets the thread's own totals, and
// `untold` the part of them spent below a [truncated] node of the tree,
// which no function's self cost holds (all zero unless --max-path-nodes
// was reached).
struct ThreadCosts {
    std::vector<FunctionCost> functions;
    std::vector<uint64_t> totals, untold;
};
ThreadCosts thread_costs(const Profile& profile, const ThreadGraph& thread);

// The thread of each node of the call-path tree, by PathId: the tid of the
// thread whose roots hold the node's root, 0 for a profile without
// per-thread graphs. What splits the tree's samples by thread (the
// exports, the viewer's thread chooser).
std::vector<uint32_t> path_threads(const Profile& profile);

// The graph of thread `tid`, for an option (`option`, "--thread") that
// names one. Throws vgprof::Error, its message to be prefixed with the
// profile's name, when the profile has no per-thread graphs (saying it was
// recorded without --separate-threads=yes) or none of that thread (listing
// those it has).
const ThreadGraph& thread_for_option(const Profile& profile, uint32_t tid, const char* option);

// The inclusive cost of `fn`, one entry per event; zeros when the profile
// (or `graph`) has no inclusive row for it (or there is no call graph).
std::vector<uint64_t> inclusive_cost(const Profile& profile, FnId fn);
std::vector<uint64_t> inclusive_cost(const CallGraph& graph, FnId fn);

// Drops functions whose self and inclusive costs are zero for every event.
void drop_zero_costs(std::vector<FunctionCost>& costs);

// Orders by the self or inclusive cost of `event` (an event_index), highest
// first. Ties go by function name, then file path, line, object path and id,
// so the order does not depend on how the profile numbered its functions.
// Sorting by CostKind::inclusive needs costs from function_costs() on a
// profile with a call graph.
void sort_by_cost(std::vector<FunctionCost>& costs, const Profile& profile, size_t event,
                  CostKind by = CostKind::self);

// The per-event sum of the self costs in `costs`. (Inclusive costs overlap,
// a caller's containing its callees', so they have no meaningful sum.)
std::vector<uint64_t> sum_costs(const std::vector<FunctionCost>& costs, size_t num_events);

// --- callers and callees ----------------------------------------------------

// Where a call was made: the source location of the calling instruction.
struct CallSite {
    FileId file;
    uint32_t line = 0;

    friend bool operator==(CallSite a, CallSite b) { return a.file == b.file && a.line == b.line; }
    friend bool operator!=(CallSite a, CallSite b) { return !(a == b); }
};

// The calls between a function and one neighbour in the call graph.
struct CallCost {
    FnId fn;                       // the caller (callers_of) or the callee (callees_of)
    std::optional<CallSite> site;  // the call site; nullopt when merged over sites
    uint64_t count = 0;            // number of calls
    // Inclusive cost of those calls, one entry per event. A recursive
    // function's edges count nested calls once per level, as callgrind's do.
    std::vector<uint64_t> inclusive;
};

// Whether callers_of/callees_of give one row per neighbour function, summed
// over its call sites, or one row per (neighbour, call site).
enum class CallSites { merge, separate };

// The calls into `fn` (the `calls` rows whose callee is fn), by caller, in
// (caller id, call site) order. Empty without a call graph. A function that
// calls itself is among its own callers.
std::vector<CallCost> callers_of(const Profile& profile, FnId fn,
                                 CallSites sites = CallSites::merge);
std::vector<CallCost> callers_of(const CallGraph& graph, FnId fn,
                                 CallSites sites = CallSites::merge);

// The calls `fn` made (the `calls` rows whose caller is fn), by callee, in
// (callee id, call site) order. Empty without a call graph.
std::vector<CallCost> callees_of(const Profile& profile, FnId fn,
                                 CallSites sites = CallSites::merge);
std::vector<CallCost> callees_of(const CallGraph& graph, FnId fn,
                                 CallSites sites = CallSites::merge);

// Orders by the inclusive cost of `event`, highest first; ties by function
// as sort_by_cost does, then by call site (file path, line).
void sort_by_cost(std::vector<CallCost>& calls, const Profile& profile, size_t event);

// --- miss rates (profiles with cache or branch events) -------------------------

// A rate derived from cachegrind's events: the sum of the `misses` events
// over the sum of the `references` events (event indices), as cachegrind's
// summary computes its miss rates.
struct MissRate {
    std::string name;     // "D1" (a summary rate) or "D1mr/Dr" (one miss event's)
    std::string formula;  // "(D1mr+D1mw)/(Dr+Dw)"
    std::vector<size_t> misses, references;

    // The rate of `costs` (one entry per event), from 0 to 1; nullopt when
    // there were no references, so nothing could miss.
    std::optional<double> of(const std::vector<uint64_t>& costs) const;
};

// The rates cachegrind's summary prints whose events the profile recorded,
// in its order: "I1" I1mr/Ir, "LLi" ILmr/Ir, "D1" (D1mr+D1mw)/(Dr+Dw),
// "LLd" (DLmr+DLmw)/(Dr+Dw), "LL" (ILmr+DLmr+DLmw)/(Ir+Dr+Dw) and
// "Mispred" (Bcm+Bim)/(Bc+Bi). Empty for a profile of Ir alone.
std::vector<MissRate> summary_miss_rates(const Profile& profile);

// The rate of a miss event over the event whose misses it counts: I1mr and
// ILmr over Ir, D1mr and DLmr over Dr, D1mw and DLmw over Dw, Bcm over Bc,
// Bim over Bi ("D1mr/Dr"). nullopt for any other event.
std::optional<MissRate> event_miss_rate(const Profile& profile, size_t event);

// Whether two profiles simulated the same caches and branch predictors
// (meta.cache), without which their miss counts do not compare.
bool same_simulation(const std::optional<CacheConfig>& a, const std::optional<CacheConfig>& b);

// --- finding functions --------------------------------------------------------

// The function a person means by `spec`, in the order tried:
// - the one named exactly `spec`;
// - a name qualified as vgprof prints it: with its object ("malloc
//   [libc.so.6]", the path or its basename), its file and line ("work
//   (src/app.c:3)", the file as printed or any ending of it at a '/'),
//   both, and " (inlined)" for an inlined function; "0x1f30 [libfoo.so]"
//   for the code without a symbol at that address of the object;
// - the body of async fn `spec` ("serve_conn" names
//   "tsrv::serve_conn::{async_fn#0}", also when "tsrv::serve_conn", which
//   only makes its future, is there too);
// - the one whose name is `spec` below a path ("serve_conn" names
//   "tsrv::serve_conn");
// - the only one whose name contains `spec`, which the choice's note then
//   says, so that the caller can tell the user what was chosen.
// Throws vgprof::Error when none matches, and when several do, listing the
// first 10 of them (by name, then file, line and object) as labels that
// select each.
struct FunctionChoice {
    FnId fn;
    std::string note;  // empty when `spec` names the function itself
};
FunctionChoice choose_function(const Profile& profile, std::string_view spec);
FnId find_function(const Profile& profile, std::string_view spec);

} // namespace vgprof

#endif
