// SPDX-License-Identifier: GPL-2.0-or-later
// Charging a source file's lines with the profile's costs.
#include "source_lines.hpp"

#include "function_files.hpp"

#include "vgprof/identity.hpp"

#include <algorithm>

namespace vgprof::viewer {

std::optional<FileId> source_file_of(const Document& doc, FnId fn)
{
    const Profile& p = doc.profile();
    const FileId file = p.function(fn).file;
    if (!is_unknown(p.file_path(file)))
        return file;
    // No entry location: the file most of the function's lines are in.
    const RowIndex& rows = doc.lines_of_fn();
    for (const uint32_t* r = rows.begin_of(fn.index()); r != rows.end_of(fn.index()); ++r)
        if (!is_unknown(p.file_path(p.lines()[*r].file)))
            return p.lines()[*r].file;
    return std::nullopt;
}

SourceFile annotate_source(const Document& doc, FileId file, std::string_view text, FnId fn,
                           size_t event, const DiffLink* diff)
{
    const Profile& p = doc.profile();
    const size_t events = p.num_events();
    SourceFile out;
    out.file = file;
    out.path = p.file_path(file);
    out.max_cost.assign(events, 0);

    for (size_t start = 0; start < text.size();) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string line(text.substr(start, end - start));
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        out.lines.push_back({uint32_t(out.lines.size() + 1), std::move(line),
                             std::vector<uint64_t>(events, 0), {}, false, {}});
        start = end + 1;
    }

    const RowIndex& rows = doc.lines_of_file();
    for (const uint32_t* r = rows.begin_of(file.index()); r != rows.end_of(file.index()); ++r) {
        const LineCost& row = p.lines()[*r];
        if (row.line == 0)
            continue;
        if (row.line > out.lines.size()) {
            out.stale = true;
            continue;
        }
        const uint64_t* cost = p.line_cost(*r);
        for (size_t e = 0; e < events; ++e)
            out.lines[row.line - 1].cost[e] += cost[e];
    }
    for (const SourceLine& line : out.lines)
        for (size_t e = 0; e < events; ++e)
            out.max_cost[e] = std::max(out.max_cost[e], line.cost[e]);

    // The selected function's code here (an inlined function's included,
    // which the lines rows book to the functions it was inlined into). The
    // first of equally expensive lines is the hottest; a function whose
    // lines cost nothing of this event still scrolls to its first line.
    for (auto& [number, cost] : function_cost_by_line(doc, fn, file)) {
        if (number == 0 || number > out.lines.size())
            continue;
        SourceLine& line = out.lines[number - 1];
        line.in_function = true;
        if (!out.hottest || cost[event] > out.lines[*out.hottest - 1].fn_cost[event])
            out.hottest = number;
        line.fn_cost = std::move(cost);
    }

    if (diff) {
        const auto base = diff->base_line_costs(file);
        for (SourceLine& line : out.lines) {
            line.delta.resize(events);
            for (size_t e = 0; e < events; ++e) {
                const uint64_t before = line.number < base.size() ? base[line.number][e] : 0;
                line.delta[e] = signed_delta(line.cost[e], before);
            }
        }
    }
    return out;
}

} // namespace vgprof::viewer
