// SPDX-License-Identifier: GPL-2.0-or-later
// The views of vgprof-viewer. Each draws, with Dear ImGui, from the model
// (viewer/model) and the shared selection, and may change the selection;
// the work of deciding what to show lives in the model, built again only
// when what it depends on changed, never every frame.
#ifndef VGPROF_VIEWER_VIEWS_HPP
#define VGPROF_VIEWER_VIEWS_HPP

#include "call_neighbourhood.hpp"
#include "call_tree.hpp"
#include "diff_link.hpp"
#include "diff_scale.hpp"
#include "document.hpp"
#include "flame_graph.hpp"
#include "function_files.hpp"
#include "function_code.hpp"
#include "function_table.hpp"
#include "graph_labels.hpp"
#include "graph_layout.hpp"
#include "heap_allocations.hpp"
#include "heap_chart.hpp"
#include "heap_steps.hpp"
#include "heap_timeline.hpp"
#include "heap_tree.hpp"
#include "heatmap.hpp"
#include "icicle.hpp"
#include "merged_tree.hpp"
#include "selection.hpp"
#include "source_calls.hpp"
#include "source_lines.hpp"
#include "timeline_costs.hpp"
#include "timeline_spans.hpp"
#include "tree_indent.hpp"
#include "view_data_heatmap.hpp"

#include "vgprof/source.hpp"

#include <imgui.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace vgprof::viewer {

enum class ViewId {
    functions, calltree, bottomup, sandwich, callgraph, flamegraph, heatmap, source, heap, timeline
};
inline constexpr ViewId kAllViews[] = {ViewId::functions, ViewId::calltree,  ViewId::bottomup,
                                       ViewId::sandwich,  ViewId::callgraph, ViewId::flamegraph,
                                       ViewId::heatmap,   ViewId::source,    ViewId::heap,
                                       ViewId::timeline};
// The name on the command line ("callgraph") and on the tab ("Call graph").
const char* view_key(ViewId view);
const char* view_title(ViewId view);
std::optional<ViewId> view_from_key(const std::string& key);
// Whether the view shows the thread chosen (its calls and costs are in the
// thread's graph and part of the call-path tree), or always the whole
// program (source lines, the cache heatmap, the heap: not per thread).
bool shows_thread(ViewId view);

// The stretch of the run's time the views are narrowed to, chosen on the
// Timeline, and the timeline's spans as they nest, read through for it;
// one per open profile. Apart from the selection: picking a function in a
// view narrowed to a range keeps the range.
class TimelineFocus {
public:
    std::optional<TimeRange> range;
    // The nesting of the profile's spans, worked out the first time it is
    // asked for; nullptr without a timeline.
    const SpanTree* spans(const Profile& p);

private:
    std::optional<SpanTree> tree_;
};

// What every view draws from.
struct ViewContext {
    const Document& doc;
    const DiffLink* diff;          // set in diff mode
    SelectionHistory& selection;
    size_t event = 0;              // the event chosen for colors and orders
    DiffColoring coloring = DiffColoring::total;  // diff mode: what box colors show
    TimelineFocus* timeline = nullptr;  // the profile's (not in diff mode)

    // The range the views are narrowed to, when there is one and a
    // timeline to read it from.
    const TimeRange* range() const
    {
        return timeline && timeline->range && !diff ? &*timeline->range : nullptr;
    }
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
    // Narrows the table to the functions that missed on the data object
    // selected, unless asked to show every function for that selection;
    // else to those that ran in the range of time chosen, if any.
    void narrow_to_data(ViewContext& ctx);
    // The functions' costs in the range chosen on the Timeline, or nullptr.
    const RangeCosts* costs_in_range(ViewContext& ctx);

    FunctionTable table_;
    std::optional<RangeCosts> range_costs_;
    bool compact_;
    std::optional<uint64_t> show_all_at_;  // the selection's version when asked
    char search_[256] = "";
    bool focus_search_ = false;
    uint64_t seen_version_ = ~uint64_t(0);
    // Diff mode: the largest change's size per (event, self/inclusive).
    std::vector<int64_t> largest_change_;
};

// The call tree the Call tree, Bottom-up and Sandwich views share: the
// transforms and the search a person applied (a library collapsed in one
// view is collapsed in the others), and the tree built from them for the
// chosen event, built again only when one of those changed.
class SharedCallTree {
public:
    const CallTree& tree(const ViewContext& ctx);
    // Grows whenever tree() builds a new tree.
    uint64_t version() const { return version_; }

    const std::vector<TreeTransform>& transforms() const { return transforms_; }
    void push(TreeTransform t);
    // Keeps the first `count` transforms.
    void pop_to(size_t count);
    const std::string& search() const { return search_; }
    void set_search(std::string text);

private:
    std::vector<TreeTransform> transforms_;
    std::string search_;
    std::optional<CallTree> tree_;
    size_t event_ = 0;
    bool dirty_ = true;
    uint64_t version_ = 0;
};

// The Call tree (top-down) and Bottom-up (inverted) views: a tree table of
// the shared call tree, opened along its most expensive path, with the
// transforms a right-click offers.
class CallTreeView {
public:
    CallTreeView(SharedCallTree& shared, bool inverted) : shared_(&shared), inverted_(inverted) {}
    void draw(ViewContext& ctx);

private:
    void rebuild(ViewContext& ctx);
    void reveal(ViewContext& ctx, FnId fn);
    void draw_toolbar(ViewContext& ctx);
    void draw_table(ViewContext& ctx);
    void draw_row(ViewContext& ctx, uint32_t id);
    // Where the name cell of a row of `depth` puts its parts.
    RowIndent row_indent(uint32_t depth) const;
    void handle_keys(ViewContext& ctx);

    SharedCallTree* shared_;
    bool inverted_;
    std::optional<MergedTree> tree_;
    uint64_t built_version_ = ~uint64_t(0);
    std::optional<uint32_t> current_;        // the row selected here
    bool scroll_to_current_ = false;
    uint64_t seen_version_ = ~uint64_t(0);  // of the selection
    uint64_t own_version_ = ~uint64_t(0);   // a selection made by clicking here
    char search_[256] = "";
    DiffScale change_scale_ = DiffScale::counts(1);  // diff mode: the change column's colors
};

// The Sandwich view: the selected function in the middle, what called it
// above (an upside-down flame graph, callers of callers further up) and
// what it called below, each merged over every call of the function.
class SandwichView {
public:
    explicit SandwichView(SharedCallTree& shared) : shared_(&shared) {}
    void draw(ViewContext& ctx);

private:
    SharedCallTree* shared_;
    struct Key {
        std::optional<FnId> fn;
        uint64_t tree = 0;
        int width = 0;
        bool operator==(const Key& o) const { return fn == o.fn && tree == o.tree && width == o.width; }
    };
    std::optional<Key> built_;
    std::optional<MergedTree> callers_, callees_;
    Icicle callers_boxes_, callees_boxes_;
    bool scroll_callers_ = false;
};

class CallGraphView {
public:
    void draw(ViewContext& ctx);

private:
    void rebuild(ViewContext& ctx);
    void draw_canvas(ViewContext& ctx);
    void fit(ImVec2 avail);
    DiffScale change_scale(const ViewContext& ctx) const;

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
    std::vector<std::string> labels_;                 // the boxes' names, cut to fit
    std::vector<std::string> edge_labels_;            // "5,000x"
    std::vector<std::string> notes_;                  // "+3 callees", one per box ("" for none)
    PlacedLabels placed_;                             // where the edge labels and notes go
    std::vector<size_t> note_of_;                     // each box's note in placed_.notes, SIZE_MAX: none
    Point low_, high_;                                // the corners of the layout with its notes
    std::string error_;
    uint64_t seen_version_ = ~uint64_t(0);
    uint64_t own_version_ = ~uint64_t(0);  // a selection made by clicking here
    // The drawing's place in the canvas: layout point p is drawn at
    // canvas corner + pan_ + p * zoom_.
    float zoom_ = 1;
    ImVec2 pan_{0, 0};
    bool fit_pending_ = true;
};

class FlameGraphView {
public:
    void draw(ViewContext& ctx);

private:
    std::optional<uint32_t> zoom_;  // a node of tree_
    // The tree of the event shown, made again when the event changes.
    std::optional<FlameTree> tree_;
    struct Key {
        size_t event = 0;
        std::optional<uint32_t> zoom;
        int width = 0;
        bool operator==(const Key& o) const
        {
            return event == o.event && zoom == o.zoom && width == o.width;
        }
    };
    std::optional<Key> built_;
    FlameGraph graph_;
    int64_t max_total_delta_ = 1, max_own_delta_ = 1;  // diff mode, over the boxes
};

class HeatmapView {
public:
    void draw(ViewContext& ctx);

private:
    void draw_code_map(ViewContext& ctx);

    // What the view shows; it opens on the data heatmap, the worst data
    // objects first.
    bool data_ = true;
    DataHeatmapPanel data_panel_;
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

// The Source view: the selected function's source with each line's cost
// and, under a line, the calls made there with their inclusive cost; for
// code without source (no debug information, or a file not on this
// machine), its machine code with each instruction's cost
// (view_source_asm.cpp).
class SourceView {
public:
    void draw(ViewContext& ctx);
    // Whether an object file is being disassembled in the background.
    bool busy() const { return objects_.busy() || origins_.busy(); }
    // Whether the profile's source files are read wherever they are, not
    // only where vgprof/source.hpp allows a stranger's profile.
    void trust_profile(bool trust) { search_.trust_profile = trust; }
    // Shows the machine code (or the source) when both are there.
    void show_machine_code(bool machine_code) { prefer_machine_code_ = machine_code; }

private:
    // Reads and charges `file` (nullopt: `fn` has no source location).
    void rebuild(ViewContext& ctx, FnId fn, std::optional<FileId> file);
    // A new selection: a line opens its file (an inlined header's line
    // too), a function its first file.
    void follow_selection(ViewContext& ctx);
    // The files the function's code came from, each a button that opens it.
    void draw_files(ViewContext& ctx, FnId fn);
    void draw_source(ViewContext& ctx, const std::vector<size_t>& events);
    // A call made on a line; in diff mode its change from `base`, the
    // base's calls from the line to the same function (or none).
    void draw_call_row(ViewContext& ctx, const LineCall& call, const LineCall* base,
                       const std::vector<size_t>& events, int64_t max_delta);
    // The cells of a call row, one per event shown: the calls' inclusive
    // cost, or its change (`delta`, per event, non-empty in diff mode).
    static void call_cost_cells(const std::vector<size_t>& events, const std::vector<uint64_t>& inclusive,
                                const std::vector<int64_t>& delta, int64_t max_delta);
    // "-> 5 calls to helper (3.2% of Ir)", a link to the callee.
    static void call_link(ViewContext& ctx, FnId callee, uint64_t count, uint64_t inclusive);
    void draw_machine_code(ViewContext& ctx, FnId fn, const std::vector<size_t>& events);
    // The listing of `fn` and, in diff mode, its change from the base's;
    // nullopt while an object is being disassembled.
    std::optional<AsmListing> machine_code_of(ViewContext& ctx, FnId fn);
    // Diff mode: the change of the bytes allocated from line number `line`.
    int64_t allocated_change(uint32_t line) const;

    // Where source files are looked for, as `vgprof annotate` looks: empty,
    // the paths as the profile records them (relative ones from the
    // current directory), as long as the viewer takes no --source-dir; read
    // from the places annotate reads them from without --trust-profile
    // unless the viewer's --trust-profile says otherwise.
    SourceSearch search_;
    std::map<std::string, std::string> texts_;  // file contents by path ("" with error_of_)
    std::map<std::string, std::string> read_errors_;
    struct Key {
        std::optional<FnId> fn;
        size_t event = 0;
        bool operator==(const Key& o) const { return fn == o.fn && event == o.event; }
    };
    std::optional<Key> built_;
    std::optional<FileId> built_file_;    // the file of built_
    FunctionFiles files_;                 // of built_'s function
    std::optional<FileId> shown_file_;    // the file to show (nullopt: none known)
    uint64_t seen_version_ = ~uint64_t(0);
    uint64_t own_version_ = ~uint64_t(0);    // the selection made here
    std::optional<uint32_t> scroll_to_line_;  // a line selected elsewhere  // a line selected elsewhere
    std::optional<SourceFile> file_;
    std::vector<uint64_t> allocated_;       // bytes per line number, when the profile has heap data
    std::vector<uint64_t> base_allocated_;  // the same in the base profile (diff mode)
    FileCalls calls_, base_calls_;     // the calls made from the file's lines (base: diff mode)
    // The table's rows: a source line (call < 0) or a call made on it.
    struct Row {
        uint32_t line = 0;  // index in file_->lines
        int call = -1;      // index in calls_.by_line[line number]
    };
    std::vector<Row> rows_;
    std::string error_;
    std::vector<bool> shown_events_;
    bool scroll_to_hottest_ = false;
    // Machine code: shown when there is no source, or when asked for.
    bool machine_code_ = false;
    bool prefer_machine_code_ = false;  // asked for on the command line, until a click says otherwise
    ObjectCodeCache objects_;
    std::optional<AsmListing> listing_;
    std::optional<Key> listing_built_;
    bool listing_has_origins_ = false;  // or they are being read
    OriginsCache origins_;
    // A row of the machine code: an instruction, a call it made, the
    // source line (with its inline chain) the next instructions came
    // from, or a jump target's label.
    struct AsmRow {
        enum class Kind { instruction, call, source, label };
        Kind kind = Kind::instruction;
        uint32_t line = 0;  // index in listing_->lines
        int call = -1;      // call: index in its calls
        std::string text;   // source: the line's place and text
        std::string chain;  // source: the inlined calls it lies in, outward
        std::optional<FileId> file;  // source: the profile's file of that name
    };
    // The rows of listing_, its source lines read where search_ allows.
    void build_asm_rows(ViewContext& ctx);
    // The text of source file `path` (as the profile names it), or nullptr
    // when it cannot be read (read_errors_ says why).
    const std::string* source_text(const std::string& path);
    std::vector<AsmRow> asm_rows_;
    std::optional<size_t> scroll_to_asm_line_;  // a jump's target, to scroll to
};

// The Timeline view: the run's calls as a flame chart over instruction
// time, a lane per thread, the marks across it, and under it on the same
// axis the live heap and what the chosen event cost in each stretch
// (view_timeline.cpp).
class TimelineView {
public:
    void draw(ViewContext& ctx);
    // Where the time axis lies on screen (view_timeline.cpp).
    struct Geometry;

private:
    void draw_toolbar(ViewContext& ctx, const Timeline& t);
    void draw_axis(ViewContext& ctx, const Geometry& g);
    void draw_phases(ViewContext& ctx, const Geometry& g, const Timeline& t);
    void draw_lanes(ViewContext& ctx, const Geometry& g, const SpanTree& tree);
    void draw_heap_track(ViewContext& ctx, const Geometry& g);
    static void sites_live_at(ViewContext& ctx, const HeapSteps& steps, uint64_t t);
    // The models of the heap's changes, built once for `heap`.
    void read_changes(const Heap& heap);
    void draw_cost_track(ViewContext& ctx, const Geometry& g, const SpanTree& tree);
    // The blocks allocated per stretch, from the heap's changes.
    void draw_allocation_track(ViewContext& ctx, const Geometry& g);
    void draw_marks(const Geometry& g, const Timeline& t, float y0, float y1, bool labels);
    void span_tooltip(ViewContext& ctx, const SpanTree& tree, const SpanBox& box);
    // Wheel zoom, drag pan, shift+drag range, over the area just drawn.
    void handle_mouse(ViewContext& ctx, const Geometry& g, bool hovered);

    std::optional<TimeWindow> window_;
    std::optional<size_t> cost_event_;       // the cost track's; the toolbar's at first
    std::optional<uint64_t> range_from_;     // a shift+drag under way
    bool panning_ = false;
    std::optional<SpanBox> hovered_;         // the span under the pointer
    struct CostKey {
        uint64_t t0 = 0, t1 = 0;
        size_t event = 0;
        int width = 0;
        bool operator==(const CostKey& o) const
        {
            return t0 == o.t0 && t1 == o.t1 && event == o.event && width == o.width;
        }
    };
    std::optional<CostKey> cost_built_;
    std::vector<double> cost_columns_;
    std::optional<CostKey> heap_built_;
    std::vector<TimelineBucket> heap_columns_;
    const Heap* changes_of_ = nullptr;   // the heap steps_ and allocations_ were built from
    std::optional<HeapSteps> steps_;
    std::optional<HeapAllocations> allocations_;
    std::optional<CostKey> allocations_built_;
    std::vector<AllocationBucket> allocation_columns_;
};

enum class HeapPanel { sites, flamegraph, summary };
// "sites", "flamegraph", "summary" (the command line's names).
std::optional<HeapPanel> heap_panel_from_key(const std::string& key);

class HeapView {
public:
    void draw(ViewContext& ctx);
    // The panel under the chart to show (once; then the tabs decide).
    void show_panel(HeapPanel panel) { show_panel_ = panel; }

private:
    void draw_chart(ViewContext& ctx, const Heap& heap, ImVec2 size);
    void draw_chart_legend(ViewContext& ctx, const Heap& heap);
    void draw_sites(ViewContext& ctx, const Heap& heap);
    void draw_range_sites(ViewContext& ctx, const Heap& heap, const Selection& range);
    void draw_flame(ViewContext& ctx, const Heap& heap);
    void draw_summary(ViewContext& ctx, const Heap& heap);

    // The chart: the time shown, a drag under way, the sites given bands.
    std::optional<TimeWindow> window_;
    std::optional<uint64_t> drag_from_;
    std::optional<uint64_t> chosen_time_;  // clicked on the chart
    int band_count_ = 8;
    bool show_blocks_ = false;
    struct ChartKey {
        uint64_t t0 = 0, t1 = 0;
        int width = 0, bands = 0;
        bool operator==(const ChartKey& o) const
        {
            return t0 == o.t0 && t1 == o.t1 && width == o.width && bands == o.bands;
        }
    };
    std::optional<ChartKey> chart_built_;
    HeapChart chart_;
    HeapChart base_chart_;  // diff mode: the base's outline
    // The running live bytes of a heap with changes, built once (the
    // profile's, and in diff mode the base's); null without changes.
    const HeapSteps* steps_of(const Heap& heap);
    std::map<const Heap*, std::optional<HeapSteps>> steps_;

    // The sites table.
    std::vector<SiteId> site_order_;
    bool range_only_ = true;

    // The allocation flame graph.
    HeapMeasure measure_ = HeapMeasure::bytes;
    struct FlameKey {
        HeapMeasure measure = HeapMeasure::bytes;
        uint64_t time = 0;
        int width = 0;
        std::optional<TimeRange> range;
        bool operator==(const FlameKey& o) const
        {
            return measure == o.measure && time == o.time && width == o.width && range == o.range;
        }
    };
    std::optional<FlameKey> flame_built_;
    std::optional<CallTree> alloc_tree_;
    std::optional<MergedTree> alloc_merged_;
    Icicle alloc_boxes_;

    std::optional<HeapPanel> show_panel_;
};

} // namespace vgprof::viewer

#endif
