// SPDX-License-Identifier: GPL-2.0-or-later
// Questions about a profile's heap data: allocation sites in a chosen order,
// the sites under a function, DHAT-style notes on how a site's blocks were
// used, and how stack frames read. Shared by `vgprof report --heap` and the
// viewer's heap views.
#ifndef VGPROF_HEAP_HPP
#define VGPROF_HEAP_HPP

#include "vgprof/profile.hpp"

#include <map>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

namespace vgprof {

struct PathDisplay;

// The orders `vgprof report --heap-sort` offers; each puts the largest first.
enum class HeapOrder {
    bytes,      // allocated in all
    blocks,     // allocated in all
    peak,       // live at the program's peak (t-gmax)
    leaked,     // still live at the end (t-end)
    lifetime,   // average lifetime of a block
    reads,
    writes,
    density,    // bytes read and written per byte allocated
};

// "bytes" -> HeapOrder::bytes; nullopt for a name that is none of them.
std::optional<HeapOrder> heap_order_named(std::string_view name);
// The names heap_order_named accepts, comma-separated, for messages.
const char* heap_order_names();

// Average lifetime of the site's blocks in instructions (0 with no blocks).
double average_lifetime(const HeapSite& site);
// Bytes read and written per byte allocated (0 with no bytes).
double access_density(const HeapSite& site);

// Every site, in `order`, ties broken by the earlier site id so that the
// order is the same on every run.
std::vector<SiteId> sites_in_order(const Heap& heap, HeapOrder order);

// True when `fn` is one of the site's frames: the site allocated while the
// function was on the stack.
bool site_is_under(const Heap& heap, const HeapSite& site, FnId fn);

// What stands out about a site, in DHAT's terms: "short-lived" (blocks live
// fewer than 500 instructions on average), "never read", "never written",
// "leaked: N bytes in M blocks", "N of S bytes never accessed" (with
// per-offset counts). Empty when nothing does.
std::vector<std::string> site_notes(const HeapSite& site);

// Lifetimes shorter than this (in instructions) make a site "short-lived",
// as DHAT's viewer judges them.
inline constexpr double kShortLifetime = 500;

// The frame of a site's stack that called the allocator: the first one
// after the allocator function's own (the stack's first frame, in a
// profile of format version 5 or later) and outside a replacement
// allocator's preload library (an object named vgpreload_*, in DHAT's
// files and older profiles); nullopt when there is none.
std::optional<FrameId> allocating_frame(const Profile& profile, const HeapSite& site);

// What the calls made on one source line allocated.
struct Allocated {
    uint64_t bytes = 0, blocks = 0;
};

// What the calls made on each source line (file, line) allocated,
// inclusively, as a line's inclusive cost counts its calls: each site's
// bytes and blocks on the line of every frame of its stack from the one
// that called the allocator outwards, inlined frames included, each line
// once per site (a recursive call is not counted twice). As deep as the
// stacks were recorded (--heap-depth).
std::map<std::pair<FileId, uint32_t>, Allocated> allocated_by_line(const Profile& profile);

// The bytes of allocated_by_line alone.
std::map<std::pair<FileId, uint32_t>, uint64_t> allocated_bytes_by_line(const Profile& profile);

// "3,000 bytes in 1 block": a heap figure as the reports write it.
std::string bytes_in_blocks(uint64_t bytes, uint64_t blocks);

// "main (prog.c:12)", "malloc  [/usr/lib/x86_64-linux-gnu/libc.so.6]"
// when the file is unknown: a frame as a person reads it.
std::string frame_label(const Profile& profile, const HeapFrame& frame);
// The same with its paths as `display` shows them.
std::string frame_label(const Profile& profile, const HeapFrame& frame, const PathDisplay& display);

} // namespace vgprof

#endif
