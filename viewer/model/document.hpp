// SPDX-License-Identifier: GPL-2.0-or-later
// A profile as the viewer holds it: the loaded Profile plus the indexes the
// views look things up by (each function's costs, its calls in and out, its
// source lines, each path node's children), built once on the load thread
// so that no view scans a whole table while drawing a frame.
//
// A profile with per-thread graphs also gives a Document per thread: the
// same Profile, shared, seen through the thread's part of the call-path
// tree and its own call graph (the viewer's thread chooser). Its costs,
// calls, roots and totals are the thread's; lines, files, the heap and the
// names stay the whole program's.
#ifndef VGPROF_VIEWER_DOCUMENT_HPP
#define VGPROF_VIEWER_DOCUMENT_HPP


#include "names.hpp"

#include "vgprof/profile.hpp"
#include "vgprof/query.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vgprof::viewer {

// Rows of one table grouped by a key: the rows of key k are
// rows[start[k]] .. rows[start[k + 1] - 1], in table order.
struct RowIndex {
    std::vector<uint32_t> start;
    std::vector<uint32_t> rows;

    size_t size_of(size_t key) const { return start[key + 1] - start[key]; }
    const uint32_t* begin_of(size_t key) const { return rows.data() + start[key]; }
    const uint32_t* end_of(size_t key) const { return rows.data() + start[key + 1]; }
};

// Groups row numbers 0..n-1 by key_of(row), a number below `keys`.
template <typename KeyOf>
RowIndex group_rows(size_t n, size_t keys, KeyOf key_of)
{
    RowIndex index;
    index.start.assign(keys + 1, 0);
    for (size_t row = 0; row < n; ++row)
        ++index.start[key_of(row) + 1];
    for (size_t k = 0; k < keys; ++k)
        index.start[k + 1] += index.start[k];
    index.rows.resize(n);
    std::vector<uint32_t> next(index.start.begin(), index.start.end() - 1);
    for (size_t row = 0; row < n; ++row)
        index.rows[next[key_of(row)]++] = uint32_t(row);
    return index;
}

class Document {
public:
    Document(Profile profile, std::string path);
    // Thread `thread` (one of whole.profile().threads()) of `whole`, a
    // whole program's document: self costs and totals from the thread's
    // part of the call-path tree (thread_costs), calls and inclusive costs
    // from its graph, its roots as the tree's.
    Document(const Document& whole, const ThreadGraph& thread);

    const Profile& profile() const { return *profile_; }
    const std::string& path() const { return path_; }
    size_t num_events() const { return profile_->num_events(); }
    size_t num_functions() const { return profile_->functions().size(); }

    // The thread this document shows, or nullopt: the whole program.
    std::optional<uint32_t> thread() const { return thread_; }
    // The call graph whose calls and inclusive costs it shows: the
    // program's, or the thread's.
    const CallGraph& graph() const { return *graph_; }
    // Whether path node `node` is one of the document's (below one of
    // path_roots()).
    bool has_path(size_t node) const { return in_thread_.empty() || in_thread_[node]; }

    // Self and (with a call graph) inclusive costs of `fn`, one per event.
    // An inlined function's (whole program only) are its own code's and
    // what it called (vgprof/inlined.hpp): they lie within its hosts'.
    const FunctionCost& cost(FnId fn) const { return costs_[fn.index()]; }
    // Inclusive cost of `fn` for `event`; its self cost without a call graph.
    uint64_t inclusive(FnId fn, size_t event) const;
    uint64_t self(FnId fn, size_t event) const { return costs_[fn.index()].self[event]; }
    // The program's total of `event`, or the thread's.
    uint64_t total(size_t event) const { return totals_[event]; }

    // Rows of graph().calls() made by / into each function.
    const RowIndex& calls_out() const { return calls_out_; }
    const RowIndex& calls_in() const { return calls_in_; }
    // Rows of profile().lines() of each function.
    const RowIndex& lines_of_fn() const { return lines_of_fn_; }
    // Rows of profile().lines() of each source file.
    const RowIndex& lines_of_file() const { return lines_of_file_; }
    // Children of each path node, by PathId; and the roots.
    const RowIndex& path_children() const { return path_children_; }
    const std::vector<PathId>& path_roots() const { return path_roots_; }

    // The heap profile (allocation sites, live memory over time), or
    // nullptr for a profile recorded without it.
    const Heap* heap() const { return profile_->heap(); }
    // Bytes allocated by the calls on each source line (file, line), as
    // vgprof annotate counts them; empty without heap data.
    const std::map<std::pair<FileId, uint32_t>, uint64_t>& allocated_by_line() const
    {
        return allocated_by_line_;
    }
    // The same for one file, by line number (empty without heap data).
    std::vector<uint64_t> allocated_in_file(FileId file) const;

    // The command line of the profiled program, joined by spaces.
    std::string command() const;

    // What functions and allocation sites are called on screen.
    const Names& names() const { return names_; }

private:
    void index_calls();

    std::shared_ptr<const Profile> profile_;
    std::string path_;
    std::optional<uint32_t> thread_;
    const CallGraph* graph_ = nullptr;
    std::vector<bool> in_thread_;  // by path node; empty: every node
    std::vector<uint64_t> totals_;
    std::vector<FunctionCost> costs_;
    RowIndex calls_out_, calls_in_, lines_of_fn_, lines_of_file_, path_children_;
    std::vector<PathId> path_roots_;
    std::map<std::pair<FileId, uint32_t>, uint64_t> allocated_by_line_;
    Names names_;
};

} // namespace vgprof::viewer

#endif
