// SPDX-License-Identifier: GPL-2.0-or-later
// The vgprof subcommands. Each registers itself with CLI11 and hands back the
// action main() runs when it was chosen; each renders to a std::ostream so
// tests can check the output without running the program.
#ifndef VGPROF_CLI_COMMANDS_HPP
#define VGPROF_CLI_COMMANDS_HPP

#include "vgprof/compress_out.hpp"
#include "vgprof/own_code.hpp"
#include "vgprof/profile.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace CLI { class App; }

namespace vgprof::cli {

// Exit statuses shared by all subcommands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitThresholdExceeded = 1;  // vgprof diff: a --fail-above threshold
inline constexpr int kExitBadInput = 2;  // unreadable profile or bad usage

// A registered subcommand and what to do when the command line chose it.
struct Command {
    CLI::App* app;
    std::function<int()> run;
};

// The command line vgprof was started with, as main() records it (the
// JSON outputs name the command that made them).
void set_command_line(int argc, const char* const* argv);
const std::vector<std::string>& command_line();

// Runs `write` on the file `output` through a temporary file renamed into
// place (vgprof/file_io.hpp), or on standard output when `output` is
// "-", compressed as asked (for a file, as its name asks: compression_for).
// Throws vgprof::Error naming the file when it cannot be written.
void write_output(const std::string& output, const std::function<void(std::ostream&)>& write,
                  Compression compression);

// Registers the required option -o/--output OUT of such a command, stored
// in `output`; `what` names what is written ("the merged profile").
void add_output_option(CLI::App& cmd, std::string& output, const std::string& what);

// --- vgprof report -------------------------------------------------------

struct ReportOptions {
    std::string profile;      // path, also shown in the report
    std::string format = "text";
    double threshold = 0.1;   // percent of the sort event's total, as cg_annotate
    size_t top = 0;           // 0: no limit
    std::string sort;         // event name; empty: the first recorded event
    // The events whose columns are shown, in this order; empty: all recorded.
    std::vector<std::string> events;
    // Cachegrind's summary miss rates under the totals, and beside each shown
    // miss event (D1mr...) its rate over its reference event (D1mr/Dr).
    bool miss_rates = false;
    bool inclusive = false;   // sort and threshold by inclusive cost
    std::string function;     // non-empty: the call-graph view of this function
    // Inclusive costs and calls of this thread's graph instead of the whole
    // program's (self costs stay the whole program's).
    std::optional<uint32_t> thread;
    // The heap report instead: allocation sites in heap_sort order (see
    // vgprof/heap.hpp), with options.function only those under it. With
    // `events` (data events), each site's accesses and misses too, and
    // without heap_sort the sites in the order of the first of them.
    bool heap = false;
    std::string heap_sort;   // empty: bytes, or the first of `events`
    // The data report instead: the data objects by a data event (sort,
    // D1mr by default), with options.function those it touched.
    bool data = false;
    // The timeline report instead: the phases between marks.
    bool timeline = false;
    // Derived events (vgprof/derived.hpp): with `derived` every one the
    // profile can have, and those `events` or `sort` name; `derive` holds
    // --derive NAME=FORMULA definitions.
    bool derived = false;
    std::vector<std::string> derive;
    // Removed from the start of the paths shown in text (--strip-prefix).
    std::vector<std::string> strip_prefixes;
    OwnCodeRules own_code;  // --own, --not-own
};

// Adds to `profile` the derived events `options` asks for, after the
// recorded ones. Throws vgprof::Error for a malformed --derive.
void add_report_derived_events(Profile& profile, const ReportOptions& options);

// Writes, in options.format ("text" or "json"), the function summary of
// `profile`, or with options.function the call-graph view of that function.
// Throws vgprof::Error when options.sort or options.events names an event
// the profile did not record, when options.events names one twice, when
// options.miss_rates finds no cache or branch events to rate, when
// options.inclusive, options.function or options.thread needs a call graph
// the profile lacks, when options.thread names a thread it has no graph of,
// and when options.function names no function or several.
void write_report(std::ostream& out, const Profile& profile, const ReportOptions& options);

// The heap part of write_report (options.heap). Throws vgprof::Error when the
// profile has no heap data, for an unknown options.heap_sort and when
// options.function names no function or several.
void write_heap_report(std::ostream& out, const Profile& profile, const ReportOptions& options);

// The timeline part of write_report (options.timeline). Throws
// vgprof::Error when the profile has no timeline.
void write_timeline_report(std::ostream& out, const Profile& profile,
                           const ReportOptions& options);

// The data part of write_report (options.data). Throws vgprof::Error when the
// profile has no data section, when options.events or options.sort names an
// event that is not a data event, and when options.function names no
// function or several.
void write_data_report(std::ostream& out, const Profile& profile, const ReportOptions& options);

Command add_report_command(CLI::App& app);

// --- vgprof diff ---------------------------------------------------------

// Two profiles of one benchmark: in a suite, paired by name.
struct BenchmarkPair {
    std::string name;       // the file name without .json (.gz, .zst)
    std::string base, now;  // paths, also shown in the output
};

struct DiffOptions {
    std::string format = "text";  // text, markdown, json or github
    size_t top = 10;              // changed functions shown per benchmark; 0: all
    // Threshold SPECs (vgprof/diff.hpp); empty: none. fail_above and
    // warn_above apply to the totals (and with per_function to each
    // function's self cost too), the function_ ones to each function's
    // self cost only.
    std::string fail_above, warn_above;
    std::string function_fail_above, function_warn_above;
    bool per_function = false;
    // Shell patterns limiting the functions per-function thresholds apply
    // to, by name and by object (FunctionFilter); empty: all.
    std::vector<std::string> gate_functions, gate_objects;
    std::string sort;             // the metric functions are ranked by; empty: the first
    bool force = false;           // compare profiles that do not compare, warning
    std::vector<std::string> strip_prefixes;  // taken off the start of source paths shown
    size_t lines = 3;             // lines shown per changed function
    bool derived = false;         // add every derived event both profiles can have
    std::vector<std::string> derive;  // --derive NAME=FORMULA definitions
    std::vector<std::string> command; // vgprof's own command line, for the JSON output
    std::string data_event = "D1mr";  // ranks the data objects (vgprof/data.hpp)
    OwnCodeRules own_code;        // --own, --not-own
};

// Writes, in options.format, how `now` differs from `base` (one benchmark,
// named after pair.now) and which thresholds it exceeds; returns
// kExitThresholdExceeded when a fail threshold is exceeded, else kExitOk.
// Throws vgprof::Error for a malformed threshold SPEC (before writing
// anything), a threshold or --sort naming a metric not in both profiles,
// profiles without a common event, and profiles that do not compare
// (unless options.force).
int write_diff(std::ostream& out, Profile base, Profile now, const DiffOptions& options,
               const BenchmarkPair& pair = {"", "base.json", "new.json"});

// Loads and compares every pair, then writes them as one suite: one table
// of the benchmarks, a closing "N without regressions; M regressed" line.
// A pair that cannot be compared is reported on `errors` (one line each)
// and in the output, and makes the status kExitBadInput; else a failed
// benchmark makes it kExitThresholdExceeded. `only_base` and `only_new`
// name benchmarks that have no pair. Throws vgprof::Error for a malformed
// threshold SPEC.
int write_suite_diff(std::ostream& out, std::ostream& errors,
                     const std::vector<BenchmarkPair>& pairs,
                     const std::vector<std::string>& only_base,
                     const std::vector<std::string>& only_new, const DiffOptions& options);

// The pairs listed in the file `path`: "BASE NEW" or "NAME BASE NEW" a
// line (a pair without a name is named after NEW); blank lines and what
// follows a '#' are skipped. Throws vgprof::Error for a file that cannot
// be read, a line of another shape, and a file without pairs.
std::vector<BenchmarkPair> read_pairs_file(const std::string& path);

// The name a profile's benchmark goes by: its file name without the
// directory and the .json, .json.gz or .json.zst ending.
std::string benchmark_name(const std::string& path);

// The profiles of two directories (files ending in .json, .json.gz or
// .json.zst) paired by benchmark name, in name order; the names found in
// one directory only go to only_base and only_new. Throws vgprof::Error
// for a directory that cannot be read or holds no profile.
std::vector<BenchmarkPair> pair_directories(const std::string& base_dir, const std::string& new_dir,
                                            std::vector<std::string>& only_base,
                                            std::vector<std::string>& only_new);

Command add_diff_command(CLI::App& app);

// --- vgprof annotate -----------------------------------------------------

struct AnnotateOptions {
    std::string profile;               // path, also shown in the output
    // Source files to annotate, matched against the profile's paths (the
    // whole path or its end); empty: the costliest files.
    std::vector<std::string> sources;
    // The events whose columns are shown, in this order, as for report's
    // text (empty: the first recorded and one miss summary; "all": every
    // recorded event). The first ranks files and functions and sets the
    // threshold.
    std::vector<std::string> events;
    double threshold = 0.1;            // percent of the first shown event's total
    size_t context = 8;                // lines (instructions) around each costly one
    bool all = false;                  // whole files (functions), not hot regions
    std::vector<std::string> source_dirs;    // --source-dir, in order
    std::vector<std::string> substitutions;  // --subst FROM=TO, in order
    std::string rust_src;              // --rust-src: Rust's library sources, tried first
    // --trust-profile: read the files the profile names wherever they are
    // (vgprof/source.hpp).
    bool trust_profile = false;
    bool disassembly = false;          // --asm: instructions instead of source lines
    // --data: this data object (vgprof/data.hpp's find_data_object) by
    // offset, instead of source lines.
    std::string data;
    std::vector<std::string> strip_prefixes;  // --strip-prefix: paths shown without them
    // "text", or "json": the chosen files' lines with their costs and what
    // the calls made on them allocated, without the sources' text.
    std::string format = "text";
};

// Writes the chosen source files line by line with their costs, or with
// options.disassembly the chosen functions instruction by instruction, and
// where the rest of the costs are. Files and objects that cannot be found,
// read or trusted get a note in the output, not an error. Throws
// vgprof::Error for an event the profile did not record or one listed
// twice, a SOURCE that names none of the profile's files, a malformed
// substitution, options.disassembly on a profile without per-instruction
// costs, and options.format json with options.disassembly or options.data.
void write_annotation(std::ostream& out, const Profile& profile, const AnnotateOptions& options);

// options.data's listing: the data object by offset, the functions that
// touched it and where the program's other data events are. Throws
// vgprof::Error when the profile has no data section, when options.data
// names no object or several, for SOURCE arguments, and for an event that
// is not a data event.
void write_data_annotation(std::ostream& out, const Profile& profile,
                           const AnnotateOptions& options);

Command add_annotate_command(CLI::App& app);

// --- vgprof export -------------------------------------------------------

struct ExportOptions {
    std::string format;                 // a name in cmd_export.cpp's kFormats
    std::string output;                 // a path, or "-" for standard output
    std::vector<std::string> profiles;  // paths; two for a differential export
    // Collapsed stacks: the event counted (default Ir) and whether each stack
    // begins with its thread. Given with a format they do not apply to, they
    // are an error, so they are kept apart from their defaults.
    std::optional<std::string> event;
    bool threads = false;
    // Callgrind format: this thread's file alone, as callgrind
    // --separate-threads=yes writes one per thread.
    std::optional<uint32_t> thread;
    // Speedscope: the timeline's calls in time order rather than the
    // call-path tree's samples.
    bool timeline = false;
};

// Throws vgprof::Error when options do not fit options.format: more
// profiles than it takes, or --event, --threads or --thread given to a
// format they do not apply to. Checked before any profile is read.
void check_export_options(const ExportOptions& options);

// Writes `profiles` (read from options.profiles, in that order) in
// options.format. Throws vgprof::Error, before writing anything, when a
// profile lacks what the format needs (collapsed stacks: a call graph, the
// event, per-thread graphs with options.threads; the callgrind format: the
// thread options.thread names).
void write_export(std::ostream& out, const std::vector<Profile>& profiles,
                  const ExportOptions& options);

Command add_export_command(CLI::App& app);

// --- vgprof merge --------------------------------------------------------

struct MergeOptions {
    std::vector<std::string> profiles;  // paths, in the order merged
    std::string output;                 // a path, or "-" for standard output
};

Command add_merge_command(CLI::App& app);

// --- vgprof record ---------------------------------------------------------

struct RecordOptions {
    std::string output;  // -o: --vgprof-out-file's FILE; empty: the tool's default
    std::vector<std::string> tool_options;  // for valgrind, as given
    std::vector<std::string> command;       // the program and its arguments
    // The program's environment: the clean one (kCleanEnvironment) unless
    // keep_env, then each --env NAME=VALUE (or NAME, copied from vgprof's
    // own environment) in order.
    bool keep_env = false;
    std::vector<std::string> env;
    std::string cwd;  // --cwd: the directory it runs in; empty: vgprof's own
};

// What a cleaned environment holds: a fixed PATH, so that a program that
// runs others by name finds them, and nothing that varies from one
// machine, user or CI job to the next.
inline constexpr const char* kCleanEnvironment[] = {"PATH=/usr/local/bin:/usr/bin:/bin"};

// The variables of vgprof's own environment the cleaned one keeps because
// valgrind needs them: VALGRIND_LIB, where an uninstalled tool is.
inline constexpr const char* kKeptForValgrind[] = {"VALGRIND_LIB"};

// The environment valgrind and the program get ("NAME=value" strings):
// options.keep_env ? `inherited` : the clean one plus kKeptForValgrind
// from `inherited`, then options.env applied in order (a later NAME
// replaces an earlier one; NAME alone copies it from `inherited`). Throws
// vgprof::Error for an --env with an empty name.
std::vector<std::string> record_environment(const RecordOptions& options,
                                            const char* const* inherited);

// Splits record's arguments, as the command line gives them after its own
// options: options (which go to valgrind; --vgprof-out-file=FILE is taken
// as the output) up to "--" or the first argument that is not one, then the
// program and its arguments. Throws vgprof::Error when there is no program
// or an option names another tool.
RecordOptions split_record_arguments(const std::vector<std::string>& arguments);

// The valgrind program in the directories of `path` (a PATH value; by
// default the environment's). Throws vgprof::Error when there is none.
std::string find_valgrind(const char* path = nullptr);

// valgrind --tool=vgprof [--vgprof-out-file=FILE] OPTIONS... PROGRAM ARGS...
std::vector<std::string> valgrind_command(const RecordOptions& options,
                                          const std::string& valgrind);

// Where the tool writes the profile of process `pid`.
std::string profile_path(const RecordOptions& options, long pid);

// Where the profile went, its totals of the main events and its top
// functions by self cost of the first event.
void write_record_summary(std::ostream& out, const Profile& profile, const std::string& path);

Command add_record_command(CLI::App& app);

} // namespace vgprof::cli

#endif
