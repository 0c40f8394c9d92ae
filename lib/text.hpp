// SPDX-License-Identifier: GPL-2.0-or-later
// Small text helpers the readers share: building messages from parts and
// trimming fields. Internal to libvgprof.
#ifndef VGPROF_TEXT_HPP
#define VGPROF_TEXT_HPP

#include <sstream>
#include <string>
#include <string_view>

namespace vgprof::detail {

// The parts written one after another, as an ostream writes them.
template <typename... Parts>
std::string cat(const Parts&... parts)
{
    std::ostringstream out;
    (out << ... << parts);
    return out.str();
}

// `text` without the spaces and tabs around it.
inline std::string_view trimmed(std::string_view text)
{
    const size_t first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    const size_t last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

} // namespace vgprof::detail

#endif
