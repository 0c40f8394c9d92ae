// SPDX-License-Identifier: GPL-2.0-or-later
// destinations_test.cpp: where the profile cannot go.  A read-only
// directory and a full disk (small tmpfs mounts, which need root and
// CAP_SYS_ADMIN; skipped otherwise) give a clear message, keep the
// client's exit status and leave no file behind.  Odd --vgprof-out-file
// names either give exactly the named file or are refused as cachegrind
// refuses them.  A symbolic link at the name, one's own or one another
// user planted in a sticky directory (two users: root only), is replaced
// or refused, never written through.  (A directory that does not exist:
// tests/tool/output_test.cpp.)
#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "fault_progs.hpp"
#include "harness.hpp"
#include "vgprof/load.hpp"

using namespace vgtest;

namespace {

// The names in a directory, sorted.
std::vector<std::string> entries_of(const std::string& dir)
{
   std::vector<std::string> names;
   if (DIR* d = opendir(dir.c_str())) {
      while (dirent* e = readdir(d))
         if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
            names.push_back(e->d_name);
      closedir(d);
   }
   std::sort(names.begin(), names.end());
   return names;
}

// A tmpfs mounted on a fresh directory for the length of a test.
class TmpfsMount {
public:
   TmpfsMount(const std::string& dir, unsigned long flags, const std::string& options) : dir_(dir)
   {
      mkdir(dir.c_str(), 0755);
      if (mount("tmpfs", dir.c_str(), "tmpfs", flags, options.c_str()) == 0)
         mounted_ = true;
      else
         why_not_ = "cannot mount a tmpfs (" + std::string(std::strerror(errno)) +
                    "): this test needs root with CAP_SYS_ADMIN";
   }
   ~TmpfsMount()
   {
      if (mounted_) umount2(dir_.c_str(), MNT_DETACH);
      rmdir(dir_.c_str());
   }
   TmpfsMount(const TmpfsMount&) = delete;
   TmpfsMount& operator=(const TmpfsMount&) = delete;
   bool mounted() const { return mounted_; }
   const std::string& why_not() const { return why_not_; }
   // Every file in the mount.
   std::vector<std::string> files() const { return entries_of(dir_); }

private:
   std::string dir_;
   bool mounted_ = false;
   std::string why_not_;
};

bool contains(const std::string& text, const std::string& part)
{
   return text.find(part) != std::string::npos;
}

// A destination that cannot be written stops the run before the client
// starts, as callgrind stops when it cannot create its output file.
TEST(Destination, ReadOnlyDirectoryStopsTheRunAtStartWithAClearMessage)
{
   TempDir dir;
   TmpfsMount ro(dir / "ro", MS_RDONLY, "size=256k");
   if (!ro.mounted()) GTEST_SKIP() << ro.why_not();
   auto r = run_tool("vgprof", {"--vgprof-out-file=ro/p.json"}, fault_prog("die", {"exit"}),
                     dir.path());
   EXPECT_EQ(r.exit_code, 1);
   EXPECT_TRUE(contains(r.err, "Bad option: --vgprof-out-file=ro/p.json")) << r.err;
   EXPECT_TRUE(contains(r.err, "vgprof: cannot create the profile '" + dir / "ro/p.json" +
                                   "': Read-only file system"))
       << r.err;
   EXPECT_EQ(r.out, "") << "the client ran";
   EXPECT_EQ(ro.files(), std::vector<std::string>{});
}

TEST(Destination, MissingDirectoryStopsTheRunAtStart)
{
   TempDir dir;
   auto r = run_tool("vgprof", {"--vgprof-out-file=no/such/dir/p.json"}, fault_prog("die", {"exit"}),
                     dir.path());
   EXPECT_EQ(r.exit_code, 1);
   EXPECT_TRUE(contains(r.err, "/no/such/dir/p.json': No such file or directory")) << r.err;
   EXPECT_EQ(r.out, "") << "the client ran";
}

// The disk fills up while the profile is being written: the part written
// is removed.
TEST(Destination, FullDiskGivesAClearMessageKeepsTheExitStatusAndLeavesNoPartialFile)
{
   TempDir dir;
   TmpfsMount small(dir / "small", 0, "size=1m");
   if (!small.mounted()) GTEST_SKIP() << small.why_not();
   // Leave 8 KiB free: a profile of a program linked with libc is larger.
   struct statvfs fs;
   ASSERT_EQ(statvfs((dir / "small").c_str(), &fs), 0);
   const size_t free_bytes = fs.f_bavail * fs.f_frsize;
   ASSERT_GT(free_bytes, 8192u);
   write_file(dir / "small/filler", std::string(free_bytes - 8192, 'x'));

   auto r = run_tool("vgprof", {"--vgprof-out-file=small/p.json"}, fault_prog("die", {"exit"}),
                     dir.path());
   EXPECT_EQ(r.exit_code, 3);
   EXPECT_TRUE(contains(r.err, "vgprof: error: cannot write the profile")) << r.err;
   EXPECT_TRUE(contains(r.err, "No space left on device")) << r.err;
   EXPECT_TRUE(contains(r.err, "the incomplete file was removed; no profile was written")) << r.err;
   EXPECT_EQ(small.files(), std::vector<std::string>{"filler"});

   // The same run with room to spare writes a profile larger than the room left.
   unlink((dir / "small/filler").c_str());
   auto ok = run_tool("vgprof", {"--vgprof-out-file=small/p.json"}, fault_prog("die", {"exit"}),
                      dir.path());
   EXPECT_EQ(ok.exit_code, 3) << ok.err;
   struct stat st;
   ASSERT_EQ(stat((dir / "small/p.json").c_str(), &st), 0) << ok.err;
   EXPECT_GT(st.st_size, 8192);
}

// A link into the full disk: the link is replaced by the profile, which
// fits beside it, and the file it named keeps what it held.
TEST(Destination, LinkIntoAFullDiskIsReplacedAndTheFileThereLeftAsItWas)
{
   TempDir dir;
   TmpfsMount small(dir / "small", 0, "size=256k");
   if (!small.mounted()) GTEST_SKIP() << small.why_not();
   write_file(dir / "small/old.json", "the previous profile");
   struct statvfs fs;
   ASSERT_EQ(statvfs((dir / "small").c_str(), &fs), 0);
   write_file(dir / "small/filler", std::string(fs.f_bavail * fs.f_frsize - 8192, 'x'));
   ASSERT_EQ(symlink("small/old.json", (dir / "link.json").c_str()), 0);

   auto r = run_tool("vgprof", {"--vgprof-out-file=link.json"}, fault_prog("die", {"exit"}),
                     dir.path());
   EXPECT_EQ(r.exit_code, 3) << r.err;
   EXPECT_EQ(vgprof::load_profile(dir / "link.json").meta().exit_code, 3);
   EXPECT_TRUE(read_file(dir / "small/old.json") == "the previous profile")
       << "the link's target was written";
   EXPECT_EQ(small.files(), (std::vector<std::string>{"filler", "old.json"}));
}

bool is_link(const std::string& path)
{
   struct stat st;
   return lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

// Runs `die exit` (status 3) with the profile going to `name` in dir, and
// checks that a profile, not a link, is there afterwards.
void expect_profile_replaces_link(const TempDir& dir, const std::string& name)
{
   auto r = run_tool("vgprof", {"--vgprof-out-file=" + name}, fault_prog("die", {"exit"}),
                     dir.path());
   EXPECT_EQ(r.exit_code, 3) << r.err;
   EXPECT_FALSE(is_link(dir / name));
   EXPECT_EQ(vgprof::load_profile(dir / name).meta().exit_code, 3);
}

// A link is never written through: the profile replaces the link itself,
// and nothing is made beside the file it names.
TEST(Destination, LinkToAFileIsReplacedItselfAndTheFileLeftAlone)
{
   TempDir dir;
   mkdir((dir / "victim").c_str(), 0755);
   write_file(dir / "victim/precious.txt", "precious");
   ASSERT_EQ(symlink((dir / "victim/precious.txt").c_str(), (dir / "link.json").c_str()), 0);
   expect_profile_replaces_link(dir, "link.json");
   EXPECT_TRUE(read_file(dir / "victim/precious.txt") == "precious")
       << "the link's target was written";
   EXPECT_EQ(entries_of(dir / "victim"), std::vector<std::string>{"precious.txt"});
}

TEST(Destination, DanglingLinkIsReplacedAndNothingCreatedWhereItPoints)
{
   TempDir dir;
   mkdir((dir / "victim").c_str(), 0755);
   ASSERT_EQ(symlink((dir / "victim/new.txt").c_str(), (dir / "link.json").c_str()), 0);
   expect_profile_replaces_link(dir, "link.json");
   EXPECT_EQ(entries_of(dir / "victim"), std::vector<std::string>{});
}

// Links that lead to each other name no file: the one named is replaced.
TEST(Destination, LoopOfLinksIsReplacedByTheProfile)
{
   TempDir dir;
   ASSERT_EQ(symlink("b.json", (dir / "a.json").c_str()), 0);
   ASSERT_EQ(symlink("a.json", (dir / "b.json").c_str()), 0);
   expect_profile_replaces_link(dir, "a.json");
   EXPECT_TRUE(is_link(dir / "b.json"));
}

// Two users and a sticky directory, as /tmp: a link one user planted at
// the name another's run writes to, pointing at a file of the other's in
// a directory of its own. The run is refused the replacement, says why,
// and the file stays. Needs root, to be the two users (unused ids do).
TEST(Destination, LinkAnotherUserPlantedInAStickyDirectoryIsRefusedAndItsTargetKept)
{
   if (geteuid() != 0) GTEST_SKIP() << "needs root, to act as two users";
   TempDir dir;
   const std::string planter = "64101", runner = "64102";
   ASSERT_EQ(chmod(dir.path().c_str(), 0755), 0);
   const std::string shared = dir / "shared", home = dir / "home";
   ASSERT_EQ(mkdir(shared.c_str(), 01777), 0);
   ASSERT_EQ(chmod(shared.c_str(), 01777), 0);
   ASSERT_EQ(mkdir(home.c_str(), 0755), 0);
   write_file(home + "/precious.txt", "precious");
   ASSERT_EQ(chown(home.c_str(), 64102, 64102), 0);
   ASSERT_EQ(chown((home + "/precious.txt").c_str(), 64102, 64102), 0);
   const auto as = [](const std::string& uid, std::vector<std::string> argv) {
      argv.insert(argv.begin(), {"setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups"});
      return argv;
   };
   auto planted = run(as(planter, {"ln", "-s", home + "/precious.txt", "prof.json"}), shared);
   ASSERT_EQ(planted.exit_code, 0) << planted.err;

   std::vector<std::string> argv{valgrind_path(), "--tool=vgprof", "--vgprof-out-file=prof.json"};
   for (const std::string& a : fault_prog("die", {"exit"})) argv.push_back(a);
   auto r = run(as(runner, argv), shared);
   EXPECT_EQ(r.exit_code, 3) << r.err;
   EXPECT_TRUE(contains(r.err, "vgprof: error: cannot replace '" + shared +
                                   "/prof.json' with the profile: Operation not permitted (it is "
                                   "another user's, in a directory where only a file's owner may "
                                   "replace it)"))
       << r.err;
   EXPECT_TRUE(contains(r.err, "no profile was written")) << r.err;
   EXPECT_TRUE(read_file(home + "/precious.txt") == "precious")
       << "the link's target was written";
   EXPECT_TRUE(is_link(shared + "/prof.json"));
   EXPECT_EQ(entries_of(home), std::vector<std::string>{"precious.txt"});
   EXPECT_EQ(entries_of(shared), std::vector<std::string>{"prof.json"});
}

// A name the file system accepts is written exactly as given.
struct OddName {
   std::string label, name;
};

class OddNames : public ::testing::TestWithParam<OddName> {};

TEST_P(OddNames, AreWrittenExactlyAsNamed)
{
   const std::string& name = GetParam().name;
   TempDir dir;
   auto r = run_tool("vgprof", {"--vgprof-out-file=" + name}, fault_prog("die", {"exit"}),
                     dir.path());
   EXPECT_EQ(r.exit_code, 3) << r.err;
   EXPECT_EQ(dir.files_starting_with(""), std::vector<std::string>{name}) << r.err;
   EXPECT_EQ(vgprof::load_profile(dir / name).meta().exit_code, 3);
}

INSTANTIATE_TEST_SUITE_P(
    Names, OddNames,
    ::testing::Values(OddName{"space", "with space.json"},
                      OddName{"quotes", "quote\"and'apostrophe.json"},
                      OddName{"newline", "new\nline.json"},
                      OddName{"backslash", "back\\slash.json"},
                      OddName{"utf8", "\xc3\xbcnic\xc3\xb6" "de-\xe5\x90\x8d\xe5\x89\x8d.json"},
                      OddName{"name_of_255_bytes", std::string(250, 'n') + ".json"}),
    [](const ::testing::TestParamInfo<OddName>& info) { return info.param.label; });

TEST(OutFile, PercentPIsTheWritingProcesssIdAndPercentPercentAPercentSign)
{
   TempDir dir;
   auto r = run_tool("vgprof", {"--vgprof-out-file=vp.%p.100%%.json"}, fault_prog("die", {"exit"}),
                     dir.path());
   auto cg = run_tool("cachegrind", {"--cachegrind-out-file=cg.%p.100%%.out"},
                      fault_prog("die", {"exit"}), dir.path());
   EXPECT_EQ(r.exit_code, 3) << r.err;
   auto files = dir.files_starting_with("vp.");
   ASSERT_EQ(files.size(), 1u);
   const vgprof::Profile p = vgprof::load_profile(dir / files[0]);
   ASSERT_TRUE(p.meta().pid.has_value());
   EXPECT_EQ(files[0], "vp." + std::to_string(*p.meta().pid) + ".100%.json");
   // cachegrind expands the same pattern the same way.
   auto theirs = dir.files_starting_with("cg.");
   ASSERT_EQ(theirs.size(), 1u);
   EXPECT_TRUE(theirs[0].size() > 12 && theirs[0].compare(theirs[0].size() - 9, 9, ".100%.out") == 0)
       << theirs[0];
}

// A name one byte longer than a file name may be: refused by the system
// when the run starts, said plainly.
TEST(OutFile, NameLongerThanTheSystemAllowsStopsTheRunAtStart)
{
   TempDir dir;
   auto r = run_tool("vgprof", {"--vgprof-out-file=" + std::string(251, 'n') + ".json"},
                     fault_prog("die", {"exit"}), dir.path());
   EXPECT_EQ(r.exit_code, 1);
   EXPECT_TRUE(contains(r.err, "File name too long")) << r.err;
   EXPECT_EQ(r.out, "") << "the client ran";
   EXPECT_EQ(dir.files_starting_with(""), std::vector<std::string>{});
}

// What Valgrind's own expansion of an output name refuses, vgprof refuses
// with the same message, and before the client runs (cachegrind runs it
// first, then refuses: its status and the run are lost anyway).
struct BadPattern {
   std::string label, pattern, message;
};

class RefusedPattern : public ::testing::TestWithParam<BadPattern> {};

TEST_P(RefusedPattern, IsRefusedAsCachegrindRefusesItBeforeTheClientRuns)
{
   const BadPattern& b = GetParam();
   TempDir dir;
   unsetenv("VGPROF_FAULT_UNSET");
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp" + b.pattern}, fault_prog("die", {"exit"}),
                      dir.path());
   auto cg = run_tool("cachegrind", {"--cachegrind-out-file=cg" + b.pattern},
                      fault_prog("die", {"exit"}), dir.path());
   EXPECT_EQ(cg.exit_code, 1);
   EXPECT_TRUE(contains(cg.err, b.message)) << cg.err;
   EXPECT_EQ(vp.exit_code, 1);
   EXPECT_TRUE(contains(vp.err, "Bad option: --vgprof-out-file=vp" + b.pattern)) << vp.err;
   EXPECT_TRUE(contains(vp.err, b.message)) << vp.err;
   EXPECT_EQ(vp.out, "") << "the client ran";
   EXPECT_EQ(dir.files_starting_with(""), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(
    Patterns, RefusedPattern,
    ::testing::Values(
        BadPattern{"unset_variable", ".%q{VGPROF_FAULT_UNSET}.json",
                   "Environment variable 'VGPROF_FAULT_UNSET' is not set"},
        BadPattern{"trailing_percent", ".json%", "Expected 'p' or 'q' or '%' after '%'"},
        BadPattern{"unknown_escape", ".%x.json", "Expected 'p' or 'q' or '%' after '%'"}),
    [](const ::testing::TestParamInfo<BadPattern>& info) { return info.param.label; });

}  // namespace
