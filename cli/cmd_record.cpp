// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof record [options] -- PROGRAM [ARGS...]`: runs the program under
// `valgrind --tool=vgprof` in a clean environment (or the caller's) and
// the directory asked for, passes its exit status on, and says where the
// profile went with a short summary of it; and the command's registration.
#include "commands.hpp"
#include "report_layout.hpp"

#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/load.hpp"
#include "vgprof/path_display.hpp"
#include "vgprof/query.hpp"
#include "vgprof/safe_text.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <memory>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace vgprof::cli {

namespace {

// The tool's own default for --vgprof-out-file.
const char* const kDefaultOutFile = "vgprof.out.%p.json";
const char* const kOutFileOption = "--vgprof-out-file=";

// The events the summary totals, in this order, those recorded: the
// instructions, then the data-cache misses and mispredictions people look
// at first. The report shows them all.
const char* const kSummaryEvents[] = {"Ir", "D1mr", "D1mw", "DLmr", "DLmw", "Bcm", "Bim"};

// The number of functions the summary lists.
constexpr size_t kSummaryFunctions = 5;

bool is_executable_file(const std::string& path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// The signals passed on to the program: those that ask a process to end.
// SIGQUIT is left to the terminal, which sends it to the program too.
constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP};

// The process the signals go to once it runs (valgrind, which delivers
// them to the program as the program's own disposition says).
volatile sig_atomic_t forward_to = 0;

// A signal the kernel sent (the terminal's ^C or hangup) reached the
// program's whole process group, valgrind included; one a process sent to
// vgprof alone (`kill PID`) is passed on, so that vgprof never ends
// before the program and leaves it running with no one to wait for it.
void forward_signal(int sig, siginfo_t* info, void*)
{
    if (info != nullptr && info->si_code == SI_KERNEL)
        return;
    const int saved_errno = errno;
    if (forward_to > 0)
        kill(pid_t(forward_to), sig);
    errno = saved_errno;
}

// While the program runs: kForwarded passed on to it (those vgprof
// inherited ignored stay ignored, for vgprof and the program alike, as a
// shell ignores SIGINT in a job started with `&`), SIGQUIT ignored. Put
// back as they were when the object goes.
class SignalsPassedOn {
public:
    SignalsPassedOn()
    {
        sigset_t all;
        sigemptyset(&all);
        for (int sig : kForwarded)
            sigaddset(&all, sig);
        // Held until the program's pid is known, so none is lost.
        sigprocmask(SIG_BLOCK, &all, &old_mask_);
        struct sigaction pass {}, ignore {};
        pass.sa_sigaction = forward_signal;
        pass.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&pass.sa_mask);
        ignore.sa_handler = SIG_IGN;
        for (size_t i = 0; i < std::size(kForwarded); ++i) {
            sigaction(kForwarded[i], nullptr, &old_[i]);
            if (old_[i].sa_handler != SIG_IGN)
                sigaction(kForwarded[i], &pass, nullptr);
        }
        sigaction(SIGQUIT, &ignore, &old_quit_);
    }
    ~SignalsPassedOn()
    {
        forward_to = 0;
        restore();
    }
    SignalsPassedOn(const SignalsPassedOn&) = delete;
    SignalsPassedOn& operator=(const SignalsPassedOn&) = delete;

    // In the child, before exec: the dispositions and mask vgprof got.
    void restore() const
    {
        for (size_t i = 0; i < std::size(kForwarded); ++i)
            sigaction(kForwarded[i], &old_[i], nullptr);
        sigaction(SIGQUIT, &old_quit_, nullptr);
        sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
    }
    // In vgprof, once the program runs: what came meanwhile goes to it.
    void pass_to(pid_t child) const
    {
        forward_to = child;
        sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
    }

private:
    struct sigaction old_[std::size(kForwarded)] {};
    struct sigaction old_quit_ {};
    sigset_t old_mask_{};
};

// Runs argv with the environment `env` in the directory `cwd` (vgprof's
// own when empty) and waits for it. SIGINT, SIGTERM and SIGHUP sent to
// vgprof go to the program; vgprof waits for it to end, as system() does,
// so it can still report the profile written at the program's end.
int run_and_wait(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                 const std::string& cwd, pid_t& child)
{
    const auto pointers = [](const std::vector<std::string>& strings) {
        std::vector<char*> out;
        for (const std::string& s : strings)
            out.push_back(const_cast<char*>(s.c_str()));
        out.push_back(nullptr);
        return out;
    };
    std::vector<char*> args = pointers(argv), envp = pointers(env);
    std::cout.flush();
    std::cerr.flush();
    int status = 0;
    {
        SignalsPassedOn signals;
        child = fork();
        if (child == 0) {
            signals.restore();
            if (!cwd.empty() && chdir(cwd.c_str()) != 0) {
                std::fprintf(stderr, "vgprof: cannot enter %s: %s\n", cwd.c_str(),
                             std::strerror(errno));
                _exit(127);
            }
            execve(args[0], args.data(), envp.data());
            std::fprintf(stderr, "vgprof: cannot run %s: %s\n", args[0], std::strerror(errno));
            _exit(127);
        }
        const int saved_errno = errno;
        if (child < 0)
            throw Error(fmt::format("cannot start {}: {}", argv[0], std::strerror(saved_errno)));
        signals.pass_to(child);
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
    }
    // A program killed by a signal ends valgrind with the same signal; a
    // shell reports that as 128 + the signal's number, and so does vgprof.
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

// With --cwd, a relative output path still names a file where vgprof was
// started, as the user wrote it.
void settle_directory(RecordOptions& options)
{
    if (options.cwd.empty())
        return;
    struct stat st;
    if (stat(options.cwd.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw Error(fmt::format("--cwd {}: no such directory", options.cwd));
    if (options.output.empty())
        options.output = kDefaultOutFile;
    if (options.output[0] != '/') {
        std::vector<char> here(4096);
        if (getcwd(here.data(), here.size()) == nullptr)
            throw Error(fmt::format("cannot tell the current directory: {}", std::strerror(errno)));
        options.output = std::string(here.data()) + "/" + options.output;
    }
}

int run_record(RecordOptions options)
{
    settle_directory(options);
    const std::vector<std::string> argv = valgrind_command(options, find_valgrind());
    pid_t pid = 0;
    const int status =
        run_and_wait(argv, record_environment(options, ::environ), options.cwd, pid);
    const std::string path = profile_path(options, pid);
    if (access(path.c_str(), F_OK) != 0) {
        std::cerr << fmt::format("vgprof: no profile at {} (see valgrind's messages above)\n",
                                 path);
        return status;
    }
    try {
        write_record_summary(std::cerr, load_profile(path), path);
    } catch (const Error& e) {
        std::cerr << "vgprof: " << e.what() << '\n';
    }
    return status;
}

} // namespace

RecordOptions split_record_arguments(const std::vector<std::string>& arguments)
{
    RecordOptions options;
    auto arg = arguments.begin();
    for (; arg != arguments.end(); ++arg) {
        if (*arg == "--") {
            ++arg;
            break;
        }
        if (arg->empty() || (*arg)[0] != '-')
            break;
        if (arg->rfind("--tool=", 0) == 0)
            throw Error(fmt::format("{}: vgprof record always runs the vgprof tool", *arg));
        if (arg->rfind(kOutFileOption, 0) == 0)
            options.output = arg->substr(std::strlen(kOutFileOption));
        else
            options.tool_options.push_back(*arg);
    }
    options.command.assign(arg, arguments.end());
    if (options.command.empty())
        throw Error("record: no program to run (vgprof record [OPTIONS] -- PROGRAM [ARGS...])");
    return options;
}

std::vector<std::string> record_environment(const RecordOptions& options,
                                            const char* const* inherited)
{
    const auto name_of = [](const std::string& variable) {
        return variable.substr(0, variable.find('='));
    };
    const auto lookup = [&](const std::string& name) -> const char* {
        for (const char* const* e = inherited; e != nullptr && *e != nullptr; ++e)
            if (name_of(*e) == name)
                return *e;
        return nullptr;
    };
    std::vector<std::string> env;
    const auto set = [&](const std::string& variable) {
        const std::string name = name_of(variable);
        env.erase(std::remove_if(env.begin(), env.end(),
                                 [&](const std::string& v) { return name_of(v) == name; }),
                  env.end());
        env.push_back(variable);
    };
    if (options.keep_env) {
        for (const char* const* e = inherited; e != nullptr && *e != nullptr; ++e)
            env.emplace_back(*e);
    } else {
        for (const char* variable : kCleanEnvironment)
            set(variable);
        for (const char* name : kKeptForValgrind)
            if (const char* variable = lookup(name))
                set(variable);
    }
    for (const std::string& e : options.env) {
        if (name_of(e).empty())
            throw Error(fmt::format("--env {}: expected NAME=VALUE or NAME", e));
        if (e.find('=') != std::string::npos)
            set(e);
        else if (const char* variable = lookup(e))
            set(variable);
    }
    return env;
}

std::string find_valgrind(const char* path)
{
    if (path == nullptr)
        path = std::getenv("PATH");
    std::string dirs = path != nullptr ? path : "";
    for (size_t start = 0; start <= dirs.size();) {
        const size_t end = std::min(dirs.find(':', start), dirs.size());
        // An empty entry means the current directory, as for a shell.
        const std::string dir = end == start ? "." : dirs.substr(start, end - start);
        const std::string candidate = dir + "/valgrind";
        if (is_executable_file(candidate))
            return candidate;
        start = end + 1;
    }
    throw Error("valgrind not found on PATH; install it (apt-get install valgrind) or add "
                "its directory to PATH");
}

std::vector<std::string> valgrind_command(const RecordOptions& options, const std::string& valgrind)
{
    std::vector<std::string> argv = {valgrind, "--tool=vgprof"};
    if (!options.output.empty())
        argv.push_back(kOutFileOption + options.output);
    argv.insert(argv.end(), options.tool_options.begin(), options.tool_options.end());
    argv.insert(argv.end(), options.command.begin(), options.command.end());
    return argv;
}

// The name the tool gives the profile of process `pid`: --vgprof-out-file's
// pattern with %p, %q{VAR} and %% expanded as the tool expands them.
std::string profile_path(const RecordOptions& options, long pid)
{
    const std::string pattern = options.output.empty() ? kDefaultOutFile : options.output;
    std::string path;
    for (size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '%' || i + 1 == pattern.size()) {
            path += pattern[i];
            continue;
        }
        const char what = pattern[++i];
        if (what == 'p') {
            path += std::to_string(pid);
        } else if (what == '%') {
            path += '%';
        } else if (what == 'q' && i + 1 < pattern.size() && pattern[i + 1] == '{' &&
                   pattern.find('}', i) != std::string::npos) {
            const size_t close = pattern.find('}', i);
            const char* value = std::getenv(pattern.substr(i + 2, close - i - 2).c_str());
            path += value != nullptr ? value : "";
            i = close;
        } else {
            path += '%';
            path += what;
        }
    }
    return path;
}

void write_record_summary(std::ostream& out, const Profile& profile, const std::string& path)
{
    out << fmt::format("vgprof: profile written to {}\n", path);
    std::string totals;
    for (const char* event : kSummaryEvents)
        if (const std::optional<size_t> e = profile.event_index(event))
            totals += fmt::format("{}{} {}", totals.empty() ? "" : "  ", event,
                                  format_thousands(profile.meta().totals[*e]));
    out << "vgprof: totals: " << totals << '\n';

    std::vector<FunctionCost> costs = function_self_costs(profile);
    drop_zero_costs(costs);
    sort_by_cost(costs, profile, 0);
    const size_t shown = std::min(costs.size(), kSummaryFunctions);
    const uint64_t total = profile.meta().totals[0];
    out << fmt::format("vgprof: top {} by {} (self):\n", shown == 1 ? "function" : "functions",
                       profile.meta().events[0]);
    std::vector<std::string> counts;
    size_t width = 0;
    for (size_t i = 0; i < shown; ++i) {
        counts.push_back(format_thousands(costs[i].self[0]));
        width = std::max(width, counts.back().size());
    }
    for (size_t i = 0; i < shown; ++i)
        out << fmt::format("vgprof:   {:>{}} {:>8}  {}\n", counts[i], width,
                           percent(costs[i].self[0], total),
                           escaped_controls(function_label(profile, costs[i].fn, PathDisplay{})));
    out << fmt::format("vgprof: the whole report: vgprof report {}\n", path);
}

Command add_record_command(CLI::App& app)
{
    auto options = std::make_shared<RecordOptions>();
    auto arguments = std::make_shared<std::vector<std::string>>();
    CLI::App* cmd = app.add_subcommand(
        "record",
        "Run a program under valgrind --tool=vgprof, then say where the profile went and "
        "summarize it. Options not listed here go to valgrind (the tool's and Valgrind's own).");
    cmd->add_option("-o,--output", options->output,
                    "where the profile goes (--vgprof-out-file; default vgprof.out.%p.json)")
        ->type_name("FILE");
    cmd->add_flag("--keep-env", options->keep_env,
                  "run the program in vgprof's own environment instead of a clean one (PATH="
                  "/usr/local/bin:/usr/bin:/bin, and VALGRIND_LIB when set)");
    cmd->add_option("--env", options->env,
                    "set NAME to VALUE in the program's environment, or with NAME alone copy it "
                    "from vgprof's (repeatable)")
        ->type_name("NAME=VALUE")
        ->allow_extra_args(false);
    cmd->add_option("--cwd", options->cwd, "run the program in DIR")->type_name("DIR");
    // Everything from the first unknown argument on is the program and the
    // options valgrind gets, split by split_record_arguments(). The
    // positional only names the program in the help, and makes CLI11 keep
    // a "--" for that split: it accepts no value itself.
    cmd->add_option("PROGRAM", *arguments, "the program to profile, and its arguments")
        ->check(CLI::Validator([](std::string&) { return std::string("not an option"); }, ""));
    cmd->validate_positionals();
    cmd->prefix_command();
    return Command{cmd, [cmd, options] {
                       RecordOptions split = split_record_arguments(cmd->remaining());
                       if (!options->output.empty())
                           split.output = options->output;
                       split.keep_env = options->keep_env;
                       split.env = options->env;
                       split.cwd = options->cwd;
                       return run_record(split);
                   }};
}

} // namespace vgprof::cli
