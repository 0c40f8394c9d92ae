// SPDX-License-Identifier: GPL-2.0-or-later
// Stacking the heap chart by site, and axis ticks.
#include "heap_chart.hpp"

#include "heap_timeline.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace vgprof::viewer {

namespace {

// The site's share of a snapshot's live bytes (0 when not among them).
double share_in(const HeapSnapshot& snap, SiteId site)
{
    if (snap.bytes == 0)
        return 0;
    for (const SnapshotSite& s : snap.sites)
        if (s.site == site)
            return double(s.bytes) / double(snap.bytes);
    return 0;
}

} // namespace

std::vector<SiteId> top_sites(const Heap& heap, size_t count)
{
    std::map<SiteId, uint64_t> most;
    for (const HeapSnapshot& snap : heap.snapshots)
        for (const SnapshotSite& s : snap.sites)
            most[s.site] = std::max(most[s.site], s.bytes);
    std::vector<std::pair<SiteId, uint64_t>> ranked(most.begin(), most.end());
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::vector<SiteId> out;
    for (size_t i = 0; i < ranked.size() && i < count; ++i)
        if (ranked[i].second > 0)
            out.push_back(ranked[i].first);
    return out;
}

std::vector<SiteId> top_sites(const HeapSteps& steps, size_t count, uint64_t t0, uint64_t t1)
{
    const std::vector<uint64_t> most = steps.most_in(t0, t1);
    std::vector<SiteId> ranked;
    for (size_t i = 0; i < most.size(); ++i)
        if (most[i] > 0)
            ranked.push_back(SiteId(uint32_t(i)));
    std::stable_sort(ranked.begin(), ranked.end(),
                     [&](SiteId a, SiteId b) { return most[a.index()] > most[b.index()]; });
    if (ranked.size() > count)
        ranked.resize(count);
    return ranked;
}

double site_share(const Heap& heap, SiteId site, uint64_t time)
{
    const auto& snaps = heap.snapshots;
    if (snaps.empty())
        return 0;
    const auto after = std::upper_bound(snaps.begin(), snaps.end(), time,
                                        [](uint64_t t, const HeapSnapshot& s) { return t < s.time; });
    if (after == snaps.begin())
        return share_in(snaps.front(), site);
    const HeapSnapshot& before = *(after - 1);
    if (after == snaps.end() || after->time == before.time)
        return share_in(before, site);
    const double f = double(time - before.time) / double(after->time - before.time);
    return share_in(before, site) * (1 - f) + share_in(*after, site) * f;
}

uint64_t ChartColumn::other() const
{
    uint64_t stacked = 0;
    for (uint64_t b : bands)
        stacked += b;
    return bytes - std::min(bytes, stacked);
}

namespace {

HeapChart exact_chart(const HeapSteps& steps, const std::vector<SiteId>& sites, uint64_t t0, uint64_t t1,
                     size_t columns)
{
    HeapChart chart;
    chart.sites = sites;
    chart.exact = true;
    if (columns == 0 || t1 <= t0)
        return chart;
    const std::vector<LiveStep>& total = steps.total();
    const double width = double(t1 - t0) / double(columns);
    size_t next = 0;
    LiveStep carried = steps.start();
    for (size_t i = 0; i < columns; ++i) {
        ChartColumn c;
        c.t0 = t0 + uint64_t(width * double(i));
        c.t1 = i + 1 == columns ? t1 : t0 + uint64_t(width * double(i + 1));
        // The figures in force at the column's start, then every step in it.
        while (next < total.size() && total[next].time <= c.t0)
            carried = total[next++];
        c.bytes = carried.bytes;
        c.blocks = carried.blocks;
        c.moment = c.t0;
        for (; next < total.size() && total[next].time < c.t1; ++next) {
            carried = total[next];
            if (carried.bytes > c.bytes) {
                c.bytes = carried.bytes;
                c.moment = carried.time;
            }
            c.blocks = std::max(c.blocks, carried.blocks);
        }
        for (SiteId s : sites)
            c.bands.push_back(steps.site_at(s, c.moment).bytes);
        chart.max_bytes = std::max(chart.max_bytes, c.bytes);
        chart.max_blocks = std::max(chart.max_blocks, c.blocks);
        chart.columns.push_back(std::move(c));
    }
    return chart;
}

} // namespace

HeapChart heap_chart(const Heap& heap, const std::vector<SiteId>& sites, uint64_t t0, uint64_t t1,
                     size_t columns, const HeapSteps* steps)
{
    if (heap.changes)
        return exact_chart(steps ? *steps : HeapSteps(heap), sites, t0, t1, columns);
    HeapChart chart;
    chart.sites = sites;
    for (const TimelineBucket& b : downsample(heap.samples, t0, t1, columns)) {
        ChartColumn c;
        c.t0 = b.t0;
        c.t1 = b.t1;
        c.bytes = b.max_bytes;
        c.blocks = b.max_blocks;
        const uint64_t middle = b.t0 + (b.t1 - b.t0) / 2;
        double left = 1;  // what is not yet given to a band, so rounding never overfills
        for (SiteId s : sites) {
            const double share = std::min(left, site_share(heap, s, middle));
            left -= share;
            c.bands.push_back(uint64_t(std::llround(share * double(c.bytes))));
        }
        chart.max_bytes = std::max(chart.max_bytes, c.bytes);
        chart.max_blocks = std::max(chart.max_blocks, c.blocks);
        chart.columns.push_back(std::move(c));
    }
    return chart;
}


std::vector<uint64_t> axis_ticks(uint64_t lo, uint64_t hi, size_t count)
{
    std::vector<uint64_t> ticks;
    if (hi <= lo || count == 0)
        return {lo};
    const double rough = double(hi - lo) / double(count);
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    double step = power;
    for (const double m : {1.0, 2.0, 5.0, 10.0})
        if (m * power >= rough) {
            step = m * power;
            break;
        }
    const uint64_t s = std::max<uint64_t>(1, uint64_t(step));
    for (uint64_t t = (lo + s - 1) / s * s; t <= hi; t += s)
        ticks.push_back(t);
    return ticks;
}

} // namespace vgprof::viewer
