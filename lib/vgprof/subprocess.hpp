// SPDX-License-Identifier: GPL-2.0-or-later
// Running a helper program (objdump, vgdb) and collecting what it writes,
// with an optional time limit.
#ifndef VGPROF_SUBPROCESS_HPP
#define VGPROF_SUBPROCESS_HPP

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace vgprof {

struct Captured {
    int status = -1;         // exit status; -1 when killed by a signal
    bool timed_out = false;  // stopped because its time was up
    std::string out, err;
};

struct CaptureOptions {
    // Past this the program is stopped (SIGTERM, then SIGKILL a second
    // later) and the result says so; none: no limit.
    std::optional<std::chrono::milliseconds> timeout;
    // Called with all it wrote on stderr so far, each time that grows.
    std::function<void(const std::string& err)> on_err;
};

// Runs argv (argv[0] a path), stdin empty, and collects what it writes on
// stdout and stderr, reading both as they come so neither pipe fills up.
// Throws vgprof::Error naming argv[0] when it cannot be started.
Captured capture(const std::vector<std::string>& argv, const CaptureOptions& options = {});

} // namespace vgprof

#endif
