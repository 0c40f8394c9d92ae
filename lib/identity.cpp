// SPDX-License-Identifier: GPL-2.0-or-later
// Recognising and naming functions (see identity.hpp).
#include "vgprof/identity.hpp"

#include <limits>

namespace vgprof {

std::string basename_of(const std::string& path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

FunctionMatchKey function_match_key(const Profile& profile, FnId fn)
{
    const Function& f = profile.function(fn);
    return {profile.str(f.name), basename_of(profile.obj_path(f.obj)), profile.file_path(f.file)};
}

int64_t signed_delta(uint64_t now, uint64_t base)
{
    constexpr uint64_t kMax = uint64_t(std::numeric_limits<int64_t>::max());
    if (now >= base)
        return now - base > kMax ? std::numeric_limits<int64_t>::max() : int64_t(now - base);
    return base - now > kMax ? std::numeric_limits<int64_t>::min() : -int64_t(base - now);
}

std::string location_text(const std::string& file, uint32_t line)
{
    if (is_unknown(file) || line == 0)
        return file;
    return file + ":" + std::to_string(line);
}

std::string function_label(const std::string& name, const std::string& file, uint32_t line,
                           const std::string& object)
{
    std::string label = name;
    if (!is_unknown(file))
        label += " (" + location_text(file, line) + ")";
    return label + "  [" + object + "]";
}

std::string function_label(const Profile& profile, FnId fn)
{
    const Function& f = profile.function(fn);
    return function_label(profile.str(f.name), profile.file_path(f.file), f.line,
                          profile.obj_path(f.obj));
}

} // namespace vgprof
