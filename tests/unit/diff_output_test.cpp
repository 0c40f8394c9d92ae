// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of `vgprof diff`'s outputs and verdicts (cli/commands.hpp's
// write_diff and write_suite_diff): the text, Markdown, JSON and GitHub
// formats of one benchmark, suites of benchmarks paired from directories
// or a list, refusing profiles that do not compare, per-function and
// combined limits, derived events and --sort, on the fixtures of
// diff_fixture.hpp.
#include "diff_fixture.hpp"
#include "error_of.hpp"
#include "scratch_dir.hpp"

#include "cli/commands.hpp"
#include "vgprof/error.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <sstream>

namespace vgprof {
namespace {

using test::load;
using test::ProfileText;

struct Outcome {
    int status;
    std::string output;
};

cli::DiffOptions options(const std::string& fail = "", const std::string& format = "text")
{
    cli::DiffOptions o;
    o.fail_above = fail;
    o.format = format;
    return o;
}

Outcome run(const ProfileText& base, const ProfileText& now, const cli::DiffOptions& o)
{
    std::ostringstream out;
    const int status = cli::write_diff(out, load(base), load(now), o);
    return {status, out.str()};
}

const std::string kRule = std::string(80, '-') + "\n";
const std::string kNoFingerprint =
    "neither profile has a fingerprint (format version 7), so their environments, working "
    "directories and Valgrind options were not compared";

TEST(DiffOutput, TextListsTotalsChangedFunctionsTheirLinesAndTheResult)
{
    const Outcome r = run(test::two_event_profile(), test::heavier_profile(), options("Ir=+1%"));
    EXPECT_EQ(r.status, cli::kExitThresholdExceeded);
    EXPECT_EQ(r.output, kRule +
                            "Benchmark:            new\n"
                            "Base:                 base.json\n"
                            "New:                  new.json\n"
                            "Command:              ./app -n 3\n"
                            "Metrics compared:     Ir Dr\n"
                            "Fail above:           Ir=+1%\n"
                            "warning: " + kNoFingerprint + "\n" +
                            kRule +
                            "metric    base     new  change  change %\n"
                            "Ir      10,000  10,200    +200    +2.00%\n"
                            "Dr       5,000   5,000       0     0.00%\n" +
                            kRule +
                            "Changed functions by Ir self: 1 (showing 1)\n"
                            "Ir self base  Ir self new  change  change %  function (file)  "
                            "[object]\n"
                            "       8,000        8,200    +200    +2.50%  work (/src/app.c)  "
                            "[/usr/bin/app]\n"
                            "                                               changed most at "
                            "/src/app.c:4 +200\n" +
                            kRule +
                            "FAIL: Ir total +200 (+2.00%, 10,000 -> 10,200) exceeds Ir=+1%\n"
                            "      rose in work +200, at /src/app.c:4 +200\n"
                            "Result: fail\n");
}

TEST(DiffOutput, MarkdownNamesTheBenchmarkAndThresholdsAndLeavesOutWhatDidNotChange)
{
    const Outcome r = run(test::two_event_profile(), test::heavier_profile(),
                          options("Ir=+1%", "markdown"));
    EXPECT_EQ(r.status, cli::kExitThresholdExceeded);
    EXPECT_EQ(r.output,
              "### vgprof diff: :x: fail\n\n"
              "Thresholds: --fail-above `Ir=+1%`.\n\n"
              "| benchmark | result | metric | base | new | change | change % | exceeded |\n"
              "| --- | --- | --- | ---: | ---: | ---: | ---: | --- |\n"
              "| `new` | :x: fail | Ir | 10,000 | 10,200 | +200 | +2.00% | Ir +2.00% |\n\n"
              "#### :x: `new`: fail\n\n"
              "Base `base.json`, new `new.json`, command `./app -n 3`.\n\n"
              "> :warning: " + kNoFingerprint + "\n\n"
              "- **FAIL** Ir total +200 (+2.00%, 10,000 -> 10,200) exceeds Ir=+1%; rose in work "
              "+200, at /src/app.c:4 +200\n\n"
              "| metric | base | new | change | change % |\n"
              "| --- | ---: | ---: | ---: | ---: |\n"
              "| Ir | 10,000 | 10,200 | +200 | +2.00% |\n"
              "\n**Top changed functions** by Ir self (1 of 1 changed):\n\n"
              "| function | file | object | Ir self base | Ir self new | change | change % | "
              "changed most at |\n"
              "| --- | --- | --- | ---: | ---: | ---: | ---: | --- |\n"
              "| `work` | /src/app.c | /usr/bin/app | 8,000 | 8,200 | +200 | +2.50% | "
              "/src/app.c:4 +200 |\n\n"
              "**0 without regressions; 1 regressed**\n");
}

TEST(DiffOutput, MarkdownOfIdenticalProfilesNamesTheBenchmarkAndNoMore)
{
    const Outcome r = run(test::two_event_profile(), test::two_event_profile(),
                          options("", "markdown"));
    EXPECT_EQ(r.status, cli::kExitOk);
    EXPECT_EQ(r.output,
              "### vgprof diff: :white_check_mark: ok\n\n"
              "Thresholds: none.\n\n"
              "| benchmark | result | metric | base | new | change | change % | exceeded |\n"
              "| --- | --- | --- | ---: | ---: | ---: | ---: | --- |\n"
              "| `new` | :white_check_mark: ok | Ir | 10,000 | 10,000 | 0 | 0.00% |  |\n\n"
              "**1 without regressions; 0 regressed**\n");
}

TEST(DiffOutput, GithubAnnotatesTheLinesWhereTheCostRose)
{
    cli::DiffOptions o = options("Ir=+1%", "github");
    o.strip_prefixes = {"/src/"};
    const Outcome r = run(test::two_event_profile(), test::heavier_profile(), o);
    EXPECT_EQ(r.status, cli::kExitThresholdExceeded);
    EXPECT_EQ(r.output,
              "::error title=vgprof%3A new::Ir total +200 (+2.00%25, 10,000 -> 10,200) exceeds "
              "Ir=+1%25\n"
              "::error file=app.c,line=4,title=vgprof%3A new::Ir self of work +200 (+2.50%25), "
              "part of: Ir total +200 (+2.00%25, 10,000 -> 10,200) exceeds Ir=+1%25; changed "
              "most at app.c:4 +200\n"
              "new: fail\n"
              "0 without regressions; 1 regressed\n");
}

TEST(DiffOutput, GithubGivesAMovedFunctionANotice)
{
    cli::DiffOptions o = options("", "github");
    o.strip_prefixes = {"/src/"};
    const Outcome r = run(test::two_event_profile(), test::moved_helper_profile(), o);
    EXPECT_EQ(r.status, cli::kExitOk);
    EXPECT_EQ(r.output,
              "::notice file=util.c,line=40,title=vgprof%3A new::helper moved from app.c:20, "
              "compared as the same function\n"
              "new: ok\n"
              "1 without regressions; 0 regressed\n");
}

// --strip-prefix takes whole components, as report and annotate do: with
// or without its trailing '/', and never part of a name.
TEST(DiffOutput, StripPrefixTakesWholeComponents)
{
    const auto github = [](const std::string& prefix) {
        cli::DiffOptions o = options("Ir=+1%", "github");
        o.strip_prefixes = {prefix};
        return run(test::two_event_profile(), test::heavier_profile(), o).output;
    };
    EXPECT_EQ(github("/src"), github("/src/"));
    EXPECT_NE(github("/src").find("::error file=app.c,line=4,"), std::string::npos)
        << github("/src");
    // "/src/ap" ends inside "app.c": the paths stay whole.
    EXPECT_NE(github("/src/ap").find("::error file=/src/app.c,line=4,"), std::string::npos)
        << github("/src/ap");
    EXPECT_NE(github("/src/ap").find("changed most at /src/app.c:4 +200"), std::string::npos)
        << github("/src/ap");
}

// The Rust toolchain's sources, remapped by rustc to /rustc/<commit>/, in
// place of /src/app.c.
test::ProfileText in_rust_toolchain(test::ProfileText p)
{
    p.set("strs", R"(["/lib/libc.so.6","/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/)"
                  R"(library/core/src/app.rs","/usr/bin/app","???","helper","main","memset","work"])");
    return p;
}

TEST(DiffOutput, RustToolchainPathsAreShortInTextAndNotWhereGithubPlacesAnnotations)
{
    const std::string whole =
        "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/app.rs";
    const std::string shown = "/rustc/59807616e/library/core/src/app.rs";
    const ProfileText base = in_rust_toolchain(test::two_event_profile());
    const ProfileText now = in_rust_toolchain(test::heavier_profile());

    // No pull request can show the toolchain's file: the annotation has no
    // place, its message still names the line.
    const Outcome github = run(base, now, options("Ir=+1%", "github"));
    EXPECT_EQ(github.output.find("file=/rustc"), std::string::npos) << github.output;
    EXPECT_NE(github.output.find("changed most at " + shown + ":4 +200"), std::string::npos)
        << github.output;

    const Outcome markdown = run(base, now, options("Ir=+1%", "markdown"));
    EXPECT_NE(markdown.output.find("| `work` | " + shown + " | /usr/bin/app | 8,000 | 8,200 |"),
              std::string::npos)
        << markdown.output;
    EXPECT_EQ(markdown.output.find(whole), std::string::npos) << markdown.output;

    const Outcome json = run(base, now, options("Ir=+1%", "json"));
    EXPECT_NE(json.output.find("\"file\":\"" + whole + "\""), std::string::npos) << json.output;
    EXPECT_EQ(json.output.find(shown), std::string::npos) << json.output;
}

// A rise in the C library's memset, which no change to it made: the gate
// names the program's own lines it came through, each with its part
// (build_payload's through the standard library's inlined code and calloc,
// main's own call), and GitHub places the annotation on the first.
TEST(DiffOutput, ARiseInALibraryIsNamedAtTheOwnLinesItCameThrough)
{
    const ProfileText base = test::calls_into_libc_profile(3000, 500);
    const ProfileText now = test::calls_into_libc_profile(6000, 800);
    const std::string through = "called through app::build_payload at /home/u/app/src/main.rs:17 "
                                "+3,000, app::main at /home/u/app/src/main.rs:41 +300";

    const Outcome text = run(base, now, options("Ir=+1%"));
    EXPECT_EQ(text.status, cli::kExitThresholdExceeded);
    EXPECT_NE(text.output.find("\n      rose in __memset_avx2_unaligned_erms +3,300, " + through +
                               "\n"),
              std::string::npos)
        << text.output;

    const Outcome github = run(base, now, options("Ir=+1%", "github"));
    EXPECT_NE(github.output.find("::error file=/home/u/app/src/main.rs,line=17,title=vgprof%3A "
                                 "new::Ir self of __memset_avx2_unaligned_erms +3,300"),
              std::string::npos)
        << github.output;
    EXPECT_NE(github.output.find(through + "\n"), std::string::npos) << github.output;

    const Outcome markdown = run(base, now, options("Ir=+1%", "markdown"));
    EXPECT_NE(markdown.output.find("rose in \\_\\_memset_avx2_unaligned_erms +3,300, " + through),
              std::string::npos)
        << markdown.output;

    const Outcome json = run(base, now, options("Ir=+1%", "json"));
    const boost::json::value caller = boost::json::parse(json.output)
                                          .at("benchmarks").at(0).at("failed").at(0)
                                          .at("risers").at(0).at("callers").at(0);
    EXPECT_EQ(caller.at("function").as_string(), "app::build_payload");
    EXPECT_EQ(caller.at("line").as_int64(), 17);
    EXPECT_EQ(caller.at("delta").as_int64(), 3000);
}

TEST(DiffOutput, MarkdownListsAMovedFunctionAsOneSentenceAndNoEmptyTable)
{
    cli::DiffOptions o = options("", "markdown");
    o.strip_prefixes = {"/src/"};
    const Outcome r = run(test::two_event_profile(), test::moved_helper_profile(), o);
    EXPECT_EQ(r.status, cli::kExitOk);
    EXPECT_NE(r.output.find("\nNo function's cost changed.\n\n**Moved or renamed** (compared as "
                            "the same function): `helper` moved from app.c:20 to `util.c:40`.\n"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("Top changed functions"), std::string::npos) << r.output;
}

TEST(DiffOutput, JsonHasAVersionTheCommandTheThresholdsAndAVerdictPerBenchmark)
{
    cli::DiffOptions o = options("Ir=+1%&+100", "json");
    o.warn_above = "Ir<=10100";
    o.command = {"vgprof", "diff", "base.json", "new.json"};
    const Outcome r = run(test::two_event_profile(), test::heavier_profile(), o);
    const boost::json::object j = boost::json::parse(r.output).as_object();
    EXPECT_EQ(j.at("version").as_int64(), 2);
    EXPECT_EQ(j.at("command").as_array().size(), 4u);
    EXPECT_EQ(j.at("status").as_string(), "fail");
    const auto& fail = j.at("thresholds").at("fail").as_array();
    ASSERT_EQ(fail.size(), 1u);
    EXPECT_EQ(fail[0].at("text").as_string(), "Ir=+1%&+100");
    EXPECT_EQ(fail[0].at("conditions").at(1).at("kind").as_string(), "absolute");
    EXPECT_EQ(fail[0].at("conditions").at(1).at("amount").as_int64(), 100);
    EXPECT_EQ(j.at("thresholds").at("warn").at(0).at("conditions").at(0).at("at_most").as_int64(),
              10100);
    EXPECT_EQ(j.at("summary").at("regressed").as_int64(), 1);
    const boost::json::object& b = j.at("benchmarks").at(0).as_object();
    EXPECT_EQ(b.at("name").as_string(), "new");
    EXPECT_EQ(b.at("status").as_string(), "fail");
    EXPECT_EQ(b.at("command").at(0).as_string(), "./app");
    const boost::json::object& ir = b.at("totals").at("Ir").as_object();
    EXPECT_EQ(ir.at("delta").to_number<int64_t>(), 200);
    EXPECT_DOUBLE_EQ(ir.at("relative").as_double(), 0.02);
    const auto& functions = b.at("functions").as_array();
    ASSERT_EQ(functions.size(), 1u);
    EXPECT_EQ(functions[0].at("name").as_string(), "work");
    EXPECT_EQ(functions[0].at("change").as_string(), "same");
    EXPECT_EQ(functions[0].at("lines").at(0).at("line").as_int64(), 4);
    EXPECT_EQ(b.at("failed").at(0).at("risers").at(0).at("name").as_string(), "work");
    EXPECT_EQ(b.at("warned").at(0).at("threshold").as_string(), "Ir<=10100");
}

TEST(DiffOutput, TopLimitsTheFunctionsShownAndUnchangedOnesAreNotListed)
{
    cli::DiffOptions o = options("", "json");
    o.top = 1;
    const Outcome r = run(test::two_event_profile(), test::shifted_profile(), o);
    const boost::json::object b = boost::json::parse(r.output).at("benchmarks").at(0).as_object();
    EXPECT_EQ(b.at("changed_functions").as_int64(), 2);  // helper and work; main and memset did not
    ASSERT_EQ(b.at("functions").as_array().size(), 1u);
}

TEST(DiffVerdict, ProfilesThatDoNotCompareAreRefusedUnlessForced)
{
    ProfileText other = test::two_event_profile();
    other.set_meta("argv", R"(["./app","-n","4"])");
    EXPECT_EQ(test::error_of([&] { run(test::two_event_profile(), other, options()); }),
              "base.json and new.json do not compare: the commands differ (base: ./app -n 3; new: "
              "./app -n 4) (--force compares them anyway)");
    cli::DiffOptions forced = options("Ir=+1%");
    forced.force = true;
    const Outcome r = run(test::two_event_profile(), other, forced);
    EXPECT_EQ(r.status, cli::kExitOk);
    EXPECT_NE(r.output.find("warning: compared anyway (--force), but the commands differ"),
              std::string::npos)
        << r.output;
}

TEST(DiffVerdict, PerFunctionLimitsFailOnTheFunctionAndNameItsLines)
{
    cli::DiffOptions o = options();
    o.function_fail_above = "Ir=+10%";
    const Outcome r = run(test::two_event_profile(), test::shifted_profile(), o);
    EXPECT_EQ(r.status, cli::kExitThresholdExceeded);
    EXPECT_NE(r.output.find("FAIL: Ir self of helper (/src/app.c)  [/usr/bin/app] +100 (+25.00%, "
                            "400 -> 500) exceeds Ir=+10%\n"
                            "      changed most at /src/app.c:21 +100\n"),
              std::string::npos)
        << r.output;
    // Limited to other functions, or combined with a count it does not
    // reach, the same rise passes.
    o.gate_functions = {"work", "main"};
    EXPECT_EQ(run(test::two_event_profile(), test::shifted_profile(), o).status, cli::kExitOk);
    o.gate_functions.clear();
    o.function_fail_above = "Ir=+10%&+1000";
    EXPECT_EQ(run(test::two_event_profile(), test::shifted_profile(), o).status, cli::kExitOk);
    // --per-function applies --fail-above to the functions as well.
    cli::DiffOptions both = options("Ir=+10%");
    EXPECT_EQ(run(test::two_event_profile(), test::shifted_profile(), both).status, cli::kExitOk);
    both.per_function = true;
    EXPECT_EQ(run(test::two_event_profile(), test::shifted_profile(), both).status,
              cli::kExitThresholdExceeded);
}

TEST(DiffVerdict, WarnThresholdsReportButKeepTheStatus)
{
    const Outcome r = run(test::two_event_profile(), test::heavier_profile(),
                          [] { cli::DiffOptions o; o.warn_above = "Ir=+1%"; return o; }());
    EXPECT_EQ(r.status, cli::kExitOk);
    EXPECT_NE(r.output.find("WARN: Ir total +200 (+2.00%, 10,000 -> 10,200) exceeds Ir=+1%"),
              std::string::npos);
    EXPECT_NE(r.output.find("Result: warn"), std::string::npos);
}

TEST(DiffVerdict, SortRanksTheFunctionsByAnotherMetric)
{
    test::TwoEventLines l;
    l.helper_first = 400;
    l.work_second = 2900;
    l.memset_dr = 4000;
    cli::DiffOptions o = options();
    o.sort = "Dr";
    const Outcome r = run(test::two_event_profile(), test::with_lines(test::two_event_profile(), l), o);
    EXPECT_NE(r.output.find("Changed functions by Dr self: 1 (showing 1)\n"
                            "Dr self base  Dr self new  change  change %  function (file)  "
                            "[object]\n"
                            "       3,990        4,000     +10    +0.25%  memset  "
                            "[/lib/libc.so.6]\n"),
              std::string::npos)
        << r.output;
    o.sort = "D1mr";
    EXPECT_EQ(test::error_of([&] { run(test::two_event_profile(), test::two_event_profile(), o); }),
              "--sort D1mr: no such metric in both profiles (compared: Ir Dr)");
}

TEST(DiffVerdict, DerivedEventsCanBeGatedAndRedefined)
{
    // work misses D1 100 more times on reads: L1hits -100, LLhits +100,
    // so EstimatedCycles rises by 5*100 - 100 = 400, from 17700 to 18100
    // (+2.26%).
    ProfileText more_misses = test::cache_profile();
    more_misses.set("lines", std::string("[[0,1,11,") + test::kMainCosts +
                                 "],[1,1,4,8000,80,8,2000,200,20,1000,50,10,1000,50,100,25]]");
    more_misses.set_meta("totals", "[10000,100,10,2000,200,20,2000,200,40,1000,50,100,25]");
    cli::DiffOptions o = options("EstimatedCycles=+2%", "json");
    Outcome r = run(test::cache_profile(), more_misses, o);
    EXPECT_EQ(r.status, cli::kExitThresholdExceeded);
    const boost::json::value j = boost::json::parse(r.output);
    const auto& cycles = j.at("benchmarks").at(0).at("totals").at("EstimatedCycles");
    EXPECT_EQ(cycles.at("base").to_number<uint64_t>(), 17700u);
    EXPECT_EQ(cycles.at("new").to_number<uint64_t>(), 18100u);
    EXPECT_EQ(run(test::cache_profile(), more_misses, options("EstimatedCycles=+3%")).status,
              cli::kExitOk);
    // With the L1 weighing 1 more per miss, CEst rises by 100 * 11 = 1100.
    o.fail_above = "CEst=+1100";
    o.derive = {"CEst=Ir+11*L1m+100*LLm+10*Bm?"};
    EXPECT_EQ(run(test::cache_profile(), more_misses, o).status, cli::kExitOk);
    o.fail_above = "CEst=+1099";
    EXPECT_EQ(run(test::cache_profile(), more_misses, o).status, cli::kExitThresholdExceeded);
    o.derive.clear();
    o.derived = true;
    o.fail_above.clear();
    r = run(test::cache_profile(), more_misses, o);
    const boost::json::value all = boost::json::parse(r.output);
    EXPECT_EQ(all.at("benchmarks").at(0).at("metrics").as_array().size(), 13u + 9u);
}

// --- suites ------------------------------------------------------------------------

struct SuiteOutcome {
    int status;
    std::string output, errors;
};

SuiteOutcome run_suite(const test::ScratchDir& dir, const cli::DiffOptions& o)
{
    std::vector<std::string> only_base, only_new;
    const auto pairs = cli::pair_directories(dir / "base", dir / "new", only_base, only_new);
    std::ostringstream out, errors;
    const int status = cli::write_suite_diff(out, errors, pairs, only_base, only_new, o);
    return {status, out.str(), errors.str()};
}

TEST(DiffSuite, DirectoriesArePairedByNameIntoOneTableAndOneVerdict)
{
    test::ScratchDir dir;
    dir.write("base/heavy.json", test::two_event_profile().str());
    dir.write("new/heavy.json", test::heavier_profile().str());
    dir.write("base/same.json", test::two_event_profile().str());
    dir.write("new/same.json", test::two_event_profile().str());
    dir.write("base/gone.json", test::two_event_profile().str());
    dir.write("new/added.json", test::two_event_profile().str());
    dir.write("new/notes.txt", "not a profile");
    const SuiteOutcome r = run_suite(dir, options("Ir=+1%"));
    EXPECT_EQ(r.status, cli::kExitThresholdExceeded);
    EXPECT_EQ(r.errors, "");
    const std::string table =
        std::string(80, '=') + "\n"
        "benchmark  result  metric    base     new  change  change %  exceeded\n"
        "heavy      fail    Ir      10,000  10,200    +200    +2.00%  Ir +2.00%\n"
        "same       ok      Ir      10,000  10,000       0     0.00%\n"
        "gone: only in base, not compared\n"
        "added: only in new, not compared\n"
        "1 without regressions; 1 regressed; 1 only in base; 1 only in new\n";
    ASSERT_GE(r.output.size(), table.size());
    EXPECT_EQ(r.output.substr(r.output.size() - table.size()), table) << r.output;
    // Details come for the benchmark that changed, not for the one that did not.
    EXPECT_NE(r.output.find("Benchmark:            heavy\n"), std::string::npos);
    EXPECT_EQ(r.output.find("Benchmark:            same\n"), std::string::npos);
}

TEST(DiffSuite, BenchmarksOnOneSideOnlyAreAnnotatedAndEndTheMarkdownList)
{
    test::ScratchDir dir;
    dir.write("base/same.json", test::two_event_profile().str());
    dir.write("new/same.json", test::two_event_profile().str());
    dir.write("base/gone.json", test::two_event_profile().str());
    dir.write("new/added.json", test::two_event_profile().str());
    SuiteOutcome r = run_suite(dir, options("Ir=+1%", "github"));
    EXPECT_EQ(r.status, cli::kExitOk);
    EXPECT_EQ(r.output,
              "::warning title=vgprof%3A gone::only in base, not compared: no profile of this "
              "benchmark in NEW\n"
              "::notice title=vgprof%3A added::only in new, not compared: no profile of this "
              "benchmark in BASE\n"
              "same: ok\n"
              "1 without regressions; 0 regressed; 1 only in base; 1 only in new\n");
    r = run_suite(dir, options("Ir=+1%", "markdown"));
    const std::string end = "- `added`: only in new, not compared\n\n"
                            "**1 without regressions; 0 regressed; 1 only in base; 1 only in "
                            "new**\n";
    ASSERT_GE(r.output.size(), end.size());
    EXPECT_EQ(r.output.substr(r.output.size() - end.size()), end) << r.output;
}

TEST(DiffSuite, ABenchmarkThatCannotBeComparedIsReportedAndMakesTheStatus2)
{
    test::ScratchDir dir;
    dir.write("base/good.json", test::two_event_profile().str());
    dir.write("new/good.json", test::two_event_profile().str());
    dir.write("base/bad.json", test::two_event_profile().str());
    dir.write("new/bad.json", "{\"vgprof\":");
    const SuiteOutcome r = run_suite(dir, options("Ir=+1%", "json"));
    EXPECT_EQ(r.status, cli::kExitBadInput);
    EXPECT_EQ(r.errors.rfind("vgprof: bad: " + dir / "new/bad.json" + ": ", 0), 0u) << r.errors;
    const boost::json::value j = boost::json::parse(r.output);
    EXPECT_EQ(j.at("status").as_string(), "error");
    EXPECT_EQ(j.at("summary").at("text").as_string(), "1 without regressions; 0 regressed; 1 not compared");
    EXPECT_EQ(j.at("benchmarks").at(0).at("name").as_string(), "bad");
    EXPECT_EQ(j.at("benchmarks").at(0).at("status").as_string(), "error");
}

TEST(DiffSuite, DirectoriesWithoutACommonProfileAreAnError)
{
    test::ScratchDir dir;
    dir.write("base/a.json", test::two_event_profile().str());
    dir.write("new/b.json", test::two_event_profile().str());
    std::vector<std::string> only_base, only_new;
    EXPECT_EQ(test::error_of([&] { cli::pair_directories(dir / "base", dir / "new", only_base, only_new); }),
              dir / "base" + " and " + dir / "new" +
                  ": no profile of the same name in both (profiles are files ending in .json, "
                  ".json.gz or .json.zst)");
}

TEST(DiffSuite, APairsFileNamesBenchmarksOrNamesThemAfterTheNewProfile)
{
    test::ScratchDir dir;
    const std::string list = dir.write("pairs", "# base new\n"
                                                "hash a/h.json b/h.json\n"
                                                "\n"
                                                "a/sort.json.gz b/sort.json.gz  # compressed\n");
    const auto pairs = cli::read_pairs_file(list);
    ASSERT_EQ(pairs.size(), 2u);
    EXPECT_EQ(pairs[0].name, "hash");
    EXPECT_EQ(pairs[0].base, "a/h.json");
    EXPECT_EQ(pairs[1].name, "sort");
    EXPECT_EQ(pairs[1].now, "b/sort.json.gz");
    const std::string bad = dir.write("bad", "one two three four\n");
    EXPECT_EQ(test::error_of([&] { cli::read_pairs_file(bad); }),
              bad + ":1: expected BASE NEW or NAME BASE NEW, got 4 words");
}

} // namespace
} // namespace vgprof
