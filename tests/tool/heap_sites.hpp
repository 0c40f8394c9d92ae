// SPDX-License-Identifier: GPL-2.0-or-later
// heap_sites.hpp: the heap figures of DHAT and of vgprof side by side:
// DHAT's summary lines, and per allocation site the bytes and blocks
// allocated, live at the peak (t-gmax) and at the end (t-end), read and
// written, and the per-offset access counts. Sites are matched by their
// stacks as DHAT prints them (function and source line of each frame), the
// allocator's own frames left out.
#pragma once

#include <boost/json/value.hpp>

#include <cstdint>
#include <iosfwd>
#include <map>
#include <utility>
#include <string>
#include <vector>

namespace vgprof { class Profile; }

namespace vgtest {

struct RunResult;

inline const char* const kSummaryLabels[] = {"Total:", "At t-gmax:", "At t-end:", "Reads:",
                                             "Writes:"};

// DHAT's five summary lines (as vgprof prints them too) from a run's stderr.
std::vector<std::string> heap_summary(const std::string& err);

// What both tools say about one allocation site.
struct Site {
   uint64_t bytes = 0, blocks = 0, peak_bytes = 0, peak_blocks = 0, end_bytes = 0,
            end_blocks = 0, reads = 0, writes = 0;
   std::vector<uint32_t> accesses;
   bool operator==(const Site& o) const
   {
      return bytes == o.bytes && blocks == o.blocks && peak_bytes == o.peak_bytes &&
             peak_blocks == o.peak_blocks && end_bytes == o.end_bytes &&
             end_blocks == o.end_blocks && reads == o.reads && writes == o.writes &&
             accesses == o.accesses;
   }
};

std::ostream& operator<<(std::ostream& out, const Site& s);

// A site's stack as text, frame by frame: "main (heap_basic.c:120)" or
// "fn (in /lib/object.so)" without source, as DHAT prints frames.
using Stack = std::vector<std::string>;
using Sites = std::map<Stack, Site>;

// A frame of the replacement allocator (vgpreload_*.so).
bool in_allocator(const std::string& frame);
std::string base_name(const std::string& path);
inline uint64_t u64(const boost::json::value& v) { return v.to_number<uint64_t>(); }

// DHAT's JSON (version 2). A frame is "0xADDR: fn (file:line)"; an address
// in inlined code gives one frame per inlined function, innermost first,
// all with that address: they are one frame of vgprof's, named after the
// function the code was compiled in, with the innermost source line.
Sites read_dhat(const std::string& path);

// vgprof's sites, stacks written as DHAT writes them.
Sites vgprof_sites(const vgprof::Profile& p);

// Every site of each is the other's, with the same figures; with a spread,
// bytes read and written may differ by that fraction and the per-offset
// counts are left out.
void expect_same_sites(const Sites& mine, const Sites& dhat, double spread = 0);

// PROGRAM run under DHAT (dh.json) and under vgprof --heap=yes with more
// OPTIONS (vp.json) in dir: both exit with exit_code, the five summary
// lines and every site are equal (bytes read and written within spread, if
// given: see expect_same_sites).
// vgprof's run is left in *vgprof_run if given.
void expect_heap_matches_dhat(const std::vector<std::string>& program,
                              const std::vector<std::string>& options, const std::string& dir,
                              int exit_code = 0, RunResult* vgprof_run = nullptr,
                              double spread = 0);

// Bytes and blocks allocated through each line of the source file named
// `file` (its last component) by DHAT's count (dh_json, DHAT's file),
// inclusively: each site's figures on every line of that file on its stack,
// the allocator's frames left out, each line once per site.
using LineAllocations = std::map<unsigned, std::pair<uint64_t, uint64_t>>;
LineAllocations dhat_allocations_by_line(const std::string& dh_json, const std::string& file);

// Each line of `expected` shows in `annotate`'s `listing` of the source at
// `source_path` its bytes and blocks as "1,234 (5)" just before its text.
void expect_annotated_allocations(const std::string& listing, const std::string& source_path,
                                  const LineAllocations& expected);

// `annotate --format json`'s `report` lists, for the file whose path ends
// in "/" + `file`, each line of `expected` with its bytes and blocks as
// "allocated", and no other line with an allocation.
void expect_json_allocations(const std::string& report, const std::string& file,
                             const LineAllocations& expected);

}  // namespace vgtest
