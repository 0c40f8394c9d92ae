// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of meta.exit.signal (format version 6): the signal that
// killed the client, read, checked, written back and kept by merge.
#include "error_of.hpp"
#include "profile_text.hpp"

#include "vgprof/load.hpp"
#include "vgprof/merge.hpp"
#include "vgprof/write.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace vgprof {
namespace {

using test::ProfileText;

ProfileText killed_by(const std::string& signal)
{
    return ProfileText().set("vgprof", "6").set_meta(
        "exit", R"({"killed":true,"signal":)" + signal + "}");
}

Profile load(const ProfileText& text) { return parse_profile(text.str(), "p.json"); }

std::string load_error(const ProfileText& text)
{
    return test::error_of([&] { load(text); });
}

std::string written(const Profile& p)
{
    std::ostringstream out;
    write_profile(out, p);
    return out.str();
}

TEST(ExitSignal, AKilledClientNamesTheSignalFromVersion6)
{
    const Profile p = load(killed_by("15"));
    EXPECT_TRUE(p.meta().killed);
    EXPECT_EQ(p.meta().signal, 15);
    EXPECT_EQ(p.meta().exit_code, std::nullopt);
    EXPECT_EQ(load(ProfileText().set("vgprof", "6").set_meta("exit", R"({"killed":true})"))
                  .meta()
                  .signal,
              std::nullopt);
}

// Before version 6 the member is not part of the format; exit's unknown
// members are passed over, as they always were.
TEST(ExitSignal, IsNotReadBeforeVersion6)
{
    const Profile p = load(killed_by("15").set("vgprof", "5"));
    EXPECT_TRUE(p.meta().killed);
    EXPECT_EQ(p.meta().signal, std::nullopt);
}

TEST(ExitSignal, MustBeALinuxSignalOfAKilledClient)
{
    EXPECT_EQ(load_error(killed_by("0")),
              "p.json: meta.exit.signal: signal 0 out of range (1 to 64)");
    EXPECT_EQ(load_error(killed_by("65")),
              "p.json: meta.exit.signal: signal 65 out of range (1 to 64)");
    EXPECT_EQ(load_error(killed_by("\"SIGTERM\"")),
              "p.json: meta.exit.signal: expected an integer, got a string");
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "6").set_meta("exit", R"({"signal":2})")),
              "p.json: meta.exit.signal: a signal without \"killed\":true");
}

TEST(ExitSignal, IsWrittenBack)
{
    const std::string text = written(load(killed_by("2")));
    EXPECT_EQ(text.rfind("{\"vgprof\":6\n", 0), 0u) << text;
    EXPECT_NE(text.find(" ,\"exit\":{\"killed\":true,\"signal\":2}\n"), std::string::npos) << text;
    EXPECT_EQ(parse_profile(text, "again.json").meta().signal, 2);
}

// A merged profile is version 4 unless a run names its signal.
TEST(ExitSignal, EachMergedRunKeepsItsOwn)
{
    ProfileMerger merger;
    merger.add(load(killed_by("15")), "a.json");
    merger.add(load(ProfileText().set("vgprof", "6")), "b.json");
    const Profile merged = parse_profile(written(merger.result()), "merged.json");
    EXPECT_EQ(merged.meta().version, 6);
    ASSERT_EQ(merged.meta().merged.size(), 2u);
    EXPECT_EQ(merged.meta().merged[0].signal, 15);
    EXPECT_TRUE(merged.meta().merged[0].killed);
    EXPECT_EQ(merged.meta().merged[1].signal, std::nullopt);
    EXPECT_EQ(merged.meta().merged[1].exit_code, 0);
}

} // namespace
} // namespace vgprof
