// SPDX-License-Identifier: GPL-2.0-or-later
// Per-function aggregation and ordering over the Profile model.
#include "vgprof/query.hpp"

#include <algorithm>
#include <tuple>

namespace vgprof {

std::vector<FunctionCost> function_self_costs(const Profile& profile)
{
    const size_t events = profile.num_events();
    std::vector<FunctionCost> costs(profile.functions().size());
    for (size_t i = 0; i < costs.size(); ++i) {
        costs[i].fn = FnId(uint32_t(i));
        costs[i].self.assign(events, 0);
    }
    // Sums cannot overflow: the loader has checked that each event's total
    // over all lines fits in 64 bits.
    const auto& lines = profile.lines();
    for (size_t row = 0; row < lines.size(); ++row) {
        const uint64_t* cost = profile.line_cost(row);
        std::vector<uint64_t>& self = costs[lines[row].fn.index()].self;
        for (size_t e = 0; e < events; ++e)
            self[e] += cost[e];
    }
    return costs;
}

void drop_zero_costs(std::vector<FunctionCost>& costs)
{
    const auto all_zero = [](const FunctionCost& c) {
        return std::all_of(c.self.begin(), c.self.end(), [](uint64_t n) { return n == 0; });
    };
    costs.erase(std::remove_if(costs.begin(), costs.end(), all_zero), costs.end());
}

void sort_by_cost(std::vector<FunctionCost>& costs, const Profile& profile, size_t event)
{
    const auto key = [&](const FunctionCost& c) {
        const Function& f = profile.function(c.fn);
        return std::tie(profile.str(f.name), profile.file_path(f.file), f.line,
                        profile.obj_path(f.obj), c.fn);
    };
    std::sort(costs.begin(), costs.end(), [&](const FunctionCost& a, const FunctionCost& b) {
        if (a.self[event] != b.self[event])
            return a.self[event] > b.self[event];
        return key(a) < key(b);
    });
}

std::vector<uint64_t> sum_costs(const std::vector<FunctionCost>& costs, size_t num_events)
{
    std::vector<uint64_t> sum(num_events, 0);
    for (const FunctionCost& c : costs)
        for (size_t e = 0; e < num_events; ++e)
            sum[e] += c.self[e];
    return sum;
}

std::string format_thousands(uint64_t n)
{
    const std::string digits = std::to_string(n);
    std::string out;
    out.reserve(digits.size() + digits.size() / 3);
    for (size_t i = 0; i < digits.size(); ++i) {
        // A separator goes before every group of three counted from the right.
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace vgprof
