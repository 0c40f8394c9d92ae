// SPDX-License-Identifier: GPL-2.0-or-later
// Laying a site's figures out as blocks (see heap_blocks.hpp).
//
// With k kept blocks of KB bytes the other groups follow: peak_only holds
// peak_blocks - k blocks of peak_bytes - KB bytes, end_only likewise from
// the end figures, transient the rest. A count of k is possible when some
// KB gives every group at least a byte a block (and no bytes to a group of
// no blocks), transient blocks at most `largest` bytes on average, and
// kept ones at least a byte each. Each condition bounds KB from one side,
// so the smallest possible KB is the lower bound when it is within the
// upper one. The figures of a real run always admit the blocks it had, and
// nearly always the smallest k; a few more counts are tried before giving up.
#include "heap_blocks.hpp"

#include "vgprof/error.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace vgprof::detail {

namespace {

using Wide = __int128;  // products of two 64-bit figures

struct Bounds {
    Wide lo = 0, hi = 0;

    void exactly(Wide v)
    {
        at_least(v);
        at_most(v);
    }
    void at_least(Wide v) { lo = std::max(lo, v); }
    void at_most(Wide v) { hi = std::min(hi, v); }
};

// The smallest KB that fits k kept blocks, if any.
std::optional<uint64_t> kept_bytes(const HeapSite& s, uint64_t k, uint64_t largest)
{
    const Wide peak_only = Wide(s.peak_blocks) - k, end_only = Wide(s.end_blocks) - k;
    const Wide transient = Wide(s.blocks) - s.peak_blocks - s.end_blocks + k;
    // transient bytes are s.bytes - peak_bytes - end_bytes + KB
    const Wide rest = Wide(s.bytes) - s.peak_bytes - s.end_bytes;
    Bounds kb{0, Wide(std::min(s.peak_bytes, s.end_bytes))};
    if (k == 0)
        kb.exactly(0);
    else
        kb.at_least(k);
    if (peak_only == 0)
        kb.exactly(s.peak_bytes);
    else
        kb.at_most(Wide(s.peak_bytes) - peak_only);
    if (end_only == 0)
        kb.exactly(s.end_bytes);
    else
        kb.at_most(Wide(s.end_bytes) - end_only);
    if (transient == 0) {
        kb.exactly(-rest);
    } else {
        kb.at_least(transient - rest);
        kb.at_most(transient * largest - rest);
    }
    if (kb.lo > kb.hi)
        return std::nullopt;
    return uint64_t(kb.lo);
}

SiteBlocks blocks_for(const HeapSite& s, uint64_t k, uint64_t kb)
{
    SiteBlocks b;
    b.kept = {k, kb};
    b.peak_only = {s.peak_blocks - k, s.peak_bytes - kb};
    b.end_only = {s.end_blocks - k, s.end_bytes - kb};
    b.transient = {s.blocks - s.peak_blocks - s.end_blocks + k,
                   s.bytes - s.peak_bytes - s.end_bytes + kb};
    return b;
}

} // namespace

SiteBlocks site_blocks(const HeapSite& s, size_t index, uint64_t largest)
{
    const uint64_t most = std::min(s.peak_blocks, s.end_blocks);
    const Wide fewest = std::max<Wide>(0, Wide(s.peak_blocks) + s.end_blocks - s.blocks);
    if (fewest <= most) {
        std::vector<uint64_t> counts;
        for (uint64_t k = uint64_t(fewest); k <= most && counts.size() < 16; ++k)
            counts.push_back(k);
        counts.push_back(most);
        for (uint64_t k : counts)
            if (const std::optional<uint64_t> kb = kept_bytes(s, k, largest))
                return blocks_for(s, k, *kb);
    }
    throw Error("heap site " + std::to_string(index) + ": no blocks fit its figures (" +
                std::to_string(s.bytes) + " bytes in " + std::to_string(s.blocks) + " blocks, " +
                std::to_string(s.peak_bytes) + " in " + std::to_string(s.peak_blocks) +
                " at the peak, " + std::to_string(s.end_bytes) + " in " +
                std::to_string(s.end_blocks) + " at the end)");
}

} // namespace vgprof::detail
