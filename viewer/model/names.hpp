// SPDX-License-Identifier: GPL-2.0-or-later
// What the viewer calls functions and allocation sites. A function whose
// name another function of the profile shares (two strcmp, one in libc and
// one in the dynamic loader; a ??? per library) is named with
// its object, and with its file when the object is the same too, so that
// every list tells them apart; other functions by their name alone. Sites
// get their distinct labels (heap_sites.hpp). Names and labels are given
// with their control characters escaped (vgprof/safe_text.hpp), so that a
// profile's name cannot break a row, and cut to what can be drawn
// (drawable). Worked out once, when the profile is loaded.
#ifndef VGPROF_VIEWER_NAMES_HPP
#define VGPROF_VIEWER_NAMES_HPP

#include "vgprof/profile.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace vgprof::viewer {

// The most characters the viewer draws of one string: Dear ImGui draws a
// string as one mesh of 4 vertices a glyph, which 16-bit indices cap at
// 65,536 vertices (a C++ template instance's name can pass that).
constexpr size_t kMostDrawn = 4000;

// `text` as the viewer draws it: whole up to kMostDrawn bytes; else its
// start and end with the middle replaced by " ... (N bytes left out) ... ",
// cut between UTF-8 characters.
std::string drawable(const std::string& text);

class Names {
public:
    explicit Names(const Profile& profile);

    // "strdup [libc.so.6]" when the name is shared, else "strdup".
    const std::string& function(FnId fn) const;
    // function(fn) before it was cut to what can be drawn: what a name given
    // on the command line (--select) is compared with.
    std::string whole_function(FnId fn) const;
    // Whether function() adds to the name.
    bool shared(FnId fn) const { return !qualified_[fn.index()].empty(); }
    // The site's label, distinct from every other site's.
    const std::string& site(SiteId site) const { return sites_[site.index()]; }

private:
    // The name with its object, and its file when with_file_ says.
    std::string qualify(FnId fn) const;

    const Profile* profile_;
    std::vector<std::string> qualified_;  // empty for a name of its own
    std::vector<bool> with_file_;         // qualified with the file as well
    // The names of their own that have control characters, escaped, or are
    // too long to draw, by function index (rare: kept apart so that others
    // cost nothing).
    std::unordered_map<uint32_t, std::string> escaped_;
    std::vector<std::string> sites_;
};

} // namespace vgprof::viewer

#endif
