// SPDX-License-Identifier: GPL-2.0-or-later
// What the viewer calls functions and allocation sites. A function whose
// name another function of the profile shares (two strcmp, one in libc and
// one in the dynamic loader; a ??? per library) is named with
// its object, and with its file when the object is the same too, so that
// every list tells them apart; other functions by their name alone. Sites
// get their distinct labels (heap_sites.hpp). Names and labels are given
// with their control characters escaped (vgprof/safe_text.hpp), so that a
// profile's name cannot break a row. Worked out once, when the profile is
// loaded.
#ifndef VGPROF_VIEWER_NAMES_HPP
#define VGPROF_VIEWER_NAMES_HPP

#include "vgprof/profile.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace vgprof::viewer {

class Names {
public:
    explicit Names(const Profile& profile);

    // "strdup [libc.so.6]" when the name is shared, else "strdup".
    const std::string& function(FnId fn) const;
    // Whether function() adds to the name.
    bool shared(FnId fn) const { return !qualified_[fn.index()].empty(); }
    // The site's label, distinct from every other site's.
    const std::string& site(SiteId site) const { return sites_[site.index()]; }

private:
    const Profile* profile_;
    std::vector<std::string> qualified_;  // empty for a name of its own
    // The names of their own that have control characters, escaped, by
    // function index (rare: kept apart so that others cost nothing).
    std::unordered_map<uint32_t, std::string> escaped_;
    std::vector<std::string> sites_;
};

} // namespace vgprof::viewer

#endif
