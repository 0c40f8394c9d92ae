// SPDX-License-Identifier: GPL-2.0-or-later
// jit_test.cpp: code a program makes at run time is named from the perf map
// its runtime writes (jit_perfmap writes two functions of two instructions
// and one of eleven, a loop, and calls each 1000 times: 2,000, 2,000 and
// 11,000 Ir and 1,000 calls from main each), and a map reached through a
// symbolic link is not read. Without a map, each function is named by its
// address, as callgrind names it. Where Debian's nodejs is installed,
// node's own map names a script's hot function.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"
#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

using namespace vgtest;

namespace {

constexpr uint64_t kCalls = 1000;
// Instructions per call, by the code jit_perfmap writes.
const std::map<std::string, uint64_t> kPerCall = {
    {"jit add_one", 2}, {"jit twice", 2}, {"jit sum_to", 11}};

struct JitFn {
   uint64_t self = 0, calls_from_main = 0;
   std::string object;
};

std::map<std::string, JitFn> jit_functions(const vgprof::Profile& p)
{
   std::map<std::string, JitFn> out;
   for (const auto& c : vgprof::function_self_costs(p)) {
      const std::string name = p.fn_name(c.fn);
      if (name.rfind("jit ", 0) != 0) continue;
      out[name].self += c.self[0];
      out[name].object = p.obj_path(p.function(c.fn).obj);
   }
   for (const auto& call : p.calls())
      if (p.fn_name(call.caller) == "main" && out.count(p.fn_name(call.callee)))
         out[p.fn_name(call.callee)].calls_from_main += call.count;
   return out;
}

TEST(JitCode, NamedFromThePerfMapWithItsCostAndCalls)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {progs_dir() + "/jit_perfmap"},
                      dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   const auto fns = jit_functions(vgprof::load_profile(dir / "vp.json"));
   ASSERT_EQ(fns.size(), kPerCall.size());
   for (const auto& [name, per_call] : kPerCall) {
      ASSERT_TRUE(fns.count(name)) << name;
      EXPECT_EQ(fns.at(name).self, per_call * kCalls) << name;
      EXPECT_EQ(fns.at(name).calls_from_main, kCalls) << name;
      EXPECT_EQ(fns.at(name).object, "[perf map]") << name;
   }
}

// What jit_perfmap says on standard error without a map: each function's
// start, as "jit NAME 0x" and 16 hex digits; address -> NAME.
std::map<std::string, std::string> announced_starts(const std::string& err)
{
   std::map<std::string, std::string> out;
   std::istringstream in(err);
   for (std::string line; std::getline(in, line);) {
      const auto space = line.rfind(' ');
      if (line.rfind("jit ", 0) == 0 && space != std::string::npos)
         out[line.substr(space + 1)] = line.substr(0, space);
   }
   return out;
}

TEST(JitCode, WithoutAMapEachFunctionIsNamedByItsStartAsCallgrindNamesIt)
{
   TempDir dir;
   const std::vector<std::string> prog = {progs_dir() + "/jit_perfmap", "none"};
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, prog, dir.path());
   auto cg = run_tool("callgrind", {"--callgrind-out-file=cg.out"}, prog, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   ASSERT_EQ(cg.exit_code, 0) << cg.err;
   const auto vp_starts = announced_starts(vp.err);
   const auto cg_starts = announced_starts(cg.err);
   ASSERT_EQ(vp_starts.size(), kPerCall.size()) << vp.err;
   ASSERT_EQ(cg_starts.size(), kPerCall.size()) << cg.err;

   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   const CallMap vp_calls = vgprof_calls(p);
   const CallMap cg_calls = read_callgrind_calls(dir / "cg.out");
   std::map<std::string, uint64_t> self;
   for (const auto& c : vgprof::function_self_costs(p))
      if (vp_starts.count(p.fn_name(c.fn))) {
         self[p.fn_name(c.fn)] += c.self[0];
         EXPECT_EQ(p.obj_path(p.function(c.fn).obj), "???");
      }
   for (const auto& [start, name] : vp_starts) {
      const CallTotals want{kCalls, kPerCall.at(name) * kCalls};
      EXPECT_EQ(self[start], kPerCall.at(name) * kCalls) << name << " at " << start;
      ASSERT_TRUE(vp_calls.count({"main", start})) << name << "\n" << show_calls(vp_calls);
      EXPECT_EQ(vp_calls.at({"main", start}), want) << name;
   }
   for (const auto& [start, name] : cg_starts) {
      const CallTotals want{kCalls, kPerCall.at(name) * kCalls};
      ASSERT_TRUE(cg_calls.count({"main", start})) << name << "\n" << show_calls(cg_calls);
      EXPECT_EQ(cg_calls.at({"main", start}), want) << name;
   }
}

TEST(JitCode, AMapReachedThroughALinkIsNotRead)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"},
                      {progs_dir() + "/jit_perfmap", "link"}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   EXPECT_TRUE(jit_functions(vgprof::load_profile(dir / "vp.json")).empty());
   EXPECT_NE(vp.err.find("is not read: it is a symbolic link"), std::string::npos)
      << vp.err;
}

// A script whose fib(12) runs 2000 times: node compiles fib, which then
// runs most of the script's instructions.
void write_hot_script(const std::string& path)
{
   std::ofstream js(path);
   js << "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
         "let r = 0; for (let j = 0; j < 2000; j++) r += fib(12);\n"
         "console.log(r);\n";
}

TEST(JitCode, NodesHotFunctionIsNamedByItsScript)
{
   if (on_path("node").empty()) GTEST_SKIP() << "node is not installed";
   TempDir dir;
   write_hot_script(dir / "hot.js");
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"},
                      {"node", "--perf-basic-prof", "hot.js"}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   EXPECT_EQ(vp.out, std::to_string(2000 * 144) + "\n");
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   // node names optimised code "JS:*NAME FILE:LINE:COLUMN": fib, on line 1, column 13.
   uint64_t fib = 0;
   for (const auto& c : vgprof::function_self_costs(p)) {
      const std::string name = p.fn_name(c.fn);
      if (name.find("fib ") != std::string::npos &&
          name.find("hot.js:1:13") != std::string::npos &&
          p.obj_path(p.function(c.fn).obj) == "[perf map]")
         fib += c.self[0];
   }
   EXPECT_GT(fib, 0u);
}

TEST(JitCode, NodesCodeWithoutAMapIsNamedByAddressNotLumpedAsUnknown)
{
   if (on_path("node").empty()) GTEST_SKIP() << "node is not installed";
   TempDir dir;
   write_hot_script(dir / "hot.js");
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {"node", "hot.js"}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   // fib's compiled code runs most of the script's 2000 * 465 calls outside
   // every object; it is a function of its own, named by its start, and
   // no share of the run worth a look is left to "???".
   uint64_t total = 0, unknown = 0, hottest_by_address = 0;
   for (const auto& c : vgprof::function_self_costs(p)) {
      total += c.self[0];
      if (p.obj_path(p.function(c.fn).obj) != "???") continue;
      const std::string name = p.fn_name(c.fn);
      if (name == "???")
         unknown += c.self[0];
      else if (name.rfind("0x", 0) == 0 && name.size() == 18)
         hottest_by_address = std::max(hottest_by_address, c.self[0]);
   }
   EXPECT_LT(unknown, total / 1000);
   EXPECT_GT(hottest_by_address, total / 100);
}

} // namespace
