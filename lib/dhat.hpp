// SPDX-License-Identifier: GPL-2.0-or-later
// Reading DHAT's output files (dhat.out.<pid>, JSON with "dhatFileVersion"
// 2, heap mode) into the Profile model: its program points become heap
// allocation sites, its frame table heap frames. Internal to libvgprof:
// load_profile() calls it when the first bytes say so.
#ifndef VGPROF_DHAT_HPP
#define VGPROF_DHAT_HPP

#include "input.hpp"
#include "vgprof/profile.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace vgprof::detail {

// Whether `head`, the first bytes of an input, starts like a DHAT file: a
// JSON object whose first key is "dhatFileVersion".
bool is_dhat_format(std::string_view head);

// Reads a DHAT file. Throws vgprof::Error naming `name` and the place for
// anything the format does not allow, and for DHAT's other modes (copy,
// ad-hoc), which have no heap, and for a string longer than `max_string`
// bytes.
Profile read_dhat(Input& input, const std::string& name, uint64_t max_string);

} // namespace vgprof::detail

#endif
