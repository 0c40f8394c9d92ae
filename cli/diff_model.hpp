// SPDX-License-Identifier: GPL-2.0-or-later
// What `vgprof diff` shows, settled before anything is written: the
// benchmarks of a suite paired by name, each one's comparison (libvgprof's
// DiffResult), the thresholds it exceeds, the functions and lines worth
// showing, and the verdict; and the text pieces every output format shares.
#ifndef VGPROF_CLI_DIFF_MODEL_HPP
#define VGPROF_CLI_DIFF_MODEL_HPP

#include "commands.hpp"
#include "diff_data.hpp"

#include "vgprof/diff.hpp"
#include "vgprof/path_display.hpp"
#include "vgprof/safe_text.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vgprof::cli {

// The thresholds of a diff, parsed once for every benchmark.
struct Limits {
    std::vector<Threshold> fail, warn;                    // on the totals
    std::vector<Threshold> function_fail, function_warn;  // on each function's self cost
    FunctionFilter filter;                                // which functions those apply to
};

// Parses the threshold options. Throws vgprof::Error for a malformed SPEC.
Limits parse_limits(const DiffOptions& options);

// Why a benchmark is where it is in the verdict.
enum class Verdict { ok, warn, fail, error };

// One benchmark's comparison and what the outputs show of it.
struct BenchmarkDiff {
    BenchmarkPair pair;
    Verdict verdict = Verdict::ok;
    std::string error;                 // Verdict::error: why it was not compared
    std::vector<std::string> command;  // the profiled program's argv (the new profile's)
    DiffResult diff;
    size_t sort = 0;                   // the metric functions are ranked by
    std::vector<Breach> failed, warned;
    // The functions whose self cost of the sort metric changed, most first
    // (at most DiffOptions::top of them), and how many there are in all.
    std::vector<const FunctionDelta*> shown;
    size_t changed = 0;
    // The functions moved to another file or renamed, in diff order, and
    // how many more only start on another line of their file (code above
    // them grew or shrank, or they were reordered).
    std::vector<const FunctionDelta*> moved;
    size_t shifted = 0;
    // The lines whose cost of a metric changed most in a function.
    std::map<std::pair<const FunctionDelta*, size_t>, std::vector<LineDelta>> lines;
    // For a function not of the program's own code, the own lines it was
    // called through whose part of its change of a metric was largest.
    std::map<std::pair<const FunctionDelta*, size_t>, std::vector<CallerDelta>> callers;
    // Per exceeded total (metric): the functions whose self cost of it rose
    // most, most first; those of the project's files (under a
    // --strip-prefix) when there are any.
    std::map<size_t, std::vector<const FunctionDelta*>> risers;
    // The data objects (nullopt when neither profile has a data section).
    std::optional<DataComparison> data;

    // The lines computed for f and metric (empty when none were).
    const std::vector<LineDelta>& lines_of(const FunctionDelta* f, size_t metric) const;
    // The own callers found for f and metric (empty when none were).
    const std::vector<CallerDelta>& callers_of(const FunctionDelta* f, size_t metric) const;
};

// A whole run of `vgprof diff`: one benchmark, or a suite.
struct SuiteDiff {
    std::vector<std::unique_ptr<BenchmarkDiff>> benchmarks;
    std::vector<std::string> only_base, only_new;  // names of benchmarks not paired
    bool suite = false;                            // several pairs, or directories

    size_t count(Verdict v) const;
    // 2 when a benchmark could not be compared, else 1 when one failed,
    // else 0.
    int exit_status() const;
};

// Loads and compares one pair. Every error (an unreadable profile,
// profiles that do not compare, a threshold naming a missing metric) is
// thrown as vgprof::Error.
std::unique_ptr<BenchmarkDiff> compare_benchmark(const BenchmarkPair& pair,
                                                 const DiffOptions& options,
                                                 const Limits& limits);

// Compares two loaded profiles (the derived events they need are added).
std::unique_ptr<BenchmarkDiff> compare_profiles(const BenchmarkPair& pair, Profile base,
                                                Profile now, const DiffOptions& options,
                                                const Limits& limits);

// --- text every format shares -----------------------------------------------------
// The names and paths in these texts have their control characters escaped
// (escaped_controls()), so that each text stays on one line; each format
// writes them through its own escaping (vgprof/safe_text.hpp).

// "+114,053", "-1,200", "0".
std::string signed_count(int64_t n);
// "+4.59%"; "new" for a cost that was 0 and is not.
std::string relative_text(const CostDelta& c);
// "ok", "warn", "fail", "error".
const char* verdict_name(Verdict v);
// How --strip-prefix shows paths, as in report and annotate: stripped()
// where a program resolves the path (GitHub's annotations, JSON), show()
// in text people read.
PathDisplay path_display(const DiffOptions& options);
// "src/hash.c:42", "src/hash.c" (line 0), "???" (no file).
std::string place_text(const std::string& file, uint32_t line, const DiffOptions& options);
// "work (src/app.c)  [/usr/bin/app]".
std::string function_text(const FunctionDelta& f, const DiffOptions& options);
// "moved from src/a.c:3", "renamed from old_name (src/a.c:3)"; empty for
// a function that was neither, or only starts on another line of its file.
std::string move_text(const FunctionDelta& f, const DiffOptions& options);
// "src/hash.c:42 +5,000, :43 +1,200, src/util.c:7 -20".
std::string lines_text(const std::vector<LineDelta>& lines, const DiffOptions& options);
// "through build_payload at src/main.rs:17" (one caller), "through main at
// app.c:12 +6,000, work at app.c:30 +3,000" (several: each one's part).
std::string callers_text(const std::vector<CallerDelta>& callers, const DiffOptions& options);
// "Ir total +200 (+2.00%, 10,000 -> 10,200) exceeds Ir=+1%".
std::string breach_text(const Breach& b, const DiffOptions& options);
// "2 without regressions; 1 regressed" (and the warned, not compared and
// unpaired benchmarks, when there are any).
std::string closing_line(const SuiteDiff& suite);
// The thresholds given, as the options name them, one entry per option.
std::vector<std::pair<std::string, std::string>> threshold_options(const DiffOptions& options);

// The writers.
void write_text(std::ostream& out, const SuiteDiff& suite, const DiffOptions& options);
void write_markdown(std::ostream& out, const SuiteDiff& suite, const DiffOptions& options);
void write_json(std::ostream& out, const SuiteDiff& suite, const DiffOptions& options);
void write_github(std::ostream& out, const SuiteDiff& suite, const DiffOptions& options);

} // namespace vgprof::cli

#endif
