// SPDX-License-Identifier: GPL-2.0-or-later
// Files read whole or by lines, and written so that no reader ever sees half
// of one: everything vgprof reads or writes other than a profile it parses
// as a stream (load.hpp) goes through here (merged profiles, exports,
// baselines, source files in the CLI and the viewer).
#ifndef VGPROF_FILE_IO_HPP
#define VGPROF_FILE_IO_HPP

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace vgprof {

// The whole file at `path`, calling progress(bytes read, file size) as it
// goes (size 0 when unknown, as for a pipe), when given. Throws
// vgprof::Error naming the file when it cannot be opened or read, or is a
// directory.
std::string read_file(const std::string& path,
                      const std::function<void(uint64_t, uint64_t)>& progress = {});

// The lines of a text file, without their line ends. Throws vgprof::Error
// naming the file when it cannot be read.
std::vector<std::string> read_lines(const std::string& path);

// Runs `write` on a stream into `path.tmp.PID` in the destination's
// directory and renames that over `path` once everything is written and
// flushed. A destination that exists and is not a regular file (a device
// such as /dev/null, a FIFO, a symbolic link) is written in place instead,
// as the Valgrind tool writes its profile. Throws vgprof::Error naming
// `path` when the file cannot be created, written or renamed, after
// removing the temporary file; an exception from `write` also removes it
// and passes through. With Durability::synced the data reaches the disk
// before the rename, so that a crash cannot leave the new name on an empty
// file (for what is kept for later runs, such as a CI baseline).
enum class Durability { flushed, synced };
void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write,
                           Durability durability = Durability::flushed);

} // namespace vgprof

#endif
