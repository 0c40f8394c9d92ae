// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof report`: the functions with the highest self cost, as a text table
// modelled on cg_annotate's function summary (Valgrind 3.19) or as JSON for
// scripts. The summary is computed once and rendered by either writer.
#include "commands.hpp"

#include "vgprof/error.hpp"
#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

#include <CLI/CLI.hpp>
#include <boost/json.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>

namespace vgprof::cli {

namespace {

// What the report shows: the functions that pass the threshold and --top, in
// order, and what was left out.
struct Summary {
    size_t sort_event = 0;
    std::vector<FunctionCost> shown;
    size_t below_threshold = 0;
    size_t beyond_top = 0;
    std::vector<uint64_t> omitted;  // per event, the functions not shown
};

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

bool reaches_threshold(uint64_t cost, uint64_t total, double threshold_percent)
{
    // long double keeps 64-bit counts exact enough for a 0.1% comparison.
    return 100.0L * cost >= static_cast<long double>(threshold_percent) * total;
}

Summary summarize(const Profile& profile, const ReportOptions& options)
{
    Summary s;
    s.sort_event = sort_event_of(profile, options);
    std::vector<FunctionCost> costs = function_self_costs(profile);
    drop_zero_costs(costs);  // functions that never ran are not "omitted"
    sort_by_cost(costs, profile, s.sort_event);

    const uint64_t total = profile.meta().totals[s.sort_event];
    std::vector<FunctionCost> left_out;
    for (FunctionCost& c : costs) {
        if (!reaches_threshold(c.self[s.sort_event], total, options.threshold))
            ++s.below_threshold;
        else if (options.top != 0 && s.shown.size() == options.top)
            ++s.beyond_top;
        else {
            s.shown.push_back(std::move(c));
            continue;
        }
        left_out.push_back(std::move(c));
    }
    s.omitted = sum_costs(left_out, profile.num_events());
    return s;
}

// "(40.2%)"; a zero total has no meaningful share, so it shows as 0.
std::string percent(uint64_t part, uint64_t whole)
{
    const long double share = whole == 0 ? 0.0L : 100.0L * part / whole;
    return fmt::format("({:.1f}%)", static_cast<double>(share));
}

// "work (/src/app.c:3)  [/usr/bin/app]", leaving out what is unknown.
std::string function_label(const Profile& profile, FnId fn)
{
    const Function& f = profile.function(fn);
    std::string label = profile.str(f.name);
    const std::string& file = profile.file_path(f.file);
    if (file != "???")
        label += f.line == 0 ? fmt::format(" ({})", file) : fmt::format(" ({}:{})", file, f.line);
    return label + fmt::format("  [{}]", profile.obj_path(f.obj));
}

std::string omitted_label(const Summary& s, const ReportOptions& options)
{
    const auto count = [](size_t n) { return fmt::format("{} function{}", n, n == 1 ? "" : "s"); };
    const std::string threshold = fmt::format("below the {}% threshold", options.threshold);
    const std::string top = fmt::format("beyond --top {}", options.top);
    if (s.beyond_top == 0)
        return fmt::format("({} {}, not shown)", count(s.below_threshold), threshold);
    if (s.below_threshold == 0)
        return fmt::format("({} {}, not shown)", count(s.beyond_top), top);
    return fmt::format("({} not shown: {} {}, {} {})", count(s.below_threshold + s.beyond_top),
                       s.below_threshold, threshold, s.beyond_top, top);
}

// Lays out one column per event: the count right-aligned to the widest
// count (the total, which no function exceeds) and its share of the total.
class CostColumns {
public:
    explicit CostColumns(const Profile& profile) : profile_(profile)
    {
        for (size_t e = 0; e < profile.num_events(); ++e) {
            const size_t digits = format_thousands(profile.meta().totals[e]).size();
            number_widths_.push_back(std::max(digits, profile.meta().events[e].size()));
        }
    }

    std::string header() const
    {
        std::string line;
        for (size_t e = 0; e < number_widths_.size(); ++e)
            line += fmt::format("{}{:<{}}", e ? " " : "", profile_.meta().events[e],
                                number_widths_[e] + 1 + kPercentWidth);
        return line;
    }

    std::string cells(const std::vector<uint64_t>& costs) const
    {
        std::string line;
        for (size_t e = 0; e < number_widths_.size(); ++e)
            line += fmt::format("{}{:>{}} {:>{}}", e ? " " : "", format_thousands(costs[e]),
                                number_widths_[e],
                                percent(costs[e], profile_.meta().totals[e]), kPercentWidth);
        return line;
    }

private:
    static constexpr size_t kPercentWidth = 8;  // "(100.0%)"
    const Profile& profile_;
    std::vector<size_t> number_widths_;
};

void print_line(std::ostream& out, std::string line)
{
    // Padded columns leave trailing blanks on header lines; drop them.
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << '\n';
}

void write_text(std::ostream& out, const Profile& profile, const ReportOptions& options,
                const Summary& s)
{
    const std::string rule(80, '-');
    const Meta& meta = profile.meta();
    const CostColumns columns(profile);
    print_line(out, rule);
    print_line(out, fmt::format("Profile:          {}", options.profile));
    print_line(out, fmt::format("Command:          {}", fmt::join(meta.argv, " ")));
    print_line(out, fmt::format("Events recorded:  {}", fmt::join(meta.events, " ")));
    print_line(out, fmt::format("Events shown:     {}", fmt::join(meta.events, " ")));
    print_line(out, fmt::format("Event sort order: {}", meta.events[s.sort_event]));
    print_line(out, fmt::format("Threshold:        {}%", options.threshold));
    if (options.top != 0)
        print_line(out, fmt::format("Function limit:   {}", options.top));
    print_line(out, rule);
    print_line(out, columns.header());
    print_line(out, rule);
    print_line(out, columns.cells(meta.totals) + "  PROGRAM TOTALS");
    print_line(out, "");
    print_line(out, rule);
    print_line(out, columns.header() + "  function (file:line)  [object]");
    print_line(out, rule);
    for (const FunctionCost& c : s.shown)
        print_line(out, columns.cells(c.self) + "  " + function_label(profile, c.fn));
    if (s.below_threshold + s.beyond_top != 0)
        print_line(out, columns.cells(s.omitted) + "  " + omitted_label(s, options));
}

boost::json::object costs_by_event(const Profile& profile, const std::vector<uint64_t>& costs)
{
    boost::json::object o;
    for (size_t e = 0; e < profile.num_events(); ++e)
        o[profile.meta().events[e]] = costs[e];
    return o;
}

// Boost.JSON only serialises here (escaping strings correctly); reading
// profiles stays in lib/.
void write_json(std::ostream& out, const Profile& profile, const ReportOptions& options,
                const Summary& s)
{
    const Meta& meta = profile.meta();
    boost::json::array functions;
    for (const FunctionCost& c : s.shown) {
        const Function& f = profile.function(c.fn);
        functions.push_back({{"name", profile.str(f.name)},
                             {"file", profile.file_path(f.file)},
                             {"line", f.line},
                             {"object", profile.obj_path(f.obj)},
                             {"self", costs_by_event(profile, c.self)}});
    }
    boost::json::object report;
    report["profile"] = options.profile;
    report["command"] = boost::json::value_from(meta.argv);
    report["events"] = boost::json::value_from(meta.events);
    report["sort"] = meta.events[s.sort_event];
    report["totals"] = costs_by_event(profile, meta.totals);
    report["functions"] = std::move(functions);
    report["omitted"] = {{"functions", s.below_threshold + s.beyond_top},
                         {"self", costs_by_event(profile, s.omitted)}};
    out << boost::json::serialize(report) << '\n';
}

int run_report(const ReportOptions& options)
{
    const Profile profile = load_profile(options.profile);
    write_report(std::cout, profile, options);
    std::cout.flush();
    if (!std::cout)
        throw Error(fmt::format("cannot write the report: {}", std::strerror(errno)));
    return kExitOk;
}

} // namespace

void write_report(std::ostream& out, const Profile& profile, const ReportOptions& options)
{
    const Summary summary = summarize(profile, options);
    if (options.format == "json")
        write_json(out, profile, options, summary);
    else
        write_text(out, profile, options, summary);
}

Command add_report_command(CLI::App& app)
{
    // CLI11 would wrap "-1" round into a huge unsigned count; refuse it.
    const CLI::Validator not_negative(
        [](std::string& text) {
            return text.rfind('-', 0) == 0 ? std::string("must be 0 or more") : std::string();
        },
        "");
    auto options = std::make_shared<ReportOptions>();
    CLI::App* cmd = app.add_subcommand(
        "report", "Show the functions with the highest self cost (like cg_annotate's summary).");
    cmd->add_option("PROFILE", options->profile, "profile written by valgrind --tool=vgprof")
        ->required();
    cmd->add_option("--format", options->format, "output format: text or json")
        ->check(CLI::IsMember({"text", "json"}))
        ->capture_default_str();
    cmd->add_option("--threshold", options->threshold,
                    "hide functions below PCT percent of the sort event's total")
        ->type_name("PCT")
        ->check(CLI::Range(0.0, 100.0))
        ->capture_default_str();
    cmd->add_option("--top", options->top, "show at most N functions (0: all)")
        ->type_name("N")
        ->check(not_negative)
        ->capture_default_str();
    cmd->add_option("--sort", options->sort, "event to sort by (default: the first recorded)")
        ->type_name("EVENT");
    return Command{cmd, [options] { return run_report(*options); }};
}

} // namespace vgprof::cli
