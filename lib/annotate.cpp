// SPDX-License-Identifier: GPL-2.0-or-later
// Per-line and per-instruction costs and the hot stretches of a listing.
#include "vgprof/annotate.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace vgprof {

std::optional<size_t> PositionCosts::row_of(uint64_t position) const
{
    const auto it = std::lower_bound(positions.begin(), positions.end(), position);
    if (it == positions.end() || *it != position)
        return std::nullopt;
    return static_cast<size_t>(it - positions.begin());
}

namespace {

// Adds `cost` at `position` to costs being gathered, keyed by position.
class PositionSums {
public:
    explicit PositionSums(size_t num_events) : num_events_(num_events) {}

    void add(uint64_t position, const uint64_t* cost)
    {
        std::vector<uint64_t>& sum = sums_[position];
        sum.resize(num_events_, 0);
        for (size_t e = 0; e < num_events_; ++e)
            sum[e] += cost[e];
    }

    bool empty() const { return sums_.empty(); }

    PositionCosts take()
    {
        PositionCosts out;
        out.num_events = num_events_;
        out.total.assign(num_events_, 0);
        for (const auto& [position, sum] : sums_) {
            out.positions.push_back(position);
            out.costs.insert(out.costs.end(), sum.begin(), sum.end());
            for (size_t e = 0; e < num_events_; ++e)
                out.total[e] += sum[e];
        }
        sums_.clear();
        return out;
    }

private:
    size_t num_events_;
    // Ordered, so the positions come out ascending.
    std::map<uint64_t, std::vector<uint64_t>> sums_;
};

} // namespace

std::vector<FileLineCosts> file_line_costs(const Profile& profile)
{
    // Sums cannot overflow: the loader has checked that each event's total
    // over all lines fits in 64 bits.
    std::vector<PositionSums> by_file(profile.files().size(), PositionSums(profile.num_events()));
    const auto& lines = profile.lines();
    for (size_t row = 0; row < lines.size(); ++row)
        by_file[lines[row].file.index()].add(lines[row].line, profile.line_cost(row));
    std::vector<FileLineCosts> out;
    for (size_t i = 0; i < by_file.size(); ++i)
        if (!by_file[i].empty())
            out.push_back({FileId(uint32_t(i)), by_file[i].take()});
    return out;
}

void sort_by_cost(std::vector<FileLineCosts>& files, const Profile& profile, size_t event)
{
    std::sort(files.begin(), files.end(), [&](const FileLineCosts& a, const FileLineCosts& b) {
        const uint64_t ca = a.lines.total[event], cb = b.lines.total[event];
        if (ca != cb)
            return ca > cb;
        return std::tie(profile.file_path(a.file), a.file) <
               std::tie(profile.file_path(b.file), b.file);
    });
}

std::vector<FunctionCost> function_costs_in_file(const Profile& profile, FileId file)
{
    const size_t events = profile.num_events();
    std::map<FnId, FunctionCost> costs;
    const auto& lines = profile.lines();
    for (size_t row = 0; row < lines.size(); ++row) {
        if (lines[row].file != file)
            continue;
        FunctionCost& c = costs[lines[row].fn];
        c.fn = lines[row].fn;
        c.self.resize(events, 0);
        const uint64_t* cost = profile.line_cost(row);
        for (size_t e = 0; e < events; ++e)
            c.self[e] += cost[e];
    }
    std::vector<FunctionCost> out;
    for (auto& entry : costs)
        out.push_back(std::move(entry.second));
    return out;
}

std::vector<PositionCosts> function_instr_costs(const Profile& profile,
                                                const std::vector<FnId>& fns)
{
    std::unordered_map<FnId, size_t> slot;
    for (size_t i = 0; i < fns.size(); ++i)
        slot.emplace(fns[i], i);
    std::vector<PositionSums> sums(fns.size(), PositionSums(profile.num_events()));
    const auto& instrs = profile.instrs();
    for (size_t row = 0; row < instrs.size(); ++row)
        if (const auto it = slot.find(instrs[row].fn); it != slot.end())
            sums[it->second].add(instrs[row].addr, profile.instr_cost(row));
    std::vector<PositionCosts> out;
    for (size_t i = 0; i < fns.size(); ++i)
        out.push_back(sums[slot.at(fns[i])].take());
    return out;
}

std::vector<Region> hot_regions(const std::vector<size_t>& hot, size_t count, size_t context)
{
    std::vector<Region> regions;
    for (size_t position : hot) {
        const size_t first = position > context ? position - context : 0;
        const size_t last = std::min(count - 1, position + std::min(context, count));
        // Touching stretches merge too: a gap of no lines would only add a
        // separator between two parts of one listing.
        if (!regions.empty() && first <= regions.back().last + 1)
            regions.back().last = std::max(regions.back().last, last);
        else
            regions.push_back({first, last});
    }
    return regions;
}

} // namespace vgprof
