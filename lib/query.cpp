// SPDX-License-Identifier: GPL-2.0-or-later
// Per-function aggregation, the call graph's neighbours of a function,
// finding functions by name, and deterministic orderings over the model.
#include "vgprof/query.hpp"

#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

namespace vgprof {

namespace {

using FunctionKey =
    std::tuple<const std::string&, const std::string&, uint32_t, const std::string&, FnId>;

// The tie-breaking order of functions: what a reader sees (name, then where
// it is) before the id, which depends on how the tool numbered them.
FunctionKey function_key(const Profile& profile, FnId fn)
{
    const Function& f = profile.function(fn);
    return FunctionKey(profile.str(f.name), profile.file_path(f.file), f.line,
                       profile.obj_path(f.obj), fn);
}

bool all_zero(const std::vector<uint64_t>& costs)
{
    return std::all_of(costs.begin(), costs.end(), [](uint64_t n) { return n == 0; });
}

// Merged call rows add counts and costs the loader did not check against
// any total (a recursive edge may exceed the program total); saturating keeps
// an absurd profile from wrapping round to a small number.
uint64_t add_saturating(uint64_t a, uint64_t b)
{
    uint64_t sum;
    return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<uint64_t>::max() : sum;
}

// The rows of `calls` for which `end_of(edge)` is `fn`, keyed by the other
// end `other_of(edge)`.
template <typename End, typename Other>
std::vector<CallCost> neighbours(const CallGraph& graph, FnId fn, CallSites sites, End end_of,
                                 Other other_of)
{
    const size_t events = graph.num_events();
    const auto& calls = graph.calls();
    std::vector<CallCost> out;
    // (neighbour, site file, site line) -> index in out: the rows of one
    // site's several call instructions (version 8) are one site, and all
    // rows one with CallSites::merge.
    std::map<std::tuple<FnId, FileId, uint32_t>, size_t> merged_row;
    for (size_t row = 0; row < calls.size(); ++row) {
        const CallEdge& edge = calls[row];
        if (end_of(edge) != fn)
            continue;
        const uint64_t* cost = graph.call_cost(row);
        const FnId other = other_of(edge);
        const bool separate = sites == CallSites::separate;
        const auto [it, added] = merged_row.try_emplace(
            {other, separate ? edge.file : FileId(), separate ? edge.line : 0}, out.size());
        if (!added) {
            CallCost& c = out[it->second];
            c.count = add_saturating(c.count, edge.count);
            for (size_t e = 0; e < events; ++e)
                c.inclusive[e] = add_saturating(c.inclusive[e], cost[e]);
            continue;
        }
        CallCost c;
        c.fn = other;
        if (sites == CallSites::separate)
            c.site = CallSite{edge.file, edge.line};
        c.count = edge.count;
        c.inclusive.assign(cost, cost + events);
        out.push_back(std::move(c));
    }
    // The tool writes calls sorted, but the loader does not insist on it.
    const auto site_key = [](const CallCost& c) {
        return c.site ? std::make_tuple(c.site->file, c.site->line) : std::make_tuple(FileId(), 0u);
    };
    std::sort(out.begin(), out.end(), [&](const CallCost& a, const CallCost& b) {
        return std::make_tuple(a.fn, site_key(a)) < std::make_tuple(b.fn, site_key(b));
    });
    return out;
}

} // namespace

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

std::vector<FunctionCost> function_costs(const Profile& profile)
{
    if (!profile.has_call_graph())
        return function_self_costs(profile);
    return function_costs(profile, profile.call_graph());
}

std::vector<FunctionCost> function_costs(const Profile& profile, const CallGraph& graph)
{
    std::vector<FunctionCost> costs = function_self_costs(profile);
    for (FunctionCost& c : costs)
        c.inclusive = inclusive_cost(graph, c.fn);
    return costs;
}

std::vector<uint32_t> path_threads(const Profile& profile)
{
    const std::vector<PathNode>& paths = profile.paths();
    std::vector<uint32_t> tid(paths.size(), 0);
    for (const ThreadGraph& t : profile.threads())
        for (const PathId root : t.roots)
            tid[root.index()] = t.tid;
    // The loader puts every parent before its children: one pass.
    for (size_t i = 0; i < paths.size(); ++i)
        if (paths[i].parent)
            tid[i] = tid[paths[i].parent->index()];
    return tid;
}

const ThreadGraph& thread_for_option(const Profile& profile, uint32_t tid, const char* option)
{
    if (!profile.has_thread_graphs())
        throw Error(std::string(option) + " needs per-thread call graphs, which this profile does "
                                          "not have (recorded without --separate-threads=yes)");
    if (const ThreadGraph* thread = profile.thread(tid))
        return *thread;
    std::string listed;
    for (const ThreadGraph& t : profile.threads())
        listed += (listed.empty() ? "" : " ") + std::to_string(t.tid);
    throw Error("no thread " + std::to_string(tid) + " in this profile (threads: " +
                (listed.empty() ? "none" : listed) + ")");
}

ThreadCosts thread_costs(const Profile& profile, const ThreadGraph& thread)
{
    const size_t events = profile.num_events();
    const std::vector<PathNode>& paths = profile.paths();
    const std::vector<uint32_t> tid = path_threads(profile);
    ThreadCosts out;
    // Self costs from the thread's nodes, not the program's lines.
    out.functions.resize(profile.functions().size());
    for (size_t i = 0; i < out.functions.size(); ++i) {
        FunctionCost& c = out.functions[i];
        c.fn = FnId(uint32_t(i));
        c.self.assign(events, 0);
        c.inclusive = inclusive_cost(thread, c.fn);
    }
    out.totals.assign(events, 0);
    out.untold.assign(events, 0);
    for (size_t i = 0; i < paths.size(); ++i) {
        if (tid[i] != thread.tid)
            continue;
        const uint64_t* cost = profile.path_self(i);
        std::vector<uint64_t>* self =
            paths[i].fn ? &out.functions[paths[i].fn->index()].self : &out.untold;
        for (size_t e = 0; e < events; ++e) {
            (*self)[e] += cost[e];
            out.totals[e] += cost[e];
        }
    }
    return out;
}

std::vector<uint64_t> inclusive_cost(const Profile& profile, FnId fn)
{
    return inclusive_cost(profile.call_graph(), fn);
}

std::vector<uint64_t> inclusive_cost(const CallGraph& graph, FnId fn)
{
    const size_t events = graph.num_events();
    if (const uint64_t* cost = graph.fn_inclusive(fn))
        return std::vector<uint64_t>(cost, cost + events);
    return std::vector<uint64_t>(events, 0);
}

void drop_zero_costs(std::vector<FunctionCost>& costs)
{
    const auto never_ran = [](const FunctionCost& c) {
        return all_zero(c.self) && all_zero(c.inclusive);
    };
    costs.erase(std::remove_if(costs.begin(), costs.end(), never_ran), costs.end());
}

void sort_by_cost(std::vector<FunctionCost>& costs, const Profile& profile, size_t event,
                  CostKind by)
{
    const auto cost = [&](const FunctionCost& c) {
        return by == CostKind::self ? c.self[event] : c.inclusive[event];
    };
    std::sort(costs.begin(), costs.end(), [&](const FunctionCost& a, const FunctionCost& b) {
        if (cost(a) != cost(b))
            return cost(a) > cost(b);
        return function_key(profile, a.fn) < function_key(profile, b.fn);
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

std::vector<CallCost> callers_of(const Profile& profile, FnId fn, CallSites sites)
{
    return callers_of(profile.call_graph(), fn, sites);
}

std::vector<CallCost> callers_of(const CallGraph& graph, FnId fn, CallSites sites)
{
    return neighbours(
        graph, fn, sites, [](const CallEdge& e) { return e.callee; },
        [](const CallEdge& e) { return e.caller; });
}

std::vector<CallCost> callees_of(const Profile& profile, FnId fn, CallSites sites)
{
    return callees_of(profile.call_graph(), fn, sites);
}

std::vector<CallCost> callees_of(const CallGraph& graph, FnId fn, CallSites sites)
{
    return neighbours(
        graph, fn, sites, [](const CallEdge& e) { return e.caller; },
        [](const CallEdge& e) { return e.callee; });
}

void sort_by_cost(std::vector<CallCost>& calls, const Profile& profile, size_t event)
{
    // A merged row (no site) goes before the rows of single sites.
    const auto site_key = [&](const CallCost& c) {
        static const std::string none;
        return c.site ? std::make_tuple(true, std::cref(profile.file_path(c.site->file)),
                                        c.site->line)
                      : std::make_tuple(false, std::cref(none), 0u);
    };
    std::sort(calls.begin(), calls.end(), [&](const CallCost& a, const CallCost& b) {
        if (a.inclusive[event] != b.inclusive[event])
            return a.inclusive[event] > b.inclusive[event];
        if (a.fn != b.fn)
            return function_key(profile, a.fn) < function_key(profile, b.fn);
        return site_key(a) < site_key(b);
    });
}

std::optional<double> MissRate::of(const std::vector<uint64_t>& costs) const
{
    // long double: three 64-bit counts can pass 2^64 together.
    const auto sum = [&](const std::vector<size_t>& events) {
        long double n = 0;
        for (size_t e : events)
            n += costs[e];
        return n;
    };
    const long double references = sum(this->references);
    if (references == 0)
        return std::nullopt;
    return static_cast<double>(sum(misses) / references);
}

namespace {

// A rate over named events, or nullopt when the profile lacks one of them.
std::optional<MissRate> rate_of(const Profile& profile, std::string name,
                                std::initializer_list<const char*> misses,
                                std::initializer_list<const char*> references)
{
    MissRate rate{std::move(name), "", {}, {}};
    const auto add = [&](std::initializer_list<const char*> events, std::vector<size_t>& out) {
        std::string sum;
        for (const char* event : events) {
            const std::optional<size_t> e = profile.event_index(event);
            if (!e)
                return false;
            out.push_back(*e);
            sum += (sum.empty() ? "" : "+") + std::string(event);
        }
        rate.formula += events.size() == 1 ? sum : "(" + sum + ")";
        return true;
    };
    if (!add(misses, rate.misses))
        return std::nullopt;
    rate.formula += "/";
    if (!add(references, rate.references))
        return std::nullopt;
    return rate;
}

} // namespace

std::vector<MissRate> summary_miss_rates(const Profile& profile)
{
    std::vector<MissRate> rates;
    for (std::optional<MissRate> rate :
         {rate_of(profile, "I1", {"I1mr"}, {"Ir"}), rate_of(profile, "LLi", {"ILmr"}, {"Ir"}),
          rate_of(profile, "D1", {"D1mr", "D1mw"}, {"Dr", "Dw"}),
          rate_of(profile, "LLd", {"DLmr", "DLmw"}, {"Dr", "Dw"}),
          rate_of(profile, "LL", {"ILmr", "DLmr", "DLmw"}, {"Ir", "Dr", "Dw"}),
          rate_of(profile, "Mispred", {"Bcm", "Bim"}, {"Bc", "Bi"})})
        if (rate)
            rates.push_back(std::move(*rate));
    return rates;
}

std::optional<MissRate> event_miss_rate(const Profile& profile, size_t event)
{
    static const std::pair<const char*, const char*> kMissOf[] = {
        {"I1mr", "Ir"}, {"ILmr", "Ir"}, {"D1mr", "Dr"}, {"DLmr", "Dr"},
        {"D1mw", "Dw"}, {"DLmw", "Dw"}, {"Bcm", "Bc"},  {"Bim", "Bi"}};
    const std::string& name = profile.meta().events[event];
    for (const auto& [miss, reference] : kMissOf)
        if (name == miss)
            return rate_of(profile, name + "/" + reference, {miss}, {reference});
    return std::nullopt;
}

namespace {

bool same_geometry(const std::optional<CacheGeometry>& a, const std::optional<CacheGeometry>& b)
{
    if (!a || !b)
        return !a && !b;
    return a->size == b->size && a->assoc == b->assoc && a->line_size == b->line_size;
}

} // namespace

bool same_simulation(const std::optional<CacheConfig>& a, const std::optional<CacheConfig>& b)
{
    if (!a || !b)
        return !a && !b;
    return same_geometry(a->i1, b->i1) && same_geometry(a->d1, b->d1) &&
           same_geometry(a->ll, b->ll) && a->branches == b->branches;
}

} // namespace vgprof
