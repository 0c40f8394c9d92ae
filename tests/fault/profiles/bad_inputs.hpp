// SPDX-License-Identifier: GPL-2.0-or-later
// bad_inputs.hpp: profiles that lie, made from real ones. Each maker writes
// its files into a directory and says what is wrong with each, so that a
// failure names the fault.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "vgprof/profile.hpp"

namespace vgtest {

// The version after the newest one the readers know.
inline const std::string kFutureVersion = std::to_string(vgprof::kNewestVersion + 1);

struct BadInput {
   std::string what;  // the fault, as a test failure names it
   std::string path;  // the file that holds it
};

// `text` cut after each k/pieces of its length, k = 1 .. pieces-1, written
// to dir/NAME.cutK.
std::vector<BadInput> truncations(const std::string& text, const std::string& name,
                                  const std::string& dir, size_t pieces);

// Seeded random bytes, alone and after the first bytes of each format the
// readers recognise (so that they get past the sniffing).
std::vector<BadInput> random_inputs(const std::string& dir, uint32_t seeds);

// Valid JSON that breaks the profile format: every section with a value of
// the wrong type, ids out of their tables, negative, fractional, overflowing
// and non-finite numbers, cycles in the call-path tree, and future, missing
// and ill-typed versions. `profile` is a real profile with a call graph and
// a heap.
std::vector<BadInput> lying_profiles(const std::string& profile, const std::string& dir);

// Nesting `depth` arrays or objects deep, at the top of a document and
// inside each kind of section of a profile and of a DHAT file.
std::vector<BadInput> deep_nesting(const std::string& profile, const std::string& dir,
                                   size_t depth);

// A callgrind file and a DHAT file that lie: a name with control
// characters, names of a mebibyte (accepted, but a message quoting one must
// stay short), ids out of range, a future version.
std::vector<BadInput> lying_foreign(const std::string& callgrind, const std::string& dhat,
                                    const std::string& dir);

// One string (or line) of `bytes` bytes in a place a reader keeps it: the
// string table, a callgrind line and a DHAT command; with `every_place`,
// also meta, a top-level key and a streamed table. Written a chunk at a
// time; the caller removes the files when done with them.
std::vector<BadInput> huge_strings(const std::string& profile, const std::string& callgrind,
                                   const std::string& dir, uint64_t bytes, bool every_place);

}  // namespace vgtest
