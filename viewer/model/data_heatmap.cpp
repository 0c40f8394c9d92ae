// SPDX-License-Identifier: GPL-2.0-or-later
// The data heatmap's rows and the code heatmap's shared scale (see
// data_heatmap.hpp).
#include "data_heatmap.hpp"

#include "color_scale.hpp"

#include <algorithm>

namespace vgprof::viewer {

namespace {

uint64_t simulated_line_size(const Profile& profile)
{
    const auto& cache = profile.meta().cache;
    if (cache && cache->d1 && cache->d1->line_size > 0)
        return cache->d1->line_size;
    return 64;
}

// The row of one object: its offset buckets placed in cells (and stripes).
DataHeatRow data_row(const DataProfile& data, DataObjId id, size_t event, uint64_t line_size,
                     size_t max_columns)
{
    const DataObject& object = data.object(id);
    DataHeatRow row;
    row.object = id;
    row.total = object.cost[event];
    const auto [first, last] = data.offsets_of(id);
    // What the offsets span: the object's size, or further when a bucket
    // lies past it (an access beyond the end still booked to the object).
    uint64_t end = object.size;
    for (size_t i = first; i < last; ++i)
        end = std::max(end, data.offsets[i].offset + object.width);
    row.lines = std::max<uint64_t>(1, (end + line_size - 1) / line_size);
    row.lines_per_cell = (row.lines + max_columns - 1) / max_columns;
    if (row.lines_per_cell == 1 && object.width < line_size)
        row.stripes = uint32_t(line_size / object.width);
    const uint64_t cells = (row.lines + row.lines_per_cell - 1) / row.lines_per_cell;
    row.values.assign(cells * row.stripes, 0);
    for (size_t i = first; i < last; ++i) {
        const DataOffset& o = data.offsets[i];
        const uint64_t line = o.offset / line_size;
        const uint64_t cell = line / row.lines_per_cell;
        const uint64_t stripe = row.stripes > 1 ? (o.offset % line_size) / object.width : 0;
        row.values[cell * row.stripes + stripe] += o.cost[event];
    }
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
        if ((object.kind != DataKind::heap && object.kind != DataKind::global) || object.width == 0 ||
            object.cost[event] == 0)
            continue;
        DataHeatRow row = data_row(*data, id, event, map.line_size, std::max<size_t>(1, max_columns));
        map.columns = std::max(map.columns, row.cells());
        for (uint64_t v : row.values)
            map.max = std::max(map.max, v);
        map.rows.push_back(std::move(row));
    }
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
