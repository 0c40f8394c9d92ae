// SPDX-License-Identifier: GPL-2.0-or-later
// real_code_test.cpp: programs as Debian and release builds ship them.
// Stripped libraries: their functions without symbols are callgrind's, by
// address and cost. Every profile: a function's inclusive cost holds its
// self cost, for every event. Release-mode Rust and optimised C++: names
// demangled as callgrind shows them, and allocation stacks with DHAT's
// inlined frames.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "harness.hpp"
#include "heap_sites.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

using namespace vgtest;

namespace {

bool exists(const std::string& path)
{
   struct stat st;
   return ::stat(path.c_str(), &st) == 0;
}

std::string base_name(const std::string& path)
{
   const size_t slash = path.rfind('/');
   return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Self Ir per (object file name, function name).
std::map<std::pair<std::string, std::string>, uint64_t> self_ir(const vgprof::Profile& p)
{
   std::map<std::pair<std::string, std::string>, uint64_t> out;
   for (const vgprof::FunctionCost& c : vgprof::function_self_costs(p)) {
      const vgprof::Function& f = p.function(c.fn);
      if (c.self[0] != 0) out[{base_name(p.obj_path(f.obj)), p.str(f.name)}] += c.self[0];
   }
   return out;
}

// bzip2's work is done in libbz2, which Debian strips: its busiest
// functions have no symbol.
TEST(StrippedLibrary, UnnamedFunctionsAreNamedAndCostAsCallgrindsAreByAddress)
{
   TempDir dir;
   write_file(dir / "input", generated_text(60000));
   const std::vector<std::string> program = resolve_program({"bzip2", "-9", "-c", "input"});
   auto vp = run_tool("vgprof", {"--cache-sim=no", "--vgprof-out-file=vp.json"}, program, dir.path());
   auto cl = run_tool("callgrind", {"--callgrind-out-file=cl.out"}, program, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   ASSERT_EQ(cl.exit_code, 0) << cl.err;
   const vgprof::Profile mine = vgprof::load_profile(dir / "vp.json");
   const vgprof::Profile theirs = vgprof::load_profile(dir / "cl.out");
   const auto mine_ir = self_ir(mine), their_ir = self_ir(theirs);
   const uint64_t total = theirs.meta().totals[0];
   size_t unnamed = 0;
   for (const auto& [key, cost] : their_ir) {
      if (key.first.rfind("libbz2", 0) != 0 || key.second.rfind("0x", 0) != 0 ||
          cost * 100 < total)
         continue;
      ++unnamed;
      auto it = mine_ir.find(key);
      ASSERT_NE(it, mine_ir.end()) << key.second << " [" << key.first << "] is not in the profile";
      // callgrind charges code to the function a call entered, vgprof to
      // the function holding it: they differ only where code of one runs
      // in the other's context.
      EXPECT_NEAR(double(it->second), double(cost), 0.001 * double(cost)) << key.second;
   }
   EXPECT_GE(unnamed, 3u) << "libbz2 has symbols here: the test proves nothing";
   // No cost is left to an anonymous "???" worth mentioning.
   for (const auto& [key, cost] : mine_ir) {
      if (key.second == "???") {
         EXPECT_LT(cost * 1000, mine.meta().totals[0]) << key.first;
      }
   }
}

// Debian's sqlite3 calls into its stripped libsqlite3, and that library
// into libc, through stubs of the procedure linkage table, which lie before
// the object's .text. They are one function of their object, "0x... [PLT]";
// what is left to an anonymous "???" is an object's .init and .fini, a few
// instructions each (arithmetic: under 20 per object).
TEST(StrippedLibrary, LinkageStubsAreAFunctionOfTheirObject)
{
   TempDir dir;
   write_file(dir / "input", "create table t(a, b);\n"
                             "with recursive n(i) as (select 1 union all select i + 1 from n where i < 300)\n"
                             "insert into t select i, 'v' || i from n;\n"
                             "select count(*), max(b) from t;\n");
   const std::vector<std::string> program = resolve_program({"sqlite3", "-init", "input", ":memory:"});
   auto vp = run_tool("vgprof", {"--cache-sim=no", "--vgprof-out-file=vp.json"}, program, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   uint64_t stubs = 0;
   for (const auto& [key, cost] : self_ir(p)) {
      if (key.second == "???") {
         EXPECT_LT(cost, 20u) << key.first;
      }
      if (key.first.rfind("libsqlite3", 0) == 0 &&
          std::regex_match(key.second, std::regex("0x[0-9a-f]{16} \\[PLT\\]")))
         stubs += cost;
   }
   // Every call from libsqlite3 into libc goes through a stub: one jump.
   EXPECT_GT(stubs, 1000u);
}

struct Program {
   std::string name;
   std::vector<std::string> argv;   // a test program's name, or a command
   std::string input;               // written to "input" if set
};

void PrintTo(const Program& p, std::ostream* out) { *out << p.name; }

class InclusiveHoldsSelf : public ::testing::TestWithParam<Program> {};

// Arithmetic, not a reference tool: what ran while a function was on a
// stack, or while its code ran, includes its own instructions. The loader
// refuses a profile that breaks it; this says which function did.
TEST_P(InclusiveHoldsSelf, ForEveryFunctionAndEvent)
{
   const Program& c = GetParam();
   TempDir dir;
   if (!c.input.empty()) write_file(dir / "input", c.input);
   std::vector<std::string> argv = c.argv;
   if (exists(progs_dir() + "/" + argv[0])) argv[0] = progs_dir() + "/" + argv[0];
   auto vp = run_tool("vgprof", {"--branch-sim=yes", "--vgprof-out-file=vp.json"},
                      resolve_program(argv), dir.path());
   ASSERT_TRUE(exists(dir / "vp.json")) << vp.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   ASSERT_TRUE(p.has_call_graph());
   size_t checked = 0;
   for (const vgprof::FunctionCost& f : vgprof::function_costs(p)) {
      for (size_t e = 0; e < p.num_events(); ++e) {
         if (f.self[e] == 0) continue;
         ++checked;
         EXPECT_GE(f.inclusive[e], f.self[e])
             << p.meta().events[e] << " of " << vgprof::function_label(p, f.fn);
      }
   }
   EXPECT_GT(checked, 100u);
}

INSTANTIATE_TEST_SUITE_P(
    Programs, InclusiveHoldsSelf,
    ::testing::Values(
        Program{"bzip2", {"bzip2", "-9", "-c", "input"}, generated_text(30000)},
        Program{"sqlite3", {"sqlite3", "-init", "input", ":memory:"},
                "create table t(a, b);\n"
                "with recursive n(i) as (select 1 union all select i + 1 from n where i < 500)\n"
                "insert into t select i, 'v' || i from n;\n"
                "create index tb on t(b);\nselect count(*), max(b) from t;\n"},
        Program{"recursion", {"recursion"}, ""}, Program{"longjmp", {"longjmp"}, ""},
        Program{"signal_and_siglongjmp", {"sigjmp"}, ""}, Program{"threads", {"threads"}, ""},
        Program{"cxx_exceptions", {"throw"}, ""}, Program{"cxx_templates", {"cxx_templates"}, ""},
        // libc's strcasecmp runs on into strcasecmp_l's code, with no jump.
        Program{"code_falling_into_another_function", {"heap_strings"}, ""}),
    [](const ::testing::TestParamInfo<Program>& info) { return info.param.name; });

// The functions of the program's own object that callgrind names, with
// their self cost; the same of vgprof's profile.
std::set<std::string> own_functions(const vgprof::Profile& p, const std::string& object)
{
   std::set<std::string> names;
   for (const auto& [key, cost] : self_ir(p))
      if (key.first == object) names.insert(key.second);
   return names;
}

// Demangled names read as callgrind shows them (Valgrind's demangler, for
// C++ and for Rust's legacy and v0 schemes, the hash suffix left out, so
// that functions that differ only by it are one), but for the closures
// legacy names leave unnumbered, and --demangle=no keeps them mangled.
void expect_names_as_callgrinds(const std::string& program, const std::string& mangled_prefix)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--cache-sim=no", "--vgprof-out-file=vp.json"}, {program},
                      dir.path());
   auto cl = run_tool("callgrind", {"--callgrind-out-file=cl.out"}, {program}, dir.path());
   auto raw = run_tool("vgprof", {"--cache-sim=no", "--demangle=no", "--vgprof-out-file=raw.json"},
                       {program}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   ASSERT_EQ(cl.exit_code, 0) << cl.err;
   ASSERT_EQ(raw.exit_code, 0) << raw.err;
   const std::string object = base_name(program);
   const std::set<std::string> mine = own_functions(vgprof::load_profile(dir / "vp.json"), object);
   const std::set<std::string> theirs = own_functions(vgprof::load_profile(dir / "cl.out"), object);
   // (Code without a symbol, which callgrind names by the address of each
   // block a call entered, is StrippedLibrary's concern.)
   for (const std::string& name : theirs) {
      if (name.rfind("0x", 0) == 0) continue;
      // Rust's legacy mangling names every closure and async body of a
      // function "{{closure}}": the profile names it as the debug
      // information does, below the same path ("{closure#0}", "{async_fn#0}").
      const size_t vague = name.find("{{closure}}");
      if (vague != std::string::npos) {
         const std::string path = name.substr(0, vague);
         EXPECT_TRUE(std::any_of(mine.begin(), mine.end(), [&](const std::string& m) {
            return m.rfind(path + "{closure#", 0) == 0 || m.rfind(path + "{async", 0) == 0;
         })) << "callgrind's " << name << " is in the profile under no name below " << path;
         continue;
      }
      EXPECT_TRUE(mine.count(name)) << "callgrind's " << name << " is not in the profile";
   }
   const std::regex hash(".*::h[0-9a-f]{16}$");
   for (const std::string& name : mine) {
      EXPECT_NE(name.rfind(mangled_prefix, 0), 0u) << name << " is still mangled";
      EXPECT_FALSE(std::regex_match(name, hash)) << name << " keeps its hash";
   }
   size_t mangled = 0;
   for (const std::string& name : own_functions(vgprof::load_profile(dir / "raw.json"), object))
      mangled += name.rfind(mangled_prefix, 0) == 0;
   EXPECT_GT(mangled, 0u) << "--demangle=no left no name mangled";
}

// Each Rust test runs with every toolchain the programs were built with
// (harness.hpp): rustc's names, mangling and allocator shims change
// between Rust releases.
class RustRelease : public ::testing::TestWithParam<std::string> {};
class RustAsync : public ::testing::TestWithParam<std::string> {};
INSTANTIATE_TEST_SUITE_P(Toolchains, RustRelease, ::testing::ValuesIn(kRustToolchains),
                         [](const auto& info) { return rust_toolchain_label(info.param); });
INSTANTIATE_TEST_SUITE_P(Toolchains, RustAsync, ::testing::ValuesIn(kRustToolchains),
                         [](const auto& info) { return rust_toolchain_label(info.param); });

TEST_P(RustRelease, LegacyNamesAreDemangledAsCallgrindShowsThem)
{
   const std::string program = rust_program(GetParam(), "rust_inline");
   if (!exists(program)) GTEST_SKIP() << rust_missing(GetParam());
   expect_names_as_callgrinds(program, "_ZN");
}

TEST_P(RustRelease, V0NamesAreDemangledAsCallgrindShowsThem)
{
   const std::string program = rust_program(GetParam(), "rust_inline_v0");
   if (!exists(program)) GTEST_SKIP() << rust_missing(GetParam());
   expect_names_as_callgrinds(program, "_R");
}

TEST(CxxTemplates, NamesAreDemangledAsCallgrindShowsThem)
{
   expect_names_as_callgrinds(progs_dir() + "/cxx_templates", "_Z");
}

// The inlined functions of the profile named `name`.
std::vector<vgprof::FnId> inlined_named(const vgprof::Profile& p, const std::string& name)
{
   std::vector<vgprof::FnId> out;
   for (size_t i = 0; i < p.functions().size(); ++i) {
      const vgprof::FnId fn(static_cast<uint32_t>(i));
      if (p.function(fn).inlined && p.fn_name(fn) == name) out.push_back(fn);
   }
   return out;
}

// cxx_templates fills a vector<long> and a vector<double> with rvalues:
// their push_back methods, inlined into main, are two functions named with
// their classes, as the C++ demangler names their symbols, not one
// "push_back".
TEST(CxxTemplates, InlinedMethodsAreNamedWithTheirClasses)
{
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {progs_dir() + "/cxx_templates"},
                      dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   for (const char* type : {"long", "double"}) {
      const std::string method = std::string("std::vector<") + type + ", std::allocator<" + type +
                                 "> >::push_back(" + type + "&&)";
      EXPECT_EQ(inlined_named(p, method).size(), 1u) << method;
   }
   EXPECT_TRUE(inlined_named(p, "push_back").empty());
}

// The line of the source at `path` holding `text`, from the source itself.
uint32_t line_of(const std::string& path, const std::string& text)
{
   std::ifstream in(path);
   std::string line;
   for (uint32_t n = 1; std::getline(in, line); ++n)
      if (line.find(text) != std::string::npos) return n;
   return 0;
}

// Every allocation of rust_inline is standard-library code inlined into the
// program: DHAT's stacks, inlined frames and all, are the profile's, and
// they reach the program's own lines. Bytes read and written are compared
// within 25%: Rust's runtime reads /proc/self/maps when it starts (to find
// the main thread's stack), and that file lists each tool's own mappings,
// a different number of lines under DHAT than under vgprof.
TEST_P(RustRelease, AllocationStacksHaveDhatsInlinedFramesDownToTheProgramsLines)
{
   const std::string program = rust_program(GetParam(), "rust_inline");
   if (!exists(program)) GTEST_SKIP() << rust_missing(GetParam());
   TempDir dir;
   expect_heap_matches_dhat({program}, {}, dir.path(), 0, nullptr, 0.25);
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   const vgprof::Heap& heap = *p.heap();
   std::string source;   // as the debug info names it
   for (const vgprof::StrId path : p.files())
      if (base_name(p.str(path)) == "rust_inline.rs") source = p.str(path);
   ASSERT_FALSE(source.empty()) << "no line of rust_inline.rs ran";
   const std::set<uint32_t> wanted = {line_of(source, "let v: Vec<u64>"),
                                      line_of(source, "Vec::with_capacity(n)"),
                                      line_of(source, "out.push(format!")};
   std::set<uint32_t> found;
   for (const vgprof::HeapSite& s : heap.sites)
      for (vgprof::FrameId f : s.frames) {
         const vgprof::HeapFrame& frame = heap.frame(f);
         if (base_name(p.file_path(frame.file)) == "rust_inline.rs" && p.function(frame.fn).inlined)
            found.insert(frame.line);
      }
   for (uint32_t line : wanted)
      EXPECT_TRUE(found.count(line)) << "no inlined frame at rust_inline.rs:" << line;
}

// With its debug sections compressed, rust_inline's inlined calls are read
// by Valgrind alone, which names those whose function lies in another
// compile unit "UnknownInlinedFun", as DHAT shows them: in the profile such
// a frame is an unnamed inlined function of the file of its code, so that
// the unnamed calls of one file are not taken for one real function.
TEST_P(RustRelease, InlinedCallsWithoutANameAreMarkedUnnamedWithTheirFile)
{
   const std::string program = rust_program(GetParam(), "rust_inline_zdebug");
   if (!exists(program)) GTEST_SKIP() << rust_missing(GetParam());
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {program}, dir.path());
   auto dh = run_tool("dhat", {"--dhat-out-file=dh.json"}, {program}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   ASSERT_EQ(dh.exit_code, 0) << dh.err;
   // DHAT's unnamed frames: "0x1234: UnknownInlinedFun (mod.rs:433)".
   std::set<std::string> expected;
   const boost::json::object doc = boost::json::parse(read_file(dir / "dh.json")).as_object();
   for (const boost::json::value& f : doc.at("ftbl").as_array()) {
      const std::string text(f.as_string());
      const size_t at = text.find(": UnknownInlinedFun (");
      if (at == std::string::npos) continue;
      const std::string file = text.substr(at + 21, text.rfind(':') - at - 21);
      expected.insert("{unnamed inlined function in " + base_name(file) + "}");
   }
   // rustc 1.63's debug information names every inlined call it makes in
   // this program: nothing to mark there.
   if (expected.empty() && !GetParam().empty())
      GTEST_SKIP() << "skipped: DHAT names no inlined call UnknownInlinedFun in this rustc's build";
   ASSERT_FALSE(expected.empty()) << "DHAT names no inlined call UnknownInlinedFun";
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   std::set<std::string> frames;
   for (const vgprof::HeapSite& site : p.heap()->sites)
      for (const auto frame : site.frames) frames.insert(p.fn_name(p.heap()->frame(frame).fn));
   for (const std::string& name : expected) EXPECT_TRUE(frames.count(name)) << name;
   EXPECT_FALSE(frames.count("UnknownInlinedFun"));
}

// A little-endian field of the ELF image `elf`.
uint64_t field(const std::string& elf, size_t at, size_t bytes)
{
   uint64_t v = 0;
   for (size_t i = bytes; i-- > 0;) v = (v << 8) | uint8_t(elf.at(at + i));
   return v;
}

// Where section `name` of the 64-bit ELF image lies: its header's offset,
// its data's offset and size.
struct Section { size_t header, offset, size; };
Section section_named(const std::string& elf, const std::string& name)
{
   const size_t shoff = field(elf, 0x28, 8), entsize = field(elf, 0x3a, 2),
                count = field(elf, 0x3c, 2), strndx = field(elf, 0x3e, 2);
   const size_t names = field(elf, shoff + strndx * entsize + 0x18, 8);
   for (size_t i = 0; i < count; ++i) {
      const size_t h = shoff + i * entsize;
      if (elf.c_str() + names + field(elf, h, 4) == name)
         return {h, field(elf, h + 0x18, 8), field(elf, h + 0x20, 8)};
   }
   return {0, 0, 0};
}

// rust_inline with bytes of its debug information changed, or its main
// section cut short: the names vgprof reads from it may be lost, the run
// and the profile are not.
TEST_P(RustRelease, DamagedDebugInformationLeavesTheRunWhole)
{
   const std::string program = rust_program(GetParam(), "rust_inline");
   if (!exists(program)) GTEST_SKIP() << rust_missing(GetParam());
   const std::string original = read_file(program);
   size_t inlined = 0;
   for (int variant = 0; variant < 5; ++variant) {
      std::string elf = original;
      uint64_t state = 12345 + uint64_t(variant);
      auto next = [&state] { return state = state * 6364136223846793005ULL + 1442695040888963407ULL; };
      for (const char* name : {".debug_info", ".debug_abbrev", ".debug_str", ".debug_aranges"}) {
         const Section sec = section_named(elf, name);
         ASSERT_GT(sec.size, 0u) << name;
         for (int k = 0; k < 3; ++k) elf[sec.offset + (next() >> 20) % sec.size] = char(next() >> 40);
      }
      if (variant == 4) {
         // The section's header says it holds a third of its data.
         const Section info = section_named(elf, ".debug_info");
         for (size_t i = 0; i < 8; ++i) elf[info.header + 0x20 + i] = char(((info.size / 3) >> (8 * i)) & 0xff);
      }
      TempDir dir;
      write_file(dir / "damaged", elf);
      ASSERT_EQ(::chmod((dir / "damaged").c_str(), 0755), 0);
      auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {"./damaged"}, dir.path());
      ASSERT_EQ(vp.exit_code, 0) << "variant " << variant << ": " << vp.err;
      const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
      EXPECT_FALSE(p.functions().empty()) << "variant " << variant;
      for (size_t i = 0; i < p.functions().size(); ++i)
         inlined += p.function(vgprof::FnId(static_cast<uint32_t>(i))).inlined;
   }
   // Valgrind kept the inlined calls it read: names were looked for in
   // the damaged data.
   EXPECT_GT(inlined, 0u);
}

// The call-path tree: the calls made from inlined code hang below the
// inlined functions' nodes, and report --function finds an inlined
// function, where it was inlined and what its code cost.
TEST_P(RustRelease, InlinedFunctionsAreNodesOfTheTreeAndReportFunctionFindsThem)
{
   const std::string program = rust_program(GetParam(), "rust_inline");
   if (!exists(program)) GTEST_SKIP() << rust_missing(GetParam());
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {program}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   std::string source;
   for (const vgprof::StrId path : p.files())
      if (base_name(p.str(path)) == "rust_inline.rs") source = p.str(path);
   ASSERT_FALSE(source.empty());
   // build_table, inlined into main, calls the allocator (through the
   // inlined standard-library code below it).
   bool found = false;
   for (size_t i = 0; i < p.paths().size(); ++i) {
      const vgprof::PathNode& n = p.paths()[i];
      if (!n.fn || !n.parent || p.fn_name(*n.fn) != "rust_inline::build_table") continue;
      const vgprof::PathNode& up = p.path(*n.parent);
      EXPECT_TRUE(p.function(*n.fn).inlined);
      EXPECT_EQ(n.count, 0u);
      EXPECT_EQ(p.path_self(i)[0], 0u);
      if (up.fn && p.fn_name(*up.fn) == "rust_inline::main") found = p.path_inclusive(i)[0] > 0;
   }
   EXPECT_TRUE(found) << "no build_table node below main";
   auto r = run({cli_path(), "report", "--function", "build_table", "--events", "Ir", "vp.json"},
                dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   EXPECT_NE(r.out.find("(inlined)"), std::string::npos) << r.out;
   const std::string host = "rust_inline::main  [" + program + "]  " + source + ":" +
                            std::to_string(line_of(source, "let table = build_table(400);"));
   EXPECT_NE(r.out.find(host), std::string::npos) << r.out;
}

// The names binutils' demangler gives the linkage names in `program`'s
// debug information, the hash suffix left out as Valgrind leaves it out.
std::set<std::string> demangled_linkage_names(const std::string& program, const std::string& dir)
{
   const RunResult info = run({"readelf", "--debug-dump=info", "--wide", program}, dir);
   std::string mangled;
   std::istringstream lines(info.out);
   for (std::string line; std::getline(lines, line);)
      if (line.find("DW_AT_linkage_name") != std::string::npos)
         mangled += line.substr(line.rfind(": ") + 2) + "\n";
   write_file(dir + "/linkage", mangled);
   const RunResult demangled = run({"sh", "-c", "c++filt < linkage"}, dir);
   const std::regex hash("::h[0-9a-f]{16}$");
   std::set<std::string> names;
   std::istringstream out(demangled.out);
   for (std::string line; std::getline(out, line);) names.insert(std::regex_replace(line, hash, ""));
   return names;
}

// `name` without the generic arguments that end it ("f" for "f<u64>"), or
// "" when it does not end with any.
std::string without_final_arguments(const std::string& name)
{
   int depth = 0;
   for (size_t i = name.size(); i-- > 0;) {
      if (name[i] == '>') depth++;
      else if (name[i] == '<' && --depth == 0) return name.substr(0, i);
      if (depth == 0) break;
   }
   return "";
}

// Rust's legacy mangling leaves out an instance's generic arguments
// (alloc::vec::Vec<T>::with_capacity), which the debug information's name
// of it gives (with_capacity<u64>): callgrind and perf show every instance
// as its symbol demangles, and so does the profile, the instances inlined
// too, so that no function is named two ways, inlined and not.
TEST_P(RustRelease, InlinedInstancesAreNamedAsTheirLegacySymbolsDemangle)
{
   const std::string program = rust_program(GetParam(), "rust_inline");
   if (!exists(program)) GTEST_SKIP() << rust_missing(GetParam());
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {program}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   const std::set<std::string> linkage = demangled_linkage_names(program, dir.path());
   ASSERT_TRUE(linkage.count("alloc::vec::Vec<T>::with_capacity")) << "binutils read no linkage name";
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   size_t named = 0;
   for (size_t i = 0; i < p.functions().size(); ++i) {
      const vgprof::Function& fn = p.function(vgprof::FnId(static_cast<uint32_t>(i)));
      if (!fn.inlined || base_name(p.obj_path(fn.obj)) != "rust_inline") continue;
      const std::string name = p.fn_name(vgprof::FnId(static_cast<uint32_t>(i)));
      if (linkage.count(name)) {
         ++named;
         continue;
      }
      const std::string bare = without_final_arguments(name);
      EXPECT_FALSE(linkage.count(bare)) << name << " is " << bare << " with generic arguments added";
   }
   EXPECT_GT(named, 0u);
   // rust_inline's Vec::with_capacity(n), inlined into build_table.
   EXPECT_FALSE(inlined_named(p, "alloc::vec::Vec<T>::with_capacity").empty());
}

// The source file of the profile whose last component is `name`.
std::string source_named(const vgprof::Profile& p, const std::string& name)
{
   for (const vgprof::StrId path : p.files())
      if (base_name(p.str(path)) == name) return p.str(path);
   return "";
}

// The async server's allocations through its own lines: the per-request
// buffer of build_payload (inlined standard-library code), the strings of
// collect(), to_string() and format! (made inside standard-library
// functions that are not inlined) are each charged to the line that asked
// for them and to every line of the program that called down to it, as
// DHAT's stacks say; the lines of handle_request add up to the bytes of
// every site below it.
TEST_P(RustAsync, AnnotateChargesEveryCallingLineWithDhatsAllocations)
{
   const std::string program = rust_program(GetParam(), "rust_async");
   if (!exists(program)) GTEST_SKIP() << rust_missing(GetParam());
   TempDir dir;
   expect_heap_matches_dhat({program}, {}, dir.path(), 0, nullptr, 0.25);
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   const std::string source = source_named(p, "rust_async.rs");
   ASSERT_FALSE(source.empty()) << "no line of rust_async.rs ran";
   const LineAllocations expected = dhat_allocations_by_line(dir / "dh.json", "rust_async.rs");
   const uint32_t collect = line_of(source, ".collect()"), format = line_of(source, "let key = format!"),
                  payload = line_of(source, "    vec![0u8; n]");
   for (uint32_t line : {collect, format, payload})
      EXPECT_TRUE(expected.count(line)) << "DHAT has no allocation through rust_async.rs:" << line;
   // Every request's buffer, by the program's own constants.
   EXPECT_EQ(expected.at(payload).first, 15u * 20u * 4096u);
   auto r = run({cli_path(), "annotate", "--all", "--events", "Ir", "--source-dir",
                 source.substr(0, source.rfind('/')), "vp.json", "rust_async.rs"},
                dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   expect_annotated_allocations(r.out, source, expected);
   auto json = run({cli_path(), "annotate", "--format", "json", "vp.json", "rust_async.rs"}, dir.path());
   ASSERT_EQ(json.exit_code, 0) << json.err;
   expect_json_allocations(json.out, "rust_async.rs", expected);

   // handle_request's body: from its signature to the next function's.
   const uint32_t first = line_of(source, "async fn handle_request"),
                  last = line_of(source, "async fn serve_conn");
   uint64_t body = 0, below = 0;
   for (const auto& [line, figures] : expected)
      if (line > first && line < last) body += figures.first;
   const boost::json::object doc = boost::json::parse(read_file(dir / "dh.json")).as_object();
   const boost::json::array& ftbl = doc.at("ftbl").as_array();
   for (const boost::json::value& v : doc.at("pps").as_array())
      for (const boost::json::value& f : v.at("fs").as_array()) {
         const std::string text(ftbl.at(u64(f)).as_string());
         const size_t at = text.find("rust_async.rs:");
         if (at == std::string::npos) continue;
         const uint32_t line = uint32_t(std::stoul(text.substr(at + 14)));
         if (line > first && line < last) {
            below += u64(v.at("tb"));
            break;
         }
      }
   EXPECT_EQ(body, below);
   EXPECT_GT(body, expected.at(payload).first);
}

// pprof's samples name the program's own code they came through: the heap
// samples of build_payload's buffers carry its line (15 connections x 20
// requests x 4,096 bytes, by the program's constants), and the CPU samples
// of the C library's memset that clears them carry build_payload; the
// totals stay the profile's.
TEST_P(RustAsync, PprofSamplesNameTheProgramsOwnCodeTheyCameThrough)
{
   const std::string program = rust_program(GetParam(), "rust_async");
   if (!exists(program)) GTEST_SKIP() << rust_missing(GetParam());
   if (run({"/bin/sh", "-c", "command -v go"}, "/").exit_code != 0) GTEST_SKIP() << "skipped: go not installed";
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {program}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   auto out = run({cli_path(), "export", "--format", "pprof", "-o", "vp.pprof", "vp.json"}, dir.path());
   ASSERT_EQ(out.exit_code, 0) << out.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   const std::string source = source_named(p, "rust_async.rs");
   const std::string line = std::to_string(line_of(source, "    vec![0u8; n]"));

   auto tags = run({"go", "tool", "pprof", "-tags", "-unit=B", "-sample_index=alloc_space", "vp.pprof"},
                   dir.path());
   ASSERT_EQ(tags.exit_code, 0) << tags.err;
   EXPECT_TRUE(std::regex_search(tags.out, std::regex(std::to_string(15 * 20 * 4096) +
                                                      "\\.0B \\([ 0-9.]+%\\): rust_async::build_payload \\(" +
                                                      source + ":" + line + "\\)\n")))
      << tags.out;

   auto top = run({"go", "tool", "pprof", "-top", "-tagfocus=own_function=build_payload", "vp.pprof"},
                  dir.path());
   ASSERT_EQ(top.exit_code, 0) << top.err;
   EXPECT_TRUE(std::regex_search(top.out, std::regex("\n +[1-9][0-9]* +[0-9.]+% .* [^ ]*memset[^ ]*\n")))
      << top.out;
   EXPECT_NE(top.out.find(" of " + std::to_string(p.meta().totals[0]) + " total"), std::string::npos)
      << top.out;
}

// The async server's three async functions, their bodies inlined into the
// executor's poll loop: each body is a function of its own, named with its
// crate and function (rustc calls the body of `async fn f` "f::{async_fn#0}"),
// not one "{async_fn#0}" for all; no code is put on an "UnknownInlinedFun";
// and `report --function serve_conn` shows serve_conn's body.
TEST_P(RustAsync, AsyncBodiesAreFunctionsNamedWithTheirPaths)
{
   const std::string program = rust_program(GetParam(), "rust_async");
   if (!exists(program)) GTEST_SKIP() << rust_missing(GetParam());
   TempDir dir;
   auto vp = run_tool("vgprof", {"--vgprof-out-file=vp.json"}, {program}, dir.path());
   ASSERT_EQ(vp.exit_code, 0) << vp.err;
   const vgprof::Profile p = vgprof::load_profile(dir / "vp.json");
   std::set<vgprof::FnId> bodies;
   for (const char* fn : {"parse_request", "handle_request", "serve_conn"}) {
      const std::string body = std::string("rust_async::") + fn + "::{async_fn#0}";
      const std::vector<vgprof::FnId> found = inlined_named(p, body);
      EXPECT_EQ(found.size(), 1u) << body;
      bodies.insert(found.begin(), found.end());
   }
   EXPECT_EQ(bodies.size(), 3u);
   for (size_t i = 0; i < p.functions().size(); ++i) {
      const std::string& name = p.fn_name(vgprof::FnId(static_cast<uint32_t>(i)));
      EXPECT_NE(name, "UnknownInlinedFun");
      EXPECT_NE(name.rfind("{async_fn#", 0), 0u) << name << " has no path";
   }
   for (const vgprof::HeapSite& site : p.heap()->sites)
      for (const auto frame : site.frames)
         EXPECT_NE(p.fn_name(p.heap()->frame(frame).fn), "UnknownInlinedFun");

   auto r = run({cli_path(), "report", "--function", "serve_conn", "--events", "Ir", "vp.json"},
                dir.path());
   ASSERT_EQ(r.exit_code, 0) << r.err;
   EXPECT_NE(r.out.find("Function:         rust_async::serve_conn::{async_fn#0}  ["),
             std::string::npos)
       << r.out;
}

// The CI gate on the async server with its per-request allocation doubled:
// the rise, 15 connections x 20 requests x 4,096 more bytes, is named at
// build_payload's line of the program's own source, not in the standard
// library's allocation code, in the text and in a GitHub annotation whose
// path is relative to the repository.
TEST_P(RustAsync, TheGateNamesTheProgramsLineOfADoubledAllocation)
{
   const std::string program = rust_program(GetParam(), "rust_async"), doubled = rust_program(GetParam(), "rust_async_doubled");
   if (!exists(program) || !exists(doubled))
      GTEST_SKIP() << rust_missing(GetParam());
   TempDir dir;
   for (const auto& [binary, out] : {std::make_pair(program, "base.json"), std::make_pair(doubled, "new.json")}) {
      write_file(dir / "server", read_file(binary));
      ASSERT_EQ(::chmod((dir / "server").c_str(), 0755), 0);
      auto vp = run_tool("vgprof", {std::string("--vgprof-out-file=") + out}, {"./server"}, dir.path());
      ASSERT_EQ(vp.exit_code, 0) << vp.err;
   }
   const vgprof::Profile p = vgprof::load_profile(dir / "new.json");
   const std::string source = source_named(p, "rust_async.rs");
   ASSERT_FALSE(source.empty());
   const std::string line = std::to_string(line_of(source, "    vec![0u8; n]"));
   const std::string rise = vgprof::format_thousands(15u * 20u * 4096u);

   auto text = run({cli_path(), "diff", "base.json", "new.json", "--fail-above", "HeapBytes=+1%"},
                   dir.path());
   EXPECT_EQ(text.exit_code, 1) << text.err;
   EXPECT_NE(text.out.find("rose in rust_async::build_payload +" + rise + ", at "), std::string::npos)
       << text.out;
   EXPECT_NE(text.out.find("rust_async.rs:" + line + " +" + rise), std::string::npos) << text.out;
   EXPECT_EQ(text.out.find("rose in alloc"), std::string::npos) << text.out;

   const std::string repository = source.substr(0, source.rfind('/'));
   auto github = run({"/usr/bin/env", "GITHUB_WORKSPACE=" + repository, cli_path(), "diff",
                      "base.json", "new.json", "--fail-above", "HeapBytes=+1%", "--format", "github"},
                     dir.path());
   EXPECT_EQ(github.exit_code, 1) << github.err;
   EXPECT_NE(github.out.find("::error file=rust_async.rs,line=" + line + ","), std::string::npos)
      << github.out;
   EXPECT_EQ(github.out.find("file=/rustc"), std::string::npos) << github.out;

   // The instructions: the larger buffer is cleared by the C library's
   // memset (calloc's), called through the standard library's allocation
   // code inlined into build_payload: the rise is named at its line.
   auto cpu = run({cli_path(), "diff", "base.json", "new.json", "--fail-above", "Ir=+1%"}, dir.path());
   EXPECT_EQ(cpu.exit_code, 1) << cpu.err;
   EXPECT_TRUE(std::regex_search(
       cpu.out, std::regex("\n      rose in [^ ]*memset[^ ]* \\+[0-9,]+, called through "
                           "rust_async::build_payload at [^ ]*/rust_async\\.rs:" + line + "\n")))
      << cpu.out;
   auto cpu_github = run({"/usr/bin/env", "GITHUB_WORKSPACE=" + repository, cli_path(), "diff",
                          "base.json", "new.json", "--fail-above", "Ir=+1%", "--format", "github"},
                         dir.path());
   EXPECT_EQ(cpu_github.exit_code, 1) << cpu_github.err;
   EXPECT_TRUE(std::regex_search(
       cpu_github.out, std::regex("::error file=rust_async\\.rs,line=" + line +
                                  ",title=[^:]*::Ir self of [^ ]*memset[^ ]* \\+")))
      << cpu_github.out;
}

}  // namespace
