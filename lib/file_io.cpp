// SPDX-License-Identifier: GPL-2.0-or-later
// Reading files whole or by lines; writing through a temporary file and a
// rename, never through a symbolic link (see file_io.hpp).
#include "vgprof/file_io.hpp"

#include "vgprof/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <ostream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace vgprof {

std::string read_file(const std::string& path,
                      const std::function<void(uint64_t, uint64_t)>& progress)
{
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                         &std::fclose);
    if (!file)
        throw Error(path + ": cannot open: " + std::strerror(errno));
    struct stat st;
    uint64_t size = 0;
    if (fstat(fileno(file.get()), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            throw Error(path + ": cannot read: it is a directory");
        if (S_ISREG(st.st_mode))
            size = uint64_t(st.st_size);
    }
    std::string text;
    text.reserve(size);
    std::vector<char> buffer(1 << 20);
    size_t n;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0) {
        text.append(buffer.data(), n);
        if (progress)
            progress(text.size(), size);
    }
    if (std::ferror(file.get()))
        throw Error(path + ": cannot read: " + std::strerror(errno));
    return text;
}

std::vector<std::string> read_lines(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(path + ": cannot open: " + std::strerror(errno));
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(std::move(line));
    }
    if (in.bad())
        throw Error(path + ": cannot read: " + std::strerror(errno));
    return lines;
}

DescriptorBuffer::DescriptorBuffer(int fd) : fd_(fd), buffer_(size_t(1) << 16)
{
    setp(buffer_.data(), buffer_.data() + buffer_.size());
}

DescriptorBuffer::~DescriptorBuffer() { sync(); }

// Writes out what is buffered. After a failure the rest is dropped: the
// writer goes on to the end and the first cause is what gets reported.
bool DescriptorBuffer::flush_buffer()
{
    const char* p = pbase();
    while (error_ == 0 && p < pptr()) {
        const ssize_t n = ::write(fd_, p, size_t(pptr() - p));
        if (n > 0)
            p += n;
        else if (n < 0 && errno == EINTR)
            continue;
        else
            error_ = n < 0 ? errno : EIO;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return error_ == 0;
}

DescriptorBuffer::int_type DescriptorBuffer::overflow(int_type c)
{
    if (!flush_buffer())
        return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
        *pptr() = traits_type::to_char_type(c);
        pbump(1);
    }
    return traits_type::not_eof(c);
}

int DescriptorBuffer::sync() { return flush_buffer() ? 0 : -1; }

void check_written(std::ostream& out, const std::string& what)
{
    out.flush();
    const auto* buffer = dynamic_cast<const DescriptorBuffer*>(out.rdbuf());
    const int error = buffer != nullptr ? buffer->error() : 0;
    if (error != 0 || !out)
        throw Error("cannot write " + what + ": " + std::strerror(error != 0 ? error : EIO));
}

namespace {

[[noreturn]] void fail(const std::string& path, const char* what, int error)
{
    throw Error(path + ": cannot " + what + ": " + std::strerror(error));
}

// Runs `write` into the open descriptor `fd` and flushes it, reporting the
// first failure with the errno of the call that failed.
void write_to(int fd, const std::string& path, const std::function<void(std::ostream&)>& write)
{
    DescriptorBuffer buffer(fd);
    std::ostream out(&buffer);
    write(out);
    out.flush();
    if (buffer.error() != 0)
        fail(path, "write", buffer.error());
    if (!out)
        fail(path, "write", EIO);
}

// The names of a descriptor the process already holds: the user means its
// standard output (or the file it was redirected to), whatever it is.
bool names_a_descriptor(const std::string& path)
{
    for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"})
        if (path.rfind(prefix, 0) == 0)
            return path.size() > std::strlen(prefix) &&
                   path.find_first_not_of("0123456789", std::strlen(prefix)) == std::string::npos;
    return path == "/dev/stdout" || path == "/dev/stderr";
}

// Written in place rather than replaced: a descriptor's name, a device, a
// FIFO, a socket (renaming over /dev/null would replace the device), and a
// link to one of these (/dev/stdout on a terminal or a pipe). A link to
// anything else, or to nothing, is replaced itself, never followed.
bool written_in_place(const std::string& path)
{
    if (names_a_descriptor(path))
        return true;
    struct stat link, target;
    if (lstat(path.c_str(), &link) != 0)
        return false;
    if (!S_ISLNK(link.st_mode))
        return !S_ISREG(link.st_mode);
    return stat(path.c_str(), &target) == 0 &&
           (S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode) || S_ISSOCK(target.st_mode));
}

void write_in_place(const std::string& path, const std::function<void(std::ostream&)>& write)
{
    // Neither created nor truncated unless it is a descriptor's name: what
    // is opened must already be what was looked at, and is checked again.
    const bool descriptor = names_a_descriptor(path);
    const int fd =
        ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | (descriptor ? O_TRUNC : 0));
    if (fd < 0)
        fail(path, "create", errno);
    struct stat st;
    if (!descriptor && (fstat(fd, &st) != 0 || S_ISREG(st.st_mode))) {
        ::close(fd);
        throw Error(path + ": cannot write: it became a regular file while being opened, and "
                           "was left as it was");
    }
    try {
        write_to(fd, path, write);
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0)
        fail(path, "write", errno);
}

// A new file beside `path`, created exclusively and never through a link:
// "PATH.tmp.PID", or with a number after it when that name is taken.
int create_temporary(const std::string& path, std::string& temporary)
{
    const std::string base = path + ".tmp." + std::to_string(getpid());
    for (int attempt = 0;; ++attempt) {
        temporary = attempt == 0 ? base : base + "." + std::to_string(attempt);
        const int fd =
            ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST || attempt == 100)
            fail(path, "create", errno);
    }
}

// Why the rename over `path` failed, with what a sticky directory forbids
// said outright: the common case is a name another user planted in /tmp.
[[noreturn]] void fail_to_replace(const std::string& path, int error)
{
    struct stat st;
    if (error == EPERM && lstat(path.c_str(), &st) == 0 && st.st_uid != geteuid())
        throw Error(path + ": cannot replace: " + std::strerror(error) + " (it is another user's " +
                    (S_ISLNK(st.st_mode) ? "symbolic link" : "file") +
                    ", in a directory where only a file's owner may replace it)");
    fail(path, "replace", error);
}

} // namespace

void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write,
                           Durability durability)
{
    if (written_in_place(path)) {
        write_in_place(path, write);
        return;
    }
    std::string temporary;
    const int fd = create_temporary(path, temporary);
    try {
        write_to(fd, path, write);
        if (durability == Durability::synced && ::fsync(fd) != 0)
            fail(path, "write", errno);
    } catch (...) {
        ::close(fd);
        std::remove(temporary.c_str());
        throw;
    }
    if (::close(fd) != 0) {
        const int error = errno;
        std::remove(temporary.c_str());
        fail(path, "write", error);
    }
    // rename() replaces the name itself: a symbolic link there is replaced,
    // the file it pointed to left alone.
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const int error = errno;
        std::remove(temporary.c_str());
        fail_to_replace(path, error);
    }
}

} // namespace vgprof
