// SPDX-License-Identifier: GPL-2.0-or-later
// The cache-miss heatmap: one row per function (or per source line of the
// selected function), one column per cache or branch miss event the profile
// recorded (I1mr ILmr D1mr DLmr D1mw DLmw Bcm Bim) and one per miss rate
// cachegrind's summary gives (I1, LLi, D1, LLd, LL, Mispred). Each column has
// its own log scale from 0 to its largest cell, cut into bins; in diff mode
// cells hold changes and the scale is symmetric around no change.
#ifndef VGPROF_VIEWER_HEATMAP_HPP
#define VGPROF_VIEWER_HEATMAP_HPP

#include "diff_link.hpp"
#include "document.hpp"

#include <optional>
#include <string>
#include <vector>

namespace vgprof::viewer {

struct HeatColumn {
    std::string name;                  // "D1mr", or "D1 rate"
    std::string tooltip;               // what it counts, or the rate's formula
    std::optional<size_t> event;       // a miss event's index
    std::optional<MissRate> rate;      // or a miss rate
};

struct HeatRow {
    FnId fn;
    uint32_t line = 0;                 // line rows: the line number
    FileId file;                       // line rows: its file
    // One per column: the count, or the rate as a fraction; nullopt for a
    // rate with nothing to miss (no references).
    std::vector<std::optional<double>> cells;
};

struct Heatmap {
    std::vector<HeatColumn> columns;
    std::vector<HeatRow> rows;
    // Per column, the largest cell (diff mode: the largest change's size).
    std::vector<double> column_max;
    bool diff = false;
};

// The columns for `profile`; empty when it recorded no cache or branch
// simulation.
std::vector<HeatColumn> heat_columns(const Profile& profile);

// One row per function with at least one miss; with `diff`, cells are the
// change from the base (rates: the change in the rate).
Heatmap function_heatmap(const Document& doc, const DiffLink* diff);
// One row per source line of `fn` (in line order).
Heatmap line_heatmap(const Document& doc, FnId fn);

// Orders rows by a column, empty cells last; ties by function name and line.
void sort_heatmap(Heatmap& map, const Profile& profile, size_t column, bool descending);

// Where a cell falls on its column's scale: [0, 1], or [-1, 1] in diff mode.
// Rates go linearly from 0 to the column's largest; counts by logarithm.
double cell_position(const Heatmap& map, size_t column, double value);

} // namespace vgprof::viewer

#endif
