// SPDX-License-Identifier: GPL-2.0-or-later
// What each kind of profile file lacks.
#include "capabilities.hpp"

#include "heatmap.hpp"

#include <algorithm>
#include <utility>

namespace vgprof::viewer {

namespace {

const std::string& tool_of(const Profile& p) { return p.meta().tool; }

const char* const kNothingCollected =
    "This profile collected no costs and no calls: nothing ran while it was collecting (with "
    "--collect-atstart=no, collection starts at a --toggle-collect function or a client request).";

bool collected_nothing(const Profile& p);

} // namespace

std::optional<std::string> why_no_call_graph(const Profile& p)
{
    if (p.has_call_graph())
        return collected_nothing(p) ? std::optional<std::string>(kNothingCollected) : std::nullopt;
    if (tool_of(p) == "cachegrind")
        return "A cachegrind file records costs per function and line, and no calls between "
               "functions.";
    if (tool_of(p) == "dhat")
        return "A DHAT file records the heap only: no instructions and no calls.";
    if (p.meta().version == 1)
        return "This profile is of format version 1, which had no call graph.";
    return "This profile has no call graph: it was recorded with --call-graph=no.";
}

namespace {

// A run that collected nothing (--collect-atstart=no and no toggle): its
// call graph is there and empty, though the heap may name functions.
bool collected_nothing(const Profile& p)
{
    return p.has_call_graph() && p.calls().empty() && p.paths().empty() &&
           std::all_of(p.meta().totals.begin(), p.meta().totals.end(), [](uint64_t t) { return t == 0; });
}

} // namespace

std::optional<std::string> why_no_call_paths(const Profile& p)
{
    if (auto no_graph = why_no_call_graph(p))
        return no_graph;
    if (collected_nothing(p))
        return kNothingCollected;
    if (tool_of(p) == "callgrind")
        return "A callgrind file records the calls between functions, not the whole call paths "
               "this view is drawn from: the Call graph shows its calls.";
    if (p.paths().empty())
        return "This profile recorded no call paths: no function ran while it was collecting.";
    return std::nullopt;
}

std::optional<std::string> why_no_heap(const Profile& p)
{
    if (p.heap())
        return std::nullopt;
    if (tool_of(p) == "callgrind" || tool_of(p) == "cachegrind")
        return "A " + tool_of(p) + " file has no heap data: " + tool_of(p) +
               " does not follow allocations.";
    return "This profile has no heap data: it was recorded with --heap=no.";
}

std::optional<std::string> why_no_simulation(const Profile& p)
{
    if (!heat_columns(p).empty())
        return std::nullopt;
    if (tool_of(p) == "dhat")
        return "A DHAT file records the heap only: there is no cache or branch simulation.";
    if (tool_of(p) == "callgrind" || tool_of(p) == "cachegrind")
        return "This " + tool_of(p) + " file has no cache or branch events: " + tool_of(p) +
               " ran without simulating them.";
    return "This profile has no cache or branch simulation: record it with --cache-sim=yes (and "
           "--branch-sim=yes) to see misses here.";
}

std::optional<std::string> why_no_costs(const Profile& p)
{
    if (tool_of(p) == "dhat")
        return "A DHAT file records the heap only: it counts no instructions. See the Heap view.";
    return std::nullopt;
}

std::optional<std::string> why_no_timeline(const Profile& p)
{
    if (p.timeline())
        return std::nullopt;
    const std::string how = "record one with valgrind --tool=vgprof ./program (the timeline is on by "
                            "default since format version 10; mark the program's phases with "
                            "VGPROF_MARK(\"label\") or vgprof control PID mark LABEL).";
    if (tool_of(p) == "callgrind" || tool_of(p) == "cachegrind" || tool_of(p) == "dhat")
        return "A " + tool_of(p) + " file has no timeline of calls: " + how;
    if (!p.has_call_graph())
        return "This profile has no timeline: it was recorded with --call-graph=no, and the timeline's "
               "spans are calls. To see one, " + how;
    return "This profile has no timeline of calls (recorded with --timeline=no, or before format "
           "version 10): " + how;
}

bool has_heap_timeline(const Profile& p) { return p.heap() && tool_of(p) != "dhat"; }

std::string event_description(const std::string& event)
{
    static const std::pair<const char*, const char*> kEvents[] = {
        {"Ir", "instructions executed"},
        {"I1mr", "instruction fetches that missed I1"},
        {"ILmr", "instruction fetches that missed LL"},
        {"Dr", "data reads"},
        {"D1mr", "data reads that missed D1"},
        {"DLmr", "data reads that missed LL"},
        {"Dw", "data writes"},
        {"D1mw", "data writes that missed D1"},
        {"DLmw", "data writes that missed LL"},
        {"Bc", "conditional branches"},
        {"Bcm", "conditional branches mispredicted"},
        {"Bi", "indirect branches"},
        {"Bim", "indirect branches mispredicted"},
    };
    for (const auto& [name, meaning] : kEvents)
        if (event == name)
            return event + ": " + meaning;
    return event;
}

} // namespace vgprof::viewer
