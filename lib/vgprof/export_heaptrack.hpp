// SPDX-License-Identifier: GPL-2.0-or-later
// A profile's heap in heaptrack's data format (the line-oriented file that
// heaptrack_interpret writes, file format version 3), which heaptrack_print
// and heaptrack_gui read.
#ifndef VGPROF_EXPORT_HEAPTRACK_HPP
#define VGPROF_EXPORT_HEAPTRACK_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <iosfwd>

namespace vgprof {

// heaptrack's clock counts milliseconds; the export's millisecond is this
// many instructions.
inline constexpr uint64_t kInstructionsPerHeaptrackMs = 1000;

// Writes the heap of `profile` as heaptrack's allocations and frees with
// their stacks over time. A profile keeps per site its figures, not each
// block, so the events are laid out to give heaptrack exactly those
// figures: each site's calls to allocation functions (blocks), bytes
// allocated, bytes live at the peak and never freed (leaked), the
// program's peak at t-gmax; between the peak and the end, the heap follows
// the profile's timeline as closely as the blocks allow (it never goes
// above a point of it). Block sizes within a site are even (the profile
// does not keep them). A stack is the site's from the allocating call
// outwards (caller_frames), each frame with its address, function, file,
// line and object. Throws vgprof::Error when the profile has no heap data
// or a site's figures fit no blocks.
void write_heaptrack(std::ostream& out, const Profile& profile);

} // namespace vgprof

#endif
