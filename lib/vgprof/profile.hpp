// SPDX-License-Identifier: GPL-2.0-or-later
// The in-memory profile: the tables of docs/profile-format.md as typed rows
// with strong ids, plus flat cost storage. Everything that reads a profile
// (the CLI, exporters, the viewer) works on this model, never on JSON.
#ifndef VGPROF_PROFILE_HPP
#define VGPROF_PROFILE_HPP

#include "vgprof/data.hpp"
#include "vgprof/ids.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vgprof {

// The newest profile format version this library reads.
inline constexpr int kNewestVersion = 11;

// One simulated cache, as cachegrind's --I1, --D1 and --LL options give it.
struct CacheGeometry {
    uint64_t size = 0;       // bytes
    uint64_t assoc = 0;      // ways
    uint64_t line_size = 0;  // bytes
};

// meta.cache: what was simulated besides counting instructions. The
// caches come all three or not at all (only branches were simulated), with
// the events I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw; `branches` comes with the
// events Bc Bcm Bi Bim.
struct CacheConfig {
    std::optional<CacheGeometry> i1, d1, ll;
    bool branches = false;
};

// One entry of meta.merged (format version 4): a run whose costs a merged
// profile adds up, described by the facts of its own profile's meta that
// do not vary between identical runs.
struct MergedRun {
    std::vector<std::string> argv, options;
    std::vector<uint64_t> totals;        // one per event of the merged profile
    std::optional<int64_t> exit_code;    // none: the run's profile was a dump, or killed
    bool killed = false;                 // the client was killed by a signal
    std::optional<int64_t> dump_number;  // the run's meta.dump, if any
    std::string dump_label;
    std::optional<int> signal;           // the signal that killed it, when known
};

// meta.fingerprint (format version 7): what besides the program, its
// arguments and the tool's options moves the counts of a run.
struct Fingerprint {
    // One variable of the environment the program started with, in the
    // order it saw them: the name and a hash of the value (FNV-1a, 64 bits,
    // 16 hex digits); the value itself is not kept.
    struct EnvVar {
        std::string name, hash;
        friend bool operator==(const EnvVar& a, const EnvVar& b)
        {
            return a.name == b.name && a.hash == b.hash;
        }
    };
    std::string cwd;        // the working directory it started in
    uint64_t env_bytes = 0; // the bytes of its "NAME=value" strings, terminators included
    std::vector<EnvVar> env;
    // Valgrind's own options (not the tool's, which are Meta::options), in
    // the order given, those of ~/.valgrindrc and $VALGRIND_OPTS included.
    std::vector<std::string> valgrind_options;
};

// The profile's `meta` section.
struct Meta {
    // tool: "vgprof", or for a file read from another tool's output, that
    // tool ("callgrind", "cachegrind"). A callgrind or cachegrind file has
    // no options, exit code or version (0) of its own.
    std::string tool, tool_version, valgrind;
    std::vector<std::string> argv, options, events;
    std::vector<uint64_t> totals;        // one per event
    std::optional<CacheConfig> cache;    // meta.cache (none: null, nothing simulated)
    std::optional<int64_t> exit_code;    // meta.exit.code (none: dumped mid-run, or killed)
    bool killed = false;                 // meta.exit.killed: killed by a signal, no status
    std::optional<int> signal;           // meta.exit.signal (version 5): which, when known
    std::optional<int64_t> dump_number;  // meta.dump.number: a client-requested dump
    std::string dump_label;              // meta.dump.label
    // meta.merged: the runs a profile written by `vgprof merge` adds up, in
    // the order given; empty for the profile of one run.
    std::vector<MergedRun> merged;
    // meta.allocators (format version 5, with the heap): the families of
    // allocator functions whose calls made or freed blocks.
    std::optional<std::vector<std::string>> allocators;
    // meta.fingerprint (format version 7); none in older profiles and in
    // callgrind's, cachegrind's and DHAT's files.
    std::optional<Fingerprint> fingerprint;
    // meta.run: the facts that vary between identical runs.
    std::optional<int64_t> pid, ppid, elapsed_ms;
    int version = 0;                     // the top-level "vgprof" key
};

// A row of `fns`.
struct Function {
    StrId name;
    FileId file;    // source location of the entry point
    ObjId obj;
    uint32_t line = 0;
    // A function the compiler inlined (format version 7), known from the
    // debug info's inlined calls by its name in its object: it has no entry
    // point, its file is "???" and its line 0.
    bool inlined = false;
};

// A row of `inlines` (format version 7): function `fn`, an inlined one, whose
// code was inlined at file:line of its caller's code, the caller being the
// inlined call `parent` (an index into inlined_calls()) or, without one,
// the function whose code holds it.
struct InlinedCall {
    FnId fn;
    std::optional<uint32_t> parent;
    FileId file;
    uint32_t line = 0;
};

// A row of `inline_lines` without its costs: the part of the `lines` row
// (fn, file, line) whose code is that of the inlined call `inl` (innermost).
struct InlinedLine {
    FnId fn;
    uint32_t inl = 0;
    FileId file;
    uint32_t line = 0;
};

// A row of `lines` without its costs (see Profile::line_cost).
struct LineCost {
    FnId fn;
    FileId file;
    uint32_t line = 0;
};

// A row of `instrs` without its costs (see Profile::instr_cost).
struct InstrCost {
    uint64_t addr = 0;
    FnId fn;
    FileId file;
    uint32_t line = 0;
};

// A row of `calls` without its costs (see Profile::call_cost): the calls
// from `caller` to `callee` made at one call site.
struct CallEdge {
    FnId caller;
    FnId callee;
    FileId file;        // call site: the calling instruction's source location
    uint32_t line = 0;
    uint64_t count = 0; // number of calls
    uint64_t addr = 0;  // the calling instruction's address (version 8); 0: not recorded
};

// A row of `paths` without its costs (see Profile::path_self and
// Profile::path_inclusive): one distinct stack of functions from a root.
struct PathNode {
    std::optional<PathId> parent;  // nullopt: a root
    std::optional<FnId> fn;        // nullopt: the [truncated] node
    uint64_t count = 0;            // calls that entered the node (0 for a root)
};

// --- the heap (format version 3; absent with --heap=no) ---

// A row of `heap.frames`: one frame of an allocation stack. The first frame
// of a stack is in the allocator itself (malloc, operator new...); the
// others are the calling instructions of its callers.
struct HeapFrame {
    uint64_t addr = 0;
    FnId fn;
    FileId file;
    uint32_t line = 0;
};

// A row of `heap.sites`: everything the blocks allocated from one stack did.
// Times are in instructions executed; "peak" figures are those at the
// moment the whole program's live bytes peaked (t-gmax), "end" those still
// live when the run (or the dump) ended (t-end: never freed).
struct HeapSite {
    std::vector<FrameId> frames;   // innermost (the allocator) first
    uint64_t bytes = 0, blocks = 0;        // allocated in all
    uint64_t lifetimes = 0;                // summed over the blocks
    uint64_t max_bytes = 0, max_blocks = 0;     // the site's own highest live figures
    uint64_t peak_bytes = 0, peak_blocks = 0;   // live at the program's peak
    uint64_t end_bytes = 0, end_blocks = 0;     // live at the end
    uint64_t reads = 0, writes = 0;        // bytes read and written inside the blocks
    // When every block had the same size of at most 1024 bytes: how many
    // times each byte offset was read or written, summed over the blocks
    // (DHAT's access histogram). Empty otherwise.
    std::vector<uint32_t> accesses;
};

// `heap.totals`: the program's figures, DHAT's summary lines, over the
// period the profile describes (Heap::start_time); `heap.whole_run`: the
// same over the whole run.
struct HeapTotals {
    uint64_t bytes = 0, blocks = 0;
    // (version 9) freed in the period; a realloc frees the old block as it
    // allocates the new one. 0 in older profiles.
    uint64_t freed_bytes = 0, freed_blocks = 0;
    uint64_t peak_bytes = 0, peak_blocks = 0, peak_time = 0;
    uint64_t end_bytes = 0, end_blocks = 0, end_time = 0;
    uint64_t reads = 0, writes = 0;
};

// A point of `heap.timeline`: the highest live bytes within one interval of
// the timeline's width, with the time they were reached.
struct HeapSample {
    uint64_t time = 0, bytes = 0, blocks = 0;
};

// A row of a snapshot: one site's live figures then.
struct SnapshotSite {
    SiteId site;
    uint64_t bytes = 0, blocks = 0;
};

// An element of `heap.snapshots`: what was live at one moment and the
// largest sites then.
struct HeapSnapshot {
    enum class Kind { periodic, peak, end };
    Kind kind = Kind::periodic;
    uint64_t time = 0, bytes = 0, blocks = 0;
    std::vector<SnapshotSite> sites;   // largest first
};

// (version 11) A row of `heap.changes`: what one site allocated (a
// realloc's new size among them) and freed within one stretch of time,
// [time, time + HeapChanges::width).
struct HeapChange {
    SiteId site;
    uint64_t time = 0;
    uint64_t bytes = 0, blocks = 0, freed_bytes = 0, freed_blocks = 0;
};

// (version 11) What each site allocated and freed over the period, in
// stretches of `width` instructions (1: at each instruction, exact): the
// rows of a site in time order, the sites in order.
struct HeapChanges {
    uint64_t width = 1;
    uint64_t max = 0;   // rows kept beyond two per site (--heap-changes)
    std::vector<HeapChange> rows;
};

struct Heap {
    uint32_t depth = 0;    // frames unwound per allocation (--heap-depth)
    // (version 9) The period the figures describe, as the costs do: from
    // the last zero or dump (0: the start of the run) to the profile, and
    // what was live when it began. Blocks live then count in what is live
    // (at the peak, at the end, a site's highest) but not as allocated,
    // nor their lifetimes.
    uint64_t start_time = 0, start_bytes = 0, start_blocks = 0;
    HeapTotals totals;
    // (version 9) The whole run's figures, from its start: equal to
    // totals when no zero or dump came before. nullopt in older profiles,
    // whose figures are the whole run's.
    std::optional<HeapTotals> whole_run;
    std::vector<HeapFrame> frames;
    std::vector<HeapSite> sites;
    uint64_t sample_width = 0;   // instructions per timeline interval
    std::vector<HeapSample> samples;
    std::vector<HeapSnapshot> snapshots;   // in time order
    std::optional<HeapChanges> changes;    // version 11; nullopt before

    const HeapFrame& frame(FrameId id) const { return frames[id.index()]; }
    const HeapSite& site(SiteId id) const { return sites[id.index()]; }
};

// --- the timeline (format version 10; absent with --timeline=no or --call-graph=no) ---

// A moment of the run: its time (instructions executed), the heap live then
// (0 without the heap) and the running totals of every event.
struct TimelineMoment {
    uint64_t time = 0, live_bytes = 0, live_blocks = 0;
    std::vector<uint64_t> totals;   // one per event
};

// A mark: VGPROF_MARK(label), `vgprof control PID mark LABEL`, or a dump.
struct TimelineMark : TimelineMoment {
    uint32_t thread = 0;   // Valgrind's thread id
    std::string label;
};

// A call that lasted [start, end] (a frame cut there without returning,
// when open), with its costs: the path node's for that call.
struct TimelineSpan {
    uint32_t thread = 0;   // Valgrind's thread id
    uint32_t depth = 0;    // frames of functions below it on its thread's stack
    FnId fn;
    PathId node;
    uint64_t start = 0, end = 0;
    bool open = false;
};

struct Timeline {
    uint64_t threshold = 1;     // closed spans are at least this long
    uint64_t max_spans = 0;     // --timeline-spans
    uint64_t dropped = 0;       // calls that ended in the period without a span
    uint64_t marks_dropped = 0;
    TimelineMoment begin, end;  // the period the profile covers
    std::vector<TimelineSpan> spans;
    std::vector<uint64_t> span_costs;   // num_events per span
    std::vector<TimelineMark> marks;    // in time order
};

class ProfileBuilder;

namespace detail {
// Proof that tables passed ProfileBuilder's checks: only the builder makes
// one, so a Profile or CallGraph exists only once its ids are known to be
// within their tables.
class Checked {
    Checked() = default;
    friend class vgprof::ProfileBuilder;
};
} // namespace detail

// A call graph's tables as a builder fills them (see CallGraph).
struct CallGraphTables {
    size_t num_events = 0;
    std::vector<CallEdge> calls;
    std::vector<uint64_t> call_costs;     // num_events per row of calls
    // The functions with an `inclusive` row, ascending, and their costs in
    // the same order. Sorted rows rather than a row number per function:
    // a profile holds one graph per thread, and a per-function index in each
    // would cost more than the rows themselves in a program with many
    // threads and functions.
    std::vector<FnId> inclusive_fns;
    std::vector<uint64_t> inclusive_costs;
};

// A call graph: call edges and each function's inclusive cost. The whole
// program has one (Profile::call_graph()) and, recorded with
// --separate-threads=yes, so does each thread (ThreadGraph), so a query
// written against CallGraph answers for either.
class CallGraph {
public:
    CallGraph() = default;
    CallGraph(CallGraphTables tables, const detail::Checked&) : t_(std::move(tables)) {}

    const std::vector<CallEdge>& calls() const { return t_.calls; }
    // The num_events() inclusive costs of calls()[row], summed over its calls.
    const uint64_t* call_cost(size_t row) const { return &t_.call_costs[row * t_.num_events]; }
    // The num_events() inclusive costs of `fn` (its `inclusive` row), or
    // nullptr when the graph has no such row (the function was never on a
    // stack of this graph, or there is no call graph).
    const uint64_t* fn_inclusive(FnId fn) const;
    size_t num_events() const { return t_.num_events; }

    // The functions with an inclusive row, ascending, and the num_events()
    // costs of the row of inclusive_fns()[row].
    const std::vector<FnId>& inclusive_fns() const { return t_.inclusive_fns; }
    const uint64_t* inclusive_cost(size_t row) const
    {
        return &t_.inclusive_costs[row * t_.num_events];
    }

    // The tables back, to be changed and checked again (ProfileBuilder).
    CallGraphTables take_tables() && { return std::move(t_); }

private:
    CallGraphTables t_;
};

// One thread's own call graph (an element of `threads`): the calls it made
// and what ran while each function was on its stacks. A thread number
// Valgrind reused stands for every thread that had it, one after another.
struct ThreadGraph : CallGraph {
    uint32_t tid = 0;             // Valgrind's thread number (1: the main thread)
    std::vector<PathId> roots;    // the path-tree roots this thread's stacks began at
};

// A thread's graph as a builder fills it.
struct ThreadTables {
    uint32_t tid = 0;
    std::vector<PathId> roots;
    CallGraphTables graph;
};

// Everything a Profile holds, as plain tables: what ProfileBuilder fills
// (or a reader that keeps a file's own numbering fills and hands to it) and
// checks before it becomes a Profile.
struct ProfileTables {
    Meta meta;
    std::vector<std::string> strs;
    std::vector<StrId> objs;
    std::vector<StrId> files;
    std::vector<Function> functions;
    std::vector<LineCost> lines;
    std::vector<uint64_t> line_costs;
    std::vector<InlinedCall> inlined_calls;
    std::vector<InlinedLine> inlined_lines;
    std::vector<uint64_t> inlined_line_costs;
    std::vector<InstrCost> instrs;
    std::vector<uint64_t> instr_costs;
    bool has_call_graph = false;
    CallGraphTables graph;
    std::vector<PathNode> paths;
    std::vector<uint64_t> path_costs;   // per node: self costs, then inclusive costs
    bool has_thread_graphs = false;
    std::vector<ThreadTables> threads;
    std::optional<Heap> heap;
    std::optional<DataProfile> data;
    std::optional<Timeline> timeline;

    size_t num_events() const { return meta.events.size(); }
};

// A loaded, validated profile. Every id it holds is within its table, so
// accessors index without checking. Costs live in one flat vector per table
// (row-major, num_events() per row) because a large profile has millions of
// rows and a vector per row would triple its memory.
class Profile {
public:
    Profile() = default;
    Profile(ProfileTables tables, const detail::Checked& checked);

    const Meta& meta() const { return t_.meta; }
    size_t num_events() const { return t_.meta.events.size(); }
    // Position of an event in every cost array, or nullopt if not recorded.
    std::optional<size_t> event_index(std::string_view event) const;

    const std::vector<std::string>& strs() const { return t_.strs; }
    const std::vector<StrId>& objs() const { return t_.objs; }
    const std::vector<StrId>& files() const { return t_.files; }
    const std::vector<Function>& functions() const { return t_.functions; }
    const std::vector<LineCost>& lines() const { return t_.lines; }
    const std::vector<InstrCost>& instrs() const { return t_.instrs; }

    const std::string& str(StrId id) const { return t_.strs[id.index()]; }
    const std::string& obj_path(ObjId id) const { return str(t_.objs[id.index()]); }
    const std::string& file_path(FileId id) const { return str(t_.files[id.index()]); }
    const Function& function(FnId id) const { return t_.functions[id.index()]; }
    const std::string& fn_name(FnId id) const { return str(function(id).name); }

    // The num_events() costs of lines()[row] / instrs()[row].
    const uint64_t* line_cost(size_t row) const { return &t_.line_costs[row * num_events()]; }
    const uint64_t* instr_cost(size_t row) const { return &t_.instr_costs[row * num_events()]; }

    // Inlined calls and the costs of inlined code (format version 7; empty
    // before, and for callgrind and cachegrind files).
    const std::vector<InlinedCall>& inlined_calls() const { return t_.inlined_calls; }
    const std::vector<InlinedLine>& inlined_lines() const { return t_.inlined_lines; }
    const uint64_t* inlined_line_cost(size_t row) const
    {
        return &t_.inlined_line_costs[row * num_events()];
    }

    // --- the call graph (format version 2, absent with --call-graph=no) ---

    // False for a version 1 profile, one recorded without a call graph and
    // a cachegrind file; then calls() and paths() are empty and
    // fn_inclusive() is always null.
    bool has_call_graph() const { return t_.has_call_graph; }
    // The whole program's graph: each call and cost of every thread, summed.
    const CallGraph& call_graph() const { return graph_; }
    const std::vector<CallEdge>& calls() const { return graph_.calls(); }
    // The call-path tree; empty for a callgrind file, which records calls
    // and inclusive costs but not the paths that led to them.
    const std::vector<PathNode>& paths() const { return t_.paths; }
    const PathNode& path(PathId id) const { return t_.paths[id.index()]; }
    // Forgets the call-path tree and the threads' roots in it, keeping the
    // calls and inclusive costs: the profile is then one a callgrind file
    // gives. For a reader that compares functions and lines alone (vgprof
    // diff): the tree is the largest table of most profiles.
    void drop_call_paths();

    // As CallGraph's, for the whole program's graph.
    const uint64_t* call_cost(size_t row) const { return graph_.call_cost(row); }
    const uint64_t* fn_inclusive(FnId fn) const { return graph_.fn_inclusive(fn); }
    // The num_events() self / inclusive costs of paths()[row].
    const uint64_t* path_self(size_t row) const { return &t_.path_costs[2 * row * num_events()]; }
    const uint64_t* path_inclusive(size_t row) const
    {
        return &t_.path_costs[(2 * row + 1) * num_events()];
    }

    // --- per-thread call graphs (only with --separate-threads=yes) ---

    // True when the profile has a `threads` table (possibly empty: a run
    // that collected no calls at all).
    bool has_thread_graphs() const { return t_.has_thread_graphs; }
    // Each thread's graph, by ascending tid; every root of paths() is in
    // exactly one thread's roots.
    const std::vector<ThreadGraph>& threads() const { return threads_; }
    // The graph of thread `tid`, or nullptr when there is none.
    const ThreadGraph* thread(uint32_t tid) const;

    // --- the heap (format version 3, absent with --heap=no) ---

    // nullptr when the profile has no heap data.
    const Heap* heap() const { return t_.heap ? &*t_.heap : nullptr; }

    // --- data objects (format version 7, with the heap and the cache simulated) ---

    // nullptr when the profile does not say which data was accessed.
    const DataProfile* data() const { return t_.data ? &*t_.data : nullptr; }

    // --- the timeline (format version 10) ---

    // nullptr when the profile has no timeline.
    const Timeline* timeline() const { return t_.timeline ? &*t_.timeline : nullptr; }
    // The num_events() costs of timeline()->spans[i].
    const uint64_t* span_cost(size_t i) const { return &t_.timeline->span_costs[i * num_events()]; }

    // The tables back, as ProfileBuilder checked them, to be changed and
    // checked again (ProfileBuilder::finish): how a profile grows derived
    // events. The profile is left empty.
    ProfileTables take_tables() &&;

private:
    // Every table but the call graphs, which graph_ and threads_ hold (the
    // tables' own are left empty).
    ProfileTables t_;
    CallGraph graph_;
    std::vector<ThreadGraph> threads_;
};

} // namespace vgprof

#endif
