// SPDX-License-Identifier: GPL-2.0-or-later
// The Source view's content: the selected function's source file, each line
// with what the profile charged to it (summed over every function whose code
// is on it, as cg_annotate annotates a file), marked when the selected
// function's own code is there (its code inlined from the file included,
// and an inlined function's code wherever it was inlined), and the line to
// scroll to: the function's most expensive line for the chosen event.
#ifndef VGPROF_VIEWER_SOURCE_LINES_HPP
#define VGPROF_VIEWER_SOURCE_LINES_HPP

#include "diff_link.hpp"
#include "document.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vgprof::viewer {

struct SourceLine {
    uint32_t number = 0;             // from 1
    std::string text;
    std::vector<uint64_t> cost;      // one per event; zeros for an uncharged line
    std::vector<int64_t> delta;      // diff mode: the change per event
    bool in_function = false;        // the selected function has code here
    std::vector<uint64_t> fn_cost;   // in_function: that code's cost, per event
};

struct SourceFile {
    FileId file;
    std::string path;
    std::vector<SourceLine> lines;
    std::vector<uint64_t> max_cost;  // per event, the largest line cost
    // The selected function's most expensive line of the event; nullopt
    // when it has none in this file.
    std::optional<uint32_t> hottest;
    // Costs charged to line numbers past the end of the text (a file that
    // changed since the run), so a stale source is noticed.
    bool stale = false;
};

// The file a function's entry point is in, or nullopt when unknown ("???").
std::optional<FileId> source_file_of(const Document& doc, FnId fn);

// Splits `text` into lines and charges them from the profile's lines rows
// of `file`, for the selected `fn` and `event`. With `diff`, fills each
// line's delta against the base's file of the same path.
SourceFile annotate_source(const Document& doc, FileId file, std::string_view text, FnId fn,
                           size_t event, const DiffLink* diff);

} // namespace vgprof::viewer

#endif
