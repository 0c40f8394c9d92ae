// SPDX-License-Identifier: GPL-2.0-or-later
// Merging allocation stacks into a tree.
#include "heap_tree.hpp"

#include "heap_sites.hpp"
#include "heap_timeline.hpp"

#include <map>

namespace vgprof::viewer {

namespace {

uint64_t measure_of(const Heap& heap, SiteId id, HeapMeasure m, uint64_t time)
{
    const HeapSite& s = heap.site(id);
    switch (m) {
    case HeapMeasure::bytes: return s.bytes;
    case HeapMeasure::blocks: return s.blocks;
    case HeapMeasure::peak: return s.peak_bytes;
    case HeapMeasure::leaked: return s.end_bytes;
    case HeapMeasure::at_time:
        if (const HeapSnapshot* snap = snapshot_at(heap, time))
            for (const SnapshotSite& row : snap->sites)
                if (row.site == id)
                    return row.bytes;
        return 0;
    }
    return 0;
}

} // namespace

const char* heap_measure_name(HeapMeasure m)
{
    switch (m) {
    case HeapMeasure::bytes: return "Bytes allocated";
    case HeapMeasure::blocks: return "Blocks allocated";
    case HeapMeasure::peak: return "Live at the peak";
    case HeapMeasure::leaked: return "Leaked (live at the end)";
    case HeapMeasure::at_time: return "Live at a moment";
    }
    return "";
}

CallTree allocation_tree(const Profile& profile, HeapMeasure measure, uint64_t time, const DiffLink* diff)
{
    std::vector<CallTree::Node> nodes;
    const Heap* heap = profile.heap();
    if (!heap)
        return CallTree(std::move(nodes), diff != nullptr);
    const Heap* base = diff ? diff->base().profile().heap() : nullptr;
    std::map<std::pair<uint32_t, uint64_t>, uint32_t> child;  // (parent + 1, key) -> node
    for (size_t i = 0; i < heap->sites.size(); ++i) {
        const SiteId id{uint32_t(i)};
        const HeapSite& site = heap->site(id);
        const uint64_t value = measure_of(*heap, id, measure, time);
        const auto base_id = base ? diff->base_site(id) : std::nullopt;
        const uint64_t base_value = base_id ? measure_of(*base, *base_id, measure, time) : 0;
        const auto first = first_outside_allocator(profile, site);
        if ((value == 0 && base_value == 0) || !first)
            continue;
        uint32_t parent = CallTree::kNone;
        // Outermost first, down to the call that asked for the memory.
        for (size_t f = site.frames.size(); f-- > *first;) {
            const NodeKey key = NodeKey::of(heap->frame(site.frames[f]).fn);
            const auto [it, added] =
                child.try_emplace({parent + 1, key.code()}, uint32_t(nodes.size()));
            if (added) {
                CallTree::Node n;
                n.parent = parent;
                n.key = key;
                nodes.push_back(n);
            }
            parent = it->second;
        }
        nodes[parent].self += value;
        nodes[parent].base_self += base_value;
        nodes[parent].calls += site.blocks;
    }
    return CallTree(std::move(nodes), diff != nullptr);
}

} // namespace vgprof::viewer
