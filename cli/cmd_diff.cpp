// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof diff BASE NEW`: how the costs of a program changed between two
// profiles, as a text report, a Markdown comment for a pull request or JSON,
// and whether the change exceeds the CI thresholds given (--fail-above,
// --warn-above), which decides the exit status; and the command's
// registration. The comparison itself is libvgprof's (vgprof/diff.hpp).
#include "baseline.hpp"
#include "commands.hpp"
#include "diff_data.hpp"
#include "option_checks.hpp"

#include "vgprof/diff.hpp"
#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

#include <CLI/CLI.hpp>
#include <boost/json.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>

namespace vgprof::cli {

namespace {

// Everything the three writers show, settled before any is written.
struct Comparison {
    DiffResult diff;
    std::vector<Threshold> fail, warn;
    std::vector<Breach> failed, warned;
    std::vector<const FunctionDelta*> shown;  // the top changed functions
    size_t changed = 0;                       // functions with any change
};

bool changed(const FunctionDelta& f)
{
    const auto moved = [](const CostDelta& c) { return c.base != c.now; };
    return std::any_of(f.self.begin(), f.self.end(), moved) ||
           std::any_of(f.inclusive.begin(), f.inclusive.end(), moved);
}

Comparison compare(const Profile& base, const Profile& now, const DiffOptions& options)
{
    Comparison c;
    if (!options.fail_above.empty())
        c.fail = parse_thresholds(options.fail_above, "--fail-above");
    if (!options.warn_above.empty())
        c.warn = parse_thresholds(options.warn_above, "--warn-above");
    c.diff = diff_profiles(base, now);
    c.failed = exceeded_thresholds(c.diff, c.fail, options.per_function);
    c.warned = exceeded_thresholds(c.diff, c.warn, options.per_function);
    for (const FunctionDelta& f : c.diff.functions) {
        if (!changed(f))
            continue;
        ++c.changed;
        if (options.top == 0 || c.shown.size() < options.top)
            c.shown.push_back(&f);
    }
    return c;
}

const char* status_of(const Comparison& c)
{
    return !c.failed.empty() ? "fail" : !c.warned.empty() ? "warn" : "ok";
}

} // namespace

// "+114,053", "-1,200", "0".
std::string signed_count(int64_t n)
{
    if (n == 0)
        return "0";
    const uint64_t magnitude = n < 0 ? uint64_t(0) - static_cast<uint64_t>(n) : uint64_t(n);
    return (n < 0 ? "-" : "+") + format_thousands(magnitude);
}

// "+4.59%"; "new" for a cost that was 0 and is not.
std::string relative_text(const CostDelta& c)
{
    if (c.base == c.now)
        return "0.00%";
    if (const auto r = c.relative())
        return fmt::format("{:+.2f}%", *r * 100);
    return c.now == 0 ? "0.00%" : "new";
}

namespace {

// FunctionDelta keeps no line: functions match whatever line they start at.
std::string function_text(const FunctionDelta& f)
{
    return function_label(f.name, f.file, 0, f.object);
}

std::string breach_text(const Breach& b, const std::string& event)
{
    const std::string what = b.function ? event + " self of " + function_text(*b.function)
                                        : event + " total";
    return fmt::format("{} {} ({}, {} -> {}) exceeds {}", what, signed_count(b.cost.delta()),
                       relative_text(b.cost), format_thousands(b.cost.base),
                       format_thousands(b.cost.now), b.threshold->text);
}

// A table of cells; the first `left` columns are left-aligned, the rest
// right-aligned, as numbers are, except a `last_left` last column (the
// function's name in text).
struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    size_t left = 1;
    bool last_left = false;

    void write_text(std::ostream& out) const
    {
        std::vector<size_t> width(header.size());
        for (size_t i = 0; i < header.size(); ++i) {
            width[i] = header[i].size();
            for (const auto& row : rows)
                width[i] = std::max(width[i], row[i].size());
        }
        const auto line = [&](const std::vector<std::string>& cells) {
            std::string text;
            for (size_t i = 0; i < cells.size(); ++i) {
                const bool last = i + 1 == cells.size();
                text += i == 0 ? "" : "  ";
                if (i < left || (last && last_left))
                    text += last ? cells[i] : fmt::format("{:<{}}", cells[i], width[i]);
                else
                    text += fmt::format("{:>{}}", cells[i], width[i]);
            }
            out << text << '\n';
        };
        line(header);
        for (const auto& row : rows)
            line(row);
    }

    void write_markdown(std::ostream& out) const
    {
        const auto line = [&](const std::vector<std::string>& cells) {
            out << '|';
            for (const std::string& cell : cells)
                out << ' ' << cell << " |";
            out << '\n';
        };
        line(header);
        out << '|';
        for (size_t i = 0; i < header.size(); ++i)
            out << (i < left ? " --- |" : " ---: |");
        out << '\n';
        for (const auto& row : rows)
            line(row);
    }
};

Table totals_table(const DiffResult& diff)
{
    Table t{{"event", "base", "new", "change", "change %"}, {}, 1};
    for (size_t i = 0; i < diff.events.size(); ++i) {
        const CostDelta& c = diff.totals[i];
        t.rows.push_back({diff.events[i], format_thousands(c.base), format_thousands(c.now),
                          signed_count(c.delta()), relative_text(c)});
    }
    return t;
}

// The first event's self (and inclusive) cost of the top changed functions.
Table functions_table(const Comparison& c, bool markdown)
{
    const std::string& event = c.diff.events[0];
    Table t{{event + " self base", event + " self new", "change", "change %"}, {}, 0};
    if (c.diff.inclusive) {
        t.header.push_back(event + " incl change");
        t.header.push_back("incl change %");
    }
    if (markdown) {
        t.header.insert(t.header.begin(), {"function", "file", "object"});
        t.left = 3;
    } else {
        t.header.push_back("function (file)  [object]");
        t.last_left = true;
    }
    for (const FunctionDelta* f : c.shown) {
        std::vector<std::string> row;
        if (markdown)
            row = {"`" + f->name + "`", f->file, f->object};
        const CostDelta& self = f->self[0];
        for (std::string cell : {format_thousands(self.base), format_thousands(self.now),
                                 signed_count(self.delta()), relative_text(self)})
            row.push_back(cell);
        if (c.diff.inclusive) {
            row.push_back(signed_count(f->inclusive[0].delta()));
            row.push_back(relative_text(f->inclusive[0]));
        }
        if (!markdown)
            row.push_back(function_text(*f));
        t.rows.push_back(std::move(row));
    }
    return t;
}

std::string command_text(const Profile& profile)
{
    std::string text;
    for (const std::string& arg : profile.meta().argv)
        text += (text.empty() ? "" : " ") + arg;
    return text;
}

const std::string& rule()
{
    static const std::string line(80, '-');
    return line;
}

void write_breaches(std::ostream& out, const Comparison& c, const char* prefix)
{
    for (const Breach& b : c.failed)
        out << prefix << "FAIL: " << breach_text(b, b.threshold->event) << '\n';
    for (const Breach& b : c.warned)
        out << prefix << "WARN: " << breach_text(b, b.threshold->event) << '\n';
}

void write_text(std::ostream& out, const Profile& now, const DiffOptions& options,
                const Comparison& c, const std::optional<DataComparison>& data)
{
    out << rule() << '\n';
    out << "Base:             " << options.base << '\n';
    out << "New:              " << options.now << '\n';
    out << "Command:          " << command_text(now) << '\n';
    std::string events;
    for (const std::string& e : c.diff.events)
        events += (events.empty() ? "" : " ") + e;
    out << "Events compared:  " << events << '\n';
    if (!options.fail_above.empty())
        out << "Fail above:       " << options.fail_above << '\n';
    if (!options.warn_above.empty())
        out << "Warn above:       " << options.warn_above << '\n';
    if (options.per_function)
        out << "Thresholds apply to each function's self cost too\n";
    for (const std::string& w : c.diff.warnings)
        out << "warning: " << w << '\n';
    out << rule() << '\n';
    totals_table(c.diff).write_text(out);
    out << rule() << '\n';
    out << fmt::format("Changed functions by {} self: {} (showing {})\n", c.diff.events[0],
                       c.changed, c.shown.size());
    if (!c.shown.empty())
        functions_table(c, false).write_text(out);
    if (data) {
        out << rule() << '\n';
        write_data_text(out, *data);
    }
    out << rule() << '\n';
    write_breaches(out, c, "");
    out << "Result: " << status_of(c) << '\n';
}

void write_markdown(std::ostream& out, const DiffOptions& options, const Comparison& c,
                    const std::optional<DataComparison>& data)
{
    static const char* const kIcon[] = {":x:", ":warning:", ":white_check_mark:"};
    const std::string status = status_of(c);
    const char* icon = status == "fail" ? kIcon[0] : status == "warn" ? kIcon[1] : kIcon[2];
    out << "### vgprof diff: " << icon << ' ' << status << "\n\n";
    out << "Base `" << options.base << "`, new `" << options.now << "`.\n\n";
    for (const std::string& w : c.diff.warnings)
        out << "> :warning: " << w << "\n";
    if (!c.diff.warnings.empty())
        out << '\n';
    if (!c.failed.empty() || !c.warned.empty()) {
        write_breaches(out, c, "- ");
        out << '\n';
    }
    totals_table(c.diff).write_markdown(out);
    out << fmt::format("\n**Top changed functions** by {} self ({} of {} changed):\n\n",
                       c.diff.events[0], c.shown.size(), c.changed);
    if (c.shown.empty())
        out << "No function's cost changed.\n";
    else
        functions_table(c, true).write_markdown(out);
    if (data)
        write_data_markdown(out, *data);
}

} // namespace

boost::json::object delta_json(const CostDelta& c)
{
    boost::json::object o = {{"base", c.base}, {"new", c.now}, {"delta", c.delta()}};
    if (const auto r = c.relative())
        o["relative"] = *r;
    else
        o["relative"] = nullptr;
    return o;
}

namespace {

boost::json::object deltas_json(const DiffResult& diff, const std::vector<CostDelta>& costs)
{
    boost::json::object o;
    for (size_t i = 0; i < diff.events.size(); ++i)
        o[diff.events[i]] = delta_json(costs[i]);
    return o;
}

boost::json::object function_json(const DiffResult& diff, const FunctionDelta& f)
{
    boost::json::object o = {{"name", f.name}, {"file", f.file}, {"object", f.object},
                             {"in_base", f.in_base}, {"in_new", f.in_now}};
    o["self"] = deltas_json(diff, f.self);
    if (diff.inclusive)
        o["inclusive"] = deltas_json(diff, f.inclusive);
    return o;
}

boost::json::array breaches_json(const DiffResult& diff, const std::vector<Breach>& breaches)
{
    boost::json::array a;
    for (const Breach& b : breaches) {
        boost::json::object o = {{"threshold", b.threshold->text}, {"event", b.threshold->event}};
        if (b.function)
            o["function"] = function_json(diff, *b.function);
        else
            o["function"] = nullptr;
        o["cost"] = delta_json(b.cost);
        a.push_back(std::move(o));
    }
    return a;
}

void write_json(std::ostream& out, const DiffOptions& options, const Comparison& c,
                const std::optional<DataComparison>& data)
{
    boost::json::array events, warnings, functions;
    for (const std::string& e : c.diff.events)
        events.push_back(boost::json::string(e));
    for (const std::string& w : c.diff.warnings)
        warnings.push_back(boost::json::string(w));
    for (const FunctionDelta* f : c.shown)
        functions.push_back(function_json(c.diff, *f));
    boost::json::object o;
    o["base"] = options.base;
    o["new"] = options.now;
    o["events"] = std::move(events);
    o["status"] = status_of(c);
    o["warnings"] = std::move(warnings);
    o["totals"] = deltas_json(c.diff, c.diff.totals);
    o["changed_functions"] = c.changed;
    o["functions"] = std::move(functions);
    o["failed"] = breaches_json(c.diff, c.failed);
    o["warned"] = breaches_json(c.diff, c.warned);
    o["data"] = data ? boost::json::value(data_json(*data)) : boost::json::value(nullptr);
    out << boost::json::serialize(o) << '\n';
}

// The command line, before the baselines it names are paths.
struct DiffCommand {
    DiffOptions diff;
    // BASE NEW; with --baseline, NEW; with --save-baseline, the profile to store.
    std::vector<std::string> profiles;
    std::string baseline_dir;   // --baseline-dir, or VGPROF_BASELINE_DIR
    std::string baseline;       // --baseline NAME
    std::string save_baseline;  // --save-baseline NAME
};

const std::string& baseline_dir_of(const DiffCommand& command, const char* option)
{
    if (command.baseline_dir.empty())
        throw Error(fmt::format("{} needs --baseline-dir DIR or the environment variable "
                                "VGPROF_BASELINE_DIR",
                                option));
    return command.baseline_dir;
}

int store_baseline(const DiffCommand& command)
{
    if (command.profiles.size() != 1)
        throw Error("--save-baseline NAME takes one PROFILE, the profile to store");
    const std::string path = save_baseline(baseline_dir_of(command, "--save-baseline"),
                                           command.save_baseline, command.profiles[0]);
    std::cout << fmt::format("vgprof: {} saved as baseline \"{}\" ({})\n", command.profiles[0],
                             command.save_baseline, path);
    std::cout.flush();
    return kExitOk;
}

int run_diff(const DiffCommand& command)
{
    if (!command.save_baseline.empty())
        return store_baseline(command);
    DiffOptions options = command.diff;
    // A bad SPEC is reported before the profiles are read.
    if (!options.fail_above.empty())
        parse_thresholds(options.fail_above, "--fail-above");
    if (!options.warn_above.empty())
        parse_thresholds(options.warn_above, "--warn-above");
    if (!command.baseline.empty()) {
        if (command.profiles.size() != 1)
            throw Error("--baseline NAME takes one profile, NEW, to compare with the baseline");
        options.base = existing_baseline(baseline_dir_of(command, "--baseline"), command.baseline);
        options.now = command.profiles[0];
    } else {
        if (command.profiles.size() != 2)
            throw Error("diff needs two profiles, BASE and NEW (or --baseline NAME and NEW)");
        options.base = command.profiles[0];
        options.now = command.profiles[1];
    }
    const Profile base = load_profile(options.base);
    const Profile now = load_profile(options.now);
    const int status = write_diff(std::cout, base, now, options);
    std::cout.flush();
    if (!std::cout)
        throw Error(fmt::format("cannot write the comparison: {}", std::strerror(errno)));
    return status;
}

} // namespace

int write_diff(std::ostream& out, const Profile& base, const Profile& now,
               const DiffOptions& options)
{
    const Comparison c = compare(base, now, options);
    const std::optional<DataComparison> data = compare_data(base, now, options);
    if (options.format == "json")
        write_json(out, options, c, data);
    else if (options.format == "markdown")
        write_markdown(out, options, c, data);
    else
        write_text(out, now, options, c, data);
    return c.failed.empty() ? kExitOk : kExitThresholdExceeded;
}

Command add_diff_command(CLI::App& app)
{
    auto command = std::make_shared<DiffCommand>();
    DiffOptions& options = command->diff;
    CLI::App* cmd = app.add_subcommand(
        "diff",
        "Compare the costs of two profiles of one program (totals and functions) and check "
        "them against CI thresholds: exit 1 when a --fail-above threshold is exceeded. "
        "BASE may be a baseline stored by name with --save-baseline.");
    cmd->add_option("PROFILES", command->profiles,
                    "BASE NEW: the profile to compare against and the one to compare; with "
                    "--baseline, NEW only; with --save-baseline, the profile to store")
        ->required()
        ->expected(1, 2);
    CLI::Option* format =
        cmd->add_option("--format", options.format, "output format: text, markdown or json")
            ->check(CLI::IsMember({"text", "markdown", "json"}))
            ->capture_default_str();
    CLI::Option* top = cmd->add_option("--top", options.top, "show at most N changed functions (0: all)")
                           ->type_name("N")
                           ->check(not_negative())
                           ->capture_default_str();
    CLI::Option* fail =
        cmd->add_option("--fail-above", options.fail_above,
                        "exit 1 when an increase exceeds one of SPEC, e.g. Ir=+1%,D1mr=+5%,Ir=+100000")
            ->type_name("SPEC");
    CLI::Option* warn =
        cmd->add_option("--warn-above", options.warn_above,
                        "report, keeping exit status 0, an increase above one of SPEC")
            ->type_name("SPEC");
    CLI::Option* data_event =
        cmd->add_option("--data-event", options.data_event,
                        "rank the data objects by EVENT (Dr D1mr DLmr Dw D1mw DLmw), when the "
                        "profiles say which data was accessed")
            ->type_name("EVENT")
            ->check(CLI::IsMember(std::vector<std::string>(std::begin(kDataEventNames),
                                                           std::end(kDataEventNames))))
            ->capture_default_str();
    CLI::Option* per_function = cmd->add_flag(
        "--per-function", options.per_function,
        "apply the thresholds to each function's self cost as well as to the totals");
    cmd->add_option("--baseline-dir", command->baseline_dir,
                    "where named baselines are stored (default: $VGPROF_BASELINE_DIR)")
        ->type_name("DIR")
        ->envname("VGPROF_BASELINE_DIR");
    CLI::Option* baseline =
        cmd->add_option("--baseline", command->baseline,
                        "compare NEW against the baseline stored as NAME")
            ->type_name("NAME");
    cmd->add_option("--save-baseline", command->save_baseline,
                    "store the one profile given as baseline NAME (letters, digits, '.', '_', "
                    "'-'), replacing any of that name, and compare nothing")
        ->type_name("NAME")
        ->excludes(baseline, format, top, fail, warn, per_function, data_event);
    return Command{cmd, [command] { return run_diff(*command); }};
}

} // namespace vgprof::cli
