// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of the massif export (vgprof/export_massif.hpp) on the heap
// fixture (heap_fixture.hpp): a timeline of three points (400 bytes at 100,
// the peak of 2300 at 500, 100 at 900), the end at 100000 with 100 bytes
// never freed; site 0 allocated under work (frame 0, 0x4010C8, app.c:5)
// called from main (frame 1, 0x40112C, app.c:20), site 1 in main (frame 2,
// 0x401190, app.c:22). The expected files are written out by hand.
#include "error_of.hpp"
#include "heap_fixture.hpp"

#include "vgprof/export_massif.hpp"
#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace vgprof {
namespace {

using test::ProfileText;

std::string massif(const ProfileText& text)
{
    std::ostringstream out;
    write_massif(out, parse_profile(text.str(), "p.json"));
    return out.str();
}

std::string snapshot(int number, int time, int bytes, const std::string& tree)
{
    return "#-----------\nsnapshot=" + std::to_string(number) + "\n#-----------\ntime=" +
           std::to_string(time) + "\nmem_heap_B=" + std::to_string(bytes) +
           "\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=" + tree + "\n";
}

const char* const kRoot = "(heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n";

TEST(ExportMassif, WritesTheTimelineWithThePeakAndTheEndInDetail)
{
    EXPECT_EQ(massif(test::with_heap()),
              "desc: vgprof heap profile: the timeline and snapshots it recorded\n"
              "cmd: ./app -n 3\n"
              "time_unit: i\n" +
                  snapshot(0, 0, 0, "empty") + snapshot(1, 100, 400, "empty") +
                  snapshot(2, 500, 2300, "peak") + "n2: 2300 " + kRoot +
                  " n0: 2000 0x401190: main (app.c:22)\n"
                  " n1: 300 0x4010C8: work (app.c:5)\n"
                  "  n0: 300 0x40112C: main (app.c:20)\n" +
                  snapshot(3, 900, 100, "empty") + snapshot(4, 100000, 100, "detailed") +
                  "n1: 100 " + kRoot +
                  " n1: 100 0x4010C8: work (app.c:5)\n"
                  "  n0: 100 0x40112C: main (app.c:20)\n");
}

// A periodic snapshot lists the ten largest sites at most: what the others
// held is one node, so that the tree adds up to the snapshot's bytes. It
// replaces the timeline's point at its time.
TEST(ExportMassif, APeriodicSnapshotIsDetailedWithANodeForTheSitesItDoesNotList)
{
    const std::string snapshots =
        R"([{"kind":"periodic","time":100,"bytes":400,"blocks":4,"sites":[[0,300,3]]},)"
        R"({"kind":"peak","time":500,"bytes":2300,"blocks":4,"sites":[[1,2000,1],[0,300,3]]},)"
        R"({"kind":"end","time":100000,"bytes":100,"blocks":1,"sites":[[0,100,1]]}])";
    const std::string text = massif(test::with_heap(test::heap_json(
        test::kTotals, test::kFrames, std::string("[") + test::kSite0 + "," + test::kSite1 + "]",
        test::kTimeline, snapshots)));
    EXPECT_NE(text.find(snapshot(1, 100, 400, "detailed") + "n2: 400 " + kRoot +
                        " n1: 300 0x4010C8: work (app.c:5)\n"
                        "  n0: 300 0x40112C: main (app.c:20)\n"
                        " n0: 100 in other places, smaller than the ten largest (the profile "
                        "does not list them)\n" +
                        snapshot(2, 500, 2300, "peak")),
              std::string::npos)
        << text;
}

TEST(ExportMassif, RefusesAProfileWithoutHeap)
{
    EXPECT_EQ(test::error_of([] { massif(ProfileText()); }),
              "the profile has no heap data (recorded with --heap=no, or by a vgprof older than "
              "format version 3)");
}

} // namespace
} // namespace vgprof
