// SPDX-License-Identifier: GPL-2.0-or-later
// Merging profiles (see merge.hpp). While adding, everything is kept under
// provisional ids in the order first seen, strings by their text and rows by
// keys of provisional ids; result() then sorts each table as the format
// orders it and renumbers.
#include "vgprof/merge.hpp"

#include "vgprof/error.hpp"
#include "vgprof/query.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>

namespace vgprof {

namespace {

// Stands for "none" in a key: the fn of a [truncated] path node, the parent
// of a root.
constexpr uint64_t kNone = UINT64_MAX;

template <size_t N>
using Key = std::array<uint64_t, N>;

template <size_t N>
struct KeyHash {
    size_t operator()(const Key<N>& key) const noexcept
    {
        uint64_t h = 0xcbf29ce484222325ULL;
        for (uint64_t part : key)
            h = (h ^ part) * 0x100000001b3ULL ^ (h >> 29);
        return size_t(h);
    }
};

// A table whose rows are identified by N integers, each row holding `width`
// numbers that are summed; rows are numbered in the order first seen.
template <size_t N>
class SummedRows {
public:
    explicit SummedRows(size_t width = 0) : width_(width) {}

    size_t size() const { return keys_.size(); }
    const Key<N>& key(size_t row) const { return keys_[row]; }
    uint64_t* values(size_t row) { return values_.data() + row * width_; }
    const uint64_t* values(size_t row) const { return values_.data() + row * width_; }

    // The row of `key`, added (all zeros) if new.
    size_t row(const Key<N>& key)
    {
        const auto [it, added] = row_of_.try_emplace(key, keys_.size());
        if (added) {
            keys_.push_back(key);
            values_.resize(values_.size() + width_, 0);
        }
        return it->second;
    }

    void clear() { *this = SummedRows(width_); }

private:
    size_t width_;
    std::unordered_map<Key<N>, size_t, KeyHash<N>> row_of_;
    std::vector<Key<N>> keys_;
    std::vector<uint64_t> values_;
};

// The rows 0..n-1 in the order `less` puts them.
template <typename Less>
std::vector<size_t> sorted_rows(size_t n, Less less)
{
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(), less);
    return order;
}

std::string joined(const std::vector<std::string>& words)
{
    std::string text;
    for (const std::string& w : words)
        text += (text.empty() ? "" : " ") + w;
    return text;
}

} // namespace

namespace detail {

class Merger {
public:
    void add(const Profile& p, const std::string& name);
    std::vector<std::string> notes() const;
    Profile result();

private:
    // How one profile's ids and events map to the sum's provisional ones.
    struct Mapping {
        std::vector<uint32_t> str;   // StrId -> provisional string
        std::vector<uint32_t> file;  // FileId -> provisional string of its path
        std::vector<uint32_t> fn;    // FnId -> provisional function
        std::vector<size_t> event;   // the sum's event e is the profile's event[e]
    };

    // A table or set of tables that not every profile has: the sum keeps
    // it only while every profile added has it.
    struct Part {
        explicit Part(const char* name) : what(name) {}

        const char* what;          // "call graph"
        bool kept = true;          // every profile so far has it
        bool seen = false;         // some profile has it
        std::string first_without; // the first profile without it

        // Returns whether `has` (the profile `name` has the part) makes the
        // sum leave the part out from now on.
        bool lost_by(bool has, const std::string& name)
        {
            seen |= has;
            if (has || !kept)
                return false;
            kept = false;
            first_without = name;
            return true;
        }
    };

    // A call graph's rows: calls {caller, callee, site file, site line} ->
    // count, costs; inclusive {fn} -> costs.
    struct GraphSums {
        SummedRows<4> calls;
        SummedRows<1> inclusive;
    };

    void start(const Profile& p, const std::string& name);
    void check_compatible(const Profile& p, const std::string& name) const;
    void keep_only_common_parts(const Profile& p, const std::string& name);
    GraphSums empty_graph() const { return {SummedRows<4>(1 + events_), SummedRows<1>(events_)}; }
    uint32_t intern(const std::string& s);
    Mapping map_ids(const Profile& p);
    void add_count(uint64_t& into, uint64_t n) const;
    void add_costs(uint64_t* into, const uint64_t* from, const Mapping& map) const;
    void add_meta(const Profile& p, const Mapping& map);
    void add_lines(const Profile& p, const Mapping& map);
    void add_graph(const CallGraph& g, const Mapping& map, GraphSums& sums);
    void add_paths(const Profile& p, const Mapping& map);

    void fold_thread_roots();
    void build_tables(Profile& out);
    void build_graph(const GraphSums& sums, CallGraph& out) const;
    std::vector<std::pair<uint64_t, PathId>> build_paths(Profile& out) const;

    bool started_ = false;
    std::string first_name_;
    std::string adding_;  // the profile being added, for messages
    Meta meta_;           // the first profile's, totals summed, merged runs listed
    size_t events_ = 0;
    Part call_graph_{"call graph"}, instrs_{"per-instruction costs"},
        threads_{"per-thread call graphs"};
    std::string first_with_heap_;  // the first profile with heap data, if any

    std::vector<std::string> strs_;
    std::unordered_map<std::string, uint32_t> str_of_;
    std::vector<bool> is_obj_, is_file_;  // by provisional string
    SummedRows<4> fns_;                   // {obj, name, file (strings), line}
    // The line an inlined function is keyed by: it has none (0), and it
    // must stay apart from a function of the same name without one.
    static constexpr uint32_t kInlinedLine = UINT32_MAX;
    SummedRows<3> lines_;                 // {fn, file string, line} -> costs
    SummedRows<4> instrs_rows_;           // {addr, fn, file string, line} -> costs
    GraphSums graph_;
    // {parent node (kNone: a root), fn (kNone: [truncated]), tid of a root's
    // thread (0: none)} -> count, self costs, inclusive costs.
    SummedRows<3> paths_;
    std::map<uint32_t, GraphSums> threads_sums_;

    // Provisional string -> final id (of strs, files and objs), provisional
    // function -> final fn id: filled by build_tables.
    std::vector<uint32_t> final_str_, final_file_, final_obj_, final_fn_;
};

void Merger::add(const Profile& p, const std::string& name)
{
    adding_ = name;
    if (!started_)
        start(p, name);
    check_compatible(p, name);
    keep_only_common_parts(p, name);
    const Mapping map = map_ids(p);
    add_meta(p, map);
    add_lines(p, map);
    if (call_graph_.kept) {
        add_graph(p.call_graph(), map, graph_);
        add_paths(p, map);
    }
    if (threads_.kept)
        for (const ThreadGraph& t : p.threads())
            add_graph(t, map, threads_sums_.try_emplace(t.tid, empty_graph()).first->second);
}

void Merger::start(const Profile& p, const std::string& name)
{
    started_ = true;
    first_name_ = name;
    const Meta& m = p.meta();
    events_ = m.events.size();
    meta_.tool = m.tool;
    meta_.tool_version = m.tool_version;
    meta_.valgrind = m.valgrind;
    meta_.argv = m.argv;
    meta_.options = m.options;
    meta_.events = m.events;
    meta_.cache = m.cache;
    meta_.exit_code = m.exit_code;
    meta_.killed = m.killed;
    meta_.dump_number = m.dump_number;
    meta_.dump_label = m.dump_label;
    meta_.totals.assign(events_, 0);
    // The first version with meta.merged.
    meta_.version = 4;
    lines_ = SummedRows<3>(events_);
    instrs_rows_ = SummedRows<4>(events_);
    graph_ = empty_graph();
    paths_ = SummedRows<3>(1 + 2 * events_);
}

// Costs of different events, or of differently simulated caches, do not
// add up to anything meaningful.
void Merger::check_compatible(const Profile& p, const std::string& name) const
{
    const Meta& m = p.meta();
    std::vector<std::string> mine = m.events, first = meta_.events;
    std::sort(mine.begin(), mine.end());
    std::sort(first.begin(), first.end());
    if (mine != first)
        throw Error(name + ": its events (" + joined(m.events) + ") differ from " + first_name_ +
                    "'s (" + joined(meta_.events) +
                    "); only profiles of the same events can be merged");
    if (!same_simulation(m.cache, meta_.cache))
        throw Error(name + ": its simulation (" + simulation_text(m.cache) + ") differs from " +
                    first_name_ + "'s (" + simulation_text(meta_.cache) +
                    "); only profiles of the same simulation can be merged");
}

// A table the sum has must hold every run's rows, or it would not add up
// to the totals: what one profile lacks, the sum leaves out.
void Merger::keep_only_common_parts(const Profile& p, const std::string& name)
{
    if (call_graph_.lost_by(p.has_call_graph(), name)) {
        graph_ = empty_graph();
        paths_.clear();
    }
    if (instrs_.lost_by(!p.instrs().empty(), name))
        instrs_rows_.clear();
    if (p.heap() && first_with_heap_.empty())
        first_with_heap_ = name;
    if (threads_.lost_by(p.has_thread_graphs(), name) || !call_graph_.kept) {
        threads_.kept = false;
        threads_sums_.clear();
    }
}

// Per-thread graphs come only with the call graph: without it, its loss is
// the one to tell. The heap is never merged.
std::vector<std::string> Merger::notes() const
{
    std::vector<std::string> notes;
    for (const Part* part : {&call_graph_, &instrs_, &threads_})
        if (!part->kept && part->seen && !(part == &threads_ && !call_graph_.kept))
            notes.push_back(part->first_without + " has no " + part->what +
                            ": the merged profile has none");
    if (!first_with_heap_.empty())
        notes.push_back(first_with_heap_ + " has heap data, which is not merged (a heap's peak, "
                                           "times and timeline are one run's): the merged "
                                           "profile has none");
    return notes;
}

uint32_t Merger::intern(const std::string& s)
{
    const auto [it, added] = str_of_.try_emplace(s, uint32_t(strs_.size()));
    if (added) {
        strs_.push_back(s);
        is_obj_.push_back(false);
        is_file_.push_back(false);
    }
    return it->second;
}

Merger::Mapping Merger::map_ids(const Profile& p)
{
    Mapping map;
    map.str.reserve(p.strs().size());
    for (const std::string& s : p.strs())
        map.str.push_back(intern(s));
    for (StrId obj : p.objs())
        is_obj_[map.str[obj.index()]] = true;
    for (StrId file : p.files()) {
        map.file.push_back(map.str[file.index()]);
        is_file_[map.file.back()] = true;
    }
    map.fn.reserve(p.functions().size());
    for (const Function& f : p.functions()) {
        const Key<4> key = {map.str[p.objs()[f.obj.index()].index()], map.str[f.name.index()],
                            map.file[f.file.index()], f.inlined ? kInlinedLine : f.line};
        map.fn.push_back(uint32_t(fns_.row(key)));
    }
    for (const std::string& event : meta_.events)
        map.event.push_back(*p.event_index(event));
    return map;
}

void Merger::add_count(uint64_t& into, uint64_t n) const
{
    if (__builtin_add_overflow(into, n, &into))
        throw Error(adding_ + ": adding its call counts to those of the profiles before it "
                              "exceeds 2^64-1");
}

void Merger::add_costs(uint64_t* into, const uint64_t* from, const Mapping& map) const
{
    for (size_t e = 0; e < events_; ++e)
        if (__builtin_add_overflow(into[e], from[map.event[e]], &into[e]))
            throw Error(adding_ + ": adding its " + meta_.events[e] +
                        " costs to those of the profiles before it exceeds 2^64-1");
}

void Merger::add_meta(const Profile& p, const Mapping& map)
{
    const Meta& m = p.meta();
    add_costs(meta_.totals.data(), m.totals.data(), map);
    // A merged profile stands for the runs it merged, not for itself.
    std::vector<MergedRun> runs = m.merged;
    if (runs.empty())
        runs.push_back(MergedRun{m.argv, m.options, m.totals, m.exit_code, m.killed, m.dump_number,
                                 m.dump_label});
    for (MergedRun& run : runs) {
        std::vector<uint64_t> totals(events_, 0);
        add_costs(totals.data(), run.totals.data(), map);
        run.totals = std::move(totals);
        meta_.merged.push_back(std::move(run));
    }
}

void Merger::add_lines(const Profile& p, const Mapping& map)
{
    for (size_t i = 0; i < p.lines().size(); ++i) {
        const LineCost& l = p.lines()[i];
        const size_t row = lines_.row({map.fn[l.fn.index()], map.file[l.file.index()], l.line});
        add_costs(lines_.values(row), p.line_cost(i), map);
    }
    if (!instrs_.kept)
        return;
    for (size_t i = 0; i < p.instrs().size(); ++i) {
        const InstrCost& c = p.instrs()[i];
        const size_t row =
            instrs_rows_.row({c.addr, map.fn[c.fn.index()], map.file[c.file.index()], c.line});
        add_costs(instrs_rows_.values(row), p.instr_cost(i), map);
    }
}

void Merger::add_graph(const CallGraph& g, const Mapping& map, GraphSums& sums)
{
    for (size_t i = 0; i < g.calls().size(); ++i) {
        const CallEdge& e = g.calls()[i];
        const size_t row = sums.calls.row(
            {map.fn[e.caller.index()], map.fn[e.callee.index()], map.file[e.file.index()], e.line});
        uint64_t* sum = sums.calls.values(row);
        add_count(sum[0], e.count);
        add_costs(sum + 1, g.call_cost(i), map);
    }
    for (size_t i = 0; i < g.inclusive_fns().size(); ++i) {
        const size_t row = sums.inclusive.row({map.fn[g.inclusive_fns()[i].index()]});
        add_costs(sums.inclusive.values(row), g.inclusive_cost(i), map);
    }
}

// A node is matched by its parent's node and its function, so two nodes
// are the same when the stacks from their roots are; parents come before
// their children, so a node's parent is always matched first.
void Merger::add_paths(const Profile& p, const Mapping& map)
{
    std::vector<uint64_t> tid_of_root(p.paths().size(), 0);
    if (threads_.kept)
        for (const ThreadGraph& t : p.threads())
            for (PathId root : t.roots)
                tid_of_root[root.index()] = t.tid;
    std::vector<uint64_t> node_of(p.paths().size());
    for (size_t i = 0; i < p.paths().size(); ++i) {
        const PathNode& node = p.paths()[i];
        const uint64_t parent = node.parent ? node_of[node.parent->index()] : kNone;
        const uint64_t fn = node.fn ? map.fn[node.fn->index()] : kNone;
        node_of[i] = paths_.row({parent, fn, tid_of_root[i]});
        uint64_t* sum = paths_.values(node_of[i]);
        add_count(sum[0], node.count);
        add_costs(sum + 1, p.path_self(i), map);
        add_costs(sum + 1 + events_, p.path_inclusive(i), map);
    }
}

Profile Merger::result()
{
    if (!started_)
        throw Error("no profiles to merge");
    if (!threads_.kept)
        fold_thread_roots();
    Profile out;
    out.meta_ = meta_;
    out.graph_.num_events_ = events_;
    build_tables(out);
    if (!call_graph_.kept)
        return out;
    out.has_call_graph_ = true;
    build_graph(graph_, out.graph_);
    const std::vector<std::pair<uint64_t, PathId>> roots = build_paths(out);
    if (!threads_.kept)
        return out;
    out.has_thread_graphs_ = true;
    for (const auto& [tid, sums] : threads_sums_) {
        ThreadGraph t;
        t.tid = tid;
        build_graph(sums, t);
        for (const auto& [root_tid, root] : roots)
            if (root_tid == tid)
                t.roots.push_back(root);
        out.threads_.push_back(std::move(t));
    }
    return out;
}

// Without per-thread graphs the roots of one function are one root, as the
// tool records them then; the nodes added while the profiles had threads
// kept theirs apart, so they are matched again without the thread.
void Merger::fold_thread_roots()
{
    const size_t width = 1 + 2 * events_;
    SummedRows<3> folded(width);
    std::vector<uint64_t> node_of(paths_.size());
    for (size_t row = 0; row < paths_.size(); ++row) {
        const Key<3>& key = paths_.key(row);
        const uint64_t parent = key[0] == kNone ? kNone : node_of[key[0]];
        node_of[row] = folded.row({parent, key[1], 0});
        uint64_t* sum = folded.values(node_of[row]);
        const uint64_t* values = paths_.values(row);
        for (size_t i = 0; i < width; ++i)
            add_count(sum[i], values[i]);
    }
    paths_ = std::move(folded);
}

void Merger::build_tables(Profile& out)
{
    const std::vector<size_t> by_text =
        sorted_rows(strs_.size(), [&](size_t a, size_t b) { return strs_[a] < strs_[b]; });
    final_str_.assign(strs_.size(), 0);
    for (size_t rank = 0; rank < by_text.size(); ++rank) {
        final_str_[by_text[rank]] = uint32_t(rank);
        out.strs_.push_back(strs_[by_text[rank]]);
    }
    // Objects and files are sorted by path: the order of their strings.
    final_obj_.assign(strs_.size(), 0);
    final_file_.assign(strs_.size(), 0);
    for (size_t s : by_text) {
        if (is_obj_[s]) {
            final_obj_[s] = uint32_t(out.objs_.size());
            out.objs_.push_back(StrId(final_str_[s]));
        }
        if (is_file_[s]) {
            final_file_[s] = uint32_t(out.files_.size());
            out.files_.push_back(StrId(final_str_[s]));
        }
    }

    const auto& f = fns_;
    const auto& str = final_str_;
    const std::vector<size_t> fn_order = sorted_rows(f.size(), [&](size_t a, size_t b) {
        const Key<4>&x = f.key(a), &y = f.key(b);
        return std::make_tuple(str[x[0]], str[x[1]], str[x[2]], x[3]) <
               std::make_tuple(str[y[0]], str[y[1]], str[y[2]], y[3]);
    });
    final_fn_.assign(f.size(), 0);
    for (size_t rank = 0; rank < fn_order.size(); ++rank) {
        const Key<4>& k = f.key(fn_order[rank]);
        final_fn_[fn_order[rank]] = uint32_t(rank);
        const bool inlined = k[3] == kInlinedLine;
        out.functions_.push_back(Function{StrId(str[k[1]]), FileId(final_file_[k[2]]),
                                          ObjId(final_obj_[k[0]]), inlined ? 0 : uint32_t(k[3]),
                                          inlined});
    }

    const auto& fn = final_fn_;
    const auto& file = final_file_;
    for (size_t row : sorted_rows(lines_.size(), [&](size_t a, size_t b) {
             const Key<3>&x = lines_.key(a), &y = lines_.key(b);
             return std::make_tuple(fn[x[0]], file[x[1]], x[2]) <
                    std::make_tuple(fn[y[0]], file[y[1]], y[2]);
         })) {
        const Key<3>& k = lines_.key(row);
        out.lines_.push_back(LineCost{FnId(fn[k[0]]), FileId(file[k[1]]), uint32_t(k[2])});
        out.line_costs_.insert(out.line_costs_.end(), lines_.values(row),
                               lines_.values(row) + events_);
    }
    if (!instrs_.kept)
        return;
    for (size_t row : sorted_rows(instrs_rows_.size(), [&](size_t a, size_t b) {
             const Key<4>&x = instrs_rows_.key(a), &y = instrs_rows_.key(b);
             return std::make_tuple(x[0], fn[x[1]], file[x[2]], x[3]) <
                    std::make_tuple(y[0], fn[y[1]], file[y[2]], y[3]);
         })) {
        const Key<4>& k = instrs_rows_.key(row);
        out.instrs_.push_back(
            InstrCost{k[0], FnId(fn[k[1]]), FileId(file[k[2]]), uint32_t(k[3])});
        out.instr_costs_.insert(out.instr_costs_.end(), instrs_rows_.values(row),
                                instrs_rows_.values(row) + events_);
    }
}

void Merger::build_graph(const GraphSums& sums, CallGraph& out) const
{
    const auto& fn = final_fn_;
    const auto& file = final_file_;
    const SummedRows<4>& calls = sums.calls;
    out.num_events_ = events_;
    for (size_t row : sorted_rows(calls.size(), [&](size_t a, size_t b) {
             const Key<4>&x = calls.key(a), &y = calls.key(b);
             return std::make_tuple(fn[x[0]], fn[x[1]], file[x[2]], x[3]) <
                    std::make_tuple(fn[y[0]], fn[y[1]], file[y[2]], y[3]);
         })) {
        const Key<4>& k = calls.key(row);
        const uint64_t* sum = calls.values(row);
        out.calls_.push_back(
            CallEdge{FnId(fn[k[0]]), FnId(fn[k[1]]), FileId(file[k[2]]), uint32_t(k[3]), sum[0]});
        out.call_costs_.insert(out.call_costs_.end(), sum + 1, sum + 1 + events_);
    }
    const SummedRows<1>& inclusive = sums.inclusive;
    for (size_t row : sorted_rows(inclusive.size(), [&](size_t a, size_t b) {
             return fn[inclusive.key(a)[0]] < fn[inclusive.key(b)[0]];
         })) {
        out.inclusive_fns_.push_back(FnId(fn[inclusive.key(row)[0]]));
        out.inclusive_costs_.insert(out.inclusive_costs_.end(), inclusive.values(row),
                                    inclusive.values(row) + events_);
    }
}

// Writes the tree depth first, roots and children sorted by function (the
// [truncated] node last) and roots of one function by thread, as the tool
// does. Returns each root's thread and id, in id order.
std::vector<std::pair<uint64_t, PathId>> Merger::build_paths(Profile& out) const
{
    const size_t nodes = paths_.size();
    const auto sort_key = [&](size_t node) {
        const Key<3>& k = paths_.key(node);
        return std::make_pair(k[1] == kNone ? kNone : uint64_t(final_fn_[k[1]]), k[2]);
    };
    const auto by_key = [&](size_t a, size_t b) { return sort_key(a) < sort_key(b); };
    std::vector<std::vector<size_t>> children(nodes);
    std::vector<size_t> roots;
    for (size_t node = 0; node < nodes; ++node) {
        const uint64_t parent = paths_.key(node)[0];
        (parent == kNone ? roots : children[parent]).push_back(node);
    }
    std::sort(roots.begin(), roots.end(), by_key);

    std::vector<std::pair<uint64_t, PathId>> root_ids;
    // (node, its parent's new id or kNone); an explicit stack, as trees
    // can be deep.
    std::vector<std::pair<size_t, uint64_t>> stack;
    for (size_t root : roots) {
        root_ids.emplace_back(paths_.key(root)[2], PathId(uint32_t(out.paths_.size())));
        stack.emplace_back(root, kNone);
        while (!stack.empty()) {
            const auto [node, parent] = stack.back();
            stack.pop_back();
            const uint32_t id = uint32_t(out.paths_.size());
            const Key<3>& k = paths_.key(node);
            const uint64_t* sum = paths_.values(node);
            PathNode n;
            if (parent != kNone)
                n.parent = PathId(uint32_t(parent));
            if (k[1] != kNone)
                n.fn = FnId(final_fn_[k[1]]);
            n.count = sum[0];
            out.paths_.push_back(n);
            out.path_costs_.insert(out.path_costs_.end(), sum + 1, sum + 1 + 2 * events_);
            std::vector<size_t>& below = children[node];
            std::sort(below.begin(), below.end(), by_key);
            // Pushed in reverse so that the first child comes out first.
            for (auto child = below.rbegin(); child != below.rend(); ++child)
                stack.emplace_back(*child, id);
        }
    }
    return root_ids;
}

} // namespace detail

ProfileMerger::ProfileMerger() : merger_(std::make_unique<detail::Merger>()) {}
ProfileMerger::~ProfileMerger() = default;

void ProfileMerger::add(const Profile& profile, const std::string& name)
{
    merger_->add(profile, name);
}

std::vector<std::string> ProfileMerger::notes() const { return merger_->notes(); }

Profile ProfileMerger::result() { return merger_->result(); }

} // namespace vgprof
