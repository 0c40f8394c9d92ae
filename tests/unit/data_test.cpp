// SPDX-License-Identifier: GPL-2.0-or-later
// The data section of a profile (format version 7): loading and checking
// it, the questions vgprof/data.hpp answers, `vgprof report --data`,
// `report --heap --events` and `annotate --data`. The fixture is
// data_fixture.hpp's.
#include "data_fixture.hpp"
#include "profile_text.hpp"

#include "cli/commands.hpp"
#include "vgprof/data.hpp"
#include "vgprof/error.hpp"
#include "vgprof/load.hpp"
#include "vgprof/write.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace vgprof {
namespace {

using test::data_json;
using test::kDataFns;
using test::kDataObjects;
using test::kDataOffsets;
using test::with_data;

Profile load(const test::ProfileText& t) { return parse_profile(t.str(), "p.json"); }

std::string load_error(const test::ProfileText& t)
{
    try {
        load(t);
    } catch (const Error& e) {
        return e.what();
    }
    return "(loaded)";
}

DataCost cost(uint64_t dr, uint64_t d1mr, uint64_t dlmr, uint64_t dw, uint64_t d1mw,
              uint64_t dlmw)
{
    return DataCost{dr, d1mr, dlmr, dw, d1mw, dlmw};
}

// --- loading -------------------------------------------------------------------

TEST(DataLoad, ReadsObjectsOffsetsAndFunctions)
{
    const Profile p = load(with_data());
    ASSERT_NE(p.data(), nullptr);
    const DataProfile& d = *p.data();
    ASSERT_EQ(d.objects.size(), 3u);
    EXPECT_EQ(d.objects[0].kind, DataKind::heap);
    EXPECT_EQ(d.objects[0].site, SiteId(0));
    EXPECT_EQ(d.objects[0].width, 8u);
    EXPECT_EQ(d.objects[0].cost, cost(800, 400, 40, 100, 10, 1));
    EXPECT_EQ(d.objects[1].kind, DataKind::global);
    EXPECT_EQ(p.str(*d.objects[1].name), "table");
    EXPECT_EQ(p.obj_path(*d.objects[1].obj), "/usr/bin/app");
    EXPECT_EQ(d.objects[1].addr, 4210688u);
    EXPECT_EQ(d.objects[2].kind, DataKind::stack);
    EXPECT_FALSE(d.objects[2].site || d.objects[2].name || d.objects[2].obj);
    ASSERT_EQ(d.offsets.size(), 3u);
    EXPECT_EQ(d.offsets_of(DataObjId(0)), (std::pair<size_t, size_t>{0, 2}));
    EXPECT_EQ(d.offsets_of(DataObjId(2)), (std::pair<size_t, size_t>{3, 3}));
    EXPECT_EQ(d.offsets[1].offset, 8u);
    EXPECT_EQ(d.fns_of(DataObjId(2)), (std::pair<size_t, size_t>{2, 4}));
    EXPECT_EQ(data_total(d), cost(1300, 540, 54, 300, 30, 3));
}

TEST(DataLoad, IsWrittenBackAsItWasRead)
{
    const Profile p = load(with_data());
    std::ostringstream out;
    write_profile(out, p);
    EXPECT_EQ(out.str().rfind("{\"vgprof\":7\n", 0), 0u) << out.str();
    const Profile again = parse_profile(out.str(), "again.json");
    ASSERT_NE(again.data(), nullptr);
    const DataProfile& a = *again.data();
    const DataProfile& d = *p.data();
    ASSERT_EQ(a.objects.size(), d.objects.size());
    for (size_t i = 0; i < d.objects.size(); ++i) {
        EXPECT_EQ(a.objects[i].kind, d.objects[i].kind) << i;
        EXPECT_EQ(a.objects[i].site, d.objects[i].site) << i;
        EXPECT_EQ(a.objects[i].name, d.objects[i].name) << i;
        EXPECT_EQ(a.objects[i].addr, d.objects[i].addr) << i;
        EXPECT_EQ(a.objects[i].cost, d.objects[i].cost) << i;
    }
    ASSERT_EQ(a.offsets.size(), d.offsets.size());
    ASSERT_EQ(a.fns.size(), d.fns.size());
    for (size_t i = 0; i < d.fns.size(); ++i)
        EXPECT_EQ(a.fns[i].cost, d.fns[i].cost) << i;
}

TEST(DataLoad, AProfileWithoutTheSectionHasNoData)
{
    EXPECT_EQ(load(with_data().drop("data")).data(), nullptr);
}

TEST(DataLoadError, VersionSixHasNoDataSection)
{
    EXPECT_EQ(load_error(with_data().set("vgprof", "6")),
              R"(p.json: unknown top-level key "data" (not part of format version 6))");
}

TEST(DataLoadError, TheSectionNeedsTheHeapAndTheCacheEvents)
{
    EXPECT_EQ(load_error(with_data().drop("heap")),
              "p.json: data: the data section needs the heap section, whose sites it refers to");
    EXPECT_EQ(load_error(with_data()
                             .set_meta("events", R"(["Ir"])")
                             .set_meta("cache", "null")
                             .set_meta("totals", "[2485947]")
                             .set("lines", "[[0,1,11,1200],[1,1,4,2484747]]")),
              "p.json: data: the data section needs the event Dr in meta.events (the cache "
              "simulated)");
}

TEST(DataLoadError, TheObjectsMustAddUpToTheProgramTotals)
{
    const std::string objects = R"([["heap",0,null,null,null,100,8,800,400,40,100,10,1])"
                                R"(,["global",null,5,0,4210688,64,8,300,100,10,0,0,0])"
                                R"(,["stack",null,null,null,null,0,0,199,40,4,200,20,2]])";
    EXPECT_EQ(load_error(with_data(data_json(objects))),
              "p.json: data.objects: the objects' counts add up to 1299 Dr but meta.totals has "
              "1300");
}

TEST(DataLoadError, AnObjectsOffsetsMustAddUpToIt)
{
    const std::string offsets = "[[0,0,600,300,30,50,5,1],[0,8,200,100,10,50,4,0],"
                                "[1,0,300,100,10,0,0,0]]";
    EXPECT_EQ(load_error(with_data(data_json(kDataObjects, offsets))),
              "p.json: data.objects[0]: the object's offsets add up to 9 D1mw but the object "
              "has 10");
}

TEST(DataLoadError, AnObjectsFunctionsMustAddUpToItsMisses)
{
    const std::string fns = "[[0,1,400,40,10,1],[1,0,100,10,0,0],[2,1,40,4,10,1]]";
    EXPECT_EQ(load_error(with_data(data_json(kDataObjects, kDataOffsets, fns))),
              "p.json: data.objects[2]: the functions' misses add up to 10 D1mw but the object "
              "has 20");
}

TEST(DataLoadError, AFunctionsMissesMustAddUpToItsLines)
{
    // main's stack write misses charged to work instead: the object still
    // adds up, but neither function's lines do.
    const std::string fns = "[[0,1,400,40,10,1],[1,0,100,10,0,0],[2,1,40,4,20,2]]";
    EXPECT_EQ(load_error(with_data(data_json(kDataObjects, kDataOffsets, fns))),
              "p.json: data.fns: the rows of function 0 add up to 0 D1mw but its lines have 10");
}

TEST(DataLoadError, OffsetsAreBucketStartsInsideTheObject)
{
    EXPECT_EQ(load_error(with_data(data_json(
                  kDataObjects,
                  "[[0,0,600,300,30,50,5,1],[0,12,200,100,10,50,5,0],[1,0,300,100,10,0,0,0]]"))),
              "p.json: data.offsets[1][1]: offset 12 is not the start of a bucket of 8 bytes "
              "within the object's 100");
    EXPECT_EQ(load_error(with_data(data_json(
                  kDataObjects,
                  "[[0,0,600,300,30,50,5,1],[0,104,200,100,10,50,5,0],[1,0,300,100,10,0,0,0]]"))),
              "p.json: data.offsets[1][1]: offset 104 is not the start of a bucket of 8 bytes "
              "within the object's 100");
}

TEST(DataLoadError, OffsetsAreSortedAndOnlyForObjectsWithOffsets)
{
    EXPECT_EQ(load_error(with_data(data_json(
                  kDataObjects,
                  "[[0,8,200,100,10,50,5,0],[0,0,600,300,30,50,5,1],[1,0,300,100,10,0,0,0]]"))),
              "p.json: data.offsets[1]: rows must be sorted by (object, offset), each once");
    EXPECT_EQ(load_error(with_data(data_json(kDataObjects, "[[2,0,1,0,0,0,0,0]]"))),
              "p.json: data.offsets[0][0]: a stack object has no offsets");
}

TEST(DataLoadError, EachKindFillsItsOwnColumns)
{
    const auto objects_with = [](const std::string& first) {
        return "[" + first + R"(,["global",null,5,0,4210688,64,8,300,100,10,0,0,0])" +
               R"(,["stack",null,null,null,null,0,0,200,40,4,200,20,2]])";
    };
    EXPECT_EQ(load_error(with_data(data_json(
                  objects_with(R"(["heap",null,null,null,null,100,8,800,400,40,100,10,1])")))),
              "p.json: data.objects[0][1]: expected a heap site id for a heap object, got null");
    EXPECT_EQ(load_error(with_data(data_json(
                  objects_with(R"(["heap",0,5,null,null,100,8,800,400,40,100,10,1])")))),
              "p.json: data.objects[0][2]: expected null for a heap object, got 5");
    EXPECT_EQ(load_error(with_data(data_json(
                  objects_with(R"(["heap",0,null,null,null,100,12,800,400,40,100,10,1])")))),
              "p.json: data.objects[0][6]: expected a power of two of at least 8 bytes, got 12");
    EXPECT_EQ(load_error(with_data(data_json(
                  objects_with(R"(["pile",0,null,null,null,100,8,800,400,40,100,10,1])")))),
              "p.json: data.objects[0][0]: expected one of \"heap\", \"global\", \"unnamed\", "
              "\"stack\", \"allocator\", \"other\"");
    EXPECT_EQ(load_error(with_data(data_json(
                  objects_with(R"(["heap",2,null,null,null,100,8,800,400,40,100,10,1])")))),
              "p.json: data.objects[0][1]: heap site id 2 out of range (2 rows)");
}

TEST(DataLoadError, AnObjectIsListedOnce)
{
    const std::string objects = R"([["heap",0,null,null,null,100,8,800,400,40,100,10,1])"
                                R"(,["stack",null,null,null,null,0,0,150,50,5,100,10,1])"
                                R"(,["stack",null,null,null,null,0,0,350,90,9,100,10,1]])";
    EXPECT_EQ(load_error(with_data(data_json(objects, "[[0,0,800,400,40,100,10,1]]", "[]"))),
              "p.json: data.objects[2]: the same data object as data.objects[1]");
}

TEST(DataLoadError, TheRowsHaveTheirLength)
{
    EXPECT_EQ(load_error(with_data(data_json(kDataObjects, kDataOffsets, "[[0,1,800]]"))),
              "p.json: data.fns[0]: expected 6 entries [object, fn, D1mr, DLmr, D1mw, DLmw], "
              "got 3");
}

// --- questions -------------------------------------------------------------------

TEST(DataQuery, ObjectsByAnEventAndTheFunctionsOfEach)
{
    const Profile p = load(with_data());
    const DataProfile& d = *p.data();
    const size_t d1mr = *data_event_index("D1mr"), dw = *data_event_index("Dw");
    EXPECT_EQ(data_objects_by(d, d1mr),
              (std::vector<DataObjId>{DataObjId(0), DataObjId(1), DataObjId(2)}));
    EXPECT_EQ(data_objects_by(d, dw),
              (std::vector<DataObjId>{DataObjId(2), DataObjId(0), DataObjId(1)}));
    const std::vector<DataFunction> stack = functions_of_data(d, DataObjId(2), d1mr);
    ASSERT_EQ(stack.size(), 2u);
    EXPECT_EQ(p.fn_name(stack[0].fn), "work");
    const std::vector<DataFunction> main_data = data_of_function(d, FnId(0), d1mr);
    ASSERT_EQ(main_data.size(), 2u);
    EXPECT_EQ(main_data[0].object, DataObjId(1));
    EXPECT_EQ(main_data[1].object, DataObjId(2));
    EXPECT_EQ(data_miss_rate(d.object(DataObjId(0)).cost, d1mr), 0.5);
    EXPECT_EQ(data_miss_rate(d.object(DataObjId(1)).cost, *data_event_index("D1mw")),
              std::nullopt);
}

TEST(DataQuery, ObjectsAreFoundAndNamed)
{
    const Profile p = load(with_data());
    EXPECT_EQ(find_data_object(p, "site:0"), DataObjId(0));
    EXPECT_EQ(find_data_object(p, "table"), DataObjId(1));
    EXPECT_EQ(find_data_object(p, "tab"), DataObjId(1));
    EXPECT_EQ(find_data_object(p, "stack"), DataObjId(2));
    EXPECT_THROW(find_data_object(p, "site:1"), Error);
    EXPECT_EQ(data_object_label(p, DataObjId(0)),
              "heap site 0 (1,000 bytes in 10 blocks): work < main (app.c:20)");
    EXPECT_EQ(data_object_label(p, DataObjId(1)), "global table (64 bytes) [/usr/bin/app]");
    EXPECT_EQ(data_object_short_label(p, DataObjId(1)), "table");
    EXPECT_EQ(data_object_key(p, DataObjId(1)), "global|/usr/bin/app|table");
    EXPECT_EQ(data_object_key(p, DataObjId(0)), "heap|work@/src/app.c:5|main@/src/app.c:20");
}

// --- the commands ------------------------------------------------------------------

std::string report(const Profile& p, cli::ReportOptions o)
{
    o.profile = "p.json";
    std::ostringstream out;
    cli::write_report(out, p, o);
    return out.str();
}

TEST(DataReport, ListsObjectsByD1mrWithTheirFunctions)
{
    cli::ReportOptions o;
    o.data = true;
    const std::string text = report(load(with_data()), o);
    EXPECT_NE(text.find("Event sort order: D1mr"), std::string::npos) << text;
    const size_t heap = text.find("heap site 0"), table = text.find("global table"),
                 stack = text.find("  stack\n");
    ASSERT_NE(heap, std::string::npos) << text;
    ASSERT_NE(table, std::string::npos) << text;
    ASSERT_NE(stack, std::string::npos) << text;
    EXPECT_LT(heap, table);
    EXPECT_LT(table, stack);
    EXPECT_NE(text.find("400  (74.1%)"), std::string::npos) << text;  // heap D1mr of 540
    EXPECT_NE(text.find("by work (/src/app.c:3)"), std::string::npos) << text;
}

TEST(DataReport, JsonHasTheSameObjectsAndRates)
{
    cli::ReportOptions o;
    o.data = true;
    o.format = "json";
    o.miss_rates = true;
    o.events = {"Dr", "D1mr"};
    const boost::json::value v = boost::json::parse(report(load(with_data()), o));
    const boost::json::array& objects = v.at("objects").as_array();
    ASSERT_EQ(objects.size(), 3u);
    EXPECT_EQ(objects[0].at("kind"), "heap");
    EXPECT_EQ(objects[0].at("site"), 0);
    EXPECT_EQ(objects[0].at("costs").at("D1mr"), 400);
    EXPECT_EQ(objects[0].at("costs_miss_rates").at("D1mr/Dr"), 0.5);
    EXPECT_EQ(objects[1].at("name"), "table");
    EXPECT_EQ(objects[2].at("functions").as_array().size(), 2u);
}

TEST(DataReport, WithAFunctionShowsWhatItMissedOn)
{
    cli::ReportOptions o;
    o.data = true;
    o.function = "main";
    const std::string text = report(load(with_data()), o);
    EXPECT_NE(text.find("Missed by:        main"), std::string::npos) << text;
    EXPECT_NE(text.find("global table"), std::string::npos) << text;
    EXPECT_EQ(text.find("heap site 0"), std::string::npos) << text;
}

TEST(DataReport, WithAFunctionRefusesToSortByAccesses)
{
    cli::ReportOptions o;
    o.data = true;
    o.function = "main";
    o.sort = "Dr";
    EXPECT_THROW(report(load(with_data()), o), Error);
}

TEST(DataReport, RefusesEventsThatAreNotDataEvents)
{
    cli::ReportOptions o;
    o.data = true;
    o.events = {"Ir"};
    EXPECT_THROW(report(load(with_data()), o), Error);
    o.events = {};
    o.sort = "I1mr";
    EXPECT_THROW(report(load(with_data()), o), Error);
}

TEST(DataReport, HeapSitesSortedByMisses)
{
    cli::ReportOptions o;
    o.heap = true;
    o.events = {"D1mr"};
    const std::string text = report(load(with_data()), o);
    EXPECT_NE(text.find("Sort order:       D1mr"), std::string::npos) << text;
    // Site 1 allocated more bytes, but site 0 missed: it comes first.
    const size_t first = text.find("#1: main (/src/app.c:20)\n  allocated: 1,000 bytes"),
                 second = text.find("#2: main (/src/app.c:22)\n  allocated: 2,000 bytes");
    EXPECT_NE(first, std::string::npos) << text;
    EXPECT_NE(second, std::string::npos) << text;
    EXPECT_NE(text.find("  D1mr:      400 (74.1%), 50.00% of Dr"), std::string::npos) << text;
}

TEST(DataAnnotate, ListsAnObjectByOffset)
{
    cli::AnnotateOptions o;
    o.profile = "p.json";
    o.data = "site:0";
    o.events = {"D1mr", "Dr"};
    std::ostringstream out;
    cli::write_annotation(out, load(with_data()), o);
    const std::string text = out.str();
    EXPECT_NE(text.find("Offsets:          8 bytes a row, 100 bytes covered"), std::string::npos)
        << text;
    // Offset 0 has 300 of the 400 misses: the longest bar; offset 8 a third of it.
    std::string full;
    for (int i = 0; i < 24; ++i)
        full += "█";
    EXPECT_NE(text.find("       0  " + full + "\n"), std::string::npos) << text;
    EXPECT_NE(text.find("300  (55.6%)"), std::string::npos) << text;
    EXPECT_NE(text.find("       8  ████████\n"), std::string::npos) << text;
    EXPECT_NE(text.find("in this data object"), std::string::npos) << text;
}

} // namespace
} // namespace vgprof
