// SPDX-License-Identifier: GPL-2.0-or-later
// Collapsed stacks ("main;work;memset 1500", one stack a line), the input of
// flame graph tools (flamegraph.pl, inferno, speedscope), built from the
// profile's exact call-path tree rather than guessed from caller/callee
// pairs; and their differential form ("stack before after", as
// difffolded.pl writes it) for differential flame graphs.
#ifndef VGPROF_EXPORT_COLLAPSED_HPP
#define VGPROF_EXPORT_COLLAPSED_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace vgprof {

// --- the stacks of the call-path tree, shared by the exporters that write them ---

// What a stack calls the node gathering the calls past --max-path-nodes.
inline constexpr const char* kTruncatedFrame = "[truncated]";

// True when `profile` has the call-path tree: a call graph with paths. A
// callgrind file has a call graph (calls and inclusive costs) but no paths.
bool has_call_path_tree(const Profile& profile);

// Why `profile` has no call-path tree, for messages: "recorded with
// --call-graph=no", "format version 1 has none", "a callgrind file records
// calls, not the paths that led to them".
std::string why_no_call_path_tree(const Profile& profile);

// Throws vgprof::Error when `profile` has neither a call-path tree nor heap
// data, the stacks `format` ("speedscope") writes, saying why for each.
void require_tree_or_heap(const Profile& profile, const std::string& format);

// The nodes from a root of the call-path tree down to `node`, root first.
std::vector<PathId> path_from_root(const Profile& profile, PathId node);

// The name of a node's function, or kTruncatedFrame.
const std::string& path_node_name(const Profile& profile, const PathNode& node);

// The formats that write each stack in full (collapsed, pprof, speedscope)
// write a node's whole path for every node that costs something: a
// recursion N deep with a cost at every level comes to N*N/2 frames, 5*10^9
// for 100,000 levels, from a profile of a few megabytes. They refuse, before
// writing, stacks of more frames in all than this, or (collapsed stacks)
// more text; a real program's stacks come to a few million frames.
inline constexpr uint64_t kMaxStackFrames = uint64_t(1) << 27;
inline constexpr uint64_t kMaxStackText = uint64_t(1) << 30;

// Each call-path node's depth, its root's being 1 (the loader puts parents
// before their children, so one pass finds them all).
std::vector<uint32_t> path_depths(const Profile& profile);

// Throws vgprof::Error when `frames` (the stacks' frames `format` would
// write, in all) is more than kMaxStackFrames.
void check_stack_frames(const std::string& format, uint64_t frames);

struct CollapsedOptions {
    std::string event = "Ir";  // whose self costs are counted
    // Begin each stack with its thread ("thread 2;worker;compute"); needs a
    // profile with per-thread graphs (--separate-threads=yes).
    bool threads = false;
};

// Each distinct stack and its cost: for every node of the call-path tree
// with a self cost of options.event, the names of the functions from its
// root to it joined by ';' (the [truncated] node as "[truncated]"), and that
// self cost. Nodes of no cost are left out; stacks that read the same (two
// threads' roots, two functions of one name) are added together. The map
// orders them by their text. A ';' in a function's name, which would read
// as two frames, becomes ':', and a line break a space. Throws
// vgprof::Error naming `name` (the profile's path) when the profile has no
// call graph, no such event, or, with options.threads, no per-thread graphs,
// and when the stacks come to more than kMaxStackFrames frames or
// kMaxStackText bytes.
std::map<std::string, uint64_t> collapsed_stacks(const Profile& profile, const std::string& name,
                                                 const CollapsedOptions& options);

// "stack cost" lines, in the map's order.
void write_collapsed(std::ostream& out, const std::map<std::string, uint64_t>& stacks);

// "stack before after" lines for every stack of either map, in text order,
// 0 where a map lacks the stack.
void write_collapsed_diff(std::ostream& out, const std::map<std::string, uint64_t>& before,
                          const std::map<std::string, uint64_t>& after);

} // namespace vgprof

#endif
