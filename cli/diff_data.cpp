// SPDX-License-Identifier: GPL-2.0-or-later
// The data objects of `vgprof diff` (diff_data.hpp): ranked by the change
// of one data event, each with the event's miss rate over its accesses in
// both profiles, since a count that moved with the accesses is no worse.
#include "diff_data.hpp"

#include "diff_model.hpp"

#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace vgprof::cli {

namespace {

bool changed(const DataObjectDelta& d)
{
    for (const CostDelta& c : d.cost)
        if (c.base != c.now)
            return true;
    return false;
}

// "12.50%"; "-" where the event has no rate or there were no accesses.
std::string rate_text(const std::optional<double>& rate)
{
    return rate ? fmt::format("{:.2f}%", *rate * 100) : "-";
}

const char* event_name(const DataComparison& data) { return kDataEventNames[data.event]; }

// "D1mr/Dr": the rate's name; empty for Dr and Dw, which have none.
std::string rate_name(size_t event)
{
    if (event == 0 || event == 3)
        return "";
    return fmt::format("{}/{}", kDataEventNames[event], kDataEventNames[event < 3 ? 0 : 3]);
}

// Said when one of the two profiles has no data section.
std::string missing_text(const Profile& base)
{
    const bool in_base = base.data() != nullptr;
    return fmt::format("only the {} profile says which data was accessed; data objects are not "
                       "compared",
                       in_base ? "base" : "new");
}

// The cells of one object's row: base, new, change, change %, and the
// rates in both profiles when the event has one.
std::vector<std::string> cells(const DataComparison& data, const DataObjectDelta& d)
{
    const CostDelta& c = d.cost[data.event];
    std::vector<std::string> row = {format_thousands(c.base), format_thousands(c.now),
                                    signed_count(c.delta()), relative_text(c)};
    if (!rate_name(data.event).empty()) {
        row.push_back(rate_text(d.base_rate(data.event)));
        row.push_back(rate_text(d.now_rate(data.event)));
    }
    return row;
}

std::vector<std::string> header(const DataComparison& data)
{
    const std::string event = event_name(data);
    std::vector<std::string> h = {event + " base", event + " new", "change", "change %"};
    const std::string rate = rate_name(data.event);
    if (!rate.empty()) {
        h.push_back(rate + " base");
        h.push_back(rate + " new");
    }
    return h;
}

} // namespace

std::optional<DataComparison> compare_data(const Profile& base, const Profile& now,
                                           const DiffOptions& options)
{
    const std::optional<size_t> event = data_event_index(options.data_event);
    if (!event)
        throw Error(fmt::format("--data-event names \"{}\", which is not a data event ({})",
                                options.data_event,
                                fmt::join(std::begin(kDataEventNames), std::end(kDataEventNames),
                                          " ")));
    if (base.data() == nullptr && now.data() == nullptr)
        return std::nullopt;
    DataComparison data;
    data.event = *event;
    if (base.data() == nullptr || now.data() == nullptr) {
        data.missing = missing_text(base);
        return data;
    }
    data.objects = diff_data(base, now, data.event);
    for (const DataObjectDelta& d : data.objects) {
        if (!changed(d))
            continue;
        ++data.changed;
        if (options.top == 0 || data.shown.size() < options.top)
            data.shown.push_back(&d);
    }
    return data;
}

// Right-aligned columns of numbers, each as wide as its widest cell, and
// the object's label last.
void write_data_text(std::ostream& out, const DataComparison& data)
{
    if (!data.missing.empty()) {
        out << "Data objects: " << data.missing << '\n';
        return;
    }
    out << fmt::format("Changed data objects by {}: {} (showing {})\n", event_name(data),
                       data.changed, data.shown.size());
    if (data.shown.empty())
        return;
    std::vector<std::vector<std::string>> rows = {header(data)};
    for (const DataObjectDelta* d : data.shown)
        rows.push_back(cells(data, *d));
    std::vector<size_t> width(rows[0].size(), 0);
    for (const auto& row : rows)
        for (size_t i = 0; i < row.size(); ++i)
            width[i] = std::max(width[i], row[i].size());
    for (size_t r = 0; r < rows.size(); ++r) {
        for (size_t i = 0; i < rows[r].size(); ++i)
            out << fmt::format("{:>{}}  ", rows[r][i], width[i]);
        out << (r == 0 ? "data object" : escaped_controls(data.shown[r - 1]->label)) << '\n';
    }
}

void write_data_markdown(std::ostream& out, const DataComparison& data)
{
    if (!data.missing.empty()) {
        out << "\n> :information_source: " << data.missing << '\n';
        return;
    }
    out << fmt::format("\n**Top changed data objects** by {} ({} of {} changed):\n\n",
                       event_name(data), data.shown.size(), data.changed);
    if (data.shown.empty()) {
        out << "No data object's cost changed.\n";
        return;
    }
    const std::vector<std::string> h = header(data);
    out << "| data object | kind |";
    for (const std::string& cell : h)
        out << ' ' << cell << " |";
    out << "\n| --- | --- |";
    for (size_t i = 0; i < h.size(); ++i)
        out << " ---: |";
    out << '\n';
    for (const DataObjectDelta* d : data.shown) {
        out << "| " << markdown_code(d->label) << " | " << d->kind << " |";
        for (const std::string& cell : cells(data, *d))
            out << ' ' << cell << " |";
        out << '\n';
    }
}

boost::json::object data_json(const DataComparison& data)
{
    boost::json::object o = {{"event", event_name(data)}};
    if (!data.missing.empty()) {
        o["missing"] = data.missing;
        return o;
    }
    o["changed_objects"] = data.changed;
    boost::json::array objects;
    for (const DataObjectDelta* d : data.shown) {
        boost::json::object costs, rates;
        for (size_t e = 0; e < kDataEvents; ++e) {
            costs[kDataEventNames[e]] = delta_json(d->cost[e]);
            if (rate_name(e).empty())
                continue;
            const auto as_json = [](const std::optional<double>& r) -> boost::json::value {
                if (r)
                    return *r;
                return nullptr;
            };
            rates[kDataEventNames[e]] = {{"base", as_json(d->base_rate(e))},
                                         {"new", as_json(d->now_rate(e))}};
        }
        objects.push_back({{"key", d->key},
                           {"kind", d->kind},
                           {"label", d->label},
                           {"in_base", d->in_base},
                           {"in_new", d->in_now},
                           {"costs", std::move(costs)},
                           {"miss_rates", std::move(rates)}});
    }
    o["objects"] = std::move(objects);
    return o;
}

} // namespace vgprof::cli
