// SPDX-License-Identifier: GPL-2.0-or-later
// The calls made on each line of a source file, as KCachegrind shows them
// under the line: which function was called from there, how many times,
// and the inclusive cost of those calls. A line's own cost is only its
// instructions; a line that calls a costly function is costly through its
// calls, and this is that cost.
#ifndef VGPROF_VIEWER_SOURCE_CALLS_HPP
#define VGPROF_VIEWER_SOURCE_CALLS_HPP

#include "document.hpp"

#include <cstdint>
#include <map>
#include <vector>

namespace vgprof::viewer {

// The calls from one line to one function.
struct LineCall {
    FnId callee;
    uint64_t count = 0;
    std::vector<uint64_t> inclusive;  // one per event
};

struct FileCalls {
    // By line number: the calls made there, the most expensive of the
    // first event first (ties by callee id).
    std::map<uint32_t, std::vector<LineCall>> by_line;
    // By line number: the calls' inclusive costs added up, per event.
    std::map<uint32_t, std::vector<uint64_t>> total;
};

// The calls whose call site is in `file`, from every function whose code
// is there (merged over callers: one line is one place).
FileCalls file_calls(const Document& doc, FileId file);

// The same for the file of `path` in another profile (diff mode: the
// base's), or nothing when that profile has no such file.
FileCalls file_calls(const Document& doc, const std::string& path);

} // namespace vgprof::viewer

#endif
