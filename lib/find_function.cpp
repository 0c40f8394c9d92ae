// SPDX-License-Identifier: GPL-2.0-or-later
// Finding the function a person names (see find_function in
// vgprof/query.hpp): by its name, by the qualified forms the commands and
// the viewer print, by the last part of its path (an async function's by
// its body), or as the only name containing the text.
#include "vgprof/query.hpp"

#include "text.hpp"
#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/path_display.hpp"
#include "vgprof/safe_text.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <tuple>

namespace vgprof {

namespace {

using detail::trimmed;

bool ends_with(std::string_view text, std::string_view end)
{
    return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// What a qualified name says: "name (file:line)  [object]", "name [object]
// (file)" (the viewer's order), "name (file) (inlined)" (a heap frame).
struct Qualified {
    std::string name;
    std::optional<std::string> file, object;
    std::optional<uint32_t> line;
    bool inlined = false;
};

// The text inside a trailing "<open>...<close>" preceded by a space, taken
// off `text`; nullopt when `text` does not end so.
std::optional<std::string> take_trailing(std::string_view& text, char open, char close)
{
    if (text.empty() || text.back() != close)
        return std::nullopt;
    const size_t at = text.rfind(std::string{' ', open});
    if (at == std::string_view::npos || at == 0)
        return std::nullopt;
    std::string inside(text.substr(at + 2, text.size() - at - 3));
    text = trimmed(text.substr(0, at));
    return inside;
}

// "file:line" or "file" into `q`.
void set_location(Qualified& q, const std::string& location)
{
    const size_t colon = location.rfind(':');
    if (colon != std::string::npos && colon + 1 < location.size() && colon + 11 > location.size() &&
        std::all_of(location.begin() + colon + 1, location.end(),
                    [](unsigned char c) { return std::isdigit(c); })) {
        q.file = location.substr(0, colon);
        q.line = uint32_t(std::stoul(location.substr(colon + 1)));
    } else {
        q.file = location;
    }
}

// `spec` read as a qualified name; nullopt when it qualifies nothing.
std::optional<Qualified> qualified(std::string_view spec)
{
    Qualified q;
    std::string_view rest = trimmed(spec);
    if (ends_with(rest, " (inlined)")) {
        q.inlined = true;
        rest = trimmed(rest.substr(0, rest.size() - 10));
    }
    for (int part = 0; part < 2; ++part) {
        if (!q.object)
            if (auto object = take_trailing(rest, '[', ']')) {
                q.object = std::move(object);
                continue;
            }
        if (!q.file)
            if (auto location = take_trailing(rest, '(', ')'))
                set_location(q, *location);
    }
    if (rest.empty() || (!q.inlined && !q.object && !q.file))
        return std::nullopt;
    q.name = std::string(rest);
    return q;
}

// Whether `given` names `path`: the path itself, as the commands show it,
// or an ending of it at a '/' (a basename, a path relative to a directory
// stripped).
bool names_path(const std::string& path, const std::string& given)
{
    return ends_with_component(path, given) || ends_with_component(PathDisplay{}.show(path), given);
}

// A hexadecimal address ("0x1f30"), nullopt for anything else.
std::optional<uint64_t> address_of(const std::string& text)
{
    if (text.size() < 3 || text.size() > 18 || text.compare(0, 2, "0x") != 0 ||
        !std::all_of(text.begin() + 2, text.end(), [](unsigned char c) { return std::isxdigit(c); }))
        return std::nullopt;
    return std::stoull(text.substr(2), nullptr, 16);
}

bool matches(const Profile& p, FnId fn, const Qualified& q)
{
    const Function& f = p.function(fn);
    return p.str(f.name) == q.name && (!q.inlined || f.inlined) &&
           (!q.object || names_path(p.obj_path(f.obj), *q.object)) &&
           (!q.file || names_path(p.file_path(f.file), *q.file)) && (!q.line || f.line == *q.line);
}

// The code without a symbol that holds address `q.name` in `q.object`:
// the function named by the highest start at or below it there.
std::vector<FnId> at_address(const Profile& p, const Qualified& q)
{
    const std::optional<uint64_t> addr = address_of(q.name);
    if (!addr || !q.object)
        return {};
    std::optional<std::pair<uint64_t, FnId>> best;
    for (size_t i = 0; i < p.functions().size(); ++i) {
        const FnId fn(static_cast<uint32_t>(i));
        const Function& f = p.function(fn);
        const std::optional<uint64_t> start = address_of(p.str(f.name));
        if (start && *start <= *addr && names_path(p.obj_path(f.obj), *q.object) &&
            (!best || *start > best->first))
            best = std::make_pair(*start, fn);
    }
    return best ? std::vector<FnId>{best->second} : std::vector<FnId>{};
}

// Whether `name` is `spec` below a path: "tsrv::serve_conn" for
// "serve_conn", "Foo::bar" for "bar".
bool ends_path(const std::string& name, std::string_view spec)
{
    return name.size() > spec.size() + 2 && ends_with(name, spec) &&
           name.compare(name.size() - spec.size() - 2, 2, "::") == 0;
}

// Whether `name` is the body of async fn `spec` ("tsrv::serve_conn::{async_fn#0}"
// for "serve_conn" or "tsrv::serve_conn"), where that function's code runs.
bool async_body_of(const std::string& name, std::string_view spec)
{
    const size_t at = name.rfind("::{async_fn#");
    if (at == std::string::npos || name.back() != '}')
        return false;
    const std::string parent = name.substr(0, at);
    return parent == spec || ends_path(parent, spec);
}

using FunctionOrder = std::tuple<const std::string&, const std::string&, uint32_t, const std::string&, FnId>;

FunctionOrder order_of(const Profile& p, FnId fn)
{
    const Function& f = p.function(fn);
    return FunctionOrder(p.str(f.name), p.file_path(f.file), f.line, p.obj_path(f.obj), fn);
}

// The label that selects `fn`, whatever other functions share its name:
// its name, file, line and object, as the reports print a function.
std::string selecting_label(const Profile& p, FnId fn)
{
    std::string label = function_label(p, fn);
    if (p.function(fn).inlined)
        label += " (inlined)";
    return escaped_controls(label);
}

[[noreturn]] void fail_with_candidates(const Profile& p, std::string heading,
                                       std::vector<FnId> candidates)
{
    std::sort(candidates.begin(), candidates.end(),
              [&](FnId a, FnId b) { return order_of(p, a) < order_of(p, b); });
    constexpr size_t kListed = 10;  // enough to recognise the one meant
    for (size_t i = 0; i < candidates.size() && i < kListed; ++i)
        heading += "\n  " + selecting_label(p, candidates[i]);
    if (candidates.size() > kListed)
        heading += "\n  and " + std::to_string(candidates.size() - kListed) + " more";
    heading += "\n(give one as listed to choose it)";
    throw Error(heading);
}

template <typename Pred>
std::vector<FnId> functions_where(const Profile& p, Pred pred)
{
    std::vector<FnId> out;
    for (size_t i = 0; i < p.functions().size(); ++i)
        if (pred(FnId(static_cast<uint32_t>(i))))
            out.push_back(FnId(static_cast<uint32_t>(i)));
    return out;
}

} // namespace

FunctionChoice choose_function(const Profile& profile, std::string_view spec)
{
    const std::string quoted = "\"" + escaped_controls(spec) + "\"";
    const std::vector<FnId> exact =
        functions_where(profile, [&](FnId fn) { return profile.fn_name(fn) == spec; });
    if (exact.size() == 1)
        return {exact[0], ""};
    if (exact.size() > 1)
        fail_with_candidates(profile,
                             std::to_string(exact.size()) + " functions are named " + quoted + ":",
                             exact);

    if (const std::optional<Qualified> q = qualified(spec)) {
        std::vector<FnId> found =
            functions_where(profile, [&](FnId fn) { return matches(profile, fn, *q); });
        if (found.empty())
            found = at_address(profile, *q);
        if (found.size() == 1)
            return {found[0], ""};
        if (found.size() > 1)
            fail_with_candidates(
                profile, std::to_string(found.size()) + " functions match " + quoted + ":", found);
    }

    const std::vector<FnId> below_path =
        functions_where(profile, [&](FnId fn) { return ends_path(profile.fn_name(fn), spec); });
    // An async function is meant by its body rather than by the function
    // that only makes its future (selected by its whole name).
    const std::vector<FnId> bodies =
        functions_where(profile, [&](FnId fn) { return async_body_of(profile.fn_name(fn), spec); });
    if (bodies.size() == 1 &&
        std::all_of(below_path.begin(), below_path.end(), [&](FnId fn) {
            return async_body_of(profile.fn_name(bodies[0]), profile.fn_name(fn));
        }))
        return {bodies[0], ""};
    if (below_path.size() == 1)
        return {below_path[0], ""};
    if (below_path.size() > 1)
        fail_with_candidates(profile,
                             std::to_string(below_path.size()) + " functions' names end in ::" +
                                 escaped_controls(spec) + ":",
                             below_path);

    const std::vector<FnId> containing = functions_where(profile, [&](FnId fn) {
        return profile.fn_name(fn).find(spec) != std::string::npos;
    });
    if (containing.size() == 1)
        return {containing[0], "no function is named " + quoted + "; chose " +
                                   selecting_label(profile, containing[0]) +
                                   ", the only one whose name contains it"};
    if (containing.empty())
        throw Error("no function is named " + quoted + " or has it in its name");
    fail_with_candidates(profile,
                         quoted + " is in the names of " + std::to_string(containing.size()) +
                             " functions:",
                         containing);
}

FnId find_function(const Profile& profile, std::string_view spec)
{
    return choose_function(profile, spec).fn;
}

} // namespace vgprof
