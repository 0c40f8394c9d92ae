// SPDX-License-Identifier: GPL-2.0-or-later
// The source files a function's code came from, for the Source view's list
// of files: an optimised function's own file holds a small part of its
// cost, the rest being code the compiler inlined from headers
// (stl_vector.h) or another crate's sources (/rustc/<hash>/library/...),
// which the profile charges to those files' lines. For an inlined function
// (Function::inlined), whose cost the profile books to the functions it was
// inlined into, its code is the inline_lines rows that lie in one of its
// inlined calls.
#ifndef VGPROF_VIEWER_FUNCTION_FILES_HPP
#define VGPROF_VIEWER_FUNCTION_FILES_HPP

#include "document.hpp"
#include "selection.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace vgprof::viewer {

// The cost of one inlined function's code in a file.
struct InlinedShare {
    FnId fn;
    std::vector<uint64_t> cost;  // one per event
};

struct FunctionFile {
    FileId file;
    std::vector<uint64_t> cost;  // the function's code in the file, per event
    bool own = false;            // the file of the function's entry point
    // The inlined functions whose code (the innermost inlined call) lies in
    // the file, the costliest of the event first; the code that lies in no
    // inlined call is the function's own and is not among them.
    std::vector<InlinedShare> inlined;
};

struct FunctionFiles {
    // The own file first, then the others, the costliest of the event
    // first; a "???" file (code without line information) last.
    std::vector<FunctionFile> files;
    std::vector<uint64_t> total;  // the function's self cost: the files' sum
};

// The files of `fn`'s code with their costs, ordered by `event`.
FunctionFiles files_of_function(const Document& doc, FnId fn, size_t event);

// The cost of `fn`'s code on each line of `file`, by line number (as
// files_of_function counts it, line 0 included).
std::map<uint32_t, std::vector<uint64_t>> function_cost_by_line(const Document& doc, FnId fn, FileId file);

// The file to show first for `fn`: its entry point's, else the one holding
// most of its code for `event`; nullopt when its code has no known file.
std::optional<FileId> first_file_of(const Document& doc, FnId fn, size_t event);

// The source line `spec` ("FILE:LINE", FILE as the profile names it or
// the last parts of its path, "stl_vector.h:1278") names, with the
// function whose code is there: `fn` when it has code on the line, else
// the one that cost most there of `event`, else `fn`. Throws vgprof::Error
// when FILE is no file of the profile or names several, or LINE is no
// number.
Selection line_to_select(const Document& doc, const std::string& spec, std::optional<FnId> fn, size_t event);

} // namespace vgprof::viewer

#endif
