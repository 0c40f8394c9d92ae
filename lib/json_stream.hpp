// SPDX-License-Identifier: GPL-2.0-or-later
// Parsing JSON a chunk at a time with Boost.JSON's basic_parser, shared by
// the readers of JSON files (the profile loader and the DHAT reader): the
// loop that feeds the parser an Input and tells how the text ended, the
// position reached for messages, and a handler that builds the whole
// document with its strings bounded. Internal to libvgprof.
#ifndef VGPROF_JSON_STREAM_HPP
#define VGPROF_JSON_STREAM_HPP

#include "input.hpp"

#include <boost/json.hpp>
#include <boost/json/basic_parser_impl.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace vgprof::detail {

namespace json = boost::json;

// Where the parser is in the text, for messages about syntax errors.
struct TextPosition {
    uint64_t offset = 0;      // bytes read before
    uint64_t line = 1;        // line number at offset
    uint64_t line_start = 0;  // offset of that line's first byte

    void advance(std::string_view text)
    {
        for (const char* p = text.data(), *end = p + text.size();
             (p = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)))) != nullptr;
             ++p) {
            ++line;
            line_start = offset + uint64_t(p - text.data()) + 1;
        }
        offset += text.size();
    }
};

// How the text given to parse_stream() ended, when not as one complete
// document: a syntax error (or an error of the handler's), the end of the
// input inside the document (ec is json::error::incomplete then), or data
// other than white space after it.
struct StreamEnd {
    json::error_code ec;
    bool incomplete = false;
    bool trailing_data = false;
};

// Feeds `parser` the chunks of `input` as they are read, `position`
// following the text the parser took, until the document and the input end
// or the first problem.
template <typename Handler>
StreamEnd parse_stream(json::basic_parser<Handler>& parser, Input& input, TextPosition& position)
{
    StreamEnd end;
    for (std::string_view chunk; !(chunk = input.next()).empty();) {
        if (parser.done()) {
            // Only white space may follow the document.
            const size_t used = std::min(chunk.find_first_not_of(" \t\r\n"), chunk.size());
            position.advance(chunk.substr(0, used));
            end.trailing_data = used < chunk.size();
            if (end.trailing_data)
                return end;
            continue;
        }
        const size_t used = parser.write_some(true, chunk.data(), chunk.size(), end.ec);
        position.advance(chunk.substr(0, used));
        end.trailing_data = !end.ec && used < chunk.size();
        if (end.ec || end.trailing_data)
            return end;
    }
    if (!parser.done()) {
        parser.write_some(false, nullptr, 0, end.ec);
        end.incomplete = end.ec == json::error::incomplete;
    }
    return end;
}

// The sizes a basic_parser handler declares: Boost.JSON's own limits; the
// readers bound strings themselves, as they arrive.
struct JsonSizeLimits {
    static constexpr size_t max_object_size = json::object::max_size();
    static constexpr size_t max_array_size = json::array::max_size();
    static constexpr size_t max_key_size = json::string::max_size();
    static constexpr size_t max_string_size = json::string::max_size();
};

// The handler of Boost.JSON's basic_parser that builds the document as
// json::parse does, except that it stops the parser as soon as a string or
// key grows past `max_string` bytes: a crafted file cannot make it hold one
// string as long as the file.
class BoundedDocument : public JsonSizeLimits {
public:
    explicit BoundedDocument(uint64_t max_string) : max_string_(max_string) {}

    json::value release() { return values_.release(); }
    bool too_long() const { return too_long_; }

    bool on_document_begin(json::error_code&)
    {
        values_.reset();
        return true;
    }
    bool on_document_end(json::error_code&) { return true; }
    bool on_object_begin(json::error_code&) { return true; }
    bool on_object_end(size_t n, json::error_code&)
    {
        values_.push_object(n);
        return true;
    }
    bool on_array_begin(json::error_code&) { return true; }
    bool on_array_end(size_t n, json::error_code&)
    {
        values_.push_array(n);
        return true;
    }
    bool on_key_part(json::string_view s, size_t n, json::error_code& ec)
    {
        return fits(n, ec) && (values_.push_chars(s), true);
    }
    bool on_key(json::string_view s, size_t n, json::error_code& ec)
    {
        return fits(n, ec) && (values_.push_key(s), true);
    }
    bool on_string_part(json::string_view s, size_t n, json::error_code& ec)
    {
        return fits(n, ec) && (values_.push_chars(s), true);
    }
    bool on_string(json::string_view s, size_t n, json::error_code& ec)
    {
        return fits(n, ec) && (values_.push_string(s), true);
    }
    bool on_number_part(json::string_view, json::error_code&) { return true; }
    bool on_int64(int64_t i, json::string_view, json::error_code&)
    {
        values_.push_int64(i);
        return true;
    }
    bool on_uint64(uint64_t u, json::string_view, json::error_code&)
    {
        values_.push_uint64(u);
        return true;
    }
    bool on_double(double d, json::string_view, json::error_code&)
    {
        values_.push_double(d);
        return true;
    }
    bool on_bool(bool b, json::error_code&)
    {
        values_.push_bool(b);
        return true;
    }
    bool on_null(json::error_code&)
    {
        values_.push_null();
        return true;
    }
    bool on_comment_part(json::string_view, json::error_code&) { return true; }
    bool on_comment(json::string_view, json::error_code&) { return true; }

private:
    bool fits(size_t n, json::error_code& ec)
    {
        if (n <= max_string_)
            return true;
        too_long_ = true;
        ec = json::error::string_too_large;
        return false;
    }

    const uint64_t max_string_;
    bool too_long_ = false;
    json::value_stack values_;
};

} // namespace vgprof::detail

#endif
