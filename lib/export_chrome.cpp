// SPDX-License-Identifier: GPL-2.0-or-later
// The Chrome trace event writer (see export_chrome.hpp). Events are written
// as they are made, one a line, so that a timeline of many spans is never
// held as a JSON tree.
#include "vgprof/export_chrome.hpp"

#include "vgprof/export_dhat.hpp"
#include "vgprof/timeline.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace vgprof {

namespace {

namespace json = boost::json;

// The label the trace carries of its clock; the docs say the same.
constexpr const char* kClock = "time: 1 instruction executed = 1 \u00b5s";

class EventWriter {
public:
    EventWriter(std::ostream& out, int64_t pid) : out_(out), pid_(pid) {}

    void write(json::object event)
    {
        event["pid"] = pid_;
        out_ << (first_ ? "\n" : ",\n") << json::serialize(event);
        first_ = false;
    }

private:
    std::ostream& out_;
    int64_t pid_;
    bool first_ = true;
};

json::object costs_of(const Profile& p, const uint64_t* costs)
{
    json::object o;
    for (size_t e = 0; e < p.num_events(); ++e)
        o[p.meta().events[e]] = costs[e];
    return o;
}

// The program's file name: the process's track label. (The whole command,
// in otherData, made speedscope's import of a trace of several threads fail
// to export again when it held a long path.)
std::string program_name(const Profile& p)
{
    if (p.meta().argv.empty())
        return "vgprof";
    const std::string& program = p.meta().argv[0];
    return program.substr(program.find_last_of('/') + 1);
}

void write_metadata(EventWriter& w, const Profile& p, const std::vector<ThreadSpans>& threads)
{
    w.write({{"ph", "M"}, {"name", "process_name"}, {"tid", 0},
             {"args", {{"name", program_name(p)}}}});
    w.write({{"ph", "M"}, {"name", "process_labels"}, {"tid", 0}, {"args", {{"labels", kClock}}}});
    std::vector<uint32_t> tids;
    for (const ThreadSpans& t : threads)
        tids.push_back(t.thread);
    for (const TimelineMark& m : p.timeline()->marks)
        tids.push_back(m.thread);
    std::sort(tids.begin(), tids.end());
    tids.erase(std::unique(tids.begin(), tids.end()), tids.end());
    for (const uint32_t tid : tids) {
        w.write({{"ph", "M"}, {"name", "thread_name"}, {"tid", tid},
                 {"args", {{"name", "thread " + std::to_string(tid)}}}});
        w.write({{"ph", "M"}, {"name", "thread_sort_index"}, {"tid", tid},
                 {"args", {{"sort_index", tid}}}});
    }
}

void write_spans(EventWriter& w, const Profile& p, const std::vector<ThreadSpans>& threads)
{
    const Timeline& t = *p.timeline();
    for (const ThreadSpans& thread : threads)
        for (const size_t i : thread.spans) {
            const TimelineSpan& s = t.spans[i];
            json::object args = costs_of(p, p.span_cost(i));
            if (s.open)
                args["open"] = true;
            w.write({{"ph", "X"}, {"cat", "call"}, {"name", p.fn_name(s.fn)}, {"tid", s.thread},
                     {"ts", s.start}, {"dur", s.end - s.start}, {"args", std::move(args)}});
        }
}

void write_marks(EventWriter& w, const Profile& p)
{
    for (const TimelineMark& m : p.timeline()->marks) {
        json::object args = costs_of(p, m.totals.data());
        if (p.heap()) {
            args["live bytes"] = m.live_bytes;
            args["live blocks"] = m.live_blocks;
        }
        w.write({{"ph", "i"}, {"s", "g"}, {"cat", "mark"}, {"name", m.label}, {"tid", m.thread},
                 {"ts", m.time}, {"args", std::move(args)}});
    }
}

// The heap live at the period's bounds, the marks and the heap's own
// timeline, in time order.
void write_heap_counter(EventWriter& w, const Profile& p)
{
    if (p.heap() == nullptr)
        return;
    const Timeline& t = *p.timeline();
    std::vector<HeapSample> points = p.heap()->samples;
    for (const TimelineMoment* m : {&t.begin, &t.end})
        points.push_back({m->time, m->live_bytes, m->live_blocks});
    for (const TimelineMark& m : t.marks)
        points.push_back({m.time, m.live_bytes, m.live_blocks});
    std::stable_sort(points.begin(), points.end(),
                     [](const HeapSample& a, const HeapSample& b) { return a.time < b.time; });
    for (const HeapSample& s : points)
        w.write({{"ph", "C"}, {"name", "heap live"}, {"tid", 0}, {"ts", s.time},
                 {"args", {{"bytes", s.bytes}, {"blocks", s.blocks}}}});
}

} // namespace

void write_chrome_trace(std::ostream& out, const Profile& profile)
{
    require_timeline(profile, "--format chrome");
    const std::vector<ThreadSpans> threads = spans_by_thread(profile);
    out << "{\"traceEvents\":[";
    EventWriter w(out, profile.meta().pid.value_or(0));
    write_metadata(w, profile, threads);
    write_spans(w, profile, threads);
    write_marks(w, profile);
    write_heap_counter(w, profile);
    out << "],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":"
        << json::serialize(json::object{{"exporter", "vgprof"},
                                        {"command", command_text(profile)},
                                        {"clock", kClock}})
        << "}\n";
}

} // namespace vgprof
