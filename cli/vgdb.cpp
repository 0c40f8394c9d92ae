// SPDX-License-Identifier: GPL-2.0-or-later
// Reaching vgprof processes through vgdb (vgdb.hpp).
//
// vgdb finds a Valgrind process by the FIFOs its gdbserver makes (named
// after --vgdb-prefix and the process id) and, standing alone, sends one
// monitor command and prints the answer. A process runs the command the
// next time its scheduler looks, which it does only while some thread
// runs: when every thread is blocked in a system call, vgdb attaches to it
// with ptrace after --max-invoke-ms (100 ms) and makes a thread run the
// gdbserver. Where ptrace is refused, vgdb says so and keeps waiting.
#include "vgdb.hpp"

#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/subprocess.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>

namespace vgprof::cli {

namespace {

std::vector<std::string> vgdb_argv(const VgdbOptions& options)
{
    std::vector<std::string> argv = {options.vgdb};
    if (!options.prefix.empty())
        argv.push_back("--vgdb-prefix=" + options.prefix);
    return argv;
}

bool starts_with(const std::string& s, const std::string& prefix)
{
    return s.compare(0, prefix.size(), prefix) == 0;
}

// The program and its arguments, after valgrind and its options (always
// one argument each, --name=value).
std::vector<std::string> client_command(const std::vector<std::string>& args)
{
    size_t i = 1;
    while (i < args.size() && starts_with(args[i], "-"))
        ++i;
    return std::vector<std::string>(args.begin() + std::ptrdiff_t(std::min(i, args.size())),
                                    args.end());
}

// The tool a Valgrind process runs is the program it executes: chosen
// by --tool=vgprof, or by VALGRIND_OPTS where the command line does not
// show it.
bool runs_vgprof_binary(long pid)
{
    char target[4096];
    const std::string link = fmt::format("/proc/{}/exe", pid);
    const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
    if (n <= 0)
        return false;
    const std::string path(target, size_t(n));
    return starts_with(basename_of(path), "vgprof-");
}

} // namespace

std::string find_vgdb(const std::string& valgrind)
{
    const size_t slash = valgrind.rfind('/');
    const std::string vgdb = (slash == std::string::npos ? "" : valgrind.substr(0, slash + 1)) + "vgdb";
    if (::access(vgdb.c_str(), X_OK) != 0)
        throw Error(fmt::format("{} not found: vgdb comes with valgrind, beside {}", vgdb, valgrind));
    return vgdb;
}

std::vector<long> pids_listed_by_vgdb(const std::string& listing)
{
    std::vector<long> pids;
    std::istringstream lines(listing);
    const std::string lead = "use --pid=";
    for (std::string line; std::getline(lines, line);) {
        if (!starts_with(line, lead))
            continue;
        const std::string digits = line.substr(lead.size(), line.find(' ', lead.size()) - lead.size());
        if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos &&
            digits.size() < 10)
            pids.push_back(std::stol(digits));
    }
    return pids;
}

std::optional<std::vector<std::string>> vgprof_client_command(const std::vector<std::string>& args)
{
    for (size_t i = 1; i < args.size() && starts_with(args[i], "-"); ++i)
        if (args[i] == "--tool=vgprof")
            return client_command(args);
    return std::nullopt;
}

std::vector<std::string> process_arguments(long pid)
{
    std::ifstream in(fmt::format("/proc/{}/cmdline", pid), std::ios::binary);
    const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> args;
    for (size_t start = 0; start < all.size();) {
        const size_t end = all.find('\0', start);
        args.push_back(all.substr(start, end - start));
        start = end == std::string::npos ? all.size() : end + 1;
    }
    return args;
}

std::vector<VgprofProcess> list_vgprof_processes(const VgdbOptions& options)
{
    std::vector<std::string> argv = vgdb_argv(options);
    argv.push_back("-l");
    const Captured listing = capture(argv, {options.timeout, {}});
    if (listing.timed_out)
        throw Error(fmt::format("{} -l did not finish within {} s", options.vgdb,
                                options.timeout.count() / 1000));
    std::vector<VgprofProcess> processes;
    for (const long pid : pids_listed_by_vgdb(listing.out)) {
        const std::vector<std::string> args = process_arguments(pid);
        std::optional<std::vector<std::string>> command = vgprof_client_command(args);
        if (!command && !args.empty() && runs_vgprof_binary(pid))
            command = client_command(args);
        if (command)
            processes.push_back({pid, *command});
    }
    return processes;
}

std::optional<std::string> ptrace_refusal(const std::string& vgdb_errors)
{
    const size_t attach = vgdb_errors.find("PTRACE_ATTACH");
    if (attach == std::string::npos)
        return std::nullopt;
    // vgdb prints "syscall failed: <strerror>" just before.
    const std::string lead = "syscall failed: ";
    const size_t why = vgdb_errors.rfind(lead, attach);
    if (why == std::string::npos)
        return std::string("refused");
    const size_t start = why + lead.size();
    return vgdb_errors.substr(start, vgdb_errors.find('\n', start) - start);
}

MonitorAnswer send_monitor_command(const VgdbOptions& options, long pid,
                                   const std::vector<std::string>& words,
                                   const std::function<void(const std::string& why)>& on_refused)
{
    std::vector<std::string> argv = vgdb_argv(options);
    argv.push_back(fmt::format("--pid={}", pid));
    argv.insert(argv.end(), words.begin(), words.end());
    bool told = false;
    const auto watch = [&](const std::string& err) {
        if (told)
            return;
        if (const std::optional<std::string> why = ptrace_refusal(err)) {
            told = true;
            on_refused(*why);
        }
    };
    const Captured c = capture(argv, {options.timeout, watch});
    MonitorAnswer answer;
    answer.answered = !c.timed_out && c.status == 0;
    answer.timed_out = c.timed_out;
    answer.text = c.out;
    answer.vgdb_errors = c.err;
    answer.ptrace_refused = ptrace_refusal(c.err);
    return answer;
}

} // namespace vgprof::cli
