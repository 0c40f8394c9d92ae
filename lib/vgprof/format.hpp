// SPDX-License-Identifier: GPL-2.0-or-later
// Numbers and simulations as the reports write them, apart from the
// questions asked of a profile (query.hpp): the CLI, the exporters and the
// viewer print the same figures the same way.
#ifndef VGPROF_FORMAT_HPP
#define VGPROF_FORMAT_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace vgprof {

// 2485947 -> "2,485,947", as cg_annotate prints counts.
std::string format_thousands(uint64_t n);

// "1 block", "2,048 blocks": a count with its noun, singular for 1.
std::string count_text(uint64_t n, const char* one, const char* many);

// "I1 32768,8,64 D1 32768,8,64 LL 8388608,16,64 branches": what meta.cache
// says was simulated, each cache as size,associativity,line size, then
// "branches" or "no branches"; "nothing simulated" for none.
std::string simulation_text(const std::optional<CacheConfig>& cache);

} // namespace vgprof

#endif
