// SPDX-License-Identifier: GPL-2.0-or-later
// A profile's heap as massif writes it (massif.out, "time_unit: i"), which
// ms_print and massif-visualizer read.
#ifndef VGPROF_EXPORT_MASSIF_HPP
#define VGPROF_EXPORT_MASSIF_HPP

#include "vgprof/profile.hpp"

#include <iosfwd>

namespace vgprof {

// Writes the heap of `profile` as a massif file, time in instructions:
//  - a snapshot per point of the heap timeline (its live bytes), after one
//    at time 0 holding nothing;
//  - detailed snapshots with the allocation tree: the peak (t-gmax, marked
//    "peak") and the end (t-end) with every site's bytes live then, and
//    each periodic snapshot of the profile with its ten largest sites and a
//    node for the bytes of the others, which the profile does not list.
// A tree's root holds the snapshot's live bytes; below it, the frames of the
// sites' stacks from the code that called the allocator outwards
// (caller_frames), each node the bytes allocated under it, largest first, in
// Valgrind's form ("0x10A1C4: main (app.c:42)"). Snapshots that fall at one
// time are written once, the detailed one. Throws vgprof::Error when the
// profile has no heap data.
void write_massif(std::ostream& out, const Profile& profile);

} // namespace vgprof

#endif
