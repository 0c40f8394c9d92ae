// SPDX-License-Identifier: GPL-2.0-or-later
// The massif writer (see export_massif.hpp). The layout is the one massif
// itself writes and ms_print and massif-visualizer parse line by line: a
// header (desc:, cmd:, time_unit:), then per snapshot its number, time,
// heap bytes (no "extra" bytes or stacks: the profile has neither) and
// "heap_tree=empty|detailed|peak", a detailed tree as lines
// "nCHILDREN: BYTES LABEL" indented one space per level.
#include "vgprof/export_massif.hpp"

#include "vgprof/error.hpp"
#include "vgprof/export_collapsed.hpp"
#include "vgprof/export_dhat.hpp"

#include "text.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace vgprof {

using detail::cat;

namespace {

// What a snapshot shows: only its bytes, or also the tree (the peak's
// marked as such). A moment's richer form wins over a poorer one.
enum class TreeKind { empty, detailed, peak };

struct MassifSnapshot {
    uint64_t bytes = 0;
    TreeKind kind = TreeKind::empty;
    std::vector<SnapshotSite> sites;  // with a tree: the sites live then
    uint64_t unlisted = 0;            // bytes of live sites the profile does not list
};

// The sites' stacks merged frame by frame from the allocating call outwards.
class AllocationTree {
public:
    AllocationTree() : nodes_(1) {}

    void add(const std::vector<FrameId>& frames, uint64_t bytes)
    {
        size_t at = 0;
        nodes_[at].bytes += bytes;
        for (FrameId f : frames) {
            at = child(at, f);
            nodes_[at].bytes += bytes;
        }
    }

    // `indentation`: the spaces written so far, over every tree.
    void write(std::ostream& out, const Profile& p, uint64_t unlisted, uint64_t& indentation) const
    {
        write_nodes(out, p, unlisted, indentation);
    }

private:
    struct Node {
        FrameId frame;
        uint64_t bytes = 0;
        std::vector<size_t> children;
    };

    // Found through a map, not the parent's list: a node may have as many
    // children as there are sites.
    size_t child(size_t parent, FrameId frame)
    {
        const auto [it, added] = child_of_.emplace(std::pair{parent, frame.index()}, nodes_.size());
        if (added) {
            nodes_.push_back(Node{frame, 0, {}});
            nodes_[parent].children.push_back(it->second);
        }
        return it->second;
    }

    struct PairHash {
        size_t operator()(const std::pair<size_t, uint32_t>& k) const
        {
            return std::hash<size_t>()(k.first * 0x9e3779b97f4a7c15ULL ^ k.second);
        }
    };

    // Largest first, then in address order (frames are sorted by address).
    std::vector<size_t> ordered_children(size_t node) const
    {
        std::vector<size_t> children = nodes_[node].children;
        std::sort(children.begin(), children.end(), [this](size_t a, size_t b) {
            if (nodes_[a].bytes != nodes_[b].bytes)
                return nodes_[a].bytes > nodes_[b].bytes;
            return nodes_[a].frame < nodes_[b].frame;
        });
        return children;
    }

    // Depth first, iteratively: a site's stack, and so the tree, can be
    // thousands of frames deep. Each line is indented by its depth, so a
    // deep tree of many branches writes much more than it holds: the
    // indentation is bounded, as the stack exporters bound their frames.
    void write_nodes(std::ostream& out, const Profile& p, uint64_t unlisted,
                     uint64_t& indentation) const
    {
        std::vector<std::pair<size_t, size_t>> todo{{0, 0}};  // (node, depth)
        while (!todo.empty()) {
            const auto [node, depth] = todo.back();
            todo.pop_back();
            const Node& n = nodes_[node];
            const std::vector<size_t> children = ordered_children(node);
            const uint64_t extra = depth == 0 ? unlisted : 0;
            indentation += depth;
            if (indentation > kMaxStackText)
                throw Error(cat("massif: the trees' lines would be indented by more than ",
                                kMaxStackText, " spaces in all, more than vgprof writes (",
                                "the allocation stacks are too deep and too many)"));
            out << std::string(depth, ' ') << 'n' << children.size() + (extra ? 1 : 0) << ": "
                << n.bytes + extra << ' ';
            if (depth == 0)
                out << "(heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n";
            else
                out << one_line(valgrind_frame_text(p, p.heap()->frame(n.frame))) << '\n';
            for (auto c = children.rbegin(); c != children.rend(); ++c)
                todo.push_back({*c, depth + 1});
        }
        if (unlisted)
            out << " n0: " << unlisted
                << " in other places, smaller than the ten largest (the profile does not list "
                   "them)\n";
    }

    std::vector<Node> nodes_;  // the root first
    std::unordered_map<std::pair<size_t, uint32_t>, size_t, PairHash> child_of_;
};

void keep(std::map<uint64_t, MassifSnapshot>& snapshots, uint64_t time, MassifSnapshot s)
{
    auto [it, added] = snapshots.emplace(time, s);
    if (!added && s.kind > it->second.kind)
        it->second = std::move(s);
}

// Every site's figure at the peak or the end.
std::vector<SnapshotSite> all_sites(const Heap& heap, uint64_t HeapSite::*bytes)
{
    std::vector<SnapshotSite> sites;
    for (size_t s = 0; s < heap.sites.size(); ++s)
        if (heap.sites[s].*bytes != 0)
            sites.push_back(SnapshotSite{SiteId(uint32_t(s)), heap.sites[s].*bytes, 0});
    return sites;
}

std::map<uint64_t, MassifSnapshot> massif_snapshots(const Heap& heap)
{
    std::map<uint64_t, MassifSnapshot> snapshots;
    keep(snapshots, 0, {});
    for (const HeapSample& s : heap.samples)
        keep(snapshots, s.time, MassifSnapshot{s.bytes, TreeKind::empty, {}, 0});
    for (const HeapSnapshot& s : heap.snapshots) {
        if (s.kind != HeapSnapshot::Kind::periodic)
            continue;
        uint64_t listed = 0;
        for (const SnapshotSite& site : s.sites)
            listed += site.bytes;
        keep(snapshots, s.time, MassifSnapshot{s.bytes, TreeKind::detailed, s.sites, s.bytes - listed});
    }
    const HeapTotals& t = heap.totals;
    keep(snapshots, t.end_time,
         MassifSnapshot{t.end_bytes, TreeKind::detailed, all_sites(heap, &HeapSite::end_bytes), 0});
    keep(snapshots, t.peak_time,
         MassifSnapshot{t.peak_bytes, TreeKind::peak, all_sites(heap, &HeapSite::peak_bytes), 0});
    return snapshots;
}

void write_tree(std::ostream& out, const Profile& p,
                const std::vector<std::vector<FrameId>>& stacks, const MassifSnapshot& s,
                uint64_t& indentation)
{
    AllocationTree tree;
    for (const SnapshotSite& site : s.sites)
        tree.add(stacks[site.site.index()], site.bytes);
    tree.write(out, p, s.unlisted, indentation);
}

} // namespace

void write_massif(std::ostream& out, const Profile& profile)
{
    const Heap& heap = exported_heap(profile);
    std::vector<std::vector<FrameId>> stacks;
    for (const HeapSite& site : heap.sites)
        stacks.push_back(caller_frames(profile, site));

    out << "desc: vgprof heap profile: the timeline and snapshots it recorded\n"
        << "cmd: " << one_line(command_text(profile)) << "\ntime_unit: i\n";
    size_t number = 0;
    uint64_t indentation = 0;
    for (const auto& [time, s] : massif_snapshots(heap)) {
        out << "#-----------\nsnapshot=" << number++ << "\n#-----------\ntime=" << time
            << "\nmem_heap_B=" << s.bytes << "\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree="
            << (s.kind == TreeKind::empty ? "empty" : s.kind == TreeKind::peak ? "peak" : "detailed")
            << '\n';
        if (s.kind != TreeKind::empty)
            write_tree(out, profile, stacks, s, indentation);
    }
}

} // namespace vgprof
