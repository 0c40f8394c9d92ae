// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof report --data`: the data objects (heap sites, globals, an
// object's unnamed data, the stack, the allocator, the rest) by a data
// event, each with the functions that missed on it most; with --function,
// the objects one function missed on. The same columns as the function
// summary, in text, or JSON for scripts. (A function's accesses are not
// counted per object, only its misses: its rows leave Dr and Dw blank.)
#include "report_layout.hpp"

#include "vgprof/data.hpp"
#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace vgprof::cli {

namespace {

// Functions shown under each object in the text; the JSON lists more.
constexpr size_t kTextFunctions = 3;
constexpr size_t kJsonFunctions = 10;

struct Row {
    DataObjId object;
    std::vector<uint64_t> costs;       // in meta.events order
    std::vector<DataFunction> fns;     // by the sort event, first kJsonFunctions
    size_t n_fns = 0;                  // all the functions that missed on it
};

struct DataView {
    const DataProfile* data = nullptr;
    ShownEvents events;
    size_t sort_event = 0;   // in meta.events
    size_t sort_data = 0;    // in a DataCost
    std::optional<FnId> fn;  // --function
    std::vector<Row> shown;
    size_t below_threshold = 0, beyond_top = 0;
    std::vector<uint64_t> omitted;
};

const DataProfile& data_of(const Profile& profile, const ReportOptions& options)
{
    if (const DataProfile* data = profile.data())
        return *data;
    const Meta& meta = profile.meta();
    const std::string why = meta.tool != "vgprof" ? meta.tool + " files have none"
                            : meta.version < 6    ? "format version " + std::to_string(meta.version)
                                                        + " has none"
                                                  : "recorded with --data=no, --heap=no or "
                                                    "--cache-sim=no";
    throw Error(fmt::format("{}: the profile does not say which data was accessed ({})",
                            options.profile, why));
}

std::string data_event_list()
{
    return fmt::format("{}", fmt::join(std::begin(kDataEventNames), std::end(kDataEventNames), " "));
}

// A data event: in the profile and in a DataCost.
std::pair<size_t, size_t> data_event_named(const Profile& profile, const ReportOptions& options,
                                           const std::string& name, const char* option)
{
    const std::optional<size_t> d = data_event_index(name);
    if (!d)
        throw Error(fmt::format("{}: {} names \"{}\", which is not a data event ({})",
                                options.profile, option, name, data_event_list()));
    return {*profile.event_index(name), *d};
}

ShownEvents data_events(const Profile& profile, const ReportOptions& options)
{
    ReportOptions chosen = options;
    if (chosen.events.empty())
        chosen.events.assign(std::begin(kDataEventNames), std::end(kDataEventNames));
    for (const std::string& name : chosen.events)
        data_event_named(profile, options, name, "--events");
    return shown_events(profile, chosen);
}

Row row_of(const Profile& profile, const DataView& v, DataObjId id, const DataCost& cost)
{
    Row r{id, event_costs(profile, cost), functions_of_data(*v.data, id, v.sort_data), 0};
    r.n_fns = r.fns.size();
    if (r.fns.size() > kJsonFunctions)
        r.fns.resize(kJsonFunctions);
    return r;
}

// The objects and their costs: every object's, or the one function's.
std::vector<std::pair<DataObjId, DataCost>> candidates(const DataView& v)
{
    std::vector<std::pair<DataObjId, DataCost>> out;
    if (v.fn) {
        for (const DataFunction& r : data_of_function(*v.data, *v.fn, v.sort_data))
            out.emplace_back(r.object, r.cost);
        return out;
    }
    for (DataObjId id : data_objects_by(*v.data, v.sort_data))
        out.emplace_back(id, v.data->object(id).cost);
    return out;
}

DataView view_of(const Profile& profile, const ReportOptions& options)
{
    DataView v;
    v.data = &data_of(profile, options);
    v.events = data_events(profile, options);
    std::tie(v.sort_event, v.sort_data) =
        data_event_named(profile, options, options.sort.empty() ? "D1mr" : options.sort, "--sort");
    if (!options.function.empty()) {
        if (!data_miss_rate(DataCost{1, 0, 0, 1, 0, 0}, v.sort_data))
            throw Error(fmt::format("{}: --data with --function sorts by a miss event (D1mr "
                                    "DLmr D1mw DLmw): a function's accesses are not counted per "
                                    "data object",
                                    options.profile));
        v.fn = function_of_option(profile, options);
    }
    // A function's objects are all shown: what it missed on is small beside
    // the program's totals.
    const double threshold = v.fn ? 0.0 : options.threshold;
    const uint64_t total = profile.meta().totals[v.sort_event];
    DataCost omitted{};
    for (const auto& [id, cost] : candidates(v)) {
        if (!reaches_threshold(cost[v.sort_data], total, threshold))
            ++v.below_threshold;
        else if (options.top != 0 && v.shown.size() == options.top)
            ++v.beyond_top;
        else {
            v.shown.push_back(row_of(profile, v, id, cost));
            continue;
        }
        for (size_t e = 0; e < kDataEvents; ++e)
            omitted[e] += cost[e];
    }
    v.omitted = event_costs(profile, omitted);
    return v;
}

std::string omitted_label(const DataView& v, const ReportOptions& options)
{
    const size_t n = v.below_threshold + v.beyond_top;
    return fmt::format("({} data object{} not shown: {} below the {}% threshold, {} beyond --top)",
                       n, n == 1 ? "" : "s", v.below_threshold, options.threshold, v.beyond_top);
}

void write_text(std::ostream& out, const Profile& profile, const ReportOptions& options,
                const DataView& v)
{
    std::vector<std::string> header = {
        fmt::format("Data objects:     {} (heap sites, globals, unnamed data of objects, the "
                    "stack, the allocator, other)",
                    v.data->objects.size()),
        fmt::format("Event sort order: {}", profile.meta().events[v.sort_event]),
        fmt::format("Threshold:        {}%", options.threshold)};
    if (options.top != 0)
        header.push_back(fmt::format("Object limit:     {}", options.top));
    if (v.fn)
        header.push_back(fmt::format("Missed by:        {} (its own misses only)",
                                     function_label(profile, *v.fn)));
    write_header(out, profile, options, v.events, header);
    write_totals(out, profile, v.events);

    const CostColumns columns(profile, v.events, {""});
    print_line(out, rule());
    print_line(out, columns.header() + "  data object" +
                        (v.fn ? "" : "  (and the functions that missed on it most)"));
    print_line(out, rule());
    for (const Row& r : v.shown) {
        const std::string cells = v.fn ? columns.dotted_cells(&r.costs) : columns.cells({&r.costs});
        print_line(out, cells + "  " + data_object_label(profile, r.object));
        if (v.fn)
            continue;
        for (size_t i = 0; i < r.fns.size() && i < kTextFunctions; ++i) {
            const std::vector<uint64_t> costs = event_costs(profile, r.fns[i].cost);
            print_line(out, columns.dotted_cells(&costs) + "      by " +
                                function_label(profile, r.fns[i].fn));
        }
        if (r.n_fns > kTextFunctions)
            print_line(out, fmt::format("{:{}}      ({} more function{})", "",
                                        columns.header().size(), r.n_fns - kTextFunctions,
                                        r.n_fns - kTextFunctions == 1 ? "" : "s"));
    }
    if (v.below_threshold + v.beyond_top != 0)
        print_line(out, columns.cells({&v.omitted}) + "  " + omitted_label(v, options));
}

boost::json::object object_json(const Profile& profile, DataObjId id)
{
    const DataObject& o = profile.data()->object(id);
    boost::json::object j = {{"object", id.value},
                             {"kind", data_kind_name(o.kind)},
                             {"label", data_object_label(profile, id)}};
    if (o.site)
        j["site"] = o.site->value;
    if (o.name)
        j[o.kind == DataKind::global ? "name" : "section"] = profile.str(*o.name);
    if (o.obj)
        j["file"] = profile.obj_path(*o.obj);
    if (o.addr)
        j["addr"] = *o.addr;
    if (o.width != 0) {
        j["size"] = o.size;
        j["width"] = o.width;
    }
    return j;
}

// {"D1mr":…}: the shown miss events of a function's row.
boost::json::object misses_json(const Profile& profile, const ShownEvents& shown,
                                const DataCost& cost)
{
    boost::json::object o;
    for (size_t e : shown.events) {
        const std::string& name = profile.meta().events[e];
        const size_t d = *data_event_index(name);
        if (d != 0 && d != 3)
            o[name] = cost[d];
    }
    return o;
}

void write_json(std::ostream& out, const Profile& profile, const ReportOptions& options,
                const DataView& v)
{
    boost::json::array objects;
    for (const Row& r : v.shown) {
        boost::json::object o = object_json(profile, r.object);
        add_costs(o, "costs", profile, v.events, r.costs);
        if (!v.fn) {
            boost::json::array fns;
            for (const DataFunction& f : r.fns) {
                boost::json::object fj = function_json(profile, f.fn);
                fj["misses"] = misses_json(profile, v.events, f.cost);
                fns.push_back(std::move(fj));
            }
            o["functions"] = std::move(fns);
            o["functions_total"] = r.n_fns;
        }
        objects.push_back(std::move(o));
    }
    boost::json::object report = json_header(profile, options, v.events, v.sort_event, "data");
    if (v.fn)
        report["missed_by"] = function_json(profile, *v.fn);
    report["objects"] = std::move(objects);
    boost::json::object omitted = {{"objects", v.below_threshold + v.beyond_top}};
    add_costs(omitted, "costs", profile, v.events, v.omitted);
    report["omitted"] = std::move(omitted);
    out << boost::json::serialize(report) << '\n';
}

} // namespace

void write_data_report(std::ostream& out, const Profile& profile, const ReportOptions& options)
{
    const DataView view = view_of(profile, options);
    if (options.format == "json")
        write_json(out, profile, options, view);
    else
        write_text(out, profile, options, view);
}

} // namespace vgprof::cli
