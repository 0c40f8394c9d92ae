// SPDX-License-Identifier: GPL-2.0-or-later
// Talking to processes that run under valgrind --tool=vgprof through
// Valgrind's gdbserver and its relay program vgdb: which processes there
// are, and sending one a monitor command (vgtool/vp_monitor.c).
#ifndef VGPROF_CLI_VGDB_HPP
#define VGPROF_CLI_VGDB_HPP

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace vgprof::cli {

struct VgdbOptions {
    std::string vgdb;    // the vgdb program
    std::string prefix;  // --vgdb-prefix, as given to valgrind; empty: the default
    std::chrono::milliseconds timeout{60000};
};

// vgdb beside `valgrind` (both come with Valgrind). Throws vgprof::Error
// when there is none.
std::string find_vgdb(const std::string& valgrind);

// A process under vgprof that vgdb can reach.
struct VgprofProcess {
    long pid = 0;
    std::vector<std::string> command;  // the program and its arguments
};

// The process ids in what `vgdb -l` prints ("use --pid=N for ...").
std::vector<long> pids_listed_by_vgdb(const std::string& listing);

// The program's command line in a valgrind process's arguments (as
// /proc/PID/cmdline holds them): what follows valgrind's own options.
// None when the arguments do not choose the vgprof tool.
std::optional<std::vector<std::string>> vgprof_client_command(const std::vector<std::string>& args);

// /proc/PID/cmdline split at its NULs; empty if it cannot be read.
std::vector<std::string> process_arguments(long pid);

// The vgprof processes vgdb lists, by process id.
std::vector<VgprofProcess> list_vgprof_processes(const VgdbOptions& options);

// What came back from one monitor command.
struct MonitorAnswer {
    bool answered = false;          // vgdb ended and gave the process's answer
    bool timed_out = false;         // no answer within the time allowed
    std::string text;               // the answer (vgdb's stdout)
    std::string vgdb_errors;        // vgdb's own messages
    std::optional<std::string> ptrace_refused;  // why, when vgdb could not wake the process
};

// If vgdb's messages say that it could not attach to the process with
// ptrace, why ("Operation not permitted"; "refused" when it does not say).
std::optional<std::string> ptrace_refusal(const std::string& vgdb_errors);

// Sends `words` as one monitor command to process `pid` and waits for the
// answer, at most options.timeout. `on_refused` is called, once, as soon
// as vgdb says that ptrace was refused (the command then waits for the
// process to run by itself).
MonitorAnswer send_monitor_command(const VgdbOptions& options, long pid,
                                   const std::vector<std::string>& words,
                                   const std::function<void(const std::string& why)>& on_refused);

} // namespace vgprof::cli

#endif
