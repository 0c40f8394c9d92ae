// SPDX-License-Identifier: GPL-2.0-or-later
// The speedscope writer (see export_speedscope.hpp). The file is written as
// it goes rather than built as a JSON tree: a large program's tree has
// hundreds of thousands of stacks, each repeated for every event.
//
// Frame i is function i, at its entry line, for the events' stacks (the
// call-path tree knows functions, not lines); the [truncated] node's frame
// follows. The heap's stacks know each call's line: their frames come
// after, one per (function, file, line) of the heap's frames, so that the
// line of the program's own code that allocated (build_payload's
// `vec![0u8; n]`, inlined standard-library code below it) is on the stack
// speedscope shows. speedscope's file format has no labels.
#include "vgprof/export_speedscope.hpp"

#include "vgprof/export_collapsed.hpp"
#include "vgprof/export_dhat.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/query.hpp"
#include "vgprof/timeline.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

namespace vgprof {

namespace {

std::string quoted(const std::string& text) { return boost::json::serialize(boost::json::value(text)); }

size_t frame_of(const Profile& p, std::optional<FnId> fn)
{
    return fn ? fn->index() : p.functions().size();
}

// The frames of the heap's stacks: the index of each heap frame's, and the
// (function, file, line) of each, in order.
struct HeapFrames {
    std::vector<size_t> of_frame;
    std::vector<std::tuple<FnId, FileId, uint32_t>> places;

    explicit HeapFrames(const Profile& p)
    {
        if (p.heap() == nullptr)
            return;
        std::map<std::tuple<FnId, FileId, uint32_t>, size_t> index;
        for (const HeapFrame& f : p.heap()->frames) {
            const auto place = std::make_tuple(f.fn, f.file, f.line);
            const auto [it, added] =
                index.emplace(place, p.functions().size() + 1 + places.size());
            if (added)
                places.push_back(place);
            of_frame.push_back(it->second);
        }
    }
};

void write_frame(std::ostream& out, const Profile& p, FnId fn, FileId file_id, uint32_t line)
{
    const std::string& file = p.file_path(file_id);
    out << "{\"name\":" << quoted(p.fn_name(fn)) << ",\"file\":"
        << quoted(!is_unknown(file) ? file : p.obj_path(p.function(fn).obj));
    if (!is_unknown(file) && line != 0)
        out << ",\"line\":" << line;
    out << '}';
}

void write_frames(std::ostream& out, const Profile& p, const HeapFrames& heap)
{
    for (size_t fn = 0; fn < p.functions().size(); ++fn) {
        const Function& f = p.functions()[fn];
        write_frame(out, p, FnId(uint32_t(fn)), f.file, f.line);
        out << ',';
    }
    out << "{\"name\":" << quoted(kTruncatedFrame) << '}';
    for (const auto& [fn, file, line] : heap.places) {
        out << ',';
        write_frame(out, p, fn, file, line);
    }
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

// The event's profile: the tree's nodes that cost something; with a
// thread (`tids`: path_threads), that thread's nodes alone.
Sampled event_profile(const Profile& p, size_t event,
                      const std::shared_ptr<const std::vector<uint32_t>>& depths,
                      const std::vector<uint32_t>* tids = nullptr, uint32_t tid = 0)
{
    const std::string& name = p.meta().events[event];
    Sampled s{tids ? "thread " + std::to_string(tid) + ": " + name : name, "none", {}, {}, {}, {}};
    for (size_t node = 0; node < p.paths().size(); ++node)
        if (p.path_self(node)[event] != 0 && (!tids || (*tids)[node] == tid))
            s.keys.push_back(node);
    s.stack_of = [&p](size_t node) {
        std::vector<size_t> stack;
        for (PathId id : path_from_root(p, PathId(uint32_t(node))))
            stack.push_back(frame_of(p, p.path(id).fn));
        return stack;
    };
    s.weight_of = [&p, event](size_t node) { return p.path_self(node)[event]; };
    s.depth_of = [depths](size_t node) { return size_t((*depths)[node]); };
    return s;
}

// A heap profile: the sites with some of `figure`.
Sampled heap_profile(const Profile& p, const std::shared_ptr<const HeapFrames>& frames,
                     const std::string& name, uint64_t HeapSite::*figure)
{
    const Heap& heap = *p.heap();
    Sampled s{name, "bytes", {}, {}, {}, {}};
    for (size_t site = 0; site < heap.sites.size(); ++site)
        if (heap.sites[site].*figure != 0)
            s.keys.push_back(site);
    s.stack_of = [&p, &heap, frames](size_t site) {
        std::vector<size_t> stack;
        for (FrameId f : caller_frames(p, heap.sites[site]))
            stack.push_back(frames->of_frame[f.index()]);
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

// One thread's calls as an evented profile: a frame opens where its span
// starts and closes where it ends, the spans taken in the order they were
// entered, so that a call closes before its caller does.
void write_evented(std::ostream& out, const Profile& p, const ThreadSpans& thread)
{
    const Timeline& t = *p.timeline();
    out << "{\"type\":\"evented\",\"name\":\"thread " << thread.thread
        << ": instructions in time order\",\"unit\":\"none\",\"startValue\":" << t.begin.time
        << ",\"endValue\":" << t.end.time << ",\"events\":[";
    bool first = true;
    const auto event = [&](char type, const TimelineSpan& s) {
        out << (first ? "" : ",") << "{\"type\":\"" << type << "\",\"frame\":" << s.fn.index()
            << ",\"at\":" << (type == 'O' ? s.start : s.end) << '}';
        first = false;
    };
    std::vector<const TimelineSpan*> open;
    for (const size_t i : thread.spans) {
        const TimelineSpan& s = t.spans[i];
        for (; !open.empty() && open.back()->end <= s.start; open.pop_back())
            event('C', *open.back());
        event('O', s);
        open.push_back(&s);
    }
    for (; !open.empty(); open.pop_back())
        event('C', *open.back());
    out << "]}";
}

void write_speedscope_head(std::ostream& out, const Profile& profile, const HeapFrames& heap_frames)
{
    out << "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
        << "\"exporter\":\"vgprof\",\"name\":" << quoted(command_text(profile))
        << ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[";
    write_frames(out, profile, heap_frames);
    out << "]},\"profiles\":[";
}

} // namespace

void write_speedscope_timeline(std::ostream& out, const Profile& profile)
{
    require_timeline(profile, "--format speedscope --timeline");
    const std::vector<ThreadSpans> threads = spans_by_thread(profile);
    write_speedscope_head(out, profile, HeapFrames(profile));
    for (size_t i = 0; i < threads.size(); ++i) {
        out << (i ? ",\n" : "\n");
        write_evented(out, profile, threads[i]);
    }
    out << "]}\n";
}

void write_speedscope(std::ostream& out, const Profile& profile)
{
    require_tree_or_heap(profile, "speedscope");
    std::vector<Sampled> profiles;
    const auto heap_frames = std::make_shared<const HeapFrames>(profile);
    const bool tree = has_call_path_tree(profile);
    const auto depths = std::make_shared<const std::vector<uint32_t>>(
        tree ? path_depths(profile) : std::vector<uint32_t>());
    if (tree)
        for (size_t e = 0; e < profile.num_events(); ++e)
            profiles.push_back(event_profile(profile, e, depths));
    if (profile.heap()) {
        profiles.push_back(
            heap_profile(profile, heap_frames, "heap: bytes allocated", &HeapSite::bytes));
        profiles.push_back(
            heap_profile(profile, heap_frames, "heap: bytes at t-gmax", &HeapSite::peak_bytes));
    }
    // Each thread's after the whole program's, event by event, so that
    // speedscope's next-profile arrow steps from thread to thread.
    const std::vector<uint32_t> tids = path_threads(profile);
    if (tree)
        for (size_t e = 0; e < profile.num_events(); ++e)
            for (const ThreadGraph& t : profile.threads())
                profiles.push_back(event_profile(profile, e, depths, &tids, t.tid));
    check_stack_frames("speedscope", stack_frames(profiles));
    write_speedscope_head(out, profile, *heap_frames);
    for (size_t i = 0; i < profiles.size(); ++i) {
        out << (i ? ",\n" : "\n");
        write_sampled(out, profiles[i]);
    }
    out << "]}\n";
}

} // namespace vgprof
