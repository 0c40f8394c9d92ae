// SPDX-License-Identifier: GPL-2.0-or-later
// Reading callgrind's and cachegrind's output files (the callgrind format,
// of which cachegrind's is a subset) into the Profile model. Internal to
// libvgprof: load_profile() calls it when the first bytes say so.
#ifndef VGPROF_CALLGRIND_HPP
#define VGPROF_CALLGRIND_HPP

#include "input.hpp"
#include "vgprof/profile.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace vgprof::detail {

// How many of the first bytes is_callgrind_format() wants to see.
inline constexpr size_t kCallgrindSniffBytes = 4096;

// Whether `head`, the first bytes of an input, starts like a callgrind or
// cachegrind file: comment lines, then a header line such as "version: 1",
// "desc: ..." or "events: ...". JSON never does.
bool is_callgrind_format(std::string_view head);

// Reads a callgrind or cachegrind file. Throws vgprof::Error naming `name`
// and the line for anything the format does not allow, and for a line
// longer than `max_line` bytes.
Profile read_callgrind(Input& input, const std::string& name, uint64_t max_line);

} // namespace vgprof::detail

#endif
