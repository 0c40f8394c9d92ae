// SPDX-License-Identifier: GPL-2.0-or-later
// What a source or disassembly listing shows: each source file's costs line
// by line, each function's costs instruction by instruction, and which
// stretches of a long listing are worth showing (the costly lines with a few
// lines of context around them).
#ifndef VGPROF_ANNOTATE_HPP
#define VGPROF_ANNOTATE_HPP

#include "vgprof/profile.hpp"
#include "vgprof/query.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace vgprof {

// Costs at a list of positions (source lines, instruction addresses),
// ascending and distinct, with num_events costs each. The cost rows are
// the profile's events, in meta().events order.
struct PositionCosts {
    size_t num_events = 0;
    std::vector<uint64_t> positions;
    std::vector<uint64_t> costs;  // positions.size() rows of num_events, row-major
    std::vector<uint64_t> total;  // num_events: the sum of the rows

    const uint64_t* cost(size_t row) const { return &costs[row * num_events]; }
    // The row of `position`, or nullopt when nothing was recorded there.
    std::optional<size_t> row_of(uint64_t position) const;
};

// One source file's self costs line by line, summed over every function
// whose code is on the line (inlined code counts in the file it came
// from). Line 0 holds the costs of code without line information.
struct FileLineCosts {
    FileId file;
    PositionCosts lines;
};

// Every source file with a `lines` row (the "???" file too), by file id.
std::vector<FileLineCosts> file_line_costs(const Profile& profile);

// Orders by the total of `event`, highest first; equal totals by path, so
// the order does not depend on how the profile numbered its files.
void sort_by_cost(std::vector<FileLineCosts>& files, const Profile& profile, size_t event);

// The self cost of each function on the lines of `file`: what the function's
// code in that file cost. Functions without code in the file are left out;
// the rest come in function id order.
std::vector<FunctionCost> function_costs_in_file(const Profile& profile, FileId file);

// The cost of each instruction of each of `fns` (distinct functions; their
// `instrs` rows), by address, in the order of `fns`; empty positions for a function without
// instrs rows (the profile was recorded without --dump-instr=yes).
std::vector<PositionCosts> function_instr_costs(const Profile& profile,
                                                const std::vector<FnId>& fns);

// A stretch of a listing: positions first to last, both included.
struct Region {
    size_t first = 0;
    size_t last = 0;
};

// The stretches of a listing of `count` positions worth showing: each
// position of `hot` (ascending, each below count) with up to `context`
// positions on either side, stretches that overlap or touch merged into
// one. Empty when `hot` is.
std::vector<Region> hot_regions(const std::vector<size_t>& hot, size_t count, size_t context);

} // namespace vgprof

#endif
