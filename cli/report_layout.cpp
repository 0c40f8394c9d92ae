// SPDX-License-Identifier: GPL-2.0-or-later
// Shared layout of `vgprof report` (see report_layout.hpp).
#include "report_layout.hpp"

#include "vgprof/error.hpp"
#include "vgprof/query.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace vgprof::cli {

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

void require_call_graph(const Profile& profile, const ReportOptions& options, const char* option)
{
    if (profile.has_call_graph())
        return;
    throw Error(fmt::format("{}: {} needs the call graph, which this profile does not have ({})",
                            options.profile, option,
                            profile.meta().version < 2 ? "format version 1 has none"
                                                       : "recorded with --call-graph=no"));
}

const CallGraph& chosen_graph(const Profile& profile, const ReportOptions& options)
{
    if (!options.thread)
        return profile.call_graph();
    require_call_graph(profile, options, "--thread");
    if (!profile.has_thread_graphs())
        throw Error(fmt::format("{}: --thread needs per-thread call graphs, which this profile "
                                "does not have (recorded without --separate-threads=yes)",
                                options.profile));
    if (const ThreadGraph* thread = profile.thread(*options.thread))
        return *thread;
    std::vector<uint32_t> tids;
    for (const ThreadGraph& t : profile.threads())
        tids.push_back(t.tid);
    const std::string listed = tids.empty() ? "none" : fmt::format("{}", fmt::join(tids, " "));
    throw Error(fmt::format("{}: no thread {} in this profile (threads: {})", options.profile,
                            *options.thread, listed));
}

std::vector<std::string> thread_header(const ReportOptions& options)
{
    if (!options.thread)
        return {};
    return {fmt::format("Thread:           {} (inclusive costs and calls of this thread; self "
                        "costs of the whole program)",
                        *options.thread)};
}

std::string percent(uint64_t part, uint64_t whole)
{
    const long double share = whole == 0 ? 0.0L : 100.0L * part / whole;
    return fmt::format("({:.1f}%)", static_cast<double>(share));
}

void print_line(std::ostream& out, std::string line)
{
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << '\n';
}

const std::string& rule()
{
    static const std::string line(80, '-');
    return line;
}

void write_header(std::ostream& out, const Profile& profile, const ReportOptions& options,
                  const std::vector<std::string>& more)
{
    const Meta& meta = profile.meta();
    print_line(out, rule());
    print_line(out, fmt::format("Profile:          {}", options.profile));
    print_line(out, fmt::format("Command:          {}", fmt::join(meta.argv, " ")));
    print_line(out, fmt::format("Events recorded:  {}", fmt::join(meta.events, " ")));
    print_line(out, fmt::format("Events shown:     {}", fmt::join(meta.events, " ")));
    for (const std::string& line : more)
        print_line(out, line);
    print_line(out, rule());
}

void write_totals(std::ostream& out, const Profile& profile)
{
    const CostColumns columns(profile, {""});
    print_line(out, columns.header());
    print_line(out, rule());
    print_line(out, columns.cells({&profile.meta().totals}) + "  PROGRAM TOTALS");
    print_line(out, "");
}

CostColumns::CostColumns(const Profile& profile, const std::vector<std::string>& sets)
    : profile_(profile)
{
    for (size_t e = 0; e < profile.num_events(); ++e)
        for (size_t s = 0; s < sets.size(); ++s) {
            std::string label = profile.meta().events[e] + sets[s];
            const size_t digits = format_thousands(profile.meta().totals[e]).size();
            columns_.push_back({label, s, e, std::max(digits, label.size())});
        }
}

void CostColumns::fit(size_t set, const std::vector<uint64_t>& costs)
{
    for (Column& c : columns_)
        if (c.set == set)
            c.number_width = std::max(c.number_width, format_thousands(costs[c.event]).size());
}

std::string CostColumns::header() const
{
    std::string line;
    for (size_t i = 0; i < columns_.size(); ++i)
        line += fmt::format("{}{:<{}}", i ? " " : "", columns_[i].label,
                            columns_[i].number_width + 1 + kPercentWidth);
    return line;
}

std::string CostColumns::cells(const std::vector<const std::vector<uint64_t>*>& sets) const
{
    std::string line;
    for (size_t i = 0; i < columns_.size(); ++i) {
        const Column& c = columns_[i];
        line += i ? " " : "";
        const std::vector<uint64_t>* costs = sets[c.set];
        if (costs == nullptr) {
            line += std::string(c.number_width + 1 + kPercentWidth, ' ');
            continue;
        }
        const uint64_t cost = (*costs)[c.event];
        line += fmt::format("{:>{}} {:>{}}", format_thousands(cost), c.number_width,
                            percent(cost, profile_.meta().totals[c.event]), kPercentWidth);
    }
    return line;
}

boost::json::object costs_by_event(const Profile& profile, const std::vector<uint64_t>& costs)
{
    boost::json::object o;
    for (size_t e = 0; e < profile.num_events(); ++e)
        o[profile.meta().events[e]] = costs[e];
    return o;
}

boost::json::object function_json(const Profile& profile, FnId fn)
{
    const Function& f = profile.function(fn);
    return {{"name", profile.str(f.name)},
            {"file", profile.file_path(f.file)},
            {"line", f.line},
            {"object", profile.obj_path(f.obj)}};
}

boost::json::object json_header(const Profile& profile, const ReportOptions& options,
                                size_t sort_event, const char* sort_cost)
{
    const Meta& meta = profile.meta();
    boost::json::object report;
    report["profile"] = options.profile;
    report["command"] = boost::json::value_from(meta.argv);
    report["events"] = boost::json::value_from(meta.events);
    report["sort"] = meta.events[sort_event];
    report["sort_cost"] = sort_cost;
    if (options.thread)
        report["thread"] = *options.thread;
    report["totals"] = costs_by_event(profile, meta.totals);
    return report;
}

} // namespace vgprof::cli
