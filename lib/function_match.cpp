// SPDX-License-Identifier: GPL-2.0-or-later
// Matching functions across two profiles (see function_match.hpp): groups
// of functions by function_match_key, then the three passes.
#include "vgprof/function_match.hpp"

#include "vgprof/identity.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace vgprof {

namespace {

using Key = FunctionMatchKey;
// Name and object basename: what a moved function keeps.
using NameKey = std::pair<std::string, std::string>;

// The object a group is paired by: none when one of the two profiles names
// no objects (a cachegrind file), so that its functions pair by name alone.
std::string object_key(const std::string& object, bool by_object)
{
    return by_object ? basename_of(object) : std::string();
}

std::map<Key, FunctionGroup> groups_of(const Profile& p, bool by_object)
{
    std::map<Key, FunctionGroup> groups;
    for (size_t i = 0; i < p.functions().size(); ++i) {
        const FnId fn(static_cast<uint32_t>(i));
        const Function& f = p.function(fn);
        const std::string& object = p.obj_path(f.obj);
        // A cachegrind file's function is a name in one source file, its
        // code inlined from a header another function of the same name:
        // against one, a name is one function.
        Key key = function_match_key(p, fn);
        if (!by_object)
            key.object.clear(), key.file.clear();
        FunctionGroup& g = groups[key];
        if (g.fns.empty()) {
            g.name = p.str(f.name);
            g.object = object;
            g.file = p.file_path(f.file);
            g.line = f.line;
        }
        g.fns.push_back(fn);
    }
    return groups;
}

Key key_of(const FunctionGroup& g, bool by_object)
{
    return Key{g.name, object_key(g.object, by_object), by_object ? g.file : std::string()};
}
NameKey name_key_of(const FunctionGroup& g, bool by_object)
{
    return NameKey(g.name, object_key(g.object, by_object));
}

// What ran in a function, independent of its name and of where its code
// lies: per line (offset from the entry line; the file when not the
// function's own) the self costs of the events both profiles recorded, and
// the calls it made (callee names and counts). Empty for a function that
// ran nothing.
class CodeSignatures {
public:
    CodeSignatures(const Profile& p, const std::vector<size_t>& events) : p_(p), events_(events)
    {
        lines_of_.resize(p.functions().size());
        for (size_t row = 0; row < p.lines().size(); ++row)
            lines_of_[p.lines()[row].fn.index()].push_back(row);
        calls_of_.resize(p.functions().size());
        for (size_t row = 0; row < p.calls().size(); ++row)
            calls_of_[p.calls()[row].caller.index()].push_back(row);
    }

    std::string of(const FunctionGroup& g) const
    {
        std::vector<std::string> lines, calls;
        for (const FnId fn : g.fns) {
            for (const size_t row : lines_of_[fn.index()])
                lines.push_back(line_text(g, row));
            // A call site's rows, one per call instruction from version 8,
            // as one: the same code signs alike in profiles of either.
            std::map<std::tuple<FileId, uint32_t, FnId>, uint64_t> count_at_site;
            for (const size_t row : calls_of_[fn.index()]) {
                const CallEdge& c = p_.calls()[row];
                count_at_site[{c.file, c.line, c.callee}] += c.count;
            }
            for (const auto& [site, count] : count_at_site)
                calls.push_back(p_.fn_name(std::get<2>(site)) + "#" + std::to_string(count));
        }
        if (lines.empty())
            return {};
        std::sort(lines.begin(), lines.end());
        std::sort(calls.begin(), calls.end());
        std::string text;
        for (const std::string& l : lines)
            text += l + ";";
        for (const std::string& c : calls)
            text += "->" + c + ";";
        return text;
    }

private:
    std::string line_text(const FunctionGroup& g, size_t row) const
    {
        const LineCost& l = p_.lines()[row];
        const std::string& file = p_.file_path(l.file);
        std::string text = file == g.file ? "=" : file;
        text += "|" + std::to_string(int64_t(l.line) - int64_t(g.line));
        const uint64_t* cost = p_.line_cost(row);
        for (const size_t e : events_)
            text += "|" + std::to_string(cost[e]);
        return text;
    }

    const Profile& p_;
    const std::vector<size_t>& events_;
    std::vector<std::vector<size_t>> lines_of_, calls_of_;
};

// The renames among the functions left over: pairs whose code signatures
// are equal, non-empty, in objects of one basename, and unique on both
// sides.
void match_renames(std::vector<FunctionGroup>& base_left, std::vector<FunctionGroup>& now_left,
                   const CodeSignatures& base_code, const CodeSignatures& now_code,
                   bool by_object, std::vector<FunctionMatch>& out)
{
    using SigKey = std::pair<std::string, std::string>;  // object basename, signature
    std::map<SigKey, std::vector<size_t>> base_by, now_by;
    for (size_t i = 0; i < base_left.size(); ++i)
        if (std::string sig = base_code.of(base_left[i]); !sig.empty())
            base_by[{object_key(base_left[i].object, by_object), sig}].push_back(i);
    for (size_t i = 0; i < now_left.size(); ++i)
        if (std::string sig = now_code.of(now_left[i]); !sig.empty())
            now_by[{object_key(now_left[i].object, by_object), sig}].push_back(i);
    std::vector<bool> base_taken(base_left.size()), now_taken(now_left.size());
    for (const auto& [key, bases] : base_by) {
        const auto it = now_by.find(key);
        if (bases.size() != 1 || it == now_by.end() || it->second.size() != 1)
            continue;
        out.push_back({base_left[bases[0]], now_left[it->second[0]], FunctionChange::renamed});
        base_taken[bases[0]] = now_taken[it->second[0]] = true;
    }
    const auto keep_untaken = [](std::vector<FunctionGroup>& left, const std::vector<bool>& taken) {
        std::vector<FunctionGroup> rest;
        for (size_t i = 0; i < left.size(); ++i)
            if (!taken[i])
                rest.push_back(std::move(left[i]));
        left = std::move(rest);
    };
    keep_untaken(base_left, base_taken);
    keep_untaken(now_left, now_taken);
}

// The indices of the events both profiles recorded, in each.
void common_events(const Profile& base, const Profile& now, std::vector<size_t>& in_base,
                   std::vector<size_t>& in_now)
{
    for (size_t i = 0; i < now.num_events(); ++i)
        if (const auto b = base.event_index(now.meta().events[i])) {
            in_base.push_back(*b);
            in_now.push_back(i);
        }
}

// Pairs by name and object basename where exactly one function on each
// side has that pair; the others stay in the lists.
void match_moves(std::vector<FunctionGroup>& base_left, std::vector<FunctionGroup>& now_left,
                 bool by_object, std::vector<FunctionMatch>& out)
{
    std::map<NameKey, std::vector<size_t>> base_by, now_by;
    for (size_t i = 0; i < base_left.size(); ++i)
        base_by[name_key_of(base_left[i], by_object)].push_back(i);
    for (size_t i = 0; i < now_left.size(); ++i)
        now_by[name_key_of(now_left[i], by_object)].push_back(i);
    std::vector<FunctionGroup> base_rest, now_rest;
    for (auto& [key, bases] : base_by) {
        const auto it = now_by.find(key);
        if (bases.size() == 1 && it != now_by.end() && it->second.size() == 1) {
            out.push_back({base_left[bases[0]], now_left[it->second[0]], FunctionChange::moved});
            it->second.clear();
        } else {
            for (const size_t i : bases)
                base_rest.push_back(std::move(base_left[i]));
        }
    }
    for (auto& [key, nows] : now_by)
        for (const size_t i : nows)
            now_rest.push_back(std::move(now_left[i]));
    base_left = std::move(base_rest);
    now_left = std::move(now_rest);
}

const FunctionGroup& shown_group(const FunctionMatch& m) { return m.now ? *m.now : *m.base; }

} // namespace

const char* change_name(FunctionChange change)
{
    switch (change) {
    case FunctionChange::same: return "same";
    case FunctionChange::moved: return "moved";
    case FunctionChange::renamed: return "renamed";
    case FunctionChange::removed: return "removed";
    case FunctionChange::added: return "added";
    }
    return "same";
}

bool names_objects(const Profile& p)
{
    for (const Function& f : p.functions())
        if (!is_unknown(p.obj_path(f.obj)) && !p.obj_path(f.obj).empty())
            return true;
    return false;
}

std::vector<FunctionMatch> match_functions(const Profile& base, const Profile& now)
{
    const bool by_object = names_objects(base) == names_objects(now);
    std::map<Key, FunctionGroup> base_groups = groups_of(base, by_object),
                                 now_groups = groups_of(now, by_object);
    std::vector<FunctionMatch> out;
    // Most functions are in both profiles: about as many matches as the
    // larger one has groups.
    out.reserve(std::max(base_groups.size(), now_groups.size()));
    std::vector<FunctionGroup> base_left, now_left;
    for (auto& [key, g] : base_groups) {
        const auto it = now_groups.find(key);
        if (it == now_groups.end()) {
            base_left.push_back(std::move(g));
            continue;
        }
        // Paired by name alone, the entry lines are those of different files.
        const FunctionChange change = !by_object || g.line == it->second.line
                                          ? FunctionChange::same
                                          : FunctionChange::moved;
        out.push_back({std::move(g), std::move(it->second), change});
        now_groups.erase(it);
    }
    for (auto& entry : now_groups)
        now_left.push_back(std::move(entry.second));

    match_moves(base_left, now_left, by_object, out);
    std::vector<size_t> base_events, now_events;
    common_events(base, now, base_events, now_events);
    match_renames(base_left, now_left, CodeSignatures(base, base_events),
                  CodeSignatures(now, now_events), by_object, out);
    for (FunctionGroup& g : base_left)
        out.push_back({std::move(g), std::nullopt, FunctionChange::removed});
    for (FunctionGroup& g : now_left)
        out.push_back({std::nullopt, std::move(g), FunctionChange::added});

    std::stable_sort(out.begin(), out.end(), [by_object](const FunctionMatch& a, const FunctionMatch& b) {
        return key_of(shown_group(a), by_object) < key_of(shown_group(b), by_object);
    });
    return out;
}

} // namespace vgprof
