// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof report --function NAME`: one function's place in the call graph,
// as callgrind_annotate --tree=both shows it: the function's self and
// inclusive cost, then each call site that calls it and each call site in it
// that calls another function, with the call count and the inclusive cost of
// those calls. Text for people, JSON for scripts, from the same rows.
#include "report_layout.hpp"

#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/inlined.hpp"
#include "vgprof/path_display.hpp"
#include "vgprof/query.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace vgprof::cli {

namespace {

struct FunctionView {
    ShownEvents events;  // the columns
    size_t sort_event = 0;
    FnId fn;
    // An inlined function (format version 7): callers are where it was
    // inlined, the cost of its code there, with no count.
    bool inlined = false;
    std::vector<uint64_t> self, inclusive;
    std::vector<CallCost> callers, callees;  // one row per call site
};

FnId chosen_function(const Profile& profile, const ReportOptions& options)
{
    require_call_graph(profile, options, "--function");
    return function_of_option(profile, options);
}

FunctionView view_of(const Profile& profile, const ReportOptions& options)
{
    FunctionView v;
    v.events = shown_events(profile, options);
    v.sort_event = sort_event_of(profile, options);
    v.fn = chosen_function(profile, options);
    if (profile.function(v.fn).inlined) {
        InlinedFunctionCost cost = inlined_function_cost(profile, v.fn);
        v.inlined = true;
        v.self = std::move(cost.self);
        v.inclusive = std::move(cost.inclusive);
        v.callers = std::move(cost.inlined_into);
        v.callees = std::move(cost.callees);
        sort_by_cost(v.callers, profile, v.sort_event);
        sort_by_cost(v.callees, profile, v.sort_event);
        return v;
    }
    v.self = options.thread
                 ? thread_costs(profile, chosen_thread(profile, options)).functions[v.fn.index()].self
                 : function_self_costs(profile)[v.fn.index()].self;
    const CallGraph& graph = chosen_graph(profile, options);
    v.inclusive = inclusive_cost(graph, v.fn);
    // Per call site, as callgrind_annotate lists them: a caller that calls
    // from two places shows both, each with its own count.
    v.callers = callers_of(graph, v.fn, CallSites::separate);
    v.callees = callees_of(graph, v.fn, CallSites::separate);
    sort_by_cost(v.callers, profile, v.sort_event);
    sort_by_cost(v.callees, profile, v.sort_event);
    return v;
}

// Inlined calls have no count: "-" for the rows of inlined_into and of
// inlined functions.
void write_calls(std::ostream& out, const Profile& profile, const CostColumns& columns,
                 size_t count_width, const char* noun, const std::vector<CallCost>& calls,
                 const PathDisplay& display, bool inlined_into = false)
{
    print_line(out, rule());
    print_line(out, fmt::format("{}  {:>{}}  {}  [object]  call site", columns.header(), "calls",
                                count_width, noun));
    print_line(out, rule());
    if (calls.empty())
        print_line(out, fmt::format("(no {})", noun));
    for (const CallCost& c : calls) {
        const Function& f = profile.function(c.fn);
        print_line(out, fmt::format("{}  {:>{}}  {}  [{}]  {}", columns.cells({&c.inclusive}),
                                    inlined_into || f.inlined ? std::string("-")
                                                              : format_thousands(c.count),
                                    count_width, profile.str(f.name) + (f.inlined ? " (inlined)" : ""),
                                    display.show(profile.obj_path(f.obj)),
                                    c.site ? location_text(display.show(profile.file_path(c.site->file)),
                                                           c.site->line)
                                           : "-"));
    }
}

void write_text(std::ostream& out, const Profile& profile, const ReportOptions& options,
                const FunctionView& v)
{
    const PathDisplay display{options.strip_prefixes};
    std::vector<std::string> header = {
        fmt::format("Event sort order: {} (inclusive)", profile.meta().events[v.sort_event]),
        fmt::format("Function:         {}{}", function_label(profile, v.fn, display),
                    v.inlined ? " (inlined)" : "")};
    for (std::string& line : thread_header(options))
        header.push_back(std::move(line));
    write_header(out, profile, options, v.events, header);
    write_totals(out, profile, v.events);

    CostColumns function_columns(profile, v.events, {" self", " incl"});
    function_columns.fit(1, v.inclusive);
    print_line(out, rule());
    print_line(out, function_columns.header() + "  function (file:line)  [object]");
    print_line(out, rule());
    print_line(out, function_columns.cells({&v.self, &v.inclusive}) + "  " +
                        function_label(profile, v.fn, display) + (v.inlined ? " (inlined)" : ""));
    print_line(out, "");

    // Both lists share their widths so that their columns line up.
    CostColumns call_columns(profile, v.events, {" incl"});
    size_t count_width = std::string("calls").size();
    for (const auto* calls : {&v.callers, &v.callees})
        for (const CallCost& c : *calls) {
            call_columns.fit(0, c.inclusive);
            count_width = std::max(count_width, format_thousands(c.count).size());
        }
    write_calls(out, profile, call_columns, count_width, v.inlined ? "inlined into" : "callers",
                v.callers, display, v.inlined);
    print_line(out, "");
    write_calls(out, profile, call_columns, count_width, "callees", v.callees, display);
}

boost::json::array calls_json(const Profile& profile, const ShownEvents& shown,
                              const std::vector<CallCost>& calls)
{
    boost::json::array out;
    for (const CallCost& c : calls) {
        boost::json::object o = function_json(profile, c.fn);
        if (c.site)
            o["site"] = {{"file", profile.file_path(c.site->file)}, {"line", c.site->line}};
        else
            o["site"] = nullptr;   // calls of an inlined function's code, over all sites
        o["count"] = c.count;
        add_costs(o, "inclusive", profile, shown, c.inclusive);
        out.push_back(std::move(o));
    }
    return out;
}

void write_json(std::ostream& out, const Profile& profile, const ReportOptions& options,
                const FunctionView& v)
{
    boost::json::object report =
        json_header(profile, options, v.events, v.sort_event, "inclusive");
    boost::json::object function = function_json(profile, v.fn);
    if (v.inlined)
        function["inlined"] = true;
    add_costs(function, "self", profile, v.events, v.self);
    add_costs(function, "inclusive", profile, v.events, v.inclusive);
    report["function"] = std::move(function);
    report[v.inlined ? "inlined_into" : "callers"] = calls_json(profile, v.events, v.callers);
    report["callees"] = calls_json(profile, v.events, v.callees);
    out << boost::json::serialize(report) << '\n';
}

} // namespace

void write_function_report(std::ostream& out, const Profile& profile,
                           const ReportOptions& options)
{
    const FunctionView view = view_of(profile, options);
    if (options.format == "json")
        write_json(out, profile, options, view);
    else
        write_text(out, profile, options, view);
}

} // namespace vgprof::cli
