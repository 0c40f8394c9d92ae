// SPDX-License-Identifier: GPL-2.0-or-later
// Finding the hosts whose inlined code can be split, and placing each
// inlined call's code at its frame below them.
#include "inlined_frames.hpp"

#include <map>
#include <optional>
#include <unordered_map>

namespace vgprof::viewer {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// The self cost of `fn` in the whole program, whichever thread `doc` shows.
uint64_t program_self(const Document& doc, FnId fn, size_t event)
{
    if (!doc.thread())
        return doc.self(fn, event);
    uint64_t self = 0;
    const RowIndex& rows = doc.lines_of_fn();
    for (const uint32_t* r = rows.begin_of(fn.index()); r != rows.end_of(fn.index()); ++r)
        self += doc.profile().line_cost(*r)[event];
    return self;
}

// Function -> its one path node, for the functions whose node holds the
// split of their inlined code.
std::unordered_map<uint32_t, uint32_t> split_hosts(const Document& doc)
{
    const Profile& p = doc.profile();
    std::unordered_map<uint32_t, uint32_t> path_of;  // function -> its one path node, or kNone
    for (uint32_t i = 0; i < p.paths().size(); ++i)
        if (const auto fn = p.paths()[i].fn) {
            const auto [it, first] = path_of.emplace(fn->value, i);
            if (!first)
                it->second = kNone;
        }
    std::unordered_map<uint32_t, uint32_t> hosts;
    for (const auto& [fn, path] : path_of) {
        // The inlined code's split is the program's: a thread's document
        // splits the node of a function on one stack of the whole program.
        const uint64_t* inclusive = p.fn_inclusive(FnId(fn));
        if (path == kNone || !inclusive || !doc.has_path(path))
            continue;
        bool whole = true;
        for (size_t e = 0; e < p.num_events() && whole; ++e)
            whole = inclusive[e] == p.path_inclusive(path)[e] &&
                    p.path_self(path)[e] >= program_self(doc, FnId(fn), e);
        if (whole)
            hosts.emplace(fn, path);
    }
    return hosts;
}

} // namespace

InlinedFrames inlined_frames(const Document& doc, size_t event)
{
    const Profile& p = doc.profile();
    InlinedFrames out;
    out.first_added = uint32_t(p.paths().size());
    if (p.inlined_lines().empty())
        return out;
    const std::unordered_map<uint32_t, uint32_t> hosts = split_hosts(doc);
    if (hosts.empty())
        return out;
    // The inlined functions' path nodes below the hosts, by (parent,
    // function): only those, a path tree has millions of nodes.
    std::vector<bool> host_or_inlined(p.paths().size(), false);
    for (const auto& [fn, path] : hosts)
        host_or_inlined[path] = true;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> child;
    for (uint32_t i = 0; i < p.paths().size(); ++i) {
        const PathNode& n = p.paths()[i];
        if (!n.parent || !host_or_inlined[n.parent->index()] || !n.fn || !p.function(*n.fn).inlined)
            continue;
        host_or_inlined[i] = true;
        child.emplace(std::pair{n.parent->value, n.fn->value}, i);
    }
    const auto child_of = [&](uint32_t parent, FnId fn) {
        const auto [it, added] =
            child.emplace(std::pair{parent, fn.value}, out.first_added + uint32_t(out.added.size()));
        if (added)
            out.added.push_back({parent, fn});
        return it->second;
    };
    // The node of each (host, inlined call), found once: a chain of
    // inlined calls is walked down from the first of it already placed.
    std::unordered_map<uint64_t, uint32_t> placed;
    const auto node_of_call = [&](uint32_t host, uint32_t inl) {
        std::vector<uint32_t> chain;  // innermost first, down to one placed or the outermost
        uint32_t at = host;
        for (std::optional<uint32_t> c = inl; c; c = p.inlined_calls()[*c].parent) {
            const auto found = placed.find(uint64_t(host) << 32 | *c);
            if (found != placed.end()) {
                at = found->second;
                break;
            }
            chain.push_back(*c);
        }
        for (auto c = chain.rbegin(); c != chain.rend(); ++c) {
            at = child_of(at, p.inlined_calls()[*c].fn);
            placed.emplace(uint64_t(host) << 32 | *c, at);
        }
        return at;
    };
    for (size_t r = 0; r < p.inlined_lines().size(); ++r) {
        const InlinedLine& l = p.inlined_lines()[r];
        const auto host = hosts.find(l.fn.value);
        if (host != hosts.end())
            out.moves.push_back(
                {host->second, node_of_call(host->second, l.inl), p.inlined_line_cost(r)[event]});
    }
    return out;
}

} // namespace vgprof::viewer
