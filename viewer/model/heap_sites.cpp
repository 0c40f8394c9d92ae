// SPDX-License-Identifier: GPL-2.0-or-later
// Naming allocation sites by the code that called the allocator.
#include "heap_sites.hpp"

#include "vgprof/identity.hpp"
#include "vgprof/own_code.hpp"

#include <algorithm>
#include <map>
#include <string_view>

namespace vgprof::viewer {

namespace {

// Allocator entry points, by exact name (symbol versions aside).
const char* const kAllocatorNames[] = {
    "malloc", "calloc", "realloc", "reallocarray", "free", "cfree", "memalign", "posix_memalign",
    "aligned_alloc", "valloc", "pvalloc", "malloc_usable_size", "mallocx", "rallocx", "xallocx",
    "sdallocx", "dallocx", "sysmalloc", "__rust_alloc", "__rust_dealloc", "__rust_realloc",
    "__rust_alloc_zeroed",
};
// And by the start of the name: C++'s operators (demangled, with their
// parameters), libc's internals, jemalloc's, mimalloc's, tcmalloc's and
// Rust's allocator shims.
const char* const kAllocatorPrefixes[] = {
    "operator new", "operator delete", "__libc_malloc", "__libc_calloc", "__libc_realloc",
    "__libc_memalign", "__libc_free", "__GI___libc_malloc", "__GI___libc_free", "_int_malloc",
    "_int_free", "_int_realloc", "_int_memalign", "malloc_consolidate", "tcache_", "je_", "_rjem_",
    "mi_", "tc_", "__rg_", "__rdl_",
};

std::string_view without_version(std::string_view name) { return name.substr(0, name.find('@')); }

bool unnamed(const Profile& p, FnId fn) { return is_unknown(p.fn_name(fn)); }

} // namespace

bool is_allocator_function(const Profile& p, FnId fn)
{
    if (basename_of(p.obj_path(p.function(fn).obj)).rfind("vgpreload_", 0) == 0)
        return true;
    const std::string_view name = without_version(p.fn_name(fn));
    for (const char* exact : kAllocatorNames)
        if (name == exact)
            return true;
    for (const char* prefix : kAllocatorPrefixes)
        if (name.substr(0, std::string_view(prefix).size()) == prefix)
            return true;
    return false;
}

std::optional<size_t> first_outside_allocator(const Profile& p, const HeapSite& site)
{
    const Heap& heap = *p.heap();
    for (size_t i = 0; i < site.frames.size(); ++i)
        if (!is_allocator_function(p, heap.frame(site.frames[i]).fn))
            return i;
    return std::nullopt;
}

std::optional<FnId> site_function(const Profile& p, const HeapSite& site)
{
    if (const auto i = first_outside_allocator(p, site))
        return p.heap()->frame(site.frames[*i]).fn;
    return std::nullopt;
}

std::string site_label(const Profile& p, const HeapSite& site)
{
    return site_label(p, site, 2, OwnCode(p));
}

std::string site_label(const Profile& p, const HeapSite& site, size_t most, const OwnCode& own,
                       const std::set<FnId>& wrappers)
{
    const Heap& heap = *p.heap();
    const auto first = first_outside_allocator(p, site);
    if (!first) {
        if (site.frames.empty())
            return "(no stack)";
        return p.fn_name(heap.frame(site.frames.front()).fn);
    }
    // From the innermost frame of the program's own code when there is one,
    // past the wrappers the stack starts with there, when a name is left
    // after them.
    size_t from = *first;
    if (const auto own_frame = own.own_frame(site))
        from = size_t(std::find(site.frames.begin(), site.frames.end(), *own_frame) -
                      site.frames.begin());
    size_t start = from;
    for (size_t i = from; i < site.frames.size(); ++i) {
        const FnId fn = heap.frame(site.frames[i]).fn;
        if (unnamed(p, fn))
            continue;
        if (!wrappers.count(fn)) {
            start = i;
            break;
        }
    }
    std::string label;
    size_t named = 0;
    for (size_t i = start; i < site.frames.size() && named < most; ++i) {
        const HeapFrame& f = heap.frame(site.frames[i]);
        if (unnamed(p, f.fn))
            continue;
        label += (named++ ? " < " : "") + p.fn_name(f.fn);
        // The allocating call's line tells apart two sites of one function.
        if (named == 1 && f.line > 0)
            label += ":" + std::to_string(f.line);
    }
    if (named == 0)
        return "??? [" + basename_of(p.obj_path(p.function(heap.frame(site.frames[*first]).fn).obj)) + "]";
    return label;
}

// The fewest sites a wrapper serves: a handful of sites sharing their
// first frame is as likely one function allocating a few things.
constexpr size_t kWrapperSites = 8;

std::set<FnId> allocation_wrappers(const Profile& p)
{
    const Heap& heap = *p.heap();
    std::set<FnId> wrappers;
    // A wrapper's own wrapper shows once the first is passed over; three
    // rounds reach as deep as allocators nest in practice.
    for (int round = 0; round < 3; ++round) {
        std::map<FnId, size_t> first_named;
        for (const HeapSite& site : heap.sites) {
            const auto first = first_outside_allocator(p, site);
            for (size_t i = first ? *first : site.frames.size(); i < site.frames.size(); ++i) {
                const FnId fn = heap.frame(site.frames[i]).fn;
                if (!unnamed(p, fn) && !wrappers.count(fn)) {
                    ++first_named[fn];
                    break;
                }
            }
        }
        const size_t enough = std::max<size_t>(kWrapperSites, (heap.sites.size() + 3) / 4);
        bool found = false;
        for (const auto& [fn, sites] : first_named)
            if (sites >= enough && wrappers.insert(fn).second)
                found = true;
        if (!found)
            break;
    }
    return wrappers;
}

std::vector<std::string> distinct_site_labels(const Profile& p)
{
    const Heap* heap = p.heap();
    if (!heap)
        return {};
    const size_t n = heap->sites.size();
    const std::set<FnId> wrappers = allocation_wrappers(p);
    const OwnCode own(p);
    std::vector<std::string> labels(n);
    std::vector<size_t> named(n, 2);
    for (size_t i = 0; i < n; ++i)
        labels[i] = site_label(p, heap->sites[i], 2, own, wrappers);
    // Lengthen the labels that collide while that changes any of them.
    for (bool changed = true; changed;) {
        changed = false;
        std::map<std::string, std::vector<size_t>> same;
        for (size_t i = 0; i < n; ++i)
            same[labels[i]].push_back(i);
        for (const auto& [label, sites] : same) {
            if (sites.size() < 2)
                continue;
            for (size_t i : sites) {
                std::string longer = site_label(p, heap->sites[i], named[i] + 1, own, wrappers);
                if (longer != labels[i]) {
                    labels[i] = std::move(longer);
                    ++named[i];
                    changed = true;
                }
            }
        }
    }
    std::map<std::string, std::vector<size_t>> same;
    for (size_t i = 0; i < n; ++i)
        same[labels[i]].push_back(i);
    for (auto& [label, sites] : same) {
        if (sites.size() < 2)
            continue;
        std::stable_sort(sites.begin(), sites.end(),
                         [&](size_t a, size_t b) { return heap->sites[a].bytes > heap->sites[b].bytes; });
        for (size_t k = 0; k < sites.size(); ++k)
            labels[sites[k]] = label + " #" + std::to_string(k + 1);
    }
    return labels;
}

std::string site_callers(const Profile& p, const HeapSite& site)
{
    const Heap& heap = *p.heap();
    const auto first = first_outside_allocator(p, site);
    std::string callers;
    for (size_t i = first ? *first + 1 : site.frames.size(); i < site.frames.size(); ++i)
        callers += (callers.empty() ? "" : " < ") + p.fn_name(heap.frame(site.frames[i]).fn);
    return callers;
}

} // namespace vgprof::viewer
