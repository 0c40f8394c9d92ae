// SPDX-License-Identifier: GPL-2.0-or-later
// Running a helper program and collecting its output (vgprof/subprocess.hpp).
#include "vgprof/subprocess.hpp"

#include "vgprof/error.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace vgprof {

namespace {

using Clock = std::chrono::steady_clock;

// Both ends close on exec; the child's ends are moved to stdout and stderr.
struct Pipe {
    int read = -1, write = -1;
    ~Pipe()
    {
        if (read >= 0) ::close(read);
        if (write >= 0) ::close(write);
    }
};

void open_pipe(Pipe& p, const std::string& program)
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw Error(program + ": cannot run: " + std::strerror(errno));
    p.read = fds[0];
    p.write = fds[1];
}

[[noreturn]] void exec_child(const std::vector<std::string>& argv, int out, int err)
{
    std::vector<char*> args;
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0)
        ::dup2(null, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execv(args[0], args.data());
    const std::string message = argv[0] + ": " + std::strerror(errno) + "\n";
    (void)!::write(2, message.data(), message.size());
    ::_exit(127);
}

// Milliseconds poll() may wait: until the deadline, or for ever (-1).
int wait_ms(const std::optional<Clock::time_point>& deadline)
{
    if (!deadline)
        return -1;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now());
    return left.count() < 0 ? 0 : int(left.count()) + 1;
}

// Reads both pipes until the program closes them or the deadline passes;
// false when it passed.
bool collect(int out_fd, int err_fd, Captured& c, const CaptureOptions& options)
{
    std::optional<Clock::time_point> deadline;
    if (options.timeout)
        deadline = Clock::now() + *options.timeout;
    pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
    std::string* sinks[2] = {&c.out, &c.err};
    char buffer[65536];
    int open_pipes = 2;
    while (open_pipes > 0) {
        if (deadline && Clock::now() >= *deadline)
            return false;
        const int ready = ::poll(fds, 2, wait_ms(deadline));
        if (ready < 0 && errno != EINTR)
            break;
        for (int i = 0; ready > 0 && i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0)
                continue;
            const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0) {
                sinks[i]->append(buffer, size_t(n));
                if (i == 1 && options.on_err)
                    options.on_err(c.err);
            } else if (n == 0 || errno != EINTR) {
                fds[i].fd = -1;
                --open_pipes;
            }
        }
    }
    return true;
}

int reap(pid_t pid)
{
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// SIGTERM, and SIGKILL if that has not ended it within a second.
int stop(pid_t pid)
{
    ::kill(pid, SIGTERM);
    for (int tenth = 0; tenth < 10; ++tenth) {
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        ::usleep(100000);
    }
    ::kill(pid, SIGKILL);
    return reap(pid);
}

} // namespace

Captured capture(const std::vector<std::string>& argv, const CaptureOptions& options)
{
    Pipe out, err;
    open_pipe(out, argv[0]);
    open_pipe(err, argv[0]);
    const pid_t pid = ::fork();
    if (pid < 0)
        throw Error(argv[0] + ": cannot run: " + std::strerror(errno));
    if (pid == 0)
        exec_child(argv, out.write, err.write);
    ::close(out.write);
    ::close(err.write);
    out.write = err.write = -1;
    Captured c;
    c.timed_out = !collect(out.read, err.read, c, options);
    c.status = c.timed_out ? stop(pid) : reap(pid);
    return c;
}

} // namespace vgprof
