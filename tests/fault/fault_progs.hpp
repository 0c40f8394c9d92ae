// SPDX-License-Identifier: GPL-2.0-or-later
// fault_progs.hpp: what the fault tests share: where their programs are,
// how long the long form runs, and costs read by function name from
// vgprof's and cachegrind's output.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "harness.hpp"
#include "vgprof/profile.hpp"

namespace vgtest {

// A program of tests/fault/progs with its arguments.
inline std::vector<std::string> fault_prog(const std::string& name,
                                           std::vector<std::string> args = {})
{
   const char* build = std::getenv("VGPROF_TEST_BUILD");
   args.insert(args.begin(), std::string(build ? build : ".") + "/tests/fault/progs/" + name);
   return args;
}

// scripts/stress sets VGPROF_STRESS_LONG=1 for the long form.
inline bool long_form()
{
   const char* v = std::getenv("VGPROF_STRESS_LONG");
   return v && std::string(v) == "1";
}

// Rounds of a scenario: `short_rounds` in make check, `long_rounds` in the
// long form.
inline std::string rounds(unsigned short_rounds, unsigned long_rounds)
{
   return std::to_string(long_form() ? long_rounds : short_rounds);
}

// Self Ir of the named function, summed over its lines.
inline uint64_t vgprof_ir_of(const vgprof::Profile& p, const std::string& fn)
{
   uint64_t sum = 0;
   for (const auto& [key, cost] : vgprof_lines(p, "Ir"))
      if (std::get<1>(key) == fn) sum += cost;
   return sum;
}

inline uint64_t cachegrind_ir_of(const CachegrindOut& cg, const std::string& fn)
{
   uint64_t sum = 0;
   const auto ir = cg.by_event.find("Ir");
   if (ir == cg.by_event.end()) return 0;
   for (const auto& [key, cost] : ir->second)
      if (std::get<1>(key) == fn) sum += cost;
   return sum;
}

}  // namespace vgtest
