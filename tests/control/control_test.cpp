// SPDX-License-Identifier: GPL-2.0-or-later
// test_control.cpp: `vgprof control` and the profile at a signal, on a
// small server (progs/server.c) that blocks in poll() between requests and
// is driven by requests the test sends on 127.0.0.1.
//
// The reference is cachegrind on the same server, driven the same way and
// killed by SIGTERM while it waits in poll(): once after the warm-up
// request, once after the warm-up and kLoad more.  The difference of the
// two runs is what kLoad requests cost: in the request handler's
// functions, and in the whole program, the server's loop included.  Every
// command and signal is sent while the server waits in poll(), so that it
// finds the server at the same instruction in every run.
#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "background.hpp"
#include "bounded_run.hpp"
#include "fault_progs.hpp"
#include "harness.hpp"
#include "vgprof/load.hpp"
#include "vgprof/profile.hpp"

using namespace vgtest;

namespace {

constexpr unsigned kLoad = 10;          // requests between the zero and the dump
const std::string kRequest = "work 1000\n";
constexpr unsigned long kRounds = 1000; // as kRequest asks
constexpr double kStartSeconds = 120;   // for valgrind to start the server on a busy machine
constexpr double kStepSeconds = 60;     // for a request, a command or the end

std::string control_prog(const std::string& name)
{
   const char* build = std::getenv("VGPROF_TEST_BUILD");
   return std::string(build ? build : ".") + "/tests/control/progs/" + name;
}

// server.c's compute(), for the answer it must give.
std::string expected_answer()
{
   uint64_t x = 12345, sum = 0;
   for (unsigned long i = 0; i < kRounds; i++) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      sum += x >> 33;
   }
   return std::to_string(sum) + "\n";
}

// The functions of server.c that run for a request (format_number also
// writes the port number at start-up).
const char* const kHandler[] = {"handle_request", "parse_rounds", "compute", "format_number"};

uint64_t handler_ir(const CachegrindOut& cg)
{
   uint64_t sum = 0;
   for (const char* fn : kHandler) sum += cachegrind_ir_of(cg, fn);
   return sum;
}

uint64_t handler_ir(const vgprof::Profile& p)
{
   uint64_t sum = 0;
   for (const char* fn : kHandler) sum += vgprof_ir_of(p, fn);
   return sum;
}

uint64_t calls(const vgprof::Profile& p, const std::string& caller, const std::string& callee)
{
   const CallMap all = vgprof_calls(p);
   const auto it = all.find({caller, callee});
   return it == all.end() ? 0 : it->second.count;
}

// The server under a Valgrind tool, in `dir`, its port file "port"; killed
// when the object goes if it still runs.
class Server {
public:
   Server(const std::string& tool, const std::vector<std::string>& options, const TempDir& dir,
          const std::vector<std::string>& server_args = {})
      : process_(command(tool, options, dir, server_args), dir.path())
   {
      port_ = read_port(dir / "port", kStartSeconds);
      EXPECT_NE(port_, 0) << "the server wrote no port: " << process_.err();
   }

   pid_t pid() const { return process_.pid(); }

   // Sends `n` requests, one after the other, and waits for the server to
   // be back in poll().
   void serve(unsigned n)
   {
      for (unsigned i = 0; i < n && port_; i++)
         ASSERT_EQ(ask(port_, kRequest, kStepSeconds), expected_answer()) << "request " << i;
      ASSERT_TRUE(wait_until_blocked_in_poll(pid(), kStepSeconds)) << process_.err();
   }

   RunResult stop(int signal)
   {
      kill(pid(), signal);
      return process_.wait(kStepSeconds);
   }

private:
   static std::vector<std::string> command(const std::string& tool,
                                           const std::vector<std::string>& options,
                                           const TempDir& dir,
                                           const std::vector<std::string>& server_args)
   {
      std::vector<std::string> argv = {valgrind_path(), "--tool=" + tool};
      argv.insert(argv.end(), options.begin(), options.end());
      argv.push_back(control_prog("server"));
      argv.push_back(dir / "port");
      argv.insert(argv.end(), server_args.begin(), server_args.end());
      return argv;
   }

   Background process_;
   int port_ = 0;
};

// Cachegrind's counts of the server killed in poll() after `requests`.
CachegrindOut cachegrind_after(unsigned requests)
{
   TempDir dir;
   Server s("cachegrind", with(with(kCachegrindAsVgprof, "--vgdb=no"), "--cachegrind-out-file=cg.out"),
            dir);
   s.serve(requests);
   const RunResult r = s.stop(SIGTERM);
   EXPECT_EQ(r.signal, SIGTERM) << r.err;
   return read_cachegrind(dir / "cg.out");
}

// The server under vgprof after its warm-up request, its gdbserver found
// under a vgdb prefix of its own: vgprof control given it lists and
// reaches no other process (another test's, a user's).
struct Session {
   TempDir dir;
   std::string prefix = "--vgdb-prefix=" + dir / "vgdb";
   std::vector<std::string> options;
   Server server;
   std::string pid = std::to_string(server.pid());
   // more: options of the tool's beside the control prefix and the profile's name.
   explicit Session(std::vector<std::string> more = {})
       : options(with_options({prefix, "--vgprof-out-file=p.json"}, more)),
         server("vgprof", options, dir)
   {
      server.serve(1);
   }
   static std::vector<std::string> with_options(std::vector<std::string> a,
                                                const std::vector<std::string>& b)
   {
      a.insert(a.end(), b.begin(), b.end());
      return a;
   }
};

// `vgprof control ARGS`, under a time limit twice its own; `wrapper`, if
// any, runs it.
BoundedResult control(const std::vector<std::string>& args, const std::string& dir,
                      const std::vector<std::string>& wrapper = {})
{
   std::vector<std::string> argv = wrapper;
   argv.push_back(cli_path());
   argv.push_back("control");
   argv.insert(argv.end(), args.begin(), args.end());
   BoundedLimits limits;
   limits.seconds = 2 * kStepSeconds;
   return run_bounded({argv}, dir, limits).at(0);
}

class ControlledServer : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      after_warm_up_ = new CachegrindOut(cachegrind_after(1));
      after_load_ = new CachegrindOut(cachegrind_after(1 + kLoad));
   }
   static void TearDownTestSuite()
   {
      delete after_warm_up_;
      delete after_load_;
   }

   // What one request's handler costs, and what kLoad requests cost with
   // the server's loop, by cachegrind.
   static uint64_t handler_per_request()
   {
      return (handler_ir(*after_load_) - handler_ir(*after_warm_up_)) / kLoad;
   }
   static uint64_t load_ir() { return after_load_->summary.at("Ir") - after_warm_up_->summary.at("Ir"); }

   static CachegrindOut* after_warm_up_;
   static CachegrindOut* after_load_;
};

CachegrindOut* ControlledServer::after_warm_up_ = nullptr;
CachegrindOut* ControlledServer::after_load_ = nullptr;

TEST_F(ControlledServer, ReferenceHandlerCostsTheSameForEveryRequest)
{
   ASSERT_GT(handler_per_request(), kRounds);
   EXPECT_EQ(handler_ir(*after_load_) - handler_ir(*after_warm_up_), kLoad * handler_per_request());
}

// Start, warm up, dump, zero, drive the load, dump, status, more load,
// SIGTERM: the recipe of the manual, with the defaults (heap and cache
// simulation on) and the server blocked in poll() at every command.
TEST_F(ControlledServer, DumpsTheLoadBetweenAZeroAndADump)
{
   Session session;
   const TempDir& dir = session.dir;
   const std::string &prefix = session.prefix, &pid = session.pid;
   Server& s = session.server;

   const BoundedResult list = control({prefix}, dir.path());
   EXPECT_EQ(list.exit_code, 0) << list.err;
   EXPECT_NE(list.out.find(pid + "  " + control_prog("server") + " " + dir / "port"),
             std::string::npos)
       << list.out;

   const BoundedResult first = control({prefix, pid, "dump", "after", "start-up"}, dir.path());
   EXPECT_EQ(first.exit_code, 0) << first.err;
   EXPECT_EQ(first.out, dir / "p.1.json\n");
   const vgprof::Profile start = vgprof::load_profile(dir / "p.1.json");
   EXPECT_EQ(start.meta().dump_number, 1);
   EXPECT_EQ(start.meta().dump_label, "after start-up");
   EXPECT_EQ(start.meta().exit_code, std::nullopt);
   EXPECT_EQ(calls(start, "serve", "handle_request"), 1u);
   EXPECT_EQ(start.meta().totals[0], after_warm_up_->summary.at("Ir"));

   const BoundedResult zero = control({prefix, pid, "zero"}, dir.path());
   EXPECT_EQ(zero.exit_code, 0) << zero.err;
   EXPECT_EQ(zero.out, "vgprof: costs zeroed\n");

   s.serve(kLoad);
   const BoundedResult second = control({prefix, pid, "dump", "load"}, dir.path());
   EXPECT_EQ(second.exit_code, 0) << second.err;
   EXPECT_EQ(second.out, dir / "p.2.json\n");
   const vgprof::Profile load = vgprof::load_profile(dir / "p.2.json");
   EXPECT_EQ(load.meta().dump_label, "load");
   EXPECT_EQ(calls(load, "serve", "handle_request"), kLoad);
   EXPECT_EQ(calls(load, "handle_request", "compute"), kLoad);
   EXPECT_EQ(handler_ir(load), kLoad * handler_per_request());
   EXPECT_EQ(load.meta().totals[0], load_ir());

   const BoundedResult status = control({prefix, pid, "status"}, dir.path());
   EXPECT_EQ(status.exit_code, 0) << status.err;
   EXPECT_NE(status.out.find("vgprof: status of process " + pid + "\n"), std::string::npos);
   EXPECT_NE(status.out.find("  Ir since the last dump or zero: 0\n"), std::string::npos)
       << status.out;
   // server.c's three blocks of 1000, 2000 and 4000 bytes.
   EXPECT_NE(status.out.find("  heap live: 7,000 bytes in 3 blocks\n"), std::string::npos)
       << status.out;
   EXPECT_NE(status.out.find("  dumps written: 2\n"), std::string::npos) << status.out;
   const BoundedResult all = control({prefix, "--all", "status"}, dir.path());
   EXPECT_EQ(all.exit_code, 0) << all.err;
   EXPECT_EQ(all.out, status.out);

   s.serve(kLoad);
   const RunResult end = s.stop(SIGTERM);
   EXPECT_EQ(end.signal, SIGTERM) << end.err;
   const vgprof::Profile last = vgprof::load_profile(dir / "p.json");
   EXPECT_TRUE(last.meta().killed);
   EXPECT_EQ(last.meta().signal, SIGTERM);
   EXPECT_EQ(last.meta().dump_number, std::nullopt);
   EXPECT_EQ(calls(last, "serve", "handle_request"), kLoad);
   EXPECT_EQ(last.meta().totals[0], load_ir());
   EXPECT_EQ(dir.files_starting_with("p.json.tmp"), std::vector<std::string>{});
}

// SIGINT by its default action: the whole run's counts equal cachegrind's
// on every line.
// A mark, the load, a dump: the dumped profile's timeline holds the mark,
// then the dump's own, and between them a span of each request's handler
// costing what cachegrind counts for one request.
TEST_F(ControlledServer, DumpHoldsTheMarkAndTheSpansOfItsPeriod)
{
   Session session({"--timeline=yes"});
   const TempDir& dir = session.dir;
   const std::string &prefix = session.prefix, &pid = session.pid;
   const BoundedResult mark = control({prefix, pid, "mark", "load", "begins"}, dir.path());
   EXPECT_EQ(mark.exit_code, 0) << mark.err;
   EXPECT_NE(mark.out.find("vgprof: mark 1 at instruction "), std::string::npos) << mark.out;
   session.server.serve(kLoad);
   const BoundedResult dump = control({prefix, pid, "dump", "load"}, dir.path());
   EXPECT_EQ(dump.exit_code, 0) << dump.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "p.1.json");
   const vgprof::Timeline* t = p.timeline();
   ASSERT_NE(t, nullptr);
   ASSERT_EQ(t->marks.size(), 2u);
   EXPECT_EQ(t->marks[0].label, "load begins");
   EXPECT_EQ(t->marks[1].label, "load");
   EXPECT_EQ(t->marks[1].time, t->end.time);
   // The warm-up request came before the mark; the load's after it, each
   // costing the same (its own functions' cachegrind count and the C
   // library's calls it makes).
   unsigned handlers = 0;
   std::set<uint64_t> handler_ir;
   for (size_t i = 0; i < t->spans.size(); i++) {
      const vgprof::TimelineSpan& s = t->spans[i];
      EXPECT_LE(s.end, t->end.time);
      if (p.fn_name(s.fn) != "handle_request" || s.start < t->marks[0].time) continue;
      handlers++;
      EXPECT_FALSE(s.open);
      handler_ir.insert(p.span_cost(i)[0]);
   }
   EXPECT_EQ(handlers, kLoad);
   ASSERT_EQ(handler_ir.size(), 1u);
   EXPECT_GE(*handler_ir.begin(), handler_per_request());
   // The server's loop was cut at the dump: an open span ending there.
   bool open_at_dump = false;
   for (const vgprof::TimelineSpan& s : t->spans)
      open_at_dump |= s.open && s.end == t->end.time && p.fn_name(s.fn) == "main";
   EXPECT_TRUE(open_at_dump);
}

TEST_F(ControlledServer, SigintLeavesACompleteProfileNamingIt)
{
   TempDir dir;
   Server s("vgprof", {"--vgdb=no", "--vgprof-out-file=p.json"}, dir);
   s.serve(1 + kLoad);
   const RunResult end = s.stop(SIGINT);
   EXPECT_EQ(end.signal, SIGINT) << end.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "p.json");
   EXPECT_TRUE(p.meta().killed);
   EXPECT_EQ(p.meta().signal, SIGINT);
   EXPECT_EQ(calls(p, "serve", "handle_request"), 1 + kLoad);
   EXPECT_EQ(p.meta().totals[0], after_load_->summary.at("Ir"));
   expect_same_lines(vgprof_lines(p, "Ir"), after_load_->by_event.at("Ir"), "Ir");
}

// SIGINT ignored and blocked in this process, as a non-interactive shell
// ignores it in a job it starts with `&` and a launcher may block it; put
// back as it was when the object goes.
class SigintIgnoredAndBlocked {
public:
   SigintIgnoredAndBlocked()
   {
      struct sigaction ignore {};
      ignore.sa_handler = SIG_IGN;
      sigaction(SIGINT, &ignore, &saved_action_);
      sigset_t sigint;
      sigemptyset(&sigint);
      sigaddset(&sigint, SIGINT);
      sigprocmask(SIG_BLOCK, &sigint, &saved_mask_);
   }
   ~SigintIgnoredAndBlocked()
   {
      sigprocmask(SIG_SETMASK, &saved_mask_, nullptr);
      sigaction(SIGINT, &saved_action_, nullptr);
   }
   SigintIgnoredAndBlocked(const SigintIgnoredAndBlocked&) = delete;
   SigintIgnoredAndBlocked& operator=(const SigintIgnoredAndBlocked&) = delete;

private:
   struct sigaction saved_action_ {};
   sigset_t saved_mask_{};
};

// The server, which leaves SIGINT alone, meets it at its default action
// however these tests were started: what this process ignores or blocks
// does not reach the programs it starts.  Run outside valgrind: this is
// the harness's part of SigintLeavesACompleteProfileNamingIt.
TEST(StartedServer, DiesOfSigintThoughTheTestsIgnoreIt)
{
   TempDir dir;
   SigintIgnoredAndBlocked inherited;
   Background server({control_prog("server"), dir / "port"}, dir.path());
   ASSERT_NE(read_port(dir / "port", kStepSeconds), 0) << server.err();
   ASSERT_TRUE(wait_until_blocked_in_poll(server.pid(), kStepSeconds));
   kill(server.pid(), SIGINT);
   const RunResult end = server.wait(kStepSeconds);
   EXPECT_EQ(end.signal, SIGINT) << end.err;
}

// A server that handles SIGTERM itself leaves its loop and returns from
// main: a profile with its exit status, holding every request.
TEST_F(ControlledServer, SigtermHandledByTheProgramEndsWithItsStatus)
{
   TempDir dir;
   Server s("vgprof", {"--vgdb=no", "--vgprof-out-file=p.json"}, dir, {"--exit-on-term"});
   s.serve(1 + kLoad);
   const RunResult end = s.stop(SIGTERM);
   EXPECT_EQ(end.exit_code, 0) << end.err;
   EXPECT_EQ(end.signal, 0);
   const vgprof::Profile p = vgprof::load_profile(dir / "p.json");
   EXPECT_FALSE(p.meta().killed);
   EXPECT_EQ(p.meta().signal, std::nullopt);
   EXPECT_EQ(p.meta().exit_code, 0);
   EXPECT_EQ(calls(p, "serve", "handle_request"), 1 + kLoad);
   EXPECT_EQ(handler_ir(p), handler_ir(*after_load_));
}

// The process whose parent is `parent` (the first found), or -1.
pid_t child_of(pid_t parent)
{
   for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
      const std::string name = entry.path().filename();
      if (name.find_first_not_of("0123456789") != std::string::npos)
         continue;
      // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses.
      const std::string stat = read_file(entry.path() / "stat");
      const size_t close = stat.rfind(')');
      if (close == std::string::npos)
         continue;
      std::istringstream rest(stat.substr(close + 1));
      std::string state;
      long ppid = 0;
      if (rest >> state >> ppid && ppid == parent)
         return pid_t(std::stol(name));
   }
   return -1;
}

bool runs(pid_t pid) { return pid > 0 && (kill(pid, 0) == 0 || errno != ESRCH); }

// `vgprof record -o p.json -- server port ARGS` started in the background
// in `dir`, as a script starts it with `&`; its valgrind, the only child of
// record, is killed when the object goes if it still runs.
class RecordedServer {
public:
   RecordedServer(const TempDir& dir, const std::vector<std::string>& server_args)
      : record_(command(dir, server_args), dir.path())
   {
      port_ = read_port(dir / "port", kStartSeconds);
      EXPECT_NE(port_, 0) << "the server wrote no port: " << record_.err();
      valgrind_ = child_of(record_.pid());
   }
   ~RecordedServer()
   {
      if (runs(valgrind_))
         kill(valgrind_, SIGKILL);
   }
   RecordedServer(const RecordedServer&) = delete;
   RecordedServer& operator=(const RecordedServer&) = delete;

   pid_t record() const { return record_.pid(); }
   pid_t valgrind() const { return valgrind_; }

   void serve(unsigned n)
   {
      for (unsigned i = 0; i < n && port_; i++)
         ASSERT_EQ(ask(port_, kRequest, kStepSeconds), expected_answer()) << "request " << i;
      ASSERT_TRUE(wait_until_blocked_in_poll(valgrind_, kStepSeconds)) << record_.err();
   }

   RunResult wait() { return record_.wait(kStepSeconds); }

private:
   static std::vector<std::string> command(const TempDir& dir,
                                           const std::vector<std::string>& server_args)
   {
      std::vector<std::string> argv = {cli_path(), "record", "--vgdb=no", "-o", "p.json", "--",
                                       control_prog("server"), dir / "port"};
      argv.insert(argv.end(), server_args.begin(), server_args.end());
      return argv;
   }

   Background record_;
   int port_ = 0;
   pid_t valgrind_ = -1;
};

// How a signal sent to record ends the server, and record with it.
struct RecordStop {
   int signal;
   std::vector<std::string> server_args;
   int status;   // record's: 128 + the signal for a server killed by it
};

// `vgprof record` in the background, stopped as a script stops it (`kill
// $!`) while the server waits in poll(): the signal reaches the server,
// which dies of it (or, handling SIGTERM, returns from main), the profile
// is written whole (every request in it), record ends with the shell's
// status for the server's end, and no valgrind is left running.
TEST_F(ControlledServer, RecordPassesTheSignalsThatEndAProgramOn)
{
   const RecordStop stops[] = {{SIGTERM, {}, 128 + SIGTERM},
                               {SIGINT, {}, 128 + SIGINT},
                               {SIGHUP, {}, 128 + SIGHUP},
                               {SIGTERM, {"--exit-on-term"}, 0}};
   for (const RecordStop& stop : stops) {
      SCOPED_TRACE(std::string(strsignal(stop.signal)) + (stop.status ? "" : ", handled"));
      TempDir dir;
      RecordedServer s(dir, stop.server_args);
      ASSERT_GT(s.valgrind(), 0);
      s.serve(1 + kLoad);
      kill(s.record(), stop.signal);
      const RunResult end = s.wait();
      EXPECT_EQ(end.exit_code, stop.status) << end.err;
      EXPECT_EQ(end.signal, 0);
      EXPECT_FALSE(runs(s.valgrind())) << "valgrind " << s.valgrind() << " still runs";
      EXPECT_NE(end.err.find("vgprof: profile written to p.json\n"), std::string::npos) << end.err;
      const vgprof::Profile p = vgprof::load_profile(dir / "p.json");
      EXPECT_EQ(p.meta().killed, stop.status != 0);
      if (stop.status != 0)
         EXPECT_EQ(p.meta().signal, stop.signal);
      else
         EXPECT_EQ(p.meta().exit_code, 0);
      EXPECT_EQ(calls(p, "serve", "handle_request"), 1 + kLoad);
      EXPECT_EQ(handler_ir(p), handler_ir(*after_load_));
   }
}

// Where ptrace is refused, a server blocked in poll() cannot be woken:
// vgprof control says so and what to do, gives up when its time is up,
// and the command it gave up on is not carried out later, when the
// server runs again.
TEST_F(ControlledServer, RefusedPtraceIsExplainedAndTheCommandDropped)
{
   Session session;
   const TempDir& dir = session.dir;
   const std::string &prefix = session.prefix, &pid = session.pid;

   const BoundedResult refused = control({prefix, "--timeout=2", pid, "dump"}, dir.path(),
                                         {control_prog("no_ptrace")});
   EXPECT_EQ(refused.exit_code, 1) << refused.err;
   EXPECT_EQ(refused.out, "");
   EXPECT_LT(refused.seconds, 10.0);
   for (const char* words : {"vgdb may not wake it with ptrace (Operation not permitted)",
                             "ptrace_scope", "CAP_SYS_PTRACE", "--vgdb-poll",
                             "did not run within 2 s; the command was not carried out"})
      EXPECT_NE(refused.err.find(words), std::string::npos) << words << " in\n" << refused.err;

   session.server.serve(1);
   const BoundedResult status = control({prefix, pid, "status"}, dir.path());
   EXPECT_EQ(status.exit_code, 0) << status.err;
   EXPECT_NE(status.out.find("  dumps written: 0\n"), std::string::npos) << status.out;
   EXPECT_FALSE(wait_for_file(dir / "p.1.json", 0));
}

TEST_F(ControlledServer, RefusesWhatItCannotSend)
{
   Session session;
   const TempDir& dir = session.dir;
   const std::string &prefix = session.prefix, &pid = session.pid;
   const std::string self = std::to_string(getpid());
   const struct {
      std::vector<std::string> args;
      std::string message;
   } cases[] = {
      {{prefix, pid, "restart"},
       "vgprof: control: unknown command 'restart' (dump, zero, instrumentation, collect, "
       "status, mark, help)\n"},
      {{prefix, pid, "mark"}, "vgprof: control: mark takes a label\n"},
      {{prefix, pid, "collect", "maybe"}, "vgprof: control: collect takes on, off or nothing\n"},
      {{prefix, pid}, "vgprof: control: no command to send (dump, zero, instrumentation, "
                      "collect, status, mark, help)\n"},
      {{prefix, "server", "status"}, "vgprof: control: expected a process id or --all, got 'server'\n"},
      {{prefix, self, "status"}, "vgprof: process " + self +
                                     " does not run under valgrind --tool=vgprof (vgprof control "
                                     "lists those that do)\n"},
      {{pid, "status"}, "vgprof: vgdb finds no gdbserver of process " + pid +
                            ": if valgrind was given --vgdb-prefix, give vgprof control the same\n"},
   };
   for (const auto& c : cases) {
      const BoundedResult r = control(c.args, dir.path());
      EXPECT_EQ(r.exit_code, 2) << c.message;
      EXPECT_EQ(r.err, c.message);
      EXPECT_EQ(r.out, "");
   }
}

}  // namespace
