// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of `vgprof diff`'s named baselines (cli/baseline.hpp):
// storing a profile under a name, finding it again, and refusing names,
// profiles and directories that cannot make a baseline.
#include "profile_text.hpp"
#include "scratch_dir.hpp"

#include "cli/baseline.hpp"
#include "vgprof/error.hpp"
#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace vgprof {
namespace {

using test::ScratchDir;

std::string contents(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> entries(const std::string& dir)
{
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

template <typename F>
std::string error_of(F f)
{
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(Baseline, IsStoredUnderItsNameAsTheProfileWasWritten)
{
    ScratchDir dir;
    const std::string text = test::ProfileText().str();
    const std::string profile = dir.write("new.json", text);
    const std::string path = cli::save_baseline(dir / "baselines", "main", profile);
    EXPECT_EQ(path, dir / "baselines/main.json");
    EXPECT_EQ(contents(path), text);
    EXPECT_EQ(cli::existing_baseline(dir / "baselines", "main"), path);
    EXPECT_EQ(load_profile(path).meta().totals[0], 2485947u);
    // Written beside its final name and renamed: nothing else is left.
    EXPECT_EQ(entries(dir / "baselines"), std::vector<std::string>{"main.json"});
}

TEST(Baseline, ReplacesTheBaselineOfTheSameName)
{
    ScratchDir dir;
    test::ProfileText second;
    second.set_meta("argv", R"(["./app","-n","4"])");
    cli::save_baseline(dir.path(), "v1.2_rc-3", dir.write("a.json", test::ProfileText().str()));
    const std::string path =
        cli::save_baseline(dir.path(), "v1.2_rc-3", dir.write("b.json", second.str()));
    EXPECT_EQ(contents(path), second.str());
}

TEST(Baseline, CreatesItsDirectoryAndItsParents)
{
    ScratchDir dir;
    const std::string profile = dir.write("p.json", test::ProfileText().str());
    EXPECT_EQ(cli::save_baseline(dir / "a/b/c", "main", profile), dir / "a/b/c/main.json");
}

TEST(Baseline, NamesThatCouldLeaveTheDirectoryOrHideAreRefused)
{
    ScratchDir dir;
    const std::string profile = dir.write("p.json", test::ProfileText().str());
    const auto save = [&](const std::string& name) {
        return error_of([&] { cli::save_baseline(dir / "b", name, profile); });
    };
    EXPECT_EQ(save("a/b"),
              "baseline name \"a/b\": only letters, digits, '.', '_' and '-' may be used, not '/'");
    EXPECT_EQ(save("../up"), "baseline name \"../up\": must not start with '.'");
    EXPECT_EQ(save(".hidden"), "baseline name \".hidden\": must not start with '.'");
    EXPECT_EQ(save(""), "baseline name \"\": empty");
    EXPECT_EQ(save("two words"), "baseline name \"two words\": only letters, digits, '.', '_' "
                                 "and '-' may be used, not ' '");
    EXPECT_FALSE(std::filesystem::exists(dir / "b"));
}

TEST(Baseline, AProfileThatCannotBeReadIsNotStored)
{
    ScratchDir dir;
    const std::string bad = dir.write("bad.json", "{\"vgprof\":2,");
    EXPECT_EQ(error_of([&] { cli::save_baseline(dir / "b", "main", bad); }).rfind(bad + ": ", 0), 0u);
    EXPECT_EQ(error_of([&] { cli::save_baseline(dir / "b", "main", dir / "none.json"); }),
              dir / "none.json" + ": cannot open: No such file or directory");
    EXPECT_FALSE(std::filesystem::exists(dir / "b"));
}

TEST(Baseline, ADirectoryThatIsAFileIsAnError)
{
    ScratchDir dir;
    const std::string profile = dir.write("p.json", test::ProfileText().str());
    dir.write("file", "");
    EXPECT_EQ(error_of([&] { cli::save_baseline(dir / "file", "main", profile); }),
              "the baseline directory " + dir / "file" + " is not a directory");
}

TEST(Baseline, AMissingBaselineSaysHowToStoreOne)
{
    ScratchDir dir;
    EXPECT_EQ(error_of([&] { cli::existing_baseline(dir.path(), "main"); }),
              "no baseline \"main\" in " + dir.path() + " (" + dir / "main.json" +
                  ": No such file or directory); store one with --save-baseline main PROFILE");
    EXPECT_EQ(error_of([&] { cli::existing_baseline(dir.path(), "a/b"); }),
              "baseline name \"a/b\": only letters, digits, '.', '_' and '-' may be used, not '/'");
}

TEST(SuiteBaseline, StoresTheProfilesOfADirectoryAndReplacesThemWhole)
{
    ScratchDir dir;
    const std::string first = test::ProfileText().str();
    dir.write("run1/hash.json", first);
    dir.write("run1/sort.json", first);
    dir.write("run1/notes.txt", "not a profile");
    const std::string path = cli::save_suite_baseline(dir / "baselines", "main", dir / "run1");
    EXPECT_EQ(path, dir / "baselines/main");
    EXPECT_EQ(entries(path), (std::vector<std::string>{"hash.json", "sort.json"}));
    EXPECT_EQ(contents(path + "/hash.json"), first);
    EXPECT_EQ(cli::existing_suite_baseline(dir / "baselines", "main"), path);

    // A second run with other benchmarks replaces the whole set, and leaves
    // no temporary directory behind.
    const std::string second = test::ProfileText().set_meta("argv", R"(["./other"])").str();
    dir.write("run2/parse.json", second);
    cli::save_suite_baseline(dir / "baselines", "main", dir / "run2");
    EXPECT_EQ(entries(path), std::vector<std::string>{"parse.json"});
    EXPECT_EQ(contents(path + "/parse.json"), second);
    EXPECT_EQ(entries(dir / "baselines"), std::vector<std::string>{"main"});
}

TEST(SuiteBaseline, NothingIsStoredFromADirectoryWithAnUnreadableOrNoProfile)
{
    ScratchDir dir;
    dir.write("bad/hash.json", "{\"vgprof\":");
    EXPECT_EQ(error_of([&] { cli::save_suite_baseline(dir / "b", "main", dir / "bad"); })
                  .rfind(dir / "bad/hash.json: ", 0),
              0u);
    dir.write("empty/notes.txt", "");
    EXPECT_EQ(error_of([&] { cli::save_suite_baseline(dir / "b", "main", dir / "empty"); }),
              dir / "empty" + ": no profiles (files ending in .json, .json.gz or .json.zst) to "
                              "store as baseline \"main\"");
    EXPECT_FALSE(std::filesystem::exists(dir / "b"));
    EXPECT_EQ(error_of([&] { cli::existing_suite_baseline(dir.path(), "main"); }),
              "no suite baseline \"main\" in " + dir.path() + " (" + dir / "main" +
                  ": No such file or directory); store one with --save-baseline main DIR");
}

} // namespace
} // namespace vgprof
