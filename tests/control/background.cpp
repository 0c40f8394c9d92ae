// SPDX-License-Identifier: GPL-2.0-or-later
// background.cpp: see background.hpp.
#include "background.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

namespace vgtest {

namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point after(double seconds)
{
   return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(seconds));
}

void pause_briefly() { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }

// x86-64's numbers for poll() and ppoll(), which /proc/PID/syscall shows.
constexpr long kPollSyscall = 7, kPpollSyscall = 271;

}  // namespace

Background::Background(const std::vector<std::string>& argv, const std::string& dir)
{
   static int counter = 0;
   const std::string tag = std::to_string(getpid()) + "." + std::to_string(counter++);
   out_path_ = dir + "/.bg-stdout." + tag;
   err_path_ = dir + "/.bg-stderr." + tag;
   pid_ = start_process(argv, dir, out_path_, err_path_);
}

Background::~Background()
{
   if (pid_ > 0) {
      kill(pid_, SIGKILL);
      while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {}
   }
   unlink(out_path_.c_str());
   unlink(err_path_.c_str());
}

RunResult Background::wait(double seconds)
{
   RunResult r;
   if (pid_ <= 0) return r;
   const auto deadline = after(seconds);
   int status = 0;
   pid_t done = 0;
   while ((done = waitpid(pid_, &status, WNOHANG)) == 0 && Clock::now() < deadline)
      pause_briefly();
   if (done == 0) {
      kill(pid_, SIGKILL);
      while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {}
      ADD_FAILURE() << "process " << pid_ << " still ran after " << seconds << " s; killed";
   }
   pid_ = -1;
   if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
   if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
   r.out = read_file(out_path_);
   r.err = read_file(err_path_);
   return r;
}

std::string Background::err() const { return read_file(err_path_); }

bool wait_for_file(const std::string& path, double seconds)
{
   const auto deadline = after(seconds);
   while (access(path.c_str(), F_OK) != 0) {
      if (Clock::now() >= deadline) return false;
      pause_briefly();
   }
   return true;
}

int read_port(const std::string& path, double seconds)
{
   if (!wait_for_file(path, seconds)) return 0;
   return std::atoi(read_file(path).c_str());
}

bool wait_until_blocked_in_poll(pid_t pid, double seconds)
{
   const auto deadline = after(seconds);
   const std::string proc = "/proc/" + std::to_string(pid);
   for (;;) {
      std::ifstream syscall(proc + "/syscall");
      long number = -1;
      syscall >> number;
      std::ifstream stat_file(proc + "/stat");
      std::string stat;
      std::getline(stat_file, stat);
      const size_t close_paren = stat.rfind(')');
      const char state = close_paren + 2 < stat.size() ? stat[close_paren + 2] : '?';
      if (state == 'S' && (number == kPollSyscall || number == kPpollSyscall)) return true;
      if (state == 'Z' || state == '?' || Clock::now() >= deadline) return false;
      pause_briefly();
   }
}

std::string ask(int port, const std::string& request, double seconds)
{
   const int fd = socket(AF_INET, SOCK_STREAM, 0);
   if (fd < 0) return "";
   timeval limit{};
   limit.tv_sec = long(seconds);
   limit.tv_usec = long((seconds - double(limit.tv_sec)) * 1e6);
   setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
   setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
   sockaddr_in a{};
   a.sin_family = AF_INET;
   a.sin_port = htons(uint16_t(port));
   a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
   std::string answer;
   if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
       write(fd, request.data(), request.size()) == ssize_t(request.size()) &&
       shutdown(fd, SHUT_WR) == 0) {
      char buf[256];
      ssize_t n;
      while ((n = read(fd, buf, sizeof buf)) > 0) answer.append(buf, size_t(n));
      if (n < 0) answer.clear();
   }
   close(fd);
   return answer;
}

}  // namespace vgtest
