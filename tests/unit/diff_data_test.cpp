// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of the data objects in `vgprof diff`: diff_data
// (vgprof/data_diff.hpp) and the data part of write_diff's outputs, on the
// data fixture (data_fixture.hpp) against a variant whose changes, worked
// out by hand, are:
//   heap site 0:  D1mr 400 -> 100 (Dr 800 unchanged: a miss rate of 50%
//                 becomes 12.5%), its offsets 300 -> 75 and 100 -> 25,
//                 all work's; work's line D1mr 440 -> 140.
//   table:        D1mr 100 -> 150 (Dr 300: 33.33% becomes 50%), main's;
//                 main's line D1mr 100 -> 150.
//   stack:        unchanged.
//   total D1mr:   540 -> 290.
#include "data_fixture.hpp"

#include "cli/commands.hpp"
#include "vgprof/data_diff.hpp"
#include "vgprof/error.hpp"
#include "vgprof/load.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <utility>

namespace vgprof {
namespace {

using test::data_json;
using test::ProfileText;
using test::with_data;

Profile load(const ProfileText& text) { return parse_profile(text.str(), "p.json"); }

std::string diff_output(const ProfileText& base, const ProfileText& now,
                        const std::string& format, const std::string& event = "D1mr")
{
    cli::DiffOptions o;
    o.format = format;
    o.data_event = event;
    std::ostringstream out;
    cli::write_diff(out, load(base), load(now), o);
    return out.str();
}

TEST(DataDiff, ObjectsMatchAcrossProfilesAndRankByTheEventsChange)
{
    const Profile base = load(with_data()), now = load(test::with_changed_data());
    const std::vector<DataObjectDelta> d = diff_data(base, now, 1 /* D1mr */);
    ASSERT_EQ(d.size(), 3u);
    EXPECT_EQ(d[0].kind, "heap");
    EXPECT_TRUE(d[0].in_base && d[0].in_now);
    EXPECT_EQ(d[0].cost[1].base, 400u);
    EXPECT_EQ(d[0].cost[1].now, 100u);
    EXPECT_EQ(d[0].cost[0].base, 800u);
    EXPECT_EQ(d[0].cost[0].now, 800u);
    EXPECT_DOUBLE_EQ(*d[0].base_rate(1), 0.5);
    EXPECT_DOUBLE_EQ(*d[0].now_rate(1), 0.125);
    EXPECT_EQ(d[1].key, "global|/usr/bin/app|table");
    EXPECT_EQ(d[1].cost[1].delta(), 50);
    EXPECT_EQ(d[2].kind, "stack");
    EXPECT_EQ(d[2].cost[1].delta(), 0);
    EXPECT_FALSE(d[0].base_rate(0));  // Dr has no rate
}

TEST(DataDiff, NoDataSectionInOneProfileComparesNoObject)
{
    EXPECT_TRUE(diff_data(load(with_data().drop("data")), load(test::with_changed_data()), 1).empty());
}

// The fixture's global under another name: strs 5, the global's name.
ProfileText named(ProfileText t, const std::string& name)
{
    return t.set("strs", R"(["???","/usr/bin/app","/src/app.c","main","work",")" + name + R"("])");
}

// Two builds of one program name its anonymous constants and promoted
// locals with other hashes (as rustc 1.95 with codegen units named them,
// built twice with another -C metadata): each is one object of both.
TEST(DataDiff, GlobalsWhoseNamesDifferOnlyByLlvmHashesAreOneObject)
{
    const std::pair<const char*, const char*> builds[] = {
        {"anon.20b6a9b0f63a896c1d551083043b9bc8.0.llvm.12047699024162347216",
         "anon.713a2a3c1e6d0eb1f9500913a718b468.0.llvm.13453889930307378526"},
        {"std::io::stdio::STDOUT.llvm.3643936799275306673",
         "std::io::stdio::STDOUT.llvm.5566994946562375346"},
        {"anon.58baeeae7d5fe476157d296c9f08f803.147", "anon.0e6d1b2f9c8a7d6e5f4a3b2c1d0e9f8a.147"}};
    for (const auto& [base_name, now_name] : builds) {
        const Profile base = load(named(with_data(), base_name));
        const Profile now = load(named(test::with_changed_data(), now_name));
        const std::vector<DataObjectDelta> d = diff_data(base, now, 1 /* D1mr */);
        ASSERT_EQ(d.size(), 3u) << base_name;
        EXPECT_EQ(d[1].kind, "global") << base_name;
        EXPECT_TRUE(d[1].in_base && d[1].in_now) << base_name;
        EXPECT_EQ(d[1].cost[1].base, 100u) << base_name;
        EXPECT_EQ(d[1].cost[1].now, 150u) << base_name;
        EXPECT_NE(d[1].label.find(now_name), std::string::npos) << d[1].label;
    }
}

// The stem alone does not pair objects of another size (every codegen
// unit has an "anon.<hash>.0"), nor names that differ in more than a hash.
TEST(DataDiff, HashedGlobalsOfAnotherSizeOrStemStayApart)
{
    const std::string smaller = test::data_json(
        R"([["heap",0,null,null,null,100,8,800,100,40,100,10,1])"
        R"(,["global",null,5,0,4210688,32,8,300,150,10,0,0,0])"
        R"(,["stack",null,null,null,null,0,0,200,40,4,200,20,2]])",
        "[[0,0,600,75,30,50,5,1],[0,8,200,25,10,50,5,0],[1,0,300,150,10,0,0,0]]",
        "[[0,1,100,40,10,1],[1,0,150,10,0,0],[2,0,0,0,10,1],[2,1,40,4,10,1]]");
    ProfileText now_smaller = test::with_changed_data();
    now_smaller.set("data", smaller);
    const std::pair<ProfileText, ProfileText> pairs[] = {
        {named(with_data(), "anon.20b6a9b0f63a896c1d551083043b9bc8.0.llvm.1"),
         named(now_smaller, "anon.713a2a3c1e6d0eb1f9500913a718b468.0.llvm.2")},
        {named(with_data(), "anon.20b6a9b0f63a896c1d551083043b9bc8.0.llvm.1"),
         named(test::with_changed_data(), "anon.713a2a3c1e6d0eb1f9500913a718b468.1.llvm.2")},
        {named(with_data(), "table.llvm.1"), named(test::with_changed_data(), "tables.llvm.1")}};
    for (const auto& [base, now] : pairs) {
        const std::vector<DataObjectDelta> d = diff_data(load(base), load(now), 1);
        ASSERT_EQ(d.size(), 4u);
        const auto globals = std::count_if(d.begin(), d.end(), [](const DataObjectDelta& o) {
            return o.kind == "global" && o.in_base != o.in_now;
        });
        EXPECT_EQ(globals, 2);
    }
}

TEST(StableSymbolStem, DropsTheHashesLlvmAddsAndNothingElse)
{
    EXPECT_EQ(stable_symbol_stem("anon.20b6a9b0f63a896c1d551083043b9bc8.0.llvm.12047699024162347216"),
              "anon.0");
    EXPECT_EQ(stable_symbol_stem("anon.58baeeae7d5fe476157d296c9f08f803.182"), "anon.182");
    EXPECT_EQ(stable_symbol_stem("_RNvNtCsiGO2KWI1TB6_12panic_unwind3imp6CANARY.llvm.556699"),
              "_RNvNtCsiGO2KWI1TB6_12panic_unwind3imp6CANARY");
    EXPECT_EQ(stable_symbol_stem(".str.1.llvm.42"), ".str.1");
    for (const char* stable : {"table", "anon", "anon.x1b2c3d4e5.0", "anon.1234567.0",
                               "anon.ABCDEF0123.0", "counter.llvm.", "counter.llvm.12a",
                               "anon.0123456789abcdef.x", ".llvm.5"})
        EXPECT_EQ(stable_symbol_stem(stable), std::nullopt) << stable;
}

TEST(DataDiffOutput, TextListsTheChangedObjectsWithTheirMissRates)
{
    const std::string text = diff_output(with_data(), test::with_changed_data(), "text");
    EXPECT_NE(text.find("Changed data objects by D1mr: 2 (showing 2)"), std::string::npos)
        << text;
    EXPECT_NE(text.find("D1mr base  D1mr new  change  change %  D1mr/Dr base  D1mr/Dr new  "
                        "data object"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("      400       100    -300   -75.00%        50.00%       12.50%  "
                        "heap site 0"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("      100       150     +50   +50.00%        33.33%       50.00%  "
                        "global table (64 bytes) [/usr/bin/app]"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("stack\n"), std::string::npos) << text;
}

TEST(DataDiffOutput, TheChosenEventRanksTheObjects)
{
    // No object's Dr changed: the two objects whose misses changed tie, in
    // the order of their keys ("global|..." before "heap|..."), and Dr has
    // no miss rate.
    const std::string text = diff_output(with_data(), test::with_changed_data(), "text", "Dr");
    EXPECT_NE(text.find("Changed data objects by Dr: 2 (showing 2)\n"
                        "Dr base  Dr new  change  change %  data object\n"
                        "    300     300       0     0.00%  global table (64 bytes) [/usr/bin/app]\n"
                        "    800     800       0     0.00%  heap site 0"),
              std::string::npos)
        << text;
    cli::DiffOptions o;
    o.data_event = "Ir";
    std::ostringstream out;
    EXPECT_THROW(cli::write_diff(out, load(with_data()), load(test::with_changed_data()), o), Error);
}

TEST(DataDiffOutput, MarkdownHasATableOfTheChangedObjects)
{
    const std::string md = diff_output(with_data(), test::with_changed_data(), "markdown");
    EXPECT_NE(md.find("**Top changed data objects** by D1mr (2 of 2 changed):"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| `global table (64 bytes) [/usr/bin/app]` | global | 100 | 150 | +50 | "
                      "+50.00% | 33.33% | 50.00% |"),
              std::string::npos)
        << md;
}

TEST(DataDiffOutput, JsonGivesEveryEventsChangeAndTheMissRates)
{
    const boost::json::object o =
        boost::json::parse(diff_output(with_data(), test::with_changed_data(), "json")).as_object();
    const boost::json::object& data =
        o.at("benchmarks").at(0).at("data").as_object();
    EXPECT_EQ(data.at("event"), "D1mr");
    EXPECT_EQ(data.at("changed_objects"), 2);
    const boost::json::array& objects = data.at("objects").as_array();
    ASSERT_EQ(objects.size(), 2u);
    const boost::json::object& heap = objects[0].as_object();
    EXPECT_EQ(heap.at("kind"), "heap");
    EXPECT_EQ(heap.at("costs").at("D1mr").at("delta"), -300);
    EXPECT_EQ(heap.at("costs").at("Dr").at("delta"), 0);
    EXPECT_DOUBLE_EQ(heap.at("miss_rates").at("D1mr").at("base").as_double(), 0.5);
    EXPECT_DOUBLE_EQ(heap.at("miss_rates").at("D1mr").at("new").as_double(), 0.125);
    EXPECT_FALSE(heap.at("miss_rates").as_object().contains("Dr"));
}

TEST(DataDiffOutput, OneProfileWithoutDataIsSaidNotCompared)
{
    const std::string text = diff_output(with_data().drop("data"), test::with_changed_data(), "text");
    EXPECT_NE(text.find("only the new profile says which data was accessed"), std::string::npos)
        << text;
    const boost::json::object o = boost::json::parse(diff_output(
        with_data().drop("data"), with_data().drop("data"), "json")).as_object();
    EXPECT_TRUE(o.at("benchmarks").at(0).at("data").is_null());
}

} // namespace
} // namespace vgprof
