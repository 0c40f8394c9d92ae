// SPDX-License-Identifier: GPL-2.0-or-later
// The Functions view's rows: every function of the profile (of a thread's
// document, those that ran in the thread), narrowed by a search text and
// ordered by any column. The view draws only the rows on
// screen, so the work is here, done when the search or the order changes
// rather than every frame.
#ifndef VGPROF_VIEWER_FUNCTION_TABLE_HPP
#define VGPROF_VIEWER_FUNCTION_TABLE_HPP

#include "diff_link.hpp"
#include "document.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vgprof::viewer {

// What the table is ordered by: the function's name, or one event's self or
// inclusive cost (in diff mode, its change).
struct TableOrder {
    bool by_name = false;
    CostKind kind = CostKind::inclusive;
    size_t event = 0;
    bool descending = true;

    friend bool operator==(const TableOrder& a, const TableOrder& b)
    {
        return a.by_name == b.by_name && a.kind == b.kind && a.event == b.event &&
               a.descending == b.descending;
    }
};

// Whether `name` contains `needle`, ignoring ASCII case.
bool contains_ignoring_case(std::string_view name, std::string_view needle);

class FunctionTable {
public:
    // `diff` (or nullptr) orders cost columns by change instead of cost.
    FunctionTable(const Document& doc, const DiffLink* diff);

    // Keeps the functions whose name contains `text` (any case); "" keeps all.
    void set_filter(std::string_view text);
    // Keeps only `fns` (the functions that missed on a data object
    // selected), and the search within them; nullopt keeps every function.
    void set_only(std::optional<std::vector<FnId>> fns);
    bool narrowed() const { return only_.has_value(); }
    // Orders and shows these costs (by function id: those of a range of
    // time) instead of the document's; nullptr: the document's. The
    // vector must outlive its use here.
    void set_costs(const std::vector<FunctionCost>* costs);
    uint64_t self(FnId fn, size_t event) const;
    uint64_t inclusive(FnId fn, size_t event) const;
    void set_order(const TableOrder& order);
    const std::string& filter() const { return filter_; }
    const TableOrder& order() const { return order_; }

    const std::vector<FnId>& rows() const { return rows_; }
    // The row showing `fn`, or nullopt when the filter hides it.
    std::optional<size_t> row_of(FnId fn) const;

private:
    // Orders every function (when the order changes), then keeps those
    // the filter lets through (when either changes): typing in the search
    // box costs a pass over the names, not a sort.
    void sort_all();
    void apply_filter();

    const Document* doc_;
    const DiffLink* diff_;
    std::string filter_;
    std::optional<std::vector<FnId>> only_;  // sorted
    const std::vector<FunctionCost>* costs_ = nullptr;
    TableOrder order_;
    std::vector<FnId> sorted_;
    std::vector<FnId> rows_;
};

} // namespace vgprof::viewer

#endif
