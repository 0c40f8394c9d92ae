// SPDX-License-Identifier: GPL-2.0-or-later
// Settling what `vgprof diff` shows (see diff_model.hpp): loading and
// comparing each benchmark's pair, refusing pairs that do not compare, the
// thresholds exceeded, the functions and lines worth showing; and the text
// pieces the output formats share.
#include "diff_model.hpp"

#include "vgprof/derived.hpp"
#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/load.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

namespace vgprof::cli {

namespace {

// How many functions a total's breach names as where it rose most.
constexpr size_t kRisersShown = 3;

std::vector<Threshold> parsed(const std::string& spec, const char* option)
{
    return spec.empty() ? std::vector<Threshold>{} : parse_thresholds(spec, option);
}

bool is_heap_metric(const std::string& name)
{
    return std::find(std::begin(kHeapMetrics), std::end(kHeapMetrics), name) !=
           std::end(kHeapMetrics);
}

// The metrics named by the thresholds and --sort.
std::vector<std::string> named_metrics(const DiffOptions& options, const Limits& limits)
{
    std::vector<std::string> names;
    for (const auto* list : {&limits.fail, &limits.warn, &limits.function_fail,
                             &limits.function_warn})
        for (const Threshold& t : *list)
            names.push_back(t.event);
    if (!options.sort.empty())
        names.push_back(options.sort);
    return names;
}

std::vector<DerivedEvent> definitions_of(const DiffOptions& options)
{
    std::vector<DerivedEvent> definitions;
    for (const std::string& d : options.derive)
        definitions.push_back(parse_derived_event(d, "--derive"));
    return definitions;
}

// Adds to both profiles the derived events the options name (or, with
// --derived, every one both can have), so that they compare as events.
void add_needed_derived_events(Profile& base, Profile& now, const DiffOptions& options,
                               const Limits& limits)
{
    const std::vector<DerivedEvent> definitions = definitions_of(options);
    std::vector<std::string> names;
    if (options.derived) {
        const auto in_base = available_derived_events(base, definitions);
        for (const DerivedEvent& d : available_derived_events(now, definitions))
            if (is_derived(in_base, d.name))
                names.push_back(d.name);
    }
    // A name neither recorded nor derivable is left for the thresholds to
    // refuse, naming the metrics compared.
    const auto derivable = available_derived_events(now, definitions);
    for (const std::string& name : named_metrics(options, limits))
        if (!is_heap_metric(name) && !now.event_index(name) && is_derived(derivable, name))
            names.push_back(name);
    if (names.empty())
        return;
    add_derived_events(base, names, definitions);
    add_derived_events(now, names, definitions);
}

size_t sort_metric(const DiffResult& diff, const DiffOptions& options)
{
    if (options.sort.empty())
        return 0;
    if (const auto m = diff.metric_index(options.sort))
        return *m;
    std::string compared;
    for (const std::string& m : diff.metrics)
        compared += (compared.empty() ? "" : " ") + m;
    throw Error(fmt::format("--sort {}: no such metric in both profiles (compared: {})",
                            options.sort, compared));
}

std::vector<Breach> breaches(const DiffResult& diff, const std::vector<Threshold>& totals,
                             const std::vector<Threshold>& functions,
                             const FunctionFilter& filter)
{
    std::vector<Breach> out = exceeded_thresholds(diff, totals, ThresholdScope::totals);
    for (Breach& b : exceeded_thresholds(diff, functions, ThresholdScope::functions, filter))
        out.push_back(b);
    return out;
}

// A function moved to another file, or renamed: worth naming. One that
// only starts on another line of its file is counted, not named.
bool relocated(const FunctionDelta& f)
{
    return f.change == FunctionChange::renamed ||
           (f.change == FunctionChange::moved && f.file != f.base_file);
}

// Whether `f`'s source is the project's: under one of the prefixes
// --strip-prefix takes off, or when none is given, the program's own code
// (own_code.hpp: not the toolchain's or the system's, as --own and
// --not-own say).
bool is_projects(const FunctionDelta& f, const DiffOptions& options)
{
    if (!options.strip_prefixes.empty())
        return path_display(options).is_under_prefix(f.file);
    return is_own_code(options.own_code, f.file, f.object);
}

// How many functions not of the program's own code, rising most, are
// looked for own callers when naming where a total rose: each search walks
// the call graph.
constexpr size_t kRisersSearched = 16;

// The functions whose self cost of `metric` rose most among those a change
// can fix: the project's own, and the others reached through the
// program's own code (`called_by_own`), named with the lines they were
// called through. When there are none, those whose cost rose most.
std::vector<const FunctionDelta*>
risers_of(const DiffResult& diff, size_t metric, const DiffOptions& options,
          const std::function<bool(const FunctionDelta&)>& called_by_own)
{
    std::vector<const FunctionDelta*> rising;
    for (const FunctionDelta& f : diff.functions)
        if (f.self[metric].delta() > 0)
            rising.push_back(&f);
    std::stable_sort(rising.begin(), rising.end(),
                     [metric](const FunctionDelta* a, const FunctionDelta* b) {
                         return a->self[metric].delta() > b->self[metric].delta();
                     });
    std::vector<const FunctionDelta*> fixable;
    size_t searched = 0;
    for (const FunctionDelta* f : rising) {
        if (fixable.size() == kRisersShown)
            break;
        if (is_projects(*f, options))
            fixable.push_back(f);
        else if (searched++ < kRisersSearched && called_by_own(*f))
            fixable.push_back(f);
    }
    if (fixable.empty())
        fixable.assign(rising.begin(), rising.begin() + std::min(rising.size(), kRisersShown));
    return fixable;
}

// The rows, lines and verdict the outputs show.
void settle(BenchmarkDiff& b, const Profile& base, const Profile& now,
            const DiffOptions& options, const Limits& limits)
{
    const DiffResult& diff = b.diff;
    b.failed = breaches(diff, limits.fail, limits.function_fail, limits.filter);
    b.warned = breaches(diff, limits.warn, limits.function_warn, limits.filter);
    for (const FunctionDelta& f : diff.functions) {
        if (relocated(f))
            b.moved.push_back(&f);
        else if (f.change == FunctionChange::moved)
            ++b.shifted;
        // A function whose self cost stayed is not among the changed, even
        // when its callees' changes moved its inclusive cost.
        if (f.self[b.sort].base == f.self[b.sort].now)
            continue;
        ++b.changed;
        if (options.top == 0 || b.shown.size() < options.top)
            b.shown.push_back(&f);
    }
    // Indexed the first time a function needs its own callers.
    std::optional<OwnCallerSearch> search;
    const auto find_callers = [&](const FunctionDelta& f, size_t metric) {
        const auto key = std::make_pair(&f, metric);
        if (b.callers.count(key) == 0) {
            if (!search)
                search.emplace(base, now, diff);
            b.callers[key] = search->callers(f, metric, options.lines);
        }
        return !b.callers[key].empty();
    };
    const auto add_lines = [&](const FunctionDelta* f, size_t metric) {
        auto& lines = b.lines[{f, metric}];
        if (lines.empty())
            lines = changed_lines(base, now, diff, *f, metric, options.lines);
        find_callers(*f, metric);
    };
    for (const FunctionDelta* f : b.shown)
        add_lines(f, b.sort);
    for (const auto* list : {&b.failed, &b.warned})
        for (const Breach& breach : *list) {
            const size_t metric = *diff.metric_index(breach.threshold->event);
            if (breach.function != nullptr) {
                add_lines(breach.function, metric);
                continue;
            }
            b.risers[metric] = risers_of(diff, metric, options, [&](const FunctionDelta& f) {
                return find_callers(f, metric);
            });
            for (const FunctionDelta* f : b.risers[metric])
                add_lines(f, metric);
        }
    b.verdict = !b.failed.empty() ? Verdict::fail : !b.warned.empty() ? Verdict::warn : Verdict::ok;
}

std::string refusal(const BenchmarkPair& pair, const std::vector<std::string>& differences)
{
    std::string why;
    for (const std::string& d : differences)
        why += (why.empty() ? "" : "; ") + d;
    return fmt::format("{} and {} do not compare: {} (--force compares them anyway)", pair.base,
                       pair.now, why);
}

} // namespace

Limits parse_limits(const DiffOptions& options)
{
    Limits l;
    l.fail = parsed(options.fail_above, "--fail-above");
    l.warn = parsed(options.warn_above, "--warn-above");
    l.function_fail = parsed(options.function_fail_above, "--function-fail-above");
    l.function_warn = parsed(options.function_warn_above, "--function-warn-above");
    if (options.per_function) {
        l.function_fail.insert(l.function_fail.begin(), l.fail.begin(), l.fail.end());
        l.function_warn.insert(l.function_warn.begin(), l.warn.begin(), l.warn.end());
    }
    l.filter.functions = options.gate_functions;
    l.filter.objects = options.gate_objects;
    definitions_of(options);  // a malformed --derive, before any profile is read
    return l;
}

const std::vector<LineDelta>& BenchmarkDiff::lines_of(const FunctionDelta* f, size_t metric) const
{
    static const std::vector<LineDelta> none;
    const auto it = lines.find({f, metric});
    return it == lines.end() ? none : it->second;
}

const std::vector<CallerDelta>& BenchmarkDiff::callers_of(const FunctionDelta* f,
                                                          size_t metric) const
{
    static const std::vector<CallerDelta> none;
    const auto it = callers.find({f, metric});
    return it == callers.end() ? none : it->second;
}

size_t SuiteDiff::count(Verdict v) const
{
    return size_t(std::count_if(benchmarks.begin(), benchmarks.end(),
                                [v](const auto& b) { return b->verdict == v; }));
}

int SuiteDiff::exit_status() const
{
    if (count(Verdict::error) > 0)
        return kExitBadInput;
    return count(Verdict::fail) > 0 ? kExitThresholdExceeded : kExitOk;
}

std::unique_ptr<BenchmarkDiff> compare_profiles(const BenchmarkPair& pair, Profile base,
                                                Profile now, const DiffOptions& options,
                                                const Limits& limits)
{
    auto b = std::make_unique<BenchmarkDiff>();
    b->pair = pair;
    if (b->pair.name.empty())
        b->pair.name = benchmark_name(pair.now);
    b->command = now.meta().argv;
    add_needed_derived_events(base, now, options, limits);
    b->diff = diff_profiles(base, now, options.own_code);
    if (!b->diff.differences.empty()) {
        if (!options.force)
            throw Error(refusal(pair, b->diff.differences));
        for (const std::string& d : b->diff.differences)
            b->diff.warnings.push_back("compared anyway (--force), but " + d);
    }
    b->sort = sort_metric(b->diff, options);
    sort_functions(b->diff, b->sort);
    settle(*b, base, now, options, limits);
    b->data = compare_data(base, now, options);
    return b;
}

std::unique_ptr<BenchmarkDiff> compare_benchmark(const BenchmarkPair& pair,
                                                 const DiffOptions& options, const Limits& limits)
{
    // One after the other, each without its call-path tree, which the diff
    // does not compare: the second is read while the first is held.
    Profile base = load_profile(pair.base);
    base.drop_call_paths();
    Profile now = load_profile(pair.now);
    now.drop_call_paths();
    return compare_profiles(pair, std::move(base), std::move(now), options, limits);
}

// --- text every format shares -----------------------------------------------------

std::string signed_count(int64_t n)
{
    if (n == 0)
        return "0";
    const uint64_t magnitude = n < 0 ? uint64_t(0) - static_cast<uint64_t>(n) : uint64_t(n);
    return (n < 0 ? "-" : "+") + format_thousands(magnitude);
}

std::string relative_text(const CostDelta& c)
{
    if (c.base == c.now)
        return "0.00%";
    if (const auto r = c.relative())
        return fmt::format("{:+.2f}%", *r * 100);
    return c.now == 0 ? "0.00%" : "new";
}

const char* verdict_name(Verdict v)
{
    switch (v) {
    case Verdict::ok: return "ok";
    case Verdict::warn: return "warn";
    case Verdict::fail: return "fail";
    case Verdict::error: return "error";
    }
    return "ok";
}

PathDisplay path_display(const DiffOptions& options) { return PathDisplay{options.strip_prefixes}; }

std::string place_text(const std::string& file, uint32_t line, const DiffOptions& options)
{
    return location_text(escaped_controls(path_display(options).show(file)), line);
}

// Without the line: a function matches whatever line it starts at.
std::string function_text(const FunctionDelta& f, const DiffOptions& options)
{
    const PathDisplay display = path_display(options);
    return function_label(escaped_controls(f.name), escaped_controls(display.show(f.file)), 0,
                          escaped_controls(display.show(f.object)));
}

std::string move_text(const FunctionDelta& f, const DiffOptions& options)
{
    const std::string from = place_text(f.base_file, f.base_line, options);
    if (f.change == FunctionChange::moved && f.file != f.base_file)
        return "moved from " + from;
    if (f.change == FunctionChange::renamed)
        return "renamed from " + escaped_controls(f.base_name) + " (" + from + ")";
    return {};
}

std::string lines_text(const std::vector<LineDelta>& lines, const DiffOptions& options)
{
    std::string text;
    for (size_t i = 0; i < lines.size(); ++i) {
        const LineDelta& l = lines[i];
        // A line of the file just named is named by its number alone.
        const bool same_file = i > 0 && l.file == lines[i - 1].file && l.line != 0;
        text += (i == 0 ? "" : ", ") +
                (same_file ? fmt::format(":{}", l.line) : place_text(l.file, l.line, options)) +
                " " + signed_count(l.cost.delta());
    }
    return text;
}

std::string callers_text(const std::vector<CallerDelta>& callers, const DiffOptions& options)
{
    std::string text;
    for (const CallerDelta& c : callers) {
        text += (text.empty() ? "through " : ", ") + escaped_controls(c.function) + " at " +
                place_text(c.file, c.line, options);
        if (callers.size() > 1)
            text += " " + signed_count(c.cost.delta());
    }
    return text;
}

std::string breach_text(const Breach& b, const DiffOptions& options)
{
    const std::string& metric = b.threshold->event;
    const std::string what = b.function ? metric + " self of " + function_text(*b.function, options)
                                        : metric + " total";
    return fmt::format("{} {} ({}, {} -> {}) exceeds {}", what, signed_count(b.cost.delta()),
                       relative_text(b.cost), format_thousands(b.cost.base),
                       format_thousands(b.cost.now), b.threshold->text);
}

std::string closing_line(const SuiteDiff& suite)
{
    const size_t passed = suite.count(Verdict::ok) + suite.count(Verdict::warn);
    std::string text = fmt::format("{} without regressions; {} regressed", passed,
                                   suite.count(Verdict::fail));
    if (const size_t warned = suite.count(Verdict::warn))
        text += fmt::format(" ({} with warnings)", warned);
    if (const size_t errors = suite.count(Verdict::error))
        text += fmt::format("; {} not compared", errors);
    if (!suite.only_base.empty())
        text += fmt::format("; {} only in base", suite.only_base.size());
    if (!suite.only_new.empty())
        text += fmt::format("; {} only in new", suite.only_new.size());
    return text;
}

std::vector<std::pair<std::string, std::string>> threshold_options(const DiffOptions& options)
{
    std::vector<std::pair<std::string, std::string>> out;
    const auto add = [&](const char* option, const std::string& spec) {
        if (!spec.empty())
            out.emplace_back(option, spec);
    };
    add("--fail-above", options.fail_above);
    add("--warn-above", options.warn_above);
    add("--function-fail-above", options.function_fail_above);
    add("--function-warn-above", options.function_warn_above);
    return out;
}

} // namespace vgprof::cli
