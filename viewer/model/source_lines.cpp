// SPDX-License-Identifier: GPL-2.0-or-later
// Charging a source file's lines with the profile's costs.
#include "source_lines.hpp"

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
                             std::vector<uint64_t>(events, 0), {}, false});
        start = end + 1;
    }

    std::vector<uint64_t> fn_cost_at;  // the selected function's cost of `event` per line
    const RowIndex& rows = doc.lines_of_file();
    for (const uint32_t* r = rows.begin_of(file.index()); r != rows.end_of(file.index()); ++r) {
        const LineCost& row = p.lines()[*r];
        if (row.line == 0)
            continue;
        if (row.line > out.lines.size()) {
            out.stale = true;
            continue;
        }
        SourceLine& line = out.lines[row.line - 1];
        const uint64_t* cost = p.line_cost(*r);
        for (size_t e = 0; e < events; ++e)
            line.cost[e] += cost[e];
        if (row.fn == fn) {
            line.in_function = true;
            if (fn_cost_at.size() <= row.line)
                fn_cost_at.resize(row.line + 1, 0);
            fn_cost_at[row.line] += cost[event];
        }
    }
    for (const SourceLine& line : out.lines)
        for (size_t e = 0; e < events; ++e)
            out.max_cost[e] = std::max(out.max_cost[e], line.cost[e]);

    // The first of equally expensive lines; a function whose lines cost
    // nothing of this event still scrolls to its first line.
    for (uint32_t n = 1; n < fn_cost_at.size(); ++n)
        if (out.lines[n - 1].in_function && (!out.hottest || fn_cost_at[n] > fn_cost_at[*out.hottest]))
            out.hottest = n;

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
