// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of `vgprof record` apart from running valgrind: how its
// arguments split into options and the program, where the tool puts the
// profile, how valgrind is found, and the summary it prints.
#include "error_of.hpp"
#include "report_fixture.hpp"

#include "cli/commands.hpp"
#include "vgprof/error.hpp"
#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace vgprof::cli {
namespace {

using Args = std::vector<std::string>;

std::string error_of(const Args& arguments)
{
    return test::error_of([&] { split_record_arguments(arguments); });
}

TEST(RecordArguments, OptionsUpToTheSeparatorGoToValgrindAndTheRestIsTheProgram)
{
    const RecordOptions o =
        split_record_arguments({"--cache-sim=no", "-q", "--", "./app", "-n", "--", "3"});
    EXPECT_EQ(o.tool_options, (Args{"--cache-sim=no", "-q"}));
    EXPECT_EQ(o.command, (Args{"./app", "-n", "--", "3"}));
    EXPECT_TRUE(o.output.empty());
}

TEST(RecordArguments, WithoutSeparatorTheProgramIsTheFirstArgumentThatIsNotAnOption)
{
    const RecordOptions o = split_record_arguments({"--dump-instr=yes", "./app", "-o", "x"});
    EXPECT_EQ(o.tool_options, (Args{"--dump-instr=yes"}));
    EXPECT_EQ(o.command, (Args{"./app", "-o", "x"}));
}

TEST(RecordArguments, OutFileOptionIsTakenAsTheOutput)
{
    const RecordOptions o = split_record_arguments({"--vgprof-out-file=p.json", "--", "./app"});
    EXPECT_EQ(o.output, "p.json");
    EXPECT_TRUE(o.tool_options.empty());
    EXPECT_EQ(valgrind_command(o, "/usr/bin/valgrind"),
              (Args{"/usr/bin/valgrind", "--tool=vgprof", "--vgprof-out-file=p.json", "./app"}));
}

TEST(RecordEnvironment, IsCleanUnlessKeptAndTakesTheVariablesGiven)
{
    const char* const caller[] = {"HOME=/home/me", "PATH=/opt/bin:/usr/bin", "VALGRIND_LIB=/vg",
                                  "LANG=de_DE.UTF-8", nullptr};
    RecordOptions o;
    EXPECT_EQ(record_environment(o, caller),
              (Args{"PATH=/usr/local/bin:/usr/bin:/bin", "VALGRIND_LIB=/vg"}));
    o.env = {"LANG", "DEPTH=3", "PATH=/bin", "UNSET_IN_CALLER"};
    EXPECT_EQ(record_environment(o, caller),
              (Args{"VALGRIND_LIB=/vg", "LANG=de_DE.UTF-8", "DEPTH=3", "PATH=/bin"}));
    o.keep_env = true;
    o.env = {"HOME=/tmp"};
    EXPECT_EQ(record_environment(o, caller),
              (Args{"PATH=/opt/bin:/usr/bin", "VALGRIND_LIB=/vg", "LANG=de_DE.UTF-8", "HOME=/tmp"}));
    o.env = {"=x"};
    EXPECT_EQ(test::error_of([&] { record_environment(o, caller); }),
              "--env =x: expected NAME=VALUE or NAME");
}

TEST(RecordArguments, NoProgramOrAnotherToolIsAnError)
{
    EXPECT_EQ(error_of({"--cache-sim=no"}),
              "record: no program to run (vgprof record [OPTIONS] -- PROGRAM [ARGS...])");
    EXPECT_EQ(error_of({"--cache-sim=no", "--"}),
              "record: no program to run (vgprof record [OPTIONS] -- PROGRAM [ARGS...])");
    EXPECT_EQ(error_of({"--tool=memcheck", "./app"}),
              "--tool=memcheck: vgprof record always runs the vgprof tool");
}

TEST(RecordProfilePath, PatternIsExpandedAsTheToolExpandsIt)
{
    RecordOptions o;
    EXPECT_EQ(profile_path(o, 4242), "vgprof.out.4242.json");
    setenv("VGPROF_TEST_RUN", "nightly", 1);
    o.output = "out/%q{VGPROF_TEST_RUN}-%p-100%%.json";
    EXPECT_EQ(profile_path(o, 7), "out/nightly-7-100%.json");
    unsetenv("VGPROF_TEST_RUN");
    o.output = "%x%";  // not an expansion: kept
    EXPECT_EQ(profile_path(o, 7), "%x%");
}

TEST(RecordFindValgrind, FirstExecutableOnThePathWins)
{
    char dir[] = "/tmp/vgprof-unit-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const std::string bin = std::string(dir) + "/bin", plain = std::string(dir) + "/plain";
    mkdir(bin.c_str(), 0755);
    mkdir(plain.c_str(), 0755);
    std::ofstream(bin + "/valgrind") << "#!/bin/sh\n";
    chmod((bin + "/valgrind").c_str(), 0755);
    std::ofstream(plain + "/valgrind") << "not executable\n";
    EXPECT_EQ(find_valgrind((plain + ":" + bin).c_str()), bin + "/valgrind");
    EXPECT_EQ(test::error_of([&] { find_valgrind(plain.c_str()); }),
              "valgrind not found on PATH; install it (apt-get install valgrind) or add its "
              "directory to PATH");
    std::remove((bin + "/valgrind").c_str());
    std::remove((plain + "/valgrind").c_str());
    rmdir(bin.c_str());
    rmdir(plain.c_str());
    rmdir(dir);
}

TEST(RecordSummary, SaysWhereTheProfileWentItsTotalsAndTopFunctions)
{
    // two_event_profile: work 8000, memset 1500, helper 400, main 100 of
    // 10000 Ir; Dr is not among the events the summary totals.
    const Profile p = parse_profile(test::two_event_profile().str(), "p.json");
    std::ostringstream out;
    write_record_summary(out, p, "p.json");
    EXPECT_EQ(out.str(),
              "vgprof: profile written to p.json\n"
              "vgprof: totals: Ir 10,000\n"
              "vgprof: top functions by Ir (self):\n"
              "vgprof:   8,000  (80.0%)  work (/src/app.c:3)  [/usr/bin/app]\n"
              "vgprof:   1,500  (15.0%)  memset  [/lib/libc.so.6]\n"
              "vgprof:     400   (4.0%)  helper (/src/app.c:20)  [/usr/bin/app]\n"
              "vgprof:     100   (1.0%)  main (/src/app.c:10)  [/usr/bin/app]\n"
              "vgprof: the whole report: vgprof report p.json\n");
}

TEST(RecordSummary, TotalsListTheMainEventsRecorded)
{
    // cache_profile: Ir 10000, D1mr 100, D1mw 200, DLmr 20, DLmw 40, Bcm 50,
    // Bim 25, and two functions.
    const Profile p = parse_profile(test::cache_profile().str(), "c.json");
    std::ostringstream out;
    write_record_summary(out, p, "c.json");
    EXPECT_NE(out.str().find("vgprof: totals: Ir 10,000  D1mr 100  D1mw 200  DLmr 20  DLmw 40  "
                             "Bcm 50  Bim 25\n"),
              std::string::npos)
        << out.str();
    EXPECT_NE(out.str().find("vgprof: top functions by Ir (self):\n"), std::string::npos);
}

} // namespace
} // namespace vgprof::cli
