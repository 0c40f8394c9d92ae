// SPDX-License-Identifier: GPL-2.0-or-later
// Whether two profiles compare: what keeps them from it (another program,
// arguments, events, caches, tool, heap or translation options,
// environment or working directory) and what only deserves a word.
// Internal to libvgprof: diff_profiles fills DiffResult::differences and
// DiffResult::warnings with these.
#ifndef VGPROF_DIFF_COMPAT_HPP
#define VGPROF_DIFF_COMPAT_HPP

#include "vgprof/profile.hpp"

#include <map>
#include <string>
#include <vector>

namespace vgprof::detail {

// One clause per difference, e.g. "the environments differ: HOME has
// another value".
std::vector<std::string> comparison_differences(const Profile& base, const Profile& now);

// One sentence per warning.
std::vector<std::string> comparison_warnings(const Profile& base, const Profile& now);

// The tool options that change what is counted, with their values in
// effect (the defaults for those not given; a repeatable option's values
// joined by spaces, in order): call-graph, instr-atstart, collect-atstart,
// toggle-collect, heap, heap-depth, alloc-fn.
std::map<std::string, std::string> counting_options(const std::vector<std::string>& options);

// The Valgrind options that change how code is translated or named:
// --vex-*, --smc-check, --demangle, --fullpath-after, --read-inline-info,
// --sim-hints, --fair-sched, --kernel-variant, --main-stacksize, the last
// value of each.
std::map<std::string, std::string> translation_options(const std::vector<std::string>& options);

} // namespace vgprof::detail

#endif
