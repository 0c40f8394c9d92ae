// SPDX-License-Identifier: GPL-2.0-or-later
// jit_test.cpp: code a program makes at run time is named from the perf map
// its runtime writes (jit_perfmap writes two functions of two instructions
// and calls each 1000 times: 2,000 Ir and 1,000 calls from main each), and
// a map reached through a symbolic link is not read. Where Debian's nodejs
// is installed, node's own map names a script's hot function.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "harness.hpp"
#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

using namespace vgtest;

namespace {

constexpr uint64_t kCalls = 1000;

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
   ASSERT_EQ(fns.size(), 2u);
   for (const char* name : {"jit add_one", "jit twice"}) {
      ASSERT_TRUE(fns.count(name)) << name;
      EXPECT_EQ(fns.at(name).self, 2 * kCalls) << name;
      EXPECT_EQ(fns.at(name).calls_from_main, kCalls) << name;
      EXPECT_EQ(fns.at(name).object, "[perf map]") << name;
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

TEST(JitCode, NodesHotFunctionIsNamedByItsScript)
{
   if (on_path("node").empty()) GTEST_SKIP() << "node is not installed";
   TempDir dir;
   {
      std::ofstream js(dir / "hot.js");
      js << "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
            "let r = 0; for (let j = 0; j < 2000; j++) r += fib(12);\n"
            "console.log(r);\n";
   }
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

} // namespace
