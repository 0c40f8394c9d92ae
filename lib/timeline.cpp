// SPDX-License-Identifier: GPL-2.0-or-later
// The phases of a timeline (vgprof/timeline.hpp).
#include "vgprof/timeline.hpp"

#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"

#include "text.hpp"

#include <algorithm>
#include <map>

namespace vgprof {

namespace {

TimelinePhase phase_between(const TimelineMoment& a, const std::string& from,
                            const TimelineMoment& b, const std::string& to)
{
    TimelinePhase p;
    p.from = from;
    p.to = to;
    p.start = a.time;
    p.end = b.time;
    for (size_t e = 0; e < b.totals.size(); ++e)
        p.costs.push_back(b.totals[e] - a.totals[e]);
    p.live_bytes = b.live_bytes;
    p.live_blocks = b.live_blocks;
    p.bytes_change = signed_delta(b.live_bytes, a.live_bytes);
    p.blocks_change = signed_delta(b.live_blocks, a.live_blocks);
    return p;
}

// The `top` longest spans within [p.start, p.end], then in order of start
// (a caller before its callees).
void add_longest_spans(const Timeline& t, size_t top, TimelinePhase& p)
{
    std::vector<size_t> inside;
    for (size_t i = 0; i < t.spans.size(); ++i)
        if (t.spans[i].start >= p.start && t.spans[i].end <= p.end)
            inside.push_back(i);
    const auto length = [&](size_t i) { return t.spans[i].end - t.spans[i].start; };
    std::stable_sort(inside.begin(), inside.end(),
                     [&](size_t a, size_t b) { return length(a) > length(b); });
    if (inside.size() > top)
        inside.resize(top);
    std::sort(inside.begin(), inside.end(), [&](size_t a, size_t b) {
        const TimelineSpan &x = t.spans[a], &y = t.spans[b];
        if (x.start != y.start)
            return x.start < y.start;
        return x.depth < y.depth;
    });
    p.spans = std::move(inside);
}

} // namespace

std::vector<TimelinePhase> timeline_phases(const Timeline& t, size_t top)
{
    std::vector<TimelinePhase> phases;
    const TimelineMoment* from = &t.begin;
    std::string from_label;
    for (const TimelineMark& m : t.marks) {
        phases.push_back(phase_between(*from, from_label, m, m.label));
        from = &m;
        from_label = m.label;
    }
    if (t.marks.empty() || from->time < t.end.time || from->totals != t.end.totals)
        phases.push_back(phase_between(*from, from_label, t.end, ""));
    for (TimelinePhase& p : phases)
        add_longest_spans(t, top, p);
    return phases;
}

bool entered_before(const TimelineSpan& x, const TimelineSpan& y)
{
    if (x.start != y.start)
        return x.start < y.start;
    if (x.depth != y.depth)
        return x.depth < y.depth;
    return x.end > y.end;
}

std::vector<ThreadSpans> spans_by_thread(const Profile& profile)
{
    const Timeline& t = *profile.timeline();
    std::map<uint32_t, std::vector<size_t>> of_thread;
    for (size_t i = 0; i < t.spans.size(); ++i)
        of_thread[t.spans[i].thread].push_back(i);
    std::vector<ThreadSpans> threads;
    for (auto& [thread, spans] : of_thread) {
        std::sort(spans.begin(), spans.end(),
                  [&](size_t a, size_t b) { return entered_before(t.spans[a], t.spans[b]); });
        std::vector<size_t> open;
        for (const size_t i : spans) {
            const TimelineSpan& s = t.spans[i];
            while (!open.empty() && t.spans[open.back()].end <= s.start)
                open.pop_back();
            if (!open.empty() && t.spans[open.back()].end < s.end) {
                const TimelineSpan& outer = t.spans[open.back()];
                throw Error(detail::cat("the timeline's calls of thread ", thread, " overlap: ",
                                profile.fn_name(outer.fn), " [", outer.start, ", ", outer.end,
                                "] and ", profile.fn_name(s.fn), " [", s.start, ", ", s.end, "]"));
            }
            open.push_back(i);
        }
        threads.push_back({thread, std::move(spans)});
    }
    return threads;
}

const Timeline& require_timeline(const Profile& profile, const std::string& what)
{
    if (profile.timeline() == nullptr)
        throw Error(what + " needs the timeline, which the profile does not have (recorded with "
                           "--timeline=no or --call-graph=no, or before format version 10): "
                           "--timeline=yes, the default, records it");
    return *profile.timeline();
}

} // namespace vgprof
