// SPDX-License-Identifier: GPL-2.0-or-later
// Reading files whole or by lines; writing through a temporary file and a
// rename (see file_io.hpp).
#include "vgprof/file_io.hpp"

#include "vgprof/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

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

namespace {

[[noreturn]] void fail(const std::string& path, const char* what, int error)
{
    throw Error(path + ": cannot " + what + ": " + std::strerror(error));
}

// Writes and closes `out`, reporting the first failure as errno saw it.
// A stream that failed without setting errno (it buffers) is reported as
// an input/output error.
void write_and_close(std::ofstream& out, const std::string& path,
                     const std::function<void(std::ostream&)>& write)
{
    errno = 0;
    write(out);
    out.flush();
    if (!out)
        fail(path, "write", errno ? errno : EIO);
    out.close();
    if (!out)
        fail(path, "write", errno ? errno : EIO);
}

// Only a regular file (or nothing) is replaced by a rename: renaming over
// /dev/null or a FIFO would replace the special file itself.
bool replaceable(const std::string& path)
{
    struct stat st;
    return lstat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode);
}

// fsync() through a descriptor of its own: std::ofstream shows none.
void sync_to_disk(const std::string& file, const std::string& path)
{
    const int fd = ::open(file.c_str(), O_RDONLY);
    const bool synced = fd >= 0 && ::fsync(fd) == 0;
    const int error = errno;
    if (fd >= 0)
        ::close(fd);
    if (!synced)
        fail(path, "write", error);
}

} // namespace

void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write,
                           Durability durability)
{
    if (!replaceable(path)) {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        if (!out)
            fail(path, "create", errno ? errno : EIO);
        write_and_close(out, path, write);
        return;
    }
    const std::string temporary = path + ".tmp." + std::to_string(getpid());
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out)
        fail(path, "create", errno ? errno : EIO);
    try {
        write_and_close(out, path, write);
        if (durability == Durability::synced)
            sync_to_disk(temporary, path);
        if (std::rename(temporary.c_str(), path.c_str()) != 0)
            fail(path, "rename the temporary file into place", errno);
    } catch (...) {
        out.close();
        std::remove(temporary.c_str());
        throw;
    }
}

} // namespace vgprof
