// SPDX-License-Identifier: GPL-2.0-or-later
// Profiles that lie. Real files (a vgprof profile of a small program, plain,
// gzip and zstd, and what callgrind, cachegrind and DHAT write for the same
// program) are cut short, replaced by random bytes, edited into valid JSON
// that breaks the format, nested a million deep and given a 500 MB string.
// Every companion must refuse each one the same way: exit status 2, one line
// on stderr naming the file, nothing on stdout, no output file, in bounded
// time and memory. So must the viewer's loader, in process and in the real
// window.
//
// The short form (make check) runs every cut point through one companion
// in turn and every other input through all of them; with
// VGPROF_STRESS_LONG=1, every input goes through every companion, cut at
// every 1/256th, with more random seeds.
#include "bad_inputs.hpp"
#include "bounded_run.hpp"
#include "hostile_shapes.hpp"

#include "../../tool/harness.hpp"
#include "../../unit/compress_text.hpp"
#include "../../unit/data_fixture.hpp"
#include "../../viewer/text_finder.hpp"

#include "profile_loader.hpp"

#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>

namespace vgtest {
namespace {

bool long_form()
{
   const char* v = std::getenv("VGPROF_STRESS_LONG");
   return v != nullptr && std::string(v) == "1";
}

std::string env(const char* name)
{
   const char* v = std::getenv(name);
   if (v == nullptr)
      throw std::runtime_error(std::string(name) + " is not set (run through make check)");
   return v;
}

// What a refusal may cost beyond loading the real profile: the loader keeps
// no string over 16 MiB (docs/profile-format.md), and reads 1 MiB at a time.
constexpr long kMemoryMarginKb = 128 * 1024;

// Under AddressSanitizer (scripts/stress) freed memory is held back in a
// quarantine, so a process's resident size is not what it keeps: the
// margin is checked without the sanitizers only (the kill at 3 GiB stays).
bool memory_measured()
{
   return std::getenv("ASAN_OPTIONS") == nullptr;
}
// A refusal of these small files takes milliseconds; this is for a hang.
constexpr double kSecondsPerRun = 60;

// A way of running the vgprof command on a bad file. `good` is a real
// profile for the commands that take two; `out` the output file of those
// that write one, which must not exist afterwards.
struct Companion {
   const char* name;
   std::function<std::vector<std::string>(const std::string& bad, const std::string& good,
                                          const std::string& out)>
      args;
};

const std::vector<Companion>& companions()
{
   using S = const std::string&;
   static const std::vector<Companion> all = {
      {"report", [](S bad, S, S) { return std::vector<std::string>{"report", bad}; }},
      {"annotate", [](S bad, S, S) { return std::vector<std::string>{"annotate", bad}; }},
      {"diff BAD GOOD", [](S bad, S good, S) { return std::vector<std::string>{"diff", bad, good}; }},
      {"diff GOOD BAD", [](S bad, S good, S) { return std::vector<std::string>{"diff", good, bad}; }},
      {"merge", [](S bad, S good, S out) { return std::vector<std::string>{"merge", "-o", out, good, bad}; }},
      {"export callgrind", [](S bad, S, S out) {
          return std::vector<std::string>{"export", "--format", "callgrind", "-o", out, bad}; }},
      {"export collapsed", [](S bad, S, S out) {
          return std::vector<std::string>{"export", "--format", "collapsed", "-o", out, bad}; }},
      {"export dhat", [](S bad, S, S out) {
          return std::vector<std::string>{"export", "--format", "dhat", "-o", out, bad}; }},
   };
   return all;
}

std::vector<std::string> files_in(const std::string& dir)
{
   std::vector<std::string> names;
   if (DIR* d = opendir(dir.c_str())) {
      while (const dirent* e = readdir(d))
         if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
            names.push_back(e->d_name);
      closedir(d);
   }
   return names;
}

bool exists(const std::string& path)
{
   struct stat st;
   return lstat(path.c_str(), &st) == 0;
}

// Failures gathered over thousands of runs, of which the first few are
// reported in full: one broken check should not bury the log.
class Findings {
public:
   explicit Findings(std::string what) : what_(std::move(what)) {}
   ~Findings()
   {
      if (count_ > kShown)
         ADD_FAILURE() << "... and " << count_ - kShown << " more " << what_ << " failures";
   }
   void operator()(bool ok, const std::string& message)
   {
      if (!ok && ++count_ <= kShown)
         ADD_FAILURE() << message;
   }

private:
   static constexpr size_t kShown = 20;
   std::string what_;
   size_t count_ = 0;
};

// stderr is one short line, naming the file: what the file holds (a name
// of a mebibyte, control characters) is quoted short and escaped.
constexpr size_t kLongestMessage = 1024;
bool one_line_naming(const std::string& err, const std::string& prefix, const std::string& path)
{
   return err.rfind(prefix, 0) == 0 && !err.empty() && err.back() == '\n' &&
          std::count(err.begin(), err.end(), '\n') == 1 && err.size() <= kLongestMessage &&
          std::none_of(err.begin(), err.end() - 1,
                       [](char c) { return static_cast<unsigned char>(c) < 0x20; }) &&
          err.find(path + ":") != std::string::npos;
}

class BadProfiles : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      dir_ = new TempDir;
      const std::string heap_basic = progs_dir() + "/heap_basic";
      struct Real {
         const char* tool;
         std::string option, file;
      };
      const Real reals[] = {
         {"vgprof", "--vgprof-out-file=", "profile.json"},
         {"callgrind", "--callgrind-out-file=", "callgrind.out"},
         {"cachegrind", "--cachegrind-out-file=", "cachegrind.out"},
         {"dhat", "--dhat-out-file=", "dhat.json"},
      };
      for (const Real& real : reals) {
         std::vector<std::string> options{real.option + (*dir_ / real.file)};
         if (std::string(real.tool) == "vgprof")
            options.insert(options.begin(), "--heap=yes");
         const RunResult r = run_tool(real.tool, options, {heap_basic}, dir_->path());
         ASSERT_EQ(r.exit_code, 0) << real.tool << ": " << r.err;
      }
      const std::string text = read_file(*dir_ / "profile.json");
      write_file(*dir_ / "profile.json.gz", vgprof::test::gzip(text));
      write_file(*dir_ / "profile.json.zst", vgprof::test::zstd(text));
      ASSERT_EQ(mkdir((*dir_ / "out").c_str(), 0755), 0);
      ASSERT_EQ(mkdir((*dir_ / "bad").c_str(), 0755), 0);

      // What loading the real profile costs each program, and an X display
      // for the viewer when the test runs under xvfb-run.
      const auto base = run_bounded({cli({"report", good()})}, dir_->path());
      ASSERT_EQ(base[0].exit_code, 0) << base[0].err;
      cli_rss_kb_ = base[0].max_rss_kb;
   }
   static void TearDownTestSuite()
   {
      for (const BadInput& input : huge_)
         unlink(input.path.c_str());
      huge_.clear();
      rmdir((*dir_ / "out").c_str());
      std::system(("rm -rf '" + (*dir_ / "bad") + "'").c_str());
      delete dir_;
      dir_ = nullptr;
   }

   static std::string good() { return *dir_ / "profile.json"; }
   static std::string bad_dir() { return *dir_ / "bad"; }
   static std::vector<std::string> cli(std::vector<std::string> args)
   {
      args.insert(args.begin(), cli_path());
      return args;
   }

   // Runs the companions on each input (with `rotate`, input i through
   // companion i only, in turn) and checks every refusal.
   static void expect_refused_by_companions(const std::vector<BadInput>& inputs, bool rotate)
   {
      struct Run {
         const BadInput* input;
         const Companion* companion;
         std::string out;
      };
      std::vector<Run> runs;
      std::vector<std::vector<std::string>> commands;
      const auto& all = companions();
      for (size_t i = 0; i < inputs.size(); ++i)
         for (size_t c = 0; c < all.size(); ++c) {
            if (rotate && c != i % all.size())
               continue;
            Run run{&inputs[i], &all[c], *dir_ / ("out/" + std::to_string(outputs_++) + ".out")};
            commands.push_back(cli(all[c].args(inputs[i].path, good(), run.out)));
            runs.push_back(run);
         }
      BoundedLimits limits;
      limits.seconds = kSecondsPerRun;
      const std::vector<BoundedResult> results = run_bounded(commands, dir_->path(), limits);
      Findings expect("companion");
      for (size_t i = 0; i < runs.size(); ++i) {
         const BoundedResult& r = results[i];
         const std::string what = std::string("vgprof ") + runs[i].companion->name + " on " +
                                  runs[i].input->what + " (" + runs[i].input->path + "): ";
         expect(!r.timed_out, what + "still running after " + std::to_string(kSecondsPerRun) + " s");
         expect(!r.memory_killed &&
                    (!memory_measured() || r.max_rss_kb <= cli_rss_kb_ + kMemoryMarginKb),
                what + "held " + std::to_string(r.max_rss_kb) + " KiB, loading the real profile " +
                    std::to_string(cli_rss_kb_) + " KiB");
         expect(r.exit_code == 2, what + "exit status " + std::to_string(r.exit_code) +
                                      ", signal " + std::to_string(r.signal) + ", stderr: " + r.err);
         expect(one_line_naming(r.err, "vgprof: ", runs[i].input->path),
                what + "stderr is not one short line naming the file: " + r.err.substr(0, 300));
         expect(r.out.empty(), what + "wrote on stdout: " + r.out.substr(0, 200));
         expect(!exists(runs[i].out), what + "left an output file");
      }
      // No temporary file either.
      const std::vector<std::string> left = files_in(*dir_ / "out");
      expect(left.empty(), "files left in the output directory, first: " +
                               (left.empty() ? std::string() : left[0]));
      for (const std::string& name : left)
         unlink((*dir_ / ("out/" + name)).c_str());
   }

   // The viewer's load thread refuses each input with a one-line message
   // naming the file.
   static void expect_refused_by_viewer_loader(const std::vector<BadInput>& inputs)
   {
      Findings expect("viewer loader");
      for (const BadInput& input : inputs) {
         vgprof::viewer::ProfileLoader loader;
         loader.start({input.path});
         loader.wait();
         const std::string error = loader.error();
         const std::string what = "viewer loader on " + input.what + ": ";
         expect(loader.state() == vgprof::viewer::ProfileLoader::State::failed,
                what + "did not fail");
         expect(one_line_naming(error + "\n", input.path + ": ", input.path),
                what + "not one short line naming the file: " + error.substr(0, 300));
      }
   }

   static void expect_refused(const std::vector<BadInput>& inputs, bool rotate = false)
   {
      ASSERT_FALSE(inputs.empty());
      expect_refused_by_companions(inputs, rotate && !long_form());
      expect_refused_by_viewer_loader(inputs);
   }

   // The files with a 500 MB string, written once (a second each) for the
   // tests that use them.
   static const std::vector<BadInput>& huge()
   {
      if (huge_.empty())
         huge_ = huge_strings(read_file(good()), read_file(*dir_ / "callgrind.out"), bad_dir(),
                              500u << 20, long_form());
      return huge_;
   }

   static TempDir* dir_;
   static long cli_rss_kb_;
   static std::vector<BadInput> huge_;
   static size_t outputs_;  // output files named so far, each name used once
};

TempDir* BadProfiles::dir_ = nullptr;
long BadProfiles::cli_rss_kb_ = 0;
std::vector<BadInput> BadProfiles::huge_;
size_t BadProfiles::outputs_ = 0;

TEST_F(BadProfiles, TheRealFilesAreRead)
{
   // Otherwise every refusal below could be of the real file.
   std::vector<std::vector<std::string>> commands;
   for (const char* file : {"profile.json", "profile.json.gz", "profile.json.zst",
                            "callgrind.out", "cachegrind.out"})
      commands.push_back(cli({"report", *dir_ / file}));
   commands.push_back(cli({"report", "--heap", *dir_ / "dhat.json"}));
   for (const Companion& c : companions())
      commands.push_back(cli(c.args(good(), good(), *dir_ / "out/real.out")));
   const std::vector<BoundedResult> results = run_bounded(commands, dir_->path(), {});
   for (size_t i = 0; i < results.size(); ++i)
      EXPECT_EQ(results[i].exit_code, 0)
         << commands[i][1] << " " << commands[i].back() << ": " << results[i].err;
   unlink((*dir_ / "out/real.out").c_str());
}

TEST_F(BadProfiles, TruncatedFilesAreRefused)
{
   const size_t pieces = long_form() ? 256 : 64;
   std::vector<BadInput> inputs;
   for (const char* file : {"profile.json", "profile.json.gz", "profile.json.zst",
                            "callgrind.out", "cachegrind.out", "dhat.json"}) {
      const auto cut = truncations(read_file(*dir_ / file), file, bad_dir(), pieces);
      inputs.insert(inputs.end(), cut.begin(), cut.end());
   }
   expect_refused(inputs, true);
}

TEST_F(BadProfiles, RandomBytesAreRefused)
{
   expect_refused(random_inputs(bad_dir(), long_form() ? 64 : 4));
}

TEST_F(BadProfiles, ValidJsonThatBreaksTheFormatIsRefused)
{
   expect_refused(lying_profiles(read_file(good()), bad_dir()), true);
}

TEST_F(BadProfiles, ForeignFilesThatLieAreRefused)
{
   expect_refused(lying_foreign(read_file(*dir_ / "callgrind.out"), read_file(*dir_ / "dhat.json"),
                                bad_dir()));
}

TEST_F(BadProfiles, AMillionDeepNestingIsRefused)
{
   expect_refused(deep_nesting(read_file(good()), bad_dir(), 1000000));
}

TEST_F(BadProfiles, A500MegabyteStringIsRefusedInLittleMemory)
{
   expect_refused(huge());
}

// Shapes no real run takes, each at a size that once crashed a reader,
// hung it or made it take gigabytes: every command and export format reads
// each or refuses it with one line naming the file, every view of the
// viewer (drawn in its window) shows it, in bounded time and memory; the
// shapes past a limit of the format are refused by all.
TEST_F(BadProfiles, HostileShapesAreReadOrRefusedInBoundedTimeAndMemory)
{
   const std::vector<Shape> shapes = hostile_shapes(bad_dir(), vgprof::test::with_data().str());
   const std::string viewer = env("VGPROF_TEST_VIEWER");
   struct Run {
      const Shape* shape;
      std::string name;
   };
   std::vector<Run> runs;
   std::vector<std::vector<std::string>> commands;
   for (const Shape& shape : shapes) {
      const std::string& in = shape.input.path;
      const std::string out = *dir_ / ("out/" + std::to_string(outputs_++) + ".out");
      std::vector<std::vector<std::string>> args = {
         {"report", in}, {"report", "--inclusive", in}, {"report", "--heap", in},
         {"annotate", in}, {"diff", in, in}, {"merge", "-o", out, in, in}};
      for (const char* format :
           {"callgrind", "collapsed", "dhat", "speedscope", "pprof", "massif", "heaptrack"})
         args.push_back({"export", "--format", format, "-o", out, in});
      for (const auto& a : args) {
         runs.push_back({&shape, "vgprof " + a[0] + (a[0] == "export" ? " " + a[2] : "")});
         commands.push_back(cli(a));
      }
      std::vector<std::vector<std::string>> views;
      for (const char* view : {"functions", "calltree", "bottomup", "sandwich", "callgraph",
                               "flamegraph", "heatmap", "source"})
         views.push_back({"--view", view, "--select", shape.select});
      for (const char* panel : {"sites", "flamegraph", "summary"})
         views.push_back({"--view", "heap", "--panel", panel});
      for (auto& v : views) {
         runs.push_back({&shape, "vgprof-viewer " + v[1] + (v[1] == "heap" ? " " + v[3] : "")});
         v.insert(v.begin(), {viewer, in, "--screenshot", out + ".png"});
         commands.push_back(v);
      }
   }
   BoundedLimits limits;
   limits.seconds = kSecondsPerRun;
   limits.kill_above_kb = 2L << 20;
   const std::vector<BoundedResult> results = run_bounded(commands, dir_->path(), limits);
   Findings expect("hostile shape");
   for (size_t i = 0; i < runs.size(); ++i) {
      const BoundedResult& r = results[i];
      const Shape& shape = *runs[i].shape;
      const std::string what = runs[i].name + " on " + shape.input.what + ": ";
      expect(!r.timed_out, what + "still running after " + std::to_string(kSecondsPerRun) + " s");
      expect(!r.memory_killed, what + "held more than 2 GiB");
      // A command may refuse what its output cannot hold (no heap, stacks
      // past the export limit); the viewer shows what it reads.
      const std::string program = runs[i].name.substr(0, runs[i].name.find(' '));
      const bool refused = r.exit_code == 2;
      const bool may_refuse = shape.refused || program == "vgprof";
      expect((refused && may_refuse) || (r.exit_code == 0 && !shape.refused),
             what + "exit status " + std::to_string(r.exit_code) + ", signal " +
                 std::to_string(r.signal) + ", stderr: " + r.err.substr(0, 300));
      if (refused)
         expect(one_line_naming(r.err, program + ": ", shape.input.path),
                what + "stderr is not one short line naming the file: " + r.err.substr(0, 300));
   }
   for (const std::string& name : files_in(*dir_ / "out"))
      unlink((*dir_ / ("out/" + name)).c_str());
}

TEST_F(BadProfiles, TheViewerWindowShowsTheRefusal)
{
   // Run by bad_profiles.sh under xvfb-run, which gives it a display.
   const std::string viewer = env("VGPROF_TEST_VIEWER");
   const std::string font = env("VGPROF_TEST_FONT_DIR") + "/DejaVuSans.ttf";
   constexpr int kWidth = 1280, kHeight = 800;
   constexpr float kFontPixels = 15;  // the viewer's font size at scale 1
   constexpr double kFound = 0.80;    // as tests/viewer/screens_test.cpp
   const auto window = [&](const std::string& profile, const std::string& png) {
      return std::vector<std::string>{viewer, profile, "--screenshot", png, "--size",
                                      std::to_string(kWidth) + "x" + std::to_string(kHeight)};
   };
   // The function table: the call graph's layout is not what is measured.
   std::vector<std::string> good_window = window(good(), *dir_ / "out/good.png");
   good_window.insert(good_window.end(), {"--view", "functions"});
   const auto base = run_bounded({good_window}, dir_->path());
   ASSERT_EQ(base[0].exit_code, 0) << base[0].err;
   unlink((*dir_ / "out/good.png").c_str());

   const std::string text = read_file(good());
   std::vector<BadInput> inputs = truncations(text, "viewer.json", bad_dir(), 2);
   const auto zst = truncations(vgprof::test::zstd(text), "viewer.json.zst", bad_dir(), 2);
   const auto random = random_inputs(bad_dir(), 1);
   const auto nested = deep_nesting(text, bad_dir(), 1000000);
   const auto lies = lying_profiles(text, bad_dir());
   inputs.push_back(zst[0]);
   inputs.push_back(random[0]);
   inputs.push_back(nested[0]);
   inputs.push_back(*std::find_if(lies.begin(), lies.end(),
                                  [](const BadInput& b) { return b.what == "version " + kFutureVersion; }));
   inputs.push_back(huge()[0]);

   std::vector<std::vector<std::string>> commands;
   for (size_t i = 0; i < inputs.size(); ++i)
      commands.push_back(window(inputs[i].path, *dir_ / ("out/" + std::to_string(i) + ".png")));
   const std::vector<BoundedResult> results = run_bounded(commands, dir_->path());
   for (size_t i = 0; i < inputs.size(); ++i) {
      const BoundedResult& r = results[i];
      const std::string png = *dir_ / ("out/" + std::to_string(i) + ".png");
      SCOPED_TRACE(inputs[i].what);
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_TRUE(one_line_naming(r.err, "vgprof-viewer: ", inputs[i].path)) << r.err;
      if (memory_measured())
         EXPECT_LE(r.max_rss_kb, base[0].max_rss_kb + kMemoryMarginKb);
      if (exists(png)) {
         const Grey image = load_png_luminance(png);
         EXPECT_GE(best_text_match(image, Rect{0, 75, kWidth, kHeight - 30},
                                   "The profile could not be opened:", font, kFontPixels),
                   kFound);
         unlink(png.c_str());
      } else {
         ADD_FAILURE() << "no screenshot";
      }
   }
}

}  // namespace
}  // namespace vgtest
