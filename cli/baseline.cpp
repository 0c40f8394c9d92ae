// SPDX-License-Identifier: GPL-2.0-or-later
// Named baselines (see baseline.hpp).
#include "baseline.hpp"

#include "vgprof/error.hpp"
#include "vgprof/load.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace vgprof::cli {

namespace {

void check_name(const std::string& name)
{
    const auto bad = [&](const std::string& why) {
        return Error(fmt::format("baseline name \"{}\": {}", name, why));
    };
    if (name.empty())
        throw bad("empty");
    if (name[0] == '.')
        throw bad("must not start with '.'");
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
            throw bad(fmt::format("only letters, digits, '.', '_' and '-' may be used, not '{}'",
                                  c));
}

std::string read_whole(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw Error(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
    return text.str();
}

// mkdir -p: each missing directory of `dir`, from the top.
void make_directories(const std::string& dir)
{
    for (size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
        const std::string part = dir.substr(0, slash);
        if (!part.empty() && ::mkdir(part.c_str(), 0777) != 0 && errno != EEXIST)
            throw Error(fmt::format("cannot create the baseline directory {}: {}", part,
                                    std::strerror(errno)));
        if (slash == std::string::npos)
            break;
    }
    struct stat st;
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw Error(fmt::format("the baseline directory {} is not a directory", dir));
}

// Writes `text` to a temporary file beside `path` and renames it into place.
void write_atomically(const std::string& path, const std::string& dir, const std::string& name,
                      const std::string& text)
{
    std::string temp_name = dir + "/." + name + ".json.XXXXXX";
    std::vector<char> temp(temp_name.begin(), temp_name.end());
    temp.push_back('\0');
    const int fd = ::mkstemp(temp.data());
    const auto fail = [&](const char* what) {
        const int saved = errno;
        if (fd >= 0)
            ::unlink(temp.data());
        return Error(fmt::format("cannot save baseline \"{}\" to {}: {}: {}", name, path, what,
                                 std::strerror(saved)));
    };
    if (fd < 0)
        throw fail("cannot create a temporary file");
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const Error e = fail("cannot write");
            ::close(fd);
            throw e;
        }
        done += size_t(n);
    }
    // The rename must not expose a file whose data is not yet on disk.
    if (::fsync(fd) != 0 || ::fchmod(fd, 0644) != 0) {
        const Error e = fail("cannot write");
        ::close(fd);
        throw e;
    }
    if (::close(fd) != 0)
        throw fail("cannot write");
    if (::rename(temp.data(), path.c_str()) != 0)
        throw fail("cannot rename the temporary file");
}

} // namespace

std::string baseline_path(const std::string& dir, const std::string& name)
{
    check_name(name);
    return (dir.empty() || dir.back() == '/' ? dir : dir + "/") + name + ".json";
}

std::string existing_baseline(const std::string& dir, const std::string& name)
{
    const std::string path = baseline_path(dir, name);
    struct stat st;
    if (::stat(path.c_str(), &st) != 0)
        throw Error(fmt::format("no baseline \"{}\" in {} ({}: {}); store one with "
                                "--save-baseline {} PROFILE",
                                name, dir, path, std::strerror(errno), name));
    return path;
}

std::string save_baseline(const std::string& dir, const std::string& name,
                          const std::string& profile)
{
    const std::string path = baseline_path(dir, name);
    const std::string text = read_whole(profile);
    parse_profile(text, profile);  // a baseline that diff cannot read is no baseline
    make_directories(dir);
    write_atomically(path, dir, name, text);
    return path;
}

} // namespace vgprof::cli
