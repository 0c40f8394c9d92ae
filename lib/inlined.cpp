// SPDX-License-Identifier: GPL-2.0-or-later
// An inlined function's costs, from the inline tables and the call-path tree
// (see vgprof/inlined.hpp).
#include "vgprof/inlined.hpp"

#include <map>
#include <tuple>

namespace vgprof {

namespace {

void add(std::vector<uint64_t>& sum, const uint64_t* cost)
{
    for (size_t e = 0; e < sum.size(); ++e)
        sum[e] += cost[e];
}

// The outermost of the inlined calls of `fn` that `inl` lies in, or
// nullopt when it lies in none.
std::optional<uint32_t> outermost_call_of(const Profile& profile, uint32_t inl, FnId fn)
{
    std::optional<uint32_t> found;
    for (std::optional<uint32_t> at = inl; at; at = profile.inlined_calls()[*at].parent)
        if (profile.inlined_calls()[*at].fn == fn)
            found = *at;
    return found;
}

// The function whose code holds inlined call `inl` of a row of `host`.
FnId caller_of(const Profile& profile, uint32_t inl, FnId host)
{
    const std::optional<uint32_t> parent = profile.inlined_calls()[inl].parent;
    return parent ? profile.inlined_calls()[*parent].fn : host;
}

// The calls made from the code of fn's nodes, the outermost ones only (a
// node of fn below another one is in its cost already).
void add_calls(const Profile& profile, FnId fn, InlinedFunctionCost& out)
{
    const size_t events = profile.num_events();
    const std::vector<PathNode>& paths = profile.paths();
    std::vector<bool> below(paths.size(), false);   // below a node of fn
    std::map<FnId, CallCost> callees;
    for (size_t i = 0; i < paths.size(); ++i) {
        const std::optional<PathId> parent = paths[i].parent;
        if (!parent)
            continue;
        const PathNode& up = paths[parent->index()];
        below[i] = below[parent->index()] || (up.fn && *up.fn == fn);
        if (up.fn && *up.fn == fn && paths[i].fn) {
            CallCost& c = callees[*paths[i].fn];
            c.fn = *paths[i].fn;
            c.inclusive.resize(events, 0);
            c.count += paths[i].count;
            add(c.inclusive, profile.path_inclusive(i));
        }
        if (paths[i].fn && *paths[i].fn == fn && !below[parent->index()] &&
            !(up.fn && *up.fn == fn))
            add(out.inclusive, profile.path_inclusive(i));
    }
    for (auto& [callee, c] : callees)
        out.callees.push_back(std::move(c));
}

} // namespace

InlinedFunctionCost inlined_function_cost(const Profile& profile, FnId fn)
{
    const size_t events = profile.num_events();
    InlinedFunctionCost out;
    out.self.assign(events, 0);
    out.inclusive.assign(events, 0);
    std::map<std::tuple<FnId, FileId, uint32_t>, size_t> hosts;   // -> out.inlined_into
    for (size_t row = 0; row < profile.inlined_lines().size(); ++row) {
        const InlinedLine& l = profile.inlined_lines()[row];
        const uint64_t* cost = profile.inlined_line_cost(row);
        if (profile.inlined_calls()[l.inl].fn == fn)
            add(out.self, cost);
        const std::optional<uint32_t> call = outermost_call_of(profile, l.inl, fn);
        if (!call)
            continue;
        add(out.inclusive, cost);
        const InlinedCall& c = profile.inlined_calls()[*call];
        const auto key = std::make_tuple(caller_of(profile, *call, l.fn), c.file, c.line);
        auto [it, fresh] = hosts.emplace(key, out.inlined_into.size());
        if (fresh)
            out.inlined_into.push_back({std::get<0>(key), CallSite{c.file, c.line}, 0,
                                        std::vector<uint64_t>(events, 0)});
        add(out.inlined_into[it->second].inclusive, cost);
    }
    add_calls(profile, fn, out);
    return out;
}

} // namespace vgprof
