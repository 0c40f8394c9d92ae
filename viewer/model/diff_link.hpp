// SPDX-License-Identifier: GPL-2.0-or-later
// Diff mode: the viewer shows the new profile and colors every view by how
// it changed from a base profile. DiffLink finds, for each function and
// each call path of the new profile, its counterpart in the base (ids
// differ between profiles), so a view asks for a delta by the ids it
// already has. Functions pair as `vgprof diff` pairs them
// (vgprof/function_match.hpp: moved and renamed functions too); deltas are
// signed_delta's (vgprof/identity.hpp).
#ifndef VGPROF_VIEWER_DIFF_LINK_HPP
#define VGPROF_VIEWER_DIFF_LINK_HPP

#include "document.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vgprof::viewer {

// What `vgprof diff` says of two profiles before it compares them: what
// keeps them from comparing (another program, arguments, environment,
// working directory, caches or options), one clause each, which it refuses
// unless --force, and what only deserves a word.
struct Judgement {
    std::vector<std::string> differences, warnings;
};
// Judges the profiles as recorded: before the viewer adds its derived
// events, which `vgprof diff` would not list.
Judgement judge(const Profile& base, const Profile& now);

class DiffLink {
public:
    // Judged by judge() on the documents' profiles, unless given.
    DiffLink(const Document& base, const Document& now);
    DiffLink(const Document& base, const Document& now, Judgement judgement);

    const Document& base() const { return *base_; }
    const Document& now() const { return *now_; }

    // The base profile's function matching `fn` of the new one.
    std::optional<FnId> base_fn(FnId fn) const { return base_fn_[fn.index()]; }
    // The base profile's node with the same call path (from its root) as
    // `node` of the new one.
    std::optional<PathId> base_path(PathId node) const { return base_path_[node.index()]; }
    // The base's allocation site with the same stack as `site` of the new
    // profile: every frame the same function, source file and line. Both
    // profiles need heap data.
    std::optional<SiteId> base_site(SiteId site) const;
    // The change of a site's allocated bytes; a site only the new profile
    // has counts from 0.
    int64_t site_bytes_delta(SiteId site) const;

    // The position in the base's cost arrays of the new profile's `event`.
    std::optional<size_t> base_event(size_t event) const { return base_event_[event]; }

    // Changes of a function's self and inclusive cost, of a path node's
    // inclusive cost, and of an event's total; the base side counts 0 for
    // something only the new profile has.
    int64_t self_delta(FnId fn, size_t event) const;
    int64_t inclusive_delta(FnId fn, size_t event) const;
    int64_t path_delta(PathId node, size_t event) const;
    int64_t total_delta(size_t event) const;

    // The base's self costs per line of the file with the same path as the
    // new profile's `file`, summed over functions; index = line number.
    std::vector<std::vector<uint64_t>> base_line_costs(FileId file) const;
    // The base's bytes allocated from each line of that file (as
    // Document::allocated_in_file); empty when the base has no heap data
    // or no such file.
    std::vector<uint64_t> base_allocated_in_file(FileId file) const;

    const std::vector<std::string>& differences() const { return judgement_.differences; }
    const std::vector<std::string>& warnings() const { return judgement_.warnings; }

    // Functions of the base that no function of the new profile matches.
    size_t functions_only_in_base() const { return only_in_base_; }

private:
    const Document* base_;
    const Document* now_;
    std::vector<std::optional<FnId>> base_fn_;
    std::vector<std::optional<PathId>> base_path_;
    std::vector<std::optional<SiteId>> base_site_;
    std::vector<std::optional<size_t>> base_event_;
    size_t only_in_base_ = 0;
    Judgement judgement_;
};

} // namespace vgprof::viewer

#endif
