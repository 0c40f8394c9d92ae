// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of what a profile from a stranger (the one a pull request
// brings to a CI job) can make vgprof do: its names are written as data in
// every output, the files it names are read only where the user allows,
// no program runs on its say, and its sizes are checked before anything is
// allocated or indexed by them (docs/reliability.md, "Profiles from
// strangers"). Each test is one attack, on the fixtures of
// report_fixture.hpp, diff_fixture.hpp and data_fixture.hpp.
#include "data_fixture.hpp"
#include "diff_fixture.hpp"
#include "error_of.hpp"
#include "scratch_dir.hpp"

#include "cli/commands.hpp"
#include "vgprof/disasm.hpp"
#include "vgprof/error.hpp"
#include "vgprof/load.hpp"
#include "vgprof/source.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <sstream>

namespace vgprof {
namespace {

using test::error_of;
using test::ProfileText;
using test::ScratchDir;

// A function name that, printed as it is, ends its line and writes two
// GitHub workflow commands of its own.
const std::string kInjected =
    "work\n::error title=all benchmarks passed::injected\n::add-mask::Result";

// two_event_profile (and heavier_profile) with `work` named `name`: "work"
// is the last of the sorted strings and `name` starts with it, so the
// table stays sorted.
ProfileText renamed(ProfileText p, const std::string& name)
{
    const std::string quoted = boost::json::serialize(boost::json::value(name));
    p.set("strs", R"(["/lib/libc.so.6","/src/app.c","/usr/bin/app","???",)"
                  R"("helper","main","memset",)" + quoted + "]");
    return p;
}

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// Whether GitHub's runner reads `line` as a workflow command: "::" after
// the leading blanks.
bool is_workflow_command(const std::string& line)
{
    const size_t start = line.find_first_not_of(" \t");
    return start != std::string::npos && line.compare(start, 2, "::") == 0;
}

std::string diff_text(const ProfileText& base, const ProfileText& now, const std::string& format)
{
    cli::DiffOptions o;
    o.fail_above = "Ir=+1%";
    o.format = format;
    std::ostringstream out;
    cli::write_diff(out, test::load(base), test::load(now), o);
    return out.str();
}

// --- names are data ----------------------------------------------------------

TEST(HostileNames, DiffTextWritesANameWithNewlinesOnItsOwnLineEscaped)
{
    const std::string out = diff_text(renamed(test::two_event_profile(), kInjected),
                                      renamed(test::heavier_profile(), kInjected), "text");
    for (const std::string& line : lines_of(out))
        EXPECT_FALSE(is_workflow_command(line)) << line;
    EXPECT_NE(out.find("work\\n::error title=all benchmarks passed::injected\\n::add-mask::Result"),
              std::string::npos)
        << out;
}

TEST(HostileNames, DiffGithubOutputHasOnlyItsOwnCommands)
{
    const std::string out = diff_text(renamed(test::two_event_profile(), kInjected),
                                      renamed(test::heavier_profile(), kInjected), "github");
    // The total's breach and the function it rose in: two commands, both
    // vgprof's errors.
    size_t commands = 0;
    for (const std::string& line : lines_of(out))
        if (is_workflow_command(line)) {
            ++commands;
            EXPECT_EQ(line.rfind("::error title=vgprof%3A new::", 0) == 0 ||
                          line.rfind("::error file=/src/app.c,line=4,title=vgprof%3A new::", 0) == 0,
                      true)
                << line;
        }
    EXPECT_EQ(commands, 2u) << out;
}

// Lines starting a workflow command, in `text`.
size_t workflow_commands(const std::string& text)
{
    size_t n = 0;
    for (const std::string& line : lines_of(text))
        n += is_workflow_command(line);
    return n;
}

TEST(HostileNames, ASuitesBenchmarkFileNamesCannotStartAWorkflowCommand)
{
    ScratchDir dir;
    const std::string name = "bench\n::error title=gate::all benchmarks passed";
    for (const char* side : {"base/", "new/"})
        dir.write(side + name + ".json", test::two_event_profile().str());
    dir.write("base/other.json", test::two_event_profile().str());
    dir.write("new/other.json", test::two_event_profile().str());
    for (const char* format : {"text", "github"}) {
        cli::DiffOptions o;
        o.format = format;
        std::vector<std::string> only_base, only_new;
        const auto pairs = cli::pair_directories(dir / "base", dir / "new", only_base, only_new);
        std::ostringstream out, errors;
        cli::write_suite_diff(out, errors, pairs, only_base, only_new, o);
        // Identical profiles: nothing to annotate, so no command at all.
        EXPECT_EQ(workflow_commands(out.str()), 0u) << format << ":\n" << out.str();
    }
}

// The pipes that split a Markdown table row into cells: those not escaped
// by a backslash (itself not escaped).
size_t cell_pipes(const std::string& row)
{
    size_t pipes = 0;
    for (size_t i = 0; i < row.size(); ++i) {
        if (row[i] == '\\')
            ++i;
        else if (row[i] == '|')
            ++pipes;
    }
    return pipes;
}

TEST(HostileNames, MarkdownKeepsAStrangeNameInItsOwnCell)
{
    const std::string name = "work | `x` |\n| <img src=x> [link](http://x) |";
    const std::string out = diff_text(renamed(test::two_event_profile(), name),
                                      renamed(test::heavier_profile(), name), "markdown");
    // The functions table: function, file, object, 4 costs, lines: 8 cells.
    const size_t header = out.find("| function | file | object |");
    ASSERT_NE(header, std::string::npos) << out;
    const std::vector<std::string> rows = lines_of(out.substr(header));
    ASSERT_GE(rows.size(), 4u) << out;
    EXPECT_EQ(cell_pipes(rows[2]), 9u) << rows[2];
    EXPECT_TRUE(rows[3].empty()) << out;   // the table ends after its one row
    // No HTML: its '<' is escaped.
    const size_t img = out.find("<img");
    ASSERT_NE(img, std::string::npos) << out;
    EXPECT_EQ(out[img - 1], '\\') << out;
}

TEST(HostileNames, TerminalOutputShowsEscapeSequencesEscaped)
{
    const std::string name = "work\x1b]0;pwned\x07\x1b[2J";
    const Profile p = test::load(renamed(test::two_event_profile(), name));
    std::ostringstream report, annotation;
    cli::ReportOptions r;
    r.profile = "p.json";
    cli::write_report(report, p, r);
    cli::AnnotateOptions a;
    a.profile = "p.json";
    cli::write_annotation(annotation, p, a);
    for (const std::string& out : {report.str(), annotation.str()}) {
        EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
        EXPECT_EQ(out.find('\x07'), std::string::npos) << out;
        EXPECT_NE(out.find("work\\x1b]0;pwned\\x07\\x1b[2J"), std::string::npos) << out;
    }
}

// --- files a profile names -----------------------------------------------------

// two_event_profile with its source file /src/app.c named `path`.
ProfileText with_source(const std::string& path)
{
    ProfileText p = test::two_event_profile();
    const std::string quoted = boost::json::serialize(boost::json::value(path));
    // Strings stay sorted when `path` starts with '/' (before "???").
    p.set("strs", R"(["/lib/libc.so.6",)" + quoted + R"(,"/usr/bin/app","???",)"
                  R"("helper","main","memset","work"])");
    return p;
}

std::string annotate_all(const ProfileText& p, bool trust = false)
{
    cli::AnnotateOptions a;
    a.profile = "p.json";
    a.all = true;
    a.trust_profile = trust;
    std::ostringstream out;
    cli::write_annotation(out, test::load(p), a);
    return out.str();
}

TEST(HostileFiles, TheEnvironmentOfTheProcessIsNeverPrinted)
{
    ::setenv("VGPROF_TEST_SECRET_TOKEN", "hunter2-not-for-logs", 1);
    for (const bool trust : {false, true}) {
        const std::string out = annotate_all(with_source("/proc/self/environ"), trust);
        EXPECT_EQ(out.find("hunter2-not-for-logs"), std::string::npos) << out;
        EXPECT_NE(out.find("note: source file skipped: /proc/self/environ: not read: files in "
                           "/proc are never read for a profile"),
                  std::string::npos)
            << out;
    }
    ::unsetenv("VGPROF_TEST_SECRET_TOKEN");
}

TEST(HostileFiles, AFileOutsideTheAllowedPlacesIsReadOnlyWhenTheProfileIsTrusted)
{
    // The scratch directory is neither the current directory nor below it.
    ScratchDir dir;
    const std::string secret = dir.write("home/.ssh/id_rsa", "PRIVATE KEY\n");
    const std::string plain = dir.write("home/notes.txt", "PRIVATE NOTE\n");
    for (const std::string& path : {secret, plain}) {
        const std::string out = annotate_all(with_source(path));
        EXPECT_EQ(out.find("PRIVATE"), std::string::npos) << out;
        EXPECT_NE(out.find("note: source file skipped: " + path + ": not read: outside"),
                  std::string::npos)
            << out;
        EXPECT_NE(annotate_all(with_source(path), true).find("PRIVATE"), std::string::npos);
    }
}

TEST(HostileFiles, AHiddenFileBelowAnAllowedPlaceIsNotRead)
{
    ScratchDir dir;
    dir.write("checkout/.git/config", "[http] extraheader = AUTHORIZATION: basic c2VjcmV0\n");
    dir.write("checkout/src/app.c", "int main() {}\n");
    SourceSearch search;
    search.dirs = {dir / "checkout"};
    EXPECT_EQ(find_source("src/app.c", search).found, dir / "checkout/src/app.c");
    const SourceLookup hidden = find_source(".git/config", search);
    EXPECT_TRUE(hidden.found.empty());
    EXPECT_NE(hidden.refused.find("a hidden file or directory"), std::string::npos) << hidden.refused;
}

TEST(HostileFiles, AFifoNamedAsASourceDoesNotBlockTheReader)
{
    ScratchDir dir;
    const std::string fifo = dir / "app.c";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    SourceSearch search;
    search.trust_profile = true;
    auto read = std::async(std::launch::async, [&] {
        try {
            read_source(fifo, search);
            return std::string("read");
        } catch (const Error& e) {
            return std::string(e.what());
        }
    });
    const bool answered = read.wait_for(std::chrono::seconds(5)) == std::future_status::ready;
    if (!answered) {
        // Let the reader go: a writer that closes at once ends its read.
        const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0)
            ::close(fd);
    }
    EXPECT_TRUE(answered) << "reading a FIFO blocked";
    EXPECT_NE(read.get().find("not read: a FIFO, not a regular file"), std::string::npos);
}

// --- programs run -------------------------------------------------------------

// Sets an environment variable for the life of the object.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value) : name_(name)
    {
        if (const char* old = std::getenv(name))
            old_ = old;
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv()
    {
        if (old_)
            ::setenv(name_, old_->c_str(), 1);
        else
            ::unsetenv(name_);
    }

private:
    const char* name_;
    std::optional<std::string> old_;
};

TEST(HostilePrograms, FindingRustsSourcesRunsNoRustcOfThePath)
{
    // A checkout's rust-toolchain.toml makes rustup run the toolchain it
    // names: here, whatever `rustc` comes first on PATH.
    ScratchDir dir;
    const std::string marker = dir / "rustc-ran";
    const std::string fake = dir.write("bin/rustc", "#!/bin/sh\ntouch " + marker + "\n");
    ::chmod(fake.c_str(), 0755);
    const char* path_before = std::getenv("PATH");
    ScopedEnv path("PATH", dir / "bin:" + (path_before ? path_before : "/usr/bin:/bin"));
    installed_rust_library_dirs("59807616e1fa2540724bfbac14d7976d7e4a3860");
    struct stat st;
    EXPECT_NE(::stat(marker.c_str(), &st), 0) << "a rustc of PATH was run";
}

TEST(HostilePrograms, RustsSourcesComeFromTheRustupToolchainOfTheProfilesCommitFirst)
{
    ScratchDir dir;
    for (const auto& [name, commit] : {std::pair{"stable", "59807616e"}, std::pair{"old", "90b35a623"}}) {
        const std::string t = std::string("rustup/toolchains/") + name;
        dir.write(t + "/lib/rustlib/src/rust/library/core/src/lib.rs", "x\n");
        dir.write(t + "/lib/rustlib/multirust-channel-manifest.toml",
                  std::string("[pkg.cargo]\nversion = \"0.1 (aaaaaaaaa 2026-01-01)\"\n\n"
                              "[pkg.rust]\nversion = \"1.0.0 (") + commit + " 2026-04-14)\"\n");
    }
    ScopedEnv rustup("RUSTUP_HOME", dir / "rustup");
    ScopedEnv src("RUST_SRC_PATH", "");
    const std::vector<std::string> old_first =
        installed_rust_library_dirs("90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf");
    ASSERT_GE(old_first.size(), 2u);
    EXPECT_EQ(old_first[0], dir / "rustup/toolchains/old/lib/rustlib/src/rust/library");
    EXPECT_EQ(old_first[1], dir / "rustup/toolchains/stable/lib/rustlib/src/rust/library");
    const std::vector<std::string> stable_first =
        installed_rust_library_dirs("59807616e1fa2540724bfbac14d7976d7e4a3860");
    ASSERT_GE(stable_first.size(), 2u);
    EXPECT_EQ(stable_first[0], dir / "rustup/toolchains/stable/lib/rustlib/src/rust/library");
}

// Runs `f` in directory `dir`, back in the current one after.
template <typename F>
auto in_directory(const std::string& dir, F f)
{
    const std::filesystem::path here = std::filesystem::current_path();
    std::filesystem::current_path(dir);
    struct Back {
        std::filesystem::path to;
        ~Back() { std::filesystem::current_path(to); }
    } back{here};
    return f();
}

TEST(HostilePrograms, AnObjectPathStartingWithAnAtIsAFileNotObjdumpsOptions)
{
    // objdump reads "@obj" as the options in the file "obj".
    ScratchDir dir;
    std::filesystem::copy_file("/bin/true", dir / "@obj");
    dir.write("obj", "--version\n");
    const Disassembly code = in_directory(dir.path(), [] { return disassemble("@obj"); });
    EXPECT_FALSE(code.instructions.empty());
}

// --- sizes and counts ---------------------------------------------------------

TEST(HostileSizes, ADataObjectOfMoreBucketsThanTheToolMakesIsRefused)
{
    // 2^64-1 bytes wrapped the bucket count; 2^32 in 8-byte buckets asked
    // for 2^29 rows.
    for (const std::string& size : {std::string("18446744073709551615"), std::string("4294967296")}) {
        const std::string objects = R"([["heap",0,null,null,null,)" + size +
                                    R"(,8,800,400,40,100,10,1])"
                                    R"(,["global",null,5,0,4210688,64,8,300,100,10,0,0,0])"
                                    R"(,["stack",null,null,null,null,0,0,200,40,4,200,20,2]])";
        const std::string why = error_of([&] {
            parse_profile(test::with_data(test::data_json(objects)).str(), "p.json");
        });
        EXPECT_NE(why.find("p.json: data.objects[0]["), std::string::npos) << why;
        EXPECT_NE(why.find("bytes"), std::string::npos) << why;
    }
}

TEST(HostileSizes, ADataObjectOfTheMostBucketsIsAnnotatedRowByRow)
{
    // 4096 buckets of 8 bytes: the most the tool makes, each listed.
    const std::string objects = R"([["heap",0,null,null,null,32768,8,800,400,40,100,10,1])"
                                R"(,["global",null,5,0,4210688,64,8,300,100,10,0,0,0])"
                                R"(,["stack",null,null,null,null,0,0,200,40,4,200,20,2]])";
    const Profile p = parse_profile(test::with_data(test::data_json(objects)).str(), "p.json");
    cli::AnnotateOptions a;
    a.profile = "p.json";
    a.data = "site:0";
    a.all = true;
    std::ostringstream out;
    cli::write_data_annotation(out, p, a);
    // The last bucket's row ends with its offset (no bar: nothing counted).
    EXPECT_NE(out.str().find(" 32760\n"), std::string::npos) << out.str().substr(0, 2000);
}

} // namespace
} // namespace vgprof
