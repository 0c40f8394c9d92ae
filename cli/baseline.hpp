// SPDX-License-Identifier: GPL-2.0-or-later
// Named baselines for `vgprof diff`: profiles kept under a name in a
// directory (`--baseline-dir`), so a CI job compares a change against the
// profile of the last accepted build by name rather than by carrying its
// path from one job to the next.
#ifndef VGPROF_CLI_BASELINE_HPP
#define VGPROF_CLI_BASELINE_HPP

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

} // namespace vgprof::cli

#endif
