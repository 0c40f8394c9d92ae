// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof control [PID|--all] [COMMAND [ARG...]]`: with no command, lists
// the processes running under valgrind --tool=vgprof; with one, sends it
// to a process (or all of them) through vgdb and prints the answer, or for
// `dump` the path of the profile, complete when it is printed. And the
// command's registration.
#include "control.hpp"
#include "vgdb.hpp"

#include "vgprof/error.hpp"

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <memory>

namespace vgprof::cli {

namespace {

struct ControlOptions {
    bool all = false;
    double timeout_s = 60;
    std::string prefix;
    std::vector<std::string> args;  // [PID] COMMAND [ARG...]
};

const char* const kCommands = "dump, zero, instrumentation, collect, status, mark, help";

// Says what is wrong with `pid`, which vgdb does not list as a vgprof
// process.
Error unreachable(long pid)
{
    const std::vector<std::string> args = process_arguments(pid);
    if (::access(fmt::format("/proc/{}", pid).c_str(), F_OK) != 0)
        return Error(fmt::format("no process {}", pid));
    if (std::find(args.begin(), args.end(), "--vgdb=no") != args.end())
        return Error(fmt::format("process {} runs with --vgdb=no: valgrind's gdbserver is off, "
                                 "so it cannot be reached",
                                 pid));
    if (!vgprof_client_command(args))
        return Error(fmt::format("process {} does not run under valgrind --tool=vgprof "
                                 "(vgprof control lists those that do)",
                                 pid));
    return Error(fmt::format("vgdb finds no gdbserver of process {}: if valgrind was given "
                             "--vgdb-prefix, give vgprof control the same",
                             pid));
}

// vgdb's messages without its "sending command ... to pid N" lines.
std::string vgdb_messages(const std::string& errors)
{
    std::string kept;
    size_t start = 0;
    while (start < errors.size()) {
        const size_t end = std::min(errors.find('\n', start), errors.size());
        const std::string line = errors.substr(start, end - start);
        if (line.rfind("sending command ", 0) != 0)
            kept += line + '\n';
        start = end + 1;
    }
    return kept;
}

void print_list(const std::vector<VgprofProcess>& processes)
{
    if (processes.empty()) {
        std::cerr << "vgprof: no process runs under valgrind --tool=vgprof with its gdbserver "
                     "(valgrind's --vgdb=no turns it off)\n";
        return;
    }
    std::cout << fmt::format("{:>7}  {}\n", "PID", "COMMAND");
    for (const VgprofProcess& p : processes) {
        std::string command;
        for (const std::string& word : p.command)
            command += (command.empty() ? "" : " ") + word;
        std::cout << fmt::format("{:>7}  {}\n", p.pid, command);
    }
}

// Sends the command to one process and reports the outcome; true when it
// was carried out.
bool control_one(const VgdbOptions& vgdb, long pid, const std::vector<std::string>& words)
{
    const long seconds = long(vgdb.timeout.count() / 1000);
    const MonitorAnswer answer = send_monitor_command(vgdb, pid, words, [&](const std::string& why) {
        std::cerr << ptrace_advice(pid, why, seconds);
    });
    if (answer.timed_out && answer.ptrace_refused) {
        std::cerr << fmt::format("vgprof: process {} did not run within {} s; the command was "
                                 "not carried out\n",
                                 pid, seconds);
        return false;
    }
    if (answer.timed_out) {
        std::cerr << fmt::format("vgprof: process {} did not answer within {} s\n", pid, seconds);
        return false;
    }
    if (!answer.answered) {
        std::cerr << fmt::format("vgprof: vgdb could not reach process {}:\n{}", pid,
                                 vgdb_messages(answer.vgdb_errors));
        return false;
    }
    if (words[0] == "dump") {
        const std::optional<std::string> path = dumped_path(answer.text);
        if (path && ::access(path->c_str(), F_OK) == 0) {
            std::cout << *path << '\n';
            return true;
        }
        std::cerr << answer.text;
        return false;
    }
    const bool failed = answer.text.find("vgprof: error:") != std::string::npos ||
                        answer.text.find("not recognised") != std::string::npos;
    (failed ? std::cerr : std::cout) << answer.text;
    return !failed;
}

int run_control(const ControlOptions& options, const std::string& valgrind)
{
    VgdbOptions vgdb;
    vgdb.vgdb = find_vgdb(valgrind);
    vgdb.prefix = options.prefix;
    vgdb.timeout = std::chrono::milliseconds(long(options.timeout_s * 1000));
    const std::vector<VgprofProcess> processes = list_vgprof_processes(vgdb);
    if (options.args.empty() && !options.all) {
        print_list(processes);
        return kExitOk;
    }

    std::vector<long> targets;
    std::vector<std::string> words = options.args;
    if (options.all) {
        for (const VgprofProcess& p : processes)
            targets.push_back(p.pid);
    } else {
        const std::string& pid_text = options.args[0];
        if (pid_text.empty() || pid_text.size() > 9 ||
            pid_text.find_first_not_of("0123456789") != std::string::npos)
            throw Error(fmt::format("control: expected a process id or --all, got '{}'", pid_text));
        const long pid = std::stol(pid_text);
        const auto listed = [pid](const VgprofProcess& p) { return p.pid == pid; };
        if (std::none_of(processes.begin(), processes.end(), listed))
            throw unreachable(pid);
        targets.push_back(pid);
        words.erase(words.begin());
    }
    if (words.empty())
        throw Error(fmt::format("control: no command to send ({})", kCommands));
    check_monitor_command(words);
    if (targets.empty())
        std::cerr << "vgprof: no process runs under valgrind --tool=vgprof\n";
    bool all_done = true;
    for (const long pid : targets)
        all_done = control_one(vgdb, pid, words) && all_done;
    return all_done ? kExitOk : kExitCommandFailed;
}

} // namespace

void check_monitor_command(const std::vector<std::string>& words)
{
    const std::string& command = words[0];
    const size_t args = words.size() - 1;
    if (command.rfind("v.", 0) == 0 || command == "dump")
        return;
    if (command == "zero" || command == "status" || command == "help") {
        if (args > 0)
            throw Error(fmt::format("control: {} takes no argument", command));
        return;
    }
    if (command == "mark") {
        if (args == 0)
            throw Error("control: mark takes a label");
        return;
    }
    if (command == "instrumentation" || command == "collect") {
        if (args > 1 || (args == 1 && words[1] != "on" && words[1] != "off"))
            throw Error(fmt::format("control: {} takes on, off or nothing", command));
        return;
    }
    throw Error(fmt::format("control: unknown command '{}' ({})", command, kCommands));
}

std::optional<std::string> dumped_path(const std::string& answer)
{
    const std::string lead = "vgprof: dump ", middle = " written to ";
    const size_t start = answer.find(lead);
    if (start == std::string::npos)
        return std::nullopt;
    const size_t path = answer.find(middle, start);
    const size_t end = answer.find('\n', start);
    if (path == std::string::npos || path > end)
        return std::nullopt;
    return answer.substr(path + middle.size(), end - path - middle.size());
}

std::string ptrace_advice(long pid, const std::string& why, long seconds)
{
    return fmt::format(
        "vgprof: process {} does not answer (all its threads wait in system calls), and vgdb "
        "may not wake it with ptrace ({}).\n"
        "vgprof: waiting up to {} s for it to run by itself (give it work: a request, input); "
        "to reach it while blocked,\n"
        "vgprof:   - allow ptrace: run vgprof control as the program's user or as root; where "
        "/proc/sys/kernel/yama/ptrace_scope\n"
        "vgprof:     exists it must be 0 or 1 (valgrind admits its own user at 1); in a "
        "container, grant CAP_SYS_PTRACE;\n"
        "vgprof:   - or, for a program that does run now and then, start it with valgrind's "
        "--vgdb-poll=N so that it looks\n"
        "vgprof:     for commands every N blocks it runs (default 5000).\n",
        pid, why, seconds);
}

Command add_control_command(CLI::App& app)
{
    auto options = std::make_shared<ControlOptions>();
    CLI::App* cmd = app.add_subcommand(
        "control",
        "List the processes running under valgrind --tool=vgprof, or send one (or --all) a "
        "command: dump [LABEL], zero, instrumentation [on|off], collect [on|off], status, mark "
        "LABEL, help.");
    cmd->add_flag("--all", options->all, "send the command to every vgprof process");
    cmd->add_option("--timeout", options->timeout_s,
                    "seconds to wait for each process's answer (default 60)")
        ->type_name("SECONDS")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--vgdb-prefix", options->prefix,
                    "valgrind's --vgdb-prefix, when the program was started with one")
        ->type_name("PREFIX");
    cmd->add_option("ARGS", options->args, "PID COMMAND [ARG...], or with --all COMMAND [ARG...]");
    return Command{cmd, [options] { return run_control(*options, find_valgrind()); }};
}

} // namespace vgprof::cli
