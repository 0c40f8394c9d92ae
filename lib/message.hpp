// SPDX-License-Identifier: GPL-2.0-or-later
// Building error messages from parts. Internal to libvgprof.
#ifndef VGPROF_MESSAGE_HPP
#define VGPROF_MESSAGE_HPP

#include <sstream>
#include <string>

namespace vgprof::detail {

// The parts written one after another, as an ostream writes them.
template <typename... Parts>
std::string cat(const Parts&... parts)
{
    std::ostringstream out;
    (out << ... << parts);
    return out.str();
}

} // namespace vgprof::detail

#endif
