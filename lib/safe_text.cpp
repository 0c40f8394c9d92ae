// SPDX-License-Identifier: GPL-2.0-or-later
// Names as data in every output (see vgprof/safe_text.hpp).
#include "vgprof/safe_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace vgprof {

namespace {

const char kHex[] = "0123456789abcdef";

void append_hex_byte(std::string& out, unsigned char byte)
{
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0xf];
}

void append_code_point(std::string& out, uint32_t cp)
{
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4)
        out += kHex[(cp >> shift) & 0xf];
}

// The length of the UTF-8 sequence at text[i] and its code point; 0 when
// the bytes there are not one (a stray continuation byte, a truncated or
// overlong sequence, a surrogate).
size_t utf8_at(std::string_view text, size_t i, uint32_t& cp)
{
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    size_t length;
    uint32_t min;
    if (lead < 0x80) {
        cp = lead;
        return 1;
    } else if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2, cp = lead & 0x1f, min = 0x80;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3, cp = lead & 0x0f, min = 0x800;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4, cp = lead & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (i + length > text.size())
        return 0;
    for (size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (byte(i + k) & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return length;
}

// The C1 controls, and the Unicode format characters that make a terminal
// or a browser show text in another order than it has (Trojan Source).
bool is_hidden_control(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

std::string escaped(std::string_view text, bool keep_tabs)
{
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        uint32_t cp = 0;
        const size_t length = utf8_at(text, i, cp);
        if (length == 0) {
            append_hex_byte(out, c);
            ++i;
            continue;
        }
        if (c == '\t' && keep_tabs)
            out += '\t';
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (c < 0x20 || c == 0x7f)
            append_hex_byte(out, c);
        else if (is_hidden_control(cp))
            append_code_point(out, cp);
        else
            out.append(text, i, length);
        i += length;
    }
    return out;
}

// Where the text of a line starts for GitHub's runner, which looks for
// "::" after the blanks .NET's String.TrimStart() removes: ASCII white
// space and Unicode's space and line separators.
size_t after_blanks(std::string_view line)
{
    size_t i = 0;
    while (i < line.size()) {
        uint32_t cp = 0;
        const size_t length = utf8_at(line, i, cp);
        const bool blank = length != 0 &&
                           ((cp >= 0x09 && cp <= 0x0d) || cp == 0x20 || cp == 0x85 ||
                            cp == 0xa0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) ||
                            cp == 0x2028 || cp == 0x2029 || cp == 0x202f || cp == 0x205f ||
                            cp == 0x3000);
        if (!blank)
            break;
        i += length;
    }
    return i;
}

std::string replaced(std::string text, std::string_view from, std::string_view to)
{
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

} // namespace

std::string escaped_controls(std::string_view text) { return escaped(text, false); }

std::string plain_line(std::string_view line)
{
    std::string out = replaced(escaped(line, true), "##[", "##\\x5b");
    const size_t start = after_blanks(out);
    if (out.compare(start, 2, "::") == 0)
        out.replace(start, 1, "\\x3a");
    return out;
}

std::string plain_lines(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (size_t start = 0; start < text.size();) {
        size_t end = text.find('\n', start);
        const bool ended = end != std::string_view::npos;
        if (!ended)
            end = text.size();
        out += plain_line(text.substr(start, end - start));
        if (ended)
            out += '\n';
        start = end + 1;
    }
    return out;
}

std::string markdown_code(std::string_view text)
{
    // A table's cells are split at each '|' not escaped by a backslash
    // before the code spans in them are parsed, and a backslash cannot be
    // escaped inside a code span: text with a '|' is written as text.
    if (text.find('|') != std::string_view::npos)
        return markdown_text(text);
    const std::string body = escaped_controls(text);
    size_t longest = 0, run = 0;
    for (const char c : body) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(longest + 1, '`');
    const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
    return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string markdown_text(std::string_view text)
{
    // What starts markup inside a line: escapes, code, emphasis and
    // strikethrough, links and images, HTML and autolinks, table cells.
    // ('>' and '#' only start a line; '!' makes an image only before '['.)
    static const std::string_view kMarkup = "\\`*[]<|~";
    const std::string shown = escaped_controls(text);
    const auto alnum = [&](size_t i) {
        return i < shown.size() && std::isalnum(static_cast<unsigned char>(shown[i]));
    };
    std::string out;
    for (size_t i = 0; i < shown.size(); ++i) {
        const char c = shown[i];
        // An '_' inside a word (x86_64) is never emphasis.
        const bool markup = kMarkup.find(c) != std::string_view::npos ||
                            (c == '_' && !(i > 0 && alnum(i - 1) && alnum(i + 1)));
        if (markup)
            out += '\\';
        out += c;
    }
    return out;
}

std::string workflow_data(std::string_view text)
{
    std::string out;
    for (const char c : escaped_controls(text)) {
        if (c == '%')
            out += "%25";
        else
            out += c;
    }
    return out;
}

std::string workflow_property(std::string_view text)
{
    std::string out;
    for (const char c : workflow_data(text)) {
        switch (c) {
        case ':': out += "%3A"; break;
        case ',': out += "%2C"; break;
        default: out += c;
        }
    }
    return out;
}

} // namespace vgprof
