// SPDX-License-Identifier: GPL-2.0-or-later
// Shared layout of `vgprof report` (see report_layout.hpp).
#include "report_layout.hpp"

#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/query.hpp"
#include "vgprof/safe_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <ostream>

namespace vgprof::cli {

std::optional<FrameId> site_title_frame(const OwnCode& own, const HeapSite& site)
{
    std::optional<FrameId> named = own.named_frame(site);
    if (!named && !site.frames.empty())
        named = site.frames.front();
    return named;
}

size_t sort_event_of(const Profile& profile, const ReportOptions& options)
{
    if (options.sort.empty())
        return 0;
    if (const auto e = profile.event_index(options.sort))
        return *e;
    throw Error(fmt::format("{}: no event \"{}\" to sort by (events recorded: {})",
                            options.profile, options.sort,
                            fmt::join(profile.meta().events, " ")));
}

namespace {

const SummedEvent* find_sum(const std::vector<SummedEvent>& sums, const std::string& name)
{
    for (const SummedEvent& s : sums)
        if (s.name == name)
            return &s;
    return nullptr;
}

void choose_events(const Profile& profile, const ReportOptions& options, ShownEvents& shown)
{
    const std::vector<SummedEvent> sums = summed_events(profile);
    if (options.events.size() == 1 && options.events[0] == "all") {
        for (size_t e = 0; e < profile.num_events(); ++e)
            shown.events.push_back(e);
        return;
    }
    if (options.events.empty()) {
        const bool json = options.format == "json";
        for (size_t e = 0; e < (json ? profile.num_events() : 1); ++e)
            shown.events.push_back(e);
        if (!json && !sums.empty())
            shown.sums.push_back(sums.front());
        return;
    }
    for (const std::string& name : options.events) {
        const std::optional<size_t> e = profile.event_index(name);
        const SummedEvent* sum = e ? nullptr : find_sum(sums, name);
        if (!e && !sum)
            throw Error(fmt::format("{}: no event \"{}\" to show (events recorded: {})",
                                    options.profile, name, fmt::join(profile.meta().events, " ")));
        if ((e && std::find(shown.events.begin(), shown.events.end(), *e) != shown.events.end()) ||
            (sum && find_sum(shown.sums, name) != nullptr))
            throw Error(fmt::format("{}: --events lists \"{}\" twice", options.profile, name));
        if (e)
            shown.events.push_back(*e);
        else
            shown.sums.push_back(*sum);
    }
    if (shown.events.empty())   // the first column ranks and thresholds
        shown.events.push_back(0);
}

} // namespace

std::vector<SummedEvent> summed_events(const Profile& profile)
{
    std::vector<SummedEvent> sums;
    const auto add = [&](const char* name, std::initializer_list<const char*> parts) {
        SummedEvent s{name, {}};
        for (const char* part : parts)
            if (const std::optional<size_t> e = profile.event_index(part))
                s.parts.push_back(*e);
        if (s.parts.size() == parts.size())
            sums.push_back(std::move(s));
    };
    add("LLm", {"ILmr", "DLmr", "DLmw"});
    add("Bm", {"Bcm", "Bim"});
    return sums;
}

ShownEvents shown_events(const Profile& profile, const ReportOptions& options)
{
    ShownEvents shown;
    choose_events(profile, options, shown);
    shown.miss_rates = options.miss_rates;
    for (size_t e : shown.events)
        shown.rates.push_back(options.miss_rates ? event_miss_rate(profile, e) : std::nullopt);
    if (options.miss_rates) {
        shown.summary_rates = summary_miss_rates(profile);
        if (shown.summary_rates.empty())
            throw Error(fmt::format("{}: --miss-rates needs cache or branch events, which this "
                                    "profile does not have (recorded without --cache-sim=yes "
                                    "or --branch-sim=yes)",
                                    options.profile));
    }
    return shown;
}

void require_call_graph(const Profile& profile, const ReportOptions& options, const char* option)
{
    if (profile.has_call_graph())
        return;
    const Meta& meta = profile.meta();
    const std::string why = meta.tool != "vgprof" ? meta.tool + " files have none"
                            : meta.version < 2    ? "format version 1 has none"
                                                  : "recorded with --call-graph=no";
    throw Error(fmt::format("{}: {} needs the call graph, which this profile does not have ({})",
                            options.profile, option, why));
}

FnId function_of_option(const Profile& profile, const ReportOptions& options)
{
    try {
        const FunctionChoice choice = choose_function(profile, options.function);
        if (!choice.note.empty())
            std::cerr << fmt::format("vgprof: note: {}\n", choice.note);
        return choice.fn;
    } catch (const Error& e) {
        throw Error(fmt::format("{}: {}", options.profile, e.what()));
    }
}

const CallGraph& chosen_graph(const Profile& profile, const ReportOptions& options)
{
    if (!options.thread)
        return profile.call_graph();
    return chosen_thread(profile, options);
}

const ThreadGraph& chosen_thread(const Profile& profile, const ReportOptions& options)
{
    require_call_graph(profile, options, "--thread");
    try {
        return thread_for_option(profile, *options.thread, "--thread");
    } catch (const Error& e) {
        throw Error(fmt::format("{}: {}", options.profile, e.what()));
    }
}

std::vector<std::string> thread_header(const ReportOptions& options)
{
    if (!options.thread)
        return {};
    return {fmt::format("Thread:           {} (self and inclusive costs and calls of this "
                        "thread; percentages of the whole program's totals)",
                        *options.thread)};
}

bool reaches_threshold(uint64_t cost, uint64_t total, double threshold_percent)
{
    // long double keeps 64-bit counts exact enough for a 0.1% comparison.
    return 100.0L * cost >= static_cast<long double>(threshold_percent) * total;
}

std::string percent(uint64_t part, uint64_t whole)
{
    const long double share = whole == 0 ? 0.0L : 100.0L * part / whole;
    return fmt::format("({:.1f}%)", static_cast<double>(share));
}

void print_line(std::ostream& out, std::string line)
{
    line.erase(line.find_last_not_of(' ') + 1);
    out << plain_line(line) << '\n';
}

const std::string& rule()
{
    static const std::string line(80, '-');
    return line;
}

namespace {

std::string geometry_text(const char* name, const CacheGeometry& g)
{
    return fmt::format("{} {} B {}-way {} B lines", name, g.size, g.assoc, g.line_size);
}

// "Caches:" and "Branches:" lines saying what was simulated; none for a
// profile of Ir alone.
std::vector<std::string> simulation_header(const Meta& meta)
{
    if (!meta.cache)
        return {};
    const CacheConfig& c = *meta.cache;
    std::vector<std::string> lines;
    if (c.i1)
        lines.push_back(fmt::format("Caches:           {}; {}; {}", geometry_text("I1", *c.i1),
                                    geometry_text("D1", *c.d1), geometry_text("LL", *c.ll)));
    lines.push_back(fmt::format("Branches:         {}",
                                c.branches ? "simulated" : "not simulated"));
    return lines;
}

std::vector<std::string> event_names(const Profile& profile, const ShownEvents& shown)
{
    std::vector<std::string> names;
    for (size_t e : shown.events)
        names.push_back(profile.meta().events[e]);
    for (const SummedEvent& sum : shown.sums)
        names.push_back(sum.name);
    return names;
}

} // namespace

void write_header(std::ostream& out, const Profile& profile, const ReportOptions& options,
                  const ShownEvents& shown, const std::vector<std::string>& more)
{
    const Meta& meta = profile.meta();
    print_line(out, rule());
    print_line(out, fmt::format("Profile:          {}", options.profile));
    print_line(out, fmt::format("Command:          {}", fmt::join(meta.argv, " ")));
    // A merged profile's command is its first run's; say that it sums more.
    if (!meta.merged.empty())
        print_line(out, fmt::format("Runs merged:      {} (the command is the first one's)",
                                    meta.merged.size()));
    print_line(out, fmt::format("Events recorded:  {}", fmt::join(meta.events, " ")));
    print_line(out, fmt::format("Events shown:     {}", fmt::join(event_names(profile, shown), " ")));
    for (const std::string& line : simulation_header(meta))
        print_line(out, line);
    for (const std::string& line : more)
        print_line(out, line);
    print_line(out, rule());
}

std::string rate_text(std::optional<double> rate)
{
    return rate ? fmt::format("{:.2f}%", 100.0 * *rate) : std::string("-");
}

void write_thread_totals(std::ostream& out, const Profile& profile, const ShownEvents& shown,
                         uint32_t tid, const std::vector<uint64_t>& totals,
                         const std::vector<uint64_t>& untold)
{
    ShownEvents plain = shown;
    plain.rates.assign(plain.events.size(), std::nullopt);
    const CostColumns columns(profile, plain, {""});
    print_line(out, columns.cells({&totals}) + fmt::format("  THREAD {} TOTALS", tid));
    if (std::any_of(untold.begin(), untold.end(), [](uint64_t c) { return c != 0; }))
        print_line(out, columns.cells({&untold}) +
                            "  of which below the call-path tree's [truncated] node, in no "
                            "function's self cost (raise --max-path-nodes)");
}

void write_totals(std::ostream& out, const Profile& profile, const ShownEvents& shown)
{
    // The totals are the program's: their rates are the summary ones below.
    ShownEvents plain = shown;
    plain.rates.assign(plain.events.size(), std::nullopt);
    const CostColumns columns(profile, plain, {""});
    const std::vector<uint64_t>& totals = profile.meta().totals;
    print_line(out, columns.header());
    print_line(out, rule());
    print_line(out, columns.cells({&totals}) + "  PROGRAM TOTALS");
    if (!shown.summary_rates.empty())
        print_line(out, "");
    // Worded as cachegrind's summary lines ("D1  miss rate", "Mispred rate").
    for (const MissRate& rate : shown.summary_rates) {
        const std::string label =
            rate.name == "Mispred" ? "Mispred rate:" : fmt::format("{} miss rate:", rate.name);
        print_line(out, fmt::format("{:<18}{:>7}  {}", label, rate_text(rate.of(totals)),
                                    rate.formula));
    }
    print_line(out, "");
}

CostColumns::CostColumns(const Profile& profile, const ShownEvents& shown,
                         const std::vector<std::string>& sets)
    : profile_(profile)
{
    for (size_t i = 0; i < shown.events.size(); ++i) {
        const size_t e = shown.events[i];
        const size_t digits = format_thousands(profile.meta().totals[e]).size();
        for (size_t s = 0; s < sets.size(); ++s) {
            std::string label = profile.meta().events[e] + sets[s];
            columns_.push_back({label, s, e, std::max(digits, label.size()), std::nullopt, {}});
        }
        if (const std::optional<MissRate>& rate = shown.rates[i])
            for (size_t s = 0; s < sets.size(); ++s) {
                std::string label = rate->name + sets[s];
                columns_.push_back({label, s, e, std::max(kRateWidth, label.size()), rate, {}});
            }
    }
    for (const SummedEvent& sum : shown.sums) {
        const size_t digits = format_thousands(summed(sum.parts, profile.meta().totals)).size();
        for (size_t s = 0; s < sets.size(); ++s) {
            std::string label = sum.name + sets[s];
            columns_.push_back({label, s, 0, std::max(digits, label.size()), std::nullopt, sum.parts});
        }
    }
}

uint64_t CostColumns::summed(const std::vector<size_t>& parts, const std::vector<uint64_t>& costs)
{
    uint64_t n = 0;
    for (size_t e : parts)
        n += costs[e];
    return n;
}

uint64_t CostColumns::Column::of(const std::vector<uint64_t>& costs) const
{
    return parts.empty() ? costs[event] : summed(parts, costs);
}

void CostColumns::fit(size_t set, const std::vector<uint64_t>& costs)
{
    for (Column& c : columns_)
        if (c.set == set && !c.rate)
            c.number_width = std::max(c.number_width, format_thousands(c.of(costs)).size());
}

std::string CostColumns::header() const
{
    std::string line;
    for (size_t i = 0; i < columns_.size(); ++i)
        line += fmt::format("{}{:<{}}", i ? " " : "", columns_[i].label, columns_[i].width());
    return line;
}

std::string CostColumns::cells(const std::vector<const std::vector<uint64_t>*>& sets) const
{
    std::string line;
    for (size_t i = 0; i < columns_.size(); ++i) {
        const Column& c = columns_[i];
        line += i ? " " : "";
        const std::vector<uint64_t>* costs = sets[c.set];
        line += costs == nullptr ? std::string(c.width(), ' ') : cell(c, *costs);
    }
    return line;
}

std::string CostColumns::cell(const Column& c, const std::vector<uint64_t>& costs) const
{
    if (c.rate)
        return fmt::format("{:>{}}", rate_text(c.rate->of(costs)), c.width());
    const uint64_t cost = c.of(costs);
    return fmt::format("{:>{}} {:>{}}", format_thousands(cost), c.number_width,
                       percent(cost, c.of(profile_.meta().totals)), kPercentWidth);
}

std::string CostColumns::dotted_cells(const std::vector<uint64_t>* costs) const
{
    std::string line;
    for (size_t i = 0; i < columns_.size(); ++i) {
        const Column& c = columns_[i];
        line += i ? " " : "";
        if (costs != nullptr && (c.rate || c.of(*costs) != 0))
            line += cell(c, *costs);
        else
            line += fmt::format("{:>{}}{:{}}", ".", c.number_width, "", c.width() - c.number_width);
    }
    return line;
}

boost::json::object costs_by_event(const Profile& profile, const ShownEvents& shown,
                                   const std::vector<uint64_t>& costs)
{
    boost::json::object o;
    for (size_t e : shown.events)
        o[profile.meta().events[e]] = costs[e];
    for (const SummedEvent& sum : shown.sums) {
        uint64_t n = 0;
        for (size_t e : sum.parts)
            n += costs[e];
        o[sum.name] = n;
    }
    return o;
}

namespace {

boost::json::value rate_json(const MissRate& rate, const std::vector<uint64_t>& costs)
{
    if (const std::optional<double> r = rate.of(costs))
        return *r;
    return nullptr;
}

} // namespace

boost::json::object miss_rates_json(const ShownEvents& shown, const std::vector<uint64_t>& costs)
{
    boost::json::object o;
    for (const std::optional<MissRate>& rate : shown.rates)
        if (rate)
            o[rate->name] = rate_json(*rate, costs);
    return o;
}

void add_costs(boost::json::object& o, const char* key, const Profile& profile,
               const ShownEvents& shown, const std::vector<uint64_t>& costs)
{
    o[key] = costs_by_event(profile, shown, costs);
    if (shown.miss_rates)
        o[std::string(key) + "_miss_rates"] = miss_rates_json(shown, costs);
}

boost::json::object function_json(const Profile& profile, FnId fn)
{
    const Function& f = profile.function(fn);
    return {{"name", profile.str(f.name)},
            {"file", profile.file_path(f.file)},
            {"line", f.line},
            {"object", profile.obj_path(f.obj)}};
}

namespace {

boost::json::value cache_json(const Meta& meta)
{
    if (!meta.cache)
        return nullptr;
    const CacheConfig& c = *meta.cache;
    boost::json::object o;
    const auto geometry = [](const CacheGeometry& g) {
        return boost::json::array{g.size, g.assoc, g.line_size};
    };
    if (c.i1) {
        o["I1"] = geometry(*c.i1);
        o["D1"] = geometry(*c.d1);
        o["LL"] = geometry(*c.ll);
    }
    o["branches"] = c.branches;
    return o;
}

} // namespace

boost::json::object json_header(const Profile& profile, const ReportOptions& options,
                                const ShownEvents& shown, size_t sort_event,
                                const char* sort_cost)
{
    const Meta& meta = profile.meta();
    boost::json::object report;
    report["profile"] = options.profile;
    report["command"] = boost::json::value_from(meta.argv);
    report["events"] = boost::json::value_from(event_names(profile, shown));
    if (meta.cache)
        report["cache"] = cache_json(meta);
    report["sort"] = meta.events[sort_event];
    report["sort_cost"] = sort_cost;
    if (options.thread)
        report["thread"] = *options.thread;
    report["totals"] = costs_by_event(profile, shown, meta.totals);
    if (shown.miss_rates) {
        boost::json::object rates;
        for (const MissRate& rate : shown.summary_rates)
            rates[rate.name] = rate_json(rate, meta.totals);
        report["miss_rates"] = std::move(rates);
    }
    return report;
}

} // namespace vgprof::cli
