// SPDX-License-Identifier: GPL-2.0-or-later
// Named baselines for `vgprof diff`: profiles kept under a name in a
// directory (`--baseline-dir`), so a CI job compares a change against the
// profile of the last accepted build by name rather than by carrying its
// path from one job to the next.
#ifndef VGPROF_CLI_BASELINE_HPP
#define VGPROF_CLI_BASELINE_HPP

#include <map>
#include <string>

namespace vgprof::cli {

// Where baseline `name` lives in `dir`: dir/name.json. Throws vgprof::Error
// for a name that is empty, starts with '.', or has a character other than
// a letter, a digit, '.', '_' or '-' (a '/' would leave the directory).
std::string baseline_path(const std::string& dir, const std::string& name);

// The profile stored as baseline `name` in `dir`. Throws vgprof::Error for
// a bad name and when there is no such baseline.
std::string existing_baseline(const std::string& dir, const std::string& name);

// Stores the profile at `profile` as baseline `name` in `dir` (created with
// its parents when missing), replacing the one of that name, and returns
// its path. The profile is checked first, as `vgprof diff` reads it; the
// copy is written to a temporary file in `dir`, synced to disk and renamed
// (vgprof/file_io.hpp), so a baseline is never half-written. Throws vgprof::Error for a bad name, an invalid
// profile, or a directory or file that cannot be written.
std::string save_baseline(const std::string& dir, const std::string& name,
                          const std::string& profile);

// A suite's baseline: the profiles of a directory kept as dir/name/.

// The profiles of a suite's directory: its files whose names end in .json,
// .json.gz or .json.zst (not hidden), by benchmark name (benchmark_name()).
// Throws vgprof::Error for a directory that cannot be read.
std::map<std::string, std::string> suite_profiles(const std::string& dir);

// The directory stored as suite baseline `name` in `dir`. Throws
// vgprof::Error for a bad name and when there is no such baseline.
std::string existing_suite_baseline(const std::string& dir, const std::string& name);

// Stores the profiles of the directory `profiles` (those
// pair_directories() pairs) as suite baseline `name` in `dir`, replacing
// the one of that name, and returns its path. Every profile is checked
// first; the copies are written to a temporary directory in `dir` that is
// renamed into place, so a reader finds the old baseline or the new one,
// never a mixture. Throws vgprof::Error as save_baseline does, and for a
// directory without profiles.
std::string save_suite_baseline(const std::string& dir, const std::string& name,
                                const std::string& profiles);

} // namespace vgprof::cli

#endif
