// SPDX-License-Identifier: GPL-2.0-or-later
// harness.hpp: runs vgprof and the reference Valgrind tools on the same
// program in the same way, and reads what each of them wrote.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace vgtest {

// Where the build put things; set by the test environment (tests/Makefile.inc).
std::string vglib_dir();     // VALGRIND_LIB with vgprof and the reference tools
std::string progs_dir();     // the test programs
std::string cli_path();      // the vgprof command
std::string valgrind_path(); // the valgrind launcher

// A fresh directory for one test, removed when the object goes.
class TempDir {
public:
   TempDir();
   ~TempDir();
   TempDir(const TempDir&) = delete;
   TempDir& operator=(const TempDir&) = delete;
   const std::string& path() const { return path_; }
   std::string operator/(const std::string& name) const { return path_ + "/" + name; }
   std::vector<std::string> files_starting_with(const std::string& prefix) const;
private:
   std::string path_;
};

struct RunResult {
   int exit_code = -1;   // exit status, or -1 if killed by a signal
   int signal = 0;       // the signal that killed it, if any
   std::string out;      // what it wrote on stdout
   std::string err;      // what it wrote on stderr
};

// Runs argv in dir with VALGRIND_LIB set to vglib_dir(); stdout and stderr
// go to files (as a user's redirected run would) and are read back.
RunResult run(const std::vector<std::string>& argv, const std::string& dir);

// valgrind --tool=TOOL OPTIONS PROGRAM ARGS, run in dir.
RunResult run_tool(const std::string& tool, const std::vector<std::string>& options,
                   const std::vector<std::string>& program, const std::string& dir);

// Cost per (file, function, line), the key cachegrind's output uses.
using LineKey = std::tuple<std::string, std::string, unsigned>;
using LineCosts = std::map<LineKey, uint64_t>;

struct CachegrindOut {
   std::vector<std::string> events;
   std::map<std::string, LineCosts> by_event;   // event -> line costs
   std::map<std::string, uint64_t> summary;     // event -> total
};
CachegrindOut read_cachegrind(const std::string& path);

// vgprof's self cost per (file, function, line) for one event.
LineCosts vgprof_lines(const std::string& profile_path, const std::string& event);

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);

// The "I   refs:" style lines of a Valgrind tool's stderr, without the
// ==pid== prefix.
std::vector<std::string> summary_lines(const std::string& err, const std::string& label);

}  // namespace vgtest
