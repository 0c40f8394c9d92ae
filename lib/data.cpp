// SPDX-License-Identifier: GPL-2.0-or-later
// Questions about the data objects of a profile (vgprof/data.hpp).
#include "vgprof/data.hpp"

#include "text.hpp"
#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/own_code.hpp"
#include "vgprof/profile.hpp"

#include <algorithm>
#include <cctype>
#include <functional>

namespace vgprof {

using detail::cat;

namespace {

const char* const kKindNames[] = {"heap", "global", "unnamed", "stack", "allocator", "other"};

std::string join(const std::vector<std::string>& parts, const char* separator)
{
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i)
        out += (i ? separator : "") + parts[i];
    return out;
}

// "make_array (data.c:40)": a frame, short.
std::string short_frame(const Profile& profile, const HeapFrame& frame)
{
    const std::string& file = profile.file_path(frame.file);
    if (is_unknown(file))
        return profile.fn_name(frame.fn);
    return cat(profile.fn_name(frame.fn), " (", basename_of(file), ':', frame.line, ')');
}

// The allocator, then the innermost frame of the program's own code (the
// allocating frame when none is the program's) and up to two of its
// callers.
std::string heap_stack_text(const Profile& profile, const HeapSite& site)
{
    const Heap& heap = *profile.heap();
    const std::optional<FrameId> first = OwnCode(profile).named_frame(site);
    std::vector<std::string> parts;
    if (!site.frames.empty())
        parts.push_back(profile.fn_name(heap.frame(site.frames.front()).fn));
    if (first) {
        const auto at = std::find(site.frames.begin(), site.frames.end(), *first);
        for (auto f = at; f != site.frames.end() && f - at < 3; ++f)
            parts.push_back(short_frame(profile, heap.frame(*f)));
    }
    return join(parts, " < ");
}

std::pair<size_t, size_t> rows_of(DataObjId id, size_t n,
                                  const std::function<DataObjId(size_t)>& object_of)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (object_of(mid) < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < n && object_of(end) == id)
        ++end;
    return {lo, end};
}

} // namespace

std::optional<size_t> data_event_index(std::string_view event)
{
    for (size_t e = 0; e < kDataEvents; ++e)
        if (event == kDataEventNames[e])
            return e;
    return std::nullopt;
}

const char* data_kind_name(DataKind kind)
{
    return size_t(kind) < std::size(kKindNames) ? kKindNames[size_t(kind)] : "?";
}

std::optional<DataKind> data_kind_named(std::string_view name)
{
    for (size_t k = 0; k < std::size(kKindNames); ++k)
        if (name == kKindNames[k])
            return DataKind(k);
    return std::nullopt;
}

std::pair<size_t, size_t> DataProfile::offsets_of(DataObjId id) const
{
    return rows_of(id, offsets.size(), [&](size_t i) { return offsets[i].object; });
}

std::pair<size_t, size_t> DataProfile::fns_of(DataObjId id) const
{
    return rows_of(id, fns.size(), [&](size_t i) { return fns[i].object; });
}

std::optional<double> data_miss_rate(const DataCost& cost, size_t event)
{
    if (event >= kDataEvents || event == 0 || event == 3)
        return std::nullopt;
    const uint64_t accesses = cost[event < 3 ? 0 : 3];
    if (accesses == 0)
        return std::nullopt;
    return double(cost[event]) / double(accesses);
}

std::vector<DataObjId> data_objects_by(const DataProfile& data, size_t event)
{
    std::vector<DataObjId> ids;
    for (size_t i = 0; i < data.objects.size(); ++i)
        ids.push_back(DataObjId(uint32_t(i)));
    std::stable_sort(ids.begin(), ids.end(), [&](DataObjId a, DataObjId b) {
        const DataObject &x = data.object(a), &y = data.object(b);
        if (x.cost[event] != y.cost[event])
            return x.cost[event] > y.cost[event];
        return x.kind < y.kind;
    });
    return ids;
}

namespace {

void sort_rows(std::vector<DataFunction>& rows, size_t event)
{
    std::stable_sort(rows.begin(), rows.end(), [&](const DataFunction& a, const DataFunction& b) {
        return a.cost[event] > b.cost[event];
    });
}

} // namespace

std::vector<DataFunction> data_of_function(const DataProfile& data, FnId fn, size_t event)
{
    std::vector<DataFunction> rows;
    for (const DataFunction& r : data.fns)
        if (r.fn == fn)
            rows.push_back(r);
    sort_rows(rows, event);
    return rows;
}

std::vector<DataFunction> functions_of_data(const DataProfile& data, DataObjId object,
                                            size_t event)
{
    const auto [first, last] = data.fns_of(object);
    std::vector<DataFunction> rows(data.fns.begin() + long(first), data.fns.begin() + long(last));
    sort_rows(rows, event);
    return rows;
}

std::string data_object_short_label(const Profile& profile, DataObjId id)
{
    const DataObject& o = profile.data()->object(id);
    switch (o.kind) {
    case DataKind::heap: {
        // Named by where the program's own code asked for it.
        const HeapSite& site = profile.heap()->site(*o.site);
        const std::optional<FrameId> at = OwnCode(profile).named_frame(site);
        return at ? cat("heap site ", o.site->value, ": ",
                        short_frame(profile, profile.heap()->frame(*at)))
                  : cat("heap site ", o.site->value);
    }
    case DataKind::global: return profile.str(*o.name);
    case DataKind::unnamed:
        return cat(profile.str(*o.name), " of ", basename_of(profile.obj_path(*o.obj)));
    default: return data_kind_name(o.kind);
    }
}

std::string data_object_label(const Profile& profile, DataObjId id)
{
    const DataObject& o = profile.data()->object(id);
    switch (o.kind) {
    case DataKind::heap: {
        const HeapSite& site = profile.heap()->site(*o.site);
        return cat("heap site ", o.site->value, " (", bytes_in_blocks(site.bytes, site.blocks),
                   "): ", heap_stack_text(profile, site));
    }
    case DataKind::global:
        return cat("global ", profile.str(*o.name), " (", count_text(o.size, "byte", "bytes"),
                   ") [", profile.obj_path(*o.obj), ']');
    case DataKind::unnamed:
        return cat("unnamed data in ", profile.str(*o.name), " [", profile.obj_path(*o.obj), ']');
    case DataKind::stack: return "stack";
    case DataKind::allocator: return "allocator (its own accesses, inside its calls)";
    case DataKind::other: return "other (anonymous mappings, thread-local storage...)";
    }
    return data_kind_name(o.kind);
}

std::string data_object_key(const Profile& profile, DataObjId id)
{
    const DataObject& o = profile.data()->object(id);
    std::string key = data_kind_name(o.kind);
    if (o.kind == DataKind::heap) {
        const Heap& heap = *profile.heap();
        for (FrameId f : heap.site(*o.site).frames) {
            const HeapFrame& frame = heap.frame(f);
            key += cat('|', profile.fn_name(frame.fn), '@', profile.file_path(frame.file), ':',
                       frame.line);
        }
    } else if (o.kind == DataKind::global || o.kind == DataKind::unnamed) {
        const std::string& name = profile.str(*o.name);
        const std::optional<std::string> stem =
            o.kind == DataKind::global ? stable_symbol_stem(name) : std::nullopt;
        // The size tells apart the stems several objects share ("anon.0"
        // in each codegen unit); same-sized ones are summed.
        key += stem ? cat('|', profile.obj_path(*o.obj), '|', *stem, '|', o.size, " bytes")
                    : cat('|', profile.obj_path(*o.obj), '|', name);
    }
    return key;
}

std::optional<std::string> stable_symbol_stem(std::string_view name)
{
    const auto all_of = [](std::string_view s, int (*is)(int)) {
        return !s.empty() && std::all_of(s.begin(), s.end(),
                                         [is](char c) { return is(static_cast<unsigned char>(c)); });
    };
    std::string_view stem = name;
    const size_t llvm = stem.rfind(".llvm.");
    if (llvm != std::string_view::npos && llvm > 0 && all_of(stem.substr(llvm + 6), isdigit))
        stem = stem.substr(0, llvm);
    // anon.<hash>.<n>: the hash as rustc writes it, lower-case hex.
    const std::string_view anon = "anon.";
    std::string out(stem);
    if (stem.substr(0, anon.size()) == anon) {
        const std::string_view rest = stem.substr(anon.size());
        const size_t dot = rest.find('.');
        const std::string_view hash = rest.substr(0, dot);
        const auto is_lower_hex = [](int c) { return int(std::isxdigit(c) && !std::isupper(c)); };
        if (dot != std::string_view::npos && hash.size() >= 8 && all_of(hash, is_lower_hex) &&
            all_of(rest.substr(dot + 1), isdigit))
            out = cat(anon, rest.substr(dot + 1));
    }
    if (out == name)
        return std::nullopt;
    return out;
}

DataObjId find_data_object(const Profile& profile, std::string_view spec)
{
    const DataProfile* data = profile.data();
    if (data == nullptr)
        throw Error("the profile does not say which data was accessed");
    std::vector<DataObjId> exact, partial;
    for (size_t i = 0; i < data->objects.size(); ++i) {
        const DataObjId id{uint32_t(i)};
        const DataObject& o = data->object(id);
        if (o.kind == DataKind::heap) {
            if (spec == cat("site:", o.site->value))
                exact.push_back(id);
        } else if (o.kind == DataKind::global) {
            const std::string& name = profile.str(*o.name);
            if (name == spec)
                exact.push_back(id);
            else if (name.find(spec) != std::string::npos)
                partial.push_back(id);
        } else if (o.kind != DataKind::unnamed && spec == data_kind_name(o.kind)) {
            exact.push_back(id);
        }
    }
    const std::vector<DataObjId>& found = exact.empty() ? partial : exact;
    if (found.size() == 1)
        return found.front();
    if (found.empty())
        throw Error(cat("no data object ", detail::quote(spec),
                        " (give site:N for heap site N, a global's name, stack, allocator or "
                        "other)"));
    std::vector<std::string> names;
    for (size_t i = 0; i < found.size() && i < 10; ++i)
        names.push_back(data_object_label(profile, found[i]));
    throw Error(cat(found.size(), " data objects match ", detail::quote(spec), ": ",
                    join(names, "; ")));
}

std::vector<uint64_t> event_costs(const Profile& profile, const DataCost& cost)
{
    std::vector<uint64_t> out(profile.num_events(), 0);
    for (size_t e = 0; e < kDataEvents; ++e)
        if (const std::optional<size_t> i = profile.event_index(kDataEventNames[e]))
            out[*i] = cost[e];
    return out;
}

DataCost data_total(const DataProfile& data)
{
    DataCost total{};
    for (const DataObject& o : data.objects)
        for (size_t e = 0; e < kDataEvents; ++e)
            total[e] += o.cost[e];
    return total;
}

} // namespace vgprof
