// SPDX-License-Identifier: GPL-2.0-or-later
// An inlined function's costs, from the inline tables and the call-path tree
// (see vgprof/inlined.hpp).
#include "vgprof/inlined.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

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

void set_inlined_costs(const Profile& profile, std::vector<FunctionCost>& costs)
{
    const size_t events = profile.num_events();
    const auto inlined = [&](FnId fn) { return profile.function(fn).inlined; };
    for (FunctionCost& c : costs)
        if (inlined(c.fn)) {
            c.self.assign(events, 0);
            if (!c.inclusive.empty())
                c.inclusive.assign(events, 0);
        }
    // Own code: the rows whose innermost inlined call is the function's;
    // with what was inlined into it: every row within a call of it, once.
    std::vector<FnId> chain;
    for (size_t row = 0; row < profile.inlined_lines().size(); ++row) {
        const InlinedLine& l = profile.inlined_lines()[row];
        const uint64_t* cost = profile.inlined_line_cost(row);
        add(costs[profile.inlined_calls()[l.inl].fn.index()].self, cost);
        chain.clear();
        for (std::optional<uint32_t> at = l.inl; at; at = profile.inlined_calls()[*at].parent)
            chain.push_back(profile.inlined_calls()[*at].fn);
        std::sort(chain.begin(), chain.end());
        chain.erase(std::unique(chain.begin(), chain.end()), chain.end());
        for (const FnId fn : chain)
            if (!costs[fn.index()].inclusive.empty())
                add(costs[fn.index()].inclusive, cost);
    }
    // The calls made from its code: the nodes of the function that lie
    // below no other node of it, found by numbering the tree depth first
    // (parents come before their children) so that a node's subtree is
    // [first, first + size).
    const std::vector<PathNode>& paths = profile.paths();
    std::vector<uint64_t> size(paths.size(), 1), first(paths.size(), 0), next(paths.size(), 0);
    for (size_t i = paths.size(); i-- > 0;)
        if (paths[i].parent)
            size[paths[i].parent->index()] += size[i];
    uint64_t next_root = 0;
    std::vector<std::pair<uint64_t, size_t>> nodes;   // (first, node) of inlined functions
    for (size_t i = 0; i < paths.size(); ++i) {
        if (paths[i].parent) {
            uint64_t& n = next[paths[i].parent->index()];
            first[i] = n;
            n += size[i];
        } else {
            first[i] = next_root;
            next_root += size[i];
        }
        next[i] = first[i] + 1;
        if (paths[i].fn && inlined(*paths[i].fn) && !costs[paths[i].fn->index()].inclusive.empty())
            nodes.emplace_back(first[i], i);
    }
    std::sort(nodes.begin(), nodes.end());
    std::vector<uint64_t> outer_end(costs.size(), 0);   // by function: the last outermost node's
    for (const auto& [at, i] : nodes) {
        const size_t fn = paths[i].fn->index();
        if (at < outer_end[fn])
            continue;
        outer_end[fn] = at + size[i];
        add(costs[fn].inclusive, profile.path_inclusive(i));
    }
}

} // namespace vgprof
