// SPDX-License-Identifier: GPL-2.0-or-later
// How a function is recognised and named: the marker of what the debug
// information did not give, the key that matches a function across two
// profiles of one program (the first pass of match_functions,
// function_match.hpp), and the text of a source location and of a function as
// the reports print them.
#ifndef VGPROF_IDENTITY_HPP
#define VGPROF_IDENTITY_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>

namespace vgprof {

// The name, file or object path a profile gives to what is unknown (code
// without a symbol, an instruction without line information, code outside
// any object), as cachegrind's output does.
inline constexpr std::string_view kUnknown = "???";

inline bool is_unknown(std::string_view name_or_path) { return name_or_path == kUnknown; }

// The last component of a path ("libc.so.6" of "/lib/libc.so.6").
std::string basename_of(const std::string& path);

// What identifies a function across profiles, whose ids differ: its name,
// the basename of its object's path (a library may be loaded from another
// directory) and its source file's path. Ordered by those, in that order.
struct FunctionMatchKey {
    std::string name, object, file;

    friend bool operator<(const FunctionMatchKey& a, const FunctionMatchKey& b)
    {
        return std::tie(a.name, a.object, a.file) < std::tie(b.name, b.object, b.file);
    }
    friend bool operator==(const FunctionMatchKey& a, const FunctionMatchKey& b)
    {
        return std::tie(a.name, a.object, a.file) == std::tie(b.name, b.object, b.file);
    }
};

FunctionMatchKey function_match_key(const Profile& profile, FnId fn);

// now - base, saturating at the ends of int64_t rather than wrapping for
// costs beyond 2^63.
int64_t signed_delta(uint64_t now, uint64_t base);

// "/src/app.c:12"; "/src/app.c" when the line is unknown (0); the file as
// it is ("???") when the file is unknown.
std::string location_text(const std::string& file, uint32_t line);

// "work (/src/app.c:3)  [/usr/bin/app]": name, where it starts and its
// object, leaving out the line when unknown (0) and the parenthesis when the
// file is ("???").
std::string function_label(const std::string& name, const std::string& file, uint32_t line,
                           const std::string& object);
std::string function_label(const Profile& profile, FnId fn);

} // namespace vgprof

#endif
