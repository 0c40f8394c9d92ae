// SPDX-License-Identifier: GPL-2.0-or-later
// The heap profile as the heap timeline and the allocation-site table show
// it, and the questions those views ask of it: live memory downsampled to
// one bucket per pixel column, the peak, the value and the largest sites at
// a moment, and the visible time window as it is zoomed and panned. Time is
// counted in instructions executed, as everywhere in vgprof.
#ifndef VGPROF_VIEWER_HEAP_TIMELINE_HPP
#define VGPROF_VIEWER_HEAP_TIMELINE_HPP

#include "vgprof/ids.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace vgprof::viewer {

// Live heap memory from `time` until the next sample's time.
struct HeapSample {
    uint64_t time = 0;
    uint64_t live_bytes = 0;
    uint64_t live_blocks = 0;
};

// One frame of an allocation stack: a function and the line it was at.
struct HeapFrame {
    FnId fn;
    FileId file;
    uint32_t line = 0;
};

// One allocation site: the stack that allocated, innermost frame first, and
// what the blocks allocated there did over the run.
struct HeapSite {
    std::vector<HeapFrame> stack;
    uint64_t bytes = 0, blocks = 0;      // allocated in total
    uint64_t max_live_bytes = 0;
    uint64_t total_lifetime = 0;         // instructions, summed over blocks
    uint64_t reads = 0, writes = 0;      // bytes read and written in the blocks
    uint64_t leaked_bytes = 0, leaked_blocks = 0;  // still live at exit

    // Average lifetime of a block, in instructions (0 without blocks).
    uint64_t mean_lifetime() const { return blocks ? total_lifetime / blocks : 0; }
};

// The live bytes of the largest sites at one moment.
struct HeapSnapshot {
    uint64_t time = 0;
    std::vector<std::pair<uint32_t, uint64_t>> sites;  // (index into sites, live bytes)
};

struct HeapData {
    std::vector<HeapSample> samples;     // ascending time
    std::vector<HeapSite> sites;
    std::vector<HeapSnapshot> snapshots; // ascending time
    uint64_t end_time = 0;               // instructions executed by the whole run
};

// One pixel column of the timeline: the least and most live bytes and
// blocks at any moment of [t0, t1).
struct TimelineBucket {
    uint64_t t0 = 0, t1 = 0;
    uint64_t min_bytes = 0, max_bytes = 0;
    uint64_t min_blocks = 0, max_blocks = 0;
};

// [t0, t1) cut into `buckets` equal parts. Live memory is a step function,
// so a bucket also counts the value carried in from the last sample before
// it: a bucket no sample falls in is flat, never empty. Before the first
// sample memory is 0.
std::vector<TimelineBucket> downsample(const std::vector<HeapSample>& samples, uint64_t t0,
                                       uint64_t t1, size_t buckets);

// The sample with the most live bytes (the first of equals); nullopt for none.
std::optional<HeapSample> peak(const std::vector<HeapSample>& samples);

// Live memory at `time`: the last sample at or before it (zeros before any).
HeapSample live_at(const std::vector<HeapSample>& samples, uint64_t time);

// The snapshot in force at `time` (the last at or before it), or nullptr.
const HeapSnapshot* snapshot_at(const HeapData& heap, uint64_t time);

// Bytes allocated from each line of `file`, index = line number: a site's
// bytes go to its innermost frame in that file (the line of the file that
// asked for the memory, directly or through the functions it called).
std::vector<uint64_t> allocated_bytes_by_line(const HeapData& heap, FileId file);

// The visible part of [0, end] on the timeline.
class TimeWindow {
public:
    explicit TimeWindow(uint64_t end = 1);

    uint64_t begin() const { return t0_; }
    uint64_t end() const { return t1_; }
    uint64_t span() const { return t1_ - t0_; }

    // Scales the span by `factor` (below 1 zooms in) keeping `center` where
    // it is on screen; never narrower than 16 instructions nor wider than
    // the whole run.
    void zoom(uint64_t center, double factor);
    // Moves by `delta` instructions, stopping at either end.
    void pan(int64_t delta);
    void show(uint64_t t0, uint64_t t1);
    void reset() { show(0, limit_); }

private:
    uint64_t limit_, t0_, t1_;
};

} // namespace vgprof::viewer

#endif
