// SPDX-License-Identifier: GPL-2.0-or-later
// Comparing two profiles: matching functions across profiles (by
// function_match_key), the deltas of totals and functions, the
// warnings about figures that may not compare, and CI thresholds.
#include "vgprof/diff.hpp"

#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/query.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <tuple>

namespace vgprof {

int64_t CostDelta::delta() const { return signed_delta(now, base); }

std::optional<double> CostDelta::relative() const
{
    if (base == 0)
        return std::nullopt;
    return static_cast<double>(delta()) / static_cast<double>(base);
}

namespace {

std::string joined(const std::vector<std::string>& words)
{
    std::string text;
    for (const std::string& w : words)
        text += (text.empty() ? "" : " ") + w;
    return text;
}

std::vector<std::string> comparison_warnings(const Profile& base, const Profile& now)
{
    const Meta& b = base.meta();
    const Meta& n = now.meta();
    std::vector<std::string> warnings;
    if (!same_simulation(b.cache, n.cache))
        warnings.push_back("the profiles simulated different caches (base: " +
                           simulation_text(b.cache) + "; new: " + simulation_text(n.cache) +
                           "); miss counts do not compare");
    const std::string base_program = b.argv.empty() ? "" : b.argv[0];
    const std::string new_program = n.argv.empty() ? "" : n.argv[0];
    if (base_program != new_program)
        warnings.push_back("the profiles are of different programs (base: " + base_program +
                           "; new: " + new_program + ")");
    if (b.events != n.events)
        warnings.push_back("the profiles recorded different events (base: " + joined(b.events) +
                           "; new: " + joined(n.events) + "); only those in both are compared");
    if (base.has_call_graph() != now.has_call_graph())
        warnings.push_back(std::string("only the ") + (base.has_call_graph() ? "base" : "new") +
                           " profile has a call graph; inclusive costs are not compared");
    return warnings;
}

// Adds `profile`'s function costs to `functions` (the base's as
// CostDelta::base, the new one's as CostDelta::now). Functions of one
// profile that share a key (same name and file in objects of the same
// basename) are summed.
void add_functions(std::map<FunctionMatchKey, FunctionDelta>& functions, const Profile& profile,
                   const std::vector<size_t>& events, bool inclusive, bool is_base)
{
    for (const FunctionCost& c : function_costs(profile)) {
        const std::string& object = profile.obj_path(profile.function(c.fn).obj);
        const FunctionMatchKey key = function_match_key(profile, c.fn);
        FunctionDelta& d = functions[key];
        if (d.self.empty()) {
            d.name = key.name;
            d.file = key.file;
            d.self.resize(events.size());
            if (inclusive)
                d.inclusive.resize(events.size());
        }
        if (!is_base || d.object.empty())
            d.object = object;
        (is_base ? d.in_base : d.in_now) = true;
        for (size_t i = 0; i < events.size(); ++i) {
            (is_base ? d.self[i].base : d.self[i].now) += c.self[events[i]];
            if (inclusive)
                (is_base ? d.inclusive[i].base : d.inclusive[i].now) += c.inclusive[events[i]];
        }
    }
}

bool has_cost(const FunctionDelta& d)
{
    const auto nonzero = [](const CostDelta& c) { return c.base != 0 || c.now != 0; };
    return std::any_of(d.self.begin(), d.self.end(), nonzero) ||
           std::any_of(d.inclusive.begin(), d.inclusive.end(), nonzero);
}

uint64_t magnitude(int64_t n)
{
    return n < 0 ? uint64_t(0) - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
}

} // namespace

DiffResult diff_profiles(const Profile& base, const Profile& now)
{
    DiffResult diff;
    diff.warnings = comparison_warnings(base, now);
    std::vector<size_t> base_events, now_events;
    for (size_t i = 0; i < now.num_events(); ++i)
        if (const auto b = base.event_index(now.meta().events[i])) {
            diff.events.push_back(now.meta().events[i]);
            base_events.push_back(*b);
            now_events.push_back(i);
        }
    if (diff.events.empty())
        throw Error("the profiles have no event in common (base: " +
                    joined(base.meta().events) + "; new: " + joined(now.meta().events) + ")");
    for (size_t i = 0; i < diff.events.size(); ++i)
        diff.totals.push_back(
            {base.meta().totals[base_events[i]], now.meta().totals[now_events[i]]});

    diff.inclusive = base.has_call_graph() && now.has_call_graph();
    std::map<FunctionMatchKey, FunctionDelta> functions;
    add_functions(functions, base, base_events, diff.inclusive, true);
    add_functions(functions, now, now_events, diff.inclusive, false);
    for (auto& entry : functions)
        if (has_cost(entry.second))
            diff.functions.push_back(std::move(entry.second));
    // Stable on the map's (name, object basename, file) order for ties.
    std::stable_sort(diff.functions.begin(), diff.functions.end(),
                     [](const FunctionDelta& a, const FunctionDelta& b) {
                         return magnitude(a.self[0].delta()) > magnitude(b.self[0].delta());
                     });
    return diff;
}

// --- thresholds ----------------------------------------------------------------

bool Threshold::exceeded_by(const CostDelta& cost) const
{
    if (cost.now <= cost.base)
        return false;
    const uint64_t increase = cost.now - cost.base;
    if (!relative)
        return increase > absolute;
    if (cost.base == 0)
        return true;
    // long double keeps 64-bit counts exact enough for a percentage.
    return 100.0L * increase > static_cast<long double>(percent) * cost.base;
}

namespace {

Threshold parse_threshold(std::string_view item, std::string_view option)
{
    Threshold t;
    t.text = std::string(item);
    const auto bad = [&](const std::string& why) {
        return Error(std::string(option) + ": \"" + t.text + "\": " + why +
                     " (expected EVENT=+N% or EVENT=+N, e.g. Ir=+1%)");
    };
    const size_t equals = item.find('=');
    if (equals == std::string_view::npos)
        throw bad("no '='");
    t.event = std::string(item.substr(0, equals));
    if (t.event.empty())
        throw bad("no event name before '='");
    std::string number(item.substr(equals + 1));
    if (!number.empty() && number[0] == '+')
        number.erase(0, 1);
    t.relative = !number.empty() && number.back() == '%';
    if (t.relative)
        number.pop_back();
    if (number.empty() || !(std::isdigit(static_cast<unsigned char>(number[0]))))
        throw bad("the increase must be a number of 0 or more");
    char* end = nullptr;
    errno = 0;
    if (t.relative) {
        t.percent = std::strtod(number.c_str(), &end);
        if (*end != '\0' || errno != 0 || !std::isfinite(t.percent))
            throw bad("malformed percentage");
    } else {
        t.absolute = std::strtoull(number.c_str(), &end, 10);
        if (*end != '\0' || errno != 0)
            throw bad("malformed count (an absolute increase is a whole number; add % for a "
                      "relative one)");
    }
    return t;
}

} // namespace

std::vector<Threshold> parse_thresholds(std::string_view spec, std::string_view option)
{
    std::vector<Threshold> thresholds;
    if (spec.empty())
        throw Error(std::string(option) + ": empty threshold list");
    size_t start = 0;
    while (true) {
        const size_t comma = spec.find(',', start);
        const std::string_view item = spec.substr(start, comma - start);
        if (item.empty())
            throw Error(std::string(option) + ": \"" + std::string(spec) +
                        "\": empty item in the comma-separated list");
        thresholds.push_back(parse_threshold(item, option));
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return thresholds;
}

std::vector<Breach> exceeded_thresholds(const DiffResult& diff,
                                        const std::vector<Threshold>& thresholds,
                                        bool per_function)
{
    std::vector<size_t> event_of;
    for (const Threshold& t : thresholds) {
        const auto it = std::find(diff.events.begin(), diff.events.end(), t.event);
        if (it == diff.events.end())
            throw Error("threshold \"" + t.text + "\": no event \"" + t.event +
                        "\" in both profiles (events compared: " + joined(diff.events) + ")");
        event_of.push_back(static_cast<size_t>(it - diff.events.begin()));
    }
    std::vector<Breach> breaches;
    for (size_t i = 0; i < thresholds.size(); ++i)
        if (thresholds[i].exceeded_by(diff.totals[event_of[i]]))
            breaches.push_back({&thresholds[i], nullptr, diff.totals[event_of[i]]});
    if (per_function)
        for (size_t i = 0; i < thresholds.size(); ++i)
            for (const FunctionDelta& f : diff.functions)
                if (thresholds[i].exceeded_by(f.self[event_of[i]]))
                    breaches.push_back({&thresholds[i], &f, f.self[event_of[i]]});
    return breaches;
}

} // namespace vgprof
