// SPDX-License-Identifier: GPL-2.0-or-later
// Blocks that one allocation site's figures can stand for. A profile keeps
// per site how many blocks and bytes it allocated, how many were live at the
// peak and at the end, but not each block's size or moments: an export to a
// format of single allocations and frees (heaptrack's) needs blocks whose
// sums are exactly those figures. Internal to libvgprof.
#ifndef VGPROF_HEAP_BLOCKS_HPP
#define VGPROF_HEAP_BLOCKS_HPP

#include "vgprof/profile.hpp"

#include <cstdint>

namespace vgprof::detail {

// A number of blocks holding a number of bytes, as evenly as can be: the
// first bytes % blocks blocks are one byte larger than the others.
struct BlockGroup {
    uint64_t blocks = 0, bytes = 0;

    uint64_t size(uint64_t i) const { return bytes / blocks + (i < bytes % blocks ? 1 : 0); }
};

// A site's blocks by where they were live: at the peak and still at the end
// (kept), at the peak only, at the end only (allocated after the peak), or
// at neither (transient).
struct SiteBlocks {
    BlockGroup kept, peak_only, end_only, transient;
};

// Groups whose blocks add up to the site's figures: kept + peak_only are
// its peak_blocks and peak_bytes, kept + end_only its end figures, all four
// its blocks and bytes. Every block holds at least one byte (a zero-sized
// request is a 1-byte block) and a transient one at most `largest` bytes
// (the program's peak: no block is larger than what was ever live at once).
// As few blocks are kept as the figures allow. Throws vgprof::Error naming
// site `index` when no blocks fit its figures.
SiteBlocks site_blocks(const HeapSite& site, size_t index, uint64_t largest);

} // namespace vgprof::detail

#endif
