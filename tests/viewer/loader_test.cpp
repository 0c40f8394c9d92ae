// SPDX-License-Identifier: GPL-2.0-or-later
// Loading on a background thread: a good profile arrives indexed, a bad or
// missing one ends as a one-line error naming the file, never a crash.
#include "file_browser.hpp"
#include "frame_stats.hpp"
#include "profile_loader.hpp"

#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

class TempDir {
public:
    TempDir()
    {
        char name[] = "/tmp/viewer-test-XXXXXX";
        path_ = mkdtemp(name);
    }
    ~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
    std::string write(const std::string& name, const std::string& text) const
    {
        std::ofstream(path_ + "/" + name) << text;
        return path_ + "/" + name;
    }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

TEST(ProfileLoader, LoadsAProfileOnItsThread)
{
    TempDir dir;
    const std::string path = dir.write("app.json", app_profile().str());
    ProfileLoader loader;
    loader.start({path});
    loader.wait();
    ASSERT_EQ(loader.state(), ProfileLoader::State::done) << loader.error();
    auto loaded = loader.take();
    ASSERT_TRUE(loaded && loaded->now);
    EXPECT_FALSE(loaded->diff);
    EXPECT_EQ(loaded->now->inclusive(FnId(kCompute), 0), 1500u);
    EXPECT_FALSE(loader.take());
}

// Loads base.json and now.json of `dir`, written from the texts given;
// null when the load failed (a test failure).
std::unique_ptr<Loaded> load_pair(const TempDir& dir, const ProfileText& base, const ProfileText& now)
{
    ProfileLoader loader;
    loader.start({dir.write("base.json", base.str()), dir.write("now.json", now.str())});
    loader.wait();
    EXPECT_EQ(loader.state(), ProfileLoader::State::done) << loader.error();
    return loader.take();
}

TEST(ProfileLoader, TwoProfilesAreABaseAndANewOne)
{
    TempDir dir;
    const auto loaded = load_pair(dir, app_profile(), app_profile_slower());
    ASSERT_TRUE(loaded && loaded->diff);
    EXPECT_EQ(loaded->now->path(), dir.path() + "/now.json");
    EXPECT_EQ(loaded->diff->total_delta(0), 300);
}

TEST(ProfileLoader, TwoProfilesAreJudgedAsRecordedNotWithTheDerivedEvents)
{
    TempDir dir;
    const auto loaded = load_pair(dir, app_profile(), cache_profile());
    ASSERT_TRUE(loaded && loaded->diff);
    // The new profile shows its five derived events, but the fixtures'
    // recorded events are what differ.
    EXPECT_EQ(loaded->now->profile().num_events(), 14u);
    const auto& why = loaded->diff->differences();
    EXPECT_NE(std::find(why.begin(), why.end(),
                        "the events recorded differ (base: Ir; new: Ir I1mr ILmr Dr D1mr DLmr Dw "
                        "D1mw DLmw)"),
              why.end())
        << (why.empty() ? "" : why[0]);
}

// The cache fixture's work (fn 1): L1 misses 2+500+50 = 552, LL misses
// 1+100+25 = 126, accesses 5000+2000+1000 = 8000, so L1hits 7448, LLhits
// 426, RamHits 126 and EstimatedCycles 7448 + 5*426 + 35*126 = 13988;
// the whole program's: L1hits 9500-603 = 8897, LLhits 603-135 = 468,
// RamHits 135, EstimatedCycles 8897 + 2340 + 4725 = 15962.
TEST(ProfileLoader, AProfileOfTheCachesGetsTheEstimatedCyclesAndHitsAsEvents)
{
    TempDir dir;
    const std::string path = dir.write("cache.json", cache_profile().str());
    ProfileLoader loader;
    loader.start({path});
    loader.wait();
    ASSERT_EQ(loader.state(), ProfileLoader::State::done) << loader.error();
    const auto loaded = loader.take();
    const Profile& p = loaded->now->profile();
    ASSERT_EQ(p.num_events(), 9u + 5u);
    EXPECT_EQ(std::vector<std::string>(p.meta().events.begin() + 9, p.meta().events.end()),
              (std::vector<std::string>{"EstimatedCycles", "CEst", "L1hits", "LLhits", "RamHits"}));
    EXPECT_EQ(loaded->now->self(FnId(1), 9), 13988u);
    EXPECT_EQ(loaded->now->self(FnId(1), 11), 7448u);
    EXPECT_EQ(loaded->now->total(9), 15962u);
    // A profile of Ir alone has none to derive.
    EXPECT_TRUE(viewer_derived_events(parse_profile(app_profile().str(), "app.json")).empty());
}

TEST(ProfileLoader, AMissingFileIsAnErrorNamingIt)
{
    ProfileLoader loader;
    loader.start({"/nonexistent/p.json"});
    loader.wait();
    EXPECT_EQ(loader.state(), ProfileLoader::State::failed);
    EXPECT_EQ(loader.error(), "/nonexistent/p.json: cannot open: No such file or directory");
}

TEST(ProfileLoader, ABadProfileIsTheLibrarysErrorForIt)
{
    TempDir dir;
    const std::string path = dir.write("bad.json", "{\"vgprof\":2,\"meta\":");
    ProfileLoader loader;
    loader.start({path});
    loader.wait();
    EXPECT_EQ(loader.state(), ProfileLoader::State::failed);
    EXPECT_EQ(loader.error().rfind(path + ":", 0), 0u) << loader.error();
    // And it can load again afterwards.
    loader.start({dir.write("good.json", app_profile().str())});
    loader.wait();
    EXPECT_EQ(loader.state(), ProfileLoader::State::done);
}

TEST(ProfileLoader, ADirectoryIsNotAProfile)
{
    TempDir dir;
    ProfileLoader loader;
    loader.start({dir.path()});
    loader.wait();
    EXPECT_EQ(loader.error(), dir.path() + ": cannot read: Is a directory");
}

TEST(FileBrowser, ListsDirectoriesFirstThenProfiles)
{
    TempDir dir;
    dir.write("b.json", "");
    dir.write("a.json", "");
    dir.write("notes.txt", "");
    dir.write(".hidden.json", "");
    dir.write("callgrind.out.4242", "");
    dir.write("dhat.out.99.gz", "");
    dir.write("base.json.zst", "");
    ASSERT_EQ(::mkdir((dir.path() + "/sub").c_str(), 0700), 0);
    const Listing l = list_directory(dir.path(), false);
    EXPECT_TRUE(l.error.empty());
    std::vector<std::string> names;
    for (const DirEntry& e : l.entries)
        names.push_back(e.name);
    EXPECT_EQ(names, (std::vector<std::string>{"..", "sub", "a.json", "b.json", "base.json.zst",
                                               "callgrind.out.4242", "dhat.out.99.gz"}));
    EXPECT_EQ(list_directory(dir.path(), true).entries.size(), 8u);
    EXPECT_TRUE(named_like_a_profile("cachegrind.out.7"));
    EXPECT_TRUE(named_like_a_profile("vgprof.out.12.json.gz"));
    EXPECT_FALSE(named_like_a_profile("notes.txt.gz"));
    EXPECT_EQ(enter(l.dir, "sub"), l.dir + "/sub");
    EXPECT_EQ(enter(l.dir + "/sub", ".."), l.dir);
    EXPECT_FALSE(list_directory(dir.path() + "/none", false).error.empty());
}

TEST(FrameStats, MedianAndWorst)
{
    const FrameStats odd = frame_stats({5, 1, 9});
    EXPECT_DOUBLE_EQ(odd.median_ms, 5);
    EXPECT_DOUBLE_EQ(odd.worst_ms, 9);
    EXPECT_DOUBLE_EQ(frame_stats({4, 1, 2, 3}).median_ms, 2.5);
    EXPECT_EQ(frame_stats({}).frames, 0u);
}

} // namespace
} // namespace vgprof::viewer
