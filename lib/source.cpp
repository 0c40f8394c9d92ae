// SPDX-License-Identifier: GPL-2.0-or-later
// Source file lookup: substitutions, search directories, reading a source
// file and comparing modification times.
#include "vgprof/source.hpp"

#include "vgprof/error.hpp"

#include <sys/stat.h>


namespace vgprof {

Substitution parse_substitution(std::string_view text, std::string_view option)
{
    const size_t equals = text.find('=');
    const auto bad = [&](const char* why) {
        return Error(std::string(option) + ": \"" + std::string(text) + "\": " + why +
                     " (expected FROM=TO, e.g. /build/src=/home/me/src)");
    };
    if (equals == std::string_view::npos)
        throw bad("no '='");
    if (equals == 0)
        throw bad("nothing to replace before '='");
    return {std::string(text.substr(0, equals)), std::string(text.substr(equals + 1))};
}

namespace {

bool is_regular_file(const std::string& path)
{
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// `from` is a leading part of `path` ending at a path separator (or at its
// end), so /src does not rewrite /srcdir/a.c.
bool starts_with_dir(const std::string& path, const std::string& from)
{
    if (path.compare(0, from.size(), from) != 0)
        return false;
    return path.size() == from.size() || from.back() == '/' || path[from.size()] == '/';
}

std::string joined(const std::string& dir, const std::string& relative)
{
    if (dir.empty())
        return relative;
    return dir.back() == '/' ? dir + relative : dir + "/" + relative;
}

} // namespace

std::string apply_substitutions(const std::string& path,
                                const std::vector<Substitution>& substitutions)
{
    for (const Substitution& s : substitutions)
        if (starts_with_dir(path, s.from))
            return s.to + path.substr(s.from.size());
    return path;
}

SourceLookup find_source(const std::string& recorded, const SourceSearch& search)
{
    SourceLookup lookup;
    const std::string path = apply_substitutions(recorded, search.substitutions);
    std::vector<std::string> candidates;
    if (!path.empty() && path[0] == '/') {
        candidates.push_back(path);
    } else {
        for (const std::string& dir : search.dirs)
            candidates.push_back(joined(dir, path));
        candidates.push_back(path);
    }
    for (const std::string& candidate : candidates) {
        lookup.tried.push_back(candidate);
        if (is_regular_file(candidate)) {
            lookup.found = candidate;
            break;
        }
    }
    return lookup;
}

std::string read_source(const std::string& recorded, const SourceSearch& search)
{
    const SourceLookup lookup = find_source(recorded, search);
    // Not found: reading the path as rewritten says why, as for any file.
    return read_file(lookup.found.empty() ? apply_substitutions(recorded, search.substitutions)
                                          : lookup.found);
}

bool modified_after(const std::string& path, const std::string& reference)
{
    struct stat a, b;
    if (::stat(path.c_str(), &a) != 0 || ::stat(reference.c_str(), &b) != 0)
        return false;
    if (a.st_mtim.tv_sec != b.st_mtim.tv_sec)
        return a.st_mtim.tv_sec > b.st_mtim.tv_sec;
    return a.st_mtim.tv_nsec > b.st_mtim.tv_nsec;
}

} // namespace vgprof
