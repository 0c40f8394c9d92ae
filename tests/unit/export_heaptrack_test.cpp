// SPDX-License-Identifier: GPL-2.0-or-later
// Specification of the heaptrack export (vgprof/export_heaptrack.hpp) and
// of the blocks it lays a site's figures out as (lib/heap_blocks.hpp), on
// the heap fixture (heap_fixture.hpp). The file is replayed here as
// heaptrack_print replays it (its "+" and "-" lines; the peak is the first
// moment the live bytes are highest) and what that gives is compared with
// the fixture's figures: site 0 (under work, called from main) 10 blocks,
// 1000 bytes, 300 in 3 blocks at the peak, 100 in 1 never freed; site 1
// (main) a block of 2000 live at the peak; the peak 2300 at instruction 500.
#include "error_of.hpp"
#include "heap_fixture.hpp"

#include "lib/heap_blocks.hpp"
#include "vgprof/export_heaptrack.hpp"
#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <vector>

namespace vgprof {
namespace {

using test::ProfileText;

std::string heaptrack(const ProfileText& text)
{
    std::ostringstream out;
    write_heaptrack(out, parse_profile(text.str(), "p.json"));
    return out.str();
}

// Per trace (by the names of its frames, outermost first, "main;work").
struct TraceFigures {
    uint64_t calls = 0, live = 0, at_peak = 0;
    bool operator==(const TraceFigures& o) const
    {
        return calls == o.calls && live == o.live && at_peak == o.at_peak;
    }
};

struct Replay {
    std::map<std::string, TraceFigures> traces;
    uint64_t calls = 0, live = 0, peak = 0, peak_ms = 0, temporary = 0;
    std::map<uint64_t, uint64_t> highest_by_ms;  // the highest live bytes each millisecond
};

uint64_t hex(std::istream& in)
{
    uint64_t v = 0;
    in >> std::hex >> v;
    return v;
}

Replay replay(const std::string& file)
{
    Replay r;
    std::vector<std::string> strings, ip_names, trace_names;
    std::vector<std::pair<uint64_t, std::string>> infos;  // size, trace name
    std::istringstream lines(file);
    uint64_t ms = 0, last_allocated = UINT64_MAX;
    for (std::string line; std::getline(lines, line);) {
        std::istringstream in(line.size() > 2 ? line.substr(2) : "");
        switch (line[0]) {
        case 's': {
            const uint64_t n = hex(in);
            strings.push_back(line.substr(line.find(' ', 2) + 1, n));
            break;
        }
        case 'i':
            hex(in), hex(in);
            ip_names.push_back(strings.at(hex(in) - 1));
            break;
        case 't': {
            const std::string& ip = ip_names.at(hex(in) - 1);
            const uint64_t parent = hex(in);
            trace_names.push_back(parent ? trace_names.at(parent - 1) + ";" + ip : ip);
            break;
        }
        case 'a': {
            const uint64_t size = hex(in);
            infos.emplace_back(size, trace_names.at(hex(in) - 1));
            break;
        }
        case '+': {
            last_allocated = hex(in);
            const auto& [size, trace] = infos.at(last_allocated);
            ++r.calls, ++r.traces[trace].calls;
            r.live += size, r.traces[trace].live += size;
            if (r.live > r.peak) {
                r.peak = r.live, r.peak_ms = ms;
                for (auto& [name, t] : r.traces)
                    t.at_peak = t.live;
            }
            r.highest_by_ms[ms] = std::max(r.highest_by_ms[ms], r.live);
            break;
        }
        case '-': {
            const uint64_t info = hex(in);
            r.temporary += info == last_allocated;
            last_allocated = UINT64_MAX;
            r.live -= infos.at(info).first, r.traces[infos.at(info).second].live -= infos.at(info).first;
            break;
        }
        case 'c':
            ms = hex(in);
            r.highest_by_ms[ms] = std::max(r.highest_by_ms[ms], r.live);
            break;
        }
    }
    return r;
}

TEST(ExportHeaptrack, BeginsWithTheVersionTheCommandAndTheFirstStacksDefinitions)
{
    const std::string text = heaptrack(test::with_heap());
    EXPECT_EQ(text.substr(0, text.find("\na ") + 1),
              "v 10400 3\n"
              "X ./app -n 3\n"
              "c 0\n"
              "s c /usr/bin/app\n"
              "s 4 main\n"
              "s a /src/app.c\n"
              "i 40112c 1 2 3 14\n"   // main, app.c:20
              "t 1 0\n"
              "s 4 work\n"
              "i 4010c8 1 4 3 5\n"    // work, app.c:5
              "t 2 1\n");
}

TEST(ExportHeaptrack, ReplayedGivesEachSitesCallsPeakAndLeakAndTheProgramsPeak)
{
    const Replay r = replay(heaptrack(test::with_heap()));
    EXPECT_EQ(r.calls, 11u);
    EXPECT_EQ(r.peak, 2300u);
    EXPECT_EQ(r.live, 100u);
    const std::map<std::string, TraceFigures> expected = {{"main;work", {10, 100, 300}},
                                                          {"main", {1, 0, 2000}}};
    EXPECT_EQ(r.traces, expected);
}

// Time is in milliseconds of 1000 instructions: the points at 100, 500 and
// 900 fall in millisecond 0, the end (100000) in 100, which holds the 100
// bytes never freed. The heap never goes above the peak.
TEST(ExportHeaptrack, TimeRunsInMillisecondsOfAThousandInstructions)
{
    const Replay r = replay(heaptrack(test::with_heap()));
    EXPECT_EQ(r.peak_ms, 0u);
    ASSERT_EQ(r.highest_by_ms.size(), 2u);
    EXPECT_EQ(r.highest_by_ms.at(0), 2300u);
    EXPECT_EQ(r.highest_by_ms.at(100), 100u);
}

TEST(ExportHeaptrack, RefusesAProfileWithoutHeap)
{
    EXPECT_NE(test::error_of([] { heaptrack(ProfileText()); }).find("has no heap data"),
              std::string::npos);
}

// --- the blocks a site's figures stand for --------------------------------------

HeapSite site(uint64_t bytes, uint64_t blocks, uint64_t peak_bytes, uint64_t peak_blocks,
              uint64_t end_bytes, uint64_t end_blocks)
{
    HeapSite s;
    s.bytes = bytes, s.blocks = blocks;
    s.peak_bytes = peak_bytes, s.peak_blocks = peak_blocks;
    s.end_bytes = end_bytes, s.end_blocks = end_blocks;
    return s;
}

std::string groups(const detail::SiteBlocks& b)
{
    std::string text;
    for (const detail::BlockGroup& g : {b.kept, b.peak_only, b.end_only, b.transient})
        text += std::to_string(g.bytes) + "/" + std::to_string(g.blocks) + " ";
    return text;
}

// Site 0 of the fixture: no block need be live at both moments.
TEST(HeapBlocks, KeepNoBlockWhenThePeakAndTheEndCanBeDifferentBlocks)
{
    EXPECT_EQ(groups(detail::site_blocks(site(1000, 10, 300, 3, 100, 1), 0, 2300)),
              "0/0 300/3 100/1 600/6 ");
}

// 3 blocks, 2 of them live at the peak and 2 at the end: one is both.
TEST(HeapBlocks, KeepBlocksWhenThereAreTooFewToBeApart)
{
    EXPECT_EQ(groups(detail::site_blocks(site(300, 3, 200, 2, 200, 2), 0, 1000)),
              "100/1 100/1 100/1 0/0 ");
}

// 100 bytes at the peak and at the end, 200 in all in 3 blocks: apart, the
// third block would have no byte; so the 100 are one block kept.
TEST(HeapBlocks, KeepBlocksWhenTheOthersWouldHaveNoBytes)
{
    EXPECT_EQ(groups(detail::site_blocks(site(200, 3, 100, 1, 100, 1), 0, 1000)),
              "100/1 0/0 0/0 100/2 ");
}

TEST(HeapBlocks, SpreadBytesEvenlyOverAGroupsBlocks)
{
    const detail::BlockGroup g{3, 8};
    EXPECT_EQ(g.size(0) + g.size(1) + g.size(2), 8u);
    EXPECT_EQ(g.size(0), 3u);
    EXPECT_EQ(g.size(2), 2u);
}

TEST(HeapBlocks, SayWhichSiteHasFiguresNoBlocksFit)
{
    EXPECT_EQ(test::error_of([] { detail::site_blocks(site(5, 10, 0, 0, 0, 0), 7, 100); }),
              "heap site 7: no blocks fit its figures (5 bytes in 10 blocks, 0 in 0 at the peak, "
              "0 in 0 at the end)");
}

} // namespace
} // namespace vgprof
