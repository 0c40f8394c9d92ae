// SPDX-License-Identifier: GPL-2.0-or-later
// A profile in pprof's format (profile.proto, gzipped), which `go tool
// pprof` and pprof read: its top lists, call graphs, flame graph and web UI,
// and its comparison of two profiles.
#ifndef VGPROF_EXPORT_PPROF_HPP
#define VGPROF_EXPORT_PPROF_HPP

#include "vgprof/profile.hpp"

#include <iosfwd>

namespace vgprof {

// Writes `profile` as a gzipped pprof profile whose sample types are:
//  - with the call-path tree, each recorded event (Ir, I1mr...), unit
//    "count": a sample per node of the tree with a self cost, its locations
//    the functions from the node up to the root; with per-thread graphs
//    (--separate-threads=yes), the numeric label "thread", the thread the
//    node's stack is of, so `pprof -tagfocus thread=2` shows that
//    thread's costs;
//  - with heap data, alloc_objects and alloc_space (allocated in all),
//    inuse_objects and inuse_space (live at the peak, t-gmax) and
//    leaked_objects and leaked_space (live at the end, t-end): a sample per
//    allocation site, its locations the site's frames from the allocating
//    call outwards (caller_frames), each with its address and line;
//  - with a data section, data_Dr, data_D1mr, data_DLmr, data_Dw, data_D1mw
//    and data_DLmw, unit "count": per data object, a sample of its accesses
//    (Dr, Dw) whose one location is the object (a function named "heap site
//    3", "global table", "stack"..., its system name the whole label), and
//    per function that missed on it a sample of the function's
//    misses, the function the object's caller; each labelled data_kind
//    (heap, global, unnamed, stack, allocator, other).
// A sample's values for the types of the other kinds are 0,
// so each type's samples add up to the profile's own total. Functions carry
// their name, source file and first line; mappings are the objects. The
// default sample type is Ir (inuse_space without a call-path tree).
// Throws vgprof::Error when the profile has neither a call-path tree nor a
// heap.
void write_pprof(std::ostream& out, const Profile& profile);

} // namespace vgprof

#endif
