// SPDX-License-Identifier: GPL-2.0-or-later
// Named baselines (see baseline.hpp).
#include "baseline.hpp"
#include "commands.hpp"

#include "vgprof/error.hpp"
#include "vgprof/file_io.hpp"
#include "vgprof/load.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>
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

std::map<std::string, std::string> suite_profiles(const std::string& dir)
{
    namespace fs = std::filesystem;
    std::map<std::string, std::string> profiles;
    std::error_code error;
    fs::directory_iterator it(dir, error);
    if (error)
        throw Error(fmt::format("{}: cannot read the directory: {}", dir, error.message()));
    for (const fs::directory_entry& entry : it) {
        const std::string file = entry.path().filename().string();
        const std::string name = benchmark_name(file);
        if (file[0] == '.' || name == file || !entry.is_regular_file(error))
            continue;
        profiles[name] = entry.path().string();
    }
    return profiles;
}

std::string existing_suite_baseline(const std::string& dir, const std::string& name)
{
    check_name(name);
    const std::string path = (dir.empty() || dir.back() == '/' ? dir : dir + "/") + name;
    struct stat st;
    const bool found = ::stat(path.c_str(), &st) == 0;
    if (!found || !S_ISDIR(st.st_mode))
        throw Error(fmt::format("no suite baseline \"{}\" in {} ({}: {}); store one with "
                                "--save-baseline {} DIR",
                                name, dir, path, found ? "not a directory" : std::strerror(errno),
                                name));
    return path;
}

std::string save_suite_baseline(const std::string& dir, const std::string& name,
                                const std::string& profiles)
{
    namespace fs = std::filesystem;
    check_name(name);
    const std::map<std::string, std::string> found = suite_profiles(profiles);
    if (found.empty())
        throw Error(fmt::format("{}: no profiles (files ending in .json, .json.gz or .json.zst) "
                                "to store as baseline \"{}\"",
                                profiles, name));
    std::vector<std::pair<std::string, std::string>> texts;  // file name, contents
    for (const auto& [benchmark, path] : found) {
        std::string text = read_file(path);
        parse_profile(text, path);  // a baseline that diff cannot read is no baseline
        texts.emplace_back(fs::path(path).filename().string(), std::move(text));
    }
    make_directories(dir);
    const std::string target = (dir.back() == '/' ? dir : dir + "/") + name;
    std::string temp_name = (dir.back() == '/' ? dir : dir + "/") + "." + name + ".XXXXXX";
    std::vector<char> temp(temp_name.begin(), temp_name.end());
    temp.push_back('\0');
    if (::mkdtemp(temp.data()) == nullptr)
        throw Error(fmt::format("cannot save baseline \"{}\" to {}: cannot create a temporary "
                                "directory: {}",
                                name, target, std::strerror(errno)));
    const std::string staging = temp.data();
    std::error_code ignored;
    try {
        for (const auto& entry : texts) {
            // Not a structured binding: C++17 lets no lambda capture one
            // (clang, which builds the fuzz targets, holds to that).
            const std::string& text = entry.second;
            try {
                write_file_atomically(
                    staging + "/" + entry.first, [&](std::ostream& out) { out << text; },
                    Durability::synced);
            } catch (const Error& e) {
                throw Error(fmt::format("cannot save baseline \"{}\": {}", name, e.what()));
            }
        }
        ::chmod(staging.c_str(), 0755);
        // Swapped in one step when there is a baseline to replace, so that a
        // reader never finds none.
        const bool exists = fs::is_directory(target, ignored);
        const int moved = exists ? ::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD,
                                               target.c_str(), RENAME_EXCHANGE)
                                 : ::rename(staging.c_str(), target.c_str());
        if (moved != 0)
            throw Error(fmt::format("cannot save baseline \"{}\" to {}: cannot rename the "
                                    "temporary directory: {}",
                                    name, target, std::strerror(errno)));
    } catch (...) {
        fs::remove_all(staging, ignored);
        throw;
    }
    fs::remove_all(staging, ignored);  // the old baseline, after a swap
    return target;
}

} // namespace vgprof::cli
