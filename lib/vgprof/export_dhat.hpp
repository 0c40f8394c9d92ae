// SPDX-License-Identifier: GPL-2.0-or-later
// A profile's heap data in DHAT's JSON format (dhatFileVersion 2), which
// DHAT's viewer, dh_view.html, reads.
#ifndef VGPROF_EXPORT_DHAT_HPP
#define VGPROF_EXPORT_DHAT_HPP

#include "vgprof/profile.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace vgprof {

// Writes the heap of `profile` as DHAT writes its heap mode: the command,
// pid, the run's length (te) and the time of the peak (tg) in
// instructions, one program point per allocation site with its totals,
// lifetimes, maximum, t-gmax and t-end figures, bytes read and written and
// access counts, and the frame table ("0xADDR: fn (file:line)", "fn (in
// object)" without source, "[root]" first). Throws vgprof::Error when the
// profile has no heap data.
void write_dhat(std::ostream& out, const Profile& profile);

// --- shared with the other exporters ---

// The profile's command line, its arguments joined by spaces.
std::string command_text(const Profile& profile);

// `text` with its line breaks made spaces, for the formats read line by line
// (massif's, heaptrack's), where a line break in a name would end it.
std::string one_line(std::string text);

// Why a profile has no heap data, for messages.
inline constexpr const char* kWhyNoHeap =
    "recorded with --heap=no, or by a vgprof older than format version 3";

// The profile's heap. Throws vgprof::Error saying why there is none.
const Heap& exported_heap(const Profile& profile);

// A heap frame as Valgrind describes a code address, which DHAT's and
// massif's files both use: "0x10A1C4: main (app.c:42)" (the file without its
// directory), or "0x4C2B6A5: malloc (in /usr/lib/libfoo.so)" without source.
std::string valgrind_frame_text(const Profile& profile, const HeapFrame& frame);

// A site's stack from the code that called the allocator outwards,
// innermost first: the frames inside the allocator's preload library left
// out, as massif, heaptrack and pprof's heap profiles record stacks (all of
// them when every frame is inside it).
std::vector<FrameId> caller_frames(const Profile& profile, const HeapSite& site);

} // namespace vgprof

#endif
