// SPDX-License-Identifier: GPL-2.0-or-later
// The program's own lines through which code that is not its own was
// called (see own_call_sites in vgprof/own_code.hpp): the call graph walked
// from callee to callers, each call site followed out through the code
// inlined at it to the innermost line of the program's own code.
#include "vgprof/own_code.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace vgprof {

namespace {

// How many callers deep the walk goes looking for the program's own code:
// far beyond any stack of library code between a program and what it
// called, and a bound on cycles of recursive library functions.
constexpr int kMaxDepth = 64;

// The innermost own line holding call site `edge` of `caller`'s code: the
// site itself when its code is the program's own, else where the code
// inlined there was inlined, outwards; nullopt when none is. `inl`: the
// innermost inlined call whose code holds the site, if any.
std::optional<OwnCallSite> own_line_of(const Profile& p, const OwnCode& own, const CallEdge& edge,
                                       const uint32_t* inl)
{
    FileId file = edge.file;
    uint32_t line = edge.line;
    bool in_inlined = inl != nullptr;
    uint32_t call = inl ? *inl : 0;
    // Each inlined call is the parent of a later one: the walk ends.
    for (size_t steps = 0; steps <= p.inlined_calls().size(); ++steps) {
        const FnId code = in_inlined ? p.inlined_calls()[call].fn : edge.caller;
        if (own.is_own(code, file))
            return OwnCallSite{code, file, line, 0};
        if (!in_inlined)
            return std::nullopt;
        const InlinedCall& c = p.inlined_calls()[call];
        file = c.file;
        line = c.line;
        in_inlined = c.parent.has_value();
        call = c.parent.value_or(0);
    }
    return std::nullopt;
}

} // namespace

OwnCallers::OwnCallers(const Profile& p, OwnCode own) : p_(p), own_(std::move(own))
{
    if (!p.has_call_graph())
        return;
    const std::vector<CallEdge>& calls = p.calls();
    for (size_t row = 0; row < calls.size(); ++row)
        if (calls[row].caller != calls[row].callee)  // a recursive call adds nothing
            calls_into_[calls[row].callee].push_back(row);
    // A call site's place in the inline tables: the innermost inlined call
    // whose code holds each (function, file, line), the one of most cost
    // where several calls' code shares the line.
    for (size_t row = 0; row < p.inlined_lines().size(); ++row) {
        const InlinedLine& l = p.inlined_lines()[row];
        const uint64_t cost = p.num_events() ? p.inlined_line_cost(row)[0] : 0;
        const auto [it, added] = inlined_at_.emplace(std::make_tuple(l.fn, l.file, l.line),
                                                     std::make_pair(cost, l.inl));
        if (!added && cost > it->second.first)
            it->second = {cost, l.inl};
    }
    sites_.resize(calls.size());
    self_.assign(p.functions().size() * p.num_events(), 0);
    for (size_t row = 0; row < p.lines().size(); ++row)
        for (size_t e = 0; e < p.num_events(); ++e)
            self_[p.lines()[row].fn.index() * p.num_events() + e] += p.line_cost(row)[e];
}

const std::optional<OwnCallSite>& OwnCallers::site_of(size_t row) const
{
    auto& [known, site] = sites_[row];
    if (!known) {
        const CallEdge& c = p_.calls()[row];
        const auto it = inlined_at_.find(std::make_tuple(c.caller, c.file, c.line));
        site = own_line_of(p_, own_, c, it == inlined_at_.end() ? nullptr : &it->second.second);
        known = true;
    }
    return site;
}

std::vector<OwnCallSite> OwnCallers::sites(const std::vector<FnId>& fns, size_t event) const
{
    if (sites_.empty() || event >= p_.num_events())
        return {};
    // The cost still to place, by the function whose callers it came
    // through; each function's share of it split between its calls by
    // their inclusive costs.
    std::map<FnId, double> pending;
    for (const FnId fn : fns)
        if (const uint64_t self = self_[fn.index() * p_.num_events() + event])
            pending[fn] += double(self);
    std::map<std::tuple<FnId, FileId, uint32_t>, double> placed;
    for (int depth = 0; depth < kMaxDepth && !pending.empty(); ++depth) {
        std::map<FnId, double> next;
        for (const auto& [fn, amount] : pending) {
            const auto into = calls_into_.find(fn);
            if (into == calls_into_.end())
                continue;  // a root: no caller to charge
            double through_all = 0;
            for (const size_t row : into->second)
                through_all += double(p_.call_cost(row)[event]);
            if (through_all == 0)
                continue;
            for (const size_t row : into->second) {
                const double share = amount * double(p_.call_cost(row)[event]) / through_all;
                if (share == 0)
                    continue;
                if (const auto& site = site_of(row))
                    placed[{site->fn, site->file, site->line}] += share;
                else
                    next[p_.calls()[row].caller] += share;
            }
        }
        pending = std::move(next);
    }
    std::vector<OwnCallSite> out;
    for (const auto& [where, cost] : placed)
        out.push_back({std::get<0>(where), std::get<1>(where), std::get<2>(where), cost});
    std::stable_sort(out.begin(), out.end(),
                     [](const OwnCallSite& a, const OwnCallSite& b) { return a.cost > b.cost; });
    return out;
}

std::vector<OwnCallSite> own_call_sites(const Profile& p, const OwnCode& own,
                                        const std::vector<FnId>& fns, size_t event)
{
    return OwnCallers(p, own).sites(fns, event);
}

std::vector<std::optional<FnId>> own_functions_of_paths(const Profile& p, const OwnCode& own)
{
    // Where each inlined function's code is: the file of its inlined lines,
    // else of the calls inlined into it.
    std::unordered_map<FnId, FileId> code_file;
    for (const InlinedLine& l : p.inlined_lines())
        code_file.emplace(p.inlined_calls()[l.inl].fn, l.file);
    for (const InlinedCall& c : p.inlined_calls())
        if (c.parent)
            code_file.emplace(p.inlined_calls()[*c.parent].fn, c.file);
    const auto is_own = [&](FnId fn) {
        const Function& f = p.function(fn);
        const auto at = code_file.find(fn);
        return own.is_own(fn, f.inlined && at != code_file.end() ? at->second : f.file);
    };
    std::unordered_map<FnId, bool> own_fn;
    std::vector<std::optional<FnId>> out(p.paths().size());
    // A node's parent comes before it.
    for (size_t i = 0; i < p.paths().size(); ++i) {
        const PathNode& n = p.paths()[i];
        if (n.parent)
            out[i] = out[n.parent->index()];
        if (!n.fn)
            continue;
        const auto [it, added] = own_fn.emplace(*n.fn, false);
        if (added)
            it->second = is_own(*n.fn);
        if (it->second)
            out[i] = *n.fn;
    }
    return out;
}

} // namespace vgprof
