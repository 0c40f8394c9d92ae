// SPDX-License-Identifier: GPL-2.0-or-later
// Sums and bounds between a profile's tables (see profile_checks.hpp).
#include "profile_checks.hpp"

#include "vgprof/error.hpp"

#include <algorithm>
#include <vector>

namespace vgprof::detail {

void fail_at(const std::string& name, const std::string& place, const std::string& message)
{
    if (place.empty())
        throw Error(cat(name, ": ", message));
    throw Error(cat(name, ": ", place, ": ", message));
}

std::string events_problem(size_t events, const std::string& longest_name)
{
    if (events > kMaxEvents)
        return cat(events, " events, more than the ", kMaxEvents, " vgprof reads");
    if (longest_name.size() > kMaxEventName)
        return cat("an event name of ", longest_name.size(), " bytes, more than the ",
                   kMaxEventName, " vgprof reads");
    return "";
}

std::string cache_geometry_problem(const CacheGeometry& g)
{
    const auto power_of_two = [](uint64_t n) { return n != 0 && (n & (n - 1)) == 0; };
    const uint64_t most = INT32_MAX;
    if (g.size == 0 || g.assoc == 0 || g.line_size == 0)
        return "the size, associativity and line size must be positive";
    if (g.size > most || g.assoc > most || g.line_size > most)
        return cat("a figure is more than ", most, ", the most Valgrind simulates");
    if (!power_of_two(g.line_size) || g.line_size < 16)
        return cat("the line size ", g.line_size, " is not a power of two of at least 16");
    if (g.size <= g.line_size)
        return cat("the size ", g.size, " is not more than the line size ", g.line_size);
    if (g.assoc > g.size / g.line_size)
        return cat("the associativity ", g.assoc, " is more than the ", g.size / g.line_size,
                   " lines");
    if (g.size % (g.line_size * g.assoc) != 0 || !power_of_two(g.size / g.line_size / g.assoc))
        return "the number of sets is not a power of two";
    return "";
}

// meta.totals is what a reader shows as the program total; checking it
// against the lines catches a writer that dropped or double-counted rows.
void check_line_totals(const ProfileTables& t, const std::string& name)
{
    const size_t events = t.num_events();
    std::vector<uint64_t> sums(events, 0);
    for (size_t row = 0; row < t.lines.size(); ++row) {
        const uint64_t* cost = &t.line_costs[row * events];
        for (size_t e = 0; e < events; ++e)
            if (__builtin_add_overflow(sums[e], cost[e], &sums[e]))
                fail_at(name, "", cat("lines: the ", t.meta.events[e],
                                      " costs add up to more than 2^64-1"));
    }
    for (size_t e = 0; e < events; ++e)
        if (sums[e] != t.meta.totals[e])
            fail_at(name, cat("meta.totals[", e, ']'),
                    cat(t.meta.events[e], " total is ", t.meta.totals[e],
                        " but the lines add up to ", sums[e]));
}

// Checked so that every reader can trust any node's inclusive cost without
// re-adding its subtree. One event at a time: the children's sums of all
// events at once would take as much memory again as the tree's costs.
void check_path_inclusive_costs(const ProfileTables& t, const std::string& name)
{
    const size_t events = t.num_events(), nodes = t.paths.size();
    const auto self = [&](size_t node) { return &t.path_costs[2 * node * events]; };
    const auto inclusive = [&](size_t node) { return &t.path_costs[(2 * node + 1) * events]; };
    std::vector<uint64_t> children(nodes);
    for (size_t e = 0; e < events; ++e) {
        std::fill(children.begin(), children.end(), 0);
        for (size_t i = 0; i < nodes; ++i) {
            const std::optional<PathId> parent = t.paths[i].parent;
            if (!parent)
                continue;
            uint64_t& sum = children[parent->index()];
            if (__builtin_add_overflow(sum, inclusive(i)[e], &sum))
                fail_at(name, cat("paths[", parent->index(), ']'),
                        cat("the ", t.meta.events[e], " inclusive costs of the node's ",
                            "children add up to more than 2^64-1"));
        }
        for (size_t i = 0; i < nodes; ++i) {
            const uint64_t below = children[i];
            uint64_t expected;
            const bool overflow = __builtin_add_overflow(self(i)[e], below, &expected);
            if (!overflow && inclusive(i)[e] == expected)
                continue;
            fail_at(name, cat("paths[", i, "][", 3 + events + e, ']'),
                    cat(t.meta.events[e], " inclusive cost is ", inclusive(i)[e], " but self ",
                        self(i)[e], " plus the children's inclusive ", below,
                        overflow ? std::string(" is more than 2^64-1") : cat(" is ", expected)));
        }
    }
}

// The tree accounts for every instruction exactly once, as the lines do.
void check_path_self_totals(const ProfileTables& t, const std::string& name)
{
    const size_t events = t.num_events();
    std::vector<uint64_t> sums(events, 0);
    for (size_t i = 0; i < t.paths.size(); ++i) {
        const uint64_t* self = &t.path_costs[2 * i * events];
        for (size_t e = 0; e < events; ++e)
            if (__builtin_add_overflow(sums[e], self[e], &sums[e]))
                fail_at(name, "paths",
                        cat("the ", t.meta.events[e], " self costs add up to more than 2^64-1"));
    }
    for (size_t e = 0; e < events; ++e)
        if (sums[e] != t.meta.totals[e])
            fail_at(name, "paths",
                    cat("the ", t.meta.events[e], " self costs of the nodes add up to ", sums[e],
                        " but meta.totals[", e, "] is ", t.meta.totals[e]));
}

void check_site_bounds(const HeapSite& s, size_t site, const std::string& name,
                       bool began_with_live_blocks)
{
    const auto at_most = [&](size_t column, uint64_t value, const char* what, uint64_t limit) {
        if (value > limit)
            fail_at(name, cat("heap.sites[", site, "][", column, ']'),
                    cat(value, " is more than ", what, " (", limit, ")"));
    };
    // Blocks live when the period began are live in it without having
    // been allocated in it.
    if (!began_with_live_blocks) {
        at_most(4, s.max_bytes, "the bytes allocated", s.bytes);
        at_most(5, s.max_blocks, "the blocks allocated", s.blocks);
        at_most(9, s.end_blocks, "the blocks allocated", s.blocks);
    }
    at_most(6, s.peak_bytes, "the site's highest live bytes", s.max_bytes);
    at_most(8, s.end_bytes, "the site's highest live bytes", s.max_bytes);
}

// heap.totals is what a reader shows as the program's figures.
void check_heap_sums(const Heap& heap, const std::string& name)
{
    struct Column {
        const char* name;
        uint64_t HeapSite::*site;
        uint64_t total;
    };
    const HeapTotals& t = heap.totals;
    const Column columns[] = {{"bytes", &HeapSite::bytes, t.bytes},
                              {"blocks", &HeapSite::blocks, t.blocks},
                              {"peak_bytes", &HeapSite::peak_bytes, t.peak_bytes},
                              {"peak_blocks", &HeapSite::peak_blocks, t.peak_blocks},
                              {"end_bytes", &HeapSite::end_bytes, t.end_bytes},
                              {"end_blocks", &HeapSite::end_blocks, t.end_blocks},
                              {"reads", &HeapSite::reads, t.reads},
                              {"writes", &HeapSite::writes, t.writes}};
    for (const Column& c : columns) {
        CheckedSum sum;
        for (const HeapSite& s : heap.sites)
            sum.add(s.*c.site);
        if (!(sum == CheckedSum{c.total, false}))
            fail_at(name, cat("heap.totals.", c.name),
                    cat(c.name, " total is ", c.total, " but the sites add up to ", sum.str()));
    }
}

} // namespace vgprof::detail
