// SPDX-License-Identifier: GPL-2.0-or-later
// Builds the viewer's indexes of a loaded profile.
#include "document.hpp"

#include "vgprof/heap.hpp"
#include "vgprof/inlined.hpp"

#include <algorithm>
#include <utility>

namespace vgprof::viewer {

Document::Document(Profile profile, std::string path)
    : profile_(std::make_shared<const Profile>(std::move(profile))), path_(std::move(path)),
      graph_(&profile_->call_graph()), totals_(profile_->meta().totals),
      costs_(function_costs(*profile_)), names_(*profile_)
{
    const Profile& p = *profile_;
    const size_t fns = p.functions().size();
    // An inlined function's code is its host's self cost; its own row
    // gives what its code and the calls from it cost, as report --function
    // does, rather than nothing.
    if (!p.inlined_lines().empty())
        set_inlined_costs(p, costs_);
    index_calls();
    const auto& lines = p.lines();
    lines_of_fn_ = group_rows(lines.size(), fns, [&](size_t r) { return lines[r].fn.index(); });
    lines_of_file_ = group_rows(lines.size(), p.files().size(),
                                [&](size_t r) { return lines[r].file.index(); });

    // Roots go under an extra key, one past the last node, so that one
    // pass groups both.
    const auto& paths = p.paths();
    const size_t root_key = paths.size();
    path_children_ = group_rows(paths.size(), paths.size() + 1, [&](size_t r) {
        return paths[r].parent ? paths[r].parent->index() : root_key;
    });
    for (const uint32_t* r = path_children_.begin_of(root_key); r != path_children_.end_of(root_key);
         ++r)
        path_roots_.push_back(PathId(*r));
    if (p.heap())
        allocated_by_line_ = allocated_bytes_by_line(p);
}

Document::Document(const Document& whole, const ThreadGraph& thread) : Document(whole)
{
    const Profile& p = *profile_;
    thread_ = thread.tid;
    graph_ = &thread;
    ThreadCosts costs = thread_costs(p, thread);
    totals_ = std::move(costs.totals);
    costs_ = std::move(costs.functions);
    index_calls();
    const std::vector<uint32_t> tids = path_threads(p);
    in_thread_.assign(tids.size(), false);
    for (size_t i = 0; i < tids.size(); ++i)
        in_thread_[i] = tids[i] == thread.tid;
    path_roots_ = thread.roots;
    std::sort(path_roots_.begin(), path_roots_.end());
}

void Document::index_calls()
{
    const size_t fns = profile_->functions().size();
    const auto& calls = graph_->calls();
    calls_out_ = group_rows(calls.size(), fns, [&](size_t r) { return calls[r].caller.index(); });
    calls_in_ = group_rows(calls.size(), fns, [&](size_t r) { return calls[r].callee.index(); });
}

uint64_t Document::inclusive(FnId fn, size_t event) const
{
    const FunctionCost& c = costs_[fn.index()];
    return c.inclusive.empty() ? c.self[event] : c.inclusive[event];
}

std::vector<uint64_t> Document::allocated_in_file(FileId file) const
{
    std::vector<uint64_t> by_line;
    for (auto it = allocated_by_line_.lower_bound({file, 0}); it != allocated_by_line_.end() && it->first.first == file;
         ++it) {
        if (by_line.size() <= it->first.second)
            by_line.resize(it->first.second + 1, 0);
        by_line[it->first.second] += it->second;
    }
    return by_line;
}

std::string Document::command() const
{
    std::string text;
    for (const std::string& arg : profile_->meta().argv)
        text += (text.empty() ? "" : " ") + arg;
    return text;
}

} // namespace vgprof::viewer
