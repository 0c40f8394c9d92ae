// SPDX-License-Identifier: GPL-2.0-or-later
// Named baselines (see baseline.hpp).
#include "baseline.hpp"

#include "vgprof/error.hpp"
#include "vgprof/file_io.hpp"
#include "vgprof/load.hpp"

#include <fmt/format.h>

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <ostream>

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
    const std::string text = read_file(profile);
    parse_profile(text, profile);  // a baseline that diff cannot read is no baseline
    make_directories(dir);
    try {
        // Kept for the runs to come: on disk before it has its name.
        write_file_atomically(path, [&](std::ostream& out) { out << text; },
                              Durability::synced);
    } catch (const Error& e) {
        throw Error(fmt::format("cannot save baseline \"{}\": {}", name, e.what()));
    }
    return path;
}

} // namespace vgprof::cli
