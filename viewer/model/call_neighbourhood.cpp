// SPDX-License-Identifier: GPL-2.0-or-later
// Gathering a function's callers and callees level by level.
#include "call_neighbourhood.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace vgprof::viewer {

namespace {

class Builder {
public:
    Builder(const Document& doc, size_t event, size_t per_level)
        : doc_(doc), event_(event), per_level_(per_level)
    {
    }

    void add(FnId fn, int level)
    {
        index_.emplace(fn, out_.nodes.size());
        out_.nodes.push_back({fn, level, doc_.inclusive(fn, event_), 0});
    }

    // Adds the next level above (up) or below the functions of `frontier`;
    // returns the functions added.
    std::vector<size_t> expand(const std::vector<size_t>& frontier, int level, bool up)
    {
        const Profile& p = doc_.profile();
        const RowIndex& rows = up ? doc_.calls_in() : doc_.calls_out();
        // Candidates with the cost of the calls that link them to this level.
        std::map<FnId, uint64_t> candidates;
        for (size_t node : frontier) {
            const FnId fn = out_.nodes[node].fn;
            for (const uint32_t* r = rows.begin_of(fn.index()); r != rows.end_of(fn.index()); ++r) {
                const CallEdge& call = p.calls()[*r];
                const FnId other = up ? call.caller : call.callee;
                if (!index_.count(other))
                    candidates[other] += p.call_cost(*r)[event_];
            }
        }
        std::vector<std::pair<FnId, uint64_t>> ranked(candidates.begin(), candidates.end());
        std::stable_sort(ranked.begin(), ranked.end(),
                         [](const auto& a, const auto& b) { return a.second > b.second; });
        if (ranked.size() > per_level_)
            ranked.resize(per_level_);
        std::vector<size_t> added;
        for (const auto& [fn, cost] : ranked) {
            added.push_back(out_.nodes.size());
            add(fn, level);
        }
        count_hidden(frontier, up);
        return added;
    }

    // Adds to each node of `frontier` its callers (up) or callees not shown.
    void count_hidden(const std::vector<size_t>& frontier, bool up)
    {
        const Profile& p = doc_.profile();
        const RowIndex& rows = up ? doc_.calls_in() : doc_.calls_out();
        for (size_t node : frontier) {
            const FnId fn = out_.nodes[node].fn;
            std::vector<FnId> seen;
            for (const uint32_t* r = rows.begin_of(fn.index()); r != rows.end_of(fn.index()); ++r) {
                const CallEdge& call = p.calls()[*r];
                const FnId other = up ? call.caller : call.callee;
                if (!index_.count(other) &&
                    std::find(seen.begin(), seen.end(), other) == seen.end())
                    seen.push_back(other);
            }
            out_.nodes[node].hidden += seen.size();
        }
    }

    // Every call between two nodes, merged over call sites.
    void connect()
    {
        const Profile& p = doc_.profile();
        std::map<std::pair<size_t, size_t>, GraphEdge> merged;
        for (size_t from = 0; from < out_.nodes.size(); ++from) {
            const FnId fn = out_.nodes[from].fn;
            const RowIndex& rows = doc_.calls_out();
            for (const uint32_t* r = rows.begin_of(fn.index()); r != rows.end_of(fn.index()); ++r) {
                const auto to = index_.find(p.calls()[*r].callee);
                if (to == index_.end())
                    continue;
                GraphEdge& e = merged[{from, to->second}];
                e.from = from;
                e.to = to->second;
                e.count += p.calls()[*r].count;
                e.cost += p.call_cost(*r)[event_];
            }
        }
        for (const auto& [key, edge] : merged)
            out_.edges.push_back(edge);
    }

    Neighbourhood take() { return std::move(out_); }

private:
    const Document& doc_;
    size_t event_, per_level_;
    Neighbourhood out_;
    std::unordered_map<FnId, size_t> index_;
};

} // namespace

Neighbourhood call_neighbourhood(const Document& doc, FnId centre, size_t event, int depth,
                                 size_t per_level)
{
    Builder b(doc, event, per_level);
    b.add(centre, 0);
    for (const bool up : {true, false}) {
        std::vector<size_t> frontier{0};
        for (int level = 1; level <= depth && !frontier.empty(); ++level)
            frontier = b.expand(frontier, up ? -level : level, up);
        b.count_hidden(frontier, up);
    }
    b.connect();
    return b.take();
}

} // namespace vgprof::viewer
