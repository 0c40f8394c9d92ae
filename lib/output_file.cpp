// SPDX-License-Identifier: GPL-2.0-or-later
// Temporary file and rename (see output_file.hpp).
#include "vgprof/output_file.hpp"

#include "vgprof/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

namespace vgprof {

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

} // namespace

void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write)
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
        if (std::rename(temporary.c_str(), path.c_str()) != 0)
            fail(path, "rename the temporary file into place", errno);
    } catch (...) {
        out.close();
        std::remove(temporary.c_str());
        throw;
    }
}

} // namespace vgprof
