// SPDX-License-Identifier: GPL-2.0-or-later
// harness.hpp: runs vgprof and the reference Valgrind tools on the same
// program in the same way, and reads what each of them wrote.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace vgprof { class Profile; class CallGraph; }

namespace vgtest {

// Where the build put things; set by the test environment (tests/Makefile.inc).
std::string vglib_dir();     // VALGRIND_LIB with vgprof and the reference tools
std::string progs_dir();     // the test programs
std::string cli_path();      // the vgprof command
std::string valgrind_path(); // the valgrind launcher
std::string callgrind_annotate_path();
std::string cg_merge_path();
std::string source_dir();    // the top of the source tree

// The toolchains the Rust test programs are built with: "" for the rustc
// configure found, "debian-rustc/" for Debian's own where it is another
// (tests/Makefile.inc). A program a toolchain did not build is missing.
inline const std::vector<std::string> kRustToolchains = {"", "debian-rustc/"};
std::string rust_program(const std::string& toolchain, const std::string& name);
// A test name's part for the toolchain: "Installed" or "DebianRustc".
std::string rust_toolchain_label(const std::string& toolchain);
// Why a test of the toolchain is skipped when its program is missing.
std::string rust_missing(const std::string& toolchain);

// Whether s ends with tail.
bool ends_with(const std::string& s, const std::string& tail);

// A fresh directory for one test, removed with all it holds when the
// object goes (unless VGPROF_TEST_KEEP is set).
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
   long max_rss_kb = 0;  // its peak resident memory (the kernel's ru_maxrss)
};

// Runs argv in dir with VALGRIND_LIB set to vglib_dir(); stdout and stderr
// go to files (as a user's redirected run would) and are read back.
RunResult run(const std::vector<std::string>& argv, const std::string& dir);

// Starts argv as run() does, stdin empty, stdout and stderr to the files
// named, every signal at its default action and none blocked (whatever the
// test binary inherited), and returns its process id without waiting for
// it.
int start_process(const std::vector<std::string>& argv, const std::string& dir,
                  const std::string& out_path, const std::string& err_path);

// The program `name` on PATH, or "" when there is none.
std::string on_path(const std::string& name);

// valgrind --tool=TOOL OPTIONS PROGRAM ARGS, run in dir.  vgprof runs at
// its defaults unless OPTIONS say otherwise: with the heap profiled it
// leaves the program's allocator in place, so its CPU figures are
// compared with cachegrind's and callgrind's as they stand.
RunResult run_tool(const std::string& tool, const std::vector<std::string>& options,
                   const std::vector<std::string>& program, const std::string& dir);

// Cachegrind options that make it translate code as vgprof does with its
// call graph on (the default): no chasing of branches into a superblock
// and no loop unrolling, as callgrind.  Chasing conditional branches makes
// VEX run both arms of small if-then-else shapes and count instructions
// that did not execute, so the two tools only count the same with the same
// translation.  `vgprof --call-graph=no` translates as cachegrind does by
// default.
// Cachegrind simulates the caches by default in Valgrind 3.19 and not in
// 3.24 (from 3.21 on): a test that compares cache events with it passes
// --cache-sim=yes whatever the version.
inline const std::vector<std::string> kCachegrindAsVgprof = {
    "--cache-sim=no", "--vex-guest-chase=no", "--vex-iropt-unroll-thresh=0"};

// options plus one more.
inline std::vector<std::string> with(std::vector<std::string> options, const std::string& more)
{
   options.push_back(more);
   return options;
}

// Cost per (file, function, line), the key cachegrind's output uses.
using LineKey = std::tuple<std::string, std::string, unsigned>;
using LineCosts = std::map<LineKey, uint64_t>;

struct CachegrindOut {
   std::vector<std::string> events;
   std::map<std::string, LineCosts> by_event;   // event -> line costs
   std::map<std::string, uint64_t> summary;     // event -> total
};
CachegrindOut read_cachegrind(const std::string& path);

// Calls between functions, by name, with recursion levels (callgrind's
// fn'2, fn'3 ...) folded into the function: (caller, callee) -> count and
// inclusive cost of the first event.
struct CallTotals {
   uint64_t count = 0;
   uint64_t inclusive = 0;
   bool operator==(const CallTotals& o) const { return count == o.count && inclusive == o.inclusive; }
};
using CallMap = std::map<std::pair<std::string, std::string>, CallTotals>;
// "fib'2", callgrind's name for fib's second recursion level: "fib".
std::string without_recursion_level(std::string name);
CallMap read_callgrind_calls(const std::string& path);

// vgprof's calls in the same form: of a whole-program or one-thread
// graph, or of the profile's whole graph.
CallMap graph_calls(const vgprof::Profile& profile, const vgprof::CallGraph& graph);
CallMap vgprof_calls(const vgprof::Profile& profile);

// The calls into or out of any of the functions named in `own`.
CallMap touching(const CallMap& all, const std::set<std::string>& own);

// One line per call: "caller -> callee: N calls, C Ir", for failure messages.
std::string show_calls(const CallMap& calls);

// cg_annotate's and callgrind_annotate's function summary (Valgrind 3.19,
// run with --auto=no): the PROGRAM TOTALS line and one row per function,
// each with a count per shown event.  callgrind_annotate names a row's
// object after it ("file:fn [obj]") except for the lines a function
// inlined from another file, which it lists as a row of that file with no
// object.
struct AnnotateRow {
   std::vector<uint64_t> costs;
   std::string file, function, object;
};
struct AnnotateTable {
   std::vector<uint64_t> totals;
   std::vector<AnnotateRow> rows;
};
AnnotateTable read_annotate(const std::string& output, size_t events);

// Callgrind's self cost of its first event per instruction, from a file
// written with --dump-instr=yes --dump-line=no --compress-pos=no
// --compress-strings=no: (object, function, address) -> cost, summed over
// the contexts callgrind splits a function into; and the addresses of call
// instructions, whose own cost callgrind keeps apart from the call's (and
// to which it adds the instructions of a PLT stub the call went through).
using InstrKey = std::tuple<std::string, std::string, uint64_t>;
struct CallgrindInstrs {
   std::map<InstrKey, uint64_t> self;
   std::set<InstrKey> call_sites;
};
CallgrindInstrs read_callgrind_instrs(const std::string& path);

// Callgrind's calls by the instruction that made them, from a file written
// as for read_callgrind_instrs: (caller, callee, address, the caller's
// object) -> count, the recursion levels folded, code without a symbol
// named "???" (see valgrind_name); and vgprof's the same way (its
// addresses are the run's, callgrind's the object file's).
using CallSiteKey = std::tuple<std::string, std::string, uint64_t, std::string>;
using CallSiteCounts = std::map<CallSiteKey, uint64_t>;
CallSiteCounts read_callgrind_call_sites(const std::string& path);
CallSiteCounts vgprof_call_sites(const vgprof::Profile& profile);

// vgprof's self cost per (file, function, line) for one event.
// A function's name as Valgrind's other tools print it: code without a
// symbol, which vgprof names by where its function starts
// ("0x0000000000003080"), is "???" to cachegrind and DHAT.
std::string valgrind_name(const std::string& name);

LineCosts vgprof_lines(const vgprof::Profile& profile, const std::string& event);

// The cost of one function, by name, over all its lines.
uint64_t function_cost(const LineCosts& costs, const std::string& fn);

// Fails the current test, naming up to ten lines, where the two differ.
void expect_same_lines(const LineCosts& mine, const LineCosts& theirs, const std::string& event);

// A test program's command line: a name without a slash is one of the
// test programs, except the Debian programs the tests run by name.
std::vector<std::string> resolve_program(const std::vector<std::string>& program);

// Deterministic text that compresses like prose: words from a small
// vocabulary chosen by a linear congruential generator.
std::string generated_text(size_t bytes);

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);

// Whether `line` starts with `label`, a run of spaces in either counting
// as one: cachegrind wrote "I   refs:" up to Valgrind 3.20 and "I refs:"
// after (vgprof writes as its Valgrind's cachegrind).
bool starts_with_label(const std::string& line, const std::string& label);

// The "I refs:" style lines of a Valgrind tool's stderr, without the
// ==pid== prefix.
std::vector<std::string> summary_lines(const std::string& err, const std::string& label);

}  // namespace vgtest
