// SPDX-License-Identifier: GPL-2.0-or-later
// Gathering the calls made from a file's lines.
#include "source_calls.hpp"

#include <algorithm>

namespace vgprof::viewer {

FileCalls file_calls(const Document& doc, FileId file)
{
    const Profile& p = doc.profile();
    const size_t events = p.num_events();
    FileCalls out;
    std::map<std::pair<uint32_t, FnId>, LineCall> merged;
    const auto& calls = p.calls();
    for (size_t row = 0; row < calls.size(); ++row) {
        const CallEdge& c = calls[row];
        if (c.file != file || c.line == 0)
            continue;
        LineCall& call = merged[{c.line, c.callee}];
        call.callee = c.callee;
        call.count += c.count;
        call.inclusive.resize(events, 0);
        std::vector<uint64_t>& total = out.total[c.line];
        total.resize(events, 0);
        const uint64_t* cost = p.call_cost(row);
        for (size_t e = 0; e < events; ++e) {
            call.inclusive[e] += cost[e];
            total[e] += cost[e];
        }
    }
    for (auto& [key, call] : merged)
        out.by_line[key.first].push_back(std::move(call));
    for (auto& [line, list] : out.by_line)
        std::stable_sort(list.begin(), list.end(), [](const LineCall& a, const LineCall& b) {
            return !a.inclusive.empty() && a.inclusive[0] > b.inclusive[0];
        });
    return out;
}

FileCalls file_calls(const Document& doc, const std::string& path)
{
    const Profile& p = doc.profile();
    for (size_t f = 0; f < p.files().size(); ++f)
        if (p.file_path(FileId(uint32_t(f))) == path)
            return file_calls(doc, FileId(uint32_t(f)));
    return {};
}

} // namespace vgprof::viewer
