// SPDX-License-Identifier: GPL-2.0-or-later
// Reading a time range of the heap from its changes, or from its
// snapshots in a profile without them.
#include "heap_range.hpp"

#include "diff_link.hpp"
#include "heap_timeline.hpp"

#include "vgprof/heap_changes.hpp"
#include "vgprof/identity.hpp"

#include <algorithm>
#include <map>

namespace vgprof::viewer {

int64_t RangeSite::growth() const { return signed_delta(at_end, at_start); }

namespace {

// The most grown first; of equal growth (a server's burst frees what it
// allocates), the most allocated in the range.
void sort_by_growth(HeapRange& r)
{
    std::stable_sort(r.sites.begin(), r.sites.end(), [](const RangeSite& a, const RangeSite& b) {
        if (a.growth() != b.growth())
            return a.growth() > b.growth();
        return a.allocated_bytes > b.allocated_bytes;
    });
}

void read_changes(const Heap& heap, HeapRange& r)
{
    const HeapInRange in = heap_in_range(heap, r.t0, r.t1);
    r.from_changes = true;
    r.exact_t0 = in.t0;
    r.exact_t1 = in.t1;
    r.width = heap.changes->width;
    for (const SiteInRange& s : in.sites) {
        RangeSite out;
        out.site = s.site;
        out.at_start = s.live_bytes_before;
        out.at_end = s.live_bytes_after;
        out.most = s.most_bytes;
        out.allocated_bytes = s.bytes;
        out.allocated_blocks = s.blocks;
        out.freed_bytes = s.freed_bytes;
        r.sites.push_back(out);
    }
    sort_by_growth(r);
}

} // namespace

HeapRange heap_range(const Heap& heap, uint64_t t0, uint64_t t1)
{
    HeapRange r;
    r.t0 = std::min(t0, t1);
    r.t1 = std::max(t0, t1);
    if (heap.changes) {
        read_changes(heap, r);
        return r;
    }
    r.start = snapshot_at(heap, r.t0);
    r.end = snapshot_at(heap, r.t1);
    std::map<SiteId, RangeSite> sites;
    const auto of = [&](SiteId id) -> RangeSite& {
        RangeSite& s = sites[id];
        s.site = id;
        return s;
    };
    if (r.start)
        for (const SnapshotSite& s : r.start->sites)
            of(s.site).at_start = s.bytes;
    if (r.end)
        for (const SnapshotSite& s : r.end->sites)
            of(s.site).at_end = s.bytes;
    // Every snapshot from the start's (or the first) to the end's.
    const HeapSnapshot* first = r.start ? r.start : heap.snapshots.empty() ? nullptr : &heap.snapshots.front();
    if (r.end && first)
        for (const HeapSnapshot* snap = first; snap <= r.end; ++snap) {
            ++r.snapshots;
            for (const SnapshotSite& s : snap->sites)
                of(s.site).most = std::max(of(s.site).most, s.bytes);
        }
    for (auto& [id, s] : sites) {
        s.most = std::max({s.most, s.at_start, s.at_end});
        r.sites.push_back(s);
    }
    sort_by_growth(r);
    return r;
}

} // namespace vgprof::viewer
