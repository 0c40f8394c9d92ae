// SPDX-License-Identifier: GPL-2.0-or-later
// Matching the functions and call paths of two profiles.
#include "diff_link.hpp"

#include "vgprof/diff.hpp"
#include "vgprof/function_match.hpp"
#include "vgprof/identity.hpp"

#include <map>
#include <unordered_map>

namespace vgprof::viewer {

namespace {

// The node of `base` under `parent` (a root when nullopt) for base function
// `fn`: children are looked up through a map built once per parent.
struct ChildFinder {
    const Document& base;
    std::unordered_map<uint64_t, uint32_t> children;  // (parent + 1) << 32 | fn -> node

    explicit ChildFinder(const Document& b) : base(b)
    {
        const auto& paths = b.profile().paths();
        for (size_t node = 0; node < paths.size(); ++node) {
            if (!paths[node].fn)
                continue;
            const uint64_t parent = paths[node].parent ? paths[node].parent->value + 1 : 0;
            children.emplace(parent << 32 | paths[node].fn->value, uint32_t(node));
        }
    }

    std::optional<PathId> find(std::optional<PathId> parent, FnId fn) const
    {
        const uint64_t p = parent ? parent->value + 1 : 0;
        const auto it = children.find(p << 32 | fn.value);
        if (it == children.end())
            return std::nullopt;
        return PathId(it->second);
    }
};

// A site's stack as text: each frame's function (by `pair`, the index of
// the function's pairing in match_functions' list, the same on both sides),
// file and line. Empty when a frame's function has no counterpart, so the
// site can match none.
std::string stack_key(const Profile& p, const HeapSite& site,
                      const std::vector<std::optional<uint32_t>>& pair)
{
    const Heap& heap = *p.heap();
    std::string key;
    for (FrameId id : site.frames) {
        const HeapFrame& f = heap.frame(id);
        if (!pair[f.fn.index()])
            return {};
        key += std::to_string(*pair[f.fn.index()]) + '\x1f' + p.file_path(f.file) + ':' +
               std::to_string(f.line) + '\x1e';
    }
    return key;
}

} // namespace

Judgement judge(const Profile& base, const Profile& now)
{
    return {comparison_differences(base, now), comparison_warnings(base, now)};
}

DiffLink::DiffLink(const Document& base, const Document& now)
    : DiffLink(base, now, judge(base.profile(), now.profile()))
{
}

DiffLink::DiffLink(const Document& base, const Document& now, Judgement judgement)
    : base_(&base), now_(&now), judgement_(std::move(judgement))
{
    const Profile& b = base.profile();
    const Profile& n = now.profile();

    // Each function of a pair on either side, the pair's index.
    std::vector<std::optional<uint32_t>> base_pair(b.functions().size()),
        now_pair(n.functions().size());
    base_fn_.resize(n.functions().size());
    const std::vector<FunctionMatch> matches = match_functions(b, n);
    for (size_t i = 0; i < matches.size(); ++i) {
        const FunctionMatch& m = matches[i];
        if (m.base && !m.now)
            only_in_base_ += m.base->fns.size();
        if (!m.base || !m.now)
            continue;
        for (const FnId fn : m.base->fns)
            base_pair[fn.index()] = uint32_t(i);
        for (const FnId fn : m.now->fns) {
            now_pair[fn.index()] = uint32_t(i);
            base_fn_[fn.index()] = m.base->fns.front();
        }
    }

    // Parents come before children, so one pass in row order matches each
    // node once its parent is matched.
    const ChildFinder finder(base);
    const auto& paths = n.paths();
    base_path_.resize(paths.size());
    for (size_t node = 0; node < paths.size(); ++node) {
        const PathNode& p = paths[node];
        if (!p.fn || !base_fn_[p.fn->index()])
            continue;
        if (p.parent && !base_path_[p.parent->index()])
            continue;
        const std::optional<PathId> parent =
            p.parent ? base_path_[p.parent->index()] : std::optional<PathId>();
        base_path_[node] = finder.find(parent, *base_fn_[p.fn->index()]);
    }

    for (const std::string& event : n.meta().events)
        base_event_.push_back(b.event_index(event));

    if (n.heap() && b.heap()) {
        std::map<std::string, SiteId> base_sites;
        for (size_t i = 0; i < b.heap()->sites.size(); ++i)
            if (std::string key = stack_key(b, b.heap()->sites[i], base_pair); !key.empty())
                base_sites.emplace(std::move(key), SiteId(uint32_t(i)));
        for (const HeapSite& site : n.heap()->sites) {
            const auto it = base_sites.find(stack_key(n, site, now_pair));
            base_site_.push_back(it == base_sites.end() ? std::nullopt
                                                        : std::optional<SiteId>(it->second));
        }
    }
}

std::optional<SiteId> DiffLink::base_site(SiteId site) const
{
    return site.index() < base_site_.size() ? base_site_[site.index()] : std::nullopt;
}

int64_t DiffLink::site_bytes_delta(SiteId site) const
{
    const uint64_t now = now_->heap()->site(site).bytes;
    const auto base = base_site(site);
    return signed_delta(now, base ? base_->heap()->site(*base).bytes : 0);
}

int64_t DiffLink::self_delta(FnId fn, size_t event) const
{
    const uint64_t now = now_->self(fn, event);
    const auto be = base_event_[event];
    const auto bf = base_fn_[fn.index()];
    return signed_delta(now, be && bf ? base_->self(*bf, *be) : 0);
}

int64_t DiffLink::inclusive_delta(FnId fn, size_t event) const
{
    const uint64_t now = now_->inclusive(fn, event);
    const auto be = base_event_[event];
    const auto bf = base_fn_[fn.index()];
    return signed_delta(now, be && bf ? base_->inclusive(*bf, *be) : 0);
}

int64_t DiffLink::path_delta(PathId node, size_t event) const
{
    const uint64_t now = now_->profile().path_inclusive(node.index())[event];
    const auto be = base_event_[event];
    const auto bp = base_path_[node.index()];
    return signed_delta(now, be && bp ? base_->profile().path_inclusive(bp->index())[*be] : 0);
}

int64_t DiffLink::total_delta(size_t event) const
{
    const auto be = base_event_[event];
    return signed_delta(now_->total(event), be ? base_->total(*be) : 0);
}

std::vector<std::vector<uint64_t>> DiffLink::base_line_costs(FileId file) const
{
    std::vector<std::vector<uint64_t>> by_line;
    const Profile& b = base_->profile();
    const std::string& path = now_->profile().file_path(file);
    for (size_t f = 0; f < b.files().size(); ++f) {
        if (b.file_path(FileId(uint32_t(f))) != path)
            continue;
        const RowIndex& rows = base_->lines_of_file();
        for (const uint32_t* r = rows.begin_of(f); r != rows.end_of(f); ++r) {
            const uint32_t line = b.lines()[*r].line;
            if (by_line.size() <= line)
                by_line.resize(line + 1, std::vector<uint64_t>(base_event_.size(), 0));
            const uint64_t* cost = b.line_cost(*r);
            for (size_t e = 0; e < base_event_.size(); ++e)
                if (base_event_[e])
                    by_line[line][e] += cost[*base_event_[e]];
        }
    }
    return by_line;
}

std::vector<uint64_t> DiffLink::base_allocated_in_file(FileId file) const
{
    const Profile& b = base_->profile();
    const std::string& path = now_->profile().file_path(file);
    for (size_t f = 0; f < b.files().size(); ++f)
        if (b.file_path(FileId(uint32_t(f))) == path)
            return base_->allocated_in_file(FileId(uint32_t(f)));
    return {};
}

} // namespace vgprof::viewer
