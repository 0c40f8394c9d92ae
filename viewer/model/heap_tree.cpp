// SPDX-License-Identifier: GPL-2.0-or-later
// Merging allocation stacks into a tree.
#include "heap_tree.hpp"

#include "heap_sites.hpp"
#include "heap_steps.hpp"
#include "heap_timeline.hpp"

#include "vgprof/heap_changes.hpp"

#include <map>

namespace vgprof::viewer {

namespace {

// Each site's figure. At a time, from the changes: what the site held then
// (HeapSteps, the changes at `time` counted as done); else from the
// snapshot's rows, read once: a snapshot may list every site.
std::vector<uint64_t> measures_of(const Heap& heap, HeapMeasure m, uint64_t time,
                                  std::optional<TimeRange> range)
{
    std::vector<uint64_t> out(heap.sites.size(), 0);
    if (m == HeapMeasure::at_time && heap.changes) {
        const HeapSteps steps(heap);
        for (size_t i = 0; i < heap.sites.size(); ++i)
            out[i] = steps.site_at(SiteId(uint32_t(i)), time).bytes;
        return out;
    }
    if (range && measured_in_range(heap, m)) {
        for (const SiteInRange& s : heap_in_range(heap, range->t0, range->t1).sites)
            out[s.site.index()] = m == HeapMeasure::bytes ? s.bytes : s.blocks;
        return out;
    }
    if (m == HeapMeasure::at_time) {
        std::vector<bool> seen(out.size(), false);  // a site's first row counts
        if (const HeapSnapshot* snap = snapshot_at(heap, time))
            for (const SnapshotSite& row : snap->sites)
                if (row.site.index() < out.size() && !seen[row.site.index()]) {
                    out[row.site.index()] = row.bytes;
                    seen[row.site.index()] = true;
                }
        return out;
    }
    for (size_t i = 0; i < heap.sites.size(); ++i) {
        const HeapSite& s = heap.sites[i];
        out[i] = m == HeapMeasure::bytes    ? s.bytes
                 : m == HeapMeasure::blocks ? s.blocks
                 : m == HeapMeasure::peak   ? s.peak_bytes
                                            : s.end_bytes;
    }
    return out;
}

} // namespace

bool measured_in_range(const Heap& heap, HeapMeasure measure)
{
    return heap.changes && (measure == HeapMeasure::bytes || measure == HeapMeasure::blocks);
}

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

CallTree allocation_tree(const Profile& profile, HeapMeasure measure, uint64_t time, const DiffLink* diff,
                         std::optional<TimeRange> range)
{
    std::vector<CallTree::Node> nodes;
    const Heap* heap = profile.heap();
    if (!heap)
        return CallTree(std::move(nodes), diff != nullptr);
    const Heap* base = diff ? diff->base().profile().heap() : nullptr;
    std::map<std::pair<uint32_t, uint64_t>, uint32_t> child;  // (parent + 1, key) -> node
    const std::vector<uint64_t> values = measures_of(*heap, measure, time, range);
    const std::vector<uint64_t> base_values = base ? measures_of(*base, measure, time, range) : values;
    // Blocks allocated: of the range where its figures are.
    const bool in_range = range && measured_in_range(*heap, measure);
    const std::vector<uint64_t> blocks =
        in_range ? measures_of(*heap, HeapMeasure::blocks, time, range) : std::vector<uint64_t>{};
    for (size_t i = 0; i < heap->sites.size(); ++i) {
        const SiteId id{uint32_t(i)};
        const HeapSite& site = heap->site(id);
        const uint64_t value = values[i];
        const auto base_id = base ? diff->base_site(id) : std::nullopt;
        const uint64_t base_value = base_id ? base_values[base_id->index()] : 0;
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
        nodes[parent].calls += in_range ? blocks[i] : site.blocks;
    }
    return CallTree(std::move(nodes), diff != nullptr);
}

} // namespace vgprof::viewer
