// SPDX-License-Identifier: GPL-2.0-or-later
// Filtering and ordering the Functions view.
#include "function_table.hpp"

#include <algorithm>
#include <cctype>

namespace vgprof::viewer {

bool contains_ignoring_case(std::string_view name, std::string_view needle)
{
    const auto same = [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) ==
               std::tolower(static_cast<unsigned char>(b));
    };
    return std::search(name.begin(), name.end(), needle.begin(), needle.end(), same) != name.end();
}

FunctionTable::FunctionTable(const Document& doc, const DiffLink* diff) : doc_(&doc), diff_(diff)
{
    sort_all();
    apply_filter();
}

void FunctionTable::set_filter(std::string_view text)
{
    if (text == filter_)
        return;
    filter_ = std::string(text);
    apply_filter();
}

void FunctionTable::set_only(std::optional<std::vector<FnId>> fns)
{
    if (fns)
        std::sort(fns->begin(), fns->end());
    if (fns == only_)
        return;
    only_ = std::move(fns);
    apply_filter();
}

void FunctionTable::set_costs(const std::vector<FunctionCost>* costs)
{
    if (costs == costs_)
        return;
    costs_ = costs;
    sort_all();
    apply_filter();
}

uint64_t FunctionTable::self(FnId fn, size_t event) const
{
    return costs_ ? (*costs_)[fn.index()].self[event] : doc_->self(fn, event);
}

uint64_t FunctionTable::inclusive(FnId fn, size_t event) const
{
    return costs_ ? (*costs_)[fn.index()].inclusive[event] : doc_->inclusive(fn, event);
}

void FunctionTable::set_order(const TableOrder& order)
{
    if (order == order_)
        return;
    order_ = order;
    sort_all();
    apply_filter();
}

void FunctionTable::apply_filter()
{
    const Profile& p = doc_->profile();
    rows_.clear();
    const auto kept = [&](FnId fn) {
        return !only_ || std::binary_search(only_->begin(), only_->end(), fn);
    };
    for (FnId fn : sorted_)
        if (kept(fn) && (filter_.empty() || contains_ignoring_case(p.fn_name(fn), filter_)))
            rows_.push_back(fn);
}

std::optional<size_t> FunctionTable::row_of(FnId fn) const
{
    const auto it = std::find(rows_.begin(), rows_.end(), fn);
    if (it == rows_.end())
        return std::nullopt;
    return size_t(it - rows_.begin());
}

void FunctionTable::sort_all()
{
    const Profile& p = doc_->profile();
    sorted_.resize(p.functions().size());
    for (size_t i = 0; i < sorted_.size(); ++i)
        sorted_[i] = FnId{uint32_t(i)};
    // A thread's table lists the functions that ran in it, as `vgprof
    // report --thread` does.
    if (doc_->thread()) {
        const auto never_ran = [&](FnId fn) {
            const FunctionCost& c = doc_->cost(fn);
            return std::all_of(c.self.begin(), c.self.end(), [](uint64_t v) { return v == 0; }) &&
                   std::all_of(c.inclusive.begin(), c.inclusive.end(),
                               [](uint64_t v) { return v == 0; });
        };
        sorted_.erase(std::remove_if(sorted_.begin(), sorted_.end(), never_ran), sorted_.end());
    }

    // Ties (and the name order) go by name then id, so equal costs keep a
    // fixed order however the table was ordered before.
    const auto by_name = [&](FnId a, FnId b) {
        const int c = p.fn_name(a).compare(p.fn_name(b));
        return c != 0 ? c < 0 : a < b;
    };
    if (order_.by_name) {
        std::sort(sorted_.begin(), sorted_.end(), by_name);
        if (order_.descending)
            std::reverse(sorted_.begin(), sorted_.end());
        return;
    }
    const size_t e = order_.event;
    const bool incl = order_.kind == CostKind::inclusive;
    std::vector<uint64_t> cost(p.functions().size());
    std::vector<int64_t> delta;
    if (diff_) {
        delta.resize(cost.size());
        for (FnId fn : sorted_)
            delta[fn.index()] = incl ? diff_->inclusive_delta(fn, e) : diff_->self_delta(fn, e);
    } else {
        for (FnId fn : sorted_)
            cost[fn.index()] = incl ? inclusive(fn, e) : self(fn, e);
    }
    const bool descending = order_.descending;
    std::sort(sorted_.begin(), sorted_.end(), [&](FnId a, FnId b) {
        if (diff_) {
            const int64_t da = delta[a.index()], db = delta[b.index()];
            if (da != db)
                return descending ? da > db : da < db;
        } else {
            const uint64_t ca = cost[a.index()], cb = cost[b.index()];
            if (ca != cb)
                return descending ? ca > cb : ca < cb;
        }
        return by_name(a, b);
    });
}

} // namespace vgprof::viewer
