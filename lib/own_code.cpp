// SPDX-License-Identifier: GPL-2.0-or-later
// Telling the program's own code from its toolchain's and system's (see
// vgprof/own_code.hpp).
#include "vgprof/own_code.hpp"

#include "vgprof/heap.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/path_display.hpp"

#include <fnmatch.h>

#include <algorithm>

namespace vgprof {

namespace {

bool starts_with(const std::string& text, const char* prefix)
{
    return text.compare(0, std::char_traits<char>::length(prefix), prefix) == 0;
}

bool contains(const std::string& text, const char* part)
{
    return text.find(part) != std::string::npos;
}

// Whether `pattern` (a prefix of whole components, or a glob) matches
// `path`.
bool pattern_matches(const std::string& pattern, const std::string& path)
{
    if (pattern.empty())
        return false;
    if (pattern.find_first_of("*?[") != std::string::npos)
        return fnmatch(pattern.c_str(), path.c_str(), 0) == 0;
    return starts_with_component(path, pattern);
}

// The longest of `patterns` matching `path`, 0 when none does.
size_t longest_match(const std::vector<std::string>& patterns, const std::string& path)
{
    size_t longest = 0;
    for (const std::string& p : patterns)
        if (pattern_matches(p, path))
            longest = std::max(longest, p.size());
    return longest;
}

std::optional<bool> decided_by(const OwnCodeRules& rules, const std::string& path)
{
    const size_t own = longest_match(rules.own, path), not_own = longest_match(rules.not_own, path);
    if (own == 0 && not_own == 0)
        return std::nullopt;
    return own > not_own;
}

} // namespace

bool is_own_code(const OwnCodeRules& rules, const std::string& file, const std::string& object)
{
    if (const auto said = decided_by(rules, file))
        return *said;
    return !is_unknown(file) && !is_toolchain_source(file) &&
           decided_by(rules, object).value_or(!is_system_object(object));
}

bool is_toolchain_source(const std::string& path)
{
    return rustc_prefix_length(path) != 0 || starts_with(path, "/rust/deps/") ||
           contains(path, "/.cargo/registry/") || contains(path, "/.cargo/git/") ||
           starts_with(path, "/cargo/registry/") || starts_with(path, "/usr/share/cargo/registry/") ||
           starts_with(path, "/usr/src/rustc-") ||   // Debian's rustc builds std there
           starts_with(path, "/usr/include/") || starts_with(path, "/usr/lib/gcc/") ||
           starts_with(path, "/usr/lib/llvm");
}

bool is_system_object(const std::string& path)
{
    for (const char* dir : {"/lib/", "/usr/lib/", "/lib64/", "/usr/lib64/", "/lib32/", "/usr/lib32/",
                            "/usr/libexec/"})
        if (starts_with(path, dir))
            return true;
    return basename_of(path).rfind("vgpreload_", 0) == 0;
}

OwnCode::OwnCode(const Profile& profile, OwnCodeRules rules)
    : profile_(profile), rules_(std::move(rules))
{
}

bool OwnCode::is_own(FnId fn, FileId file) const
{
    return is_own_code(rules_, profile_.file_path(file),
                       profile_.obj_path(profile_.function(fn).obj));
}

std::optional<FrameId> OwnCode::own_frame(const HeapSite& site) const
{
    const std::optional<FrameId> first = allocating_frame(profile_, site);
    return first ? own_frame_from(site, *first) : std::nullopt;
}

std::optional<FrameId> OwnCode::named_frame(const HeapSite& site) const
{
    const std::optional<FrameId> first = allocating_frame(profile_, site);
    if (!first)
        return std::nullopt;
    return own_frame_from(site, *first).value_or(*first);
}

std::optional<FrameId> OwnCode::own_frame_from(const HeapSite& site, FrameId first) const
{
    const Heap& heap = *profile_.heap();
    for (auto it = std::find(site.frames.begin(), site.frames.end(), first); it != site.frames.end();
         ++it) {
        const HeapFrame& f = heap.frame(*it);
        if (is_own(f.fn, f.file))
            return *it;
    }
    return std::nullopt;
}

} // namespace vgprof
