// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof annotate --data OBJECT`: one data object (a heap site, a global)
// listed by offset, a row per bucket of the profile's width, with its
// accesses and misses and a bar for the first event shown, so that hot
// fields and cache lines stand out; then the functions that missed on it
// and where the rest of the program's data events are.
#include "annotate_layout.hpp"

#include "vgprof/data.hpp"
#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace vgprof::cli {

namespace {

constexpr size_t kBarWidth = 24;

// The options with the data events shown by default, and only those.
AnnotateOptions data_options(const AnnotateOptions& options)
{
    AnnotateOptions o = options;
    if (!o.sources.empty())
        throw Error(fmt::format("{}: --data annotates a data object, not source files ({})",
                                options.profile, fmt::join(o.sources, " ")));
    if (o.events.empty())
        o.events.assign(std::begin(kDataEventNames), std::end(kDataEventNames));
    for (const std::string& e : o.events)
        if (!data_event_index(e))
            throw Error(fmt::format("{}: --data shows data events (Dr D1mr DLmr Dw D1mw DLmw), "
                                    "not \"{}\"",
                                    options.profile, e));
    return o;
}

// The object's offset buckets, in profile cost arrays; zero buckets
// included, so that the listing shows where nothing happened.
std::vector<std::vector<uint64_t>> bucket_costs(const Profile& profile, DataObjId id)
{
    const DataProfile& data = *profile.data();
    const DataObject& o = data.object(id);
    const size_t n = o.width ? size_t(data_bucket_count(o.size, o.width)) : 0;
    std::vector<std::vector<uint64_t>> rows(n, std::vector<uint64_t>(profile.num_events(), 0));
    const auto [first, last] = data.offsets_of(id);
    for (size_t i = first; i < last; ++i)
        rows[size_t(data.offsets[i].offset / o.width)] = event_costs(profile, data.offsets[i].cost);
    return rows;
}

std::string bar(uint64_t value, uint64_t max)
{
    const size_t n = max == 0 ? 0 : size_t((value * kBarWidth + max - 1) / max);
    std::string out;
    for (size_t i = 0; i < n; ++i)
        out += "\u2588";
    return out;
}

void write_functions(std::ostream& out, const Profile& profile, const Layout& layout,
                     DataObjId id, size_t bar_event)
{
    const size_t event = *data_event_index(profile.meta().events[bar_event]);
    print_line(out, rule());
    print_line(out, "Functions that missed on it, by " + profile.meta().events[bar_event] +
                        " (misses only: accesses are not counted per function)");
    print_line(out, rule());
    print_line(out, layout.columns.header() + "  function");
    for (const DataFunction& f : functions_of_data(*profile.data(), id, event)) {
        const std::vector<uint64_t> costs = event_costs(profile, f.cost);
        print_line(out, layout.columns.dotted_cells(&costs) + "  " + function_label(profile, f.fn));
    }
}

} // namespace

void write_data_annotation(std::ostream& out, const Profile& profile,
                           const AnnotateOptions& options)
{
    const AnnotateOptions opts = data_options(options);
    if (profile.data() == nullptr)
        throw Error(fmt::format("{}: --data needs a profile that says which data was accessed "
                                "(format version 7, recorded with --data=yes)",
                                options.profile));
    DataObjId id;
    try {
        id = find_data_object(profile, opts.data);
    } catch (const Error& e) {
        throw Error(fmt::format("{}: {}", options.profile, e.what()));
    }
    const Layout layout(profile, opts);
    const DataObject& o = profile.data()->object(id);
    std::vector<std::string> more = {
        fmt::format("Data object:      {}", data_object_label(profile, id))};
    if (o.width != 0)
        more.push_back(fmt::format("Offsets:          {} bytes a row, {} covered", o.width,
                                   count_text(o.size, "byte", "bytes")));
    more.push_back(opts.all ? std::string("Context:          every offset")
                            : fmt::format("Context:          {} rows around each with a count",
                                          opts.context));
    write_header(out, profile, layout.view, layout.shown, more);
    write_totals(out, profile, layout.shown);

    // The bars (and the order of the functions) show D1mr unless --events
    // chose the events, the first of them then.
    const size_t bar_event =
        options.events.empty() ? *profile.event_index("D1mr") : layout.rank_event;
    const std::vector<std::vector<uint64_t>> rows = bucket_costs(profile, id);
    uint64_t max = 0;
    for (const std::vector<uint64_t>& r : rows)
        max = std::max(max, r[bar_event]);
    std::vector<std::string> texts;
    for (size_t i = 0; i < rows.size(); ++i)
        texts.push_back(fmt::format("{:>8}  {}", i * o.width, bar(rows[i][bar_event], max)));
    if (o.width != 0) {
        print_line(out, layout.columns.header() + "    offset  " +
                            profile.meta().events[bar_event]);
        write_listing(
            out, layout, rows.size(), opts,
            [&](size_t i) { return ListingRow{rows[i].data(), texts[i]}; },
            [&](size_t i) { return fmt::format("offset {}", i * o.width); });
    }
    write_functions(out, profile, layout, id, bar_event);

    CostLedger ledger(profile.num_events(), {"in this data object", "in the other data objects"});
    for (size_t i = 0; i < profile.data()->objects.size(); ++i) {
        const std::vector<uint64_t> costs = event_costs(profile, profile.data()->objects[i].cost);
        ledger.add(i == id.index() ? 0 : 1, costs.data());
    }
    ledger.write(out, layout);
}

} // namespace vgprof::cli
