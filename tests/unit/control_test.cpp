// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of what `vgprof control` reads and checks without a
// process to talk to (cli/control.hpp, cli/vgdb.hpp): vgdb's listing and
// messages, a valgrind process's arguments, the commands it accepts and
// the tool's answer to a dump. Talking to real processes is in
// tests/control/.
#include "error_of.hpp"

#include "cli/control.hpp"
#include "cli/vgdb.hpp"

#include <gtest/gtest.h>

namespace vgprof::cli {
namespace {

using Words = std::vector<std::string>;

TEST(ControlListing, TakesTheProcessIdsVgdbLists)
{
    const std::string listing =
        "use --pid=4242 for /usr/bin/valgrind.bin --tool=vgprof ./server 8080 \n"
        "use --pid=17 for /usr/bin/valgrind.bin --tool=memcheck ls \n"
        "some other line\n"
        "use --pid=x1 for nothing\n";
    EXPECT_EQ(pids_listed_by_vgdb(listing), (std::vector<long>{4242, 17}));
    EXPECT_EQ(pids_listed_by_vgdb(""), std::vector<long>{});
}

TEST(ControlListing, TheProgramFollowsValgrindsOptions)
{
    EXPECT_EQ(vgprof_client_command({"/usr/bin/valgrind.bin", "--tool=vgprof", "-q",
                                     "--vgprof-out-file=p.json", "./server", "-p", "8080"}),
              (Words{"./server", "-p", "8080"}));
    EXPECT_EQ(vgprof_client_command({"/usr/bin/valgrind.bin", "--tool=memcheck", "ls"}),
              std::nullopt);
    // --tool= after the program is the program's own argument.
    EXPECT_EQ(vgprof_client_command({"valgrind.bin", "ls", "--tool=vgprof"}), std::nullopt);
}

TEST(ControlCommands, TakesTheToolsCommandsWithTheirArguments)
{
    for (const Words& ok : {Words{"dump"}, Words{"dump", "after", "warm-up"}, Words{"zero"},
                            Words{"status"}, Words{"help"}, Words{"instrumentation"},
                            Words{"instrumentation", "off"}, Words{"collect", "on"},
                            Words{"mark", "load", "begins"}, Words{"v.info", "open_fds"}})
        EXPECT_EQ(test::error_of([&] { check_monitor_command(ok); }), "no error") << ok[0];
    EXPECT_EQ(test::error_of([] { check_monitor_command({"restart"}); }),
              "control: unknown command 'restart' (dump, zero, instrumentation, collect, status, "
              "mark, help)");
    EXPECT_EQ(test::error_of([] { check_monitor_command({"mark"}); }),
              "control: mark takes a label");
    EXPECT_EQ(test::error_of([] { check_monitor_command({"zero", "now"}); }),
              "control: zero takes no argument");
    EXPECT_EQ(test::error_of([] { check_monitor_command({"collect", "yes"}); }),
              "control: collect takes on, off or nothing");
    EXPECT_EQ(test::error_of([] { check_monitor_command({"instrumentation", "on", "off"}); }),
              "control: instrumentation takes on, off or nothing");
}

TEST(ControlAnswers, ADumpNamesTheFileItWrote)
{
    EXPECT_EQ(dumped_path("vgprof: dump 3 written to /srv/vgprof.out.42.3.json\n"),
              "/srv/vgprof.out.42.3.json");
    EXPECT_EQ(dumped_path("vgprof: dump 1 written to /a dir/p.1.json\nmore\n"), "/a dir/p.1.json");
    EXPECT_EQ(dumped_path("vgprof: error: dump 2 was not written (see the messages above)\n"),
              std::nullopt);
    EXPECT_EQ(dumped_path(""), std::nullopt);
}

TEST(ControlAnswers, VgdbsPtraceFailureIsRecognisedWithItsReason)
{
    EXPECT_EQ(ptrace_refusal("sending command dump to pid 4242\n"
                             "syscall failed: Operation not permitted\n"
                             "attach main pid PTRACE_ATTACH pid 4242 -1\n"
                             "error attach main pid 4242\n"),
              "Operation not permitted");
    EXPECT_EQ(ptrace_refusal("attach main pid PTRACE_ATTACH pid 4242 -1\n"), "refused");
    EXPECT_EQ(ptrace_refusal("sending command dump to pid 4242\n"), std::nullopt);
}

TEST(ControlAnswers, AdviceNamesEveryWayOut)
{
    const std::string advice = ptrace_advice(4242, "Operation not permitted", 60);
    for (const char* words : {"process 4242", "(Operation not permitted)", "up to 60 s",
                              "ptrace_scope", "CAP_SYS_PTRACE", "--vgdb-poll"})
        EXPECT_NE(advice.find(words), std::string::npos) << words;
}

} // namespace
} // namespace vgprof::cli
