// SPDX-License-Identifier: GPL-2.0-or-later
// report_cli_test.cpp: `vgprof report` on real profiles and on bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <sstream>
#include <string>

#include "harness.hpp"

using namespace vgtest;

namespace {

std::string prog(const std::string& name) { return progs_dir() + "/" + name; }

// Records loops once for the whole suite: every test reads it.
class Report : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      dir_ = new TempDir;
      auto r = run_tool("vgprof", {"--vgprof-out-file=loops.json"}, {prog("loops")}, dir_->path());
      ASSERT_EQ(r.exit_code, 0) << r.err;
      auto cg = run_tool("cachegrind", with(kCachegrindAsVgprof, "--cachegrind-out-file=cg.out"),
                         {prog("loops")}, dir_->path());
      cachegrind_refs_ = summary_lines(cg.err, "I refs:");
   }
   static void TearDownTestSuite() { delete dir_; }

   // Exit status 2 and one line on stderr that starts with "vgprof: ",
   // names the file and says `what`.
   static void expect_clean_error(const std::string& file, const std::string& what)
   {
      auto r = run({cli_path(), "report", file}, dir_->path());
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_EQ(r.signal, 0);
      EXPECT_TRUE(r.out.empty()) << r.out;
      EXPECT_EQ(r.err.rfind("vgprof: ", 0), 0u) << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
      EXPECT_NE(r.err.find(what), std::string::npos) << "expected \"" << what << "\" in: " << r.err;
   }

   static TempDir* dir_;
   static std::vector<std::string> cachegrind_refs_;
};
TempDir* Report::dir_ = nullptr;
std::vector<std::string> Report::cachegrind_refs_;

TEST_F(Report, ShowsTheTotalAsCachegrindDoesAndTheHottestFunctionFirst)
{
   auto r = run({cli_path(), "report", "loops.json"}, dir_->path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   ASSERT_EQ(cachegrind_refs_.size(), 1u);
   // "I   refs:      1,234,567" -> "1,234,567"
   std::string total = cachegrind_refs_[0].substr(cachegrind_refs_[0].find_last_of(' ') + 1);
   // The totals line starts with the Ir total and ends with the label.
   std::istringstream lines(r.out);
   bool found = false;
   for (std::string line; std::getline(lines, line);)
      if (line.rfind(total + " (100.0%)", 0) == 0 && line.find("PROGRAM TOTALS") != std::string::npos)
         found = true;
   EXPECT_TRUE(found) << r.out;
   // grid runs 300 x 1000 inner iterations, sum_to 100 x 1000 of a loop no
   // longer than grid's inner one: grid is hotter.
   auto grid = r.out.find("grid"), sum_to = r.out.find("sum_to");
   ASSERT_NE(grid, std::string::npos) << r.out;
   ASSERT_NE(sum_to, std::string::npos) << r.out;
   EXPECT_LT(grid, sum_to);
}

// --strip-prefix takes one path each time, so the profile can follow it.
TEST_F(Report, StripPrefixBeforeTheProfileShortensThePaths)
{
   auto r = run({cli_path(), "report", "--strip-prefix", progs_dir(), "loops.json"}, dir_->path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   EXPECT_NE(r.out.find("  [loops]"), std::string::npos) << r.out;
   EXPECT_EQ(r.out.find("[" + progs_dir() + "/loops]"), std::string::npos) << r.out;
}

TEST_F(Report, JsonFormatIsValidJsonWithTheSameTotal)
{
   auto r = run({cli_path(), "report", "--format", "json", "loops.json"}, dir_->path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   std::string total = cachegrind_refs_[0].substr(cachegrind_refs_[0].find_last_of(' ') + 1);
   total.erase(std::remove(total.begin(), total.end(), ','), total.end());
   EXPECT_NE(r.out.find("\"Ir\":" + total), std::string::npos) << r.out.substr(0, 400);
}

TEST_F(Report, MissingFileIsAnError) { expect_clean_error("no-such-profile.json", "cannot open"); }

TEST_F(Report, TruncatedProfileIsAnError)
{
   std::string full = read_file(dir_->path() + "/loops.json");
   write_file(dir_->path() + "/truncated.json", full.substr(0, full.size() / 2));
   expect_clean_error("truncated.json", "truncated");
}

TEST_F(Report, NonJsonFileIsAnError)
{
   write_file(dir_->path() + "/binary.json", std::string("\x7f" "ELF\x02\x01\x01\0\0", 9));
   expect_clean_error("binary.json", "invalid JSON");
}

TEST_F(Report, JsonOfAnotherShapeIsAnError)
{
   write_file(dir_->path() + "/other.json", R"({"name":"package","version":"1.0"})");
   expect_clean_error("other.json", "not a vgprof profile");
}

TEST_F(Report, FutureVersionIsAnError)
{
   std::string full = read_file(dir_->path() + "/loops.json");
   ASSERT_EQ(full.rfind("{\"vgprof\":", 0), 0u);
   size_t version_end = full.find_first_not_of("0123456789", 10);
   write_file(dir_->path() + "/future.json", "{\"vgprof\":999" + full.substr(version_end));
   expect_clean_error("future.json", "newer than this vgprof understands");
}

// The same profile padded with JSON whitespace to sizes on and around the
// reader's 1 MiB buffers, compressed by the system's gzip and zstd, each
// under the same name in a directory of its own (the format is told by
// the content): the report is the plain file's, byte for byte.
TEST_F(Report, CompressedProfilesOfEverySizeReportAsThePlainOne)
{
   const std::string profile = read_file(dir_->path() + "/loops.json");
   const size_t MiB = size_t(1) << 20;
   for (size_t size : {profile.size(), MiB - 1, MiB, MiB + 1, 2 * MiB}) {
      TempDir sized;
      std::string padded = profile;
      padded.resize(std::max(size, profile.size()), ' ');
      for (const char* format : {"plain", "gzip", "zstd"}) {
         std::filesystem::create_directory(sized / format);
         write_file(sized / format + "/p.json", padded);
      }
      for (const char* format : {"gzip", "zstd"}) {
         auto packed = run({format, "-q", "-f", "p.json"}, sized / format);
         ASSERT_EQ(packed.exit_code, 0) << packed.err;
         std::filesystem::rename(sized / format + "/p.json" + (format[0] == 'g' ? ".gz" : ".zst"),
                                 sized / format + "/p.json");
      }
      auto plain = run({cli_path(), "report", "p.json"}, sized / "plain");
      ASSERT_EQ(plain.exit_code, 0) << plain.err;
      for (const char* format : {"gzip", "zstd"}) {
         auto r = run({cli_path(), "report", "p.json"}, sized / format);
         EXPECT_EQ(r.exit_code, 0) << format << ", " << size << " bytes: " << r.err;
         EXPECT_EQ(r.out, plain.out) << format << ", " << size << " bytes";
      }
   }
}

// Every command that writes, to a full disk (/dev/full): one line naming
// the cause, exit status 2.
TEST_F(Report, WritingToAFullDiskSaysTheDiskIsFull)
{
   const std::string cli = cli_path();
   const std::vector<std::vector<std::string>> commands = {
       {"annotate", "loops.json"},
       {"report", "loops.json"},
       {"diff", "loops.json", "loops.json"},
       {"export", "--format", "collapsed", "-o", "-", "loops.json"},
   };
   for (const auto& args : commands) {
      std::vector<std::string> argv{"/bin/sh", "-c", "exec \"$@\" > /dev/full", "sh", cli};
      argv.insert(argv.end(), args.begin(), args.end());
      auto r = run(argv, dir_->path());
      EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
      EXPECT_NE(r.err.find("No space left on device"), std::string::npos)
          << args[0] << ": " << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
   }
   for (const auto& args : std::vector<std::vector<std::string>>{
            {"export", "--format", "callgrind", "-o", "/dev/full", "loops.json"},
            {"merge", "-o", "/dev/full", "loops.json", "loops.json"}}) {
      std::vector<std::string> argv{cli};
      argv.insert(argv.end(), args.begin(), args.end());
      auto r = run(argv, dir_->path());
      EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
      EXPECT_NE(r.err.find("/dev/full: cannot write: No space left on device"), std::string::npos)
          << args[0] << ": " << r.err;
   }
}

// `-o LINK`: the link is replaced by the output, the file it named kept.
TEST_F(Report, ExportAndMergeReplaceALinkAtTheOutputNotTheFileItNames)
{
   TempDir out;
   std::filesystem::create_directory(out / "victim");
   for (const std::string name : {"out.cg", "merged.json"}) {
      write_file(out / "victim/precious.txt", "precious");
      std::filesystem::create_symlink(out / "victim/precious.txt", out / name);
      auto r =
          name == "out.cg"
              ? run({cli_path(), "export", "--format", "callgrind", "-o", out / name, "loops.json"},
                    dir_->path())
              : run({cli_path(), "merge", "-o", out / name, "loops.json", "loops.json"},
                    dir_->path());
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_FALSE(std::filesystem::is_symlink(out / name)) << name;
      EXPECT_TRUE(read_file(out / "victim/precious.txt") == "precious")
          << name << ": the link's target was written";
      EXPECT_EQ(out.files_starting_with(""), (std::vector<std::string>{name, "victim"}));
      std::filesystem::remove(out / name);
   }
}

TEST_F(Report, UsageErrorExitsWithTwo)
{
   auto r = run({cli_path(), "report", "--no-such-option", "loops.json"}, dir_->path());
   EXPECT_EQ(r.exit_code, 2);
   auto none = run({cli_path(), "report"}, dir_->path());
   EXPECT_EQ(none.exit_code, 2);
}

}  // namespace

namespace {

// Records a light and a heavy build of one benchmark once for the diff
// tests: two programs run as the same command, dir/bench, as a base and a
// changed build of a benchmark are.
class Diff : public ::testing::Test {
protected:
   static void SetUpTestSuite()
   {
      dir_ = new TempDir;
      const auto build = [](const char* program) {
         std::filesystem::copy_file(progs_dir() + "/" + program, *dir_ / "bench",
                                    std::filesystem::copy_options::overwrite_existing);
         return std::vector<std::string>{*dir_ / "bench"};
      };
      auto light = run_tool("vgprof", {"--vgprof-out-file=light.json"}, build("recursion"), dir_->path());
      auto heavy = run_tool("vgprof", {"--vgprof-out-file=heavy.json"}, build("loops"), dir_->path());
      ASSERT_EQ(light.exit_code, 0) << light.err;
      ASSERT_EQ(heavy.exit_code, 0) << heavy.err;
   }
   static void TearDownTestSuite() { delete dir_; }
   static TempDir* dir_;
};
TempDir* Diff::dir_ = nullptr;

// vgprof diff as a CI gate, end to end on recorded profiles: the exit
// status says whether a threshold was exceeded.
TEST_F(Diff, ExitStatusGatesOnThresholds)
{
   const TempDir& dir = *dir_;
   auto diff = [&](const std::string& base, const std::string& now, const std::string& spec) {
      return run({cli_path(), "diff", "--fail-above", spec, base, now}, dir.path());
   };
   EXPECT_EQ(diff("light.json", "light.json", "Ir=+0%").exit_code, 0);
   auto worse = diff("light.json", "heavy.json", "Ir=+1%");
   EXPECT_EQ(worse.exit_code, 1) << worse.out << worse.err;
   EXPECT_EQ(diff("heavy.json", "light.json", "Ir=+1%").exit_code, 0);
   EXPECT_EQ(diff("light.json", "no-such.json", "Ir=+1%").exit_code, 2);
   EXPECT_EQ(diff("light.json", "heavy.json", "Ir=+lots").exit_code, 2);
   auto md = run({cli_path(), "diff", "--format", "markdown", "light.json", "heavy.json"}, dir.path());
   EXPECT_EQ(md.exit_code, 0) << md.err;
   EXPECT_NE(md.out.find("|"), std::string::npos) << md.out;
}

// Named baselines end to end: store a profile, compare against it by name
// (the directory from the option or from VGPROF_BASELINE_DIR), and a
// missing baseline or a bad name is bad input.
TEST_F(Diff, ComparesAgainstANamedBaseline)
{
   const TempDir& dir = *dir_;
   // The test's directory, which removes only the files directly in it.
   const std::string baselines = dir.path();

   auto saved = run({cli_path(), "diff", "--baseline-dir", baselines, "--save-baseline", "main", "light.json"},
                    dir.path());
   ASSERT_EQ(saved.exit_code, 0) << saved.err;
   EXPECT_EQ(read_file(baselines + "/main.json"), read_file(dir / "light.json"));

   auto against = [&](const std::string& name, const std::string& now) {
      return run({cli_path(), "diff", "--baseline-dir", baselines, "--baseline", name, "--fail-above", "Ir=+1%", now},
                 dir.path());
   };
   auto worse = against("main", "heavy.json");
   EXPECT_EQ(worse.exit_code, 1) << worse.out << worse.err;
   EXPECT_NE(worse.out.find("Base:                 " + baselines + "/main.json"), std::string::npos) << worse.out;
   EXPECT_EQ(against("main", "light.json").exit_code, 0);

   auto missing = against("release-1.0", "heavy.json");
   EXPECT_EQ(missing.exit_code, 2);
   EXPECT_TRUE(missing.out.empty()) << missing.out;
   EXPECT_NE(missing.err.find("no baseline \"release-1.0\" in " + baselines), std::string::npos) << missing.err;

   auto bad_name = run({cli_path(), "diff", "--baseline-dir", baselines, "--save-baseline", "../main", "heavy.json"},
                       dir.path());
   EXPECT_EQ(bad_name.exit_code, 2);
   EXPECT_NE(bad_name.err.find("baseline name \"../main\""), std::string::npos) << bad_name.err;

   // The directory may come from the environment.
   setenv("VGPROF_BASELINE_DIR", baselines.c_str(), 1);
   auto from_env = run({cli_path(), "diff", "--baseline", "main", "--fail-above", "Ir=+1%", "heavy.json"}, dir.path());
   unsetenv("VGPROF_BASELINE_DIR");
   EXPECT_EQ(from_env.exit_code, 1) << from_env.err;
   auto no_dir = run({cli_path(), "diff", "--baseline", "main", "heavy.json"}, dir.path());
   EXPECT_EQ(no_dir.exit_code, 2);
   EXPECT_NE(no_dir.err.find("--baseline needs --baseline-dir DIR"), std::string::npos) << no_dir.err;
}

}  // namespace
