// SPDX-License-Identifier: GPL-2.0-or-later
// Reading a profile: bytes in, validated Profile out. This is the only place
// in vgprof that parses profiles. It reads
//   - vgprof's own JSON profiles (docs/profile-format.md);
//   - callgrind's and cachegrind's output files (callgrind.out.*,
//     cachegrind.out.*), mapped into the same model (meta().tool names the
//     tool that wrote them);
// each plain or compressed with gzip or zstd. The format and the compression
// are recognised from the content, whatever the file is called.
#ifndef VGPROF_LOAD_HPP
#define VGPROF_LOAD_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace vgprof {

// Bounds on what loading one input may cost, and how strict it is.
struct LoadLimits {
    // The most bytes compressed data may decompress to. A few kilobytes of
    // crafted gzip or zstd data can stand for gigabytes; no profile comes
    // near this.
    uint64_t max_decompressed = uint64_t(16) << 30;
    // The longest string a profile may hold (a name, a path, an argument,
    // a JSON key; a line of a callgrind or cachegrind file). Real ones are
    // a few kilobytes at most; without a bound, one string in a crafted
    // file would need as much memory as the file is long.
    uint64_t max_string = uint64_t(16) << 20;
    // Whether a vgprof profile of format version 6 or earlier that charges
    // a function less inclusive than self cost of some event is refused. A
    // correct call graph never does, but tools of those versions did for a
    // few functions (memcpy and its variants in libc, code without a
    // symbol), so such profiles are read unless this asks for the check.
    // From version 7 the tool guarantees it, and every profile is checked.
    bool reject_inclusive_below_self = false;
};

// Told, as a file is read, how many of its bytes have been read and how
// long it is (0 when that cannot be known, as for a pipe). The profile is
// parsed as it is read, so this is the progress of the whole load but for
// the checks at the end.
using ReadProgress = std::function<void(uint64_t read, uint64_t size)>;

// Reads and validates the profile at `path`. Throws vgprof::Error, and
// nothing else, with a message that starts with `path` and says what is wrong
// and where (line and column for bad JSON, a JSON path such as lines[12][0]
// for a structural problem, a line number in a callgrind or cachegrind file,
// what failed in compressed data).
Profile load_profile(const std::string& path, const LoadLimits& limits = {},
                     const ReadProgress& progress = {});

// As load_profile, for a profile already in memory; `name_for_errors` stands
// in for the file name in messages.
Profile parse_profile(std::string_view data, const std::string& name_for_errors,
                      const LoadLimits& limits = {});

} // namespace vgprof

#endif
