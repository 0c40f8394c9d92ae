// SPDX-License-Identifier: GPL-2.0-or-later
// Finding on this machine the source files a profile names. A profile keeps
// each path as the debug information gave it: absolute from the directory
// the program was compiled in, which may be another machine's or a build
// tree moved since, or relative (as in Debian's C library). Substitutions
// rewrite the start of a path; relative paths are looked for in a list of
// directories.
#ifndef VGPROF_SOURCE_HPP
#define VGPROF_SOURCE_HPP

#include "vgprof/file_io.hpp"  // read_lines, once declared here

#include <string>
#include <string_view>
#include <vector>

namespace vgprof {

// A path prefix and what replaces it (`--subst FROM=TO`).
struct Substitution {
    std::string from;
    std::string to;
};

// Parses FROM=TO. Throws vgprof::Error, the message starting with `option`,
// when there is no '=' or FROM is empty.
Substitution parse_substitution(std::string_view text, std::string_view option);

// Where to look for source files.
struct SourceSearch {
    // Tried in order; the first whose `from` is a leading part of the path,
    // ending at a '/' of it or at its end, rewrites it, and no other does.
    std::vector<Substitution> substitutions;
    // Where a relative path is looked for, in order, before the current
    // directory.
    std::vector<std::string> dirs;
    // The Rust standard library's sources (a rust-src component's
    // .../library), where a path Rust remapped to
    // /rustc/<commit>/library/... is looked for, in order.
    std::vector<std::string> rust_library_dirs;
};

// The Rust standard library sources installed on this machine, in the order
// to try them: $RUST_SRC_PATH, the rust-src component of the rustc on PATH
// (<sysroot>/lib/rustlib/src/rust/library), Debian's rust-src package
// (/usr/src/rustc-*/library, in reverse name order). Only those that exist.
std::vector<std::string> installed_rust_library_dirs();

// `path` rewritten by the first of `substitutions` that applies (see
// SourceSearch), or unchanged.
std::string apply_substitutions(const std::string& path,
                                const std::vector<Substitution>& substitutions);

// A source file looked for: the file found, or every place tried.
struct SourceLookup {
    std::string found;               // empty when not found
    std::vector<std::string> tried;  // in order, the found one last
};

// Looks for the file a profile names `recorded`: the path after
// substitution when it is absolute, else that path below each of
// search.dirs and then below the current directory. Only regular files
// count.
SourceLookup find_source(const std::string& recorded, const SourceSearch& search);

// The text of the file a profile names `recorded`, looked for as
// find_source() looks. Throws vgprof::Error naming the file when it is not
// found or cannot be read.
std::string read_source(const std::string& recorded, const SourceSearch& search);

// Whether the file at `path` was last modified after the one at
// `reference`; false when either cannot be examined.
bool modified_after(const std::string& path, const std::string& reference);

} // namespace vgprof

#endif
