// SPDX-License-Identifier: GPL-2.0-or-later
// The views of vgprof-viewer. Each draws, with Dear ImGui, from the model
// (viewer/model) and the shared selection, and may change the selection;
// the work of deciding what to show lives in the model, built again only
// when what it depends on changed, never every frame.
#ifndef VGPROF_VIEWER_VIEWS_HPP
#define VGPROF_VIEWER_VIEWS_HPP

#include "call_neighbourhood.hpp"
#include "diff_link.hpp"
#include "document.hpp"
#include "flame_graph.hpp"
#include "function_table.hpp"
#include "graph_layout.hpp"
#include "heap_timeline.hpp"
#include "heatmap.hpp"
#include "selection.hpp"
#include "source_lines.hpp"

#include "vgprof/source.hpp"

#include <imgui.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace vgprof::viewer {

enum class ViewId { functions, callgraph, flamegraph, heatmap, source, heap };
inline constexpr ViewId kAllViews[] = {ViewId::functions, ViewId::callgraph, ViewId::flamegraph,
                                       ViewId::heatmap, ViewId::source, ViewId::heap};
// The name on the command line ("callgraph") and on the tab ("Call graph").
const char* view_key(ViewId view);
const char* view_title(ViewId view);
std::optional<ViewId> view_from_key(const std::string& key);

// What every view draws from.
struct ViewContext {
    const Document& doc;
    const DiffLink* diff;          // set in diff mode
    SelectionHistory& selection;
    size_t event = 0;              // the event chosen for colors and orders
};

class FunctionsView {
public:
    // A compact view (the list beside the other views) shows the chosen
    // event's columns only.
    FunctionsView(const Document& doc, const DiffLink* diff, bool compact)
        : table_(doc, diff), compact_(compact)
    {
    }
    void draw(ViewContext& ctx);
    // Puts the keyboard focus in the search box.
    void focus_search() { focus_search_ = true; }

private:
    FunctionTable table_;
    bool compact_;
    char search_[256] = "";
    bool focus_search_ = false;
    uint64_t seen_version_ = ~uint64_t(0);
    // Diff mode: the largest change's size per (event, self/inclusive).
    std::vector<int64_t> largest_change_;
};

class CallGraphView {
public:
    void draw(ViewContext& ctx);

private:
    void rebuild(ViewContext& ctx);
    void draw_canvas(ViewContext& ctx);

    std::optional<FnId> centre_;
    int depth_ = 2;
    int per_level_ = 6;
    // What the layout was made for; a change makes a new one.
    struct Key {
        std::optional<FnId> centre;
        size_t event = 0;
        int depth = 0, per_level = 0;
        float font = 0;
        bool operator==(const Key& o) const
        {
            return centre == o.centre && event == o.event && depth == o.depth &&
                   per_level == o.per_level && font == o.font;
        }
    };
    std::optional<Key> built_;
    Neighbourhood graph_;
    GraphLayout layout_;
    std::vector<std::string> labels_;
    std::string error_;
    uint64_t seen_version_ = ~uint64_t(0);
    uint64_t own_version_ = ~uint64_t(0);  // a selection made by clicking here
    bool scroll_to_centre_ = false;
};

class FlameGraphView {
public:
    void draw(ViewContext& ctx);

private:
    std::optional<PathId> zoom_;
    struct Key {
        size_t event = 0;
        std::optional<PathId> zoom;
        int width = 0;
        bool operator==(const Key& o) const
        {
            return event == o.event && zoom == o.zoom && width == o.width;
        }
    };
    std::optional<Key> built_;
    FlameGraph graph_;
    int64_t max_delta_ = 0;
};

class HeatmapView {
public:
    void draw(ViewContext& ctx);

private:
    bool by_line_ = false;
    struct Key {
        bool by_line = false;
        std::optional<FnId> fn;
        int sort_column = -1;
        bool descending = true;
        bool operator==(const Key& o) const
        {
            return by_line == o.by_line && fn == o.fn && sort_column == o.sort_column &&
                   descending == o.descending;
        }
    };
    std::optional<Key> built_;
    Heatmap map_;
    int legend_column_ = 0;
    uint64_t seen_version_ = ~uint64_t(0);
};

class SourceView {
public:
    void draw(ViewContext& ctx);

private:
    void rebuild(ViewContext& ctx, FnId fn);

    // Where source files are looked for, as `vgprof annotate` looks: empty,
    // the paths as the profile records them (relative ones from the
    // current directory), as long as the viewer takes no --source-dir.
    SourceSearch search_;
    std::map<std::string, std::string> texts_;  // file contents by path ("" with error_of_)
    std::map<std::string, std::string> read_errors_;
    struct Key {
        std::optional<FnId> fn;
        size_t event = 0;
        bool operator==(const Key& o) const { return fn == o.fn && event == o.event; }
    };
    std::optional<Key> built_;
    std::optional<SourceFile> file_;
    std::vector<uint64_t> allocated_;  // bytes per line number, when the profile has heap data
    std::string error_;
    std::vector<bool> shown_events_;
    bool scroll_to_hottest_ = false;
};

class HeapView {
public:
    void draw(ViewContext& ctx);

private:
    void draw_timeline(ViewContext& ctx, const Heap& heap, ImVec2 size);
    void draw_sites(ViewContext& ctx, const Heap& heap);

    std::optional<TimeWindow> window_;
    std::optional<uint64_t> drag_from_;
    std::vector<SiteId> site_order_;
    int sort_column_ = 0;
    bool sort_descending_ = true;
};

} // namespace vgprof::viewer

#endif
