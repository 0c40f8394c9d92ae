// SPDX-License-Identifier: GPL-2.0-or-later
// Summaries of measured frame times for --bench-frames.
#ifndef VGPROF_VIEWER_FRAME_STATS_HPP
#define VGPROF_VIEWER_FRAME_STATS_HPP

#include <algorithm>
#include <vector>

namespace vgprof::viewer {

struct FrameStats {
    size_t frames = 0;
    double median_ms = 0;  // the middle time; the mean of the two middle ones for an even count
    double worst_ms = 0;
};

inline FrameStats frame_stats(std::vector<double> ms)
{
    FrameStats s;
    s.frames = ms.size();
    if (ms.empty())
        return s;
    std::sort(ms.begin(), ms.end());
    const size_t mid = ms.size() / 2;
    s.median_ms = ms.size() % 2 ? ms[mid] : (ms[mid - 1] + ms[mid]) / 2;
    s.worst_ms = ms.back();
    return s;
}

} // namespace vgprof::viewer

#endif
