// SPDX-License-Identifier: GPL-2.0-or-later
// Running the heap's changes into steps.
#include "heap_steps.hpp"

#include <algorithm>
#include <cassert>

namespace vgprof::viewer {

HeapSteps::HeapSteps(const Heap& heap)
{
    assert(heap.changes);
    const HeapChanges& c = *heap.changes;
    width_ = c.width;
    // What a site held when the period began is what it held at the end
    // less what its rows allocated, plus what they freed. The loader
    // checked that no figure on the way falls below zero; the partial
    // sums here may wrap, the figures they end at do not.
    sites_.resize(heap.sites.size());
    for (size_t i = 0; i < heap.sites.size(); ++i) {
        sites_[i].start.bytes = heap.sites[i].end_bytes;
        sites_[i].start.blocks = heap.sites[i].end_blocks;
    }
    for (const HeapChange& ch : c.rows) {
        LiveStep& s = sites_[ch.site.index()].start;
        s.bytes += ch.freed_bytes - ch.bytes;
        s.blocks += ch.freed_blocks - ch.blocks;
    }
    for (const Site& s : sites_) {
        start_.bytes += s.start.bytes;
        start_.blocks += s.start.blocks;
    }
    // The rows are in order of site, then of time.
    steps_.reserve(c.rows.size());
    for (size_t r = 0; r < c.rows.size();) {
        Site& site = sites_[c.rows[r].site.index()];
        site.first = steps_.size();
        LiveStep live = site.start;
        for (; r < c.rows.size() && &sites_[c.rows[r].site.index()] == &site; ++r) {
            const HeapChange& ch = c.rows[r];
            live.time = ch.time;
            live.bytes += ch.bytes - ch.freed_bytes;
            live.blocks += ch.blocks - ch.freed_blocks;
            steps_.push_back(live);
        }
        site.last = steps_.size();
    }
    // The total: every row in time order, those at one time as one step.
    std::vector<const HeapChange*> by_time;
    by_time.reserve(c.rows.size());
    for (const HeapChange& ch : c.rows)
        by_time.push_back(&ch);
    std::stable_sort(by_time.begin(), by_time.end(),
                     [](const HeapChange* a, const HeapChange* b) { return a->time < b->time; });
    LiveStep live = start_;
    for (const HeapChange* ch : by_time) {
        live.bytes += ch->bytes - ch->freed_bytes;
        live.blocks += ch->blocks - ch->freed_blocks;
        if (!total_.empty() && total_.back().time == ch->time)
            total_.back() = {ch->time, live.bytes, live.blocks};
        else
            total_.push_back({ch->time, live.bytes, live.blocks});
    }
}

LiveStep HeapSteps::at(const LiveStep& start, const LiveStep* first, const LiveStep* last, uint64_t time)
{
    const LiveStep* after =
        std::upper_bound(first, last, time, [](uint64_t t, const LiveStep& s) { return t < s.time; });
    LiveStep out = after == first ? start : *(after - 1);
    out.time = time;
    return out;
}

LiveStep HeapSteps::total_at(uint64_t time) const
{
    return at(start_, total_.data(), total_.data() + total_.size(), time);
}

std::vector<std::pair<uint64_t, SiteId>> HeapSteps::largest_at(uint64_t time, size_t n) const
{
    std::vector<std::pair<uint64_t, SiteId>> live;
    for (size_t i = 0; i < sites_.size(); ++i)
        if (const uint64_t b = site_at(SiteId(uint32_t(i)), time).bytes)
            live.emplace_back(b, SiteId(uint32_t(i)));
    const auto larger = [](const auto& a, const auto& b) { return a.first > b.first; };
    std::stable_sort(live.begin(), live.end(), larger);
    if (live.size() > n)
        live.resize(n);
    return live;
}

LiveStep HeapSteps::site_at(SiteId site, uint64_t time) const
{
    if (site.index() >= sites_.size())
        return LiveStep{time, 0, 0};
    const Site& s = sites_[site.index()];
    return at(s.start, steps_.data() + s.first, steps_.data() + s.last, time);
}

std::vector<uint64_t> HeapSteps::most_in(uint64_t t0, uint64_t t1) const
{
    std::vector<uint64_t> most(sites_.size(), 0);
    for (size_t i = 0; i < sites_.size(); ++i) {
        const Site& s = sites_[i];
        const LiveStep* first = steps_.data() + s.first;
        const LiveStep* last = steps_.data() + s.last;
        const LiveStep* from =
            std::upper_bound(first, last, t0, [](uint64_t t, const LiveStep& x) { return t < x.time; });
        most[i] = from == first ? s.start.bytes : (from - 1)->bytes;
        for (; from != last && from->time < t1; ++from)
            most[i] = std::max(most[i], from->bytes);
    }
    return most;
}

} // namespace vgprof::viewer
