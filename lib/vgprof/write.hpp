// SPDX-License-Identifier: GPL-2.0-or-later
// Writing a profile: the Profile model back to the JSON text of
// docs/profile-format.md, laid out as the Valgrind tool lays it out, so that
// loading what was written gives back the same model.
#ifndef VGPROF_WRITE_HPP
#define VGPROF_WRITE_HPP

#include "vgprof/profile.hpp"

#include <iosfwd>
#include <string>

namespace vgprof {

// The format version a profile is written as: its own (meta().version),
// raised to the oldest version that has everything it holds (2 for a call
// graph, 3 for the heap, 4 for meta.merged, 10 for the timeline).
int written_version(const Profile& profile);

// Writes `profile` as JSON text. The tables are written in the model's
// order, which the loader keeps as it reads them (inclusive rows sorted by
// function), so a profile the tool wrote comes out byte for byte as the tool
// wrote it, apart from strings holding bytes that were not UTF-8 (written
// as the characters they were read as) and an empty `instrs` table (left
// out: the model does not tell it from an absent one).
void write_profile(std::ostream& out, const Profile& profile);

// Writes `profile` to the file `path` (see write_file_atomically). Throws
// vgprof::Error naming the file when it cannot be written.
void save_profile(const std::string& path, const Profile& profile);

} // namespace vgprof

#endif
