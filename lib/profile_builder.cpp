// SPDX-License-Identifier: GPL-2.0-or-later
// Interning, summing by key, numbering in the format's order and the checks
// of finish() (see profile_builder.hpp). While adding, everything is kept
// under provisional ids in the order first seen; numbering sorts each table
// and maps the provisional ids to the final ones.
#include "vgprof/profile_builder.hpp"

#include "profile_checks.hpp"
#include "text.hpp"
#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace vgprof {

namespace {

using detail::cat;
using detail::fail_at;

// Stands for "none" in a key: the fn of a [truncated] path node, the parent
// of a root.
constexpr uint64_t kNone = UINT64_MAX;

// Keys of provisional ids; 64-bit parts where a part can be wider (an
// address) or must hold kNone.
using Ids1 = std::array<uint32_t, 1>;
using Ids3 = std::array<uint32_t, 3>;
using Ids4 = std::array<uint32_t, 4>;
using Wide3 = std::array<uint64_t, 3>;
using Wide4 = std::array<uint64_t, 4>;
using Wide5 = std::array<uint64_t, 5>;

template <typename Key>
struct KeyHash {
    size_t operator()(const Key& key) const noexcept
    {
        uint64_t h = 0xcbf29ce484222325ULL;
        for (uint64_t part : key)
            h = (h ^ part) * 0x100000001b3ULL ^ (h >> 29);
        return size_t(h);
    }
};

// Rows identified by a Key of integers, numbered in the order first seen.
// Each holds `prefix` numbers, then `sets` groups of one number per event.
template <typename Key>
class SummedRows {
public:
    SummedRows(size_t prefix = 0, size_t sets = 0, size_t events = 0)
        : prefix_(prefix), sets_(sets), events_(events)
    {
    }

    size_t size() const { return keys_.size(); }
    const Key& key(size_t row) const { return keys_[row]; }
    uint64_t* values(size_t row) { return values_.data() + row * width(); }
    const uint64_t* values(size_t row) const { return values_.data() + row * width(); }

    // The row of `key`, added (all zeros) if new.
    size_t row(const Key& key)
    {
        const auto [it, added] = row_of_.try_emplace(key, keys_.size());
        if (added) {
            keys_.push_back(key);
            values_.resize(values_.size() + width(), 0);
        }
        return it->second;
    }

    // One more event: each set of each row gets a zero for it.
    void add_event()
    {
        const size_t old_width = width(), old_events = events_++;
        std::vector<uint64_t> wider(keys_.size() * width(), 0);
        for (size_t r = 0; r < keys_.size(); ++r) {
            const uint64_t* from = values_.data() + r * old_width;
            uint64_t* to = wider.data() + r * width();
            std::copy(from, from + prefix_, to);
            for (size_t s = 0; s < sets_; ++s)
                std::copy(from + prefix_ + s * old_events, from + prefix_ + (s + 1) * old_events,
                          to + prefix_ + s * events_);
        }
        values_.swap(wider);
    }

    void clear() { *this = SummedRows(prefix_, sets_, events_); }

    // The rows summed again under the keys `rekey` gives them, each
    // number by `add`.
    template <typename Rekey>
    void rekey(Rekey rekey, const std::function<void(uint64_t& into, uint64_t n)>& add)
    {
        SummedRows summed(prefix_, sets_, events_);
        for (size_t r = 0; r < keys_.size(); ++r) {
            const uint64_t* from = values(r);
            uint64_t* to = summed.values(summed.row(rekey(keys_[r])));
            for (size_t i = 0; i < width(); ++i)
                add(to[i], from[i]);
        }
        *this = std::move(summed);
    }
    size_t events() const { return events_; }

private:
    size_t width() const { return prefix_ + sets_ * events_; }

    size_t prefix_, sets_, events_;
    std::unordered_map<Key, size_t, KeyHash<Key>> row_of_;
    std::vector<Key> keys_;
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

std::vector<size_t> rows_as_added(size_t n)
{
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t(0));
    return order;
}

// Each row's final id, from the order the rows are put in.
std::vector<uint32_t> ranks(const std::vector<size_t>& order)
{
    std::vector<uint32_t> rank(order.size());
    for (size_t i = 0; i < order.size(); ++i)
        rank[order[i]] = uint32_t(i);
    return rank;
}

// A call graph's rows: calls {caller, callee, site file, site line, site
// address} -> count, costs; inclusive {fn} -> costs.
struct GraphRows {
    SummedRows<Wide5> calls;
    SummedRows<Ids1> inclusive;

    explicit GraphRows(size_t events) : calls(1, 1, events), inclusive(0, 1, events) {}
    void add_event()
    {
        calls.add_event();
        inclusive.add_event();
    }
};

GraphRows& graph_rows(std::map<uint32_t, GraphRows>& graphs, uint32_t graph, size_t events)
{
    return graphs.try_emplace(graph, events).first->second;
}

} // namespace

// The line an inlined function is keyed by: it has none (0), and it must
// stay apart from a function of the same name without one.
constexpr uint32_t kInlinedLine = UINT32_MAX;

struct ProfileBuilder::State {
    std::string name;
    Numbering numbering;
    Meta meta;
    bool has_call_graph = false, has_thread_graphs = false;

    std::vector<std::string> strs;
    std::unordered_map<std::string, uint32_t> str_of;
    std::vector<uint32_t> obj_strs, file_strs;  // provisional object, file -> string
    std::unordered_map<uint32_t, uint32_t> obj_of_str, file_of_str;
    SummedRows<Ids4> fns;     // {obj, name, file, line}, no numbers
    SummedRows<Ids3> lines;   // {fn, file, line} -> costs
    SummedRows<Wide4> instrs; // {addr, fn, file, line} -> costs
    // By graph (kWholeProgram, or a tid).
    std::map<uint32_t, GraphRows> graphs;
    // {parent node (kNone: a root), fn (kNone: [truncated]), tid of a root's
    // thread (0: none)} -> count, self costs, inclusive costs.
    SummedRows<Wide3> paths;
    // {parent call (kNone: none), fn, file, line}, no numbers.
    SummedRows<Wide4> inlines;
    SummedRows<Ids4> inline_lines;  // {fn, inlined call, file, line} -> costs
    std::optional<Heap> heap;

    State(std::string n, Numbering how)
        : name(std::move(n)), numbering(how), lines(0, 1), instrs(0, 1), paths(1, 2),
          inline_lines(0, 1)
    {
    }
};

// Provisional id -> final id for each interned table, and the order the
// final tables list the provisional ones in.
struct Renumbering {
    std::vector<size_t> str_order, obj_order, file_order, fn_order;
    std::vector<uint32_t> str, obj, file, fn;
};

ProfileBuilder::ProfileBuilder(std::string name, Numbering numbering)
    : s_(std::make_unique<State>(std::move(name), numbering))
{
}

ProfileBuilder::~ProfileBuilder() = default;
ProfileBuilder::ProfileBuilder(ProfileBuilder&&) noexcept = default;
ProfileBuilder& ProfileBuilder::operator=(ProfileBuilder&&) noexcept = default;

Meta& ProfileBuilder::meta() { return s_->meta; }
size_t ProfileBuilder::num_events() const { return s_->meta.events.size(); }
void ProfileBuilder::set_call_graph(bool has) { s_->has_call_graph = has; }
void ProfileBuilder::set_thread_graphs(bool has) { s_->has_thread_graphs = has; }
void ProfileBuilder::set_heap(Heap heap) { s_->heap = std::move(heap); }

void ProfileBuilder::add_event(std::string name)
{
    s_->meta.events.push_back(std::move(name));
    s_->lines.add_event();
    s_->instrs.add_event();
    s_->paths.add_event();
    s_->inline_lines.add_event();
    for (auto& [graph, rows] : s_->graphs)
        rows.add_event();
}

StrId ProfileBuilder::str(std::string_view text)
{
    const auto [it, added] = s_->str_of.try_emplace(std::string(text), uint32_t(s_->strs.size()));
    if (added)
        s_->strs.emplace_back(text);
    return StrId(it->second);
}

const std::string& ProfileBuilder::text(StrId str) const { return s_->strs[str.index()]; }

ObjId ProfileBuilder::object(StrId path)
{
    const auto [it, added] = s_->obj_of_str.try_emplace(path.value, uint32_t(s_->obj_strs.size()));
    if (added)
        s_->obj_strs.push_back(path.value);
    return ObjId(it->second);
}

FileId ProfileBuilder::file(StrId path)
{
    const auto [it, added] =
        s_->file_of_str.try_emplace(path.value, uint32_t(s_->file_strs.size()));
    if (added)
        s_->file_strs.push_back(path.value);
    return FileId(it->second);
}

FnId ProfileBuilder::function(StrId name, FileId file, ObjId obj, uint32_t line)
{
    return FnId(uint32_t(s_->fns.row({obj.value, name.value, file.value, line})));
}

FnId ProfileBuilder::inlined_function(StrId name, ObjId obj)
{
    const FileId unknown = file(str(kUnknown));
    return FnId(uint32_t(s_->fns.row({obj.value, name.value, unknown.value, kInlinedLine})));
}

uint64_t* ProfileBuilder::line(FnId fn, FileId file, uint32_t line)
{
    return s_->lines.values(s_->lines.row({fn.value, file.value, line}));
}

uint64_t* ProfileBuilder::instr(uint64_t addr, FnId fn, FileId file, uint32_t line)
{
    return s_->instrs.values(s_->instrs.row({addr, fn.value, file.value, line}));
}

uint64_t* ProfileBuilder::call(uint32_t graph, FnId caller, FnId callee, FileId file,
                               uint32_t line, uint64_t addr)
{
    SummedRows<Wide5>& calls = graph_rows(s_->graphs, graph, num_events()).calls;
    return calls.values(calls.row({caller.value, callee.value, file.value, line, addr}));
}

uint64_t* ProfileBuilder::inclusive(uint32_t graph, FnId fn)
{
    SummedRows<Ids1>& rows = graph_rows(s_->graphs, graph, num_events()).inclusive;
    return rows.values(rows.row({fn.value}));
}

PathId ProfileBuilder::path(std::optional<PathId> parent, std::optional<FnId> fn,
                            uint32_t root_tid)
{
    return PathId(uint32_t(s_->paths.row(
        {parent ? parent->value : kNone, fn ? fn->value : kNone, root_tid})));
}

uint64_t* ProfileBuilder::path_row(PathId node) { return s_->paths.values(node.index()); }

void ProfileBuilder::thread_graph(uint32_t tid) { graph_rows(s_->graphs, tid, num_events()); }

uint32_t ProfileBuilder::inlined_call(std::optional<uint32_t> parent, FnId fn, FileId file,
                                      uint32_t line)
{
    return uint32_t(s_->inlines.row({parent ? *parent : kNone, fn.value, file.value, line}));
}

uint64_t* ProfileBuilder::inlined_line(FnId fn, uint32_t inl, FileId file, uint32_t line)
{
    return s_->inline_lines.values(s_->inline_lines.row({fn.value, inl, file.value, line}));
}

void ProfileBuilder::drop_instrs() { s_->instrs.clear(); }

void ProfileBuilder::drop_inlined_code()
{
    s_->inlines.clear();
    s_->inline_lines.clear();
}

void ProfileBuilder::drop_call_addresses(const std::function<void(uint64_t& into, uint64_t n)>& add)
{
    for (auto& [graph, rows] : s_->graphs)
        rows.calls.rekey(
            [](Wide5 key) {
                key[4] = 0;
                return key;
            },
            add);
}

void ProfileBuilder::drop_call_graph()
{
    s_->has_call_graph = s_->has_thread_graphs = false;
    s_->graphs.clear();
    s_->paths.clear();
}

// The nodes added while roots kept their threads apart are matched again
// without the thread; parents come before their children, so a node's
// parent is always matched first.
void ProfileBuilder::drop_thread_graphs()
{
    s_->has_thread_graphs = false;
    for (auto it = s_->graphs.begin(); it != s_->graphs.end();)
        it = it->first == kWholeProgram ? std::next(it) : s_->graphs.erase(it);
}

void ProfileBuilder::fold_thread_roots(const std::function<void(uint64_t&, uint64_t)>& add)
{
    const size_t width = 1 + 2 * num_events();
    SummedRows<Wide3> folded(1, 2, num_events());
    std::vector<uint64_t> node_of(s_->paths.size());
    for (size_t row = 0; row < s_->paths.size(); ++row) {
        const Wide3& key = s_->paths.key(row);
        const uint64_t parent = key[0] == kNone ? kNone : node_of[key[0]];
        node_of[row] = folded.row({parent, key[1], 0});
        uint64_t* sum = folded.values(node_of[row]);
        const uint64_t* values = s_->paths.values(row);
        for (size_t i = 0; i < width; ++i)
            add(sum[i], values[i]);
    }
    s_->paths = std::move(folded);
}

// --- numbering ------------------------------------------------------------------

namespace {

Renumbering number_interned(const ProfileBuilder::Numbering numbering,
                            const std::vector<std::string>& strs,
                            const std::vector<uint32_t>& obj_strs,
                            const std::vector<uint32_t>& file_strs, const SummedRows<Ids4>& fns)
{
    Renumbering r;
    const bool canonical = numbering == ProfileBuilder::Numbering::canonical;
    r.str_order = canonical ? sorted_rows(strs.size(),
                                          [&](size_t a, size_t b) { return strs[a] < strs[b]; })
                            : rows_as_added(strs.size());
    r.str = ranks(r.str_order);
    // Objects and files are sorted by path: the order of their strings.
    const auto by_path = [&](const std::vector<uint32_t>& paths) {
        return canonical ? sorted_rows(paths.size(),
                                       [&](size_t a, size_t b) {
                                           return r.str[paths[a]] < r.str[paths[b]];
                                       })
                         : rows_as_added(paths.size());
    };
    r.obj_order = by_path(obj_strs);
    r.obj = ranks(r.obj_order);
    r.file_order = by_path(file_strs);
    r.file = ranks(r.file_order);
    // By (object path, name, file path, line).
    const auto& str = r.str;
    r.fn_order = canonical ? sorted_rows(fns.size(),
                                         [&](size_t a, size_t b) {
                                             const Ids4 &x = fns.key(a), &y = fns.key(b);
                                             return std::make_tuple(str[obj_strs[x[0]]], str[x[1]],
                                                                    str[file_strs[x[2]]], x[3]) <
                                                    std::make_tuple(str[obj_strs[y[0]]], str[y[1]],
                                                                    str[file_strs[y[2]]], y[3]);
                                         })
                           : rows_as_added(fns.size());
    r.fn = ranks(r.fn_order);
    return r;
}

// The rows of `rows` in final order: sorted by `key` of their final ids, or
// as added.
template <typename Key, typename SortKey>
std::vector<size_t> row_order(const SummedRows<Key>& rows, bool canonical, SortKey key)
{
    if (!canonical)
        return rows_as_added(rows.size());
    return sorted_rows(rows.size(),
                       [&](size_t a, size_t b) { return key(rows.key(a)) < key(rows.key(b)); });
}

void number_graph(const SummedRows<Wide5>& calls, const SummedRows<Ids1>& inclusive,
                  const Renumbering& r, bool canonical, size_t events, CallGraphTables& out)
{
    const auto& fn = r.fn;
    const auto& file = r.file;
    out.num_events = events;
    for (size_t row : row_order(calls, canonical, [&](const Wide5& k) {
             return std::make_tuple(fn[k[0]], fn[k[1]], file[k[2]], k[3], k[4]);
         })) {
        const Wide5& k = calls.key(row);
        const uint64_t* sum = calls.values(row);
        out.calls.push_back(CallEdge{FnId(fn[k[0]]), FnId(fn[k[1]]), FileId(file[k[2]]),
                                     uint32_t(k[3]), sum[0], k[4]});
        out.call_costs.insert(out.call_costs.end(), sum + 1, sum + 1 + events);
    }
    // Always by fn: CallGraph::fn_inclusive() searches them.
    for (size_t row : row_order(inclusive, true, [&](const Ids1& k) { return fn[k[0]]; })) {
        out.inclusive_fns.push_back(FnId(fn[inclusive.key(row)[0]]));
        out.inclusive_costs.insert(out.inclusive_costs.end(), inclusive.values(row),
                                   inclusive.values(row) + events);
    }
}

// Writes the tree depth first, roots and children sorted by function (the
// [truncated] node last) and roots of one function by thread, as the tool
// does; as added, parents still come before their children. Returns each
// root's thread and id, in id order.
std::vector<std::pair<uint64_t, PathId>> number_paths(const SummedRows<Wide3>& paths,
                                                      const Renumbering& r, bool canonical,
                                                      size_t events, ProfileTables& out)
{
    const size_t nodes = paths.size();
    const auto sort_key = [&](size_t node) {
        const Wide3& k = paths.key(node);
        return std::make_pair(k[1] == kNone ? kNone : uint64_t(r.fn[k[1]]), k[2]);
    };
    const auto by_key = [&](size_t a, size_t b) { return sort_key(a) < sort_key(b); };
    std::vector<std::vector<size_t>> children(nodes);
    std::vector<size_t> roots;
    for (size_t node = 0; node < nodes; ++node) {
        const uint64_t parent = paths.key(node)[0];
        (parent == kNone ? roots : children[parent]).push_back(node);
    }
    if (canonical)
        std::sort(roots.begin(), roots.end(), by_key);

    std::vector<std::pair<uint64_t, PathId>> root_ids;
    // (node, its parent's new id or kNone); an explicit stack, as trees
    // can be deep.
    std::vector<std::pair<size_t, uint64_t>> stack;
    for (size_t root : roots) {
        root_ids.emplace_back(paths.key(root)[2], PathId(uint32_t(out.paths.size())));
        stack.emplace_back(root, kNone);
        while (!stack.empty()) {
            const auto [node, parent] = stack.back();
            stack.pop_back();
            const uint32_t id = uint32_t(out.paths.size());
            const Wide3& k = paths.key(node);
            const uint64_t* sum = paths.values(node);
            PathNode n;
            if (parent != kNone)
                n.parent = PathId(uint32_t(parent));
            if (k[1] != kNone)
                n.fn = FnId(r.fn[k[1]]);
            n.count = sum[0];
            out.paths.push_back(n);
            out.path_costs.insert(out.path_costs.end(), sum + 1, sum + 1 + 2 * events);
            std::vector<size_t>& below = children[node];
            if (canonical)
                std::sort(below.begin(), below.end(), by_key);
            // Pushed in reverse so that the first child comes out first.
            for (auto child = below.rbegin(); child != below.rend(); ++child)
                stack.emplace_back(*child, id);
        }
    }
    return root_ids;
}

// The inlined calls from the outermost in, each call's inner calls sorted
// by (fn, file, line) as the tool sorts them (as added, parents still come
// before their inner calls), then the inlined code's costs by (fn, inlined
// call, file, line).
void number_inlined_code(const SummedRows<Wide4>& inlines, const SummedRows<Ids4>& inline_lines,
                         const Renumbering& r, bool canonical, size_t events, ProfileTables& out)
{
    const size_t calls = inlines.size();
    const auto sort_key = [&](size_t call) {
        const Wide4& k = inlines.key(call);
        return std::make_tuple(r.fn[k[1]], r.file[k[2]], k[3]);
    };
    const auto by_key = [&](size_t a, size_t b) { return sort_key(a) < sort_key(b); };
    std::vector<std::vector<size_t>> inner(calls);
    std::vector<size_t> outermost;
    for (size_t call = 0; call < calls; ++call) {
        const uint64_t parent = inlines.key(call)[0];
        (parent == kNone ? outermost : inner[parent]).push_back(call);
    }
    std::vector<uint32_t> id(calls);
    // (call, its parent's new id or kNone), as number_paths walks its tree.
    std::vector<std::pair<size_t, uint64_t>> stack;
    const auto push = [&](std::vector<size_t>& below, uint64_t parent) {
        if (canonical)
            std::sort(below.begin(), below.end(), by_key);
        for (auto call = below.rbegin(); call != below.rend(); ++call)
            stack.emplace_back(*call, parent);
    };
    push(outermost, kNone);
    while (!stack.empty()) {
        const auto [call, parent] = stack.back();
        stack.pop_back();
        id[call] = uint32_t(out.inlined_calls.size());
        const Wide4& k = inlines.key(call);
        InlinedCall c{FnId(r.fn[k[1]]), std::nullopt, FileId(r.file[k[2]]), uint32_t(k[3])};
        if (parent != kNone)
            c.parent = uint32_t(parent);
        out.inlined_calls.push_back(c);
        push(inner[call], id[call]);
    }
    for (size_t row : row_order(inline_lines, canonical, [&](const Ids4& k) {
             return std::make_tuple(r.fn[k[0]], id[k[1]], r.file[k[2]], k[3]);
         })) {
        const Ids4& k = inline_lines.key(row);
        out.inlined_lines.push_back(
            InlinedLine{FnId(r.fn[k[0]]), id[k[1]], FileId(r.file[k[2]]), k[3]});
        out.inlined_line_costs.insert(out.inlined_line_costs.end(), inline_lines.values(row),
                                      inline_lines.values(row) + events);
    }
}

} // namespace

ProfileTables ProfileBuilder::take_tables()
{
    State& s = *s_;
    const bool canonical = s.numbering == Numbering::canonical;
    const size_t events = num_events();
    if (s.lines.events() != events)
        throw std::logic_error("ProfileBuilder: meta().events changed other than by add_event()");
    const Renumbering r = number_interned(s.numbering, s.strs, s.obj_strs, s.file_strs, s.fns);
    ProfileTables out;
    out.meta = std::move(s.meta);
    for (size_t str : r.str_order)
        out.strs.push_back(std::move(s.strs[str]));
    for (size_t obj : r.obj_order)
        out.objs.push_back(StrId(r.str[s.obj_strs[obj]]));
    for (size_t file : r.file_order)
        out.files.push_back(StrId(r.str[s.file_strs[file]]));
    for (size_t fn : r.fn_order) {
        const Ids4& k = s.fns.key(fn);
        const bool inlined = k[3] == kInlinedLine;
        out.functions.push_back(Function{StrId(r.str[k[1]]), FileId(r.file[k[2]]), ObjId(r.obj[k[0]]),
                                         inlined ? 0 : uint32_t(k[3]), inlined});
    }

    const auto& fn = r.fn;
    const auto& file = r.file;
    for (size_t row : row_order(s.lines, canonical, [&](const Ids3& k) {
             return std::make_tuple(fn[k[0]], file[k[1]], k[2]);
         })) {
        const Ids3& k = s.lines.key(row);
        out.lines.push_back(LineCost{FnId(fn[k[0]]), FileId(file[k[1]]), uint32_t(k[2])});
        out.line_costs.insert(out.line_costs.end(), s.lines.values(row),
                              s.lines.values(row) + events);
    }
    for (size_t row : row_order(s.instrs, canonical, [&](const Wide4& k) {
             return std::make_tuple(k[0], fn[k[1]], file[k[2]], k[3]);
         })) {
        const Wide4& k = s.instrs.key(row);
        out.instrs.push_back(InstrCost{k[0], FnId(fn[k[1]]), FileId(file[k[2]]), uint32_t(k[3])});
        out.instr_costs.insert(out.instr_costs.end(), s.instrs.values(row),
                               s.instrs.values(row) + events);
    }
    number_inlined_code(s.inlines, s.inline_lines, r, canonical, events, out);

    // Even without a call graph: an empty graph still answers in events.
    out.graph.num_events = events;
    out.has_call_graph = s.has_call_graph;
    if (s.has_call_graph) {
        if (const auto it = s.graphs.find(kWholeProgram); it != s.graphs.end())
            number_graph(it->second.calls, it->second.inclusive, r, canonical, events, out.graph);
        const auto roots = number_paths(s.paths, r, canonical, events, out);
        out.has_thread_graphs = s.has_thread_graphs;
        if (s.has_thread_graphs)
            for (const auto& [tid, rows] : s.graphs) {
                if (tid == kWholeProgram)
                    continue;
                ThreadTables t;
                t.tid = tid;
                number_graph(rows.calls, rows.inclusive, r, canonical, events, t.graph);
                for (const auto& [root_tid, root] : roots)
                    if (root_tid == tid)
                        t.roots.push_back(root);
                out.threads.push_back(std::move(t));
            }
    }

    if (s.heap) {
        out.heap = std::move(s.heap);
        for (HeapFrame& frame : out.heap->frames) {
            frame.fn = FnId(fn[frame.fn.index()]);
            frame.file = FileId(file[frame.file.index()]);
        }
    }
    s_ = std::make_unique<State>(s.name, s.numbering);
    return out;
}

// --- checks ---------------------------------------------------------------------

namespace {

// A row of a table, named as text only when a check of it fails: the
// checks run over millions of rows.
struct RowAt {
    const std::string& prefix;  // "" or "threads[2]."
    const char* table;
    size_t index;

    std::string str() const { return cat(prefix, table, '[', index, ']'); }
};

// Ids within their tables, for tables a reader numbered without reading
// them from a document (which the loader checks id by id as it reads).
class StructureCheck {
public:
    StructureCheck(const ProfileTables& t, const std::string& name) : t_(t), name_(name) {}

    void run() const
    {
        for (size_t i = 0; i < t_.objs.size(); ++i)
            id(t_.objs[i], t_.strs.size(), {none_, "objs", i});
        for (size_t i = 0; i < t_.files.size(); ++i)
            id(t_.files[i], t_.strs.size(), {none_, "files", i});
        for (size_t i = 0; i < t_.functions.size(); ++i) {
            const Function& f = t_.functions[i];
            const RowAt at{none_, "fns", i};
            id(f.name, t_.strs.size(), at);
            id(f.file, t_.files.size(), at);
            id(f.obj, t_.objs.size(), at);
        }
        for (size_t i = 0; i < t_.lines.size(); ++i)
            located(t_.lines[i].fn, t_.lines[i].file, {none_, "lines", i});
        for (size_t i = 0; i < t_.instrs.size(); ++i)
            located(t_.instrs[i].fn, t_.instrs[i].file, {none_, "instrs", i});
        costs(t_.line_costs, t_.lines.size(), "lines");
        costs(t_.instr_costs, t_.instrs.size(), "instrs");
        inlined_code();
        graph(t_.graph, none_);
        paths();
        for (size_t i = 0; i < t_.threads.size(); ++i)
            thread(i);
        if (t_.heap)
            heap(*t_.heap);
    }

private:
    template <typename Id>
    void id(Id id, size_t size, const RowAt& at) const
    {
        if (id.index() >= size)
            fail_at(name_, at.str(), cat("id ", id.value, " out of range (", size, " rows)"));
    }
    void located(FnId fn, FileId file, const RowAt& at) const
    {
        id(fn, t_.functions.size(), at);
        id(file, t_.files.size(), at);
    }
    void costs(const std::vector<uint64_t>& costs, size_t rows, const std::string& table) const
    {
        if (costs.size() != rows * t_.num_events())
            fail_at(name_, table, cat(costs.size(), " costs for ", rows, " rows"));
    }

    // As the loader checks them: an inlined call names an inlined function
    // and an earlier call as its parent.
    void inlined_code() const
    {
        for (size_t i = 0; i < t_.inlined_calls.size(); ++i) {
            const InlinedCall& c = t_.inlined_calls[i];
            const RowAt at{none_, "inlines", i};
            located(c.fn, c.file, at);
            if (!t_.functions[c.fn.index()].inlined)
                fail_at(name_, at.str(), cat("function ", c.fn.value, " is not an inlined function"));
            if (c.parent && *c.parent >= i)
                fail_at(name_, at.str(), "the parent is not an earlier inlined call");
        }
        for (size_t i = 0; i < t_.inlined_lines.size(); ++i) {
            const InlinedLine& l = t_.inlined_lines[i];
            const RowAt at{none_, "inline_lines", i};
            located(l.fn, l.file, at);
            if (l.inl >= t_.inlined_calls.size())
                fail_at(name_, at.str(), cat("inlined call ", l.inl, " out of range (",
                                             t_.inlined_calls.size(), " rows)"));
        }
        costs(t_.inlined_line_costs, t_.inlined_lines.size(), "inline_lines");
    }

    void graph(const CallGraphTables& g, const std::string& prefix) const
    {
        for (size_t i = 0; i < g.calls.size(); ++i) {
            const CallEdge& c = g.calls[i];
            const RowAt at{prefix, "calls", i};
            located(c.caller, c.file, at);
            id(c.callee, t_.functions.size(), at);
        }
        for (size_t i = 0; i < g.inclusive_fns.size(); ++i) {
            const RowAt at{prefix, "inclusive", i};
            id(g.inclusive_fns[i], t_.functions.size(), at);
            if (i > 0 && !(g.inclusive_fns[i - 1] < g.inclusive_fns[i]))
                fail_at(name_, at.str(), "inclusive rows are not in ascending fn order, one per fn");
        }
        costs(g.call_costs, g.calls.size(), prefix + "calls");
        costs(g.inclusive_costs, g.inclusive_fns.size(), prefix + "inclusive");
    }

    void paths() const
    {
        for (size_t i = 0; i < t_.paths.size(); ++i) {
            const PathNode& n = t_.paths[i];
            const RowAt at{none_, "paths", i};
            if (n.parent && n.parent->index() >= i)
                fail_at(name_, at.str(), "the parent is not an earlier node");
            if (!n.parent && !n.fn)
                fail_at(name_, at.str(), "a [truncated] node is a root");
            if (n.fn)
                id(*n.fn, t_.functions.size(), at);
        }
        if (t_.path_costs.size() != 2 * t_.paths.size() * t_.num_events())
            fail_at(name_, "paths", "cost rows of the wrong length");
    }

    void thread(size_t i) const
    {
        const ThreadTables& t = t_.threads[i];
        const std::string prefix = cat("threads[", i, "].");
        if (t.tid == 0 || (i > 0 && t_.threads[i - 1].tid >= t.tid))
            fail_at(name_, prefix + "tid", "threads are numbered from 1, sorted, each once");
        graph(t.graph, prefix);
        for (size_t r = 0; r < t.roots.size(); ++r) {
            const PathId root = t.roots[r];
            id(root, t_.paths.size(), {prefix, "roots", r});
            if (t_.paths[root.index()].parent)
                fail_at(name_, prefix + "roots", cat("paths[", root.value, "] is not a root"));
        }
    }

    void heap(const Heap& h) const
    {
        for (size_t i = 0; i < h.frames.size(); ++i)
            located(h.frames[i].fn, h.frames[i].file, {none_, "heap.frames", i});
        for (size_t i = 0; i < h.sites.size(); ++i) {
            const HeapSite& s = h.sites[i];
            const RowAt at{none_, "heap.sites", i};
            if (s.frames.empty() || s.frames.size() > h.depth)
                fail_at(name_, at.str(), cat(s.frames.size(), " frames (1 to ", h.depth, ")"));
            for (FrameId f : s.frames)
                id(f, h.frames.size(), at);
            detail::check_site_bounds(s, i, name_, h.start_blocks > 0);
        }
        for (size_t i = 0; i < h.snapshots.size(); ++i)
            for (const SnapshotSite& s : h.snapshots[i].sites)
                id(s.site, h.sites.size(), {none_, "heap.snapshots", i});
    }

    const ProfileTables& t_;
    const std::string& name_;
    const std::string none_;  // the prefix of the top-level tables
};

// What the threads' rows add up to must be the whole program's, and each
// root of the path tree belongs to one thread.
void check_thread_sums(const ProfileTables& t, const std::string& name)
{
    const size_t events = t.num_events();
    std::map<std::tuple<FnId, FnId, FileId, uint32_t, uint64_t>, std::vector<detail::CheckedSum>> calls;
    std::map<FnId, std::vector<detail::CheckedSum>> inclusive;
    std::vector<uint32_t> owners(t.paths.size(), 0);
    for (const ThreadTables& thread : t.threads) {
        const CallGraphTables& g = thread.graph;
        for (size_t row = 0; row < g.calls.size(); ++row) {
            const CallEdge& c = g.calls[row];
            auto& sum = calls[{c.caller, c.callee, c.file, c.line, c.addr}];
            sum.resize(1 + events);
            sum[0].add(c.count);
            for (size_t e = 0; e < events; ++e)
                sum[1 + e].add(g.call_costs[row * events + e]);
        }
        for (size_t row = 0; row < g.inclusive_fns.size(); ++row) {
            auto& sum = inclusive[g.inclusive_fns[row]];
            sum.resize(events);
            for (size_t e = 0; e < events; ++e)
                sum[e].add(g.inclusive_costs[row * events + e]);
        }
        for (PathId root : thread.roots)
            if (owners[root.index()]++ != 0)
                fail_at(name, "threads", cat("paths[", root.value, "] is a root of two threads"));
    }
    for (size_t node = 0; node < t.paths.size(); ++node)
        if (!t.paths[node].parent && owners[node] == 0)
            fail_at(name, "threads", cat("paths[", node, "] is a root but no thread lists it"));
    std::map<std::tuple<FnId, FnId, FileId, uint32_t, uint64_t>, std::vector<detail::CheckedSum>> top;
    for (size_t row = 0; row < t.graph.calls.size(); ++row) {
        const CallEdge& c = t.graph.calls[row];
        auto& sum = top[{c.caller, c.callee, c.file, c.line, c.addr}];
        sum.resize(1 + events);
        sum[0].add(c.count);
        for (size_t e = 0; e < events; ++e)
            sum[1 + e].add(t.graph.call_costs[row * events + e]);
    }
    if (top != calls)
        fail_at(name, "threads", "the threads' calls do not add up to the top-level calls");
    std::map<FnId, std::vector<detail::CheckedSum>> top_inclusive;
    for (size_t row = 0; row < t.graph.inclusive_fns.size(); ++row) {
        auto& sum = top_inclusive[t.graph.inclusive_fns[row]];
        sum.resize(events);
        for (size_t e = 0; e < events; ++e)
            sum[e].add(t.graph.inclusive_costs[row * events + e]);
    }
    if (top_inclusive != inclusive)
        fail_at(name, "threads",
                "the threads' inclusive costs do not add up to the top-level ones");
}

// Every function's self cost (its lines) against its inclusive row.
std::vector<InclusiveBelowSelf> inclusive_below_self(const ProfileTables& t)
{
    const size_t events = t.num_events();
    std::vector<uint64_t> self(t.functions.size() * events, 0);
    std::vector<bool> ran(t.functions.size(), false);
    for (size_t row = 0; row < t.lines.size(); ++row) {
        const size_t fn = t.lines[row].fn.index();
        for (size_t e = 0; e < events; ++e) {
            const uint64_t cost = t.line_costs[row * events + e];
            // Cannot overflow: the lines' totals fit in 64 bits.
            self[fn * events + e] += cost;
            ran[fn] = ran[fn] || cost != 0;
        }
    }
    std::vector<const uint64_t*> inclusive(t.functions.size(), nullptr);
    for (size_t row = 0; row < t.graph.inclusive_fns.size(); ++row)
        inclusive[t.graph.inclusive_fns[row].index()] = &t.graph.inclusive_costs[row * events];
    std::vector<InclusiveBelowSelf> found;
    for (size_t fn = 0; fn < t.functions.size(); ++fn) {
        if (!ran[fn])
            continue;
        for (size_t e = 0; e < events; ++e) {
            const uint64_t in = inclusive[fn] ? inclusive[fn][e] : 0;
            if (in < self[fn * events + e])
                found.push_back({FnId(uint32_t(fn)), e, self[fn * events + e], in});
        }
    }
    return found;
}

} // namespace

Profile ProfileBuilder::finish(const FinishOptions& options, FinishReport* report)
{
    const std::string name = s_->name;
    return finish(take_tables(), name, options, report);
}

Profile ProfileBuilder::finish(ProfileTables t, const std::string& name,
                               const FinishOptions& options, FinishReport* report)
{
    if (!options.structure_checked) {
        if (t.meta.totals.size() != t.num_events())
            fail_at(name, "meta.totals", "not one total per event");
        StructureCheck(t, name).run();
        detail::check_line_totals(t, name);
        if (t.has_call_graph && !t.paths.empty()) {
            detail::check_path_inclusive_costs(t, name);
            detail::check_path_self_totals(t, name);
        }
        if (t.has_thread_graphs)
            check_thread_sums(t, name);
        if (t.heap)
            detail::check_heap_sums(*t.heap, name);
    }
    if (t.has_call_graph && (options.reject_inclusive_below_self || report)) {
        std::vector<InclusiveBelowSelf> below = inclusive_below_self(t);
        if (options.reject_inclusive_below_self && !below.empty()) {
            const InclusiveBelowSelf& b = below.front();
            fail_at(name, cat("inclusive: fn ", b.fn.value),
                    cat(t.meta.events[b.event], " inclusive cost ", b.inclusive,
                        " is below the function's self cost ", b.self));
        }
        if (report)
            report->inclusive_below_self = std::move(below);
    }
    return Profile(std::move(t), detail::Checked());
}

} // namespace vgprof
