// SPDX-License-Identifier: GPL-2.0-or-later
// Collapsed stacks from the call-path tree (see export_collapsed.hpp).
#include "vgprof/export_collapsed.hpp"

#include "vgprof/error.hpp"
#include "vgprof/export_dhat.hpp"

#include <algorithm>
#include <ostream>
#include <vector>

namespace vgprof {

namespace {

std::string frame_name(const Profile& p, const PathNode& node)
{
    std::string name = path_node_name(p, node);
    std::replace(name.begin(), name.end(), ';', ':');
    std::replace(name.begin(), name.end(), '\n', ' ');
    return name;
}

void check_exportable(const Profile& p, const std::string& name, const CollapsedOptions& options)
{
    if (!has_call_path_tree(p))
        throw Error(name + ": collapsed stacks need the call-path tree, which this profile does "
                           "not have (" +
                    why_no_call_path_tree(p) + ")");
    if (!p.event_index(options.event)) {
        std::string events;
        for (const std::string& e : p.meta().events)
            events += (events.empty() ? "" : " ") + e;
        throw Error(name + ": no event \"" + options.event + "\" to count (events recorded: " +
                    events + ")");
    }
    if (options.threads && !p.has_thread_graphs())
        throw Error(name + ": stacks by thread need per-thread call graphs, which this profile "
                           "does not have (recorded without --separate-threads=yes)");
}

} // namespace

bool has_call_path_tree(const Profile& profile)
{
    if (!profile.has_call_graph())
        return false;
    // The path nodes' self costs add up to the totals: no nodes and a cost
    // means the paths were never recorded.
    const std::vector<uint64_t>& totals = profile.meta().totals;
    return !profile.paths().empty() ||
           std::all_of(totals.begin(), totals.end(), [](uint64_t t) { return t == 0; });
}

std::string why_no_call_path_tree(const Profile& profile)
{
    if (profile.has_call_graph())
        return "a " + profile.meta().tool + " file records calls, not the paths that led to them";
    return profile.meta().version < 2 ? "format version 1 has none" : "recorded with --call-graph=no";
}

void require_tree_or_heap(const Profile& profile, const std::string& format)
{
    if (!has_call_path_tree(profile) && profile.heap() == nullptr)
        throw Error(format + " needs the call-path tree or the heap, and the profile has neither "
                             "(no call-path tree: " +
                    why_no_call_path_tree(profile) + "; no heap: " + kWhyNoHeap + ")");
}

std::vector<PathId> path_from_root(const Profile& profile, PathId node)
{
    std::vector<PathId> nodes{node};
    while (const std::optional<PathId> parent = profile.path(nodes.back()).parent)
        nodes.push_back(*parent);
    std::reverse(nodes.begin(), nodes.end());
    return nodes;
}

const std::string& path_node_name(const Profile& profile, const PathNode& node)
{
    static const std::string truncated = kTruncatedFrame;
    return node.fn ? profile.fn_name(*node.fn) : truncated;
}

std::map<std::string, uint64_t> collapsed_stacks(const Profile& profile, const std::string& name,
                                                 const CollapsedOptions& options)
{
    check_exportable(profile, name, options);
    const size_t event = *profile.event_index(options.event);
    const std::vector<PathNode>& paths = profile.paths();
    std::vector<std::string> thread_of_root(options.threads ? paths.size() : 0);
    if (options.threads)
        for (const ThreadGraph& t : profile.threads())
            for (PathId root : t.roots)
                thread_of_root[root.index()] = "thread " + std::to_string(t.tid);

    std::map<std::string, uint64_t> stacks;
    for (size_t i = 0; i < paths.size(); ++i) {
        const uint64_t cost = profile.path_self(i)[event];
        if (cost == 0)
            continue;
        const std::vector<PathId> nodes = path_from_root(profile, PathId(uint32_t(i)));
        std::string stack = options.threads ? thread_of_root[nodes.front().index()] : "";
        for (PathId node : nodes)
            stack += (stack.empty() ? "" : ";") + frame_name(profile, profile.path(node));
        stacks[stack] += cost;
    }
    return stacks;
}

void write_collapsed(std::ostream& out, const std::map<std::string, uint64_t>& stacks)
{
    for (const auto& [stack, cost] : stacks)
        out << stack << ' ' << cost << '\n';
}

void write_collapsed_diff(std::ostream& out, const std::map<std::string, uint64_t>& before,
                          const std::map<std::string, uint64_t>& after)
{
    auto b = before.begin(), a = after.begin();
    while (b != before.end() || a != after.end()) {
        if (a == after.end() || (b != before.end() && b->first < a->first)) {
            out << b->first << ' ' << b->second << " 0\n";
            ++b;
        } else if (b == before.end() || a->first < b->first) {
            out << a->first << " 0 " << a->second << '\n';
            ++a;
        } else {
            out << b->first << ' ' << b->second << ' ' << a->second << '\n';
            ++b;
            ++a;
        }
    }
}

} // namespace vgprof
