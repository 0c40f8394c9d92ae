// SPDX-License-Identifier: GPL-2.0-or-later
// The data heatmap panel of the Heatmap view (view_data_heatmap.cpp): heap
// sites and globals by cache line (in diff mode, their changes), the
// functions that miss on the object selected, the data the selected
// function misses on, and that function's lines by miss event.
#ifndef VGPROF_VIEWER_VIEW_DATA_HEATMAP_HPP
#define VGPROF_VIEWER_VIEW_DATA_HEATMAP_HPP

#include "data_heatmap.hpp"
#include "heatmap.hpp"
#include "selection.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace vgprof::viewer {

struct ViewContext;

class DataHeatmapPanel {
public:
    void draw(ViewContext& ctx);

private:
    void draw_toolbar();
    // Follows the shared selection: a data object (or a heap site) selected
    // elsewhere becomes the map's chosen row.
    void follow_selection(ViewContext& ctx);
    void choose(ViewContext& ctx, DataObjId object);
    void draw_map(ViewContext& ctx);
    void draw_cells(const DataHeatRow& row, float cell_width, float row_height);
    void draw_functions_of_object(ViewContext& ctx);
    void draw_data_of_function(ViewContext& ctx, std::optional<FnId> fn);
    void draw_code(ViewContext& ctx, std::optional<FnId> fn);
    // The function whose data and lines show: the one that missed most on
    // the chosen object, until a function is selected after the view
    // opened (or when none is), then the selected one.
    std::optional<FnId> shown_function(ViewContext& ctx);

    size_t event_ = 1;  // a DataCost index: D1mr first
    struct MapKey {
        size_t event = 0;
        size_t columns = 0;
        bool operator==(const MapKey& o) const { return event == o.event && columns == o.columns; }
    };
    std::optional<MapKey> built_;
    std::optional<uint64_t> opened_at_;  // the selection's version when first drawn
    bool follow_selection_ = false;
    DataHeatmap map_;
    std::optional<DataObjId> object_;  // the row chosen, the worst at first
    bool scroll_to_object_ = false;
    uint64_t seen_version_ = ~uint64_t(0);  // of the selection, when last followed
    // Whether the function shown missed on each object, by object id.
    std::optional<FnId> marked_for_;
    std::vector<bool> marked_;
    struct CodeKey {
        FnId fn;
        size_t event = 0;
        bool operator==(const CodeKey& o) const { return fn == o.fn && event == o.event; }
    };
    std::optional<CodeKey> code_built_;
    Heatmap code_;
};

} // namespace vgprof::viewer

#endif
