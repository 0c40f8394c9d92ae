// SPDX-License-Identifier: GPL-2.0-or-later
// Merging profiles (see merge.hpp). Each profile's strings, objects, files
// and functions are interned in a ProfileBuilder and its rows added under
// the builder's ids, which sums rows of the same key; result() has the
// builder number the tables as the format orders them.
#include "vgprof/format.hpp"
#include "vgprof/merge.hpp"

#include "vgprof/error.hpp"
#include "vgprof/profile_builder.hpp"
#include "vgprof/query.hpp"

#include <algorithm>

namespace vgprof {

namespace {

// Whether the profile's calls carry their instructions' addresses: those
// of a profile of version 8 on, which has a call graph.
bool has_call_addresses(const Profile& p)
{
    return p.meta().version >= 8 && p.has_call_graph();
}

std::string joined(const std::vector<std::string>& words)
{
    std::string text;
    for (const std::string& w : words)
        text += (text.empty() ? "" : " ") + w;
    return text;
}

// The first format version whose inclusive costs the loader checks are
// never below self costs.
constexpr int kInclusiveCheckedFrom = 7;

// Whether the profile says what its inlined code cost (`inlines` and
// `inline_lines`, format version 7): not an older profile or another tool's
// file, not a run that read no inline information, and not a merged profile
// that left them out (it still names the inlined functions of its paths,
// whose code then has no rows).
bool has_inlined_code_costs(const Profile& p)
{
    const Meta& m = p.meta();
    if (m.tool != "vgprof" || m.version < 7)
        return false;
    if (m.fingerprint) {
        const auto& options = m.fingerprint->valgrind_options;
        if (std::find(options.begin(), options.end(), "--read-inline-info=no") != options.end())
            return false;
    }
    const bool names_inlined = std::any_of(p.functions().begin(), p.functions().end(),
                                           [](const Function& f) { return f.inlined; });
    return !names_inlined || !p.inlined_lines().empty();
}

} // namespace

namespace detail {

class Merger {
public:
    void add(const Profile& p, const std::string& name);
    std::vector<std::string> notes() const;
    Profile result();

private:
    // How one profile's ids and events map to the builder's.
    struct Mapping {
        std::vector<FileId> file;
        std::vector<FnId> fn;
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

    void start(const Profile& p, const std::string& name);
    void check_compatible(const Profile& p, const std::string& name) const;
    void keep_only_common_parts(const Profile& p, const std::string& name);
    Mapping map_ids(const Profile& p);
    void add_count(uint64_t& into, uint64_t n) const;
    void add_costs(uint64_t* into, const uint64_t* from, const Mapping& map) const;
    void add_meta(const Profile& p, const Mapping& map);
    void add_lines(const Profile& p, const Mapping& map);
    void add_inlined_code(const Profile& p, const Mapping& map);
    void add_graph(const CallGraph& g, const Mapping& map, uint32_t graph);
    void add_paths(const Profile& p, const Mapping& map);

    bool started_ = false;
    std::string first_name_;
    std::string adding_;  // the profile being added, for messages
    Meta meta_;           // the first profile's, totals summed, merged runs listed
    size_t events_ = 0;
    Part call_graph_{"call graph"}, instrs_{"per-instruction costs"},
        threads_{"per-thread call graphs"}, call_addrs_{"addresses of call instructions"},
        inlined_code_{"costs of inlined code"};
    // Every profile so far is of a version whose inclusive costs the loader
    // checked are never below self costs: so are their sums.
    bool all_checked_ = true;
    bool inlined_functions_ = false;  // some profile names inlined functions
    std::string first_with_heap_;  // the first profile with heap data, if any
    std::string first_with_data_;  // the first profile with a data section, if any
    ProfileBuilder sum_{""};
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
    if (inlined_code_.kept)
        add_inlined_code(p, map);
    if (call_graph_.kept) {
        add_graph(p.call_graph(), map, ProfileBuilder::kWholeProgram);
        add_paths(p, map);
    }
    if (threads_.kept)
        for (const ThreadGraph& t : p.threads()) {
            sum_.thread_graph(t.tid);
            add_graph(t, map, t.tid);
        }
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
    meta_.signal = m.signal;
    meta_.dump_number = m.dump_number;
    meta_.dump_label = m.dump_label;
    meta_.totals.assign(events_, 0);
    sum_ = ProfileBuilder(name);
    for (const std::string& event : m.events)
        sum_.add_event(event);
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
    if (call_graph_.lost_by(p.has_call_graph(), name))
        sum_.drop_call_graph();
    if (instrs_.lost_by(!p.instrs().empty(), name))
        sum_.drop_instrs();
    if (inlined_code_.lost_by(has_inlined_code_costs(p), name))
        sum_.drop_inlined_code();
    all_checked_ = all_checked_ && p.meta().version >= kInclusiveCheckedFrom;
    // Rows of one call site with and without the address would not add up
    // to one call site: kept from every profile, or from none.
    if (call_addrs_.lost_by(has_call_addresses(p), name))
        sum_.drop_call_addresses([&](uint64_t& into, uint64_t n) { add_count(into, n); });
    if (p.heap() && first_with_heap_.empty())
        first_with_heap_ = name;
    if (p.data() && first_with_data_.empty())
        first_with_data_ = name;
    if (threads_.lost_by(p.has_thread_graphs(), name) || !call_graph_.kept) {
        threads_.kept = false;
        sum_.drop_thread_graphs();
    }
}

// Per-thread graphs come only with the call graph: without it, its loss is
// the one to tell. The heap is never merged.
std::vector<std::string> Merger::notes() const
{
    std::vector<std::string> notes;
    for (const Part* part : {&call_graph_, &instrs_, &threads_, &call_addrs_, &inlined_code_})
        if (!part->kept && part->seen &&
            !((part == &threads_ || part == &call_addrs_) && !call_graph_.kept))
            notes.push_back(part->first_without + " has no " + part->what +
                            ": the merged profile has none");
    if (!first_with_heap_.empty())
        notes.push_back(first_with_heap_ + " has heap data, which is not merged (a heap's peak, "
                                           "times and timeline are one run's): the merged "
                                           "profile has none");
    if (!first_with_data_.empty())
        notes.push_back(first_with_data_ + " says which data was accessed, which is not merged "
                                           "(its heap objects are the heap's allocation sites): "
                                           "the merged profile has no data objects");
    return notes;
}

// Every string, object, file and function of the profile is interned,
// whether or not a row names it, so that the sum lists whatever its runs do.
Merger::Mapping Merger::map_ids(const Profile& p)
{
    Mapping map;
    std::vector<StrId> str;
    str.reserve(p.strs().size());
    for (const std::string& s : p.strs())
        str.push_back(sum_.str(s));
    std::vector<ObjId> obj;
    for (StrId o : p.objs())
        obj.push_back(sum_.object(str[o.index()]));
    for (StrId file : p.files())
        map.file.push_back(sum_.file(str[file.index()]));
    map.fn.reserve(p.functions().size());
    for (const Function& f : p.functions()) {
        inlined_functions_ = inlined_functions_ || f.inlined;
        map.fn.push_back(f.inlined ? sum_.inlined_function(str[f.name.index()], obj[f.obj.index()])
                                   : sum_.function(str[f.name.index()], map.file[f.file.index()],
                                                   obj[f.obj.index()], f.line));
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
                                 m.dump_label, m.signal});
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
        add_costs(sum_.line(map.fn[l.fn.index()], map.file[l.file.index()], l.line),
                  p.line_cost(i), map);
    }
    if (!instrs_.kept)
        return;
    for (size_t i = 0; i < p.instrs().size(); ++i) {
        const InstrCost& c = p.instrs()[i];
        add_costs(sum_.instr(c.addr, map.fn[c.fn.index()], map.file[c.file.index()], c.line),
                  p.instr_cost(i), map);
    }
}

// Inlined calls are matched by their function and call site and those of
// the calls they lie in; parents come before their inner calls.
void Merger::add_inlined_code(const Profile& p, const Mapping& map)
{
    std::vector<uint32_t> call_of(p.inlined_calls().size());
    for (size_t i = 0; i < p.inlined_calls().size(); ++i) {
        const InlinedCall& c = p.inlined_calls()[i];
        const std::optional<uint32_t> parent =
            c.parent ? std::optional<uint32_t>(call_of[*c.parent]) : std::nullopt;
        call_of[i] = sum_.inlined_call(parent, map.fn[c.fn.index()], map.file[c.file.index()], c.line);
    }
    for (size_t i = 0; i < p.inlined_lines().size(); ++i) {
        const InlinedLine& l = p.inlined_lines()[i];
        add_costs(sum_.inlined_line(map.fn[l.fn.index()], call_of[l.inl], map.file[l.file.index()],
                                    l.line),
                  p.inlined_line_cost(i), map);
    }
}

void Merger::add_graph(const CallGraph& g, const Mapping& map, uint32_t graph)
{
    for (size_t i = 0; i < g.calls().size(); ++i) {
        const CallEdge& e = g.calls()[i];
        uint64_t* sum = sum_.call(graph, map.fn[e.caller.index()], map.fn[e.callee.index()],
                                  map.file[e.file.index()], e.line, call_addrs_.kept ? e.addr : 0);
        add_count(sum[0], e.count);
        add_costs(sum + 1, g.call_cost(i), map);
    }
    for (size_t i = 0; i < g.inclusive_fns().size(); ++i)
        add_costs(sum_.inclusive(graph, map.fn[g.inclusive_fns()[i].index()]),
                  g.inclusive_cost(i), map);
}

// A node is matched by its parent's node and its function, so two nodes
// are the same when the stacks from their roots are; parents come before
// their children, so a node's parent is always matched first.
void Merger::add_paths(const Profile& p, const Mapping& map)
{
    std::vector<uint32_t> tid_of_root(p.paths().size(), 0);
    if (threads_.kept)
        for (const ThreadGraph& t : p.threads())
            for (PathId root : t.roots)
                tid_of_root[root.index()] = t.tid;
    std::vector<PathId> node_of(p.paths().size());
    for (size_t i = 0; i < p.paths().size(); ++i) {
        const PathNode& node = p.paths()[i];
        const std::optional<PathId> parent =
            node.parent ? std::optional<PathId>(node_of[node.parent->index()]) : std::nullopt;
        const std::optional<FnId> fn =
            node.fn ? std::optional<FnId>(map.fn[node.fn->index()]) : std::nullopt;
        node_of[i] = sum_.path(parent, fn, tid_of_root[i]);
        uint64_t* sum = sum_.path_row(node_of[i]);
        add_count(sum[0], node.count);
        add_costs(sum + 1, p.path_self(i), map);
        add_costs(sum + 1 + events_, p.path_inclusive(i), map);
    }
}

// The sum is of version 7 on when its runs' inclusive costs were checked
// (so are their sums), or when it names inlined functions, which only
// version 7 on holds; of version 8, the first whose calls name their
// instructions, when its runs' calls do (9 changed only the heap, which is
// not merged). Older runs' own profiles may charge a function less inclusive than
// self cost (see FinishOptions); the sum of only such profiles is no
// better, and is kept as it is, in the first version with meta.merged (or
// the later one what it holds needs); a sum of version 7 on must not, or
// no reader would take it.
Profile Merger::result()
{
    if (!started_)
        throw Error("no profiles to merge");
    if (!threads_.kept)
        sum_.fold_thread_roots([&](uint64_t& into, uint64_t n) { add_count(into, n); });
    // Version 7 on, whose readers check inclusive costs against self
    // costs; 8, the first whose calls name their instructions, when they do.
    const bool checked = all_checked_ || inlined_functions_;
    meta_.version = checked ? kInclusiveCheckedFrom : 4;
    if (call_graph_.kept && call_addrs_.kept)
        meta_.version = 8;
    sum_.meta() = meta_;
    sum_.set_call_graph(call_graph_.kept);
    sum_.set_thread_graphs(call_graph_.kept && threads_.kept);
    FinishOptions options;
    options.reject_inclusive_below_self = meta_.version >= kInclusiveCheckedFrom;
    return sum_.finish(options);
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
