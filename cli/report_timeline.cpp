// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof report --timeline`: the phases between the timeline's marks (the
// period's beginning and end bound the first and the last; a profile
// without marks is one phase), each with its instructions, the shown events
// (misses), the heap live at its end and the change, what it allocated and
// freed and the site that allocated most in it (from the heap's changes,
// format version 11), and its longest calls in time order, indented by
// depth. Text for a terminal, JSON for scripts.
#include "report_layout.hpp"

#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/heap_changes.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/path_display.hpp"
#include "vgprof/timeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace vgprof::cli {

namespace {

// Spans shown per phase unless --top says otherwise.
constexpr size_t kDefaultSpans = 12;

uint64_t shown_cost(const uint64_t* costs, size_t column, const ShownEvents& shown)
{
    if (column < shown.events.size())
        return costs[shown.events[column]];
    uint64_t sum = 0;
    for (const size_t e : shown.sums[column - shown.events.size()].parts)
        sum += costs[e];
    return sum;
}

std::vector<std::string> shown_names(const Profile& profile, const ShownEvents& shown)
{
    std::vector<std::string> names;
    for (const size_t e : shown.events)
        names.push_back(profile.meta().events[e]);
    for (const SummedEvent& s : shown.sums)
        names.push_back(s.name);
    return names;
}

std::string costs_text(const uint64_t* costs, const std::vector<std::string>& names,
                       const ShownEvents& shown)
{
    std::string text;
    for (size_t c = 0; c < names.size(); ++c)
        text += fmt::format("{}{} {}", c ? "  " : "", names[c],
                            format_thousands(shown_cost(costs, c, shown)));
    return text;
}

std::string bound(const std::string& label, const char* implicit)
{
    return label.empty() ? implicit : fmt::format("mark \"{}\"", label);
}

std::string signed_text(int64_t v)
{
    return v < 0 ? "-" + format_thousands(uint64_t(-(v + 1)) + 1) : "+" + format_thousands(uint64_t(v));
}

// What a phase allocated and freed, and the site that allocated the most
// bytes in it (the first of equals; null when none allocated), from the
// heap's changes.
struct PhaseHeap {
    HeapInRange range;
    std::optional<size_t> most;   // in range.sites

    const SiteInRange* most_site() const { return most ? &range.sites[*most] : nullptr; }
};

std::optional<PhaseHeap> phase_heap(const Profile& profile, const TimelinePhase& p)
{
    const Heap* heap = profile.heap();
    if (heap == nullptr || !heap->changes)
        return std::nullopt;
    PhaseHeap h{heap_in_range(*heap, p.start, p.end), std::nullopt};
    for (size_t i = 0; i < h.range.sites.size(); ++i)
        if (h.range.sites[i].bytes > (h.most_site() ? h.most_site()->bytes : 0))
            h.most = i;
    return h;
}

// A site named as `report --heap` titles it.
std::string site_text(const Profile& profile, SiteId id, const ReportOptions& options)
{
    const HeapSite& s = profile.heap()->site(id);
    const std::optional<FrameId> named = site_title_frame(OwnCode(profile, options.own_code), s);
    return named ? frame_label(profile, profile.heap()->frame(*named),
                               PathDisplay{options.strip_prefixes})
                 : std::string("(no stack)");
}

void write_text(std::ostream& out, const Profile& profile, const ReportOptions& options,
                const Timeline& t, const std::vector<TimelinePhase>& phases,
                const ShownEvents& shown)
{
    const std::vector<std::string> names = shown_names(profile, shown);
    print_line(out, fmt::format("Timeline: {} marks, {} spans kept (calls of at least {} "
                                "instructions; {} dropped)",
                                t.marks.size(), t.spans.size(), format_thousands(t.threshold),
                                format_thousands(t.dropped)));
    for (size_t i = 0; i < phases.size(); ++i) {
        const TimelinePhase& p = phases[i];
        out << rule() << '\n';
        print_line(out, fmt::format("Phase {}: {} .. {}, instructions {} .. {}", i + 1,
                                    bound(p.from, "beginning"), bound(p.to, "end"),
                                    format_thousands(p.start), format_thousands(p.end)));
        print_line(out, "  " + costs_text(p.costs.data(), names, shown));
        if (profile.heap())
            print_line(out, fmt::format("  heap live at its end: {} bytes in {} blocks ({} bytes, "
                                        "{} blocks)",
                                        format_thousands(p.live_bytes),
                                        format_thousands(p.live_blocks),
                                        signed_text(p.bytes_change), signed_text(p.blocks_change)));
        if (const std::optional<PhaseHeap> h = phase_heap(profile, p)) {
            const SiteInRange& a = h->range.total;
            std::string text = fmt::format("  heap in it: {} allocated, {} freed",
                                           bytes_in_blocks(a.bytes, a.blocks),
                                           bytes_in_blocks(a.freed_bytes, a.freed_blocks));
            if (const SiteInRange* m = h->most_site())
                text += fmt::format("; most by {}: {}", site_text(profile, m->site, options),
                                    bytes_in_blocks(m->bytes, m->blocks));
            if (h->range.t0 != p.start || h->range.t1 != p.end)
                text += fmt::format(" (instructions {} .. {}: the heap's changes are kept in "
                                    "stretches of {})",
                                    format_thousands(h->range.t0), format_thousands(h->range.t1),
                                    format_thousands(profile.heap()->changes->width));
            print_line(out, text);
        }
        if (p.spans.empty())
            continue;
        uint32_t min_depth = UINT32_MAX;
        for (const size_t s : p.spans)
            min_depth = std::min(min_depth, t.spans[s].depth);
        print_line(out, "  longest calls:");
        for (const size_t s : p.spans) {
            const TimelineSpan& span = t.spans[s];
            print_line(out, fmt::format("  {:>{}}{}  [thread {}, {} .. {}{}]  {}", "",
                                        2 * (span.depth - min_depth),
                                        function_label(profile, span.fn), span.thread,
                                        format_thousands(span.start), format_thousands(span.end),
                                        span.open ? ", open" : "",
                                        costs_text(profile.span_cost(s), names, shown)));
        }
    }
}

boost::json::object costs_json(const uint64_t* costs, const std::vector<std::string>& names,
                               const ShownEvents& shown)
{
    boost::json::object o;
    for (size_t c = 0; c < names.size(); ++c)
        o[names[c]] = shown_cost(costs, c, shown);
    return o;
}

void write_json(std::ostream& out, const Profile& profile, const ReportOptions& options,
                const Timeline& t, const std::vector<TimelinePhase>& phases,
                const ShownEvents& shown)
{
    const std::vector<std::string> names = shown_names(profile, shown);
    boost::json::array rows;
    for (const TimelinePhase& p : phases) {
        boost::json::array spans;
        for (const size_t s : p.spans) {
            const TimelineSpan& span = t.spans[s];
            spans.push_back({{"function", function_label(profile, span.fn)},
                             {"thread", span.thread},
                             {"depth", span.depth},
                             {"start", span.start},
                             {"end", span.end},
                             {"open", span.open},
                             {"costs", costs_json(profile.span_cost(s), names, shown)}});
        }
        boost::json::object row = {{"from", p.from},
                                   {"to", p.to},
                                   {"start", p.start},
                                   {"end", p.end},
                                   {"costs", costs_json(p.costs.data(), names, shown)},
                                   {"spans", std::move(spans)}};
        if (profile.heap()) {
            row["live_bytes"] = p.live_bytes;
            row["live_blocks"] = p.live_blocks;
            row["bytes_change"] = p.bytes_change;
            row["blocks_change"] = p.blocks_change;
        }
        if (const std::optional<PhaseHeap> h = phase_heap(profile, p)) {
            const SiteInRange& a = h->range.total;
            row["allocated_bytes"] = a.bytes;
            row["allocated_blocks"] = a.blocks;
            row["freed_bytes"] = a.freed_bytes;
            row["freed_blocks"] = a.freed_blocks;
            row["heap_from"] = h->range.t0;
            row["heap_to"] = h->range.t1;
            if (const SiteInRange* m = h->most_site())
                row["most_allocated_by"] = site_text(profile, m->site, options);
        }
        rows.push_back(std::move(row));
    }
    boost::json::object report = {{"profile", options.profile},
                                  {"threshold", t.threshold},
                                  {"spans", t.spans.size()},
                                  {"dropped", t.dropped},
                                  {"phases", std::move(rows)}};
    out << boost::json::serialize(report) << '\n';
}

} // namespace

void write_timeline_report(std::ostream& out, const Profile& profile,
                           const ReportOptions& options)
{
    const Timeline* t = profile.timeline();
    if (t == nullptr)
        throw Error(fmt::format("{}: the profile has no timeline (recorded with --timeline=no or "
                                "--call-graph=no, or before format version 10)",
                                options.profile));
    const ShownEvents shown = shown_events(profile, options);
    const std::vector<TimelinePhase> phases =
        timeline_phases(*t, options.top ? options.top : kDefaultSpans);
    if (options.format == "json")
        write_json(out, profile, options, *t, phases, shown);
    else
        write_text(out, profile, options, *t, phases, shown);
}

} // namespace vgprof::cli
