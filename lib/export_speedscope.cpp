// SPDX-License-Identifier: GPL-2.0-or-later
// The speedscope writer (see export_speedscope.hpp). The file is written as
// it goes rather than built as a JSON tree: a large program's tree has
// hundreds of thousands of stacks, each repeated for every event.
#include "vgprof/export_speedscope.hpp"

#include "vgprof/export_collapsed.hpp"
#include "vgprof/export_dhat.hpp"
#include "vgprof/identity.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace vgprof {

namespace {

std::string quoted(const std::string& text) { return boost::json::serialize(boost::json::value(text)); }

// Frame i is function i; the [truncated] node's frame comes after them.
size_t frame_of(const Profile& p, std::optional<FnId> fn)
{
    return fn ? fn->index() : p.functions().size();
}

void write_frames(std::ostream& out, const Profile& p)
{
    for (const Function& f : p.functions()) {
        const std::string& file = p.file_path(f.file);
        out << "{\"name\":" << quoted(p.str(f.name)) << ",\"file\":"
            << quoted(!is_unknown(file) ? file : p.obj_path(f.obj));
        if (!is_unknown(file) && f.line != 0)
            out << ",\"line\":" << f.line;
        out << "},";
    }
    out << "{\"name\":" << quoted(kTruncatedFrame) << '}';
}

// One sampled profile: a sample per element of `keys`, its stack (frame
// indices, root first) from stack_of and its weight from weight_of.
struct Sampled {
    std::string name, unit;
    std::vector<size_t> keys;
    std::function<std::vector<size_t>(size_t)> stack_of;
    std::function<uint64_t(size_t)> weight_of;
    std::function<size_t(size_t)> depth_of;  // the length of stack_of's stack
};

void write_sampled(std::ostream& out, const Sampled& s)
{
    out << "{\"type\":\"sampled\",\"name\":" << quoted(s.name) << ",\"unit\":\"" << s.unit
        << "\",\"samples\":[";
    for (size_t i = 0; i < s.keys.size(); ++i) {
        out << (i ? ",[" : "[");
        const std::vector<size_t> stack = s.stack_of(s.keys[i]);
        for (size_t f = 0; f < stack.size(); ++f)
            out << (f ? "," : "") << stack[f];
        out << ']';
    }
    out << "],\"weights\":[";
    uint64_t total = 0;
    for (size_t i = 0; i < s.keys.size(); ++i) {
        const uint64_t weight = s.weight_of(s.keys[i]);
        out << (i ? "," : "") << weight;
        total += weight;
    }
    out << "],\"startValue\":0,\"endValue\":" << total << '}';
}

// The event's profile: the tree's nodes that cost something.
Sampled event_profile(const Profile& p, size_t event)
{
    Sampled s{p.meta().events[event], "none", {}, {}, {}, {}};
    for (size_t node = 0; node < p.paths().size(); ++node)
        if (p.path_self(node)[event] != 0)
            s.keys.push_back(node);
    s.stack_of = [&p](size_t node) {
        std::vector<size_t> stack;
        for (PathId id : path_from_root(p, PathId(uint32_t(node))))
            stack.push_back(frame_of(p, p.path(id).fn));
        return stack;
    };
    s.weight_of = [&p, event](size_t node) { return p.path_self(node)[event]; };
    s.depth_of = [depth = std::make_shared<std::vector<uint32_t>>(path_depths(p))](size_t node) {
        return size_t((*depth)[node]);
    };
    return s;
}

// A heap profile: the sites with some of `figure`.
Sampled heap_profile(const Profile& p, const std::string& name, uint64_t HeapSite::*figure)
{
    const Heap& heap = *p.heap();
    Sampled s{name, "bytes", {}, {}, {}, {}};
    for (size_t site = 0; site < heap.sites.size(); ++site)
        if (heap.sites[site].*figure != 0)
            s.keys.push_back(site);
    s.stack_of = [&p, &heap](size_t site) {
        std::vector<size_t> stack;
        for (FrameId f : caller_frames(p, heap.sites[site]))
            stack.push_back(frame_of(p, heap.frame(f).fn));
        std::reverse(stack.begin(), stack.end());
        return stack;
    };
    s.weight_of = [&heap, figure](size_t site) { return heap.sites[site].*figure; };
    s.depth_of = [&heap](size_t site) { return heap.sites[site].frames.size(); };
    return s;
}

// The frames the samples' stacks hold in all.
uint64_t stack_frames(const std::vector<Sampled>& profiles)
{
    uint64_t frames = 0;
    for (const Sampled& s : profiles)
        for (size_t key : s.keys)
            frames += s.depth_of(key);
    return frames;
}

} // namespace

void write_speedscope(std::ostream& out, const Profile& profile)
{
    require_tree_or_heap(profile, "speedscope");
    std::vector<Sampled> profiles;
    if (has_call_path_tree(profile))
        for (size_t e = 0; e < profile.num_events(); ++e)
            profiles.push_back(event_profile(profile, e));
    if (profile.heap()) {
        profiles.push_back(heap_profile(profile, "heap: bytes allocated", &HeapSite::bytes));
        profiles.push_back(heap_profile(profile, "heap: bytes at t-gmax", &HeapSite::peak_bytes));
    }
    check_stack_frames("speedscope", stack_frames(profiles));
    out << "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
        << "\"exporter\":\"vgprof\",\"name\":" << quoted(command_text(profile))
        << ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[";
    write_frames(out, profile);
    out << "]},\"profiles\":[";
    for (size_t i = 0; i < profiles.size(); ++i) {
        out << (i ? ",\n" : "\n");
        write_sampled(out, profiles[i]);
    }
    out << "]}\n";
}

} // namespace vgprof
