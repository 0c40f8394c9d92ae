// SPDX-License-Identifier: GPL-2.0-or-later
// The files a function's code came from (see function_files.hpp).
#include "function_files.hpp"

#include "source_lines.hpp"

#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/path_display.hpp"

#include <algorithm>

namespace vgprof::viewer {

namespace {

void add(std::vector<uint64_t>& sum, const uint64_t* cost)
{
    for (size_t e = 0; e < sum.size(); ++e)
        sum[e] += cost[e];
}

// The inline_lines rows of host function `fn` (the table is sorted by fn).
std::pair<size_t, size_t> inlined_rows_of_host(const Profile& p, FnId fn)
{
    const std::vector<InlinedLine>& rows = p.inlined_lines();
    const auto first = std::lower_bound(rows.begin(), rows.end(), fn,
                                        [](const InlinedLine& l, FnId f) { return l.fn < f; });
    const auto last = std::upper_bound(first, rows.end(), fn,
                                       [](FnId f, const InlinedLine& l) { return f < l.fn; });
    return {size_t(first - rows.begin()), size_t(last - rows.begin())};
}

// For each inlined call (parents come first), whether it or one it lies
// in is a call of `fn`.
std::vector<bool> calls_within(const Profile& p, FnId fn)
{
    std::vector<bool> within(p.inlined_calls().size(), false);
    for (size_t i = 0; i < within.size(); ++i) {
        const InlinedCall& c = p.inlined_calls()[i];
        within[i] = c.fn == fn || (c.parent && within[*c.parent]);
    }
    return within;
}

// Calls visit(file, line, cost, innermost) for each part of `fn`'s code:
// `innermost` is the inlined function whose code it is when that is not
// `fn` itself, else nullopt. A function's lines rows are its whole code;
// the inlined parts of them are told apart with `innermost` set and a null
// cost, so that the lines rows alone add up to the total.
template <typename Visit>
void visit_code(const Document& doc, FnId fn, Visit visit)
{
    const Profile& p = doc.profile();
    if (!p.function(fn).inlined) {
        const RowIndex& rows = doc.lines_of_fn();
        for (const uint32_t* r = rows.begin_of(fn.index()); r != rows.end_of(fn.index()); ++r)
            visit(p.lines()[*r].file, p.lines()[*r].line, p.line_cost(*r), std::optional<FnId>());
        const auto [first, last] = inlined_rows_of_host(p, fn);
        for (size_t r = first; r < last; ++r) {
            const InlinedLine& l = p.inlined_lines()[r];
            visit(l.file, l.line, p.inlined_line_cost(r), std::optional<FnId>(p.inlined_calls()[l.inl].fn));
        }
        return;
    }
    // An inlined function's code: the rows that lie in one of its calls,
    // each counted whole, and again as the part of an inlined function
    // when the innermost call is another's.
    const std::vector<bool> within = calls_within(p, fn);
    for (size_t r = 0; r < p.inlined_lines().size(); ++r) {
        const InlinedLine& l = p.inlined_lines()[r];
        if (!within[l.inl])
            continue;
        visit(l.file, l.line, p.inlined_line_cost(r), std::optional<FnId>());
        const FnId innermost = p.inlined_calls()[l.inl].fn;
        if (innermost != fn)
            visit(l.file, l.line, p.inlined_line_cost(r), std::optional<FnId>(innermost));
    }
}

} // namespace

FunctionFiles files_of_function(const Document& doc, FnId fn, size_t event)
{
    const Profile& p = doc.profile();
    const size_t events = p.num_events();
    const std::optional<FileId> own = p.function(fn).inlined ? std::nullopt : source_file_of(doc, fn);
    std::map<FileId, FunctionFile> by_file;
    std::map<std::pair<FileId, FnId>, std::vector<uint64_t>> shares;
    FunctionFiles out;
    out.total.assign(events, 0);
    visit_code(doc, fn, [&](FileId file, uint32_t, const uint64_t* cost, std::optional<FnId> innermost) {
        if (innermost) {
            std::vector<uint64_t>& share = shares[{file, *innermost}];
            share.resize(events, 0);
            add(share, cost);
            return;
        }
        FunctionFile& f = by_file[file];
        f.file = file;
        f.cost.resize(events, 0);
        add(f.cost, cost);
        add(out.total, cost);
    });
    for (auto& [key, cost] : shares)
        by_file[key.first].inlined.push_back({key.second, std::move(cost)});
    for (auto& [file, f] : by_file) {
        f.own = own && file == *own;
        std::stable_sort(f.inlined.begin(), f.inlined.end(), [event](const InlinedShare& a, const InlinedShare& b) {
            return a.cost[event] > b.cost[event];
        });
        out.files.push_back(std::move(f));
    }
    // The own file first, files without line information last.
    const auto rank = [&](const FunctionFile& f) { return f.own ? 0 : is_unknown(p.file_path(f.file)) ? 2 : 1; };
    std::stable_sort(out.files.begin(), out.files.end(), [&](const FunctionFile& a, const FunctionFile& b) {
        if (rank(a) != rank(b))
            return rank(a) < rank(b);
        return a.cost[event] > b.cost[event];
    });
    return out;
}

std::map<uint32_t, std::vector<uint64_t>> function_cost_by_line(const Document& doc, FnId fn, FileId file)
{
    const size_t events = doc.num_events();
    std::map<uint32_t, std::vector<uint64_t>> out;
    visit_code(doc, fn, [&](FileId f, uint32_t line, const uint64_t* cost, std::optional<FnId> innermost) {
        if (f != file || innermost)
            return;
        std::vector<uint64_t>& at = out[line];
        at.resize(events, 0);
        add(at, cost);
    });
    return out;
}

std::optional<FileId> first_file_of(const Document& doc, FnId fn, size_t event)
{
    if (!doc.profile().function(fn).inlined)
        return source_file_of(doc, fn);
    const FunctionFiles files = files_of_function(doc, fn, event);
    if (files.files.empty() || is_unknown(doc.profile().file_path(files.files.front().file)))
        return std::nullopt;
    return files.files.front().file;
}

Selection line_to_select(const Document& doc, const std::string& spec, std::optional<FnId> fn, size_t event)
{
    const Profile& p = doc.profile();
    const size_t colon = spec.rfind(':');
    const std::string name = spec.substr(0, colon == std::string::npos ? 0 : colon);
    const std::string number = colon == std::string::npos ? std::string() : spec.substr(colon + 1);
    if (name.empty() || number.empty() || number.size() > 9 ||
        number.find_first_not_of("0123456789") != std::string::npos)
        throw Error("expected FILE:LINE, got \"" + spec + "\"");
    std::vector<FileId> files;
    for (uint32_t f = 0; f < p.files().size(); ++f)
        if (p.file_path(FileId(f)) == name || ends_with_component(p.file_path(FileId(f)), name))
            files.push_back(FileId(f));
    if (files.empty())
        throw Error("no source file of the profile is named " + name);
    if (files.size() > 1)
        throw Error(name + " names " + std::to_string(files.size()) + " files of the profile (" +
                    p.file_path(files[0]) + ", " + p.file_path(files[1]) + (files.size() > 2 ? ", ..." : "") +
                    "): give more of its path");
    const uint32_t line = uint32_t(std::stoul(number));
    std::optional<FnId> owner, costliest;
    uint64_t most = 0;
    const RowIndex& rows = doc.lines_of_file();
    for (const uint32_t* r = rows.begin_of(files[0].index()); r != rows.end_of(files[0].index()); ++r) {
        const LineCost& row = p.lines()[*r];
        if (row.line != line)
            continue;
        if (fn && row.fn == *fn)
            owner = fn;
        if (!costliest || p.line_cost(*r)[event] > most) {
            costliest = row.fn;
            most = p.line_cost(*r)[event];
        }
    }
    const std::optional<FnId> chosen = owner ? owner : costliest ? costliest : fn;
    Selection s = Selection::source_line(chosen.value_or(FnId(0)), files[0], line);
    s.fn = chosen;
    return s;
}

} // namespace vgprof::viewer
