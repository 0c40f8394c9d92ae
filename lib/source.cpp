// SPDX-License-Identifier: GPL-2.0-or-later
// Source file lookup: substitutions, search directories, reading a source
// file and comparing modification times.
#include "vgprof/source.hpp"

#include "vgprof/error.hpp"
#include "vgprof/file_io.hpp"
#include "vgprof/path_display.hpp"

#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

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
        if (starts_with_component(path, s.from))
            return s.to + path.substr(s.from.size());
    return path;
}

namespace {

// Never read for a profile, whatever it is trusted with: the kernel's views
// of processes (their environments: a CI job's secrets), of devices (that
// block or never end) and of the system.
const char* const kNeverRead[] = {"/proc", "/sys", "/dev"};

// Where sources that are no secret live on any machine: the system's
// headers and sources and GCC's own headers.
const char* const kSystemSourceDirs[] = {"/usr/include", "/usr/local/include", "/usr/src",
                                         "/usr/lib/gcc"};

std::string env_or_empty(const char* name)
{
    const char* value = std::getenv(name);
    return value != nullptr ? value : "";
}

std::optional<std::string> real_path(const std::string& path)
{
    std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), &std::free);
    if (!real)
        return std::nullopt;
    return std::string(real.get());
}

// A component of `path` below `dir` is hidden (starts with '.'): .git's
// configuration with its credentials, .env files, a home's .ssh.
bool hidden_below(const std::string& path, const std::string& dir)
{
    const size_t start = dir == "/" ? 0 : dir.size();
    return path.find("/.", start) != std::string::npos;
}

// Cargo's copies of the crates a Rust program depends on.
std::vector<std::string> cargo_source_dirs()
{
    std::string home = env_or_empty("CARGO_HOME");
    if (home.empty() && !env_or_empty("HOME").empty())
        home = env_or_empty("HOME") + "/.cargo";
    if (home.empty())
        return {};
    return {home + "/registry/src", home + "/git/checkouts"};
}

std::string describe_kind(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    return "not a regular file";
}

} // namespace

std::vector<std::string> source_places(const SourceSearch& search)
{
    std::vector<std::string> wanted = {"."};
    wanted.insert(wanted.end(), search.dirs.begin(), search.dirs.end());
    for (const Substitution& s : search.substitutions)
        wanted.push_back(s.to.empty() ? "." : s.to);
    wanted.insert(wanted.end(), search.rust_library_dirs.begin(), search.rust_library_dirs.end());
    wanted.insert(wanted.end(), std::begin(kSystemSourceDirs), std::end(kSystemSourceDirs));
    for (const std::string& dir : cargo_source_dirs())
        wanted.push_back(dir);
    std::vector<std::string> places;
    for (const std::string& dir : wanted)
        if (const std::optional<std::string> real = real_path(dir);
            real && std::find(places.begin(), places.end(), *real) == places.end())
            places.push_back(*real);
    return places;
}

std::string file_refusal(const std::string& path, uint64_t max_bytes)
{
    const std::optional<std::string> real = real_path(path);
    if (!real)
        return path + ": cannot open: " + std::strerror(errno);
    for (const char* dir : kNeverRead)
        if (starts_with_component(*real, dir))
            return path + ": not read: files in " + dir + " are never read for a profile";
    struct stat st;
    if (::stat(real->c_str(), &st) != 0)
        return path + ": cannot open: " + std::strerror(errno);
    if (!S_ISREG(st.st_mode))
        return path + ": not read: " + describe_kind(st.st_mode) + ", not a regular file";
    if (uint64_t(st.st_size) > max_bytes)
        return path + ": not read: larger than " + std::to_string(max_bytes >> 20) +
               " MiB, the most vgprof reads of a file a profile names";
    return {};
}

std::string source_refusal(const std::string& path, const SourceSearch& search)
{
    if (std::string why = file_refusal(path, kMaxSourceBytes); !why.empty())
        return why;
    if (search.trust_profile)
        return {};
    const std::string real = *real_path(path);
    for (const std::string& place : source_places(search))
        if (starts_with_component(real, place))
            return hidden_below(real, place)
                       ? path + ": not read: a hidden file or directory (--trust-profile reads it)"
                       : std::string();
    return path + ": not read: outside the current directory, --source-dir, --subst and the "
                  "system's and toolchains' sources (--trust-profile reads it)";
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
        struct stat st;
        if (::stat(candidate.c_str(), &st) != 0)
            continue;
        const std::string why = source_refusal(candidate, search);
        if (why.empty()) {
            lookup.found = candidate;
            lookup.refused.clear();
            break;
        }
        if (lookup.refused.empty())
            lookup.refused = why;
    }
    return lookup;
}

std::string read_named_file(const std::string& path, uint64_t max_bytes)
{
    // Opened without waiting (a FIFO put in its place would block) and
    // examined through the descriptor, so that what is read is what was
    // examined.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        throw Error(path + ": cannot open: " + std::strerror(errno));
    const std::unique_ptr<int, void (*)(int*)> closer(new int(fd), [](int* f) {
        ::close(*f);
        delete f;
    });
    struct stat st;
    if (::fstat(fd, &st) != 0)
        throw Error(path + ": cannot read: " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw Error(path + ": not read: " + describe_kind(st.st_mode) + ", not a regular file");
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw Error(path + ": cannot read: " + std::strerror(errno));
        if (n == 0)
            break;
        if (text.size() + size_t(n) > max_bytes)
            throw Error(path + ": not read: larger than " + std::to_string(max_bytes >> 20) +
                        " MiB, the most vgprof reads of a file a profile names");
        text.append(buffer, size_t(n));
    }
    return text;
}

std::string read_source(const std::string& recorded, const SourceSearch& search)
{
    const SourceLookup lookup = find_source(recorded, search);
    if (!lookup.found.empty())
        return read_named_file(lookup.found, kMaxSourceBytes);
    if (!lookup.refused.empty())
        throw Error(lookup.refused);
    throw Error(lookup.tried.empty() ? recorded + ": not found"
                                     : lookup.tried.back() + ": cannot open: " +
                                           std::strerror(ENOENT));
}

std::vector<std::string> split_lines(const std::string& text)
{
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

namespace {

bool is_directory(const std::string& path)
{
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> globbed(const std::string& pattern)
{
    std::vector<std::string> paths;
    glob_t found;
    if (::glob(pattern.c_str(), 0, nullptr, &found) == 0) {
        for (size_t i = found.gl_pathc; i > 0; --i)   // in reverse name order: newest first
            paths.push_back(found.gl_pathv[i - 1]);
        ::globfree(&found);
    }
    return paths;
}

// The commit of the rustc of a rustup toolchain, as its channel manifest
// names it ("[pkg.rust]" then `version = "1.95.0 (59807616e 2026-04-14)"`:
// the commit's first digits); empty when that cannot be read.
std::string toolchain_commit(const std::string& toolchain)
{
    constexpr uint64_t kMaxManifestBytes = uint64_t(16) << 20;
    std::string text;
    try {
        text = read_named_file(toolchain + "/lib/rustlib/multirust-channel-manifest.toml",
                               kMaxManifestBytes);
    } catch (const Error&) {
        return {};
    }
    const size_t section = text.find("\n[pkg.rust]\n");
    const std::string key = "\nversion = \"";
    const size_t version = section == std::string::npos ? section : text.find(key, section + 1);
    const size_t next_section = text.find("\n[", section + 1);
    if (version == std::string::npos || version > next_section)
        return {};
    const size_t open = text.find('(', version), end = text.find('\n', version + 1);
    if (open == std::string::npos || open > end)
        return {};
    size_t digits = open + 1;
    while (digits < end && std::isxdigit(static_cast<unsigned char>(text[digits])))
        ++digits;
    return text.substr(open + 1, digits - open - 1);
}

// rustup's toolchains, the one built from `commit` first (when known).
std::vector<std::string> rustup_toolchains(const std::string& commit)
{
    std::string home = env_or_empty("RUSTUP_HOME");
    if (home.empty() && !env_or_empty("HOME").empty())
        home = env_or_empty("HOME") + "/.rustup";
    if (home.empty())
        return {};
    std::vector<std::string> toolchains = globbed(home + "/toolchains/*");
    std::stable_partition(toolchains.begin(), toolchains.end(), [&](const std::string& t) {
        const std::string built_from = toolchain_commit(t);
        return !commit.empty() && !built_from.empty() && commit.rfind(built_from, 0) == 0;
    });
    return toolchains;
}

} // namespace

std::vector<std::string> installed_rust_library_dirs(const std::string& commit)
{
    std::vector<std::string> candidates;
    if (const std::string env = env_or_empty("RUST_SRC_PATH"); !env.empty())
        candidates.push_back(env);
    for (const std::string& toolchain : rustup_toolchains(commit))
        candidates.push_back(toolchain + "/lib/rustlib/src/rust/library");
    for (const char* prefix : {"/usr/local", "/usr"})
        candidates.push_back(std::string(prefix) + "/lib/rustlib/src/rust/library");
    for (const std::string& dir : globbed("/usr/src/rustc-*/library"))
        candidates.push_back(dir);
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
