// SPDX-License-Identifier: GPL-2.0-or-later
// The loader's call graph: calls, inclusive rows, the call-path tree and
// the threads' own graphs, with the sums that hold between them (see
// loader.hpp).
#include "loader.hpp"

namespace vgprof::detail {

// The call graph arrives with version 2 as three tables that only make sense
// together: a reader showing inclusive costs from one and callers from
// another must not find half of them missing.
void Loader::load_call_graph(const json::object& root)
{
    if (p_.meta.version < 2)
        return;
    std::vector<const char*> present, missing;
    for (const char* key : kCallGraphKeys)
        (root.contains(key) ? present : missing).push_back(key);
    const bool threads = root.contains(kThreadKey);
    if (present.empty() && !threads)
        return;
    if (!missing.empty()) {
        const auto keys = [](const std::vector<const char*>& names) {
            std::string out;
            for (size_t i = 0; i < names.size(); ++i)
                out += cat(i == 0 ? "" : i + 1 == names.size() ? " and " : ", ", '"', names[i],
                           '"');
            return out;
        };
        if (present.empty())
            fail(Where{}, cat('"', kThreadKey, "\" is present but ", keys(missing),
                              " are missing (per-thread call graphs come only with the call "
                              "graph)"));
        fail(Where{}, cat("incomplete call graph: ", keys(present),
                          present.size() == 1 ? " is" : " are", " present but ", keys(missing),
                          missing.size() == 1 ? " is" : " are",
                          " missing (calls, inclusive and paths come together)"));
    }
    const Where top, calls = top.member("calls"), inclusive = top.member("inclusive"),
                     paths = top.member("paths");
    load_calls(table_source(root.at("calls"), Table::calls), calls, p_.graph);
    inclusive_source_rows_ =
        load_inclusive(table_source(root.at("inclusive"), Table::inclusive), inclusive, p_.graph);
    load_paths(table_source(root.at("paths"), Table::paths), paths);
    detail::check_path_inclusive_costs(p_, name_);
    detail::check_path_self_totals(p_, name_);
    p_.has_call_graph = true;
    if (threads) {
        const Where threads_at = top.member(kThreadKey);
        load_threads(root.at(kThreadKey), threads_at);
        p_.has_thread_graphs = true;
    }
}

void Loader::load_calls(const TableSource& source, const Where& at, CallGraphTables& graph)
{
    load_table(
        source, at,
        [&](const RowCells& row, const Where& item, size_t) { add_call(row, item, graph); },
        [&](size_t rows) { check_call_ids(at, rows, graph); });
}

void Loader::add_call(const RowCells& row, const Where& item, CallGraphTables& graph)
{
    // Version 8 gives the calling instruction's address after the line.
    const bool addr = version() >= 8;
    if (addr)
        check_row(row, item, {"caller", "callee", "file", "line", "addr", "count"}, {""});
    else
        check_row(row, item, {"caller", "callee", "file", "line", "count"}, {""});
    const size_t count = addr ? 5 : 4;
    const Where caller = item.element(0), callee = item.element(1), file = item.element(2),
                line = item.element(3);
    const size_t fns = table_size(p_.functions.size()), files = table_size(p_.files.size());
    CallEdge c;
    c.caller = id_at<FnId>(row[0], caller, "fn", fns, "function");
    c.callee = id_at<FnId>(row[1], callee, "fn", fns, "function");
    c.file = id_at<FileId>(row[2], file, "file", files, "file");
    c.line = u32_at(row[3], line);
    if (addr)
        c.addr = uint_at(row[4], item.element(4));
    c.count = uint_at(row[count], item.element(count));
    graph.calls.push_back(c);
    append_costs(row, count + 1, item, graph.call_costs);
}

void Loader::check_call_ids(const Where& at, size_t rows, const CallGraphTables& graph) const
{
    const size_t fns = p_.functions.size(), files = p_.files.size();
    for (size_t i = 0; i < rows; ++i) {
        const CallEdge& c = graph.calls[i];
        const Where item = at.element(i), caller = item.element(0), callee = item.element(1),
                    file = item.element(2);
        check_id(c.caller, caller, "fn", fns, "function");
        check_id(c.callee, callee, "fn", fns, "function");
        check_id(c.file, file, "file", files, "file");
    }
}

// Returns, for each row of graph's inclusive table (sorted by fn), the row
// of the document it came from.
std::vector<size_t> Loader::load_inclusive(const TableSource& source, const Where& at,
                                           CallGraphTables& graph)
{
    inclusive_row_of_fn_.resize(p_.functions.size(), kNoRow);
    load_table(
        source, at,
        [&](const RowCells& row, const Where& item, size_t index) {
            add_inclusive(row, item, index, graph);
        },
        [&](size_t rows) { check_inclusive_ids(at, rows, graph); });
    for (FnId fn : graph.inclusive_fns)
        inclusive_row_of_fn_[fn.index()] = kNoRow;
    return sort_inclusive(graph);
}

void Loader::add_inclusive(const RowCells& row, const Where& item, size_t index,
                           CallGraphTables& graph)
{
    check_row(row, item, {"fn"}, {""});
    const Where fn_at = item.element(0);
    const FnId fn =
        id_at<FnId>(row[0], fn_at, "fn", table_size(p_.functions.size()), "function");
    if (!parsing_)
        check_no_second_inclusive_row(fn, index, item);
    graph.inclusive_fns.push_back(fn);
    append_costs(row, 1, item, graph.inclusive_costs);
}

void Loader::check_inclusive_ids(const Where& at, size_t rows, const CallGraphTables& graph)
{
    for (size_t i = 0; i < rows; ++i) {
        const Where item = at.element(i), fn_at = item.element(0);
        const FnId fn = graph.inclusive_fns[i];
        check_id(fn, fn_at, "fn", p_.functions.size(), "function");
        check_no_second_inclusive_row(fn, i, item);
    }
}

// One row per function, or fn_inclusive() could not say which is meant.
void Loader::check_no_second_inclusive_row(FnId fn, size_t index, const Where& item)
{
    size_t& slot = inclusive_row_of_fn_[fn.index()];
    if (slot != kNoRow) {
        const Where fn_at = item.element(0);
        fail(fn_at, cat("fn ", fn.value, " already has a row (", item.parent->str(), '[', slot,
                        "])"));
    }
    slot = index;
}

// The tool writes the rows sorted by fn; a reader sorts them if not.
std::vector<size_t> Loader::sort_inclusive(CallGraphTables& graph) const
{
    std::vector<FnId>& fns = graph.inclusive_fns;
    std::vector<uint64_t>& costs = graph.inclusive_costs;
    const size_t events = p_.num_events();
    std::vector<size_t> source_rows(fns.size());
    for (size_t i = 0; i < source_rows.size(); ++i)
        source_rows[i] = i;
    if (!std::is_sorted(fns.begin(), fns.end())) {
        std::sort(source_rows.begin(), source_rows.end(),
                  [&](size_t x, size_t y) { return fns[x] < fns[y]; });
        std::vector<FnId> sorted_fns;
        std::vector<uint64_t> sorted_costs;
        sorted_fns.reserve(fns.size());
        sorted_costs.reserve(costs.size());
        for (size_t row : source_rows) {
            sorted_fns.push_back(fns[row]);
            sorted_costs.insert(sorted_costs.end(), costs.begin() + row * events,
                                costs.begin() + (row + 1) * events);
        }
        fns.swap(sorted_fns);
        costs.swap(sorted_costs);
    }
    return source_rows;
}

void Loader::load_paths(const TableSource& source, const Where& at)
{
    load_table(
        source, at,
        [&](const RowCells& row, const Where& item, size_t node) { add_path(row, item, node); },
        [&](size_t rows) { check_path_ids(at, rows); });
}

void Loader::add_path(const RowCells& row, const Where& item, size_t node)
{
    if (node >= std::numeric_limits<uint32_t>::max())
        fail(*item.parent, "too many nodes (limit 2^32-1)");
    check_row(row, item, {"parent", "fn", "count"}, {"self ", "inclusive "});
    const Where parent = item.element(0), fn = item.element(1), count = item.element(2);
    PathNode n;
    n.parent = parent_at(row[0], parent, node);
    if (!row[1].is_null())
        n.fn = id_at<FnId>(row[1], fn, "fn", table_size(p_.functions.size()), "function");
    else if (!n.parent)
        fail(fn, "a [truncated] node (null fn) must have a parent, but this one is a root");
    n.count = uint_at(row[2], count);
    p_.paths.push_back(n);
    // The row's self costs then inclusive costs are exactly the layout of
    // path_costs_.
    append_costs(row, 3, item, p_.path_costs);
}

void Loader::check_path_ids(const Where& at, size_t rows) const
{
    for (size_t i = 0; i < rows; ++i)
        if (const std::optional<FnId> fn = p_.paths[i].fn) {
            const Where item = at.element(i), fn_at = item.element(1);
            check_id(*fn, fn_at, "fn", p_.functions.size(), "function");
        }
}

// Parents come before their children, which lets one backward pass total
// the tree and rules out cycles without a search.
std::optional<PathId> Loader::parent_at(const Cell& v, const Where& at, size_t node) const
{
    if (v.is_null())
        return std::nullopt;
    const uint64_t parent = uint_at(v, at);
    if (parent >= node)
        fail(at, cat("parent ", parent,
                     " is not an earlier node (expected null or a row index below ", node, ")"));
    return PathId(uint32_t(parent));
}

// `threads` (--separate-threads=yes): each thread's own calls, inclusive
// costs and path-tree roots. The threads split the whole program's graph
// between them, so their rows must add up to the top-level ones and their
// roots must cover the tree's once: a reader can then show one thread's
// graph knowing the others hold the rest.
void Loader::load_threads(const json::value& v, const Where& at)
{
    const json::array& a = array_at(v, at);
    const size_t events = p_.num_events();
    // Indexed by path node: the threads index of the thread whose root it is.
    std::vector<uint32_t> owner(p_.paths.size(), UINT32_MAX);
    ThreadSums sums = top_level_sums();
    p_.threads.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        const json::object& o = object_at(a[i], item);
        const Where tid = item.member("tid"), calls = item.member("calls"),
                    inclusive = item.member("inclusive"), roots = item.member("roots");
        ThreadTables t;
        t.graph.num_events = events;
        t.tid = tid_at(required(o, "tid", item), tid);
        check_tid_order(t.tid, tid);
        load_calls(TableSource{&required(o, "calls", item)}, calls, t.graph);
        const std::vector<size_t> source_rows =
            load_inclusive(TableSource{&required(o, "inclusive", item)}, inclusive, t.graph);
        load_roots(required(o, "roots", item), roots, t, owner);
        add_thread_calls(t, calls, sums);
        add_thread_inclusive(t, source_rows, inclusive, sums);
        p_.threads.push_back(std::move(t));
    }
    check_every_root_has_a_thread(owner, at);
    check_thread_sums(sums);
}

// Valgrind numbers threads from 1 (0 is its "no thread").
uint32_t Loader::tid_at(const json::value& v, const Where& at) const
{
    const uint64_t tid = uint_at(v, at);
    if (tid == 0)
        fail(at, "tid 0 is not a thread (Valgrind numbers threads from 1)");
    if (tid > std::numeric_limits<uint32_t>::max())
        fail(at, cat("tid ", tid, " is too large (limit 2^32-1)"));
    return uint32_t(tid);
}

// Sorted, each tid once, so that Profile::thread() can search them.
void Loader::check_tid_order(uint32_t tid, const Where& at) const
{
    if (p_.threads.empty())
        return;
    const size_t previous = p_.threads.size() - 1;
    const uint32_t before = p_.threads.back().tid;
    if (tid == before)
        fail(at, cat("tid ", tid, " is listed twice (threads[", previous, "] has it too)"));
    if (tid < before)
        fail(at, cat("tid ", tid, " comes after tid ", before, " (threads[", previous,
                     "]); threads are sorted by tid"));
}

void Loader::load_roots(const json::value& v, const Where& at, ThreadTables& thread,
                        std::vector<uint32_t>& owner) const
{
    const json::array& a = array_at(v, at);
    thread.roots.reserve(a.size());
    const uint32_t this_thread = uint32_t(p_.threads.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        const PathId root = id_at<PathId>(a[i], item, "path", p_.paths.size(), "node");
        if (const std::optional<PathId> parent = p_.paths[root.index()].parent)
            fail(item, cat("paths[", root.value, "] is not a root (its parent is paths[",
                           parent->value, "])"));
        uint32_t& slot = owner[root.index()];
        if (slot != UINT32_MAX) {
            const uint32_t tid = slot == this_thread ? thread.tid : p_.threads[slot].tid;
            fail(item, cat("paths[", root.value, "] is already a root of tid ", tid,
                           " (threads[", slot, "])"));
        }
        slot = this_thread;
        thread.roots.push_back(root);
    }
}

void Loader::check_every_root_has_a_thread(const std::vector<uint32_t>& owner,
                                           const Where& threads) const
{
    for (size_t node = 0; node < p_.paths.size(); ++node)
        if (!p_.paths[node].parent && owner[node] == UINT32_MAX)
            fail(threads, cat("paths[", node, "] is a root but no thread lists it in its roots"));
}

// The top-level side of the comparison: calls rows keyed by (caller,
// callee, file, line), and room for the threads' sums.
Loader::ThreadSums Loader::top_level_sums() const
{
    const size_t width = 1 + p_.num_events();  // count, then costs
    const std::vector<CallEdge>& calls = p_.graph.calls;
    ThreadSums sums;
    sums.call_slot.reserve(calls.size());
    for (size_t row = 0; row < calls.size(); ++row) {
        const auto [it, added] =
            sums.call_slot.try_emplace(CallKey(calls[row]), sums.call_row.size());
        if (added) {
            sums.call_row.push_back(row);
            sums.top_calls.resize(sums.top_calls.size() + width);
        }
        CheckedSum* top = &sums.top_calls[it->second * width];
        top[0].add(calls[row].count);
        const uint64_t* cost = &p_.graph.call_costs[row * p_.num_events()];
        for (size_t e = 0; e < p_.num_events(); ++e)
            top[1 + e].add(cost[e]);
    }
    sums.thread_calls.resize(sums.top_calls.size());
    sums.thread_inclusive.resize(p_.graph.inclusive_costs.size());
    return sums;
}

void Loader::add_thread_calls(const ThreadTables& thread, const Where& calls, ThreadSums& sums) const
{
    const size_t events = p_.num_events(), width = 1 + events;
    for (size_t row = 0; row < thread.graph.calls.size(); ++row) {
        const CallEdge& edge = thread.graph.calls[row];
        const auto it = sums.call_slot.find(CallKey(edge));
        if (it == sums.call_slot.end()) {
            const Where item = calls.element(row);
            fail(item, cat("no top-level calls row has this caller, callee and call site (fn ",
                           edge.caller.value, " calls fn ", edge.callee.value, " at file ",
                           edge.file.value, " line ", edge.line, ")"));
        }
        CheckedSum* sum = &sums.thread_calls[it->second * width];
        sum[0].add(edge.count);
        const uint64_t* cost = &thread.graph.call_costs[row * events];
        for (size_t e = 0; e < events; ++e)
            sum[1 + e].add(cost[e]);
    }
}

void Loader::add_thread_inclusive(const ThreadTables& thread, const std::vector<size_t>& source_rows,
                                  const Where& inclusive, ThreadSums& sums) const
{
    const size_t events = p_.num_events();
    const std::vector<FnId>& top_fns = p_.graph.inclusive_fns;
    for (size_t i = 0; i < thread.graph.inclusive_fns.size(); ++i) {
        const FnId fn = thread.graph.inclusive_fns[i];
        const auto it = std::lower_bound(top_fns.begin(), top_fns.end(), fn);
        if (it == top_fns.end() || *it != fn) {
            const Where item = inclusive.element(source_rows[i]);
            fail(item, cat("fn ", fn.value, " has no top-level inclusive row"));
        }
        const size_t top_row = size_t(it - top_fns.begin());
        const uint64_t* cost = &thread.graph.inclusive_costs[i * events];
        for (size_t e = 0; e < events; ++e)
            sums.thread_inclusive[top_row * events + e].add(cost[e]);
    }
}

// A mismatch is reported at the top-level row, with what the threads'
// rows add up to: the row the threads do not account for.
void Loader::check_thread_sums(const ThreadSums& sums) const
{
    const Where top, calls = top.member("calls"), inclusive = top.member("inclusive");
    const size_t events = p_.num_events(), width = 1 + events;
    const std::vector<std::string>& names = p_.meta.events;
    for (size_t slot = 0; slot < sums.call_row.size(); ++slot) {
        const CheckedSum *threads = &sums.thread_calls[slot * width],
                         *total = &sums.top_calls[slot * width];
        const Where item = calls.element(sums.call_row[slot]);
        if (!(threads[0] == total[0]))
            fail(item, cat("the threads' calls add up to ", threads[0].str(),
                           threads[0].value == 1 && !threads[0].overflow ? " call" : " calls",
                           ", not ", total[0].str()));
        for (size_t e = 0; e < events; ++e)
            if (!(threads[1 + e] == total[1 + e]))
                fail(item, cat("the threads' ", names[e], " costs add up to ",
                               threads[1 + e].str(), ", not ", total[1 + e].str()));
    }
    for (size_t row = 0; row < p_.graph.inclusive_fns.size(); ++row)
        for (size_t e = 0; e < events; ++e) {
            const CheckedSum& threads = sums.thread_inclusive[row * events + e];
            const uint64_t total = p_.graph.inclusive_costs[row * events + e];
            if (threads.overflow || threads.value != total) {
                const Where item = inclusive.element(inclusive_source_rows_[row]);
                fail(item, cat("the threads' ", names[e], " inclusive costs add up to ",
                               threads.str(), ", not ", total));
            }
        }
}

} // namespace vgprof::detail
