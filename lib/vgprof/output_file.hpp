// SPDX-License-Identifier: GPL-2.0-or-later
// Writing a file so that no reader ever sees half of it: everything vgprof
// writes (merged profiles, exports) goes through here.
#ifndef VGPROF_OUTPUT_FILE_HPP
#define VGPROF_OUTPUT_FILE_HPP

#include <functional>
#include <iosfwd>
#include <string>

namespace vgprof {

// Runs `write` on a stream into `path.tmp.PID` in the destination's
// directory and renames that over `path` once everything is written and
// flushed. A destination that exists and is not a regular file (a device
// such as /dev/null, a FIFO, a symbolic link) is written in place instead,
// as the Valgrind tool writes its profile. Throws vgprof::Error naming
// `path` when the file cannot be created, written or renamed, after
// removing the temporary file; an exception from `write` also removes it
// and passes through.
void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write);

} // namespace vgprof

#endif
