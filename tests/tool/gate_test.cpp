// SPDX-License-Identifier: GPL-2.0-or-later
// gate_test.cpp: `vgprof diff` as a CI gate over a suite of benchmarks,
// end to end: three benchmarks recorded with `vgprof record` in a base and
// a changed build (a regression, a function moved to another file, more
// allocations), compared as two directories. The regression's size is
// cachegrind's, run the same way on the same two binaries; the moved
// function's change is cachegrind's too; the extra blocks are the
// program's own count. And profiles that do not compare are refused,
// while the clean environment of `vgprof record` makes runs from different
// environments and directories compare.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <filesystem>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness.hpp"
#include "vgprof/load.hpp"
#include "vgprof/profile.hpp"

using namespace vgtest;

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// What `vgprof record` leaves of the environment, for a reference tool
// run the same way.
const char* const kCleanPath = "PATH=/usr/local/bin:/usr/bin:/bin";

// The base and changed builds of one benchmark of the suite.
struct Benchmark {
   std::string name, base, now;
};

const Benchmark kSuite[] = {
    {"gate_alloc", "gate_alloc", "gate_alloc_more"},
    {"gate_hash", "gate_hash", "gate_hash_slower"},
    {"gate_sort", "gate_sort", "gate_sort_moved"},
};

// Both builds of a benchmark run as dir/bin/NAME, from dir/bin: the same
// command in the same directory, as examples/bench/record runs them.
void install(const TempDir& dir, const std::string& name, const std::string& program)
{
   fs::create_directories(dir / "bin");
   fs::copy_file(progs_dir() + "/" + program, dir / ("bin/" + name),
                 fs::copy_options::overwrite_existing);
}

RunResult record(const TempDir& dir, const std::string& name, const std::string& side)
{
   fs::create_directories(dir / side);
   return run({cli_path(), "record", "-q", "--cwd", dir / "bin", "-o",
               dir / (side + "/" + name + ".json"), "--", "./" + name},
              dir.path());
}

// Cachegrind's Ir total and its Ir per function of ./NAME in dir/bin, in
// the environment vgprof record gives a program.
CachegrindOut cachegrind(const TempDir& dir, const std::string& name, const std::string& out)
{
   auto r = run({"/usr/bin/env", "-i", kCleanPath, "VALGRIND_LIB=" + vglib_dir(), valgrind_path(),
                 "--tool=cachegrind", "-q", kCachegrindAsVgprof[0], kCachegrindAsVgprof[1],
                 kCachegrindAsVgprof[2], "--cachegrind-out-file=" + dir / out, "./" + name},
                dir / "bin");
   EXPECT_EQ(r.exit_code, 0) << r.err;
   return read_cachegrind(dir / out);
}

// Records the base and the changed build of every benchmark, and runs
// cachegrind on both builds of gate_hash and gate_sort.
class Gate : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      dir_ = new TempDir;
      const TempDir& dir = *dir_;
      for (const Benchmark& b : kSuite) {
         install(dir, b.name, b.base);
         auto base = record(dir, b.name, "base");
         ASSERT_EQ(base.exit_code, 0) << base.err;
         if (b.name != "gate_alloc")
            cachegrind_base_[b.name] = cachegrind(dir, b.name, b.name + ".base.cg");
         install(dir, b.name, b.now);
         auto now = record(dir, b.name, "new");
         ASSERT_EQ(now.exit_code, 0) << now.err;
         if (b.name != "gate_alloc")
            cachegrind_new_[b.name] = cachegrind(dir, b.name, b.name + ".new.cg");
      }
   }
   static void TearDownTestSuite() { delete dir_; }

public:
   static const TempDir& dir() { return *dir_; }

protected:

   static RunResult diff(const std::vector<std::string>& more)
   {
      std::vector<std::string> argv = {cli_path(), "diff", "base", "new", "--fail-above",
                                       "Ir=+1%,HeapBlocks=+10%"};
      argv.insert(argv.end(), more.begin(), more.end());
      return run(argv, dir_->path());
   }

   static TempDir* dir_;
   static std::map<std::string, CachegrindOut> cachegrind_base_, cachegrind_new_;
};
TempDir* Gate::dir_ = nullptr;
std::map<std::string, CachegrindOut> Gate::cachegrind_base_, Gate::cachegrind_new_;

const json::object& benchmark(const json::object& report, const std::string& name)
{
   for (const json::value& b : report.at("benchmarks").as_array())
      if (b.at("name").as_string() == name)
         return b.as_object();
   throw std::runtime_error("no benchmark " + name);
}

int64_t delta_of(const json::value& cost) { return cost.at("delta").to_number<int64_t>(); }

// The line of `file` holding `text`, from 1.
unsigned line_holding(const std::string& file, const std::string& text)
{
   std::istringstream in(read_file(file));
   std::string line;
   for (unsigned n = 1; std::getline(in, line); ++n)
      if (line.find(text) != std::string::npos)
         return n;
   return 0;
}

// The source tree the test programs were built from: where the profile of
// gate_alloc says make_record's source file is, without tests/progs/.
std::string sources_dir()
{
   const vgprof::Profile p = vgprof::load_profile(Gate::dir() / "new/gate_alloc.json");
   for (const vgprof::Function& f : p.functions())
      if (p.str(f.name) == "make_record")
         return fs::path(p.file_path(f.file)).parent_path().parent_path().parent_path().string();
   throw std::runtime_error("no make_record in gate_alloc's profile");
}

TEST_F(Gate, JsonGivesOneVerdictPerBenchmarkAndTheirFigures)
{
   auto r = diff({"--format", "json"});
   EXPECT_EQ(r.exit_code, 1) << r.err;
   const json::object report = json::parse(r.out).as_object();
   EXPECT_EQ(report.at("version").as_int64(), 2);
   EXPECT_EQ(report.at("status").as_string(), "fail");
   EXPECT_EQ(report.at("summary").at("text").as_string(), "1 without regressions; 2 regressed");
   EXPECT_EQ(report.at("thresholds").at("fail").at(1).at("metric").as_string(), "HeapBlocks");

   // The regression: as many more instructions as cachegrind counts.
   const json::object& hash = benchmark(report, "gate_hash");
   EXPECT_EQ(hash.at("status").as_string(), "fail");
   const int64_t cg_delta = int64_t(cachegrind_new_["gate_hash"].summary["Ir"]) -
                            int64_t(cachegrind_base_["gate_hash"].summary["Ir"]);
   EXPECT_GT(cg_delta, 0);
   EXPECT_EQ(delta_of(hash.at("totals").at("Ir")), cg_delta);
   EXPECT_EQ(hash.at("failed").at(0).at("threshold").as_string(), "Ir=+1%");
   EXPECT_EQ(hash.at("failed").at(0).at("risers").at(0).at("name").as_string(), "hash");

   // The move: compare_keys is the same function in another file, and its
   // cost changed as cachegrind says (not at all), so the gate passes.
   const json::object& sort = benchmark(report, "gate_sort");
   EXPECT_EQ(sort.at("status").as_string(), "ok") << r.out;
   const json::array& moved = sort.at("moved").as_array();
   ASSERT_EQ(moved.size(), 1u) << r.out;
   EXPECT_EQ(moved[0].at("name").as_string(), "compare_keys");
   EXPECT_EQ(moved[0].at("change").as_string(), "moved");
   EXPECT_EQ(fs::path(moved[0].at("from").at("file").as_string().c_str()).filename(), "gate_keys.c");
   EXPECT_EQ(fs::path(moved[0].at("file").as_string().c_str()).filename(), "gate_sort.c");
   const auto cg_fn = [](const CachegrindOut& cg) { return function_cost(cg.by_event.at("Ir"), "compare_keys"); };
   EXPECT_GT(cg_fn(cachegrind_base_["gate_sort"]), 0u);
   EXPECT_EQ(cg_fn(cachegrind_new_["gate_sort"]), cg_fn(cachegrind_base_["gate_sort"]));

   // The allocations: the program makes exactly ITEMS = 1000 blocks more,
   // from make_record's line marked "the extra block".
   const json::object& alloc = benchmark(report, "gate_alloc");
   EXPECT_EQ(alloc.at("status").as_string(), "fail");
   EXPECT_EQ(delta_of(alloc.at("totals").at("HeapBlocks")), 1000);
   EXPECT_EQ(delta_of(alloc.at("totals").at("HeapBytes")), 16000);
   const json::array& failed = alloc.at("failed").as_array();
   const auto blocks = std::find_if(failed.begin(), failed.end(), [](const json::value& f) {
      return f.at("metric").as_string() == "HeapBlocks";
   });
   ASSERT_NE(blocks, failed.end()) << r.out;
   const json::value& riser = blocks->at("risers").at(0);
   EXPECT_EQ(riser.at("name").as_string(), "make_record");
   EXPECT_EQ(riser.at("lines").at(0).at("line").to_number<unsigned>(),
             line_holding(sources_dir() + "/tests/progs/gate_alloc.c", "the extra block"));
   EXPECT_EQ(delta_of(riser.at("lines").at(0)), 1000);
}

TEST_F(Gate, GithubAnnotationsPointAtTheChangedLines)
{
   auto r = diff({"--format", "github", "--strip-prefix", sources_dir() + "/"});
   EXPECT_EQ(r.exit_code, 1) << r.err;
   const unsigned extra = line_holding(sources_dir() + "/tests/progs/gate_alloc.c", "the extra block");
   EXPECT_NE(r.out.find("::error file=tests/progs/gate_alloc.c,line=" + std::to_string(extra) +
                        ",title=vgprof%3A gate_alloc::HeapBlocks self of make_record +1,000"),
             std::string::npos)
       << r.out;
   EXPECT_NE(r.out.find("::error title=vgprof%3A gate_hash::Ir total +"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("::notice file=tests/progs/gate_sort.c,line="), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("compare_keys moved from tests/progs/gate_keys.c:"), std::string::npos) << r.out;
   EXPECT_EQ(r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1),
             "1 without regressions; 2 regressed\n");
}

TEST_F(Gate, TextAndMarkdownNameEveryBenchmarkAndEndWithTheVerdict)
{
   auto text = diff({});
   EXPECT_EQ(text.exit_code, 1) << text.err;
   EXPECT_NE(text.out.find("gate_sort   ok"), std::string::npos) << text.out;
   EXPECT_EQ(text.out.substr(text.out.rfind('\n', text.out.size() - 2) + 1),
             "1 without regressions; 2 regressed\n");
   auto md = diff({"--format", "markdown"});
   EXPECT_EQ(md.exit_code, 1) << md.err;
   EXPECT_NE(md.out.find("Thresholds: --fail-above `Ir=+1%,HeapBlocks=+10%`."), std::string::npos)
       << md.out;
   for (const char* row : {"| `gate_alloc` | :x: fail |", "| `gate_hash` | :x: fail |",
                           "| `gate_sort` | :white_check_mark: ok |"})
      EXPECT_NE(md.out.find(row), std::string::npos) << row << "\n" << md.out;
   EXPECT_NE(md.out.find("**1 without regressions; 2 regressed**"), std::string::npos) << md.out;
}

TEST_F(Gate, SavingABaselineComparesFirst)
{
   const std::string baselines = dir_->path() + "/baselines";
   auto first = run({cli_path(), "diff", "--baseline-dir", baselines, "--save-baseline", "main", "base"},
                    dir_->path());
   EXPECT_EQ(first.exit_code, 0) << first.err;
   EXPECT_NE(first.err.find("no baseline \"main\" yet"), std::string::npos) << first.err;
   auto second = run({cli_path(), "diff", "--baseline-dir", baselines, "--save-baseline", "main",
                      "--fail-above", "Ir=+1%", "new"},
                     dir_->path());
   EXPECT_EQ(second.exit_code, 1) << second.err;  // compared with base, then stored
   EXPECT_NE(second.out.find("1 without regressions; 2 regressed"), std::string::npos) << second.out;
   EXPECT_EQ(read_file(baselines + "/main/gate_hash.json"), read_file(dir_->path() + "/new/gate_hash.json"));
   auto third = run({cli_path(), "diff", "--baseline-dir", baselines, "--baseline", "main",
                     "--fail-above", "Ir=+1%", "new"},
                    dir_->path());
   EXPECT_EQ(third.exit_code, 0) << third.out << third.err;
}

// --- the sample workflow's thresholds ------------------------------------------

// The thresholds of docs/ci.md's sample workflow, as its `THRESHOLDS:`
// line sets them; `top` is the source tree.
std::string sample_thresholds(const std::string& top)
{
   std::istringstream in(read_file(top + "/docs/ci.md"));
   const std::string key = "THRESHOLDS: ";
   for (std::string line; std::getline(in, line);)
      if (const size_t at = line.find(key); at != std::string::npos)
         return line.substr(at + key.size());
   throw std::runtime_error("no THRESHOLDS in docs/ci.md");
}

// Records benchmark `name` in its base build into dir/base and in build
// `changed` into dir/new; returns the source file of function `fn` as the
// new profile names it (empty, the failure reported, when a run failed).
std::string record_both(const TempDir& dir, const std::string& name, const std::string& changed,
                        const std::string& fn)
{
   for (const auto& [program, side] : {std::pair{name, "base"}, std::pair{changed, "new"}}) {
      install(dir, name, program);
      auto r = record(dir, name, side);
      EXPECT_EQ(r.exit_code, 0) << r.err;
      if (r.exit_code != 0) return "";
   }
   const vgprof::Profile p = vgprof::load_profile(dir / ("new/" + name + ".json"));
   for (const vgprof::Function& f : p.functions())
      if (p.str(f.name) == fn) return p.file_path(f.file);
   return "";
}

// A server whose every request allocates a payload twice as large (as
// gate_requests.c builds it with -DDOUBLED) fails the sample workflow's
// gate, on the bytes allocated alone: as many blocks, about the same
// instructions, a peak a few percent higher. The rise is the program's
// own arithmetic: REQUESTS (200) payloads of PAYLOAD (4,096) bytes more.
TEST(SampleThresholds, CatchADoubledPerRequestAllocation)
{
   TempDir dir;
   const std::string source = record_both(dir, "gate_requests", "gate_requests_doubled", "handle_request");
   ASSERT_FALSE(source.empty());
   const std::string top = fs::path(source).parent_path().parent_path().parent_path().string();
   const std::string thresholds = sample_thresholds(top);

   auto r = run({cli_path(), "diff", "base", "new", "--fail-above", thresholds, "--format", "json"},
                dir.path());
   EXPECT_EQ(r.exit_code, 1) << thresholds << "\n" << r.out << r.err;
   const json::object report = json::parse(r.out).as_object();
   const json::object& requests = benchmark(report, "gate_requests");
   EXPECT_EQ(requests.at("status").as_string(), "fail") << thresholds;
   EXPECT_EQ(delta_of(requests.at("totals").at("HeapBytes")), 200 * 4096);
   EXPECT_EQ(delta_of(requests.at("totals").at("HeapBlocks")), 0);
   const json::array& failed = requests.at("failed").as_array();
   ASSERT_EQ(failed.size(), 1u) << r.out;
   EXPECT_EQ(failed[0].at("metric").as_string(), "HeapBytes");
}

// A change that calls memset and strlen twice as often from one loop: the
// C library's functions rise, the program's own instructions barely move.
// The gate names the rise in each library function at the program's line
// that made the extra calls (marked "the extra calls" in gate_calls.c), in
// its text and its GitHub annotations, with paths relative to the
// repository.
TEST(LibraryCalls, TheGateNamesTheProgramsLineThatCalledTheCLibraryMore)
{
   TempDir dir;
   const std::string source = record_both(dir, "gate_calls", "gate_calls_more", "fill_all");
   ASSERT_FALSE(source.empty());
   const std::string line = std::to_string(line_holding(source, "/* the extra calls */"));
   const std::string through = ", called through fill_all at " + source + ":" + line + "\n";

   auto text = run({cli_path(), "diff", "base", "new", "--fail-above", "Ir=+1%"}, dir.path());
   EXPECT_EQ(text.exit_code, 1) << text.err;
   for (const char* libc : {"memset", "strlen"}) {
      const std::regex rose(std::string("\n      rose in [^ ]*") + libc + "[^ ]* \\+[0-9,]+" +
                            std::regex_replace(through, std::regex("[.+*?()]"), "\\$&"));
      EXPECT_TRUE(std::regex_search(text.out, rose)) << libc << "\n" << text.out;
   }

   const std::string top = fs::path(source).parent_path().parent_path().parent_path().string();
   auto github = run({"/usr/bin/env", "GITHUB_WORKSPACE=" + top, cli_path(), "diff", "base", "new",
                      "--fail-above", "Ir=+1%", "--format", "github"},
                     dir.path());
   EXPECT_EQ(github.exit_code, 1) << github.err;
   for (const char* libc : {"memset", "strlen"}) {
      const std::regex annotation("::error file=tests/progs/gate_calls\\.c,line=" + line +
                                  ",title=[^:]*::Ir self of [^ ]*" + libc + "[^ ]* \\+");
      EXPECT_TRUE(std::regex_search(github.out, annotation)) << libc << "\n" << github.out;
   }
}

// --- comparable runs -------------------------------------------------------------

// The Ir total of a profile.
uint64_t ir_of(const std::string& path)
{
   const json::value report = json::parse(read_file(path));
   return report.at("meta").at("totals").at(0).to_number<uint64_t>();
}

TEST(Environment, CleanRunsCompareWhateverTheCallersEnvironmentAndDirectory)
{
   TempDir dir;
   install(dir, "gate_hash", "gate_hash");
   fs::create_directories(dir / "elsewhere");
   const std::vector<std::string> busy_env = {"/usr/bin/env", "A_LONG_VARIABLE=" + std::string(300, 'x'),
                                              "ANOTHER=1", "HOME=/nowhere"};
   const auto record_in = [&](std::vector<std::string> prefix, const std::string& where,
                              const std::string& out, bool keep) {
      std::vector<std::string> argv = std::move(prefix);
      for (const std::string& a : {cli_path(), std::string("record"), std::string("-q"), std::string("--cwd"),
                                   dir / "bin", std::string("-o"), dir / out})
         argv.push_back(a);
      if (keep)
         argv.push_back("--keep-env");
      argv.push_back("--");
      argv.push_back("./gate_hash");
      auto r = run(argv, where);
      EXPECT_EQ(r.exit_code, 0) << r.err;
   };
   record_in({}, dir.path(), "plain.json", false);
   record_in(busy_env, dir / "elsewhere", "busy.json", false);
   EXPECT_EQ(ir_of(dir / "plain.json"), ir_of(dir / "busy.json"));
   auto same = run({cli_path(), "diff", "--fail-above", "Ir=+0%", "plain.json", "busy.json"}, dir.path());
   EXPECT_EQ(same.exit_code, 0) << same.out << same.err;

   // The caller's own environments, kept, move the count, and the diff says
   // why it refuses them.
   record_in({}, dir.path(), "kept.json", true);
   record_in(busy_env, dir.path(), "kept-busy.json", true);
   EXPECT_NE(ir_of(dir / "kept.json"), ir_of(dir / "kept-busy.json"));
   auto refused = run({cli_path(), "diff", "kept.json", "kept-busy.json"}, dir.path());
   EXPECT_EQ(refused.exit_code, 2);
   EXPECT_TRUE(refused.out.empty()) << refused.out;
   EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
   EXPECT_NE(refused.err.find("do not compare: the environments differ: "), std::string::npos) << refused.err;
   EXPECT_NE(refused.err.find("A_LONG_VARIABLE only in new"), std::string::npos) << refused.err;
   auto forced = run({cli_path(), "diff", "--force", "kept.json", "kept-busy.json"}, dir.path());
   EXPECT_EQ(forced.exit_code, 0) << forced.err;
   EXPECT_NE(forced.out.find("warning: compared anyway (--force), but the environments differ"),
             std::string::npos) << forced.out;
}

}  // namespace
