// SPDX-License-Identifier: GPL-2.0-or-later
// bounded_run.cpp: see bounded_run.hpp. Children are reaped with wait4, which
// gives each one's own peak resident memory; between reaps the parent looks
// at every running child's clock and /proc/PID/statm.
#include "bounded_run.hpp"

#include "../../tool/harness.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>
#include <thread>

namespace vgtest {

namespace {

using Clock = std::chrono::steady_clock;

struct Running {
   size_t index;
   Clock::time_point started;
   std::string out_path, err_path;
   bool timed_out = false, memory_killed = false;
};

pid_t start(const std::vector<std::string>& argv, const std::string& dir, const Running& r)
{
   const pid_t pid = fork();
   if (pid < 0)
      throw std::runtime_error("fork failed");
   if (pid == 0) {
      const int o = open(r.out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int e = open(r.err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int n = open("/dev/null", O_RDONLY);
      if (o < 0 || e < 0 || n < 0 || chdir(dir.c_str()) != 0)
         _exit(126);
      dup2(n, 0);
      dup2(o, 1);
      dup2(e, 2);
      std::vector<char*> args;
      for (const auto& a : argv)
         args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execvp(args[0], args.data());
      _exit(127);
   }
   return pid;
}

long resident_kb(pid_t pid)
{
   std::ifstream statm("/proc/" + std::to_string(pid) + "/statm");
   long size = 0, resident = 0;
   statm >> size >> resident;
   return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

}  // namespace

std::vector<BoundedResult> run_bounded(const std::vector<std::vector<std::string>>& commands,
                                       const std::string& dir, const BoundedLimits& limits)
{
   std::vector<BoundedResult> results(commands.size());
   std::map<pid_t, Running> running;
   size_t next = 0;
   const auto limit = std::chrono::duration<double>(limits.seconds);
   while (next < commands.size() || !running.empty()) {
      while (next < commands.size() && running.size() < size_t(limits.parallel)) {
         const std::string tag = dir + "/.bounded." + std::to_string(next);
         Running r{next, Clock::now(), tag + ".out", tag + ".err"};
         running.emplace(start(commands[next], dir, r), r);
         ++next;
      }
      int status = 0;
      rusage usage{};
      const pid_t pid = wait4(-1, &status, WNOHANG, &usage);
      if (pid > 0) {
         const Running r = running.at(pid);
         running.erase(pid);
         BoundedResult& res = results[r.index];
         if (WIFEXITED(status))
            res.exit_code = WEXITSTATUS(status);
         if (WIFSIGNALED(status))
            res.signal = WTERMSIG(status);
         res.timed_out = r.timed_out;
         res.memory_killed = r.memory_killed;
         res.max_rss_kb = usage.ru_maxrss;
         res.seconds = std::chrono::duration<double>(Clock::now() - r.started).count();
         res.out = read_file(r.out_path);
         res.err = read_file(r.err_path);
         unlink(r.out_path.c_str());
         unlink(r.err_path.c_str());
         continue;
      }
      for (auto& [child, r] : running) {
         if (!r.timed_out && Clock::now() - r.started > limit) {
            r.timed_out = true;
            kill(child, SIGKILL);
         }
         if (!r.memory_killed && resident_kb(child) > limits.kill_above_kb) {
            r.memory_killed = true;
            kill(child, SIGKILL);
         }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
   }
   return results;
}

}  // namespace vgtest
