// SPDX-License-Identifier: GPL-2.0-or-later
// Small text helpers the readers share: building messages from parts and
// trimming fields. Internal to libvgprof.
#ifndef VGPROF_TEXT_HPP
#define VGPROF_TEXT_HPP

#include <cstdint>
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

// `text` in double quotes for a message: control characters escaped, so
// that the message stays one line and the terminal's, and cut after 80
// bytes, so that it stays short whatever the file holds.
inline std::string quote(std::string_view text)
{
    constexpr size_t kShown = 80;
    std::string out = "\"";
    for (const char c : text.substr(0, kShown)) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (byte < 0x20 || byte == 0x7f) {
            const char* const hex = "0123456789abcdef";
            out += "\\u00";
            out += hex[byte >> 4];
            out += hex[byte & 0xf];
        } else {
            out += c;
        }
    }
    out += '"';
    if (text.size() > kShown)
        out += cat("... (", text.size(), " bytes)");
    return out;
}

// The problem with a string (or line, or key: `what`) longer than a reader
// takes (LoadLimits::max_string).
inline std::string longer_than(const std::string& what, uint64_t limit)
{
    return cat(what, " is longer than ", limit, " bytes, the most vgprof reads");
}

} // namespace vgprof::detail

#endif
