// SPDX-License-Identifier: GPL-2.0-or-later
// background.hpp: what the control tests need around a server: starting it
// in the background, waiting (within a time limit) for it to be ready and
// to end, killing it whatever happens, and being its client on 127.0.0.1.
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

#include "harness.hpp"

namespace vgtest {

// A program started in `dir` with VALGRIND_LIB set (as harness.hpp's
// run()), stdin empty, stdout and stderr to files.  Killed with SIGKILL
// if it still runs when the object goes, so a failing test leaves nothing
// behind.
class Background {
public:
   Background(const std::vector<std::string>& argv, const std::string& dir);
   ~Background();
   Background(const Background&) = delete;
   Background& operator=(const Background&) = delete;

   pid_t pid() const { return pid_; }
   // Waits at most `seconds` for it to end; if it does not, kills it and
   // says so in the result (exit_code -1, signal SIGKILL).
   RunResult wait(double seconds);
   std::string err() const;   // what it has written on stderr so far

private:
   pid_t pid_ = -1;
   std::string out_path_, err_path_;
};

// Waits at most `seconds` for `path` to exist; whether it does.
bool wait_for_file(const std::string& path, double seconds);

// The port number a test server wrote to `path`, waiting for it as above;
// 0 if none came.
int read_port(const std::string& path, double seconds);

// Waits at most `seconds` for process `pid`'s only thread to be asleep in
// poll(), as a test server is between requests: a command or a signal
// then finds it at the same point every time.  Whether it came to be.
bool wait_until_blocked_in_poll(pid_t pid, double seconds);

// Connects to 127.0.0.1:port, sends `request`, closes the sending side and
// reads the answer to its end; every step within `seconds`.  Empty when
// something failed.
std::string ask(int port, const std::string& request, double seconds);

}  // namespace vgtest
