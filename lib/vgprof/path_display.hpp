// SPDX-License-Identifier: GPL-2.0-or-later
// How text output shows long paths: the prefixes a user strips
// (--strip-prefix) and the Rust toolchain's /rustc/<commit>/ shortened to
// the commit's first nine digits, as `rustc --version` shows it.
#ifndef VGPROF_PATH_DISPLAY_HPP
#define VGPROF_PATH_DISPLAY_HPP

#include "vgprof/ids.hpp"

#include <string>
#include <vector>

namespace vgprof {

class Profile;

struct PathDisplay {
    // Removed from the start of a path they begin with, whole components
    // only (the first that applies); the rest is shown without its leading
    // '/'.
    std::vector<std::string> strip_prefixes;

    std::string show(const std::string& path) const;
};

// "name (file:line)  [object]", each path as `display` shows it; the
// parenthesis is left out for a function without source information.
std::string function_label(const Profile& profile, FnId fn, const PathDisplay& display);

// Whether `path` begins with Rust's remapped toolchain sources,
// "/rustc/" followed by a 40-digit commit and '/'; if so, the length of
// that prefix.
size_t rustc_prefix_length(const std::string& path);

} // namespace vgprof

#endif
