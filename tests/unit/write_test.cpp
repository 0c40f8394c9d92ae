// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of the profile writer (vgprof/write.hpp) and of writing a
// file atomically (vgprof/output_file.hpp): the layout written, and that
// loading what was written gives back the model that was written, for
// every kind of profile the fixtures describe.
#include "heap_fixture.hpp"
#include "profile_compare.hpp"
#include "report_fixture.hpp"
#include "timeline_fixture.hpp"

#include "vgprof/error.hpp"
#include "vgprof/load.hpp"
#include "vgprof/output_file.hpp"
#include "vgprof/write.hpp"

#include <gtest/gtest.h>

#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace vgprof {
namespace {

using test::ProfileText;

std::string written(const Profile& p)
{
    std::ostringstream out;
    write_profile(out, p);
    return out.str();
}

Profile load(const ProfileText& text) { return parse_profile(text.str(), "p.json"); }

// The annotated sample of docs/profile-format.md, as the tool lays it out.
TEST(WriteProfile, WritesTheToolsLayout)
{
    EXPECT_EQ(written(load(ProfileText())),
              "{\"vgprof\":2\n"
              ",\"meta\":{\"tool\":\"vgprof\",\"tool_version\":\"0.1.0\",\"valgrind\":\"3.19.0\"\n"
              " ,\"argv\":[\"./app\",\"-n\",\"3\"]\n"
              " ,\"options\":[\"--vgprof-out-file=p.json\"]\n"
              " ,\"events\":[\"Ir\"]\n"
              " ,\"cache\":null\n"
              " ,\"totals\":[2485947]\n"
              " ,\"exit\":{\"code\":0}\n"
              " ,\"run\":{\"pid\":4242,\"ppid\":4241,\"elapsed_ms\":311}\n"
              " }\n"
              ",\"strs\":[\"???\"\n,\"/usr/bin/app\"\n,\"/src/app.c\"\n,\"main\"\n,\"work\"]\n"
              ",\"objs\":[1]\n"
              ",\"files\":[0\n,2]\n"
              ",\"fns\":[[3,1,0,10]\n,[4,1,0,3]]\n"
              ",\"lines\":[[0,1,11,1200]\n,[1,1,4,2484747]]\n"
              ",\"instrs\":[[4198694,1,1,4,3]]\n"
              ",\"calls\":[[0,1,1,12,1,2484747]]\n"
              ",\"inclusive\":[[0,2485947]\n,[1,2484747]]\n"
              ",\"paths\":[[null,0,0,1200,2485947]\n,[0,1,1,2484747,2484747]]\n"
              "}\n");
}

TEST(WriteProfile, WritesEachThreadsGraphAfterThePaths)
{
    const std::string text = written(load(test::two_thread_profile()));
    EXPECT_NE(text.find("\n,\"threads\":[{\"tid\":1\n ,\"calls\":[[1,0,0,23,2,500,1990]\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("\n ,\"roots\":[0]}\n,{\"tid\":2\n ,\"calls\":[[3,0,0,6,1,400,800]\n"
                        ",[3,3,0,5,1,1500,100]]\n ,\"inclusive\":[[0,400,800]\n,[3,4400,1200]]\n"
                        " ,\"roots\":[5]}]\n}\n"),
              std::string::npos)
        << text;
}

TEST(WriteProfile, EscapesQuotesBackslashesAndControlCharactersOnly)
{
    ProfileText p;
    p.set("strs", R"(["???","/usr/bin/app","/src/app.c","say \"hi\"\\","caf\u00e9\ttab"])");
    const std::string text = written(load(p));
    EXPECT_NE(text.find("\n,\"say \\\"hi\\\"\\\\\"\n,\"caf\xc3\xa9\\u0009tab\"]"),
              std::string::npos)
        << text;
}

// What each fixture holds, written and read back.
struct RoundTrip {
    const char* name;
    ProfileText text;
};

ProfileText version1_profile()
{
    return ProfileText().set("vgprof", "1").drop_call_graph();
}

ProfileText dump_profile()
{
    return ProfileText().set_meta("exit", "null").set_meta("dump", R"({"number":2,"label":"phase \"b\""})");
}

ProfileText truncated_profile()
{
    // main (1200) -> work (2484747), of which 2000 went below a [truncated] node.
    return ProfileText().set(
        "paths", "[[null,0,0,1200,2485947],[0,1,1,2482747,2484747],[1,null,3,2000,2000]]");
}

ProfileText varied_meta_profile()
{
    return test::cache_call_graph_profile()
        .set_meta("exit", R"({"code":-11})")
        .set_meta("run", R"({"pid":7})")
        .set_meta("cache", R"({"branches":true})")
        .set_meta("events", R"(["Ir","Bc","Bcm","Bi","Bim"])")
        .set_meta("totals", "[10000,1000,50,100,25]")
        .set("lines", "[[0,1,11,2000,0,0,0,0],[1,1,4,8000,1000,50,100,25]]")
        .set("calls", "[[0,1,1,12,1,8000,1000,50,100,25]]")
        .set("inclusive", "[[0,10000,1000,50,100,25],[1,8000,1000,50,100,25]]")
        .set("paths", "[[null,0,0,2000,0,0,0,0,10000,1000,50,100,25]"
                      ",[0,1,1,8000,1000,50,100,25,8000,1000,50,100,25]]");
}

// Format version 7: the run's fingerprint, after meta.allocators.
ProfileText fingerprinted_profile()
{
    ProfileText p;
    p.set("vgprof", "7");
    p.set_meta("allocators", R"(["libc malloc"])");
    p.set_meta("fingerprint", R"({"cwd":"/work","env_bytes":31,)"
                              R"("env":[["PATH","4d40b1c759291a30"],["HOME","4e56fda5d5b83f0a"]],)"
                              R"("valgrind_options":["-q","--vex-guest-chase=no"]})");
    return p;
}

TEST(WriteProfile, LoadingWhatWasWrittenGivesTheSameModel)
{
    const RoundTrip cases[] = {
        {"the format's sample", ProfileText()},
        {"no call graph", test::two_event_profile()},
        {"a call graph with recursion", test::two_event_call_graph_profile()},
        {"per-thread graphs", test::two_thread_profile()},
        {"cache events", test::cache_call_graph_profile()},
        {"format version 1", version1_profile()},
        {"a dump", dump_profile()},
        {"a [truncated] node", truncated_profile()},
        {"branches only, a signal, some run facts", varied_meta_profile()},
        {"the heap", test::with_heap()},
        {"a fingerprint", fingerprinted_profile()},
        {"a timeline", test::with_timeline(test::timeline())},
        {"a timeline's mark labelled with quotes and a tab",
         test::with_timeline(test::timeline(
             test::kSpans, R"([[600,1,"say \"go\"\tnow",0,0,600]])"))},
    };
    for (const RoundTrip& c : cases) {
        SCOPED_TRACE(c.name);
        const Profile original = load(c.text);
        const std::string text = written(original);
        const Profile again = parse_profile(text, "written.json");
        test::expect_same_profile(original, again);
        EXPECT_EQ(written(again), text);
    }
}

// The timeline after the paths, in vgtool/vp_timeline.c's layout.
TEST(WriteProfile, WritesTheTimelineAsTheToolDoes)
{
    const std::string text = written(load(test::with_timeline(test::timeline())));
    EXPECT_NE(text.find("\n,\"timeline\":{\"clock\":\"instructions\",\"threshold\":2,"
                        "\"max_spans\":100\n"
                        " ,\"begin\":[0,0,0,0]\n"
                        " ,\"end\":[2485947,0,0,2485947]\n"
                        " ,\"spans\":[\n  [1,1,1,1,600,2485347,0,2484747]\n"
                        " ,[1,0,0,0,0,2485947,1,2485947]]\n"
                        " ,\"dropped\":0\n"
                        " ,\"marks\":[\n  [600,1,\"work begins\",0,0,600]\n"
                        " ,[2485347,1,\"work done\",4000,4,2485347]]\n"
                        " ,\"marks_dropped\":0}\n}\n"),
              std::string::npos)
        << text;
}

// The heap fixture's tables in the tool's layout.
TEST(WriteProfile, WritesTheHeapAsTheToolDoes)
{
    const std::string text = written(load(test::with_heap()));
    EXPECT_NE(text.find(
                  "\n,\"heap\":{\"depth\":12\n"
                  " ,\"totals\":{\"bytes\":3000,\"blocks\":11,\"peak_bytes\":2300,\"peak_blocks\":4,"
                  "\"peak_time\":500,\"end_bytes\":100,\"end_blocks\":1,\"end_time\":100000,"
                  "\"reads\":4000,\"writes\":3000}\n"
                  " ,\"frames\":[\n  [4198600,1,1,5]\n  ,[4198700,0,1,20]\n  ,[4198800,0,1,22]]\n"
                  " ,\"sites\":[\n  [[0,1],1000,10,3000,400,4,300,3,100,1,0,1000,[50,2,50,0]]\n"
                  "  ,[[2],2000,1,90000,2000,1,2000,1,0,0,4000,2000,null]]\n"
                  " ,\"timeline\":{\"width\":4,\"samples\":[[100,400,4],[500,2300,4],[900,100,1]]}\n"
                  " ,\"snapshots\":[\n  {\"kind\":\"peak\",\"time\":500,\"bytes\":2300,\"blocks\":4,"
                  "\"sites\":[[1,2000,1],[0,300,3]]}\n  ,{\"kind\":\"end\",\"time\":100000,"
                  "\"bytes\":100,\"blocks\":1,\"sites\":[[0,100,1]]}]}\n}\n"),
              std::string::npos)
        << text;
}

TEST(WriteProfile, VersionIsTheProfilesOwn)
{
    EXPECT_EQ(written_version(load(version1_profile())), 1);
    EXPECT_EQ(written_version(load(ProfileText())), 2);
    EXPECT_EQ(written_version(load(test::two_event_profile())), 2);
    EXPECT_EQ(written_version(load(test::with_heap())), 3);
    EXPECT_EQ(written_version(load(fingerprinted_profile())), 7);
    EXPECT_EQ(written_version(load(test::with_timeline(test::timeline()))), 10);
}

TEST(WriteProfile, WritesTheFingerprintAsTheToolDoes)
{
    const std::string text = written(load(fingerprinted_profile()));
    EXPECT_NE(text.find(" ,\"allocators\":[\"libc malloc\"]\n"
                        " ,\"fingerprint\":{\"cwd\":\"/work\",\"env_bytes\":31,\"env\":"
                        "[[\"PATH\",\"4d40b1c759291a30\"],[\"HOME\",\"4e56fda5d5b83f0a\"]],"
                        "\"valgrind_options\":[\"-q\",\"--vex-guest-chase=no\"]}\n"
                        " ,\"run\""),
              std::string::npos)
        << text;
}

// --- writing files -----------------------------------------------------------

class TempDir {
public:
    TempDir()
    {
        const char* base = std::getenv("TMPDIR");
        std::string pattern = std::string(base && *base ? base : "/tmp") + "/vgprof-unit-XXXXXX";
        if (!mkdtemp(pattern.data()))
            throw std::runtime_error("mkdtemp failed");
        path_ = pattern;
    }
    ~TempDir()
    {
        for (const std::string& name : files())
            unlink((path_ + "/" + name).c_str());
        rmdir(path_.c_str());
    }
    std::string operator/(const std::string& name) const { return path_ + "/" + name; }
    std::vector<std::string> files() const
    {
        std::vector<std::string> names;
        if (DIR* d = opendir(path_.c_str())) {
            while (const dirent* e = readdir(d))
                if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
                    names.push_back(e->d_name);
            closedir(d);
        }
        return names;
    }

private:
    std::string path_;
};

std::string contents(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(SaveProfile, WritesAFileThatLoadsAndLeavesNothingElse)
{
    TempDir dir;
    const Profile p = load(test::two_thread_profile());
    save_profile(dir / "out.json", p);
    test::expect_same_profile(load_profile(dir / "out.json"), p);
    EXPECT_EQ(dir.files(), std::vector<std::string>{"out.json"});
}

TEST(SaveProfile, NamesTheFileItCannotCreate)
{
    TempDir dir;
    try {
        save_profile(dir / "missing/out.json", load(ProfileText()));
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  dir / "missing/out.json" + ": cannot create: No such file or directory");
    }
}

TEST(WriteFileAtomically, AFailedWriteLeavesTheOldFileAndNoTemporaryFile)
{
    TempDir dir;
    std::ofstream(dir / "out.txt") << "old";
    EXPECT_THROW(write_file_atomically(dir / "out.txt",
                                       [](std::ostream& out) {
                                           out << "half";
                                           throw Error("stopped");
                                       }),
                 Error);
    EXPECT_EQ(contents(dir / "out.txt"), "old");
    EXPECT_EQ(dir.files(), std::vector<std::string>{"out.txt"});
}

TEST(WriteFileAtomically, ReplacesAFileOnlyWhenComplete)
{
    TempDir dir;
    std::ofstream(dir / "out.txt") << "old";
    write_file_atomically(dir / "out.txt", [&](std::ostream& out) {
        out << "new";
        // Nothing is visible under the destination's name until the end.
        EXPECT_EQ(contents(dir / "out.txt"), "old");
    });
    EXPECT_EQ(contents(dir / "out.txt"), "new");
    EXPECT_EQ(dir.files(), std::vector<std::string>{"out.txt"});
}

// Renaming over /dev/null would replace the device; it is written in place.
TEST(WriteFileAtomically, WritesADeviceInPlace)
{
    write_file_atomically("/dev/null", [](std::ostream& out) { out << "discarded"; });
    struct stat st;
    ASSERT_EQ(stat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
}

} // namespace
} // namespace vgprof
