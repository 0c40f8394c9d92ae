// SPDX-License-Identifier: GPL-2.0-or-later
// Profile loading. The input (a file or memory, plain, gzip or zstd) is read
// in chunks; its first bytes say whether it is a vgprof profile (JSON, read
// by Loader: loader.hpp), a callgrind or cachegrind file (callgrind.cpp) or
// a DHAT file (dhat.cpp). Here: that choice, the public entry points, and
// the loader's order of checks, its sections common to every profile and
// its checks of single values.
#include "vgprof/load.hpp"

#include "callgrind.hpp"
#include "dhat.hpp"
#include "loader.hpp"
#include "vgprof/profile_builder.hpp"

#include <memory>
#include <new>

namespace vgprof {

namespace detail {

Profile Loader::load(Input& input)
{
    parse(input);
    return validate();
}

Profile Loader::validate()
{
    const Where top;
    const json::object& root = root_;
    check_top_level_keys(root);

    const Where meta = top.member("meta"), strs = top.member("strs"),
                objs = top.member("objs"), files = top.member("files"),
                fns = top.member("fns"), lines = top.member("lines"),
                instrs = top.member("instrs");
    load_meta(required(root, "meta", top), meta);
    // Even without a call graph: an empty graph still answers in events.
    p_.graph.num_events = p_.num_events();
    load_strs(required(root, "strs", top), strs);
    load_str_table(required(root, "objs", top), objs, p_.objs);
    load_str_table(required(root, "files", top), files, p_.files);
    load_fns(required(root, "fns", top), fns);
    load_lines(table_source(required(root, "lines", top), Table::lines), lines);
    if (const json::value* v = root.if_contains("instrs"))
        load_instrs(table_source(*v, Table::instrs), instrs);
    detail::check_line_totals(p_, name_);
    if (version() >= 7)
        load_inlined(root);
    load_call_graph(root);
    if (p_.meta.version >= 3)
        if (const json::value* v = root.if_contains(kHeapKey))
            load_heap(*v, top.member(kHeapKey));
    if (p_.meta.version >= 7)
        if (const json::value* v = root.if_contains(kDataKey))
            load_data(*v, top.member(kDataKey));
    if (p_.meta.version >= 10)
        if (const json::value* v = root.if_contains(kTimelineKey))
            load_run_timeline(*v, top.member(kTimelineKey));
    // Every structural check has been made above, each naming the place in
    // the document; the builder only judges inclusive against self costs.
    FinishOptions options;
    options.structure_checked = true;
    // Since version 7 the tool counts a function's own code run while it is
    // not on the stack in its inclusive cost, so that never falls below the
    // self cost; earlier profiles are checked only when asked.
    options.reject_inclusive_below_self = reject_inclusive_below_self_ || version() >= 7;
    return ProfileBuilder::finish(std::move(p_), name_, options);
}

void Loader::load_version(const json::value& v)
{
    const Where top;
    const Where at = top.member("vgprof");
    if (v.is_uint64() && v.get_uint64() > uint64_t(kNewestVersion))
        fail(top, cat("profile format version ", v.get_uint64(),
                      " is newer than this vgprof understands (newest: ", kNewestVersion,
                      "); upgrade vgprof"));
    if (!v.is_int64())
        fail(at, cat("expected an integer format version, got ", describe(v)));
    const int64_t version = v.get_int64();
    if (version > kNewestVersion)
        fail(top, cat("profile format version ", version,
                      " is newer than this vgprof understands (newest: ", kNewestVersion,
                      "); upgrade vgprof"));
    if (version < 1)
        fail(at, cat("invalid format version ", version, " (versions start at 1)"));
    p_.meta.version = int(version);
}

void Loader::check_top_level_keys(const json::object& root) const
{
    const bool version1 = p_.meta.version == 1;
    for (const auto& member : root) {
        const json::string_view key = member.key();
        const bool known = contains(kTopLevelKeys, key) ||
                           (!version1 && (contains(kCallGraphKeys, key) || key == kThreadKey)) ||
                           (p_.meta.version >= 3 && key == kHeapKey) ||
                           (p_.meta.version >= 7 &&
                            (key == kDataKey || contains(kInlineKeys, key))) ||
                           (p_.meta.version >= 10 && key == kTimelineKey);
        const bool reserved = version1 ? contains(kReservedTopLevelKeysV1, key)
                                       : contains(kReservedTopLevelKeys, key);
        if (!known && !reserved)
            fail(Where{}, cat("unknown top-level key ", quoted(key), " (not part of format version ",
                              p_.meta.version, ")"));
    }
}

void Loader::load_strs(const json::value& v, const Where& at)
{
    const json::array& a = array_at(v, at);
    p_.strs.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        p_.strs.emplace_back(string_at(a[i], item));
    }
}

void Loader::load_str_table(const json::value& v, const Where& at, std::vector<StrId>& out)
{
    const json::array& a = array_at(v, at);
    out.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        out.push_back(id_at<StrId>(a[i], item, "strs", p_.strs.size(), "string"));
    }
}

void Loader::load_fns(const json::value& v, const Where& at)
{
    const json::array& a = array_at(v, at);
    p_.functions.reserve(a.size());
    RowCells row;
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        row.assign(a[i]);
        // Since version 7 an inlined function's row carries a fifth entry, 1.
        const bool flagged = version() >= 7 && row.is_array && row.size() == 5;
        if (flagged)
            check_row(row, item, {"name", "file", "obj", "line", "inlined"}, {});
        else
            check_row(row, item, {"name", "file", "obj", "line"}, {});
        const Where name = item.element(0), file = item.element(1), obj = item.element(2),
                    line = item.element(3);
        Function f;
        f.name = id_at<StrId>(row[0], name, "strs", p_.strs.size(), "string");
        f.file = id_at<FileId>(row[1], file, "file", p_.files.size(), "file");
        f.obj = id_at<ObjId>(row[2], obj, "obj", p_.objs.size(), "object");
        f.line = u32_at(row[3], line);
        if (flagged) {
            if (u32_at(row[4], item.element(4)) != 1)
                fail(item.element(4), "expected 1 (an inlined function)");
            f.inlined = true;
        }
        p_.functions.push_back(f);
    }
}

// inlines: [fn, parent, file, line], parents before their children;
// inline_lines: [fn, inl, file, line, cost...], each the inlined part of a
// lines row, its inlined call's function an inlined one.
void Loader::load_inlined(const json::object& root)
{
    const Where top;
    const auto no_streamed_ids = [](size_t) {};
    if (const json::value* v = root.if_contains("inlines"))
        load_table(TableSource{v, nullptr}, top.member("inlines"),
                   [&](const RowCells& row, const Where& item, size_t i) {
                       check_row(row, item, {"fn", "parent", "file", "line"}, {});
                       InlinedCall c;
                       c.fn = id_at<FnId>(row[0], item.element(0), "fn", p_.functions.size(),
                                          "function");
                       if (!p_.functions[c.fn.index()].inlined)
                           fail(item.element(0),
                                cat("function ", c.fn.value, " is not an inlined function"));
                       if (row[1].kind != json::kind::null)
                           c.parent = id_at<FnId>(row[1], item.element(1), "parent", i,
                                                  "earlier inlined call").value;
                       c.file = id_at<FileId>(row[2], item.element(2), "file", p_.files.size(),
                                              "file");
                       c.line = u32_at(row[3], item.element(3));
                       p_.inlined_calls.push_back(c);
                   },
                   no_streamed_ids);
    if (const json::value* v = root.if_contains("inline_lines"))
        load_table(TableSource{v, nullptr}, top.member("inline_lines"),
                   [&](const RowCells& row, const Where& item, size_t) {
                       check_row(row, item, {"fn", "inl", "file", "line"}, {""});
                       InlinedLine l;
                       l.fn = id_at<FnId>(row[0], item.element(0), "fn", p_.functions.size(),
                                          "function");
                       l.inl = id_at<FnId>(row[1], item.element(1), "inl",
                                           p_.inlined_calls.size(), "inlined call").value;
                       l.file = id_at<FileId>(row[2], item.element(2), "file", p_.files.size(),
                                              "file");
                       l.line = u32_at(row[3], item.element(3));
                       p_.inlined_lines.push_back(l);
                       append_costs(row, 4, item, p_.inlined_line_costs);
                   },
                   no_streamed_ids);
}

TableSource Loader::table_source(const json::value& v, Table table) const
{
    const StreamedTable& streamed = tables_[size_t(table)];
    return streamed.present ? TableSource{nullptr, &streamed} : TableSource{&v, nullptr};
}

void Loader::load_lines(const TableSource& source, const Where& at)
{
    load_table(
        source, at, [&](const RowCells& row, const Where& item, size_t) { add_line(row, item); },
        [&](size_t rows) { check_fn_and_file_ids(p_.lines, at, rows, 0); });
}

void Loader::add_line(const RowCells& row, const Where& item)
{
    check_row(row, item, {"fn", "file", "line"}, {""});
    const Where fn = item.element(0), file = item.element(1), line = item.element(2);
    LineCost l;
    l.fn = id_at<FnId>(row[0], fn, "fn", table_size(p_.functions.size()), "function");
    l.file = id_at<FileId>(row[1], file, "file", table_size(p_.files.size()), "file");
    l.line = u32_at(row[2], line);
    p_.lines.push_back(l);
    append_costs(row, 3, item, p_.line_costs);
}

void Loader::load_instrs(const TableSource& source, const Where& at)
{
    load_table(
        source, at, [&](const RowCells& row, const Where& item, size_t) { add_instr(row, item); },
        [&](size_t rows) { check_fn_and_file_ids(p_.instrs, at, rows, 1); });
}

void Loader::add_instr(const RowCells& row, const Where& item)
{
    check_row(row, item, {"addr", "fn", "file", "line"}, {""});
    InstrCost c;
    located_at(row, item, c.addr, c.fn, c.file, c.line);
    p_.instrs.push_back(c);
    append_costs(row, 4, item, p_.instr_costs);
}

const json::value& Loader::required(const json::object& o, const char* key, const Where& at) const
{
    const json::value* v = o.if_contains(key);
    if (v == nullptr) {
        if (at.is_top())
            fail(at, cat("missing required top-level key \"", key, '"'));
        fail(at, cat("missing required key \"", key, '"'));
    }
    return *v;
}

const json::object& Loader::object_at(const json::value& v, const Where& at) const
{
    if (!v.is_object())
        fail(at, cat("expected an object, got ", describe(v)));
    return v.get_object();
}

const json::array& Loader::array_at(const json::value& v, const Where& at) const
{
    if (!v.is_array())
        fail(at, cat("expected an array, got ", describe(v)));
    return v.get_array();
}

const json::string& Loader::string_at(const json::value& v, const Where& at) const
{
    if (!v.is_string())
        fail(at, cat("expected a string, got ", describe(v)));
    return v.get_string();
}

std::vector<std::string> Loader::strings_at(const json::value& v, const Where& at) const
{
    const json::array& a = array_at(v, at);
    std::vector<std::string> out;
    out.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        out.emplace_back(string_at(a[i], item));
    }
    return out;
}

// Boost.JSON stores an integer as int64 when it fits and as uint64 above
// that, so both kinds are accepted; a double means the text had a fraction,
// an exponent or a value past 2^64-1, none of which the format allows.
uint64_t Loader::uint_at(const Cell& v, const Where& at) const
{
    if (v.is_uint64())
        return v.u;
    if (v.is_int64() && v.i >= 0)
        return uint64_t(v.i);
    fail(at, cat("expected a non-negative integer, got ", describe(v)));
}

int64_t Loader::int_at(const Cell& v, const Where& at) const
{
    if (v.is_int64())
        return v.i;
    if (v.is_uint64())
        fail(at, cat("integer ", v.u, " is too large (limit 2^63-1)"));
    fail(at, cat("expected an integer, got ", describe(v)));
}

uint32_t Loader::u32_at(const Cell& v, const Where& at) const
{
    const uint64_t n = uint_at(v, at);
    if (n > std::numeric_limits<uint32_t>::max())
        fail(at, cat("line number ", n, " is too large (limit 2^32-1)"));
    return uint32_t(n);
}

// A table row: an array of the fixed columns, followed by one cost per event
// for each entry of `cost_sets` (the prefix naming that set in messages:
// "" for a table with one cost array, "self " and "inclusive " for paths).
// The message lists the expected columns because a wrong row length is
// usually a writer/reader event mismatch.
void Loader::check_row(const RowCells& row, const Where& at,
                       std::initializer_list<const char*> fixed,
                       std::initializer_list<const char*> cost_sets) const
{
    if (!row.is_array)
        fail(at, cat("expected an array, got ", describe(row[0])));
    const size_t events = parsing_ ? *events_ : p_.num_events();
    const size_t expected = fixed.size() + cost_sets.size() * events;
    if (row.size() == expected)
        return;
    std::string columns;
    for (const char* c : fixed)
        columns += cat(columns.empty() ? "" : ", ", c);
    for (const char* prefix : cost_sets)
        for (const std::string& e : p_.meta.events)
            columns += cat(", ", prefix, e);
    fail(at, cat("expected ", count_of(expected, "entry", "entries"), " [", columns, "], got ",
                 row.size()));
}

} // namespace detail

using detail::cat;

namespace {

// The public entry points promise that only vgprof::Error escapes: anything
// else (memory exhaustion on a huge file, a library exception) is converted
// here, naming the file.
template <typename Body>
Profile guarded(const std::string& name, Body body)
{
    try {
        return body();
    } catch (const Error&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw Error(cat(name, ": out of memory while loading the profile"));
    } catch (const std::exception& e) {
        throw Error(cat(name, ": cannot load: ", e.what()));
    }
}

// The first bytes decide the format: callgrind's and cachegrind's files are
// text of "key: value" and "key=value" lines, a profile is JSON.
Profile load_input(detail::PeekableInput& input, const std::string& name,
                   const LoadLimits& limits)
{
    try {
        if (input.peek(1).empty())
            throw Error(cat(name, input.decompresses()
                                      ? ": empty: the compressed data decompresses to no bytes"
                                      : ": empty file: no bytes to read"));
        if (detail::is_callgrind_format(input.peek(detail::kCallgrindSniffBytes)))
            return detail::read_callgrind(input, name, limits.max_string);
        if (detail::is_dhat_format(input.peek(detail::kCallgrindSniffBytes)))
            return detail::read_dhat(input, name, limits.max_string);
        return detail::Loader(name, limits).load(input);
    } catch (const Error&) {
        // Damage inside compressed data often decompresses to text that is
        // merely wrong, and only the checksum at the end of the stream tells:
        // then that is the problem to report.
        if (input.decompresses())
            while (!input.next().empty()) {
            }
        throw;
    }
}

} // namespace

Profile parse_profile(std::string_view data, const std::string& name_for_errors,
                      const LoadLimits& limits)
{
    return guarded(name_for_errors, [&] {
        const auto input = detail::open_memory(data, name_for_errors, limits.max_decompressed);
        return load_input(*input, name_for_errors, limits);
    });
}

Profile load_profile(const std::string& path, const LoadLimits& limits,
                     const ReadProgress& progress)
{
    return guarded(path, [&] {
        const auto input = detail::open_file(path, limits.max_decompressed, progress);
        return load_input(*input, path, limits);
    });
}

} // namespace vgprof
