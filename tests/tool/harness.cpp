// SPDX-License-Identifier: GPL-2.0-or-later
// harness.cpp: process running, temporary directories and readers for the
// reference tools' output files.
#include "harness.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "vgprof/load.hpp"
#include "vgprof/profile.hpp"

namespace vgtest {

static std::string env(const char* name)
{
   const char* v = std::getenv(name);
   if (!v || !*v)
      throw std::runtime_error(std::string("test environment variable ") + name +
                               " is not set (run the tests through make check)");
   return v;
}

std::string vglib_dir()     { return env("VGPROF_TEST_VGLIB"); }
std::string progs_dir()     { return env("VGPROF_TEST_PROGS"); }
std::string cli_path()      { return env("VGPROF_TEST_CLI"); }
std::string valgrind_path() { return env("VGPROF_TEST_VALGRIND"); }
std::string callgrind_annotate_path() { return env("VGPROF_TEST_CALLGRIND_ANNOTATE"); }
std::string cg_merge_path() { return env("VGPROF_TEST_CG_MERGE"); }
std::string source_dir()    { return env("VGPROF_TEST_SRCDIR"); }

bool ends_with(const std::string& s, const std::string& tail)
{
   return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

TempDir::TempDir()
{
   const char* base = std::getenv("TMPDIR");
   std::string templ = std::string(base && *base ? base : "/tmp") + "/vgprof-test-XXXXXX";
   std::vector<char> buf(templ.begin(), templ.end());
   buf.push_back('\0');
   if (!mkdtemp(buf.data()))
      throw std::runtime_error("mkdtemp failed: " + std::string(std::strerror(errno)));
   path_ = buf.data();
}

TempDir::~TempDir()
{
   if (std::getenv("VGPROF_TEST_KEEP")) return;
   std::error_code ignored;
   std::filesystem::remove_all(path_, ignored);
}

std::vector<std::string> TempDir::files_starting_with(const std::string& prefix) const
{
   std::vector<std::string> names;
   if (DIR* d = opendir(path_.c_str())) {
      while (dirent* e = readdir(d)) {
         std::string n = e->d_name;
         if (n != "." && n != ".." && n.compare(0, prefix.size(), prefix) == 0)
            names.push_back(n);
      }
      closedir(d);
   }
   std::sort(names.begin(), names.end());
   return names;
}

std::string generated_text(size_t bytes)
{
   static const char* words[] = {"profile", "cache", "miss", "branch", "heap",
                                 "instruction", "valgrind", "the", "of", "a",
                                 "function", "line", "call", "graph", "block"};
   std::string s;
   uint32_t x = 2463534242u;
   while (s.size() < bytes) {
      x = x * 1664525u + 1013904223u;
      s += words[(x >> 16) % 15];
      s += (x & 0x7) == 0 ? "\n" : " ";
   }
   return s;
}

std::string read_file(const std::string& path)
{
   std::ifstream in(path, std::ios::binary);
   if (!in) throw std::runtime_error("cannot read " + path);
   std::ostringstream s;
   s << in.rdbuf();
   return s.str();
}

void write_file(const std::string& path, const std::string& text)
{
   std::ofstream out(path, std::ios::binary);
   out << text;
   if (!out) throw std::runtime_error("cannot write " + path);
}

// In a child about to exec: every signal at its default action and none
// blocked, as in a program started from a terminal.  exec keeps what the
// test binary inherited, and a test may have been started by a shell that
// ignores SIGINT and SIGQUIT (a non-interactive shell's `scripts/check &`)
// or by a launcher that blocks signals; a program that should die of
// SIGINT would then wait on.  (SIGKILL, SIGSTOP and the C library's own
// signals refuse the change, which leaves them as they are.)
static void restore_default_signals()
{
   struct sigaction default_action {};
   default_action.sa_handler = SIG_DFL;
   sigemptyset(&default_action.sa_mask);
   for (int sig = 1; sig < NSIG; sig++) sigaction(sig, &default_action, nullptr);
   sigset_t none;
   sigemptyset(&none);
   sigprocmask(SIG_SETMASK, &none, nullptr);
}

int start_process(const std::vector<std::string>& argv, const std::string& dir,
                  const std::string& out_path, const std::string& err_path)
{
   std::string vglib = vglib_dir();
   pid_t pid = fork();
   if (pid < 0) throw std::runtime_error("fork failed");
   if (pid == 0) {
      int o = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int e = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int n = open("/dev/null", O_RDONLY);
      if (o < 0 || e < 0 || n < 0 || chdir(dir.c_str()) != 0) _exit(126);
      dup2(n, 0); dup2(o, 1); dup2(e, 2);
      setenv("VALGRIND_LIB", vglib.c_str(), 1);
      restore_default_signals();
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execvp(args[0], args.data());
      _exit(127);
   }
   return pid;
}

RunResult run(const std::vector<std::string>& argv, const std::string& dir)
{
   static int counter = 0;
   std::string tag = std::to_string(getpid()) + "." + std::to_string(counter++);
   std::string out_path = dir + "/.stdout." + tag, err_path = dir + "/.stderr." + tag;
   pid_t pid = start_process(argv, dir, out_path, err_path);
   int status = 0;
   rusage usage{};
   while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {}
   RunResult r;
   r.max_rss_kb = usage.ru_maxrss;
   if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
   if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
   r.out = read_file(out_path);
   r.err = read_file(err_path);
   unlink(out_path.c_str());
   unlink(err_path.c_str());
   return r;
}

RunResult run_tool(const std::string& tool, const std::vector<std::string>& options,
                   const std::vector<std::string>& program, const std::string& dir)
{
   std::vector<std::string> argv{valgrind_path(), "--tool=" + tool};
   argv.insert(argv.end(), options.begin(), options.end());
   argv.insert(argv.end(), program.begin(), program.end());
   return run(argv, dir);
}

// Cachegrind's output: "events:" names the columns; "fl=" and "fn=" set the
// current file and function; other lines are "LINE COST...".
CachegrindOut read_cachegrind(const std::string& path)
{
   CachegrindOut cg;
   std::istringstream in(read_file(path));
   std::string line, file, fn;
   while (std::getline(in, line)) {
      if (line.rfind("events: ", 0) == 0) {
         std::istringstream ev(line.substr(8));
         for (std::string e; ev >> e;) cg.events.push_back(e);
      } else if (line.rfind("fl=", 0) == 0) {
         file = line.substr(3);
      } else if (line.rfind("fn=", 0) == 0) {
         fn = line.substr(3);
      } else if (line.rfind("summary:", 0) == 0) {
         std::istringstream s(line.substr(8));
         for (const auto& e : cg.events) s >> cg.summary[e];
      } else if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0]))) {
         std::istringstream s(line);
         unsigned lineno = 0;
         s >> lineno;
         for (const auto& e : cg.events) {
            uint64_t c = 0;
            if (!(s >> c)) break;   // missing trailing columns are zero
            if (c) cg.by_event[e][LineKey{file, fn, lineno}] += c;
         }
      }
   }
   return cg;
}

// Callgrind's format names a function once as "fn=(id) name" and then
// by "(id)" alone; fn= and cfn= share the ids.  "calls=N target" is
// followed by a line "position inclusive-cost...".
std::string without_recursion_level(std::string name)
{
   const auto q = name.rfind('\'');
   if (q != std::string::npos && q + 1 < name.size() &&
       std::all_of(name.begin() + q + 1, name.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }))
      name.erase(q);
   return name;
}

CallMap read_callgrind_calls(const std::string& path)
{
   std::map<std::string, std::string> names;
   auto name_of = [&](const std::string& v) {
      std::string n = v;
      if (!v.empty() && v[0] == '(') {
         auto close = v.find(')');
         std::string id = v.substr(0, close + 1);
         if (close + 1 < v.size()) names[id] = v.substr(close + 2);
         n = names[id];
      }
      return without_recursion_level(n);
   };
   CallMap calls;
   std::istringstream in(read_file(path));
   std::string line, fn, cfn;
   uint64_t pending = 0;
   bool have_call = false;
   while (std::getline(in, line)) {
      if (line.rfind("fn=", 0) == 0) {
         fn = name_of(line.substr(3));
      } else if (line.rfind("cfn=", 0) == 0) {
         cfn = name_of(line.substr(4));
      } else if (line.rfind("calls=", 0) == 0) {
         pending = std::stoull(line.substr(6));
         have_call = true;
      } else if (have_call && !line.empty() &&
                 (std::isdigit(static_cast<unsigned char>(line[0])) || line[0] == '+' ||
                  line[0] == '-' || line[0] == '*')) {
         std::istringstream cost(line);
         std::string position;
         uint64_t incl = 0;
         cost >> position >> incl;
         auto& t = calls[{fn, cfn}];
         t.count += pending;
         t.inclusive += incl;
         have_call = false;
      }
   }
   return calls;
}

CallMap graph_calls(const vgprof::Profile& p, const vgprof::CallGraph& g)
{
   CallMap calls;
   for (size_t i = 0; i < g.calls().size(); i++) {
      const auto& e = g.calls()[i];
      auto& t = calls[{p.fn_name(e.caller), p.fn_name(e.callee)}];
      t.count += e.count;
      t.inclusive += g.call_cost(i)[0];
   }
   return calls;
}

CallMap vgprof_calls(const vgprof::Profile& p) { return graph_calls(p, p.call_graph()); }

CallMap touching(const CallMap& all, const std::set<std::string>& own)
{
   CallMap some;
   for (const auto& [edge, t] : all)
      if (own.count(edge.first) || own.count(edge.second)) some[edge] = t;
   return some;
}

std::string show_calls(const CallMap& calls)
{
   std::string s;
   for (const auto& [edge, t] : calls)
      s += "  " + edge.first + " -> " + edge.second + ": " + std::to_string(t.count) +
           " calls, " + std::to_string(t.inclusive) + " Ir\n";
   return s;
}

// "76,890 (37.12%)  0  15,930 (35.07%)  REST": `events` counts, each with
// an optional share in parentheses; returns the counts and leaves `line`
// at REST.
static std::vector<uint64_t> annotate_counts(std::string& line, size_t events)
{
   std::vector<uint64_t> counts;
   size_t i = 0;
   const auto skip_blanks = [&] { while (i < line.size() && line[i] == ' ') i++; };
   for (size_t e = 0; e < events; e++) {
      skip_blanks();
      uint64_t n = 0;
      bool digits = false;
      for (; i < line.size() && (std::isdigit(static_cast<unsigned char>(line[i])) || line[i] == ','); i++)
         if (line[i] != ',') { n = n * 10 + uint64_t(line[i] - '0'); digits = true; }
      if (!digits && i < line.size() && line[i] == '.') i++;   // an empty cell
      else if (!digits) throw std::runtime_error("no count in annotate line: " + line);
      counts.push_back(n);
      skip_blanks();
      if (i < line.size() && line[i] == '(') i = line.find(')', i) + 1;
   }
   skip_blanks();
   line.erase(0, i);
   return counts;
}

AnnotateTable read_annotate(const std::string& output, size_t events)
{
   AnnotateTable table;
   std::istringstream in(output);
   std::string line;
   bool in_rows = false, after_header = false;
   std::string group_file;
   while (std::getline(in, line)) {
      if (line.find("PROGRAM TOTALS") != std::string::npos) {
         table.totals = annotate_counts(line, events);
      } else if (ends_with(line, "file:function")) {
         after_header = true;
      } else if (after_header) {   // the rule under the header
         after_header = false;
         in_rows = true;
      } else if (in_rows && line.rfind("< ", 0) == 0) {
         // cg_annotate from Valgrind 3.21 on groups the functions by file:
         // "< COSTS FILE:" heads each group, its functions indented below,
         // a blank line between groups.
         line.erase(0, 2);
         annotate_counts(line, events);
         group_file = line.substr(0, line.size() - (ends_with(line, ":") ? 1 : 0));
      } else if (in_rows && !group_file.empty()) {
         if (line.empty()) continue;
         if (line.rfind("--", 0) == 0) break;
         AnnotateRow row;
         row.costs = annotate_counts(line, events);
         row.file = group_file;
         row.function = line;
         // Each group ends with an empty "<unspecified>" row: no function.
         const bool empty = std::all_of(row.costs.begin(), row.costs.end(), [](uint64_t c) { return c == 0; });
         if (!(empty && row.function == "<unspecified>")) table.rows.push_back(row);
      } else if (in_rows) {
         if (line.empty()) break;
         AnnotateRow row;
         row.costs = annotate_counts(line, events);
         if (line.size() > 2 && line.back() == ']') {
            const size_t open = line.rfind(" [");
            row.object = line.substr(open + 2, line.size() - open - 3);
            line.erase(open);
         }
         const size_t colon = line.find(':');
         row.file = line.substr(0, colon);
         row.function = line.substr(colon + 1);
         table.rows.push_back(row);
      }
   }
   return table;
}

CallgrindInstrs read_callgrind_instrs(const std::string& path)
{
   CallgrindInstrs instrs;
   std::istringstream in(read_file(path));
   std::string line, object, fn;
   bool call_cost = false;   // the cost line after calls= is the call's
   while (std::getline(in, line)) {
      if (line.rfind("ob=", 0) == 0) {
         object = line.substr(3);
      } else if (line.rfind("fn=", 0) == 0) {
         fn = line.substr(3);
      } else if (line.rfind("calls=", 0) == 0) {
         call_cost = true;
      } else if (line.rfind("0x", 0) == 0) {
         std::istringstream cost(line);
         std::string addr;
         uint64_t ir = 0;
         cost >> addr >> ir;
         const InstrKey key{object, fn, std::stoull(addr, nullptr, 16)};
         if (call_cost)
            instrs.call_sites.insert(key);
         else
            instrs.self[key] += ir;
         call_cost = false;
      }
   }
   return instrs;
}

CallSiteCounts read_callgrind_call_sites(const std::string& path)
{
   CallSiteCounts sites;
   std::istringstream in(read_file(path));
   std::string line, object, fn, cfn;
   uint64_t pending = 0;   // the calls= count whose position comes next
   bool have_call = false;
   while (std::getline(in, line)) {
      if (line.rfind("ob=", 0) == 0) {
         object = line.substr(3);
      } else if (line.rfind("fn=", 0) == 0) {
         fn = without_recursion_level(line.substr(3));
      } else if (line.rfind("cfn=", 0) == 0) {
         cfn = without_recursion_level(line.substr(4));
      } else if (line.rfind("calls=", 0) == 0) {
         pending = std::stoull(line.substr(6));
         have_call = true;
      } else if (have_call && line.rfind("0x", 0) == 0) {
         const uint64_t addr = std::stoull(line.substr(0, line.find(' ')), nullptr, 16);
         sites[{valgrind_name(fn), valgrind_name(cfn), addr, object}] += pending;
         have_call = false;
      }
   }
   return sites;
}

CallSiteCounts vgprof_call_sites(const vgprof::Profile& p)
{
   CallSiteCounts sites;
   for (const auto& e : p.calls())
      sites[{valgrind_name(p.fn_name(e.caller)), valgrind_name(p.fn_name(e.callee)), e.addr,
              p.obj_path(p.function(e.caller).obj)}] += e.count;
   return sites;
}

std::string valgrind_name(const std::string& name)
{
   return name.compare(0, 2, "0x") == 0 ? "???" : name;
}

LineCosts vgprof_lines(const vgprof::Profile& p, const std::string& event)
{
   auto ev = p.event_index(event);
   if (!ev) throw std::runtime_error("profile has no event " + event);
   LineCosts costs;
   for (size_t i = 0; i < p.lines().size(); i++) {
      const auto& l = p.lines()[i];
      uint64_t c = p.line_cost(i)[*ev];
      if (c) costs[LineKey{p.file_path(l.file), valgrind_name(p.fn_name(l.fn)), l.line}] += c;
   }
   return costs;
}

uint64_t function_cost(const LineCosts& costs, const std::string& fn)
{
   uint64_t sum = 0;
   for (const auto& [key, cost] : costs)
      if (std::get<1>(key) == fn) sum += cost;
   return sum;
}

void expect_same_lines(const LineCosts& mine, const LineCosts& theirs, const std::string& event)
{
   EXPECT_EQ(mine.size(), theirs.size()) << event;
   size_t shown = 0;
   auto where = [](const LineKey& k) {
      return std::get<0>(k) + ":" + std::get<1>(k) + ":" + std::to_string(std::get<2>(k));
   };
   for (const auto& [key, cost] : theirs) {
      auto it = mine.find(key);
      uint64_t got = it == mine.end() ? 0 : it->second;
      if (got != cost && shown++ < 10)
         ADD_FAILURE() << event << " " << where(key) << " cachegrind " << cost << " vgprof " << got;
   }
   for (const auto& [key, cost] : mine)
      if (!theirs.count(key) && shown++ < 10)
         ADD_FAILURE() << event << " only vgprof has " << where(key) << " = " << cost;
}

std::vector<std::string> resolve_program(const std::vector<std::string>& program)
{
   std::vector<std::string> argv = program;
   if (argv[0].find('/') == std::string::npos && argv[0] != "bzip2" && argv[0] != "sqlite3")
      argv[0] = progs_dir() + "/" + argv[0];
   return argv;
}

bool starts_with_label(const std::string& line, const std::string& label)
{
   size_t at = 0;
   for (size_t i = 0; i < label.size(); ++i) {
      if (at >= line.size() || line[at] != label[i]) return false;
      ++at;
      if (label[i] == ' ') {
         while (i + 1 < label.size() && label[i + 1] == ' ') ++i;
         while (at < line.size() && line[at] == ' ') ++at;
      }
   }
   return true;
}

std::vector<std::string> summary_lines(const std::string& err, const std::string& label)
{
   std::vector<std::string> found;
   std::istringstream in(err);
   for (std::string line; std::getline(in, line);) {
      auto pos = line.find("== ");
      std::string body = (line.rfind("==", 0) == 0 && pos != std::string::npos)
                             ? line.substr(pos + 3) : line;
      if (starts_with_label(body, label)) found.push_back(body);
   }
   return found;
}

std::string on_path(const std::string& name)
{
   std::istringstream dirs(std::getenv("PATH") ? std::getenv("PATH") : "");
   for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && access((dir + "/" + name).c_str(), X_OK) == 0) return dir + "/" + name;
   return "";
}


std::string rust_program(const std::string& toolchain, const std::string& name)
{
   return progs_dir() + "/" + toolchain + name;
}

std::string rust_toolchain_label(const std::string& toolchain)
{
   return toolchain.empty() ? "Installed" : "DebianRustc";
}

std::string rust_missing(const std::string& toolchain)
{
   return toolchain.empty()
              ? "skipped: rustc not installed (the Rust test program was not built)"
              : "skipped: Debian's rustc not installed, or it is the rustc configure found "
                "(the program was not built with it)";
}

}  // namespace vgtest
