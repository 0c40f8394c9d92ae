// SPDX-License-Identifier: GPL-2.0-or-later
// What an inlined function cost (format version 7): its code, counted in the
// functions it was inlined into, found through the inline tables; and the
// calls made from it, found in the call-path tree, where such calls hang
// below a node of the inlined function.
#ifndef VGPROF_INLINED_HPP
#define VGPROF_INLINED_HPP

#include "vgprof/profile.hpp"
#include "vgprof/query.hpp"

#include <cstdint>
#include <vector>

namespace vgprof {

struct InlinedFunctionCost {
    // Its own code: the inlined code whose innermost inlined call is one
    // of this function.
    std::vector<uint64_t> self;
    // Its code with what was inlined into it, and the calls made from it.
    std::vector<uint64_t> inclusive;
    // Where it was inlined: the function whose code holds the call (a real
    // function, or another inlined one), the call's line, and what the
    // function's code cost there (count 0: an inlined call is no call).
    std::vector<CallCost> inlined_into;
    // The calls made from its code, by callee: their count and inclusive
    // cost, from the call-path tree.
    std::vector<CallCost> callees;
};

// The costs of an inlined function (Function::inlined) `fn`.
InlinedFunctionCost inlined_function_cost(const Profile& profile, FnId fn);

// The self and inclusive costs of every inlined function at once, as
// inlined_function_cost gives them, into `costs` (function_costs' rows,
// one per function): in one pass over the inline tables and the call-path
// tree, not one per function. The inclusive costs only where `costs` has
// them (a profile with a call graph).
void set_inlined_costs(const Profile& profile, std::vector<FunctionCost>& costs);

} // namespace vgprof

#endif
