// SPDX-License-Identifier: GPL-2.0-or-later
// Collapsed stacks from the call-path tree (see export_collapsed.hpp).
#include "vgprof/export_collapsed.hpp"

#include "vgprof/error.hpp"
#include "vgprof/export_dhat.hpp"
#include "text.hpp"

#include <algorithm>
#include <ostream>
#include <vector>

namespace vgprof {

using detail::cat;

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

// Adds without passing 2^64-1, where a sum that large only has to say
// "too many".
uint64_t saturating_add(uint64_t a, uint64_t b)
{
    uint64_t sum;
    return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

std::string saturated_text(uint64_t n) { return n == UINT64_MAX ? "more than 2^64-1" : cat(n); }

// What the stacks come to, counted over the tree in one pass, before any
// is built: each node's stack is its parent's and one more frame.
void check_stack_size(const Profile& p, const std::string& name, size_t event,
                      const std::vector<std::string>& thread_of_root)
{
    const std::vector<PathNode>& paths = p.paths();
    const std::vector<uint32_t> depth = path_depths(p);
    std::vector<uint64_t> text(paths.size());
    uint64_t frames = 0, bytes = 0;
    for (size_t i = 0; i < paths.size(); ++i) {
        const std::optional<PathId> parent = paths[i].parent;
        const uint64_t above = parent                   ? saturating_add(text[parent->index()], 1)
                               : thread_of_root.empty() ? 0
                                                        : thread_of_root[i].size() + 1;
        text[i] = saturating_add(above, path_node_name(p, paths[i]).size());
        if (p.path_self(i)[event] == 0)
            continue;
        frames = saturating_add(frames, depth[i]);
        bytes = saturating_add(bytes, text[i]);
    }
    check_stack_frames(name + ": collapsed stacks", frames);
    if (bytes > kMaxStackText)
        throw Error(cat(name, ": collapsed stacks: the stacks would come to ",
                        saturated_text(bytes), " bytes, more than the ", kMaxStackText,
                        " vgprof writes"));
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

std::vector<uint32_t> path_depths(const Profile& profile)
{
    const std::vector<PathNode>& paths = profile.paths();
    std::vector<uint32_t> depth(paths.size(), 1);
    for (size_t i = 0; i < paths.size(); ++i)
        if (paths[i].parent)
            depth[i] = depth[paths[i].parent->index()] + 1;
    return depth;
}

void check_stack_frames(const std::string& format, uint64_t frames)
{
    if (frames > kMaxStackFrames)
        throw Error(cat(format, ": the stacks would hold ", saturated_text(frames),
                        " frames, more than the ", kMaxStackFrames,
                        " vgprof writes (each stack is written whole: deep call paths with a cost "
                        "at every level, as a deep recursion has, make very many); the callgrind "
                        "format holds the same costs"));
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

    check_stack_size(profile, name, event, thread_of_root);
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
