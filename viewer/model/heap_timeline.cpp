// SPDX-License-Identifier: GPL-2.0-or-later
// Downsampling and navigating the heap timeline.
#include "heap_timeline.hpp"

#include <algorithm>

namespace vgprof::viewer {

namespace {

// Index of the last sample at or before `time`, or samples.size() for none.
size_t last_at_or_before(const std::vector<HeapSample>& samples, uint64_t time)
{
    const auto after = std::upper_bound(samples.begin(), samples.end(), time,
                                        [](uint64_t t, const HeapSample& s) { return t < s.time; });
    return after == samples.begin() ? samples.size() : size_t(after - samples.begin()) - 1;
}

void widen(TimelineBucket& b, const HeapSample& s)
{
    b.min_bytes = std::min(b.min_bytes, s.bytes);
    b.max_bytes = std::max(b.max_bytes, s.bytes);
    b.min_blocks = std::min(b.min_blocks, s.blocks);
    b.max_blocks = std::max(b.max_blocks, s.blocks);
}

} // namespace

std::vector<TimelineBucket> downsample(const std::vector<HeapSample>& samples, uint64_t t0,
                                       uint64_t t1, size_t buckets)
{
    std::vector<TimelineBucket> out;
    if (buckets == 0 || t1 <= t0)
        return out;
    out.resize(buckets);
    const double width = double(t1 - t0) / double(buckets);
    HeapSample carried = live_at(samples, t0);
    size_t next = size_t(std::upper_bound(samples.begin(), samples.end(), t0,
                                          [](uint64_t t, const HeapSample& s) { return t < s.time; }) -
                         samples.begin());
    for (size_t i = 0; i < buckets; ++i) {
        TimelineBucket& b = out[i];
        b.t0 = t0 + uint64_t(width * double(i));
        b.t1 = i + 1 == buckets ? t1 : t0 + uint64_t(width * double(i + 1));
        // The value in force at the bucket's start, then every change in it.
        while (next < samples.size() && samples[next].time <= b.t0)
            carried = samples[next++];
        b.min_bytes = b.max_bytes = carried.bytes;
        b.min_blocks = b.max_blocks = carried.blocks;
        while (next < samples.size() && samples[next].time < b.t1) {
            widen(b, samples[next]);
            carried = samples[next++];
        }
    }
    return out;
}

HeapSample live_at(const std::vector<HeapSample>& samples, uint64_t time)
{
    const size_t i = last_at_or_before(samples, time);
    if (i == samples.size())
        return HeapSample{time, 0, 0};
    return samples[i];
}

const HeapSnapshot* snapshot_at(const Heap& heap, uint64_t time)
{
    const auto& snaps = heap.snapshots;
    const auto after = std::upper_bound(snaps.begin(), snaps.end(), time,
                                        [](uint64_t t, const HeapSnapshot& s) { return t < s.time; });
    return after == snaps.begin() ? nullptr : &*(after - 1);
}

TimeWindow::TimeWindow(uint64_t start, uint64_t end)
    : start_(start), limit_(std::max<uint64_t>(end, start + 1)), t0_(start_), t1_(limit_)
{
}

TimeWindow heap_period(const Heap& heap)
{
    return TimeWindow(heap.start_time, heap.totals.end_time);
}

void TimeWindow::show(uint64_t t0, uint64_t t1)
{
    constexpr uint64_t kNarrowest = 16;
    t1 = std::clamp(t1, start_, limit_);
    t0 = std::clamp(t0, start_, t1);
    if (t1 - t0 < kNarrowest) {
        const uint64_t want = std::min(kNarrowest, limit_ - start_);
        t1 = std::min(limit_, t0 + want);
        t0 = t1 - want;
    }
    t0_ = t0;
    t1_ = t1;
}

void TimeWindow::zoom(uint64_t center, double factor)
{
    center = std::clamp(center, t0_, t1_);
    const double left = double(center - t0_) * factor;
    const double right = double(t1_ - center) * factor;
    const double first = double(start_), last = double(limit_);
    double a = double(center) - left, b = double(center) + right;
    if (b - a >= last - first) {
        reset();
        return;
    }
    // Keep the span when it hits an end: slide it back inside.
    if (a < first) {
        b += first - a;
        a = first;
    }
    if (b > last) {
        a -= b - last;
        b = last;
    }
    show(uint64_t(a), uint64_t(b));
}

void TimeWindow::pan(int64_t delta)
{
    const uint64_t span = t1_ - t0_;
    int64_t t0 = int64_t(t0_) + delta;
    t0 = std::clamp<int64_t>(t0, int64_t(start_), int64_t(limit_ - span));
    t0_ = uint64_t(t0);
    t1_ = t0_ + span;
}

} // namespace vgprof::viewer
