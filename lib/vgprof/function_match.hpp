// SPDX-License-Identifier: GPL-2.0-or-later
// Which function of one profile is which of another. Function ids differ
// from one profile to the next, so functions are matched by what names
// them: first by name, object basename and source file; what is left, by
// name and object alone (a function moved to another file); what is left
// then, by identical code under another name (a rename). `vgprof diff`
// compares the costs of matched functions, and the viewer's diff mode
// colors them, by this one pairing.
#ifndef VGPROF_FUNCTION_MATCH_HPP
#define VGPROF_FUNCTION_MATCH_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vgprof {

// The functions of one profile that stand for one function: those that
// share a function_match_key (a library loaded
// twice, from two directories; a function whose entry has two lines).
struct FunctionGroup {
    std::string name;
    std::string object;  // the first function's object path
    std::string file;    // source path; "???" when unknown
    uint32_t line = 0;   // the first function's entry line (0: unknown)
    std::vector<FnId> fns;
};

// How a function of the base profile became one of the new profile.
enum class FunctionChange {
    same,     // the same name, object and source file, and entry line
    moved,    // the same name and object, another file or entry line
    renamed,  // another name, the same object and identical code (see below)
    removed,  // only in the base profile
    added,    // only in the new profile
};

// "same", "moved", "renamed", "removed", "added".
const char* change_name(FunctionChange change);

struct FunctionMatch {
    std::optional<FunctionGroup> base, now;  // both, unless removed or added
    FunctionChange change = FunctionChange::same;
};

// Every function of either profile that has a cost in it, matched:
//  1. by name, object basename and file: same, or moved when the entry
//     line differs;
//  2. among the rest, by name and object basename where that names one
//     function on each side: moved;
//  3. among the rest, a function of the base and one of the new profile in
//     objects of the same basename whose code ran identically: the same
//     self cost of every event both recorded on each line, counted from the
//     function's entry line, and the same calls (callee names and counts);
//     when exactly one function on each side fits the other: renamed.
// What is left is removed or added. Ordered by the new profile's name,
// object basename and file (the base's for removed functions). When one
// profile names objects and the other does not (a cachegrind file names
// none, and splits a function by the file of each line's code), functions
// pair by name alone.
std::vector<FunctionMatch> match_functions(const Profile& base, const Profile& now);

// Whether any function of `p` has a known object.
bool names_objects(const Profile& p);

} // namespace vgprof

#endif
