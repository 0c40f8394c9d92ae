// SPDX-License-Identifier: GPL-2.0-or-later
// Reading a profile: JSON text in, validated Profile out. This is the only
// place in vgprof that parses JSON.
#ifndef VGPROF_LOAD_HPP
#define VGPROF_LOAD_HPP

#include "vgprof/profile.hpp"

#include <string>
#include <string_view>

namespace vgprof {

// Reads and validates the profile at `path`. Throws vgprof::Error, and
// nothing else, with a message that starts with `path` and says what is wrong
// and where (line and column for bad JSON, a JSON path such as lines[12][0]
// for a structural problem).
Profile load_profile(const std::string& path);

// As load_profile, for a profile already in memory; `name_for_errors` stands
// in for the file name in messages.
Profile parse_profile(std::string_view text, const std::string& name_for_errors);

} // namespace vgprof

#endif
