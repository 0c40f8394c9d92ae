// SPDX-License-Identifier: GPL-2.0-or-later
#include "vgprof/heap_changes.hpp"

#include <algorithm>
#include <cassert>

namespace vgprof {

namespace {

void add_into(SiteInRange& total, const SiteInRange& s)
{
    total.live_bytes_before += s.live_bytes_before;
    total.live_blocks_before += s.live_blocks_before;
    total.live_bytes_after += s.live_bytes_after;
    total.live_blocks_after += s.live_blocks_after;
    total.bytes += s.bytes;
    total.blocks += s.blocks;
    total.freed_bytes += s.freed_bytes;
    total.freed_blocks += s.freed_blocks;
}

} // namespace

HeapInRange heap_in_range(const Heap& heap, uint64_t t0, uint64_t t1)
{
    assert(heap.changes && t0 <= t1);
    const HeapChanges& c = *heap.changes;
    HeapInRange r;
    r.t0 = t0 / c.width * c.width;
    r.t1 = t1 / c.width * c.width;
    if (r.t1 < t1)
        r.t1 = r.t1 > UINT64_MAX - c.width ? UINT64_MAX : r.t1 + c.width;

    // What a site held at t0 is what it holds at the end less what it
    // allocated from t0 on, plus what it freed from then.
    std::vector<SiteInRange> sites(heap.sites.size());
    for (size_t i = 0; i < heap.sites.size(); ++i) {
        sites[i].site = SiteId(uint32_t(i));
        sites[i].live_bytes_before = heap.sites[i].end_bytes;
        sites[i].live_blocks_before = heap.sites[i].end_blocks;
    }
    for (const HeapChange& ch : c.rows) {
        if (ch.time < r.t0)
            continue;
        SiteInRange& s = sites[ch.site.index()];
        s.live_bytes_before += ch.freed_bytes - ch.bytes;
        s.live_blocks_before += ch.freed_blocks - ch.blocks;
        if (ch.time < r.t1) {
            s.bytes += ch.bytes;
            s.blocks += ch.blocks;
            s.freed_bytes += ch.freed_bytes;
            s.freed_blocks += ch.freed_blocks;
        }
    }
    // The running figure within the range, from what was held at t0.
    std::vector<uint64_t> live(sites.size());
    for (size_t i = 0; i < sites.size(); ++i)
        live[i] = sites[i].most_bytes = sites[i].live_bytes_before;
    for (const HeapChange& ch : c.rows)
        if (ch.time >= r.t0 && ch.time < r.t1) {
            const size_t i = ch.site.index();
            live[i] += ch.bytes - ch.freed_bytes;
            sites[i].most_bytes = std::max(sites[i].most_bytes, live[i]);
        }
    for (SiteInRange& s : sites) {
        // Unsigned arithmetic: the partial sums may wrap, the live figures
        // they end at do not (the loader checked the start's).
        s.live_bytes_after = s.live_bytes_before + s.bytes - s.freed_bytes;
        s.live_blocks_after = s.live_blocks_before + s.blocks - s.freed_blocks;
        if (s.live_bytes_before || s.live_bytes_after || s.blocks || s.freed_blocks) {
            add_into(r.total, s);
            r.sites.push_back(s);
        }
    }
    return r;
}

} // namespace vgprof
