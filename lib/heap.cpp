// SPDX-License-Identifier: GPL-2.0-or-later
#include "vgprof/format.hpp"
#include "vgprof/heap.hpp"

#include "vgprof/identity.hpp"
#include "vgprof/path_display.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <utility>

namespace vgprof {

namespace {

const std::array<std::pair<const char*, HeapOrder>, 8> kOrders = {{
    {"bytes", HeapOrder::bytes},
    {"blocks", HeapOrder::blocks},
    {"peak", HeapOrder::peak},
    {"leaked", HeapOrder::leaked},
    {"lifetime", HeapOrder::lifetime},
    {"reads", HeapOrder::reads},
    {"writes", HeapOrder::writes},
    {"density", HeapOrder::density},
}};

double key_of(const HeapSite& s, HeapOrder order)
{
    switch (order) {
    case HeapOrder::bytes: return double(s.bytes);
    case HeapOrder::blocks: return double(s.blocks);
    case HeapOrder::peak: return double(s.peak_bytes);
    case HeapOrder::leaked: return double(s.end_bytes);
    case HeapOrder::lifetime: return average_lifetime(s);
    case HeapOrder::reads: return double(s.reads);
    case HeapOrder::writes: return double(s.writes);
    case HeapOrder::density: return access_density(s);
    }
    return 0;
}

} // namespace

std::optional<HeapOrder> heap_order_named(std::string_view name)
{
    for (const auto& [n, order] : kOrders)
        if (name == n)
            return order;
    return std::nullopt;
}

const char* heap_order_names()
{
    return "bytes, blocks, peak, leaked, lifetime, reads, writes, density";
}

double average_lifetime(const HeapSite& site)
{
    return site.blocks == 0 ? 0 : double(site.lifetimes) / double(site.blocks);
}

double access_density(const HeapSite& site)
{
    return site.bytes == 0 ? 0 : (double(site.reads) + double(site.writes)) / double(site.bytes);
}

std::vector<SiteId> sites_in_order(const Heap& heap, HeapOrder order)
{
    std::vector<SiteId> ids;
    ids.reserve(heap.sites.size());
    for (size_t i = 0; i < heap.sites.size(); ++i)
        ids.push_back(SiteId(uint32_t(i)));
    // Integer keys compare exactly as doubles up to 2^53; beyond that two
    // sites may tie, and the id breaks the tie either way.
    std::stable_sort(ids.begin(), ids.end(), [&](SiteId a, SiteId b) {
        return key_of(heap.site(a), order) > key_of(heap.site(b), order);
    });
    return ids;
}

bool site_is_under(const Heap& heap, const HeapSite& site, FnId fn)
{
    return std::any_of(site.frames.begin(), site.frames.end(),
                       [&](FrameId f) { return heap.frame(f).fn == fn; });
}

std::vector<std::string> site_notes(const HeapSite& site)
{
    std::vector<std::string> notes;
    if (site.blocks > 0 && average_lifetime(site) < kShortLifetime)
        notes.push_back("short-lived");
    if (site.bytes > 0 && site.reads == 0)
        notes.push_back("never read");
    if (site.bytes > 0 && site.writes == 0)
        notes.push_back("never written");
    if (site.end_blocks > 0)
        notes.push_back("leaked: " + bytes_in_blocks(site.end_bytes, site.end_blocks) +
                        " never freed");
    if (!site.accesses.empty()) {
        const auto unused = std::count(site.accesses.begin(), site.accesses.end(), 0u);
        if (unused > 0)
            notes.push_back(format_thousands(uint64_t(unused)) + " of " +
                            count_text(site.accesses.size(), "byte", "bytes") + " never accessed");
    }
    return notes;
}

std::optional<FrameId> allocating_frame(const Profile& profile, const HeapSite& site)
{
    const Heap& heap = *profile.heap();
    // Since format version 5 the first frame is the allocator function the
    // program called; before, the allocator was a preload library's.
    const size_t first = profile.meta().version >= 5 ? 1 : 0;
    for (size_t i = first; i < site.frames.size(); ++i) {
        const FrameId f = site.frames[i];
        const std::string& obj = profile.obj_path(profile.function(heap.frame(f).fn).obj);
        if (basename_of(obj).compare(0, 10, "vgpreload_") != 0)
            return f;
    }
    return std::nullopt;
}

std::map<std::pair<FileId, uint32_t>, Allocated> allocated_by_line(const Profile& profile)
{
    std::map<std::pair<FileId, uint32_t>, Allocated> out;
    const Heap* heap = profile.heap();
    if (heap == nullptr)
        return out;
    std::set<std::pair<FileId, uint32_t>> lines;
    for (const HeapSite& s : heap->sites) {
        const std::optional<FrameId> f = allocating_frame(profile, s);
        if (!f)
            continue;
        lines.clear();
        for (auto it = std::find(s.frames.begin(), s.frames.end(), *f); it != s.frames.end(); ++it) {
            const HeapFrame& frame = heap->frame(*it);
            if (frame.line != 0 && !is_unknown(profile.file_path(frame.file)))
                lines.insert({frame.file, frame.line});
        }
        for (const auto& line : lines) {
            Allocated& a = out[line];
            a.bytes += s.bytes;
            a.blocks += s.blocks;
        }
    }
    return out;
}

std::map<std::pair<FileId, uint32_t>, uint64_t> allocated_bytes_by_line(const Profile& profile)
{
    std::map<std::pair<FileId, uint32_t>, uint64_t> out;
    for (const auto& [line, allocated] : allocated_by_line(profile))
        out.emplace(line, allocated.bytes);
    return out;
}

std::string bytes_in_blocks(uint64_t bytes, uint64_t blocks)
{
    return count_text(bytes, "byte", "bytes") + " in " + count_text(blocks, "block", "blocks");
}

std::string frame_label(const Profile& profile, const HeapFrame& frame, const PathDisplay& display)
{
    const std::string& name = profile.fn_name(frame.fn);
    const std::string& file = profile.file_path(frame.file);
    if (!is_unknown(file))
        return name + " (" + location_text(display.show(file), frame.line) + ")";
    return name + "  [" + display.show(profile.obj_path(profile.function(frame.fn).obj)) + "]";
}

std::string frame_label(const Profile& profile, const HeapFrame& frame)
{
    return frame_label(profile, frame, PathDisplay{});
}

} // namespace vgprof
