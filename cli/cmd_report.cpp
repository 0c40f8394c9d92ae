// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof report`: the functions with the highest self (or, with
// --inclusive, inclusive) cost, as a text table modelled on cg_annotate's
// function summary (Valgrind 3.19) or as JSON for scripts; and the command's
// registration. The summary is computed once and rendered by either writer;
// --function's call-graph view lives in report_function.cpp.
#include "commands.hpp"
#include "option_checks.hpp"
#include "report_layout.hpp"

#include "vgprof/derived.hpp"
#include "vgprof/error.hpp"
#include "vgprof/file_io.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/load.hpp"
#include "vgprof/path_display.hpp"
#include "vgprof/query.hpp"

#include <CLI/CLI.hpp>
#include <boost/json.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <iostream>
#include <memory>

namespace vgprof::cli {

namespace {

// What the report shows: the functions that pass the threshold and --top, in
// order, and what was left out.
struct Summary {
    ShownEvents events;  // the columns
    size_t sort_event = 0;
    CostKind sort_cost = CostKind::self;
    std::vector<FunctionCost> shown;
    size_t below_threshold = 0;
    size_t beyond_top = 0;
    // With --thread: the thread's totals, and what it spent below the
    // call-path tree's [truncated] node, in no function's self cost.
    std::vector<uint64_t> thread_totals, untold;
    std::vector<uint64_t> omitted;  // per event, the self costs of the functions not shown
};

Summary summarize(const Profile& profile, const ReportOptions& options)
{
    Summary s;
    s.events = shown_events(profile, options);
    s.sort_event = sort_event_of(profile, options);
    if (options.inclusive)
        require_call_graph(profile, options, "--inclusive");
    s.sort_cost = options.inclusive ? CostKind::inclusive : CostKind::self;
    std::vector<FunctionCost> costs;
    if (options.thread) {
        ThreadCosts thread = thread_costs(profile, chosen_thread(profile, options));
        costs = std::move(thread.functions);
        s.thread_totals = std::move(thread.totals);
        s.untold = std::move(thread.untold);
    } else {
        costs = function_costs(profile);
    }
    drop_zero_costs(costs);  // functions that never ran are not "omitted"
    sort_by_cost(costs, profile, s.sort_event, s.sort_cost);

    const uint64_t total = profile.meta().totals[s.sort_event];
    std::vector<FunctionCost> left_out;
    for (FunctionCost& c : costs) {
        const std::vector<uint64_t>& cost = options.inclusive ? c.inclusive : c.self;
        if (!reaches_threshold(cost[s.sort_event], total, options.threshold))
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

void write_text(std::ostream& out, const Profile& profile, const ReportOptions& options,
                const Summary& s)
{
    const bool call_graph = profile.has_call_graph();
    const std::string& sort_name = profile.meta().events[s.sort_event];
    std::vector<std::string> header = {fmt::format(
        "Event sort order: {}{}", sort_name,
        !call_graph ? "" : options.inclusive ? " (inclusive)" : " (self)")};
    header.push_back(fmt::format("Threshold:        {}%", options.threshold));
    if (options.top != 0)
        header.push_back(fmt::format("Function limit:   {}", options.top));
    for (std::string& line : thread_header(options))
        header.push_back(std::move(line));
    write_header(out, profile, options, s.events, header);
    write_totals(out, profile, s.events);
    if (options.thread)
        write_thread_totals(out, profile, s.events, *options.thread, s.thread_totals, s.untold);

    // With a call graph each event has a self and an inclusive column; the
    // omitted row leaves the inclusive ones blank, as inclusive costs overlap
    // and have no meaningful sum.
    const CostColumns columns = call_graph ? CostColumns(profile, s.events, {" self", " incl"})
                                           : CostColumns(profile, s.events, {""});
    print_line(out, rule());
    print_line(out, columns.header() + "  function (file:line)  [object]");
    print_line(out, rule());
    const PathDisplay display{options.strip_prefixes};
    for (const FunctionCost& c : s.shown)
        print_line(out, columns.cells({&c.self, &c.inclusive}) + "  " +
                            function_label(profile, c.fn, display));
    if (s.below_threshold + s.beyond_top != 0)
        print_line(out, columns.cells({&s.omitted, nullptr}) + "  " + omitted_label(s, options));
}

// Boost.JSON only serialises here (escaping strings correctly); reading
// profiles stays in lib/.
void write_json(std::ostream& out, const Profile& profile, const ReportOptions& options,
                const Summary& s)
{
    const bool call_graph = profile.has_call_graph();
    boost::json::array functions;
    for (const FunctionCost& c : s.shown) {
        boost::json::object f = function_json(profile, c.fn);
        add_costs(f, "self", profile, s.events, c.self);
        if (call_graph)
            add_costs(f, "inclusive", profile, s.events, c.inclusive);
        functions.push_back(std::move(f));
    }
    boost::json::object report =
        json_header(profile, options, s.events, s.sort_event,
                    s.sort_cost == CostKind::inclusive ? "inclusive" : "self");
    report["functions"] = std::move(functions);
    if (options.thread) {
        add_costs(report, "thread_totals", profile, s.events, s.thread_totals);
        add_costs(report, "thread_below_truncated_node", profile, s.events, s.untold);
    }
    boost::json::object omitted = {{"functions", s.below_threshold + s.beyond_top}};
    add_costs(omitted, "self", profile, s.events, s.omitted);
    report["omitted"] = std::move(omitted);
    out << boost::json::serialize(report) << '\n';
}

int run_report(const ReportOptions& options)
{
    Profile profile = load_profile(options.profile);
    add_report_derived_events(profile, options);
    write_report(std::cout, profile, options);
    check_written(std::cout, "the report");
    return kExitOk;
}

} // namespace

void write_summary(std::ostream& out, const Profile& profile, const ReportOptions& options)
{
    const Summary summary = summarize(profile, options);
    if (options.format == "json")
        write_json(out, profile, options, summary);
    else
        write_text(out, profile, options, summary);
}

void add_report_derived_events(Profile& profile, const ReportOptions& options)
{
    std::vector<DerivedEvent> definitions;
    for (const std::string& d : options.derive)
        definitions.push_back(parse_derived_event(d, "--derive"));
    const std::vector<DerivedEvent> available = available_derived_events(profile, definitions);
    std::vector<std::string> names;
    if (options.derived)
        for (const DerivedEvent& d : available)
            names.push_back(d.name);
    // A name neither recorded nor derivable is left for the report to
    // refuse, naming the events recorded.
    std::vector<std::string> asked = options.events;
    asked.push_back(options.sort);
    for (const std::string& name : asked)
        if (is_derived(available, name))
            names.push_back(name);
    add_derived_events(profile, names, definitions);
}

void write_report(std::ostream& out, const Profile& profile, const ReportOptions& options)
{
    if (options.heap)
        write_heap_report(out, profile, options);
    else if (options.timeline)
        write_timeline_report(out, profile, options);
    else if (options.data)
        write_data_report(out, profile, options);
    else if (profile.meta().tool == "dhat")
        throw Error(fmt::format("{}: a DHAT file holds heap data only: use vgprof report --heap",
                                options.profile));
    else if (options.function.empty())
        write_summary(out, profile, options);
    else
        write_function_report(out, profile, options);
}

Command add_report_command(CLI::App& app)
{
    auto options = std::make_shared<ReportOptions>();
    CLI::App* cmd = app.add_subcommand(
        "report",
        "Show the functions with the highest self or inclusive cost (like cg_annotate's summary), "
        "or one function's callers and callees (like callgrind_annotate --tree=both).");
    cmd->add_option("PROFILE", options->profile,
                    "profile written by valgrind --tool=vgprof, or a callgrind or cachegrind "
                    "file; plain, gzip or zstd")
        ->required();
    cmd->add_option("--format", options->format, "output format: text or json")
        ->check(CLI::IsMember({"text", "json"}))
        ->capture_default_str();
    CLI::Option* threshold =
        cmd->add_option("--threshold", options->threshold,
                        "hide functions below PCT percent of the sort event's total")
            ->type_name("PCT")
            ->check(CLI::Range(0.0, 100.0))
            ->capture_default_str();
    CLI::Option* top = cmd->add_option("--top", options->top, "show at most N functions (0: all)")
                           ->type_name("N")
                           ->check(not_negative())
                           ->capture_default_str();
    cmd->add_option("--events", options->events,
                    "events to show, comma-separated, in this order; LLm and Bm sum the "
                    "last-level misses and the mispredictions; all: every recorded event "
                    "(default: in text Ir and LLm or Bm when recorded, in JSON all)")
        ->type_name("LIST")
        ->delimiter(',');
    cmd->add_option("--sort", options->sort,
                    "event to sort by, shown or not (default: the first recorded)")
        ->type_name("EVENT");
    add_own_code_options(cmd, options->own_code);
    cmd->add_option("--strip-prefix", options->strip_prefixes,
                    "show paths starting with PREFIX without it (whole components); may be "
                    "given more than once")
        ->type_name("PREFIX")
        ->allow_extra_args(false);
    cmd->add_flag("--miss-rates", options->miss_rates,
                  "add cachegrind's miss rates under the totals and a rate column beside each "
                  "shown miss event (needs cache or branch events)");
    CLI::Option* inclusive = cmd->add_flag(
        "--inclusive", options->inclusive,
        "sort and threshold by inclusive cost (needs a profile with a call graph)");
    // The call-graph view lists every caller and callee of one function, so
    // the options that choose functions for the summary do not apply to it.
    cmd->add_option("--function", options->function,
                    "show NAME's self and inclusive cost, callers and callees (its name, as "
                    "listed, e.g. 'malloc [libc.so.6]' or 'work (app.c:3)', the last part of its "
                    "path, or a part of exactly one function's name)")
        ->type_name("NAME")
        ->excludes(threshold, top, inclusive);
    cmd->add_option("--thread", options->thread,
                    "show the self and inclusive costs and calls of thread TID only (needs a profile "
                    "recorded with --separate-threads=yes)")
        ->type_name("TID")
        ->check(not_negative());
    cmd->add_flag("--derived", options->derived,
                  "add every derived event the profile can have (cache hits, estimated "
                  "cycles...) to the events shown");
    cmd->add_option("--derive", options->derive,
                    "define or redefine a derived event, e.g. CEst=Ir+10*L1m+100*LLm "
                    "(repeatable)")
        ->type_name("NAME=FORMULA")
        ->allow_extra_args(false);
    CLI::Option* heap = cmd->add_flag(
        "--heap", options->heap,
        "show the heap: DHAT's summary and the allocation sites (with --function NAME, those "
        "that allocated under NAME; --top N limits them)");
    cmd->add_option("--heap-sort", options->heap_sort,
                    "order of the allocation sites: bytes, blocks, peak, leaked, lifetime, "
                    "reads, writes, density, or a data event (Dr D1mr DLmr Dw D1mw DLmw); "
                    "default: bytes, or with --events the first event listed")
        ->type_name("ORDER")
        ->check(CLI::IsMember({"bytes", "blocks", "peak", "leaked", "lifetime", "reads", "writes",
                               "density", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw"}))
        ->needs(heap);
    cmd->add_flag("--data", options->data,
                  "show which data the accesses and cache misses touched: heap sites, globals, "
                  "the stack... sorted by --sort (default D1mr), each with the functions that "
                  "missed on it most (with --function NAME, the data NAME missed on)")
        ->excludes(heap, inclusive);
    cmd->add_flag("--timeline", options->timeline,
                  "show the run's phases between marks (VGPROF_MARK, vgprof control PID mark, "
                  "dumps): each one's instructions, misses and heap, and its longest calls "
                  "(--top N of them, default 12)")
        ->excludes(heap, inclusive, threshold);
    return Command{cmd, [options] { return run_report(*options); }};
}

} // namespace vgprof::cli
