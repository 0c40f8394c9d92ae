// SPDX-License-Identifier: GPL-2.0-or-later
// Whether two profiles compare (see diff_compat.hpp). Each check names
// what differs in a few words, so that a refusal fits on one line.
#include "diff_compat.hpp"

#include "vgprof/function_match.hpp"
#include "vgprof/format.hpp"
#include "vgprof/query.hpp"

#include <algorithm>
#include <set>

namespace vgprof::detail {

namespace {

// How many names a clause lists before "and N more".
constexpr size_t kNamesShown = 3;

std::string joined(const std::vector<std::string>& words, const char* separator = " ")
{
    std::string text;
    for (const std::string& w : words)
        text += (text.empty() ? "" : separator) + w;
    return text;
}

std::string listed(const std::vector<std::string>& items)
{
    std::vector<std::string> shown(items.begin(),
                                   items.begin() + std::min(items.size(), kNamesShown));
    std::string text = joined(shown, ", ");
    if (items.size() > kNamesShown)
        text += ", and " + std::to_string(items.size() - kNamesShown) + " more";
    return text;
}

// "--heap-depth=12" -> ("--heap-depth", "12"); "-q" -> ("-q", "").
std::pair<std::string, std::string> split_option(const std::string& option)
{
    const size_t equals = option.find('=');
    if (equals == std::string::npos)
        return {option, ""};
    return {option.substr(0, equals), option.substr(equals + 1)};
}

// The names of the options whose values differ between two maps.
std::string changed_options(const std::map<std::string, std::string>& b,
                            const std::map<std::string, std::string>& n)
{
    std::vector<std::string> changed;
    std::set<std::string> names;
    for (const auto& entry : b)
        names.insert(entry.first);
    for (const auto& entry : n)
        names.insert(entry.first);
    for (const std::string& name : names) {
        const auto x = b.find(name), y = n.find(name);
        const std::string bv = x == b.end() ? "(not given)" : x->second;
        const std::string nv = y == n.end() ? "(not given)" : y->second;
        if (bv != nv)
            changed.push_back(name + " (base: " + bv + "; new: " + nv + ")");
    }
    return listed(changed);
}

bool is_vgprof(const Profile& p) { return p.meta().tool == "vgprof"; }

// "the environments differ: HOME has another value, CI only in new".
std::string environment_difference(const Fingerprint& b, const Fingerprint& n)
{
    if (b.env == n.env)
        return {};
    std::map<std::string, std::string> before, after;
    for (const auto& v : b.env)
        before[v.name] = v.hash;
    for (const auto& v : n.env)
        after[v.name] = v.hash;
    std::vector<std::string> clauses;
    for (const auto& [name, hash] : before) {
        const auto it = after.find(name);
        if (it == after.end())
            clauses.push_back(name + " only in base");
        else if (it->second != hash)
            clauses.push_back(name + " has another value");
    }
    for (const auto& [name, hash] : after)
        if (before.count(name) == 0)
            clauses.push_back(name + " only in new");
    if (clauses.empty())
        clauses.push_back("the same variables in another order");
    return "the environments differ: " + listed(clauses);
}

// A figure the profile's writer did not record (a cachegrind or callgrind
// file has no Valgrind version).
std::string or_unrecorded(const std::string& value)
{
    return value.empty() ? "not recorded" : value;
}

void check_program(const Profile& base, const Profile& now, std::vector<std::string>& out)
{
    const Meta& b = base.meta();
    const Meta& n = now.meta();
    if (b.tool != n.tool)
        out.push_back("the profiles were written by different tools (base: " + b.tool +
                      "; new: " + n.tool + ")");
    if (b.argv != n.argv)
        out.push_back("the commands differ (base: " + joined(b.argv) + "; new: " +
                      joined(n.argv) + ")");
    if (b.valgrind != n.valgrind)
        out.push_back("the Valgrind versions differ (base: " + or_unrecorded(b.valgrind) +
                      "; new: " + or_unrecorded(n.valgrind) + ")");
}

void check_recording(const Profile& base, const Profile& now, std::vector<std::string>& out)
{
    const Meta& b = base.meta();
    const Meta& n = now.meta();
    if (b.events != n.events)
        out.push_back("the events recorded differ (base: " + joined(b.events) + "; new: " +
                      joined(n.events) + ")");
    if (!same_simulation(b.cache, n.cache))
        out.push_back("the simulated caches differ (base: " + simulation_text(b.cache) +
                      "; new: " + simulation_text(n.cache) + ")");
    if (is_vgprof(base) && is_vgprof(now)) {
        const auto bo = counting_options(b.options), no = counting_options(n.options);
        if (bo != no)
            out.push_back("the tool options differ: " + changed_options(bo, no));
    }
    if ((base.heap() != nullptr) != (now.heap() != nullptr))
        out.push_back(std::string("only the ") + (base.heap() ? "base" : "new") +
                      " profile has heap data");
}

void check_fingerprint(const Profile& base, const Profile& now, std::vector<std::string>& out)
{
    const auto& b = base.meta().fingerprint;
    const auto& n = now.meta().fingerprint;
    if (!b || !n)
        return;
    const auto bt = translation_options(b->valgrind_options),
               nt = translation_options(n->valgrind_options);
    if (bt != nt)
        out.push_back("Valgrind's translation options differ: " + changed_options(bt, nt));
    const std::string env = environment_difference(*b, *n);
    if (!env.empty())
        out.push_back(env);
    if (b->cwd != n->cwd)
        out.push_back("the working directories differ (base: " + b->cwd + "; new: " + n->cwd +
                      ")");
}

} // namespace

std::map<std::string, std::string> counting_options(const std::vector<std::string>& options)
{
    std::map<std::string, std::string> values = {
        {"--call-graph", "yes"}, {"--instr-atstart", "yes"}, {"--collect-atstart", "yes"},
        {"--toggle-collect", ""}, {"--heap", "yes"},         {"--heap-depth", "12"},
        {"--alloc-fn", ""}};
    std::map<std::string, std::string> lists;
    for (const std::string& option : options) {
        auto [name, value] = split_option(option);
        const auto it = values.find(name);
        if (it == values.end())
            continue;
        if (name == "--toggle-collect" || name == "--alloc-fn")
            it->second += (it->second.empty() ? "" : " ") + value;
        else
            it->second = value;
    }
    return values;
}

std::map<std::string, std::string> translation_options(const std::vector<std::string>& options)
{
    static const char* const kNamed[] = {"--smc-check",        "--demangle",   "--fullpath-after",
                                         "--read-inline-info", "--sim-hints",  "--fair-sched",
                                         "--kernel-variant",   "--main-stacksize"};
    std::map<std::string, std::string> values;
    for (const std::string& option : options) {
        auto [name, value] = split_option(option);
        const bool vex = name.rfind("--vex-", 0) == 0;
        if (vex || std::find(std::begin(kNamed), std::end(kNamed), name) != std::end(kNamed))
            values[name] = value;
    }
    return values;
}

std::vector<std::string> comparison_differences(const Profile& base, const Profile& now)
{
    std::vector<std::string> out;
    check_program(base, now, out);
    check_recording(base, now, out);
    check_fingerprint(base, now, out);
    return out;
}

std::vector<std::string> comparison_warnings(const Profile& base, const Profile& now)
{
    std::vector<std::string> warnings;
    const Meta& b = base.meta();
    const Meta& n = now.meta();
    if (!b.fingerprint || !n.fingerprint) {
        const char* which = !b.fingerprint && !n.fingerprint ? "neither profile has a"
                            : !b.fingerprint                 ? "the base profile has no"
                                                             : "the new profile has no";
        warnings.push_back(std::string(which) +
                           " fingerprint (format version 7), so their environments, working "
                           "directories and Valgrind options were not compared");
    }
    if (is_vgprof(base) && is_vgprof(now) && b.tool_version != n.tool_version)
        warnings.push_back("the profiles were written by different vgprof versions (base: " +
                           b.tool_version + "; new: " + n.tool_version + ")");
    if (names_objects(base) != names_objects(now))
        warnings.push_back(std::string("the ") + (names_objects(base) ? "new" : "base") +
                           " profile names no objects (as cachegrind's files do): functions "
                           "were paired by name alone");
    if (base.has_call_graph() != now.has_call_graph())
        warnings.push_back(std::string("only the ") + (base.has_call_graph() ? "base" : "new") +
                           " profile has a call graph; inclusive costs are not compared");
    return warnings;
}

} // namespace vgprof::detail
