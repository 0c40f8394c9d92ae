// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof report --heap`: the heap summary with DHAT's labels, then the
// allocation sites in the chosen order, each with what its blocks did (with
// --events, their accesses and cache misses), notes on what stands out and
// the allocating stack. With --function, only the
// sites that allocated under that function. Text for people, JSON for
// scripts, from the same rows.
#include "report_layout.hpp"

#include "vgprof/data.hpp"
#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/own_code.hpp"
#include "vgprof/path_display.hpp"
#include "vgprof/query.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace vgprof::cli {

namespace {

struct HeapView {
    const Heap* heap = nullptr;
    std::string order_name;         // --heap-sort, or what stands for it
    HeapOrder order = HeapOrder::bytes;
    std::optional<size_t> data_order;    // a data event (in a DataCost) to order by instead
    std::vector<size_t> data_events;     // --events, in a DataCost
    std::vector<DataCost> site_data;     // per site: its data object's costs (--events)
    std::optional<FnId> under;      // --function
    std::vector<SiteId> shown;
    size_t matching = 0;            // sites under --function (all without it)
};

// --events: the data events each site shows, and their costs per site.
void add_data_events(const Profile& profile, const ReportOptions& options, HeapView& v)
{
    if (options.events.empty())
        return;
    const DataProfile* data = profile.data();
    if (data == nullptr)
        throw Error(fmt::format("{}: --heap with --events shows the data events of each site, "
                                "which this profile does not have (recorded with --data=no, "
                                "--cache-sim=no, or before format version 7)",
                                options.profile));
    for (const std::string& name : options.events) {
        const std::optional<size_t> e = data_event_index(name);
        if (!e)
            throw Error(fmt::format("{}: --heap shows the data events Dr D1mr DLmr Dw D1mw DLmw "
                                    "of each site, not \"{}\"",
                                    options.profile, name));
        v.data_events.push_back(*e);
    }
    v.site_data.assign(v.heap->sites.size(), DataCost{});
    for (const DataObject& o : data->objects)
        if (o.site)
            v.site_data[o.site->index()] = o.cost;
}

std::vector<SiteId> ordered_sites(const HeapView& v)
{
    if (!v.data_order)
        return sites_in_order(*v.heap, v.order);
    std::vector<SiteId> ids;
    for (size_t i = 0; i < v.heap->sites.size(); ++i)
        ids.push_back(SiteId(uint32_t(i)));
    std::stable_sort(ids.begin(), ids.end(), [&](SiteId a, SiteId b) {
        return v.site_data[a.index()][*v.data_order] > v.site_data[b.index()][*v.data_order];
    });
    return ids;
}

HeapView view_of(const Profile& profile, const ReportOptions& options)
{
    HeapView v;
    v.heap = profile.heap();
    if (v.heap == nullptr)
        throw Error(fmt::format("{}: the profile has no heap data ({})", options.profile,
                                profile.meta().tool != "vgprof"
                                    ? profile.meta().tool + " files have none"
                                    : "recorded with --heap=no, or by a vgprof older than "
                                      "format version 3"));
    add_data_events(profile, options, v);
    v.order_name = !options.heap_sort.empty() ? options.heap_sort
                   : options.events.empty()   ? std::string("bytes")
                                              : options.events.front();
    v.data_order = data_event_index(v.order_name);
    if (v.data_order && v.site_data.empty())
        throw Error(fmt::format("{}: --heap-sort {} needs --events naming it", options.profile,
                                v.order_name));
    const std::optional<HeapOrder> order = heap_order_named(v.order_name);
    if (!order && !v.data_order)
        throw Error(fmt::format("unknown --heap-sort '{}' (expected one of: {}, or a data event)",
                                v.order_name, heap_order_names()));
    v.order = order.value_or(HeapOrder::bytes);
    if (!options.function.empty()) {
        v.under = function_of_option(profile, options);
    }
    for (SiteId id : ordered_sites(v)) {
        if (v.under && !site_is_under(*v.heap, v.heap->site(id), *v.under))
            continue;
        ++v.matching;
        if (options.top == 0 || v.shown.size() < options.top)
            v.shown.push_back(id);
    }
    return v;
}

// "  D1mr:      32,769 (10.4%), 12.50% of Dr": a data event of a site, its
// share of the program's, and a miss event's rate over the accesses.
std::string data_event_line(const Profile& profile, const DataCost& cost, size_t e)
{
    const uint64_t total = profile.meta().totals[*profile.event_index(kDataEventNames[e])];
    std::string line = fmt::format("  {:<11}{} {}", std::string(kDataEventNames[e]) + ":",
                                   format_thousands(cost[e]), percent(cost[e], total));
    if (const std::optional<double> rate = data_miss_rate(cost, e))
        line += fmt::format(", {} of {}", rate_text(rate), e < 3 ? "Dr" : "Dw");
    return line;
}

// The live bytes over time as a chart of text, as ms_print draws massif's:
// one column per slice of the run, as high as the most bytes live in it,
// '#' for the column of the peak (t-gmax), ':' for the others.
constexpr size_t kChartColumns = 72, kChartRows = 12;

// The instructions the chart spans: the profile's period (from the last
// zero or dump, version 9), at least 1.
uint64_t chart_span(const Heap& heap)
{
    return std::max<uint64_t>(heap.totals.end_time - std::min(heap.start_time, heap.totals.end_time), 1);
}

std::vector<uint64_t> column_heights(const Heap& heap)
{
    std::vector<uint64_t> most(kChartColumns, 0);
    const uint64_t end = chart_span(heap);
    uint64_t level = heap.start_bytes;   // what stays live from one sample to the next column
    size_t next = 0;
    for (size_t c = 0; c < kChartColumns; ++c) {
        const uint64_t until = heap.start_time + end / kChartColumns * (c + 1) +
                               end % kChartColumns * (c + 1) / kChartColumns;
        uint64_t high = level;
        for (; next < heap.samples.size() && heap.samples[next].time <= until; ++next) {
            high = std::max(high, heap.samples[next].bytes);
            level = heap.samples[next].bytes;
        }
        most[c] = high;
    }
    return most;
}

void write_timeline_chart(std::ostream& out, const Heap& heap)
{
    if (heap.samples.empty() || heap.totals.peak_bytes == 0)
        return;
    const std::vector<uint64_t> most = column_heights(heap);
    const uint64_t peak = heap.totals.peak_bytes;
    const uint64_t end = chart_span(heap);
    const size_t peak_column = std::min<size_t>(
        kChartColumns - 1, (heap.totals.peak_time - heap.start_time) * kChartColumns / end);
    const std::string top = format_thousands(peak);
    print_line(out, "Live bytes over time (instructions):");
    for (size_t r = kChartRows; r > 0; --r) {
        std::string line = r == kChartRows ? fmt::format("{:>{}} ^", top, top.size())
                                           : fmt::format("{:>{}} |", "", top.size());
        // A column reaches row r when it holds at least r/rows of the peak.
        for (size_t c = 0; c < kChartColumns; ++c)
            line += most[c] * kChartRows >= r * peak && most[c] != 0
                        ? (c == peak_column ? '#' : ':')
                        : ' ';
        print_line(out, line);
    }
    print_line(out, fmt::format("{:>{}} +{}>", "0", top.size(), std::string(kChartColumns, '-')));
    const std::string first = format_thousands(heap.start_time);
    const std::string last = format_thousands(heap.totals.end_time);
    print_line(out, fmt::format("{:>{}}  {}{:>{}}", "", top.size(), first, last,
                                kChartColumns - std::min(first.size(), kChartColumns - 1)));
}

// A heap section's summary figures, as the JSON output gives them.
boost::json::object totals_json(const HeapTotals& t)
{
    return {{"bytes", t.bytes},           {"blocks", t.blocks},
            {"freed_bytes", t.freed_bytes}, {"freed_blocks", t.freed_blocks},
            {"peak_bytes", t.peak_bytes}, {"peak_blocks", t.peak_blocks},
            {"peak_time", t.peak_time},   {"end_bytes", t.end_bytes},
            {"end_blocks", t.end_blocks}, {"end_time", t.end_time},
            {"reads", t.reads},           {"writes", t.writes}};
}

// A frame of an allocation stack as the report lists it, "(inlined)" added
// for an inlined function's.
std::string stack_frame_text(const Profile& profile, const HeapFrame& frame,
                             const PathDisplay& display)
{
    return frame_label(profile, frame, display) +
           (profile.function(frame.fn).inlined ? " (inlined)" : "");
}

void write_text(std::ostream& out, const Profile& profile, const ReportOptions& options,
                const HeapView& v)
{
    const Heap& heap = *v.heap;
    const HeapTotals& t = heap.totals;
    print_line(out, rule());
    print_line(out, fmt::format("Profile:          {}", options.profile));
    print_line(out, fmt::format("Command:          {}", fmt::join(profile.meta().argv, " ")));
    print_line(out, fmt::format("Heap:             allocation stacks of up to {} frames",
                                heap.depth));
    print_line(out, fmt::format("Sort order:       {}", v.order_name));
    if (v.under)
        print_line(out, fmt::format("Sites under:      {}",
                                    function_label(profile, *v.under, PathDisplay{options.strip_prefixes})));
    print_line(out, rule());
    print_line(out, fmt::format("Total:     {}", bytes_in_blocks(t.bytes, t.blocks)));
    print_line(out, fmt::format("At t-gmax: {}", bytes_in_blocks(t.peak_bytes, t.peak_blocks)));
    print_line(out, fmt::format("At t-end:  {}", bytes_in_blocks(t.end_bytes, t.end_blocks)));
    print_line(out, fmt::format("Reads:     {}", count_text(t.reads, "byte", "bytes")));
    print_line(out, fmt::format("Writes:    {}", count_text(t.writes, "byte", "bytes")));
    print_line(out, fmt::format("Time:      {} instructions; the peak at instruction {}",
                                format_thousands(t.end_time), format_thousands(t.peak_time)));
    // A dump, or a profile written after one or after a zero: its figures
    // are the period's, the whole run's stand beside them.
    if (heap.whole_run && heap.start_time != 0) {
        print_line(out, fmt::format("Period:    since instruction {} (the last zero or dump), {} "
                                    "live then, {} freed since",
                                    format_thousands(heap.start_time),
                                    bytes_in_blocks(heap.start_bytes, heap.start_blocks),
                                    bytes_in_blocks(t.freed_bytes, t.freed_blocks)));
        const HeapTotals& w = *heap.whole_run;
        print_line(out, fmt::format("Whole run: {} allocated, {} at its peak",
                                    bytes_in_blocks(w.bytes, w.blocks),
                                    bytes_in_blocks(w.peak_bytes, w.peak_blocks)));
    }
    print_line(out, rule());
    if (!heap.samples.empty() && t.peak_bytes != 0) {
        write_timeline_chart(out, heap);
        print_line(out, rule());
    }
    print_line(out, fmt::format("Allocation sites by {}: {} of {} shown", v.order_name,
                                v.shown.size(), v.matching));
    print_line(out, rule());
    const PathDisplay display{options.strip_prefixes};
    const OwnCode own(profile, options.own_code);
    size_t rank = 0;
    for (SiteId id : v.shown) {
        const HeapSite& s = heap.site(id);
        out << '\n';
        const std::optional<FrameId> named = site_title_frame(own, s);
        print_line(out, fmt::format("#{}: {}", ++rank,
                                    named ? stack_frame_text(profile, heap.frame(*named), display)
                                          : std::string("(no stack)")));
        print_line(out, fmt::format("  allocated: {} {}, {} {}, {:.1f} bytes each on average",
                                    count_text(s.bytes, "byte", "bytes"), percent(s.bytes, t.bytes),
                                    count_text(s.blocks, "block", "blocks"),
                                    percent(s.blocks, t.blocks),
                                    s.blocks ? double(s.bytes) / double(s.blocks) : 0.0));
        print_line(out, fmt::format("  lifetime:  {:.1f} instructions on average",
                                    average_lifetime(s)));
        print_line(out, fmt::format("  max live:  {}", bytes_in_blocks(s.max_bytes, s.max_blocks)));
        print_line(out, fmt::format("  at t-gmax: {} {}", bytes_in_blocks(s.peak_bytes, s.peak_blocks),
                                    percent(s.peak_bytes, t.peak_bytes)));
        print_line(out, fmt::format("  at t-end:  {} {}", bytes_in_blocks(s.end_bytes, s.end_blocks),
                                    percent(s.end_bytes, t.end_bytes)));
        print_line(out, fmt::format("  reads:     {} ({:.2f} per byte allocated)",
                                    count_text(s.reads, "byte", "bytes"),
                                    s.bytes ? double(s.reads) / double(s.bytes) : 0.0));
        print_line(out, fmt::format("  writes:    {} ({:.2f} per byte allocated)",
                                    count_text(s.writes, "byte", "bytes"),
                                    s.bytes ? double(s.writes) / double(s.bytes) : 0.0));
        if (profile.data() != nullptr)
            print_line(out, fmt::format("  site:      {} (vgprof annotate --data site:{})",
                                        id.value, id.value));
        for (size_t e : v.data_events)
            print_line(out, data_event_line(profile, v.site_data[id.index()], e));
        const std::vector<std::string> notes = site_notes(s);
        if (!notes.empty())
            print_line(out, fmt::format("  notes:     {}", fmt::join(notes, "; ")));
        print_line(out, "  allocated at:");
        for (FrameId f : s.frames)
            print_line(out, "    " + stack_frame_text(profile, heap.frame(f), display));
    }
}

// The site's --events, by name; null without --events.
boost::json::value data_json(const HeapView& v, SiteId id)
{
    if (v.data_events.empty())
        return nullptr;
    boost::json::object o;
    for (size_t e : v.data_events)
        o[kDataEventNames[e]] = v.site_data[id.index()][e];
    return o;
}

void write_json(std::ostream& out, const Profile& profile, const ReportOptions& options,
                const HeapView& v)
{
    const Heap& heap = *v.heap;
    const HeapTotals& t = heap.totals;
    const OwnCode own(profile, options.own_code);
    boost::json::array sites;
    for (SiteId id : v.shown) {
        const HeapSite& s = heap.site(id);
        boost::json::array stack, notes;
        for (FrameId f : s.frames) {
            const HeapFrame& frame = heap.frame(f);
            boost::json::object o = function_json(profile, frame.fn);
            o["addr"] = frame.addr;
            o["file"] = profile.file_path(frame.file);
            o["line"] = frame.line;
            stack.push_back(std::move(o));
        }
        const std::optional<FrameId> own_frame = own.own_frame(s);
        for (std::string& n : site_notes(s))
            notes.emplace_back(n);
        sites.push_back(boost::json::object{
            {"site", id.value},
            {"own_frame", own_frame ? boost::json::value(std::find(s.frames.begin(), s.frames.end(),
                                                                   *own_frame) -
                                                         s.frames.begin())
                                    : boost::json::value(nullptr)},
            {"bytes", s.bytes},
            {"blocks", s.blocks},
            {"average_lifetime", average_lifetime(s)},
            {"max_bytes", s.max_bytes},
            {"max_blocks", s.max_blocks},
            {"peak_bytes", s.peak_bytes},
            {"peak_blocks", s.peak_blocks},
            {"end_bytes", s.end_bytes},
            {"end_blocks", s.end_blocks},
            {"reads", s.reads},
            {"writes", s.writes},
            {"access_density", access_density(s)},
            {"data", data_json(v, id)},
            {"notes", std::move(notes)},
            {"stack", std::move(stack)}});
    }
    boost::json::object report = {
        {"profile", options.profile},
        {"command", boost::json::value_from(profile.meta().argv)},
        {"order", v.order_name},
        {"totals", totals_json(t)},
        // The period the figures describe (format version 9: since the last
        // zero or dump) and what was live when it began.
        {"period", boost::json::object{{"start_time", heap.start_time},
                                       {"start_bytes", heap.start_bytes},
                                       {"start_blocks", heap.start_blocks}}},
        {"whole_run", heap.whole_run ? boost::json::value(totals_json(*heap.whole_run))
                                     : boost::json::value(totals_json(t))},
        {"sites_matching", v.matching},
        {"sites", std::move(sites)}};
    if (v.under)
        report["under"] = function_json(profile, *v.under);
    out << boost::json::serialize(report) << '\n';
}

} // namespace

void write_heap_report(std::ostream& out, const Profile& profile, const ReportOptions& options)
{
    const HeapView view = view_of(profile, options);
    if (options.format == "json")
        write_json(out, profile, options, view);
    else
        write_text(out, profile, options, view);
}

} // namespace vgprof::cli
