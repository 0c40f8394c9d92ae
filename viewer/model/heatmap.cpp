// SPDX-License-Identifier: GPL-2.0-or-later
// Building, ordering and scaling the heatmap.
#include "heatmap.hpp"

#include "capabilities.hpp"
#include "color_scale.hpp"

#include <algorithm>
#include <cmath>

namespace vgprof::viewer {

namespace {

const char* const kMissEvents[] = {"I1mr", "ILmr", "D1mr", "DLmr", "D1mw", "DLmw", "Bcm", "Bim"};

std::vector<std::optional<double>> cells_of(const std::vector<HeatColumn>& columns,
                                            const std::vector<uint64_t>& costs)
{
    std::vector<std::optional<double>> cells;
    for (const HeatColumn& c : columns) {
        if (c.event)
            cells.push_back(double(costs[*c.event]));
        else if (const auto r = c.rate->of(costs))
            cells.push_back(*r);
        else
            cells.push_back(std::nullopt);
    }
    return cells;
}

bool any_miss(const std::vector<HeatColumn>& columns, const std::vector<uint64_t>& costs)
{
    return std::any_of(columns.begin(), columns.end(),
                       [&](const HeatColumn& c) { return c.event && costs[*c.event] > 0; });
}

void fill_max(Heatmap& map)
{
    map.column_max.assign(map.columns.size(), 0);
    for (const HeatRow& row : map.rows)
        for (size_t c = 0; c < row.cells.size(); ++c)
            if (row.cells[c])
                map.column_max[c] = std::max(map.column_max[c], std::abs(*row.cells[c]));
}

// The new profile's costs in the base's events for `fn`'s self cost.
std::vector<uint64_t> base_self(const DiffLink& diff, FnId fn, size_t events)
{
    std::vector<uint64_t> costs(events, 0);
    const auto bf = diff.base_fn(fn);
    for (size_t e = 0; e < events; ++e)
        if (const auto be = diff.base_event(e); be && bf)
            costs[e] = diff.base().self(*bf, *be);
    return costs;
}

} // namespace

std::vector<HeatColumn> heat_columns(const Profile& profile)
{
    std::vector<HeatColumn> columns;
    for (const char* name : kMissEvents)
        if (const auto e = profile.event_index(name))
            columns.push_back({name, event_description(name), e, std::nullopt});
    for (const MissRate& rate : summary_miss_rates(profile))
        columns.push_back({rate.name + " rate", "miss rate " + rate.formula, std::nullopt, rate});
    return columns;
}

Heatmap function_heatmap(const Document& doc, const DiffLink* diff)
{
    Heatmap map;
    map.columns = heat_columns(doc.profile());
    map.diff = diff != nullptr;
    for (size_t i = 0; i < doc.num_functions(); ++i) {
        const FnId fn{uint32_t(i)};
        const std::vector<uint64_t>& self = doc.cost(fn).self;
        if (!diff) {
            if (any_miss(map.columns, self))
                map.rows.push_back({fn, 0, FileId(), cells_of(map.columns, self)});
            continue;
        }
        const std::vector<uint64_t> base = base_self(*diff, fn, self.size());
        if (!any_miss(map.columns, self) && !any_miss(map.columns, base))
            continue;
        HeatRow row{fn, 0, FileId(), cells_of(map.columns, self)};
        const auto before = cells_of(map.columns, base);
        for (size_t c = 0; c < row.cells.size(); ++c)
            row.cells[c] = row.cells[c] && before[c] ? std::optional<double>(*row.cells[c] - *before[c])
                           : row.cells[c]           ? row.cells[c]
                           : before[c]              ? std::optional<double>(-*before[c])
                                                    : std::nullopt;
        map.rows.push_back(std::move(row));
    }
    fill_max(map);
    return map;
}

Heatmap line_heatmap(const Document& doc, FnId fn)
{
    Heatmap map;
    map.columns = heat_columns(doc.profile());
    const Profile& p = doc.profile();
    const RowIndex& rows = doc.lines_of_fn();
    for (const uint32_t* r = rows.begin_of(fn.index()); r != rows.end_of(fn.index()); ++r) {
        const uint64_t* cost = p.line_cost(*r);
        const std::vector<uint64_t> costs(cost, cost + p.num_events());
        map.rows.push_back({fn, p.lines()[*r].line, p.lines()[*r].file, cells_of(map.columns, costs)});
    }
    std::sort(map.rows.begin(), map.rows.end(), [&](const HeatRow& a, const HeatRow& b) {
        return a.file != b.file ? p.file_path(a.file) < p.file_path(b.file) : a.line < b.line;
    });
    fill_max(map);
    return map;
}

void sort_heatmap(Heatmap& map, const Profile& profile, size_t column, bool descending)
{
    std::stable_sort(map.rows.begin(), map.rows.end(), [&](const HeatRow& a, const HeatRow& b) {
        const auto& x = a.cells[column];
        const auto& y = b.cells[column];
        if (x.has_value() != y.has_value())
            return x.has_value();
        if (x && *x != *y)
            return descending ? *x > *y : *x < *y;
        if (a.fn != b.fn)
            return profile.fn_name(a.fn) < profile.fn_name(b.fn);
        return a.line < b.line;
    });
}

double cell_position(const Heatmap& map, size_t column, double value)
{
    const double max = map.column_max[column];
    if (map.columns[column].rate) {
        if (max <= 0)
            return 0;
        return std::clamp(value / max, -1.0, 1.0);
    }
    return map.diff ? signed_log_position(value, max) : log_position(value, max);
}

} // namespace vgprof::viewer
