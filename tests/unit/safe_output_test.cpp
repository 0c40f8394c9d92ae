// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of writing files on a machine shared with others (what
// export, merge, the baselines and the viewer's screenshot do through
// write_file_atomically): a symbolic link at the destination is replaced,
// never written through, and the temporary file is made beside the name,
// never beside a link's target; and of write errors naming their cause.
#include "error_of.hpp"
#include "scratch_dir.hpp"

#include "vgprof/error.hpp"
#include "vgprof/file_io.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace vgprof {
namespace {

using test::error_of;
using test::ScratchDir;

void write_new(const std::string& path)
{
    write_file_atomically(path, [](std::ostream& out) { out << "new"; });
}

bool is_link(const std::string& path)
{
    struct stat st;
    return lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

std::vector<std::string> names_in(const std::string& dir)
{
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(SafeOutput, ALinkAtTheNameIsReplacedAndWhatItPointsToLeftAlone)
{
    ScratchDir dir;
    dir.write("victim/precious.txt", "precious");
    ASSERT_EQ(symlink((dir / "victim/precious.txt").c_str(), (dir / "out.json").c_str()), 0);
    write_new(dir / "out.json");
    EXPECT_FALSE(is_link(dir / "out.json"));
    EXPECT_EQ(read_file(dir / "out.json"), "new");
    EXPECT_EQ(read_file(dir / "victim/precious.txt"), "precious");
    // Nothing was made beside the link's target, nothing left beside the name.
    EXPECT_EQ(names_in(dir / "victim"), std::vector<std::string>{"precious.txt"});
    EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"out.json", "victim"}));
}

TEST(SafeOutput, ADanglingLinkIsReplacedAndNothingIsCreatedWhereItPoints)
{
    ScratchDir dir;
    std::filesystem::create_directory(dir / "victim");
    ASSERT_EQ(symlink((dir / "victim/new.txt").c_str(), (dir / "out.json").c_str()), 0);
    write_new(dir / "out.json");
    EXPECT_FALSE(is_link(dir / "out.json"));
    EXPECT_EQ(read_file(dir / "out.json"), "new");
    EXPECT_TRUE(names_in(dir / "victim").empty());
}

// A name taken under the temporary file's is passed over, never opened:
// a link planted there does not lead the write elsewhere.
TEST(SafeOutput, ALinkPlantedAtTheTemporaryNameIsNotWrittenThrough)
{
    ScratchDir dir;
    dir.write("victim/precious.txt", "precious");
    const std::string planted = dir / ("out.json.tmp." + std::to_string(getpid()));
    ASSERT_EQ(symlink((dir / "victim/precious.txt").c_str(), planted.c_str()), 0);
    write_new(dir / "out.json");
    EXPECT_EQ(read_file(dir / "out.json"), "new");
    EXPECT_EQ(read_file(dir / "victim/precious.txt"), "precious");
    EXPECT_TRUE(is_link(planted));
}

TEST(SafeOutput, ALinkToADeviceIsWrittenInPlaceAndStays)
{
    ScratchDir dir;
    ASSERT_EQ(symlink("/dev/null", (dir / "sink").c_str()), 0);
    write_new(dir / "sink");
    EXPECT_TRUE(is_link(dir / "sink"));
    EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"sink"});
}

// Two users and a sticky directory, as /tmp: the writer's name holds a
// link another user planted, to a file of the writer's. Needs root, to be
// the two users (any two unused ids do).
TEST(SafeOutput, ALinkAnotherUserPlantedInAStickyDirectoryIsRefusedWithItsCause)
{
    if (geteuid() != 0)
        GTEST_SKIP() << "needs root, to act as two users";
    ScratchDir dir;
    const uid_t planter = 64101, writer = 64102;
    ASSERT_EQ(chmod(dir.path().c_str(), 0755), 0);
    // The writer's own directory, where it could replace anything.
    const std::string shared = dir / "shared", home = dir / "home",
                      precious = dir / "home/precious.txt";
    ASSERT_EQ(mkdir(shared.c_str(), 01777), 0);
    ASSERT_EQ(chmod(shared.c_str(), 01777), 0);
    dir.write("home/precious.txt", "precious");
    ASSERT_EQ(chown(home.c_str(), writer, writer), 0);
    ASSERT_EQ(chown(precious.c_str(), writer, writer), 0);

    // Each user in a process of its own, which says how it went on a pipe.
    const auto as_user = [](uid_t uid, const auto& body) {
        int pipe_fds[2];
        if (pipe(pipe_fds) != 0)
            return std::string("no pipe");
        const pid_t pid = fork();
        if (pid == 0) {
            close(pipe_fds[0]);
            std::string said = "cannot become the user";
            if (setgroups(0, nullptr) == 0 && setgid(uid) == 0 && setuid(uid) == 0)
                said = body();
            [[maybe_unused]] const ssize_t n = write(pipe_fds[1], said.data(), said.size());
            _exit(0);
        }
        close(pipe_fds[1]);
        std::string said;
        char buffer[512];
        for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;)
            said.append(buffer, size_t(n));
        close(pipe_fds[0]);
        waitpid(pid, nullptr, 0);
        return said;
    };
    const std::string link = shared + "/prof.json";
    ASSERT_EQ(as_user(planter,
                      [&] {
                          return std::string(symlink(precious.c_str(), link.c_str()) == 0
                                                 ? "planted"
                                                 : "not planted");
                      }),
              "planted");
    EXPECT_EQ(as_user(writer, [&] { return error_of([&] { write_new(link); }); }),
              link + ": cannot replace: Operation not permitted (it is another user's symbolic "
                     "link, in a directory where only a file's owner may replace it)");
    EXPECT_EQ(read_file(precious), "precious");
    EXPECT_TRUE(is_link(link));
    EXPECT_EQ(names_in(shared), std::vector<std::string>{"prof.json"});
    EXPECT_EQ(names_in(home), std::vector<std::string>{"precious.txt"});
}

// --- write errors name their cause ----------------------------------------------------

TEST(WriteErrors, AFullDiskSaysSoForAFileWrittenInPlace)
{
    EXPECT_EQ(error_of([] { write_new("/dev/full"); }),
              "/dev/full: cannot write: No space left on device");
}

// errno set by a later call (here a failed open) must not stand in for the
// write's own cause.
TEST(WriteErrors, AFullDiskSaysSoForAStreamWhateverErrnoSaysLater)
{
    const int fd = open("/dev/full", O_WRONLY);
    ASSERT_GE(fd, 0);
    DescriptorBuffer buffer(fd);
    std::ostream out(&buffer);
    out << std::string(200000, 'x');
    EXPECT_LT(open("/nonexistent/file", O_RDONLY), 0);
    EXPECT_EQ(error_of([&] { check_written(out, "the report"); }),
              "cannot write the report: No space left on device");
    close(fd);
}

} // namespace
} // namespace vgprof
