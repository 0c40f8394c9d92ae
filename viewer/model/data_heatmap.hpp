// SPDX-License-Identifier: GPL-2.0-or-later
// The data heatmap: one row per heap allocation site and global variable,
// one column per cache line of its offsets, each cell the chosen data event
// (D1mr, DLmw, ...) on its bytes; every cell of the map on one log scale,
// so a hot field, a stride or two threads' fields sharing a line show as
// shapes across rows and columns. Objects whose offsets go by 8 bytes (heap
// blocks up to 1 KiB, small globals) split each line's cell into stripes,
// one per 8 bytes. Also the code heatmap beside it: the selected function's
// lines by miss event, on one scale shared by all the events. In diff mode
// each cell is the change from the base profile's same object (matched as
// `vgprof diff` matches them), on diff mode's diverging scale.
#ifndef VGPROF_VIEWER_DATA_HEATMAP_HPP
#define VGPROF_VIEWER_DATA_HEATMAP_HPP

#include "document.hpp"
#include "heatmap.hpp"

#include "vgprof/data.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vgprof::viewer {

// The most stripes a line's cell is cut into: 8-byte stripes of a 128-byte
// line. A longer line (Valgrind simulates lines of up to 2^30 bytes) has
// its buckets summed into as many stripes, so that a cell stays a few
// pixels wide and a few values long.
inline constexpr uint32_t kMaxStripes = 16;

struct DataHeatRow {
    DataObjId object;
    uint64_t total = 0;           // the event on the whole object
    uint64_t lines = 0;           // cache lines the object's offsets span
    // Lines summed in one cell: 1 unless the object spans more lines than
    // the map has columns.
    uint64_t lines_per_cell = 1;
    // Stripes per cell: the line's offset buckets (line / bucket width, at
    // most kMaxStripes), 1 when buckets are lines or cells sum several lines.
    uint32_t stripes = 1;
    // cells * stripes values: stripe s of cell c at c * stripes + s.
    std::vector<uint64_t> values;
    // Diff mode: the change of each stripe from the base's same object laid
    // on the same cells (new - base; the base counts 0 when it has no such
    // object), and of the whole object.
    std::vector<int64_t> deltas;
    int64_t total_delta = 0;

    size_t cells() const { return values.size() / stripes; }
};

struct DataHeatmap {
    size_t event = 1;             // a DataCost index
    uint64_t line_size = 64;      // the simulated D1 cache's
    size_t columns = 0;           // the widest row's cells
    uint64_t max = 0;             // the largest stripe: the one scale's top
    bool diff = false;
    int64_t largest_change = 0;   // diff mode: the largest stripe change's size
    std::vector<DataHeatRow> rows;  // worst first; in diff mode, most changed first
};

// The heap sites and globals with some of `event` (a DataCost index),
// worst first; no row spans more than `max_columns` cells. Empty when the
// profile has no data section.
DataHeatmap data_heatmap(const Profile& profile, size_t event, size_t max_columns = 128);

// The same for diff mode: the rows are the new profile's heap sites and
// globals with some of `event` in either profile (an object only the base
// has is not a row), the one whose total changed most first, each cell
// with its change. Without a data section in `base`, everything is new.
DataHeatmap data_heatmap_diff(const Profile& now, const Profile& base, size_t event,
                              size_t max_columns = 128);

// Why the profile has no data section to draw, as the view says it;
// nullopt when it has one.
std::optional<std::string> why_no_data(const Profile& profile);

// Where a value falls on the map's one scale, from 0 to 1 (by logarithm).
double data_cell_position(const DataHeatmap& map, uint64_t value);

// The line heatmap of `fn` (line_heatmap) with only the miss events'
// columns, all on one scale: every column's maximum is the largest cell.
Heatmap shared_line_heatmap(const Document& doc, FnId fn);

} // namespace vgprof::viewer

#endif
