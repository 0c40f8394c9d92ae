// SPDX-License-Identifier: GPL-2.0-or-later
// The structure-aware mutator (see json_mutator.hpp).
#include "json_mutator.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace vgprof::fuzz {

namespace json = boost::json;

namespace {

using Random = std::mt19937_64;

size_t below(Random& r, size_t n) { return n == 0 ? 0 : size_t(r() % n); }

// Numbers at the edges of the types the readers convert to, small ids
// (a table's size is usually within a few of them) and non-integers.
json::value extreme_number(Random& r)
{
    switch (below(r, 12)) {
    case 0: return json::value(int64_t(below(r, 8)));
    case 1: return json::value(int64_t(-1));
    case 2: return json::value(uint64_t(std::numeric_limits<int32_t>::max()) + below(r, 3));
    case 3: return json::value(uint64_t(std::numeric_limits<uint32_t>::max()) + below(r, 3));
    case 4: return json::value(std::numeric_limits<int64_t>::max());
    case 5: return json::value(std::numeric_limits<int64_t>::min());
    case 6: return json::value(std::numeric_limits<uint64_t>::max() - below(r, 2));
    case 7: return json::value(uint64_t(1) << below(r, 64));
    case 8: return json::value(1e300);
    case 9: return json::value(0.5);
    case 10: return json::value(int64_t(below(r, 64)));
    default: return json::value(int64_t(below(r, 1 << 20)));
    }
}

json::value other_type(Random& r)
{
    switch (below(r, 5)) {
    case 0: return nullptr;
    case 1: return json::value(bool(below(r, 2)));
    case 2: return json::value("x");
    case 3: return json::array();
    default: return json::object();
    }
}

// Every value of the document, parents before their children, found
// without recursion (the document may be nested deep by earlier rounds).
std::vector<json::value*> values_of(json::value& root)
{
    std::vector<json::value*> all{&root};
    for (size_t i = 0; i < all.size(); ++i) {
        json::value& v = *all[i];
        if (v.is_array())
            for (json::value& e : v.get_array())
                all.push_back(&e);
        else if (v.is_object())
            for (auto& m : v.get_object())
                all.push_back(&m.value());
    }
    return all;
}

// An array made longer, as a hostile table or call chain is: copies of
// one of its rows, up to `room` bytes of them.
void lengthen(json::array& a, Random& r, size_t room)
{
    if (a.empty())
        return;
    const json::value row = a[below(r, a.size())];
    const size_t row_size = std::max<size_t>(1, json::serialize(row).size() + 1);
    const size_t copies = std::min<size_t>(1 + below(r, 1000), room / row_size);
    for (size_t i = 0; i < copies; ++i)
        a.insert(a.begin() + std::ptrdiff_t(below(r, a.size() + 1)), row);
}

void mutate_array(json::array& a, Random& r, size_t room)
{
    switch (below(r, 5)) {
    case 0: lengthen(a, r, room); break;
    case 1:
        if (!a.empty())
            a.erase(a.begin() + std::ptrdiff_t(below(r, a.size())));
        break;
    case 2:
        if (a.size() > 1)
            std::swap(a[below(r, a.size())], a[below(r, a.size())]);
        break;
    case 3: a.resize(below(r, a.size() + 1)); break;
    default:
        if (!a.empty())
            a.push_back(a[below(r, a.size())]);
        break;
    }
}

void mutate_string(json::string& s, Random& r, size_t room)
{
    switch (below(r, 4)) {
    case 0: {  // as long as there is room for
        const std::string unit = s.empty() ? std::string("a") : std::string(s);
        std::string grown;
        const size_t target = std::min<size_t>(room, 1 + below(r, 1 << 16));
        while (grown.size() < target)
            grown += unit;
        s = grown;
        break;
    }
    case 1: s.insert(below(r, s.size() + 1), 1, char(below(r, 32))); break;
    case 2: s = ""; break;
    default: s.insert(below(r, s.size() + 1), ";\n[]%s\xff"); break;
    }
}

// Wraps `v` in arrays or objects, `levels` deep.
void nest(json::value& v, size_t levels)
{
    for (size_t i = 0; i < levels; ++i) {
        json::value inner = std::move(v);
        if (i % 2)
            v = json::array{std::move(inner)};
        else
            v = json::object{{"k", std::move(inner)}};
    }
}

void mutate_value(json::value& v, std::vector<json::value*>& all, Random& r, size_t room)
{
    switch (below(r, 8)) {
    case 0: nest(v, 1 + below(r, 40)); return;
    case 1: v = other_type(r); return;
    case 2: {  // another value, perhaps a parent into its own child
        json::value copy = *all[below(r, all.size())];
        v = std::move(copy);
        return;
    }
    default: break;
    }
    if (v.is_number() || v.is_null() || v.is_bool()) {
        if (v.is_int64() && below(r, 2))
            v = int64_t(uint64_t(v.get_int64()) + below(r, 3) - 1);  // wraps at the ends
        else
            v = extreme_number(r);
    } else if (v.is_array()) {
        mutate_array(v.get_array(), r, room);
    } else if (v.is_string()) {
        mutate_string(v.get_string(), r, room);
    } else if (v.is_object()) {
        json::object& o = v.get_object();
        if (!o.empty() && below(r, 2))
            o.erase(o.begin() + std::ptrdiff_t(below(r, o.size())));
        else
            o.emplace("unknown" + std::to_string(below(r, 4)), extreme_number(r));
    }
}

// A text file's lines edited as mutate_value edits values: a line
// repeated, dropped or swapped, a number in it replaced by an extreme.
std::string mutate_lines(std::string_view text, Random& r, size_t room)
{
    std::vector<std::string> lines;
    for (size_t at = 0; at < text.size();) {
        const size_t end = std::min(text.find('\n', at), text.size());
        lines.emplace_back(text.substr(at, end - at));
        at = end + 1;
    }
    if (lines.empty())
        return std::string(text);
    const size_t i = below(r, lines.size());
    switch (below(r, 4)) {
    case 0: {
        const size_t copies = std::min<size_t>(1 + below(r, 1000), room / (lines[i].size() + 1));
        lines.insert(lines.begin() + std::ptrdiff_t(i), copies, lines[i]);
        break;
    }
    case 1: lines.erase(lines.begin() + std::ptrdiff_t(i)); break;
    case 2: std::swap(lines[i], lines[below(r, lines.size())]); break;
    default: {
        std::string& line = lines[i];
        const size_t digit = line.find_first_of("0123456789");
        if (digit == std::string::npos)
            break;
        const size_t end = std::min(line.find_first_not_of("0123456789", digit), line.size());
        line.replace(digit, end - digit, json::serialize(extreme_number(r)));
        break;
    }
    }
    std::string out;
    for (const std::string& line : lines)
        out += line + '\n';
    return out;
}

bool looks_like_text(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return c == '\n' || c == '\t' || (static_cast<unsigned char>(c) >= 0x20);
    });
}

} // namespace

size_t mutate(uint8_t* data, size_t size, size_t max_size, unsigned int seed)
{
    Random r(seed);
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    // Some rounds of byte mutations keep the cuts, flips and splices
    // libFuzzer is good at.
    if (below(r, 4) == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    std::string out;
    const size_t room = max_size > size ? max_size - size : 0;
    json::parse_options options;
    options.max_depth = 256;
    json::error_code ec;
    json::value doc = json::parse(input, ec, {}, options);
    if (!ec) {
        std::vector<json::value*> all = values_of(doc);
        mutate_value(*all[below(r, all.size())], all, r, room);
        out = json::serialize(doc);
    } else if (looks_like_text(input)) {
        out = mutate_lines(input, r, room);
    } else {
        return LLVMFuzzerMutate(data, size, max_size);
    }
    if (out.size() > max_size)
        return LLVMFuzzerMutate(data, size, max_size);
    std::memcpy(data, out.data(), out.size());
    return out.size();
}

} // namespace vgprof::fuzz
