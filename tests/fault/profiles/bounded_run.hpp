// SPDX-License-Identifier: GPL-2.0-or-later
// bounded_run.hpp: runs many short commands, a few at a time, each under a
// wall-clock limit and a memory ceiling, and reports how each ended and the
// most memory it held. A command that hangs is killed when its time is up,
// one whose memory runs away is killed before it can take the machine's.
#pragma once

#include <string>
#include <vector>

namespace vgtest {

struct BoundedLimits {
   double seconds = 60;            // wall-clock time before the command is killed
   long kill_above_kb = 3L << 20;  // resident memory at which it is killed
   int parallel = 2;               // commands running at once
};

struct BoundedResult {
   int exit_code = -1;       // exit status, or -1 when killed by a signal
   int signal = 0;           // the signal that ended it, if any
   bool timed_out = false;   // killed because its time was up
   bool memory_killed = false;  // killed for holding more than kill_above_kb
   long max_rss_kb = 0;      // peak resident memory (getrusage's ru_maxrss)
   double seconds = 0;       // wall-clock time it took
   std::string out, err;     // what it wrote on stdout and stderr
};

// Runs each argv (stdin from /dev/null) in `dir`, where its stdout and
// stderr go to files while it runs. Results are in the order of `commands`.
std::vector<BoundedResult> run_bounded(const std::vector<std::vector<std::string>>& commands,
                                       const std::string& dir, const BoundedLimits& limits = {});

}  // namespace vgtest
