// SPDX-License-Identifier: GPL-2.0-or-later
// How the commands show paths: the prefixes a user strips (--strip-prefix
// of report, annotate and diff alike) and, in text people read, the Rust
// toolchain's /rustc/<commit>/ shortened to the commit's first nine digits,
// as `rustc --version` shows it.
#ifndef VGPROF_PATH_DISPLAY_HPP
#define VGPROF_PATH_DISPLAY_HPP

#include "vgprof/ids.hpp"

#include <string>
#include <vector>

namespace vgprof {

class Profile;

struct PathDisplay {
    // Removed from the start of a path they begin with, whole components
    // only, with or without a trailing '/' (the first that applies); the
    // rest is shown without its leading '/'. A prefix that ends inside a
    // component ("/src/ap" of "/src/app.c") does not apply: a directory is
    // what users name, as a compiler's -fdebug-prefix-map is given one.
    std::vector<std::string> strip_prefixes;

    // `path` without the first of strip_prefixes that applies; as it is
    // when none does or nothing would be left. For paths a program resolves
    // (GitHub's annotations, JSON output).
    std::string stripped(const std::string& path) const;

    // Whether one of strip_prefixes applies to `path`.
    bool is_under_prefix(const std::string& path) const { return stripped(path) != path; }

    // stripped(path), or, when no prefix applies, a Rust toolchain path
    // shortened: for text people read.
    std::string show(const std::string& path) const;
};

// "name (file:line)  [object]", each path as `display` shows it; the
// parenthesis is left out for a function without source information.
std::string function_label(const Profile& profile, FnId fn, const PathDisplay& display);

// Whether `prefix` is a leading part of `path` that ends at a path
// separator or at the path's end, so that "/src" is not a prefix of
// "/srcdir/a.c"; false for an empty prefix.
bool starts_with_component(const std::string& path, const std::string& prefix);

// Whether `path` is `tail` or ends with it after a '/' (or with a `tail`
// that starts with '/'), so that "app.c" and "src/app.c" are endings of
// "/home/me/src/app.c" but "pp.c" is not; false for an empty tail.
bool ends_with_component(const std::string& path, const std::string& tail);

// Whether `path` begins with Rust's remapped toolchain sources,
// "/rustc/" followed by a 40-digit commit and '/'; if so, the length of
// that prefix.
size_t rustc_prefix_length(const std::string& path);

} // namespace vgprof

#endif
