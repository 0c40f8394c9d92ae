// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of load_profile/parse_profile: what a valid profile turns
// into, and the exact message for each way a profile can be wrong
// (docs/profile-format.md, "Invariants a reader checks").
#include "error_of.hpp"
#include "profile_text.hpp"
#include "report_fixture.hpp"

#include "vgprof/error.hpp"
#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <tuple>
#include <unistd.h>

namespace vgprof {
namespace {

using test::ProfileText;

// The message parse_profile gives for `text`, read as if from "p.json".
// Any exception other than vgprof::Error escapes and fails the test.
std::string load_error(const std::string& text)
{
    try {
        parse_profile(text, "p.json");
    } catch (const Error& e) {
        return e.what();
    }
    return "(loaded without error)";
}

std::string load_error(const ProfileText& profile) { return load_error(profile.str()); }

// --- valid profiles ----------------------------------------------------------

TEST(LoadProfile, FormatDocSampleLoadsWithEveryTable)
{
    const Profile p = parse_profile(ProfileText().str(), "p.json");

    const Meta& m = p.meta();
    EXPECT_EQ(m.version, 2);
    EXPECT_EQ(m.tool, "vgprof");
    EXPECT_EQ(m.tool_version, "0.1.0");
    EXPECT_EQ(m.valgrind, "3.19.0");
    EXPECT_EQ(m.argv, (std::vector<std::string>{"./app", "-n", "3"}));
    EXPECT_EQ(m.options, (std::vector<std::string>{"--vgprof-out-file=p.json"}));
    EXPECT_EQ(m.events, (std::vector<std::string>{"Ir"}));
    EXPECT_EQ(m.totals, (std::vector<uint64_t>{2485947}));
    EXPECT_EQ(m.exit_code, 0);
    EXPECT_EQ(m.pid, 4242);
    EXPECT_EQ(m.ppid, 4241);
    EXPECT_EQ(m.elapsed_ms, 311);

    EXPECT_EQ(p.num_events(), 1u);
    EXPECT_EQ(p.event_index("Ir"), 0u);
    EXPECT_EQ(p.event_index("Dr"), std::nullopt);

    EXPECT_EQ(p.strs().size(), 5u);
    EXPECT_EQ(p.obj_path(ObjId(0)), "/usr/bin/app");
    EXPECT_EQ(p.file_path(FileId(0)), "???");
    EXPECT_EQ(p.file_path(FileId(1)), "/src/app.c");

    ASSERT_EQ(p.functions().size(), 2u);
    const Function& work = p.functions()[1];
    EXPECT_EQ(p.str(work.name), "work");
    EXPECT_EQ(work.file, FileId(1));
    EXPECT_EQ(work.obj, ObjId(0));
    EXPECT_EQ(work.line, 3u);
    EXPECT_EQ(p.fn_name(FnId(0)), "main");

    ASSERT_EQ(p.lines().size(), 2u);
    EXPECT_EQ(p.lines()[1].fn, FnId(1));
    EXPECT_EQ(p.lines()[1].file, FileId(1));
    EXPECT_EQ(p.lines()[1].line, 4u);
    EXPECT_EQ(p.line_cost(0)[0], 1200u);
    EXPECT_EQ(p.line_cost(1)[0], 2484747u);

    ASSERT_EQ(p.instrs().size(), 1u);
    EXPECT_EQ(p.instrs()[0].addr, 4198694u);
    EXPECT_EQ(p.instrs()[0].fn, FnId(1));
    EXPECT_EQ(p.instrs()[0].line, 4u);
    EXPECT_EQ(p.instr_cost(0)[0], 3u);
}

TEST(LoadProfile, FormatDocSampleCallGraphLoadsCallsInclusiveCostsAndPaths)
{
    const Profile p = parse_profile(ProfileText().str(), "p.json");
    ASSERT_TRUE(p.has_call_graph());

    ASSERT_EQ(p.calls().size(), 1u);
    const CallEdge& call = p.calls()[0];
    EXPECT_EQ(call.caller, FnId(0));
    EXPECT_EQ(call.callee, FnId(1));
    EXPECT_EQ(call.file, FileId(1));
    EXPECT_EQ(call.line, 12u);
    EXPECT_EQ(call.count, 1u);
    EXPECT_EQ(p.call_cost(0)[0], 2484747u);

    ASSERT_NE(p.fn_inclusive(FnId(0)), nullptr);
    EXPECT_EQ(p.fn_inclusive(FnId(0))[0], 2485947u);
    EXPECT_EQ(p.fn_inclusive(FnId(1))[0], 2484747u);

    ASSERT_EQ(p.paths().size(), 2u);
    EXPECT_EQ(p.paths()[0].parent, std::nullopt);
    EXPECT_EQ(p.paths()[0].fn, FnId(0));
    EXPECT_EQ(p.paths()[0].count, 0u);
    EXPECT_EQ(p.path_self(0)[0], 1200u);
    EXPECT_EQ(p.path_inclusive(0)[0], 2485947u);
    EXPECT_EQ(p.paths()[1].parent, PathId(0));
    EXPECT_EQ(p.path(PathId(1)).fn, FnId(1));
    EXPECT_EQ(p.paths()[1].count, 1u);
    EXPECT_EQ(p.path_self(1)[0], 2484747u);
    EXPECT_EQ(p.path_inclusive(1)[0], 2484747u);
}

// Version 8: main calls work from two instructions of line 12, once each.
ProfileText two_call_instructions()
{
    return ProfileText()
        .set("vgprof", "8")
        .set("calls", "[[0,1,1,12,4198689,1,1000000],[0,1,1,12,4198700,1,1484747]]")
        .set("paths", "[[null,0,0,1200,2485947],[0,1,2,2484747,2484747]]");
}

TEST(LoadProfile, Version8CallsNameTheirInstructionAfterTheLine)
{
    const Profile p = parse_profile(two_call_instructions().str(), "p.json");
    ASSERT_EQ(p.calls().size(), 2u);
    EXPECT_EQ(p.calls()[0].line, 12u);
    EXPECT_EQ(p.calls()[0].addr, 4198689u);
    EXPECT_EQ(p.calls()[0].count, 1u);
    EXPECT_EQ(p.call_cost(0)[0], 1000000u);
    EXPECT_EQ(p.calls()[1].addr, 4198700u);
    EXPECT_EQ(p.call_cost(1)[0], 1484747u);
}

TEST(LoadProfile, CallsBeforeVersion8HaveNoInstruction)
{
    const Profile p = parse_profile(ProfileText().set("vgprof", "7").str(), "p.json");
    ASSERT_EQ(p.calls().size(), 1u);
    EXPECT_EQ(p.calls()[0].addr, 0u);
    EXPECT_EQ(p.calls()[0].count, 1u);
}

TEST(LoadProfile, CallGraphCostsOfSeveralEventsAreStoredPerRowInEventOrder)
{
    // Dr: main 30 + work 40; a path row is [parent, fn, count, self Ir, self Dr, incl Ir, incl Dr].
    const Profile p = parse_profile(
        ProfileText()
            .set_meta("events", R"(["Ir","Dr"])")
            .set_meta("totals", "[2485947,70]")
            .set("lines", "[[0,1,11,1200,30],[1,1,4,2484747,40]]")
            .drop("instrs")
            .set("calls", "[[0,1,1,12,1,2484747,40]]")
            .set("inclusive", "[[0,2485947,70],[1,2484747,40]]")
            .set("paths", "[[null,0,0,1200,30,2485947,70],[0,1,1,2484747,40,2484747,40]]")
            .str(),
        "p.json");
    EXPECT_EQ(p.call_cost(0)[1], 40u);
    EXPECT_EQ(p.fn_inclusive(FnId(0))[1], 70u);
    EXPECT_EQ(p.path_self(0)[0], 1200u);
    EXPECT_EQ(p.path_self(0)[1], 30u);
    EXPECT_EQ(p.path_inclusive(0)[0], 2485947u);
    EXPECT_EQ(p.path_inclusive(0)[1], 70u);
    EXPECT_EQ(p.path_self(1)[1], 40u);
    EXPECT_EQ(p.path_inclusive(1)[1], 40u);
}

TEST(LoadProfile, ProfileWithoutCallGraphHasNoCallsPathsOrInclusiveCosts)
{
    // What the tool writes with --call-graph=no.
    const Profile p = parse_profile(ProfileText().drop_call_graph().str(), "p.json");
    EXPECT_FALSE(p.has_call_graph());
    EXPECT_TRUE(p.calls().empty());
    EXPECT_TRUE(p.paths().empty());
    EXPECT_EQ(p.fn_inclusive(FnId(0)), nullptr);
}

TEST(LoadProfile, Version1ProfileStillLoadsWithoutACallGraph)
{
    const Profile p =
        parse_profile(ProfileText().set("vgprof", "1").drop_call_graph().str(), "p.json");
    EXPECT_EQ(p.meta().version, 1);
    EXPECT_EQ(p.lines().size(), 2u);
    EXPECT_FALSE(p.has_call_graph());
}

TEST(LoadProfile, FunctionThatNeverRanHasNoInclusiveCost)
{
    // fn 1 (work) gets no inclusive row: main ran alone.
    const Profile p = parse_profile(ProfileText()
                                        .set("lines", "[[0,1,11,1200]]")
                                        .set_meta("totals", "[1200]")
                                        .drop("instrs")
                                        .set("calls", "[]")
                                        .set("inclusive", "[[0,1200]]")
                                        .set("paths", "[[null,0,0,1200,1200]]")
                                        .str(),
                                    "p.json");
    ASSERT_NE(p.fn_inclusive(FnId(0)), nullptr);
    EXPECT_EQ(p.fn_inclusive(FnId(1)), nullptr);
}

TEST(LoadProfile, TruncatedNodeCarriesTheCostsOfTheCallsGatheredInIt)
{
    // work's node replaced by [truncated] (null fn) below main.
    const Profile p =
        parse_profile(ProfileText().set("paths", "[[null,0,0,1200,2485947],[0,null,1,2484747,2484747]]").str(),
                      "p.json");
    EXPECT_EQ(p.paths()[1].fn, std::nullopt);
    EXPECT_EQ(p.paths()[1].parent, PathId(0));
    EXPECT_EQ(p.path_inclusive(1)[0], 2484747u);
}

TEST(LoadProfile, CostsOfSeveralEventsAreStoredPerRowInEventOrder)
{
    const Profile p = parse_profile(ProfileText()
                                        .set_meta("events", R"(["Ir","Dr"])")
                                        .set_meta("totals", "[2485947,70]")  // Dr: 30 + 40
                                        .set("lines", "[[0,1,11,1200,30],[1,1,4,2484747,40]]")
                                        .set("instrs", "[[4198694,1,1,4,3,1]]")
                                        .drop_call_graph()
                                        .str(),
                                    "p.json");
    EXPECT_EQ(p.event_index("Dr"), 1u);
    EXPECT_EQ(p.line_cost(1)[0], 2484747u);
    EXPECT_EQ(p.line_cost(1)[1], 40u);
    EXPECT_EQ(p.instr_cost(0)[1], 1u);
}

TEST(LoadProfile, InstrsTableIsOptional)
{
    const Profile p = parse_profile(ProfileText().drop("instrs").str(), "p.json");
    EXPECT_TRUE(p.instrs().empty());
}

TEST(LoadProfile, ReservedTopLevelKeysOfLaterVersionsAreIgnored)
{
    EXPECT_EQ(parse_profile(ProfileText().set("heap", "{}").str(), "p.json").lines().size(), 2u);
}

TEST(LoadProfile, Version1ProfileIgnoresCallsAndPathsAsItsReservedKeys)
{
    // Version 1 reserved "calls" and "paths" without saying what they hold,
    // so a version 1 profile's are not read as version 2's call graph.
    const Profile p = parse_profile(ProfileText()
                                        .set("vgprof", "1")
                                        .drop("inclusive")
                                        .set("calls", "[[0,1,1,11,1,2484747]]")
                                        .set("paths", "{}")
                                        .set("heap", "{}")
                                        .str(),
                                    "p.json");
    EXPECT_FALSE(p.has_call_graph());
    EXPECT_TRUE(p.calls().empty());
}

TEST(LoadProfile, FactsInsideRunAndExitAreOptional)
{
    const Profile p =
        parse_profile(ProfileText().set_meta("run", "{}").set_meta("exit", "{}").str(), "p.json");
    EXPECT_EQ(p.meta().pid, std::nullopt);
    EXPECT_EQ(p.meta().elapsed_ms, std::nullopt);
    EXPECT_EQ(p.meta().exit_code, std::nullopt);
}

TEST(LoadProfile, NegativeExitCodeIsKept)
{
    const Profile p = parse_profile(ProfileText().set_meta("exit", R"({"code":-1})").str(), "p.json");
    EXPECT_EQ(p.meta().exit_code, -1);
}

TEST(LoadProfile, KilledClientHasNoExitCode)
{
    const Profile p =
        parse_profile(ProfileText().set_meta("exit", R"({"killed":true})").str(), "p.json");
    EXPECT_TRUE(p.meta().killed);
    EXPECT_EQ(p.meta().exit_code, std::nullopt);
    EXPECT_FALSE(parse_profile(ProfileText().str(), "p.json").meta().killed);
    EXPECT_EQ(load_error(ProfileText().set_meta("exit", R"({"killed":true,"code":1})")),
              "p.json: meta.exit: a client killed by a signal has no exit code");
    EXPECT_EQ(load_error(ProfileText().set_meta("exit", R"({"killed":1})")),
              "p.json: meta.exit.killed: expected true or false, got 1");
}

TEST(LoadProfile, DumpTakenMidRunHasNoExitAndCarriesItsNumberAndLabel)
{
    const Profile p = parse_profile(ProfileText()
                                        .set_meta("exit", "null")
                                        .set_meta("dump", R"({"number":2,"label":"warm \"up\""})")
                                        .str(),
                                    "p.json");
    EXPECT_EQ(p.meta().exit_code, std::nullopt);
    EXPECT_EQ(p.meta().dump_number, 2);
    EXPECT_EQ(p.meta().dump_label, "warm \"up\"");
}

TEST(LoadProfileError, DumpWithoutANumberIsNamed)
{
    try {
        parse_profile(ProfileText().set_meta("dump", R"({"label":"x"})").str(), "p.json");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("meta.dump"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("number"), std::string::npos) << e.what();
    }
}

TEST(LoadProfile, Version7CarriesTheRunsFingerprint)
{
    const Profile p = parse_profile(
        ProfileText()
            .set("vgprof", "7")
            .set_meta("fingerprint", R"({"cwd":"/work","env_bytes":23,)"
                                     R"("env":[["PATH","4d40b1c759291a30"],["A","00"]],)"
                                     R"("valgrind_options":["-q"]})")
            .str(),
        "p.json");
    ASSERT_TRUE(p.meta().fingerprint);
    const Fingerprint& f = *p.meta().fingerprint;
    EXPECT_EQ(f.cwd, "/work");
    EXPECT_EQ(f.env_bytes, 23u);
    ASSERT_EQ(f.env.size(), 2u);
    EXPECT_EQ(f.env[0].name, "PATH");
    EXPECT_EQ(f.env[0].hash, "4d40b1c759291a30");
    EXPECT_EQ(f.env[1].name, "A");
    EXPECT_EQ(f.valgrind_options, std::vector<std::string>{"-q"});
    EXPECT_FALSE(parse_profile(ProfileText().str(), "p.json").meta().fingerprint);
}

TEST(LoadProfileError, AFingerprintIsVersion7AndMustHoldNamesAndHashes)
{
    const std::string fingerprint =
        R"({"cwd":"/w","env_bytes":1,"env":[["PATH"]],"valgrind_options":[]})";
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "6").set_meta("fingerprint", fingerprint)),
              "p.json: meta.fingerprint: not part of format version 6 (the fingerprint is "
              "version 7)");
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "7").set_meta("fingerprint", fingerprint)),
              "p.json: meta.fingerprint.env[0]: expected [name, hash], got 1 entries");
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "7").set_meta(
                  "fingerprint", R"({"cwd":"/w","env":[],"valgrind_options":[]})")),
              "p.json: meta.fingerprint: missing required key \"env_bytes\"");
}

TEST(LoadProfile, CostsUpTo2To64Minus1AreExact)
{
    const Profile p = parse_profile(ProfileText()
                                        .set_meta("totals", "[18446744073709551615]")
                                        .set("lines", "[[0,1,11,18446744073709551615]]")
                                        .drop("instrs")
                                        .drop_call_graph()
                                        .str(),
                                    "p.json");
    EXPECT_EQ(p.line_cost(0)[0], UINT64_MAX);
}

TEST(LoadProfile, LayoutAfterTheVersionKeyDoesNotMatter)
{
    const std::string text =
        R"({"vgprof":1,"lines":[],"fns":[],"files":[],"objs":[],"strs":[],)"
        R"("meta":{"run":{},"exit":{"code":0},"totals":[0],"cache":null,"events":["Ir"],)"
        R"("options":[],"argv":["a"],"valgrind":"3.19.0","tool_version":"0.1.0","tool":"vgprof"}})";
    const Profile p = parse_profile(text, "p.json");
    EXPECT_EQ(p.meta().totals[0], 0u);
    EXPECT_TRUE(p.functions().empty());
}

TEST(LoadProfile, ReadsAProfileFromAFile)
{
    char path[] = "/tmp/vgprof-unit-XXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    std::ofstream(path) << ProfileText().str();
    const Profile p = load_profile(path);
    std::remove(path);
    EXPECT_EQ(p.meta().totals[0], 2485947u);
}

// --- files that cannot be read -------------------------------------------

TEST(LoadProfileError, MissingFileSaysCannotOpenWithTheSystemReason)
{
    try {
        load_profile("/nonexistent-dir/p.json");
        FAIL() << "loaded a missing file";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "/nonexistent-dir/p.json: cannot open: No such file or directory");
    }
}

TEST(LoadProfileError, DirectorySaysCannotRead)
{
    try {
        load_profile("/");
        FAIL() << "loaded a directory";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "/: cannot read: Is a directory");
    }
}

// --- not JSON ------------------------------------------------------------

TEST(LoadProfileError, EmptyFileIsSaidToBeEmpty)
{
    EXPECT_EQ(load_error(""), "p.json: empty file: no bytes to read");
}

TEST(LoadProfileError, EveryTruncationPointIsReportedAsTruncatedAtItsLength)
{
    const std::string text = ProfileText().str();
    const size_t closing_brace = text.rfind('}');
    for (size_t cut = 1; cut < closing_brace + 1; ++cut)
        ASSERT_EQ(load_error(text.substr(0, cut)),
                  "p.json: truncated JSON: unexpected end of input at byte " + std::to_string(cut));
}

TEST(LoadProfileError, SyntaxErrorNamesLineColumnAndByte)
{
    // "nope" starts on line 2 after a space and `"meta": `: column 10; the
    // first line is 13 bytes with its newline, so byte 13 + 9 = 22.
    EXPECT_EQ(load_error("{\"vgprof\":1,\n \"meta\": nope}"),
              "p.json: line 2, column 10: invalid JSON: syntax error at byte 22");
}

TEST(LoadProfileError, BinaryFileIsInvalidJsonAtTheFirstByte)
{
    EXPECT_EQ(load_error(std::string("\x7f" "ELF\x02\x01\x01\0\0", 9)),
              "p.json: line 1, column 1: invalid JSON: syntax error at byte 0");
}

TEST(LoadProfileError, DataAfterTheDocumentIsInvalid)
{
    const std::string text = ProfileText().str();  // ends "}\n"
    EXPECT_EQ(load_error(text + "{}"),
              "p.json: line " + std::to_string(std::count(text.begin(), text.end(), '\n') + 1) +
                  ", column 1: invalid JSON: unexpected data after the end of the document at byte " +
                  std::to_string(text.size()));
}

TEST(LoadProfileError, DeepNestingIsAnErrorNotACrash)
{
    EXPECT_NE(load_error("{\"vgprof\":1,\"meta\":" + std::string(100000, '[')).find("p.json: "),
              std::string::npos);
}

TEST(LoadProfileError, InvalidUtf8InAStringIsInvalidJson)
{
    EXPECT_EQ(load_error(ProfileText().set("strs", "[\"\xff\"]").str()).rfind("p.json: line ", 0), 0u);
}

TEST(LoadProfileError, NoSingleByteChangeMakesTheLoaderThrowAnythingElse)
{
    const std::string text = ProfileText().str();
    for (size_t i = 0; i < text.size(); ++i)
        for (char c : {'\0', '"', '[', '}', '-', '9', '.', 'e', ','}) {
            std::string changed = text;
            changed[i] = c;
            load_error(changed);  // may load or fail, but only with vgprof::Error
        }
}

// --- JSON, but not a vgprof profile ------------------------------------------

TEST(LoadProfileError, TopLevelArrayIsNotAProfile)
{
    EXPECT_EQ(load_error("[1,2]"),
              "p.json: not a vgprof profile (top level is an array, expected an object)");
}

TEST(LoadProfileError, FirstKeyOtherThanVgprofIsNotAProfile)
{
    EXPECT_EQ(load_error(R"({"traceEvents":[],"vgprof":1})"),
              R"(p.json: not a vgprof profile (first key is "traceEvents", expected "vgprof"))");
}

TEST(LoadProfileError, EmptyObjectIsNotAProfile)
{
    EXPECT_EQ(load_error("{}"), "p.json: not a vgprof profile (the top-level object is empty, "
                                "expected \"vgprof\" first)");
}

// --- versions ------------------------------------------------------------------

TEST(LoadProfileError, FutureVersionAsksForAnUpgrade)
{
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "12")),
              "p.json: profile format version 12 is newer than this vgprof understands "
              "(newest: 11); upgrade vgprof");
}

TEST(LoadProfileError, HugeVersionIsAlsoAFutureVersion)
{
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "18446744073709551615")),
              "p.json: profile format version 18446744073709551615 is newer than this vgprof "
              "understands (newest: 11); upgrade vgprof");
}

TEST(LoadProfileError, VersionZeroIsInvalid)
{
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "0")),
              "p.json: vgprof: invalid format version 0 (versions start at 1)");
}

TEST(LoadProfileError, VersionMustBeAnInteger)
{
    EXPECT_EQ(load_error(ProfileText().set("vgprof", R"("1")")),
              "p.json: vgprof: expected an integer format version, got a string");
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "1.0")),
              "p.json: vgprof: expected an integer format version, got 1 (a floating-point number)");
}

// --- keys and types ------------------------------------------------------------

TEST(LoadProfileError, UnknownTopLevelKeyIsRejected)
{
    EXPECT_EQ(load_error(ProfileText().set("extra", "[]")),
              R"(p.json: unknown top-level key "extra" (not part of format version 2))");
}

TEST(LoadProfileError, InclusiveKeyIsUnknownInAVersion1Profile)
{
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "1")),
              R"(p.json: unknown top-level key "inclusive" (not part of format version 1))");
}

TEST(LoadProfileError, MissingTopLevelKeyIsNamed)
{
    EXPECT_EQ(load_error(ProfileText().drop("lines")),
              R"(p.json: missing required top-level key "lines")");
}

TEST(LoadProfileError, MissingMetaKeyIsNamedWithItsSection)
{
    EXPECT_EQ(load_error(ProfileText().drop_meta("events")),
              R"(p.json: meta: missing required key "events")");
}

// A value of the wrong type at the top level or in meta, and the message
// that names its path and what it is.
struct WrongTypeCase {
    const char* key;
    bool in_meta;
    const char* json;
    const char* message;
};

class LoadWrongType : public ::testing::TestWithParam<WrongTypeCase> {};

TEST_P(LoadWrongType, NamesItsPath)
{
    const WrongTypeCase& c = GetParam();
    ProfileText text;
    if (c.in_meta)
        text.set_meta(c.key, c.json);
    else
        text.set(c.key, c.json);
    EXPECT_EQ(load_error(text), c.message);
}

INSTANTIATE_TEST_SUITE_P(
    LoadProfileError, LoadWrongType,
    ::testing::Values(
        WrongTypeCase{"meta", false, "[]", "p.json: meta: expected an object, got an array"},
        WrongTypeCase{"argv", true, R"(["./app",5])",
                      "p.json: meta.argv[1]: expected a string, got 5"},
        WrongTypeCase{"cache", true, "5", "p.json: meta.cache: expected null or an object, got 5"},
        WrongTypeCase{"exit", true, R"({"code":"0"})",
                      "p.json: meta.exit.code: expected an integer, got a string"},
        WrongTypeCase{"run", true, R"({"pid":null})",
                      "p.json: meta.run.pid: expected an integer, got null"},
        WrongTypeCase{"strs", false, R"({"0":"???"})",
                      "p.json: strs: expected an array, got an object"},
        WrongTypeCase{"fns", false, "[[3,1,0,10],{}]",
                      "p.json: fns[1]: expected an array, got an object"}));

TEST(LoadProfileError, ToolOtherThanVgprofIsRejected)
{
    EXPECT_EQ(load_error(ProfileText().set_meta("tool", R"("cachegrind")")),
              R"(p.json: meta.tool: expected "vgprof", got "cachegrind")");
}

TEST(LoadProfileError, EventsMustBeNonEmptyAndDistinct)
{
    EXPECT_EQ(load_error(ProfileText().set_meta("events", "[]")),
              "p.json: meta.events: expected at least one event, got an empty array");
    EXPECT_EQ(load_error(ProfileText().set_meta("events", R"(["Ir","Ir"])")),
              R"(p.json: meta.events[1]: event "Ir" is listed twice)");
}

// --- numbers ---------------------------------------------------------------------

TEST(LoadProfileError, NegativeCostIsRejected)
{
    EXPECT_EQ(load_error(ProfileText().set("lines", "[[0,1,11,1200],[1,1,4,-5]]")),
              "p.json: lines[1][3]: expected a non-negative integer, got -5");
}

TEST(LoadProfileError, FractionalOrExponentCostIsRejected)
{
    EXPECT_EQ(load_error(ProfileText().set("lines", "[[0,1,11,1200.5],[1,1,4,2484747]]")),
              "p.json: lines[0][3]: expected a non-negative integer, got 1200.5 (a floating-point number)");
    EXPECT_EQ(load_error(ProfileText().set("lines", "[[0,1,11,12e2],[1,1,4,2484747]]")),
              "p.json: lines[0][3]: expected a non-negative integer, got 1200 (a floating-point number)");
}

TEST(LoadProfileError, CostPast2To64Minus1IsRejected)
{
    EXPECT_EQ(load_error(ProfileText().set("lines", "[[0,1,11,18446744073709551616],[1,1,4,0]]")),
              "p.json: lines[0][3]: expected a non-negative integer, "
              "got 1.8446744073709552e+19 (a floating-point number)");
}

TEST(LoadProfileError, BooleanIdIsRejected)
{
    EXPECT_EQ(load_error(ProfileText().set("objs", "[true]")),
              "p.json: objs[0]: expected a non-negative integer, got true");
}

TEST(LoadProfileError, LineNumberPast2To32Minus1IsRejected)
{
    EXPECT_EQ(load_error(ProfileText().set("fns", "[[3,1,0,4294967296],[4,1,0,3]]")),
              "p.json: fns[0][3]: line number 4294967296 is too large (limit 2^32-1)");
}

// --- ids ---------------------------------------------------------------------------

// One table of the sample replaced, and the message that names the bad id.
struct BadIdCase {
    const char* table;
    const char* json;
    const char* message;
};

class LoadBadId : public ::testing::TestWithParam<BadIdCase> {};

// The sample has 5 strings, 1 object, 2 files and 2 functions.
TEST_P(LoadBadId, IdsOutOfRangeNameTheTableAndItsSize)
{
    const BadIdCase& c = GetParam();
    EXPECT_EQ(load_error(ProfileText().set(c.table, c.json)), c.message);
}

INSTANTIATE_TEST_SUITE_P(
    LoadProfileError, LoadBadId,
    ::testing::Values(
        BadIdCase{"objs", "[5]", "p.json: objs[0]: strs id 5 out of range (5 strings)"},
        BadIdCase{"files", "[0,9]", "p.json: files[1]: strs id 9 out of range (5 strings)"},
        BadIdCase{"fns", "[[3,1,0,10],[40,1,0,3]]",
                  "p.json: fns[1][0]: strs id 40 out of range (5 strings)"},
        BadIdCase{"fns", "[[3,2,0,10],[4,1,0,3]]",
                  "p.json: fns[0][1]: file id 2 out of range (2 files)"},
        BadIdCase{"fns", "[[3,1,1,10],[4,1,0,3]]",
                  "p.json: fns[0][2]: obj id 1 out of range (1 object)"},
        BadIdCase{"lines", "[[0,1,11,1200],[99,1,4,2484747]]",
                  "p.json: lines[1][0]: fn id 99 out of range (2 functions)"},
        BadIdCase{"lines", "[[0,2,11,1200],[1,1,4,2484747]]",
                  "p.json: lines[0][1]: file id 2 out of range (2 files)"},
        BadIdCase{"instrs", "[[4198694,2,1,4,3]]",
                  "p.json: instrs[0][1]: fn id 2 out of range (2 functions)"},
        BadIdCase{"instrs", "[[4198694,1,7,4,3]]",
                  "p.json: instrs[0][2]: file id 7 out of range (2 files)"}));

// --- cost arrays and totals ---------------------------------------------------------

TEST(LoadProfileError, RowsMustHaveOneCostPerEvent)
{
    EXPECT_EQ(load_error(ProfileText().set("lines", "[[0,1,11,1200,7],[1,1,4,2484747]]")),
              "p.json: lines[0]: expected 4 entries [fn, file, line, Ir], got 5");
    EXPECT_EQ(load_error(ProfileText().set("instrs", "[[4198694,1,1,4]]")),
              "p.json: instrs[0]: expected 5 entries [addr, fn, file, line, Ir], got 4");
    EXPECT_EQ(load_error(ProfileText().set_meta("totals", "[2485947,0]")),
              "p.json: meta.totals: expected 1 entry (one per event), got 2");
}

TEST(LoadProfileError, FunctionRowsHaveExactlyFourEntries)
{
    EXPECT_EQ(load_error(ProfileText().set("fns", "[[3,1,0,10],[4,1,0]]")),
              "p.json: fns[1]: expected 4 entries [name, file, obj, line], got 3");
}

TEST(LoadProfileError, TotalsThatDifferFromTheSumOfLinesAreRejected)
{
    EXPECT_EQ(load_error(ProfileText().set_meta("totals", "[2485948]")),
              "p.json: meta.totals[0]: Ir total is 2485948 but the lines add up to 2485947");
}

TEST(LoadProfileError, LinesWhoseSumOverflowsAreRejected)
{
    // 2^63 + 2^63 = 2^64, one past the largest cost.
    EXPECT_EQ(load_error(ProfileText()
                             .set("lines", "[[0,1,11,9223372036854775808],[1,1,4,9223372036854775808]]")
                             .set_meta("totals", "[0]")),
              "p.json: lines: the Ir costs add up to more than 2^64-1");
}

// --- the call graph ----------------------------------------------------------------

TEST(LoadProfileError, CallGraphTablesComeTogetherOrNotAtAll)
{
    EXPECT_EQ(load_error(ProfileText().drop("paths")),
              R"(p.json: incomplete call graph: "calls" and "inclusive" are present but "paths" )"
              R"(is missing (calls, inclusive and paths come together))");
    EXPECT_EQ(load_error(ProfileText().drop("calls").drop("inclusive")),
              R"(p.json: incomplete call graph: "paths" is present but "calls" and "inclusive" )"
              R"(are missing (calls, inclusive and paths come together))");
}

TEST(LoadProfileError, CallGraphTablesMustBeArraysOfRows)
{
    EXPECT_EQ(load_error(ProfileText().set("calls", "{}")),
              "p.json: calls: expected an array, got an object");
    EXPECT_EQ(load_error(ProfileText().set("inclusive", "[5]")),
              "p.json: inclusive[0]: expected an array, got 5");
}

INSTANTIATE_TEST_SUITE_P(
    LoadProfileErrorCallGraph, LoadBadId,
    ::testing::Values(
        BadIdCase{"calls", "[[2,1,1,12,1,2484747]]",
                  "p.json: calls[0][0]: fn id 2 out of range (2 functions)"},
        BadIdCase{"calls", "[[0,7,1,12,1,2484747]]",
                  "p.json: calls[0][1]: fn id 7 out of range (2 functions)"},
        BadIdCase{"calls", "[[0,1,2,12,1,2484747]]",
                  "p.json: calls[0][2]: file id 2 out of range (2 files)"},
        BadIdCase{"inclusive", "[[0,2485947],[2,2484747]]",
                  "p.json: inclusive[1][0]: fn id 2 out of range (2 functions)"},
        BadIdCase{"paths", "[[null,0,0,1200,2485947],[0,9,1,2484747,2484747]]",
                  "p.json: paths[1][1]: fn id 9 out of range (2 functions)"}));

TEST(LoadProfileError, CallGraphRowsMustHaveOneCostPerEventPerCostSet)
{
    EXPECT_EQ(load_error(ProfileText().set("calls", "[[0,1,1,12,1]]")),
              "p.json: calls[0]: expected 6 entries [caller, callee, file, line, count, Ir], got 5");
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "8").set("calls", "[[0,1,1,12,1,2484747]]")),
              "p.json: calls[0]: expected 7 entries [caller, callee, file, line, addr, count, Ir], got 6");
    EXPECT_EQ(load_error(ProfileText().set("inclusive", "[[0,2485947,1],[1,2484747]]")),
              "p.json: inclusive[0]: expected 2 entries [fn, Ir], got 3");
    EXPECT_EQ(load_error(ProfileText().set("paths", "[[null,0,0,1200,2485947],[0,1,1,2484747]]")),
              "p.json: paths[1]: expected 5 entries [parent, fn, count, self Ir, inclusive Ir], got 4");
}

TEST(LoadProfileError, CallCountsAndCostsAreNonNegativeIntegers)
{
    EXPECT_EQ(load_error(ProfileText().set("calls", "[[0,1,1,12,-1,2484747]]")),
              "p.json: calls[0][4]: expected a non-negative integer, got -1");
    EXPECT_EQ(load_error(ProfileText().set("calls", "[[0,1,1,12,1,0.5]]")),
              "p.json: calls[0][5]: expected a non-negative integer, got 0.5 (a floating-point number)");
    EXPECT_EQ(load_error(ProfileText().set("paths", R"([[null,0,"0",1200,2485947],[0,1,1,2484747,2484747]])")),
              "p.json: paths[0][2]: expected a non-negative integer, got a string");
}

TEST(LoadProfileError, FunctionWithTwoInclusiveRowsIsRejected)
{
    EXPECT_EQ(load_error(ProfileText().set("inclusive", "[[0,2485947],[1,2484747],[0,5]]")),
              "p.json: inclusive[2][0]: fn 0 already has a row (inclusive[0])");
}

TEST(LoadProfileError, PathParentMustBeNullOrAnEarlierNode)
{
    EXPECT_EQ(load_error(ProfileText().set("paths", "[[1,0,0,1200,2485947],[0,1,1,2484747,2484747]]")),
              "p.json: paths[0][0]: parent 1 is not an earlier node (expected null or a row index "
              "below 0)");
    EXPECT_EQ(load_error(ProfileText().set("paths", "[[null,0,0,1200,2485947],[1,1,1,2484747,2484747]]")),
              "p.json: paths[1][0]: parent 1 is not an earlier node (expected null or a row index "
              "below 1)");
    EXPECT_EQ(load_error(ProfileText().set("paths", R"([[null,0,0,1200,2485947],["0",1,1,2484747,2484747]])")),
              "p.json: paths[1][0]: expected a non-negative integer, got a string");
}

TEST(LoadProfileError, TruncatedNodeMustHaveAParent)
{
    EXPECT_EQ(load_error(ProfileText().set("paths", "[[null,null,0,1200,2485947],[0,1,1,2484747,2484747]]")),
              "p.json: paths[0][1]: a [truncated] node (null fn) must have a parent, but this one "
              "is a root");
}

TEST(LoadProfileError, PathInclusiveCostMustBeSelfPlusTheChildrensInclusive)
{
    // Root: 1200 + 2484747 = 2485947, one more than it says.
    EXPECT_EQ(load_error(ProfileText().set("paths", "[[null,0,0,1200,2485946],[0,1,1,2484747,2484747]]")),
              "p.json: paths[0][4]: Ir inclusive cost is 2485946 but self 1200 plus the children's "
              "inclusive 2484747 is 2485947");
    // A leaf has no children: its inclusive cost is its self cost.
    EXPECT_EQ(load_error(ProfileText().set("paths", "[[null,0,0,1200,2485948],[0,1,1,2484747,2484748]]")),
              "p.json: paths[1][4]: Ir inclusive cost is 2484748 but self 2484747 plus the "
              "children's inclusive 0 is 2484747");
}

TEST(LoadProfileError, PathInclusiveCostsOfSeveralEventsAreCheckedPerEvent)
{
    // Dr of the root: 30 + 40 = 70, not 71; its Ir is right.
    EXPECT_EQ(load_error(ProfileText()
                             .set_meta("events", R"(["Ir","Dr"])")
                             .set_meta("totals", "[2485947,70]")
                             .set("lines", "[[0,1,11,1200,30],[1,1,4,2484747,40]]")
                             .drop("instrs")
                             .set("calls", "[[0,1,1,12,1,2484747,40]]")
                             .set("inclusive", "[[0,2485947,70],[1,2484747,40]]")
                             .set("paths", "[[null,0,0,1200,30,2485947,71],[0,1,1,2484747,40,2484747,40]]")),
              "p.json: paths[0][6]: Dr inclusive cost is 71 but self 30 plus the children's "
              "inclusive 40 is 70");
}

TEST(LoadProfileError, ChildrenWhoseInclusiveCostsOverflowAreRejected)
{
    // Two children of 2^63 each: 2^64, one past the largest cost.
    EXPECT_EQ(load_error(ProfileText().set("paths", "[[null,0,0,1200,2485947]"
                                                    ",[0,1,1,0,9223372036854775808]"
                                                    ",[0,1,1,0,9223372036854775808]]")),
              "p.json: paths[0]: the Ir inclusive costs of the node's children add up to more "
              "than 2^64-1");
}

TEST(LoadProfileError, PathSelfCostsMustAddUpToTheTotals)
{
    // 1201 + 2484747 = 2485948; the inclusive costs agree with each other.
    EXPECT_EQ(load_error(ProfileText().set("paths", "[[null,0,0,1201,2485948],[0,1,1,2484747,2484747]]")),
              "p.json: paths: the Ir self costs of the nodes add up to 2485948 but meta.totals[0] "
              "is 2485947");
}

// --- per-thread call graphs (--separate-threads=yes) ------------------------------------

// One element of `threads`, from its members' JSON.
std::string thread_json(const std::string& tid, const std::string& calls,
                        const std::string& inclusive, const std::string& roots)
{
    return R"({"tid":)" + tid + R"(,"calls":)" + calls + R"(,"inclusive":)" + inclusive +
           R"(,"roots":)" + roots + "}";
}

// The sample's only thread: main (path 0) calls work, all of it in tid 1.
std::string main_thread(const std::string& tid = "1")
{
    return thread_json(tid, "[[0,1,1,12,1,2484747]]", "[[0,2485947],[1,2484747]]", "[0]");
}

// A thread that made no calls and began no stacks.
std::string idle_thread(const std::string& tid) { return thread_json(tid, "[]", "[]", "[]"); }

ProfileText with_threads(const std::string& threads)
{
    return ProfileText().set("threads", "[" + threads + "]");
}

TEST(LoadThreads, EachThreadsCallsInclusiveCostsAndRootsAreLoaded)
{
    const Profile p = parse_profile(test::two_thread_profile().str(), "p.json");
    ASSERT_TRUE(p.has_thread_graphs());
    ASSERT_EQ(p.threads().size(), 2u);

    const ThreadGraph& t1 = p.threads()[0];
    EXPECT_EQ(t1.tid, 1u);
    EXPECT_EQ(t1.roots, (std::vector<PathId>{PathId(0)}));
    ASSERT_EQ(t1.calls().size(), 4u);
    const CallEdge& work_memset = t1.calls()[3];
    EXPECT_EQ(work_memset.caller, FnId(3));
    EXPECT_EQ(work_memset.callee, FnId(0));
    EXPECT_EQ(work_memset.line, 6u);
    EXPECT_EQ(work_memset.count, 1u);
    EXPECT_EQ(t1.call_cost(3)[0], 600u);
    EXPECT_EQ(t1.call_cost(3)[1], 1200u);
    ASSERT_NE(t1.fn_inclusive(FnId(0)), nullptr);
    EXPECT_EQ(t1.fn_inclusive(FnId(0))[0], 1100u);  // 500 under helper + 600 under work
    EXPECT_EQ(t1.fn_inclusive(FnId(0))[1], 3190u);

    const ThreadGraph& t2 = p.threads()[1];
    EXPECT_EQ(t2.tid, 2u);
    EXPECT_EQ(t2.roots, (std::vector<PathId>{PathId(5)}));
    EXPECT_EQ(t2.calls().size(), 2u);
    EXPECT_EQ(t2.fn_inclusive(FnId(2)), nullptr);  // main never ran in tid 2
    ASSERT_NE(t2.fn_inclusive(FnId(3)), nullptr);
    EXPECT_EQ(t2.fn_inclusive(FnId(3))[0], 4400u);

    // The whole program's graph is still the top-level one.
    EXPECT_EQ(p.calls().size(), 5u);
    EXPECT_EQ(p.fn_inclusive(FnId(3))[0], 9000u);
}

TEST(LoadThreads, DroppingTheCallPathsKeepsCallsAndInclusiveCosts)
{
    Profile p = parse_profile(test::two_thread_profile().str(), "p.json");
    ASSERT_FALSE(p.paths().empty());
    const size_t calls = p.calls().size();
    ASSERT_NE(p.fn_inclusive(FnId(0)), nullptr);
    const uint64_t memset_inclusive = p.fn_inclusive(FnId(0))[0];

    p.drop_call_paths();
    EXPECT_TRUE(p.paths().empty());
    EXPECT_TRUE(p.has_call_graph());
    EXPECT_EQ(p.calls().size(), calls);
    ASSERT_NE(p.fn_inclusive(FnId(0)), nullptr);
    EXPECT_EQ(p.fn_inclusive(FnId(0))[0], memset_inclusive);
    ASSERT_EQ(p.threads().size(), 2u);
    for (const ThreadGraph& t : p.threads())
        EXPECT_TRUE(t.roots.empty());  // no tree left for them to begin in
    EXPECT_EQ(p.threads()[0].calls().size(), 4u);
}

TEST(LoadThreads, ThreadIsFoundByTid)
{
    const Profile p = parse_profile(test::two_thread_profile().str(), "p.json");
    ASSERT_NE(p.thread(2), nullptr);
    EXPECT_EQ(p.thread(2), &p.threads()[1]);
    EXPECT_EQ(p.thread(3), nullptr);
    EXPECT_EQ(p.thread(0), nullptr);
}

TEST(LoadThreads, ProfileWithoutThreadsHasNoThreadGraphs)
{
    const Profile p = parse_profile(ProfileText().str(), "p.json");
    EXPECT_FALSE(p.has_thread_graphs());
    EXPECT_TRUE(p.threads().empty());
    EXPECT_EQ(p.thread(1), nullptr);
}

TEST(LoadThreads, ThreadsNeedNotBeNumberedFromOneWithoutGaps)
{
    // tid 3 ran after tids 1 and 2 had finished, as it were; a thread that
    // never made a call has empty tables.
    const Profile p =
        parse_profile(with_threads(main_thread() + "," + idle_thread("3")).str(), "p.json");
    ASSERT_EQ(p.threads().size(), 2u);
    EXPECT_EQ(p.threads()[1].tid, 3u);
    EXPECT_TRUE(p.threads()[1].calls().empty());
    EXPECT_EQ(p.threads()[1].fn_inclusive(FnId(0)), nullptr);
}

TEST(LoadThreads, InclusiveRowsOutOfFnOrderAreFoundByFunction)
{
    const Profile p = parse_profile(
        with_threads(thread_json("1", "[[0,1,1,12,1,2484747]]", "[[1,2484747],[0,2485947]]", "[0]"))
            .set("inclusive", "[[1,2484747],[0,2485947]]")
            .str(),
        "p.json");
    EXPECT_EQ(p.fn_inclusive(FnId(0))[0], 2485947u);
    EXPECT_EQ(p.fn_inclusive(FnId(1))[0], 2484747u);
    EXPECT_EQ(p.threads()[0].fn_inclusive(FnId(0))[0], 2485947u);
    EXPECT_EQ(p.threads()[0].fn_inclusive(FnId(1))[0], 2484747u);
}

TEST(LoadThreadsError, ThreadsAreNotPartOfFormatVersion1)
{
    EXPECT_EQ(load_error(ProfileText().set("vgprof", "1").drop_call_graph().set("threads", "[]")),
              R"(p.json: unknown top-level key "threads" (not part of format version 1))");
}

TEST(LoadThreadsError, ThreadsComeOnlyWithTheCallGraph)
{
    EXPECT_EQ(load_error(ProfileText().drop_call_graph().set("threads", "[]")),
              R"(p.json: "threads" is present but "calls", "inclusive" and "paths" are missing )"
              R"((per-thread call graphs come only with the call graph))");
}

TEST(LoadThreadsError, ThreadsIsAnArrayOfObjectsWithEveryKey)
{
    EXPECT_EQ(load_error(ProfileText().set("threads", "{}")),
              "p.json: threads: expected an array, got an object");
    EXPECT_EQ(load_error(with_threads("5")), "p.json: threads[0]: expected an object, got 5");
    EXPECT_EQ(load_error(with_threads(R"({"tid":1,"calls":[],"inclusive":[]})")),
              R"(p.json: threads[0]: missing required key "roots")");
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[]", "[]", "{}"))),
              "p.json: threads[0].roots: expected an array, got an object");
}

TEST(LoadThreadsError, TidIsAThreadNumberFromOneTo2To32Minus1)
{
    EXPECT_EQ(load_error(with_threads(main_thread("0"))),
              "p.json: threads[0].tid: tid 0 is not a thread (Valgrind numbers threads from 1)");
    EXPECT_EQ(load_error(with_threads(main_thread("4294967296"))),
              "p.json: threads[0].tid: tid 4294967296 is too large (limit 2^32-1)");
    EXPECT_EQ(load_error(with_threads(main_thread(R"("1")"))),
              "p.json: threads[0].tid: expected a non-negative integer, got a string");
}

TEST(LoadThreadsError, ThreadsAreSortedByTidEachOnce)
{
    EXPECT_EQ(load_error(with_threads(main_thread("2") + "," + idle_thread("2"))),
              "p.json: threads[1].tid: tid 2 is listed twice (threads[0] has it too)");
    EXPECT_EQ(load_error(with_threads(main_thread("3") + "," + idle_thread("2"))),
              "p.json: threads[1].tid: tid 2 comes after tid 3 (threads[0]); threads are sorted "
              "by tid");
}

TEST(LoadThreadsError, ThreadRowsFollowTheRulesOfTheTopLevelTables)
{
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[[0,7,1,12,1,2484747]]", "[]", "[0]"))),
              "p.json: threads[0].calls[0][1]: fn id 7 out of range (2 functions)");
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[[0,1,1,12,1]]", "[]", "[0]"))),
              "p.json: threads[0].calls[0]: expected 6 entries [caller, callee, file, line, "
              "count, Ir], got 5");
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[[0,1,1,12,-1,2484747]]", "[]", "[0]"))),
              "p.json: threads[0].calls[0][4]: expected a non-negative integer, got -1");
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[]", "[[0,2485947],[2,5]]", "[0]"))),
              "p.json: threads[0].inclusive[1][0]: fn id 2 out of range (2 functions)");
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[]", "[[0]]", "[0]"))),
              "p.json: threads[0].inclusive[0]: expected 2 entries [fn, Ir], got 1");
}

TEST(LoadThreadsError, FunctionWithTwoInclusiveRowsInAThreadIsRejected)
{
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[]", "[[0,2485947],[0,5]]", "[0]"))),
              "p.json: threads[0].inclusive[1][0]: fn 0 already has a row "
              "(threads[0].inclusive[0])");
    // Each thread has its own rows: the same function in two threads is fine
    // until their sums are checked.
    EXPECT_EQ(load_error(with_threads(main_thread() + "," +
                                      thread_json("2", "[]", "[[0,0],[1,0]]", "[]"))),
              "(loaded without error)");
}

TEST(LoadThreadsError, RootsAreRootNodesOfPaths)
{
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[[0,1,1,12,1,2484747]]",
                                                  "[[0,2485947],[1,2484747]]", "[0,2]"))),
              "p.json: threads[0].roots[1]: path id 2 out of range (2 nodes)");
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[[0,1,1,12,1,2484747]]",
                                                  "[[0,2485947],[1,2484747]]", "[0,1]"))),
              "p.json: threads[0].roots[1]: paths[1] is not a root (its parent is paths[0])");
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[[0,1,1,12,1,2484747]]",
                                                  "[[0,2485947],[1,2484747]]", "[null]"))),
              "p.json: threads[0].roots[0]: expected a non-negative integer, got null");
}

TEST(LoadThreadsError, EachRootBelongsToExactlyOneThread)
{
    EXPECT_EQ(load_error(with_threads(main_thread() + "," + thread_json("2", "[]", "[]", "[0]"))),
              "p.json: threads[1].roots[0]: paths[0] is already a root of tid 1 (threads[0])");
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[[0,1,1,12,1,2484747]]",
                                                  "[[0,2485947],[1,2484747]]", "[0,0]"))),
              "p.json: threads[0].roots[1]: paths[0] is already a root of tid 1 (threads[0])");
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[[0,1,1,12,1,2484747]]",
                                                  "[[0,2485947],[1,2484747]]", "[]"))),
              "p.json: threads: paths[0] is a root but no thread lists it in its roots");
}

TEST(LoadThreadsError, ThreadCallWithoutATopLevelRowIsRejected)
{
    // main calls work from app.c:13 in the thread, from :12 at the top level.
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[[0,1,1,13,1,2484747]]",
                                                  "[[0,2485947],[1,2484747]]", "[0]"))),
              "p.json: threads[0].calls[0]: no top-level calls row has this caller, callee and "
              "call site (fn 0 calls fn 1 at file 1 line 13)");
}

TEST(LoadThreadsError, ThreadsCallCountsMustAddUpToTheTopLevelRow)
{
    // 3 + 4 = 7 calls in the threads, 8 at the top level.
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[[0,1,1,12,3,2484747]]",
                                                  "[[0,2485947],[1,2484747]]", "[0]") +
                                      "," +
                                      thread_json("2", "[[0,1,1,12,4,0]]", "[]", "[]"))
                             .set("calls", "[[0,1,1,12,8,2484747]]")),
              "p.json: calls[0]: the threads' calls add up to 7 calls, not 8");
    // A top-level row no thread made.
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[]", "[[0,2485947],[1,2484747]]", "[0]"))),
              "p.json: calls[0]: the threads' calls add up to 0 calls, not 1");
}

TEST(LoadThreadsError, ThreadsCallCostsMustAddUpToTheTopLevelRowPerEvent)
{
    // 2484747 - 1 in the only thread.
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[[0,1,1,12,1,2484746]]",
                                                  "[[0,2485947],[1,2484747]]", "[0]"))),
              "p.json: calls[0]: the threads' Ir costs add up to 2484746, not 2484747");
    // 2^63 + 2^63 = 2^64: past any top-level cost.
    EXPECT_EQ(load_error(with_threads(main_thread() + "," +
                                      thread_json("2", "[[0,1,1,12,0,9223372036854775808]]", "[]",
                                                  "[]") +
                                      "," +
                                      thread_json("3", "[[0,1,1,12,0,9223372036854775808]]", "[]",
                                                  "[]"))),
              "p.json: calls[0]: the threads' Ir costs add up to more than 2^64-1, not 2484747");
}

TEST(LoadThreadsError, ThreadInclusiveRowWithoutATopLevelRowIsRejected)
{
    EXPECT_EQ(load_error(with_threads(main_thread()).set("inclusive", "[[0,2485947]]")),
              "p.json: threads[0].inclusive[1]: fn 1 has no top-level inclusive row");
}

TEST(LoadThreadsError, ThreadsInclusiveCostsMustAddUpToTheTopLevelRow)
{
    // work: 2484000 + 700 = 2484700, 47 short of the top level's 2484747.
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[[0,1,1,12,1,2484747]]",
                                                  "[[0,2485947],[1,2484000]]", "[0]") +
                                      "," + thread_json("2", "[]", "[[1,700]]", "[]"))),
              "p.json: inclusive[1]: the threads' Ir inclusive costs add up to 2484700, not "
              "2484747");
    // The message names the top-level row as written, here the first.
    EXPECT_EQ(load_error(with_threads(thread_json("1", "[[0,1,1,12,1,2484747]]",
                                                  "[[0,2485947],[1,2484000]]", "[0]"))
                             .set("inclusive", "[[1,2484747],[0,2485947]]")),
              "p.json: inclusive[0]: the threads' Ir inclusive costs add up to 2484000, not "
              "2484747");
}

TEST(LoadThreadsError, ThreadsSumsOfSeveralEventsAreCheckedPerEvent)
{
    // Dr of main's inclusive cost: tid 1 has 3800, tid 2 adds 1; the top level says 3800.
    test::ProfileText p = test::two_thread_profile();
    p.set("threads", R"([{"tid":1)"
                     R"(,"calls":[[1,0,0,23,2,500,1990],[2,1,0,13,1,900,1990])"
                     R"(,[2,3,0,11,1,4600,1800],[3,0,0,6,1,600,1200]])"
                     R"(,"inclusive":[[0,1100,3190],[1,900,1990],[2,5600,3800],[3,4600,1800]])"
                     R"(,"roots":[0]})"
                     R"(,{"tid":2)"
                     R"(,"calls":[[3,0,0,6,1,400,800],[3,3,0,5,1,1500,100]])"
                     R"(,"inclusive":[[0,400,800],[2,0,1],[3,4400,1200]])"
                     R"(,"roots":[5]}])");
    EXPECT_EQ(load_error(p),
              "p.json: inclusive[2]: the threads' Dr inclusive costs add up to 3801, not 3800");
}

// --- meta.cache (--cache-sim=yes, --branch-sim=yes) --------------------------

// Only branches simulated: Ir and the four branch events.
ProfileText branch_profile()
{
    ProfileText p;
    p.set_meta("events", R"(["Ir","Bc","Bcm","Bi","Bim"])");
    p.set_meta("cache", R"({"branches":true})");
    p.set_meta("totals", "[2485947,30,3,4,1]");
    p.set("lines", "[[0,1,11,1200,10,1,0,0],[1,1,4,2484747,20,2,4,1]]");
    p.drop("instrs");
    return p.drop_call_graph();
}

ProfileText with_cache(const std::string& cache)
{
    return test::cache_profile().set_meta("cache", cache);
}

// (size, associativity, line size) for comparing a geometry in one expression.
using Geometry = std::tuple<uint64_t, uint64_t, uint64_t>;

Geometry geometry(const std::optional<CacheGeometry>& g)
{
    return g ? Geometry{g->size, g->assoc, g->line_size} : Geometry{};
}

TEST(LoadCache, CacheConfigurationGivesEachCachesGeometryAndWhetherBranchesWereSimulated)
{
    const Profile p = parse_profile(test::cache_profile().str(), "p.json");
    ASSERT_TRUE(p.meta().cache);
    const CacheConfig& c = *p.meta().cache;
    EXPECT_EQ(geometry(c.i1), (Geometry{32768, 8, 64}));
    EXPECT_EQ(geometry(c.d1), (Geometry{32768, 8, 64}));
    EXPECT_EQ(geometry(c.ll), (Geometry{8388608, 16, 64}));
    EXPECT_TRUE(c.branches);
    EXPECT_EQ(p.num_events(), 13u);
    EXPECT_EQ(p.event_index("D1mw"), 7u);
}

TEST(LoadCache, OnlyBranchesSimulatedHasNoCaches)
{
    const Profile p = parse_profile(branch_profile().str(), "p.json");
    ASSERT_TRUE(p.meta().cache);
    EXPECT_FALSE(p.meta().cache->i1 || p.meta().cache->d1 || p.meta().cache->ll);
    EXPECT_TRUE(p.meta().cache->branches);
}

TEST(LoadCache, CachesWithoutBranchesSayBranchesWereNotSimulated)
{
    ProfileText text = test::cache_profile();
    text.set_meta("events", R"(["Ir","I1mr","ILmr","Dr","D1mr","DLmr","Dw","D1mw","DLmw"])");
    text.set_meta("cache", R"({"I1":[16384,4,32],"D1":[65536,2,64],"LL":[1048576,8,128],)"
                           R"("branches":false})");
    text.set_meta("totals", "[10000,100,10,2000,100,20,2000,200,40]");
    text.set("lines", "[[0,1,11,2000,20,2,0,0,0,1000,150,30],[1,1,4,8000,80,8,2000,100,20,1000,50,10]]");
    const Profile p = parse_profile(text.str(), "p.json");
    ASSERT_TRUE(p.meta().cache);
    EXPECT_EQ(geometry(p.meta().cache->i1), (Geometry{16384, 4, 32}));
    EXPECT_EQ(geometry(p.meta().cache->d1), (Geometry{65536, 2, 64}));
    EXPECT_EQ(geometry(p.meta().cache->ll), (Geometry{1048576, 8, 128}));
    EXPECT_FALSE(p.meta().cache->branches);
}

TEST(LoadCache, NullCacheMeansNothingWasSimulated)
{
    EXPECT_FALSE(parse_profile(ProfileText().str(), "p.json").meta().cache);
}

TEST(LoadCacheError, GeometryIsThreePositiveIntegers)
{
    EXPECT_EQ(load_error(with_cache(R"({"I1":[32768,8,64],"D1":[32768,8,64],"LL":[8388608,0,64],)"
                                    R"("branches":true})")),
              "p.json: meta.cache.LL[1]: expected a positive integer, got 0");
    EXPECT_EQ(load_error(with_cache(R"({"I1":[32768,-8,64],"D1":[32768,8,64],"LL":[8388608,16,64],)"
                                    R"("branches":true})")),
              "p.json: meta.cache.I1[1]: expected a positive integer, got -8");
    EXPECT_EQ(load_error(with_cache(R"({"I1":[32768,8,64],"D1":[32768,8,64.5],"LL":[8388608,16,64],)"
                                    R"("branches":true})")),
              "p.json: meta.cache.D1[2]: expected a positive integer, got 64.5 (a floating-point "
              "number)");
    EXPECT_EQ(load_error(with_cache(R"({"I1":[32768,8,64],"D1":[32768,8],"LL":[8388608,16,64],)"
                                    R"("branches":true})")),
              "p.json: meta.cache.D1: expected 3 entries [size, associativity, line size], got 2");
    EXPECT_EQ(load_error(with_cache(R"({"I1":{"size":32768},"D1":[32768,8,64],)"
                                    R"("LL":[8388608,16,64],"branches":true})")),
              "p.json: meta.cache.I1: expected an array, got an object");
}

TEST(LoadCacheError, TheThreeCachesComeTogether)
{
    EXPECT_EQ(load_error(with_cache(R"({"I1":[32768,8,64],"D1":[32768,8,64],"branches":true})")),
              R"(p.json: meta.cache: incomplete cache configuration: has "I1" and "D1" but not )"
              R"("LL" (the three caches are simulated together))");
}

TEST(LoadCacheError, BranchesIsARequiredBoolean)
{
    EXPECT_EQ(load_error(with_cache(R"({"I1":[32768,8,64],"D1":[32768,8,64],"LL":[8388608,16,64]})")),
              R"(p.json: meta.cache: missing required key "branches")");
    EXPECT_EQ(load_error(with_cache(R"({"I1":[32768,8,64],"D1":[32768,8,64],"LL":[8388608,16,64],)"
                                    R"("branches":1})")),
              "p.json: meta.cache.branches: expected true or false, got 1");
}

TEST(LoadCacheError, UnknownKeyIsNamed)
{
    EXPECT_EQ(load_error(with_cache(R"({"branches":true,"L2":[262144,8,64]})")),
              R"(p.json: meta.cache: unknown key "L2" (expected "I1", "D1", "LL" and "branches"))");
}

TEST(LoadCacheError, WhatMetaCacheSaysWasSimulatedMustHaveItsEvents)
{
    EXPECT_EQ(load_error(branch_profile().set_meta(
                  "cache", R"({"I1":[32768,8,64],"D1":[32768,8,64],"LL":[8388608,16,64],)"
                           R"("branches":true})")),
              R"(p.json: meta.events: no "I1mr" event, but meta.cache says the caches were )"
              "simulated");
    ProfileText ir_only;
    ir_only.set_meta("cache", R"({"branches":true})");
    EXPECT_EQ(load_error(ir_only),
              R"(p.json: meta.events: no "Bc" event, but meta.cache says branches were simulated)");
}

// Version 7: an inlined function's row carries a fifth entry.
TEST(LoadProfile, Version7MarksInlinedFunctions)
{
    const Profile p =
        parse_profile(ProfileText()
                          .set("vgprof", "7")
                          .set("strs", R"(["???","/usr/bin/app","/src/app.c","main","work","helper"])")
                          .set("fns", "[[3,1,0,10],[4,1,0,3],[5,1,0,0,1]]")
                          .str(),
                      "p.json");
    EXPECT_FALSE(p.function(FnId(0)).inlined);
    EXPECT_TRUE(p.function(FnId(2)).inlined);
    EXPECT_EQ(p.fn_name(FnId(2)), "helper");
}

TEST(LoadProfileError, InlinedFlagOtherThanOneIsNamed)
{
    const std::string message = test::error_of([] {
        parse_profile(ProfileText().set("vgprof", "7").set("fns", "[[3,1,0,10],[4,1,0,3,2]]").str(),
                      "p.json");
    });
    EXPECT_NE(message.find("fns[1][4]"), std::string::npos) << message;
}

// From version 7 a function's inclusive cost holds its self cost; earlier
// tools could write less (a PLT stub's code ran in its caller's context), so
// earlier profiles are refused only when the caller asks.
TEST(LoadProfileError, Version7InclusiveCostBelowTheSelfCostIsRefused)
{
    const auto text = [](const char* version) {
        return ProfileText()
            .set("vgprof", version)
            .set("calls", "[[0,1,1,12,1,2484746]]")
            .set("inclusive", "[[0,2485947],[1,2484746]]")
            .str();
    };
    EXPECT_EQ(test::error_of([&] { parse_profile(text("7"), "p.json"); }),
              "p.json: inclusive: fn 1: Ir inclusive cost 2484746 is below the function's self "
              "cost 2484747");
    EXPECT_NO_THROW(parse_profile(text("6"), "p.json"));
}

} // namespace
} // namespace vgprof
