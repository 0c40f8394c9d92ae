// SPDX-License-Identifier: GPL-2.0-or-later
// Collapsed stacks from the call-path tree (see export_collapsed.hpp).
#include "vgprof/export_collapsed.hpp"

#include "vgprof/error.hpp"

#include <algorithm>
#include <ostream>
#include <vector>

namespace vgprof {

namespace {

std::string frame_name(const Profile& p, const PathNode& node)
{
    if (!node.fn)
        return "[truncated]";
    std::string name = p.fn_name(*node.fn);
    std::replace(name.begin(), name.end(), ';', ':');
    std::replace(name.begin(), name.end(), '\n', ' ');
    return name;
}

void check_exportable(const Profile& p, const std::string& name, const CollapsedOptions& options)
{
    if (!p.has_call_graph())
        throw Error(name + ": collapsed stacks need the call-path tree, which this profile does "
                           "not have (" +
                    (p.meta().version < 2 ? "format version 1 has none"
                                          : "recorded with --call-graph=no") +
                    ")");
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
    std::vector<std::string> frames;
    for (size_t i = 0; i < paths.size(); ++i) {
        const uint64_t cost = profile.path_self(i)[event];
        if (cost == 0)
            continue;
        // Up to the root, then read backwards.
        frames.clear();
        size_t node = i;
        for (;;) {
            frames.push_back(frame_name(profile, paths[node]));
            if (!paths[node].parent)
                break;
            node = paths[node].parent->index();
        }
        if (options.threads)
            frames.push_back(thread_of_root[node]);
        std::string stack;
        for (auto frame = frames.rbegin(); frame != frames.rend(); ++frame)
            stack += (stack.empty() ? "" : ";") + *frame;
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
