// SPDX-License-Identifier: GPL-2.0-or-later
// hostile_shapes.hpp: profiles of shapes no real run takes, each at a size
// that once crashed a reader, hung it or made it take gigabytes: a call
// path 100,000 deep with a cost at every level (and one with a cost at its
// leaf only), a comb of 50,000 nested calls each with a call under it,
// allocation stacks of the most frames vgprof reads (and one more),
// 100,000 allocation sites under one caller, and the longest cache line
// Valgrind simulates (and a longer one). Each must be read, or refused with
// a clear error, by every command and view, in bounded time and memory.
#pragma once

#include "bad_inputs.hpp"

#include <string>
#include <vector>

namespace vgtest {

struct Shape {
   BadInput input;
   bool refused;        // past a limit of the format: every reader refuses it
   std::string select;  // the function the viewer is to select first
};

// Writes the shapes into `dir`. `data_profile` is a profile with a cache
// simulation, a heap and a data section, whose cache geometry is changed.
std::vector<Shape> hostile_shapes(const std::string& dir, const std::string& data_profile);

}  // namespace vgtest
