// SPDX-License-Identifier: GPL-2.0-or-later
// Finding on this machine the source files a profile names. A profile keeps
// each path as the debug information gave it: absolute from the directory
// the program was compiled in, which may be another machine's or a build
// tree moved since, or relative (as in Debian's C library). Substitutions
// rewrite the start of a path; relative paths are looked for in a list of
// directories.
//
// A profile may come from a stranger (the one a pull request brings to a CI
// job), so the files it names are read only where the user allows: below
// the current directory, a --source-dir, a --subst's replacement, the
// system's headers and sources and the toolchains' sources, and never a
// hidden file or directory below those; only regular files, of at most
// kMaxSourceBytes, never anything in /proc, /sys or /dev. Trusting the
// profile (--trust-profile) lifts the limit on places.
#ifndef VGPROF_SOURCE_HPP
#define VGPROF_SOURCE_HPP

#include "vgprof/file_io.hpp"  // read_lines, once declared here

#include <cstdint>
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
    // Whether the profile's files are read wherever they are (the places
    // are not checked; the kinds of file and the size still are).
    bool trust_profile = false;
};

// The most bytes of a source file read for a profile.
inline constexpr uint64_t kMaxSourceBytes = uint64_t(64) << 20;

// The Rust standard library sources installed on this machine, in the order
// to try them: $RUST_SRC_PATH, the rust-src component of each rustup
// toolchain ($RUSTUP_HOME or ~/.rustup; the one built from `commit`, the
// /rustc/<commit>/ of the profile's paths, first, as its channel manifest
// says), of an installation in /usr/local or /usr, and Debian's rust-src
// package (/usr/src/rustc-*/library, in reverse name order). Only those
// that exist. No program is run: a rustc or rustup found on PATH would
// obey a rust-toolchain.toml of the current directory.
std::vector<std::string> installed_rust_library_dirs(const std::string& commit = {});

// The directories (real paths) a profile's sources may be read from without
// trusting it: the current directory, search.dirs, the substitutions'
// replacements, search.rust_library_dirs, /usr/include,
// /usr/local/include, /usr/src, /usr/lib/gcc and Cargo's copies of crates
// ($CARGO_HOME or ~/.cargo, registry/src and git/checkouts). Only those
// that exist.
std::vector<std::string> source_places(const SourceSearch& search);

// Why the existing file at `path` may not be read for a profile, as a
// message starting with `path`; empty when it may: a regular file of at
// most `max_bytes`, not in /proc, /sys or /dev (symbolic links followed).
std::string file_refusal(const std::string& path, uint64_t max_bytes);

// As file_refusal() for a source, with kMaxSourceBytes; unless
// search.trust_profile, also when the file (symbolic links followed) is
// not below one of source_places(search), or is hidden below it.
std::string source_refusal(const std::string& path, const SourceSearch& search);

// The contents of the file at `path`, opened without waiting and examined
// through the descriptor opened: throws vgprof::Error naming the file when
// it cannot be opened or read, is not a regular file (a FIFO, a device) or
// holds more than `max_bytes`.
std::string read_named_file(const std::string& path, uint64_t max_bytes);

// `text` cut into lines, without their line ends ("\n" or "\r\n").
std::vector<std::string> split_lines(const std::string& text);

// `path` rewritten by the first of `substitutions` that applies (see
// SourceSearch), or unchanged.
std::string apply_substitutions(const std::string& path,
                                const std::vector<Substitution>& substitutions);

// A source file looked for: the file found, or every place tried.
struct SourceLookup {
    std::string found;               // empty when not found
    std::vector<std::string> tried;  // in order, the found one last
    // When nothing was found: why the first file that exists where it was
    // looked for may not be read (source_refusal()); else empty.
    std::string refused;
};

// Looks for the file a profile names `recorded`: the path after
// substitution when it is absolute, else that path below each of
// search.dirs and then below the current directory. Only files
// source_refusal() allows count.
SourceLookup find_source(const std::string& recorded, const SourceSearch& search);

// The text of the file a profile names `recorded`, looked for as
// find_source() looks and read by read_named_file(). Throws vgprof::Error
// naming the file when it is not found, may not be read or cannot be read.
std::string read_source(const std::string& recorded, const SourceSearch& search);

// Whether the file at `path` was last modified after the one at
// `reference`; false when either cannot be examined.
bool modified_after(const std::string& path, const std::string& reference);

} // namespace vgprof

#endif
