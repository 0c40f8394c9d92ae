// SPDX-License-Identifier: GPL-2.0-or-later
// How the heap views name an allocation site: by the code that asked for
// the memory, not by the allocator's own frames (malloc, operator new, a
// jemalloc or Rust allocator entry point, the preload library that
// replaced them) and not by a number. A site's label is its first named
// frames outside the allocator ("count_word:32 < main"), so that sites
// that differ only in unnamed frames (a stripped library's) still read
// apart; its callers are every frame after the first outside the
// allocator.
#ifndef VGPROF_VIEWER_HEAP_SITES_HPP
#define VGPROF_VIEWER_HEAP_SITES_HPP

#include "vgprof/own_code.hpp"
#include "vgprof/profile.hpp"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace vgprof::viewer {

// Whether `fn` is the allocator's: in a preload library that replaced it
// (vgpreload_*), or one of the allocation and freeing functions of libc,
// C++, jemalloc, mimalloc, tcmalloc or Rust, or libc's malloc internals.
bool is_allocator_function(const Profile& profile, FnId fn);

// The position in site.frames of the first frame outside the allocator:
// the call that asked for the memory. nullopt when every frame is inside.
std::optional<size_t> first_outside_allocator(const Profile& profile, const HeapSite& site);

// The function a site stands for when it is selected: that first frame's.
std::optional<FnId> site_function(const Profile& profile, const HeapSite& site);

// "count_word:32 < main": the first two named functions from the innermost
// frame of the program's own code (own_code.hpp), else from the first
// outside the allocator, the first with the line of its call; "??? [libfoo.so]" when
// none is named; the allocator's frame when every frame is the allocator's.
std::string site_label(const Profile& profile, const HeapSite& site);

// As site_label with up to `named` named functions, the program's own
// code told by `own`, passing over the `wrappers` the stack starts with
// (unless that leaves no name).
std::string site_label(const Profile& profile, const HeapSite& site, size_t named,
                       const OwnCode& own, const std::set<FnId>& wrappers = {});

// The program's own allocation wrappers: named functions through which a
// quarter or more of the sites (and at least eight) asked for memory, as
// sqlite3Malloc does for sqlite3 or PyMem_Malloc for Python; and the
// wrappers those call, found the same way.
std::set<FnId> allocation_wrappers(const Profile& profile);

// Every site's label, told apart: the allocation wrappers passed over,
// then where two sites' labels are the same, more of their named callers
// are added, and where even the whole stacks' names are the same (they
// differ in unnamed frames), "#2", "#3"... in the order of the bytes they
// allocated.
std::vector<std::string> distinct_site_labels(const Profile& profile);

// "??? < sqlite3Malloc < ???": every frame after the first outside the
// allocator, innermost first.
std::string site_callers(const Profile& profile, const HeapSite& site);

} // namespace vgprof::viewer

#endif
