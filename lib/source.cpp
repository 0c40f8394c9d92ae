// SPDX-License-Identifier: GPL-2.0-or-later
// Source file lookup: substitutions, search directories, reading a source
// file and comparing modification times.
#include "vgprof/source.hpp"

#include "vgprof/error.hpp"
#include "vgprof/file_io.hpp"
#include "vgprof/path_display.hpp"
#include "vgprof/subprocess.hpp"

#include <glob.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>

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
    static const std::string kLibrary = "library/";
    const size_t rustc = path == recorded ? rustc_prefix_length(path) : 0;
    if (rustc != 0 && path.compare(rustc, kLibrary.size(), kLibrary) == 0) {
        candidates.push_back(path);
        for (const std::string& dir : search.rust_library_dirs)
            candidates.push_back(joined(dir, path.substr(rustc + kLibrary.size())));
    } else if (!path.empty() && path[0] == '/') {
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

namespace {

bool is_directory(const std::string& path)
{
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// What `rustc --print sysroot` prints, without its newline; empty when there
// is no rustc on PATH (or it fails, or hangs).
std::string rustc_sysroot()
{
    CaptureOptions options;
    options.timeout = std::chrono::seconds(10);
    Captured c;
    try {
        c = capture({"/usr/bin/env", "rustc", "--print", "sysroot"}, options);
    } catch (const Error&) {
        return {};
    }
    if (c.status != 0 || c.timed_out)
        return {};
    while (!c.out.empty() && (c.out.back() == '\n' || c.out.back() == '\r'))
        c.out.pop_back();
    return c.out;
}

} // namespace

std::vector<std::string> installed_rust_library_dirs()
{
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("RUST_SRC_PATH"); env != nullptr && *env != '\0')
        candidates.push_back(env);
    if (const std::string sysroot = rustc_sysroot(); !sysroot.empty())
        candidates.push_back(sysroot + "/lib/rustlib/src/rust/library");
    glob_t found;
    if (::glob("/usr/src/rustc-*/library", 0, nullptr, &found) == 0) {
        for (size_t i = found.gl_pathc; i > 0; --i)   // in reverse name order
            candidates.push_back(found.gl_pathv[i - 1]);
        ::globfree(&found);
    }
    std::vector<std::string> dirs;
    for (const std::string& dir : candidates)
        if (is_directory(dir))
            dirs.push_back(dir);
    return dirs;
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
