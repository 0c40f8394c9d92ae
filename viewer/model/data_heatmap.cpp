// SPDX-License-Identifier: GPL-2.0-or-later
// The data heatmap's rows and the code heatmap's shared scale (see
// data_heatmap.hpp).
#include "data_heatmap.hpp"

#include "color_scale.hpp"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

namespace vgprof::viewer {

namespace {

uint64_t simulated_line_size(const Profile& profile)
{
    const auto& cache = profile.meta().cache;
    if (cache && cache->d1 && cache->d1->line_size > 0)
        return cache->d1->line_size;
    return 64;
}

// One object of one profile, as a row is made of it.
struct ObjectIn {
    const DataProfile& data;
    DataObjId id;

    const DataObject& object() const { return data.object(id); }
    // What the offsets span: the object's size, or further when a bucket
    // lies past it (an access beyond the end still booked to the object).
    uint64_t end() const
    {
        uint64_t end = object().size;
        const auto [first, last] = data.offsets_of(id);
        for (size_t i = first; i < last; ++i)
            end = std::max(end, data.offsets[i].offset + object().width);
        return end;
    }
};

// A row spanning `end` bytes, in buckets of `width` bytes, with no values.
DataHeatRow empty_row(DataObjId id, uint64_t end, uint64_t width, uint64_t line_size,
                      size_t max_columns)
{
    DataHeatRow row;
    row.object = id;
    row.lines = std::max<uint64_t>(1, end / line_size + (end % line_size != 0));
    row.lines_per_cell = row.lines / max_columns + (row.lines % max_columns != 0);
    if (row.lines_per_cell == 1 && width < line_size)
        row.stripes = uint32_t(std::min<uint64_t>(kMaxStripes, line_size / width));
    const uint64_t cells = (row.lines + row.lines_per_cell - 1) / row.lines_per_cell;
    row.values.assign(cells * row.stripes, 0);
    return row;
}

// The object's offset buckets placed in the row's cells (and stripes).
std::vector<uint64_t> cell_values(const DataHeatRow& row, const ObjectIn& in, size_t event,
                                  uint64_t line_size)
{
    std::vector<uint64_t> values(row.values.size(), 0);
    const uint64_t stripe_bytes = line_size / row.stripes;
    const auto [first, last] = in.data.offsets_of(in.id);
    for (size_t i = first; i < last; ++i) {
        const DataOffset& o = in.data.offsets[i];
        const uint64_t cell = o.offset / line_size / row.lines_per_cell;
        const uint64_t stripe = row.stripes > 1 ? (o.offset % line_size) / stripe_bytes : 0;
        values[cell * row.stripes + stripe] += o.cost[event];
    }
    return values;
}

DataHeatRow data_row(const ObjectIn& in, size_t event, uint64_t line_size, size_t max_columns)
{
    DataHeatRow row = empty_row(in.id, in.end(), in.object().width, line_size, max_columns);
    row.total = in.object().cost[event];
    row.values = cell_values(row, in, event, line_size);
    return row;
}

// Heap sites and globals with offsets: the objects the map has rows for.
bool mapped(const DataObject& object)
{
    return (object.kind == DataKind::heap || object.kind == DataKind::global) && object.width != 0;
}

// The base's object of each new one, matched by data_object_key.
std::vector<std::optional<DataObjId>> base_objects(const Profile& now, const Profile& base)
{
    std::vector<std::optional<DataObjId>> matched(now.data()->objects.size());
    if (!base.data())
        return matched;
    std::unordered_map<std::string, DataObjId> by_key;
    for (size_t i = 0; i < base.data()->objects.size(); ++i)
        by_key.emplace(data_object_key(base, DataObjId(uint32_t(i))), DataObjId(uint32_t(i)));
    for (size_t i = 0; i < matched.size(); ++i)
        if (const auto it = by_key.find(data_object_key(now, DataObjId(uint32_t(i))));
            it != by_key.end())
            matched[i] = it->second;
    return matched;
}

// The row of a new object and its change from the base's, on cells wide
// enough for both.
DataHeatRow diff_row(const ObjectIn& now, const std::optional<ObjectIn>& base, size_t event,
                     uint64_t line_size, size_t max_columns)
{
    const uint64_t end = std::max(now.end(), base ? base->end() : 0);
    uint64_t width = now.object().width;
    if (base && base->object().width != 0)
        width = std::max(width, base->object().width);
    DataHeatRow row = empty_row(now.id, end, width, line_size, max_columns);
    row.total = now.object().cost[event];
    row.values = cell_values(row, now, event, line_size);
    const std::vector<uint64_t> before =
        base ? cell_values(row, *base, event, line_size) : std::vector<uint64_t>(row.values.size(), 0);
    row.deltas.resize(row.values.size());
    for (size_t i = 0; i < row.values.size(); ++i)
        row.deltas[i] = int64_t(row.values[i]) - int64_t(before[i]);
    row.total_delta = int64_t(row.total) - int64_t(base ? base->object().cost[event] : 0);
    return row;
}

} // namespace

DataHeatmap data_heatmap(const Profile& profile, size_t event, size_t max_columns)
{
    DataHeatmap map;
    map.event = event;
    map.line_size = simulated_line_size(profile);
    const DataProfile* data = profile.data();
    if (!data)
        return map;
    for (DataObjId id : data_objects_by(*data, event)) {
        const DataObject& object = data->object(id);
        if (!mapped(object) || object.cost[event] == 0)
            continue;
        DataHeatRow row = data_row({*data, id}, event, map.line_size, std::max<size_t>(1, max_columns));
        map.columns = std::max(map.columns, row.cells());
        for (uint64_t v : row.values)
            map.max = std::max(map.max, v);
        map.rows.push_back(std::move(row));
    }
    return map;
}

DataHeatmap data_heatmap_diff(const Profile& now, const Profile& base, size_t event,
                              size_t max_columns)
{
    DataHeatmap map;
    map.event = event;
    map.diff = true;
    map.line_size = simulated_line_size(now);
    const DataProfile* data = now.data();
    if (!data)
        return map;
    const auto matched = base_objects(now, base);
    for (DataObjId id : data_objects_by(*data, event)) {
        const DataObject& object = data->object(id);
        const std::optional<DataObjId> b = matched[id.index()];
        const std::optional<ObjectIn> before =
            b ? std::optional<ObjectIn>(ObjectIn{*base.data(), *b}) : std::nullopt;
        if (!mapped(object) || (object.cost[event] == 0 && (!before || before->object().cost[event] == 0)))
            continue;
        DataHeatRow row = diff_row({*data, id}, before, event, map.line_size,
                                   std::max<size_t>(1, max_columns));
        map.columns = std::max(map.columns, row.cells());
        for (size_t i = 0; i < row.values.size(); ++i) {
            map.max = std::max(map.max, row.values[i]);
            map.largest_change = std::max(map.largest_change, std::abs(row.deltas[i]));
        }
        map.rows.push_back(std::move(row));
    }
    // Most changed first; data_objects_by's order among equal changes.
    std::stable_sort(map.rows.begin(), map.rows.end(), [](const DataHeatRow& a, const DataHeatRow& b) {
        return std::abs(a.total_delta) > std::abs(b.total_delta);
    });
    return map;
}

std::optional<std::string> why_no_data(const Profile& profile)
{
    if (profile.data())
        return std::nullopt;
    const Meta& meta = profile.meta();
    const std::string lead = "This profile does not say which data missed the cache: ";
    if (meta.tool != "vgprof")
        return lead + "a " + meta.tool + " file has no data section.";
    if (meta.version < 7)
        return lead + "it is of format version " + std::to_string(meta.version) +
               ", older than the data section (version 7).";
    if (!meta.cache || !meta.cache->d1)
        return lead + "it was recorded without the cache simulated (--cache-sim=yes).";
    if (!profile.heap())
        return lead + "it was recorded without the heap watched (--heap=yes).";
    return lead + "it was recorded with --data=no.";
}

double data_cell_position(const DataHeatmap& map, uint64_t value)
{
    return log_position(double(value), double(map.max));
}

Heatmap shared_line_heatmap(const Document& doc, FnId fn)
{
    Heatmap map = line_heatmap(doc, fn);
    std::vector<size_t> keep;
    for (size_t c = 0; c < map.columns.size(); ++c)
        if (!map.columns[c].rate)
            keep.push_back(c);
    double max = 0;
    for (size_t c : keep)
        max = std::max(max, map.column_max[c]);
    Heatmap shared;
    shared.diff = map.diff;
    for (size_t c : keep) {
        shared.columns.push_back(map.columns[c]);
        shared.column_max.push_back(max);
    }
    for (HeatRow& row : map.rows) {
        HeatRow kept{row.fn, row.line, row.file, {}};
        for (size_t c : keep)
            kept.cells.push_back(row.cells[c]);
        shared.rows.push_back(std::move(kept));
    }
    return shared;
}

} // namespace vgprof::viewer
