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
#include <streambuf>
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

// Runs `write` on a stream into a new file beside `path` and renames that
// over `path` once everything is written and flushed. The new file is
// created exclusively and not through a link ("PATH.tmp.PID", a number
// added when that name is taken), and the rename replaces the name itself:
// a symbolic link at `path` is replaced, never written through, so a link
// planted in a shared directory cannot redirect the write to another
// file. Written in place instead: the names of a descriptor the process
// holds (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), a device, a
// FIFO or a socket, and a link to a character device, a FIFO or a socket
// (renaming over /dev/null would replace the device). Throws vgprof::Error
// naming `path` and the cause (errno of the call that failed) when the file
// cannot be created, written or renamed, after removing the temporary
// file; an exception from `write` also removes it and passes through. With
// Durability::synced the data reaches the disk before the rename, so that
// a crash cannot leave the new name on an empty file (for what is kept for
// later runs, such as a CI baseline).
enum class Durability { flushed, synced };
void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write,
                           Durability durability = Durability::flushed);

// A stream buffer writing to a file descriptor it does not own, which
// keeps the errno of the first write that failed: by the time a stream
// reports failure, errno may hold any later call's cause.
class DescriptorBuffer : public std::streambuf {
public:
    explicit DescriptorBuffer(int fd);
    ~DescriptorBuffer() override;
    DescriptorBuffer(const DescriptorBuffer&) = delete;
    DescriptorBuffer& operator=(const DescriptorBuffer&) = delete;
    // 0 while every write succeeded, else the first failure's errno.
    int error() const { return error_; }

protected:
    int_type overflow(int_type c) override;
    int sync() override;

private:
    bool flush_buffer();
    int fd_;
    int error_ = 0;
    std::vector<char> buffer_;
};

// Flushes `out` and throws vgprof::Error "cannot write WHAT: CAUSE" when any
// write to it failed, the cause from its DescriptorBuffer when it has one.
void check_written(std::ostream& out, const std::string& what);

} // namespace vgprof

#endif
