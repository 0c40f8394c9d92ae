// SPDX-License-Identifier: GPL-2.0-or-later
// Questions asked of a loaded Profile that more than one companion needs:
// per-function totals, a deterministic ordering, number formatting.
#ifndef VGPROF_QUERY_HPP
#define VGPROF_QUERY_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vgprof {

// A function's self cost: one entry per event, in meta().events order.
struct FunctionCost {
    FnId fn;
    std::vector<uint64_t> self;
};

// The self cost of every function (the sum of its lines rows), one entry per
// row of functions(), in function id order.
std::vector<FunctionCost> function_self_costs(const Profile& profile);

// Drops functions whose self cost is zero for every event.
void drop_zero_costs(std::vector<FunctionCost>& costs);

// Orders by the cost of `event` (an event_index), highest first. Ties go by
// function name, then file path, line, object path and id, so the order does
// not depend on how the profile numbered its functions.
void sort_by_cost(std::vector<FunctionCost>& costs, const Profile& profile, size_t event);

// The per-event sum of `costs`.
std::vector<uint64_t> sum_costs(const std::vector<FunctionCost>& costs, size_t num_events);

// 2485947 -> "2,485,947", as cg_annotate prints counts.
std::string format_thousands(uint64_t n);

} // namespace vgprof

#endif
