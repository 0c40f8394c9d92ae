// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof diff --format json`: one object holding the schema version, the
// command, the thresholds and, per benchmark, the comparison and its
// verdict (docs/manual.md documents the schema).
#include "diff_model.hpp"

#include <boost/json.hpp>

#include <ostream>

namespace vgprof::cli {

namespace {

namespace json = boost::json;

// The version of the JSON schema this writer writes; it grows whenever a
// member is removed or changes meaning.
constexpr int kSchemaVersion = 2;

json::array strings(const std::vector<std::string>& items)
{
    json::array a;
    for (const std::string& s : items)
        a.push_back(json::string(s));
    return a;
}

} // namespace

json::object delta_json(const CostDelta& c)
{
    json::object o = {{"base", c.base}, {"new", c.now}, {"delta", c.delta()}};
    if (const auto r = c.relative())
        o["relative"] = *r;
    else
        o["relative"] = nullptr;
    return o;
}

namespace {

json::object deltas_json(const DiffResult& diff, const std::vector<CostDelta>& costs)
{
    json::object o;
    for (size_t i = 0; i < diff.metrics.size(); ++i)
        o[diff.metrics[i]] = delta_json(costs[i]);
    return o;
}

json::array lines_json(const std::vector<LineDelta>& lines, const DiffOptions& options)
{
    json::array a;
    for (const LineDelta& l : lines) {
        json::object o = delta_json(l.cost);
        o["file"] = path_display(options).stripped(l.file);
        o["line"] = l.line;
        a.push_back(std::move(o));
    }
    return a;
}

json::array callers_json(const std::vector<CallerDelta>& callers, const DiffOptions& options)
{
    json::array a;
    for (const CallerDelta& c : callers) {
        json::object o = delta_json(c.cost);
        o["function"] = c.function;
        o["object"] = c.object;
        o["file"] = path_display(options).stripped(c.file);
        o["line"] = c.line;
        a.push_back(std::move(o));
    }
    return a;
}

json::object function_json(const FunctionDelta& f, const DiffOptions& options)
{
    json::object o = {{"name", f.name},
                      {"file", path_display(options).stripped(f.file)},
                      {"line", f.line},
                      {"object", f.object},
                      {"change", change_name(f.change)},
                      {"in_base", f.in_base},
                      {"in_new", f.in_now}};
    if (f.change == FunctionChange::moved || f.change == FunctionChange::renamed)
        o["from"] = {{"name", f.base_name},
                     {"file", path_display(options).stripped(f.base_file)},
                     {"line", f.base_line}};
    return o;
}

json::object function_costs_json(const BenchmarkDiff& b, const FunctionDelta& f,
                                 const DiffOptions& options)
{
    json::object o = function_json(f, options);
    o["self"] = deltas_json(b.diff, f.self);
    if (b.diff.inclusive)
        o["inclusive"] = deltas_json(b.diff, f.inclusive);
    o["lines"] = lines_json(b.lines_of(&f, b.sort), options);
    o["callers"] = callers_json(b.callers_of(&f, b.sort), options);
    return o;
}

json::array breaches_json(const BenchmarkDiff& b, const std::vector<Breach>& breaches,
                          const DiffOptions& options)
{
    json::array a;
    for (const Breach& breach : breaches) {
        const size_t metric = *b.diff.metric_index(breach.threshold->event);
        json::object o = {{"threshold", breach.threshold->text},
                          {"metric", breach.threshold->event},
                          {"cost", delta_json(breach.cost)}};
        if (breach.function) {
            o["function"] = function_json(*breach.function, options);
            o["lines"] = lines_json(b.lines_of(breach.function, metric), options);
            o["callers"] = callers_json(b.callers_of(breach.function, metric), options);
        } else {
            o["function"] = nullptr;
            json::array risers;
            const auto it = b.risers.find(metric);
            if (it != b.risers.end())
                for (const FunctionDelta* f : it->second) {
                    json::object r = function_json(*f, options);
                    r["self"] = delta_json(f->self[metric]);
                    r["lines"] = lines_json(b.lines_of(f, metric), options);
                    r["callers"] = callers_json(b.callers_of(f, metric), options);
                    risers.push_back(std::move(r));
                }
            o["risers"] = std::move(risers);
        }
        a.push_back(std::move(o));
    }
    return a;
}

json::object benchmark_json(const BenchmarkDiff& b, const DiffOptions& options)
{
    json::object o = {{"name", b.pair.name},
                      {"base", b.pair.base},
                      {"new", b.pair.now},
                      {"status", verdict_name(b.verdict)}};
    if (b.verdict == Verdict::error) {
        o["error"] = b.error;
        return o;
    }
    o["command"] = strings(b.command);
    o["metrics"] = strings(b.diff.metrics);
    o["sort"] = b.diff.metrics[b.sort];
    o["warnings"] = strings(b.diff.warnings);
    o["totals"] = deltas_json(b.diff, b.diff.totals);
    o["changed_functions"] = b.changed;
    json::array functions, moved;
    for (const FunctionDelta* f : b.shown)
        functions.push_back(function_costs_json(b, *f, options));
    for (const FunctionDelta* f : b.moved)
        moved.push_back(function_json(*f, options));
    o["functions"] = std::move(functions);
    o["moved"] = std::move(moved);
    o["shifted_functions"] = b.shifted;
    o["failed"] = breaches_json(b, b.failed, options);
    o["warned"] = breaches_json(b, b.warned, options);
    o["data"] = b.data ? json::value(data_json(*b.data)) : json::value(nullptr);
    return o;
}

json::object condition_json(const Condition& c)
{
    switch (c.kind) {
    case Condition::Kind::relative: return {{"kind", "relative"}, {"percent", c.percent}};
    case Condition::Kind::absolute: return {{"kind", "absolute"}, {"amount", c.amount}};
    case Condition::Kind::ceiling: return {{"kind", "ceiling"}, {"at_most", c.ceiling}};
    }
    return {};
}

json::array thresholds_json(const std::vector<Threshold>& thresholds)
{
    json::array a;
    for (const Threshold& t : thresholds) {
        json::array conditions;
        for (const Condition& c : t.conditions)
            conditions.push_back(condition_json(c));
        a.push_back(json::object{
            {"text", t.text}, {"metric", t.event}, {"conditions", std::move(conditions)}});
    }
    return a;
}

json::object limits_json(const DiffOptions& options)
{
    const Limits limits = parse_limits(options);
    return {{"fail", thresholds_json(limits.fail)},
            {"warn", thresholds_json(limits.warn)},
            {"function_fail", thresholds_json(limits.function_fail)},
            {"function_warn", thresholds_json(limits.function_warn)},
            {"functions", strings(options.gate_functions)},
            {"objects", strings(options.gate_objects)}};
}

const char* overall_name(const SuiteDiff& suite)
{
    for (Verdict v : {Verdict::error, Verdict::fail, Verdict::warn})
        if (suite.count(v) > 0)
            return verdict_name(v);
    return "ok";
}

} // namespace

void write_json(std::ostream& out, const SuiteDiff& suite, const DiffOptions& options)
{
    json::array benchmarks;
    for (const auto& b : suite.benchmarks)
        benchmarks.push_back(benchmark_json(*b, options));
    json::object summary = {
        {"benchmarks", suite.benchmarks.size()},
        {"without_regressions", suite.count(Verdict::ok) + suite.count(Verdict::warn)},
        {"regressed", suite.count(Verdict::fail)},
        {"warned", suite.count(Verdict::warn)},
        {"not_compared", suite.count(Verdict::error)},
        {"only_base", strings(suite.only_base)},
        {"only_new", strings(suite.only_new)},
        {"text", closing_line(suite)}};
    json::object o;
    o["version"] = kSchemaVersion;
    o["command"] = strings(options.command);
    o["thresholds"] = limits_json(options);
    o["status"] = overall_name(suite);
    o["summary"] = std::move(summary);
    o["benchmarks"] = std::move(benchmarks);
    out << json::serialize(o) << '\n';
}

} // namespace vgprof::cli
