// SPDX-License-Identifier: GPL-2.0-or-later
// Which code is the program's own, as opposed to its toolchain's and
// system's: the place vgprof names for a cost is the innermost frame of the
// user's own code, the rest of the stack one step away.
//
// By default a frame is not the program's own when its source file is
// unknown, or one of the toolchain's (Rust's standard library under
// /rustc/<commit>/ or /rust/deps/, crates from a cargo registry or git
// checkout, C and C++ headers under /usr/include, GCC's under /usr/lib/gcc),
// or when its object is a system library (under /lib, /usr/lib, /lib64,
// /usr/lib64, /usr/libexec: the C library, libstdc++) or Valgrind's preload
// library. Everything else is: a cargo or CMake project's sources, wherever
// they are, with no setting. A user's rules (--own, --not-own) come first.
#ifndef VGPROF_OWN_CODE_HPP
#define VGPROF_OWN_CODE_HPP

#include "vgprof/profile.hpp"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace vgprof {

// What a user says counts as their own code, or not: each a path prefix
// (whole components: "/src" is not "/srcdir") or a glob with '*' and '?'
// ("*/vendor/*"), matched against a frame's source file and its object's
// path. When both lists match, the longer pattern decides.
struct OwnCodeRules {
    std::vector<std::string> own, not_own;
};

class OwnCode {
public:
    explicit OwnCode(const Profile& profile, OwnCodeRules rules = {});

    // Whether code of function `fn` at source file `file` is the program's
    // own.
    bool is_own(FnId fn, FileId file) const;

    // The innermost frame of the site's stack, past the allocator, that is
    // the program's own; nullopt when none is.
    std::optional<FrameId> own_frame(const HeapSite& site) const;

    // own_frame, else the frame that called the allocator
    // (allocating_frame): the one place to name for a site.
    std::optional<FrameId> named_frame(const HeapSite& site) const;

private:
    // The first own frame from `first`, the frame that called the allocator.
    std::optional<FrameId> own_frame_from(const HeapSite& site, FrameId first) const;

    const Profile& profile_;
    OwnCodeRules rules_;
};

// A line of the program's own code through which code that is not its own
// was called, directly or through more such code, and the part of that
// code's cost that came through it.
struct OwnCallSite {
    // The own function whose code holds the line: the calling function, or
    // a function inlined into it.
    FnId fn;
    FileId file;
    uint32_t line = 0;
    double cost = 0;
};

// The own lines through which `fns` (code that is not the program's own)
// were called, with the part of their self cost of `event` that came
// through each, the most first. The call graph is walked from callee to
// callers until a call site lies in own code, followed out through the
// calls inlined at it (a call made from the standard library's code
// inlined into the program is the program's line that inlined it). A
// function's cost is split between its calls by their inclusive costs, as
// the call graph gives no finer account. Empty without a call graph.
std::vector<OwnCallSite> own_call_sites(const Profile& profile, const OwnCode& own,
                                        const std::vector<FnId>& fns, size_t event);

// own_call_sites for many functions of one profile: the call graph's and
// the inline tables' indexes built once.
class OwnCallers {
public:
    OwnCallers(const Profile& profile, OwnCode own);

    std::vector<OwnCallSite> sites(const std::vector<FnId>& fns, size_t event) const;

private:
    // The own line of the site of calls()[row], found the first time asked.
    const std::optional<OwnCallSite>& site_of(size_t row) const;

    const Profile& p_;
    OwnCode own_;
    std::unordered_map<FnId, std::vector<size_t>> calls_into_;  // rows of calls(), by callee
    // The innermost inlined call whose code holds each (function, file,
    // line), the one of most cost where several share it: (cost, call).
    std::map<std::tuple<FnId, FileId, uint32_t>, std::pair<uint64_t, uint32_t>> inlined_at_;
    // Per row of calls(): whether its own line was looked for, and it.
    mutable std::vector<std::pair<bool, std::optional<OwnCallSite>>> sites_;
    std::vector<uint64_t> self_;  // each function's self costs, row-major
};

// For each node of the call-path tree, the innermost function on its path
// from the root, the node's own included, whose code is the program's own
// (an inlined function's code is in the file the inline tables put it
// in); nullopt when none is.
std::vector<std::optional<FnId>> own_functions_of_paths(const Profile& profile, const OwnCode& own);

// Whether code in source file `file` of object `object` is the program's
// own by `rules` and the defaults: a rule naming the source file decides
// alone (a user's own library installed under /usr/lib is theirs when they
// say its sources are), else the file and the object must both be.
bool is_own_code(const OwnCodeRules& rules, const std::string& file, const std::string& object);

// Whether `path` is a toolchain's or system's source file by the default
// rules above (not counting its object).
bool is_toolchain_source(const std::string& path);

// Whether `path` is a system library's object by the default rules.
bool is_system_object(const std::string& path);

} // namespace vgprof

#endif
