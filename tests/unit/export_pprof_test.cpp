// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of the pprof export (vgprof/export_pprof.hpp) on the
// format's sample and the heap fixture (heap_fixture.hpp). The file is
// gunzipped and its protobuf fields read back by a reader of the wire
// format written here for the test, then compared with profile.proto's
// field numbers and the fixture's figures, worked out by hand.
#include "data_fixture.hpp"
#include "error_of.hpp"
#include "heap_fixture.hpp"
#include "report_fixture.hpp"

#include "lib/input.hpp"
#include "vgprof/export_pprof.hpp"
#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <vector>

namespace vgprof {
namespace {

using test::ProfileText;

// One message's fields: each number with its values in order, varints as
// numbers, length-delimited fields as bytes.
struct Fields {
    std::multimap<uint32_t, uint64_t> varints;
    std::multimap<uint32_t, std::string> bytes;

    uint64_t varint(uint32_t field) const
    {
        const auto it = varints.find(field);
        return it == varints.end() ? 0 : it->second;  // proto3: absent is 0
    }
    std::vector<std::string> all(uint32_t field) const
    {
        std::vector<std::string> out;
        for (auto [it, end] = bytes.equal_range(field); it != end; ++it)
            out.push_back(it->second);
        return out;
    }
};

uint64_t read_varint(const std::string& data, size_t& at)
{
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        const uint8_t byte = uint8_t(data.at(at++));
        v |= uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return v;
    }
}

Fields read_message(const std::string& data)
{
    Fields f;
    for (size_t at = 0; at < data.size();) {
        const uint64_t tag = read_varint(data, at);
        const uint32_t field = uint32_t(tag >> 3);
        if ((tag & 7) == 0) {
            f.varints.emplace(field, read_varint(data, at));
        } else {
            EXPECT_EQ(tag & 7, 2u) << "wire type of field " << field;
            const uint64_t n = read_varint(data, at);
            f.bytes.emplace(field, data.substr(at, n));
            at += n;
        }
    }
    return f;
}

std::vector<uint64_t> packed(const std::string& data)
{
    std::vector<uint64_t> values;
    for (size_t at = 0; at < data.size();)
        values.push_back(read_varint(data, at));
    return values;
}

std::string gunzip(const std::string& data)
{
    auto in = detail::open_memory(data, "pprof", uint64_t(1) << 30);
    std::string out;
    for (std::string_view chunk; !(chunk = in->next()).empty();)
        out.append(chunk);
    return out;
}

struct Pprof {
    Fields top;
    std::vector<std::string> strings;

    std::string str(uint64_t i) const { return strings.at(i); }
    // "type/unit" of each sample type.
    std::vector<std::string> sample_types() const
    {
        std::vector<std::string> out;
        for (const std::string& t : top.all(1)) {
            const Fields f = read_message(t);
            out.push_back(str(f.varint(1)) + "/" + str(f.varint(2)));
        }
        return out;
    }
    // Each sample as "locations: values".
    std::vector<std::string> samples() const
    {
        std::vector<std::string> out;
        for (const std::string& s : top.all(2)) {
            const Fields f = read_message(s);
            std::string text;
            for (uint64_t l : packed(f.all(1).empty() ? "" : f.all(1)[0]))
                text += std::to_string(l) + " ";
            text += ":";
            for (uint64_t v : packed(f.all(2).empty() ? "" : f.all(2)[0]))
                text += " " + std::to_string(v);
            out.push_back(text);
        }
        return out;
    }
};

// Each sample's numeric label `key` (field 3: key 1, num 3), or -1 when
// it has none.
std::vector<int64_t> numeric_labels(const Pprof& p, const std::string& key)
{
    std::vector<int64_t> out;
    for (const std::string& s : p.top.all(2)) {
        int64_t value = -1;
        for (const std::string& l : read_message(s).all(3)) {
            const Fields label = read_message(l);
            if (p.str(label.varint(1)) == key && label.varints.count(3))
                value = int64_t(label.varint(3));
        }
        out.push_back(value);
    }
    return out;
}

Pprof pprof(const ProfileText& text)
{
    std::ostringstream out;
    write_pprof(out, parse_profile(text.str(), "p.json"));
    Pprof p;
    p.top = read_message(gunzip(out.str()));
    p.strings = p.top.all(6);
    return p;
}

TEST(ExportPprof, HasASampleTypePerEventAndHeapFigureWithIrTheDefault)
{
    const Pprof p = pprof(test::with_heap());
    EXPECT_EQ(p.str(0), "");
    EXPECT_EQ(p.sample_types(),
              (std::vector<std::string>{"Ir/count", "alloc_objects/count", "alloc_space/bytes",
                                        "inuse_objects/count", "inuse_space/bytes",
                                        "leaked_objects/count", "leaked_space/bytes"}));
    EXPECT_EQ(p.str(p.top.varint(14)), "Ir");  // default_sample_type
    EXPECT_EQ(p.top.varint(12), 1u);           // period
}

// Locations 1 and 2 are main and work; 3 the [truncated] node; 4, 5 and 6
// the heap's frames 0 (work, app.c:5), 1 (main, app.c:20), 2 (main, 22).
TEST(ExportPprof, SamplesAreThePathNodesThenTheSitesLeafFirst)
{
    EXPECT_EQ(pprof(test::with_heap()).samples(),
              (std::vector<std::string>{"1 : 1200 0 0 0 0 0 0", "2 1 : 2484747 0 0 0 0 0 0",
                                        "4 5 : 0 10 1000 3 300 1 100",
                                        "6 : 0 1 2000 1 2000 0 0"}));
}

TEST(ExportPprof, LocationsNameFunctionsAndLinesInTheProgramsMapping)
{
    const Pprof p = pprof(test::with_heap());
    const std::vector<std::string> locations = p.top.all(4), functions = p.top.all(5),
                                   mappings = p.top.all(3);
    ASSERT_EQ(mappings.size(), 1u);
    const Fields m = read_message(mappings[0]);
    EXPECT_EQ(m.varint(1), 1u);
    EXPECT_EQ(p.str(m.varint(5)), "/usr/bin/app");
    EXPECT_EQ(m.varint(7), 1u);  // has_functions: nothing for pprof to look up
    ASSERT_EQ(functions.size(), 3u);
    const Fields work = read_message(functions[1]);
    EXPECT_EQ(work.varint(1), 2u);
    EXPECT_EQ(p.str(work.varint(2)), "work");
    EXPECT_EQ(p.str(work.varint(4)), "/src/app.c");
    EXPECT_EQ(work.varint(5), 3u);
    EXPECT_EQ(p.str(read_message(functions[2]).varint(2)), "[truncated]");
    ASSERT_EQ(locations.size(), 6u);
    const Fields call = read_message(locations[4]);  // heap frame 1
    EXPECT_EQ(call.varint(1), 5u);
    EXPECT_EQ(call.varint(2), 1u);
    EXPECT_EQ(call.varint(3), 4198700u);
    const Fields line = read_message(call.all(4).at(0));
    EXPECT_EQ(line.varint(1), 1u);   // main
    EXPECT_EQ(line.varint(2), 20u);
}

TEST(ExportPprof, WithoutAHeapHasTheEventsOnly)
{
    const Pprof p = pprof(ProfileText());
    EXPECT_EQ(p.sample_types(), std::vector<std::string>{"Ir/count"});
    EXPECT_EQ(p.samples(), (std::vector<std::string>{"1 : 1200", "2 1 : 2484747"}));
}

TEST(ExportPprof, WithoutACallGraphHasTheHeapOnlyWithInuseSpaceTheDefault)
{
    const Pprof p = pprof(test::with_heap().drop_call_graph());
    EXPECT_EQ(p.sample_types().size(), 6u);
    EXPECT_EQ(p.str(p.top.varint(14)), "inuse_space");
    EXPECT_EQ(p.samples().size(), 2u);
}

// The data fixture has no call graph: the heap's six types, then the six
// data types. Functions 1 and 2 are main and work, 3 [truncated]; locations
// 4 to 6 the heap's frames, 7 to 9 the data objects (heap site 0, the
// global table, the stack), named by functions 4 to 6.
TEST(ExportPprof, DataObjectsAreLeafLocationsUnderTheFunctionsThatMissed)
{
    const Pprof p = pprof(test::with_data());
    const std::vector<std::string> types = p.sample_types();
    ASSERT_EQ(types.size(), 12u);
    EXPECT_EQ(std::vector<std::string>(types.begin() + 6, types.end()),
              (std::vector<std::string>{"data_Dr/count", "data_D1mr/count", "data_DLmr/count",
                                        "data_Dw/count", "data_D1mw/count", "data_DLmw/count"}));
    const std::vector<std::string> samples = p.samples();
    ASSERT_EQ(samples.size(), 9u);
    const std::string heap = "0 0 0 0 0 0 ";
    EXPECT_EQ(std::vector<std::string>(samples.begin() + 2, samples.end()),
              (std::vector<std::string>{
                  "7 : " + heap + "800 0 0 100 0 0", "7 2 : " + heap + "0 400 40 0 10 1",
                  "8 : " + heap + "300 0 0 0 0 0", "8 1 : " + heap + "0 100 10 0 0 0",
                  "9 : " + heap + "200 0 0 200 0 0", "9 1 : " + heap + "0 0 0 0 10 1",
                  "9 2 : " + heap + "0 40 4 0 10 1"}));
    const std::vector<std::string> functions = p.top.all(5), locations = p.top.all(4);
    ASSERT_EQ(functions.size(), 6u);
    const Fields table = read_message(functions[4]);
    EXPECT_EQ(table.varint(1), 5u);
    EXPECT_EQ(p.str(table.varint(2)), "global table");
    EXPECT_EQ(p.str(table.varint(3)), "global table (64 bytes) [/usr/bin/app]");
    // Heap site 0 is at its allocating call, main's call at app.c:20.
    const Fields site = read_message(functions[3]);
    EXPECT_EQ(p.str(site.varint(2)), "heap site 0: main (app.c:20)");
    EXPECT_EQ(p.str(site.varint(4)), "/src/app.c");
    EXPECT_EQ(site.varint(5), 20u);
    ASSERT_EQ(locations.size(), 9u);
    const Fields at = read_message(locations[7]);
    EXPECT_EQ(at.varint(1), 8u);
    EXPECT_EQ(at.varint(2), 1u);        // the mapping of /usr/bin/app
    EXPECT_EQ(at.varint(3), 4210688u);  // the symbol's address
    const Fields sample = read_message(p.top.all(2)[4]);
    const Fields label = read_message(sample.all(3).at(0));
    EXPECT_EQ(p.str(label.varint(1)), "data_kind");
    EXPECT_EQ(p.str(label.varint(2)), "global");
}

TEST(ExportPprof, RefusesAProfileWithNeitherCallGraphNorHeap)
{
    EXPECT_NE(test::error_of([] { pprof(ProfileText().drop_call_graph()); })
                  .find("pprof needs the call-path tree or the heap"),
              std::string::npos);
}

// two_thread_profile (report_fixture.hpp): the samples are path nodes 0-7,
// nodes 0-4 thread 1's, 5-7 thread 2's; pprof -tagfocus thread=2 keeps
// the latter.
TEST(ExportPprof, EachCpuSampleOfAProfileWithThreadsCarriesItsThread)
{
    const Pprof p = pprof(test::two_thread_profile());
    EXPECT_EQ(numeric_labels(p, "thread"), (std::vector<int64_t>{1, 1, 1, 1, 1, 2, 2, 2}));
    EXPECT_EQ(numeric_labels(pprof(test::with_heap()), "thread"),
              (std::vector<int64_t>{-1, -1, -1, -1}));
}

} // namespace
} // namespace vgprof
