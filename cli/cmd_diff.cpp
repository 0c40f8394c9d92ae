// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof diff`: what it compares (two profiles, two directories of a
// suite's profiles, a list of pairs, or the named baseline), storing a
// baseline after comparing, and the command's registration. What is shown
// is settled in diff_model.cpp and written by diff_text.cpp,
// diff_json.cpp and diff_github.cpp.
#include "baseline.hpp"
#include "commands.hpp"
#include "diff_model.hpp"
#include "option_checks.hpp"

#include "vgprof/error.hpp"
#include "vgprof/file_io.hpp"
#include "vgprof/identity.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <sys/stat.h>

#include <cstring>
#include <iterator>
#include <iostream>
#include <memory>
#include <sstream>

namespace vgprof::cli {

namespace {

bool is_directory(const std::string& path)
{
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

void write_suite(std::ostream& out, const SuiteDiff& suite, const DiffOptions& options)
{
    if (options.format == "json")
        write_json(out, suite, options);
    else if (options.format == "markdown")
        write_markdown(out, suite, options);
    else if (options.format == "github")
        write_github(out, suite, options);
    else
        write_text(out, suite, options);
}

// The command line, before the baselines it names are paths.
struct DiffCommand {
    DiffOptions diff;
    // BASE NEW, BASEDIR NEWDIR or BASE1 NEW1 BASE2 NEW2...; with --baseline,
    // NEW (or NEWDIR) only; with --save-baseline alone, the profile (or
    // directory) to compare with the baseline of that name and store.
    std::vector<std::string> profiles;
    std::string pairs_file;     // --pairs FILE
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

// What to compare: the pairs, and the benchmarks without one.
struct Plan {
    std::vector<BenchmarkPair> pairs;
    std::vector<std::string> only_base, only_new;
    bool suite = false;
    std::string stored;  // with --save-baseline: the profile or directory to store
};

} // namespace

std::vector<BenchmarkPair> read_pairs_file(const std::string& path)
{
    std::vector<BenchmarkPair> pairs;
    size_t number = 0;
    for (std::string& line : read_lines(path)) {
        ++number;
        if (const size_t hash = line.find('#'); hash != std::string::npos)
            line.erase(hash);
        std::istringstream words(line);
        std::vector<std::string> w{std::istream_iterator<std::string>(words), {}};
        if (w.empty())
            continue;
        if (w.size() == 2)
            pairs.push_back({benchmark_name(w[1]), w[0], w[1]});
        else if (w.size() == 3)
            pairs.push_back({w[0], w[1], w[2]});
        else
            throw Error(fmt::format("{}:{}: expected BASE NEW or NAME BASE NEW, got {} words",
                                    path, number, w.size()));
    }
    if (pairs.empty())
        throw Error(fmt::format("{}: no pairs of profiles", path));
    return pairs;
}

namespace {

// BASE NEW (files or directories) or several pairs of files.
Plan plan_of_paths(const std::vector<std::string>& paths)
{
    Plan plan;
    if (paths.size() == 2 && (is_directory(paths[0]) || is_directory(paths[1]))) {
        if (!is_directory(paths[0]) || !is_directory(paths[1]))
            throw Error(fmt::format("{} and {}: compare two directories or two profiles, not "
                                    "one of each",
                                    paths[0], paths[1]));
        plan.pairs = pair_directories(paths[0], paths[1], plan.only_base, plan.only_new);
        plan.suite = true;
        return plan;
    }
    if (paths.empty() || paths.size() % 2 != 0)
        throw Error("diff needs pairs of profiles: BASE NEW, BASEDIR NEWDIR, BASE1 NEW1 BASE2 "
                    "NEW2..., or --baseline NAME NEW");
    for (size_t i = 0; i < paths.size(); i += 2)
        plan.pairs.push_back({benchmark_name(paths[i + 1]), paths[i], paths[i + 1]});
    plan.suite = plan.pairs.size() > 1;
    return plan;
}

Plan plan_of(const DiffCommand& command)
{
    if (!command.pairs_file.empty()) {
        if (!command.profiles.empty() || !command.baseline.empty())
            throw Error("--pairs FILE takes no other profiles and no --baseline");
        Plan plan;
        plan.pairs = read_pairs_file(command.pairs_file);
        plan.suite = true;
        return plan;
    }
    // Compared with a named baseline: --baseline NAME, or --save-baseline
    // NAME alone (against the baseline it replaces).
    std::string against = command.baseline;
    if (against.empty() && !command.save_baseline.empty() && command.profiles.size() == 1)
        against = command.save_baseline;
    if (against.empty()) {
        Plan plan = plan_of_paths(command.profiles);
        if (!command.save_baseline.empty()) {
            if (command.profiles.size() != 2)
                throw Error("--save-baseline NAME stores one profile or directory: give BASE "
                            "NEW, or --baseline NAME NEW, or NEW alone");
            plan.stored = command.profiles[1];
        }
        return plan;
    }
    if (command.profiles.size() != 1)
        throw Error("--baseline NAME takes one profile or directory, NEW, to compare with the "
                    "baseline");
    const std::string& now = command.profiles[0];
    const std::string& dir = baseline_dir_of(
        command, command.baseline.empty() ? "--save-baseline" : "--baseline");
    Plan plan;
    plan.stored = command.save_baseline.empty() ? "" : now;
    const bool suite = is_directory(now);
    // --save-baseline alone and no baseline of that name yet: nothing to
    // compare, only something to store.
    if (command.baseline.empty()) {
        struct stat st;
        const std::string existing = suite ? dir + "/" + against : baseline_path(dir, against);
        if (::stat(existing.c_str(), &st) != 0)
            return plan;
    }
    if (suite) {
        Plan compared = plan_of_paths({existing_suite_baseline(dir, against), now});
        compared.stored = plan.stored;
        return compared;
    }
    plan.pairs.push_back({benchmark_name(now), existing_baseline(dir, against), now});
    return plan;
}

void store(const DiffCommand& command, const std::string& what)
{
    const std::string& dir = baseline_dir_of(command, "--save-baseline");
    const std::string path = is_directory(what)
                                 ? save_suite_baseline(dir, command.save_baseline, what)
                                 : save_baseline(dir, command.save_baseline, what);
    std::cerr << fmt::format("vgprof: {} saved as baseline \"{}\" ({})\n", what,
                             command.save_baseline, path);
}

int run_diff(const DiffCommand& command)
{
    // A bad SPEC is reported before the profiles are read.
    parse_limits(command.diff);
    Plan plan = plan_of(command);
    int status = kExitOk;
    if (!plan.pairs.empty()) {
        if (plan.suite)
            status = write_suite_diff(std::cout, std::cerr, plan.pairs, plan.only_base,
                                      plan.only_new, command.diff);
        else
            status = write_suite_diff(std::cout, std::cerr, plan.pairs, {}, {}, command.diff);
    } else if (!plan.stored.empty()) {
        std::cerr << fmt::format("vgprof: no baseline \"{}\" yet, nothing to compare\n",
                                 command.save_baseline);
    }
    check_written(std::cout, "the comparison");
    if (!plan.stored.empty())
        store(command, plan.stored);
    return status;
}

} // namespace

std::string benchmark_name(const std::string& path)
{
    std::string name = basename_of(path);
    for (const char* ending : {".json.gz", ".json.zst", ".json"}) {
        const size_t n = std::strlen(ending);
        if (name.size() > n && name.compare(name.size() - n, n, ending) == 0)
            return name.substr(0, name.size() - n);
    }
    return name;
}

std::vector<BenchmarkPair> pair_directories(const std::string& base_dir, const std::string& new_dir,
                                            std::vector<std::string>& only_base,
                                            std::vector<std::string>& only_new)
{
    const auto base = suite_profiles(base_dir), now = suite_profiles(new_dir);
    std::vector<BenchmarkPair> pairs;
    for (const auto& [name, path] : base) {
        const auto it = now.find(name);
        if (it == now.end())
            only_base.push_back(name);
        else
            pairs.push_back({name, path, it->second});
    }
    for (const auto& [name, path] : now)
        if (base.count(name) == 0)
            only_new.push_back(name);
    if (pairs.empty())
        throw Error(fmt::format("{} and {}: no profile of the same name in both (profiles are "
                                "files ending in .json, .json.gz or .json.zst)",
                                base_dir, new_dir));
    return pairs;
}

int write_diff(std::ostream& out, Profile base, Profile now, const DiffOptions& options,
               const BenchmarkPair& pair)
{
    const Limits limits = parse_limits(options);
    SuiteDiff suite;
    suite.benchmarks.push_back(
        compare_profiles(pair, std::move(base), std::move(now), options, limits));
    write_suite(out, suite, options);
    return suite.exit_status();
}

int write_suite_diff(std::ostream& out, std::ostream& errors,
                     const std::vector<BenchmarkPair>& pairs,
                     const std::vector<std::string>& only_base,
                     const std::vector<std::string>& only_new, const DiffOptions& options)
{
    const Limits limits = parse_limits(options);
    SuiteDiff suite;
    suite.suite = pairs.size() > 1 || !only_base.empty() || !only_new.empty();
    suite.only_base = only_base;
    suite.only_new = only_new;
    for (const BenchmarkPair& pair : pairs) {
        try {
            suite.benchmarks.push_back(compare_benchmark(pair, options, limits));
        } catch (const Error& e) {
            // One benchmark alone fails as any command does: one line, status 2.
            if (!suite.suite)
                throw;
            errors << plain_line("vgprof: " + escaped_controls(pair.name) + ": " + e.what())
                   << '\n';
            auto failed = std::make_unique<BenchmarkDiff>();
            failed->pair = pair;
            failed->verdict = Verdict::error;
            failed->error = e.what();
            suite.benchmarks.push_back(std::move(failed));
        }
    }
    write_suite(out, suite, options);
    return suite.exit_status();
}

Command add_diff_command(CLI::App& app)
{
    auto command = std::make_shared<DiffCommand>();
    DiffOptions& options = command->diff;
    CLI::App* cmd = app.add_subcommand(
        "diff",
        "Compare profiles of a program (totals, functions, lines, heap) or of a suite of "
        "benchmarks, and check them against CI thresholds: exit 1 when a fail threshold is "
        "exceeded, 2 when profiles cannot be read or do not compare. BASE may be a baseline "
        "stored by name.");
    cmd->add_option("PROFILES", command->profiles,
                    "BASE NEW (two profiles), BASEDIR NEWDIR (a suite's profiles, paired by "
                    "name) or BASE1 NEW1 BASE2 NEW2...; with --baseline, NEW only")
        ->expected(0, -1);
    cmd->add_option("--pairs", command->pairs_file,
                    "read the pairs from FILE, one \"BASE NEW\" or \"NAME BASE NEW\" a line")
        ->type_name("FILE");
    cmd->add_option("--format", options.format, "output format: text, markdown, json or github")
        ->check(CLI::IsMember({"text", "markdown", "json", "github"}))
        ->capture_default_str();
    cmd->add_option("--top", options.top, "show at most N changed functions (0: all)")
        ->type_name("N")
        ->check(not_negative())
        ->capture_default_str();
    cmd->add_option("--lines", options.lines,
                    "show the N lines whose cost changed most in each function")
        ->type_name("N")
        ->check(not_negative())
        ->capture_default_str();
    cmd->add_option("--sort", options.sort,
                    "rank functions by the change of this metric (default: the first event)")
        ->type_name("METRIC");
    cmd->add_option("--fail-above", options.fail_above,
                    "exit 1 when a total exceeds one of SPEC, e.g. Ir=+1%,HeapBlocks=+10%,"
                    "Ir=+1%&+5000,Ir<=8000000")
        ->type_name("SPEC");
    cmd->add_option("--warn-above", options.warn_above,
                    "report, keeping exit status 0, a total above one of SPEC")
        ->type_name("SPEC");
    cmd->add_option("--function-fail-above", options.function_fail_above,
                    "exit 1 when a function's self cost exceeds one of SPEC")
        ->type_name("SPEC");
    cmd->add_option("--function-warn-above", options.function_warn_above,
                    "report a function's self cost above one of SPEC")
        ->type_name("SPEC");
    cmd->add_option("--data-event", options.data_event,
                    "rank the data objects by EVENT (Dr D1mr DLmr Dw D1mw DLmw), when the "
                    "profiles say which data was accessed")
        ->type_name("EVENT")
        ->check(CLI::IsMember(
            std::vector<std::string>(std::begin(kDataEventNames), std::end(kDataEventNames))))
        ->capture_default_str();
    cmd->add_flag("--per-function", options.per_function,
                  "apply --fail-above and --warn-above to each function's self cost as well");
    cmd->add_option("--gate-function", options.gate_functions,
                    "apply per-function thresholds only to functions named like GLOB "
                    "(repeatable)")
        ->type_name("GLOB")
        ->allow_extra_args(false);
    cmd->add_option("--gate-object", options.gate_objects,
                    "apply per-function thresholds only to functions of an object whose path or "
                    "file name matches GLOB (repeatable)")
        ->type_name("GLOB")
        ->allow_extra_args(false);
    cmd->add_flag("--force", options.force,
                  "compare profiles that do not compare (another command, environment, "
                  "cache, options), with a warning");
    add_own_code_options(cmd, options.own_code);
    cmd->add_option("--strip-prefix", options.strip_prefixes,
                    "show paths under the directory PREFIX without it (whole components), e.g. "
                    "the checkout's path; may be given more than once")
        ->type_name("PREFIX")
        ->allow_extra_args(false);
    cmd->add_flag("--derived", options.derived,
                  "also compare every derived event (estimated cycles, cache hits...)");
    cmd->add_option("--derive", options.derive,
                    "define or redefine a derived event, e.g. CEst=Ir+10*L1m+100*LLm")
        ->type_name("NAME=FORMULA")
        ->allow_extra_args(false);
    cmd->add_option("--baseline-dir", command->baseline_dir,
                    "where named baselines are stored (default: $VGPROF_BASELINE_DIR)")
        ->type_name("DIR")
        ->envname("VGPROF_BASELINE_DIR");
    cmd->add_option("--baseline", command->baseline,
                    "compare NEW (a profile or a suite's directory) against the baseline "
                    "stored as NAME")
        ->type_name("NAME");
    cmd->add_option("--save-baseline", command->save_baseline,
                    "after comparing, store NEW as baseline NAME (letters, digits, '.', '_', "
                    "'-'), replacing any of that name; NEW alone is first compared with the "
                    "baseline it replaces")
        ->type_name("NAME");
    return Command{cmd, [command] {
                       command->diff.command = command_line();
                       return run_diff(*command);
                   }};
}

} // namespace vgprof::cli
