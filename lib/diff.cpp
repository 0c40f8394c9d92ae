// SPDX-License-Identifier: GPL-2.0-or-later
// Comparing two profiles: the deltas of totals, functions (matched by
// function_match.cpp) and heap figures, the lines that changed most, and
// the CI thresholds. What makes two profiles not compare is settled in
// diff_compat.cpp.
#include "vgprof/diff.hpp"

#include "diff_compat.hpp"

#include "vgprof/error.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/query.hpp"

#include <fnmatch.h>

#include <functional>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace vgprof {

int64_t CostDelta::delta() const { return signed_delta(now, base); }

std::optional<double> CostDelta::relative() const
{
    if (base == 0)
        return std::nullopt;
    return static_cast<double>(delta()) / static_cast<double>(base);
}

std::optional<size_t> DiffResult::metric_index(std::string_view metric) const
{
    const auto it = std::find(metrics.begin(), metrics.end(), metric);
    if (it == metrics.end())
        return std::nullopt;
    return static_cast<size_t>(it - metrics.begin());
}

namespace {

constexpr size_t kHeapMetricCount = std::size(kHeapMetrics);
using HeapFigures = std::array<uint64_t, kHeapMetricCount>;

std::string joined(const std::vector<std::string>& words)
{
    std::string text;
    for (const std::string& w : words)
        text += (text.empty() ? "" : " ") + w;
    return text;
}

HeapFigures figures_of(const HeapSite& s)
{
    return {s.bytes, s.blocks, s.peak_bytes, s.end_bytes};
}

HeapFigures totals_of(const Heap& heap)
{
    return {heap.totals.bytes, heap.totals.blocks, heap.totals.peak_bytes, heap.totals.end_bytes};
}

// Every cost a function has in one profile, one entry per compared metric:
// its events' costs (function_costs) and its heap figures.
class FunctionCosts {
public:
    FunctionCosts(const Profile& p, const std::vector<size_t>& events, bool heap,
                  const OwnCodeRules& own_code)
        : p_(p), events_(events), costs_(function_costs(p))
    {
        if (heap && p.heap())
            add_heap(*p.heap(), OwnCode(p, own_code));
    }

    // The summed costs of `fns` for metric slots; `self` or inclusive.
    void add_to(const std::vector<FnId>& fns, bool self, std::vector<uint64_t>& out) const
    {
        for (const FnId fn : fns) {
            const FunctionCost& c = costs_[fn.index()];
            const std::vector<uint64_t>& row = self ? c.self : c.inclusive;
            if (!row.empty())
                for (size_t i = 0; i < events_.size(); ++i)
                    out[i] += row[events_[i]];
            if (heap_self_.empty())
                continue;
            const HeapFigures& h = (self ? heap_self_ : heap_inclusive_)[fn.index()];
            for (size_t m = 0; m < kHeapMetricCount; ++m)
                out[events_.size() + m] += h[m];
        }
    }

private:
    // A site's figures go to the function of its innermost own frame, else
    // to the one that called the allocator (self), and to every function on
    // its stack, once each (inclusive).
    void add_heap(const Heap& heap, const OwnCode& own)
    {
        heap_self_.assign(p_.functions().size(), HeapFigures{});
        heap_inclusive_.assign(p_.functions().size(), HeapFigures{});
        for (const HeapSite& site : heap.sites) {
            const HeapFigures f = figures_of(site);
            if (const auto frame = own.named_frame(site))
                add(heap_self_[heap.frame(*frame).fn.index()], f);
            std::set<FnId> on_stack;
            for (size_t i = 1; i < site.frames.size(); ++i)
                on_stack.insert(heap.frame(site.frames[i]).fn);
            for (const FnId fn : on_stack)
                add(heap_inclusive_[fn.index()], f);
        }
    }

    static void add(HeapFigures& to, const HeapFigures& f)
    {
        for (size_t m = 0; m < kHeapMetricCount; ++m)
            to[m] += f[m];
    }

    const Profile& p_;
    const std::vector<size_t>& events_;
    std::vector<FunctionCost> costs_;
    std::vector<HeapFigures> heap_self_, heap_inclusive_;
};

FunctionDelta delta_of(const FunctionMatch& m, size_t metrics, bool inclusive)
{
    FunctionDelta d;
    const FunctionGroup& shown = m.now ? *m.now : *m.base;
    const FunctionGroup& before = m.base ? *m.base : *m.now;
    d.name = shown.name;
    d.file = shown.file;
    d.object = shown.object;
    d.line = shown.line;
    d.change = m.change;
    d.base_name = before.name;
    d.base_file = before.file;
    d.base_line = before.line;
    d.in_base = m.base.has_value();
    d.in_now = m.now.has_value();
    if (m.base)
        d.base_fns = m.base->fns;
    if (m.now)
        d.now_fns = m.now->fns;
    d.self.resize(metrics);
    if (inclusive)
        d.inclusive.resize(metrics);
    return d;
}

void add_costs(FunctionDelta& d, const FunctionCosts& base, const FunctionCosts& now,
               bool inclusive)
{
    const size_t n = d.self.size();
    std::vector<uint64_t> b(n), c(n);
    base.add_to(d.base_fns, true, b);
    now.add_to(d.now_fns, true, c);
    for (size_t i = 0; i < n; ++i)
        d.self[i] = {b[i], c[i]};
    if (!inclusive)
        return;
    std::fill(b.begin(), b.end(), 0);
    std::fill(c.begin(), c.end(), 0);
    base.add_to(d.base_fns, false, b);
    now.add_to(d.now_fns, false, c);
    for (size_t i = 0; i < n; ++i)
        d.inclusive[i] = {b[i], c[i]};
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

std::vector<std::string> comparison_differences(const Profile& base, const Profile& now)
{
    return detail::comparison_differences(base, now);
}

std::vector<std::string> comparison_warnings(const Profile& base, const Profile& now)
{
    return detail::comparison_warnings(base, now);
}

DiffResult diff_profiles(const Profile& base, const Profile& now, OwnCodeRules own_code)
{
    DiffResult diff;
    diff.own_code = std::move(own_code);
    diff.differences = detail::comparison_differences(base, now);
    diff.warnings = detail::comparison_warnings(base, now);
    std::vector<size_t> base_events, now_events;
    for (size_t i = 0; i < now.num_events(); ++i)
        if (const auto b = base.event_index(now.meta().events[i])) {
            diff.metrics.push_back(now.meta().events[i]);
            base_events.push_back(*b);
            now_events.push_back(i);
        }
    if (diff.metrics.empty())
        throw Error("the profiles have no event in common (base: " +
                    joined(base.meta().events) + "; new: " + joined(now.meta().events) + ")");
    diff.num_events = diff.metrics.size();
    for (size_t i = 0; i < diff.num_events; ++i)
        diff.totals.push_back(
            {base.meta().totals[base_events[i]], now.meta().totals[now_events[i]]});
    const bool heap = base.heap() && now.heap();
    if (heap) {
        const HeapFigures b = totals_of(*base.heap()), n = totals_of(*now.heap());
        for (size_t m = 0; m < kHeapMetricCount; ++m) {
            diff.metrics.push_back(kHeapMetrics[m]);
            diff.totals.push_back({b[m], n[m]});
        }
    }

    diff.inclusive = base.has_call_graph() && now.has_call_graph();
    const FunctionCosts base_costs(base, base_events, heap, diff.own_code),
        now_costs(now, now_events, heap, diff.own_code);
    const std::vector<FunctionMatch> matches = match_functions(base, now);
    diff.functions.reserve(matches.size());  // grown by doubling, it would hold twice as much
    for (const FunctionMatch& m : matches) {
        FunctionDelta d = delta_of(m, diff.metrics.size(), diff.inclusive);
        add_costs(d, base_costs, now_costs, diff.inclusive);
        if (has_cost(d))
            diff.functions.push_back(std::move(d));
    }
    sort_functions(diff, 0);
    return diff;
}

void sort_functions(DiffResult& diff, size_t metric)
{
    // Stable on match_functions' (name, object basename, file) order.
    std::stable_sort(diff.functions.begin(), diff.functions.end(),
                     [metric](const FunctionDelta& a, const FunctionDelta& b) {
                         return magnitude(a.self[metric].delta()) >
                                magnitude(b.self[metric].delta());
                     });
}

// --- changed lines ----------------------------------------------------------------

namespace {

// (file, line) in the new profile's naming -> cost.
using LineCosts = std::map<std::pair<std::string, uint32_t>, uint64_t>;

// Where a base line lies in the new profile's terms: a moved function's
// own lines follow its entry line and file; lines of other files
// (inlined code) stay where they were.
std::pair<std::string, uint32_t> as_new_line(const FunctionDelta& f, bool is_base,
                                             const std::string& file, uint32_t line)
{
    if (!is_base || file != f.base_file || f.base_line == 0 || f.line == 0)
        return {file, line};
    const int64_t shifted = int64_t(line) + int64_t(f.line) - int64_t(f.base_line);
    return {f.file, shifted > 0 ? uint32_t(shifted) : line};
}

void add_event_lines(const Profile& p, const std::vector<FnId>& fns, size_t event,
                     const FunctionDelta& f, bool is_base, LineCosts& out)
{
    const std::set<FnId> wanted(fns.begin(), fns.end());
    for (size_t row = 0; row < p.lines().size(); ++row) {
        const LineCost& l = p.lines()[row];
        if (wanted.count(l.fn) != 0)
            out[as_new_line(f, is_base, p.file_path(l.file), l.line)] += p.line_cost(row)[event];
    }
}

void add_heap_lines(const Profile& p, const std::vector<FnId>& fns, size_t heap_metric,
                    const FunctionDelta& f, bool is_base, const OwnCodeRules& own_code,
                    LineCosts& out)
{
    const Heap* heap = p.heap();
    if (heap == nullptr)
        return;
    const OwnCode own(p, own_code);
    const std::set<FnId> wanted(fns.begin(), fns.end());
    for (const HeapSite& site : heap->sites) {
        const auto at = own.named_frame(site);
        if (!at)
            continue;
        const HeapFrame& frame = heap->frame(*at);
        if (wanted.count(frame.fn) != 0)
            out[as_new_line(f, is_base, p.file_path(frame.file), frame.line)] +=
                figures_of(site)[heap_metric];
    }
}

} // namespace

std::vector<LineDelta> changed_lines(const Profile& base, const Profile& now,
                                     const DiffResult& diff, const FunctionDelta& f,
                                     size_t metric, size_t limit)
{
    LineCosts before, after;
    if (metric < diff.num_events) {
        const std::string& event = diff.metrics[metric];
        add_event_lines(base, f.base_fns, *base.event_index(event), f, true, before);
        add_event_lines(now, f.now_fns, *now.event_index(event), f, false, after);
    } else {
        add_heap_lines(base, f.base_fns, metric - diff.num_events, f, true, diff.own_code, before);
        add_heap_lines(now, f.now_fns, metric - diff.num_events, f, false, diff.own_code, after);
    }
    std::map<std::pair<std::string, uint32_t>, CostDelta> lines;
    for (const auto& [where, cost] : before)
        lines[where].base = cost;
    for (const auto& [where, cost] : after)
        lines[where].now = cost;
    std::vector<LineDelta> out;
    for (const auto& [where, cost] : lines)
        if (cost.base != cost.now)
            out.push_back({where.first, where.second, cost});
    std::stable_sort(out.begin(), out.end(), [](const LineDelta& a, const LineDelta& b) {
        return magnitude(a.cost.delta()) > magnitude(b.cost.delta());
    });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

namespace {

// Where the own lines of one profile are paired with the other's: the
// function holding the line, as the diff matched it (its name otherwise:
// an inlined function has no cost of its own to be matched by), and the
// line as changed_lines names it.
using CallerKey = std::tuple<std::string, std::string, uint32_t>;

struct CallerCosts {
    std::map<CallerKey, double> cost;
    std::map<CallerKey, CallerDelta> named;  // how each is shown
};

uint64_t rounded(double cost) { return static_cast<uint64_t>(std::llround(cost)); }

} // namespace

struct OwnCallerSearch::Side {
    Side(const Profile& profile, const DiffResult& diff, bool base)
        : p(profile), own(profile, diff.own_code), callers(profile, own), is_base(base)
    {
        for (const FunctionDelta& d : diff.functions)
            for (const FnId fn : is_base ? d.base_fns : d.now_fns)
                delta_of[fn] = &d;
    }

    // The own lines `fns` were called through, with their parts of the
    // fns' cost of `event`; none when every one of fns is own code.
    CallerCosts costs(const std::vector<FnId>& fns, size_t event) const
    {
        CallerCosts out;
        if (std::all_of(fns.begin(), fns.end(),
                        [&](FnId fn) { return own.is_own(fn, p.function(fn).file); }))
            return out;
        for (const OwnCallSite& site : callers.sites(fns, event)) {
            const auto d = delta_of.find(site.fn);
            std::pair<std::string, uint32_t> at{p.file_path(site.file), site.line};
            std::string name = p.fn_name(site.fn), object = p.obj_path(p.function(site.fn).obj);
            if (d != delta_of.end()) {
                at = as_new_line(*d->second, is_base, at.first, at.second);
                name = d->second->name;
                object = d->second->object;
            }
            const CallerKey key{name, at.first, at.second};
            out.cost[key] += site.cost;
            out.named[key] = CallerDelta{name, object, at.first, at.second, {}};
        }
        return out;
    }

    const Profile& p;
    const OwnCode own;
    const OwnCallers callers;
    const bool is_base;
    std::map<FnId, const FunctionDelta*> delta_of;
};

OwnCallerSearch::OwnCallerSearch(const Profile& base, const Profile& now, const DiffResult& diff)
    : diff_(diff), base_(std::make_unique<Side>(base, diff, true)),
      now_(std::make_unique<Side>(now, diff, false))
{
}

OwnCallerSearch::~OwnCallerSearch() = default;

std::vector<CallerDelta> OwnCallerSearch::callers(const FunctionDelta& f, size_t metric,
                                                  size_t limit) const
{
    if (metric >= diff_.num_events || !diff_.inclusive)
        return {};
    const std::string& event = diff_.metrics[metric];
    const CallerCosts before = base_->costs(f.base_fns, *base_->p.event_index(event));
    CallerCosts after = now_->costs(f.now_fns, *now_->p.event_index(event));
    for (const auto& [key, named] : before.named)
        after.named.emplace(key, named);
    const bool rose = f.self[metric].delta() >= 0;
    std::vector<CallerDelta> out;
    for (auto& [key, caller] : after.named) {
        const auto cost = [&key = key](const CallerCosts& c) {
            const auto it = c.cost.find(key);
            return it == c.cost.end() ? uint64_t(0) : rounded(it->second);
        };
        caller.cost = {cost(before), cost(after)};
        if (rose ? caller.cost.delta() > 0 : caller.cost.delta() < 0)
            out.push_back(std::move(caller));
    }
    std::stable_sort(out.begin(), out.end(), [](const CallerDelta& a, const CallerDelta& b) {
        return magnitude(a.cost.delta()) > magnitude(b.cost.delta());
    });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

std::vector<CallerDelta> own_callers(const Profile& base, const Profile& now,
                                     const DiffResult& diff, const FunctionDelta& f,
                                     size_t metric, size_t limit)
{
    return OwnCallerSearch(base, now, diff).callers(f, metric, limit);
}

// --- thresholds ----------------------------------------------------------------

bool Condition::broken_by(const CostDelta& cost) const
{
    switch (kind) {
    case Kind::ceiling:
        return cost.now > ceiling;
    case Kind::absolute:
        return cost.delta() > amount;
    case Kind::relative:
        if (cost.base == 0)
            return cost.now > 0 || percent < 0;
        // long double keeps 64-bit counts exact enough for a percentage.
        return 100.0L * cost.delta() > static_cast<long double>(percent) * cost.base;
    }
    return false;
}

bool Threshold::exceeded_by(const CostDelta& cost) const
{
    return std::all_of(conditions.begin(), conditions.end(),
                       [&](const Condition& c) { return c.broken_by(cost); });
}

namespace {

const char* const kSpecForms =
    " (expected METRIC=+N%, METRIC=+N, METRIC=-N% or METRIC<=N, conditions joined by &, "
    "e.g. Ir=+1%&+5000)";

// "+1%", "-5%", "+5000", "5000", "<=8000000": one condition.
Condition parse_condition(std::string text, const std::function<Error(const std::string&)>& bad)
{
    Condition c;
    if (text.rfind("<=", 0) == 0) {
        c.kind = Condition::Kind::ceiling;
        text.erase(0, 2);
    }
    bool negative = false;
    if (c.kind != Condition::Kind::ceiling && !text.empty() && (text[0] == '+' || text[0] == '-')) {
        negative = text[0] == '-';
        text.erase(0, 1);
    }
    if (c.kind != Condition::Kind::ceiling && !text.empty() && text.back() == '%') {
        c.kind = Condition::Kind::relative;
        text.pop_back();
    } else if (c.kind != Condition::Kind::ceiling) {
        c.kind = Condition::Kind::absolute;
    }
    if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])))
        throw bad("a limit must be a number");
    char* end = nullptr;
    errno = 0;
    if (c.kind == Condition::Kind::relative) {
        c.percent = std::strtod(text.c_str(), &end);
        if (*end != '\0' || errno != 0 || !std::isfinite(c.percent))
            throw bad("malformed percentage");
        if (negative)
            c.percent = -c.percent;
        return c;
    }
    const unsigned long long n = std::strtoull(text.c_str(), &end, 10);
    if (*end != '\0' || errno != 0)
        throw bad("malformed count (a count is a whole number; add % for a relative limit)");
    if (c.kind == Condition::Kind::ceiling) {
        c.ceiling = n;
        return c;
    }
    if (n > uint64_t(std::numeric_limits<int64_t>::max()))
        throw bad("count too large");
    c.amount = negative ? -static_cast<int64_t>(n) : static_cast<int64_t>(n);
    return c;
}

Threshold parse_threshold(std::string_view item, std::string_view option)
{
    Threshold t;
    t.text = std::string(item);
    const std::function<Error(const std::string&)> bad = [&](const std::string& why) {
        return Error(std::string(option) + ": \"" + t.text + "\": " + why + kSpecForms);
    };
    const size_t amp = item.find('&');
    const std::string_view head = item.substr(0, amp);
    const size_t ceiling = head.find("<=");
    const size_t equals = head.find('=');
    if (ceiling == std::string_view::npos && equals == std::string_view::npos)
        throw bad("no '=' or '<='");
    const size_t split = ceiling != std::string_view::npos && ceiling < equals ? ceiling : equals;
    t.event = std::string(head.substr(0, split));
    if (t.event.empty())
        throw bad("no metric name before '='");
    t.conditions.push_back(parse_condition(
        std::string(split == ceiling ? head.substr(split) : head.substr(split + 1)), bad));
    for (size_t start = amp; start != std::string_view::npos;) {
        const size_t next = item.find('&', start + 1);
        const std::string part(item.substr(start + 1, next - start - 1));
        if (part.empty())
            throw bad("empty condition after '&'");
        t.conditions.push_back(parse_condition(part, bad));
        start = next;
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

bool FunctionFilter::matches(const FunctionDelta& f) const
{
    if (functions.empty() && objects.empty())
        return true;
    const auto any = [](const std::vector<std::string>& patterns, const std::string& text) {
        return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) {
            return fnmatch(p.c_str(), text.c_str(), 0) == 0;
        });
    };
    return any(functions, f.name) || any(objects, f.object) || any(objects, basename_of(f.object));
}

std::vector<Breach> exceeded_thresholds(const DiffResult& diff,
                                        const std::vector<Threshold>& thresholds,
                                        ThresholdScope scope, const FunctionFilter& filter)
{
    std::vector<size_t> metric_of;
    for (const Threshold& t : thresholds) {
        const auto m = diff.metric_index(t.event);
        if (!m)
            throw Error("threshold \"" + t.text + "\": no metric \"" + t.event +
                        "\" in both profiles (compared: " + joined(diff.metrics) + ")");
        metric_of.push_back(*m);
    }
    std::vector<Breach> breaches;
    for (size_t i = 0; i < thresholds.size(); ++i) {
        if (scope == ThresholdScope::totals) {
            if (thresholds[i].exceeded_by(diff.totals[metric_of[i]]))
                breaches.push_back({&thresholds[i], nullptr, diff.totals[metric_of[i]]});
            continue;
        }
        for (const FunctionDelta& f : diff.functions)
            if (filter.matches(f) && thresholds[i].exceeded_by(f.self[metric_of[i]]))
                breaches.push_back({&thresholds[i], &f, f.self[metric_of[i]]});
    }
    return breaches;
}

} // namespace vgprof
