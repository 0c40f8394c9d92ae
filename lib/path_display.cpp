// SPDX-License-Identifier: GPL-2.0-or-later
// Paths as the commands show them (see vgprof/path_display.hpp).
#include "vgprof/path_display.hpp"

#include "vgprof/identity.hpp"
#include "vgprof/profile.hpp"

#include <cctype>
#include <optional>

namespace vgprof {

namespace {

constexpr size_t kCommitDigits = 40;
constexpr size_t kShortCommit = 9;   // as `rustc --version` shows a commit

// Where the rest of `path` starts after the first of `prefixes` that
// applies to it and the '/'s that follow; nullopt when none applies.
std::optional<size_t> stripped_length(const std::string& path,
                                      const std::vector<std::string>& prefixes)
{
    for (const std::string& prefix : prefixes)
        if (starts_with_component(path, prefix)) {
            size_t rest = prefix.size();
            while (rest < path.size() && path[rest] == '/')
                ++rest;
            return rest;
        }
    return std::nullopt;
}

} // namespace

bool starts_with_component(const std::string& path, const std::string& prefix)
{
    if (prefix.empty() || path.compare(0, prefix.size(), prefix) != 0)
        return false;
    return prefix.back() == '/' || path.size() == prefix.size() || path[prefix.size()] == '/';
}

bool ends_with_component(const std::string& path, const std::string& tail)
{
    if (tail.empty() || path.size() < tail.size() ||
        path.compare(path.size() - tail.size(), tail.size(), tail) != 0)
        return false;
    return path.size() == tail.size() || tail.front() == '/' ||
           path[path.size() - tail.size() - 1] == '/';
}

size_t rustc_prefix_length(const std::string& path)
{
    static const std::string kRustc = "/rustc/";
    const size_t end = kRustc.size() + kCommitDigits;
    if (path.size() <= end || path.compare(0, kRustc.size(), kRustc) != 0 || path[end] != '/')
        return 0;
    for (size_t i = kRustc.size(); i < end; ++i)
        if (!std::isxdigit(static_cast<unsigned char>(path[i])))
            return 0;
    return end + 1;
}

std::string PathDisplay::stripped(const std::string& path) const
{
    const std::optional<size_t> rest = stripped_length(path, strip_prefixes);
    return rest && *rest < path.size() ? path.substr(*rest) : path;
}

std::string PathDisplay::show(const std::string& path) const
{
    if (stripped_length(path, strip_prefixes))
        return stripped(path);
    if (const size_t n = rustc_prefix_length(path))
        return path.substr(0, 7 + kShortCommit) + path.substr(n - 1);
    return path;
}

std::string function_label(const Profile& profile, FnId fn, const PathDisplay& display)
{
    const Function& f = profile.function(fn);
    return function_label(profile.str(f.name), display.show(profile.file_path(f.file)), f.line,
                          display.show(profile.obj_path(f.obj)));
}

} // namespace vgprof
