// SPDX-License-Identifier: GPL-2.0-or-later
// Colors for costs. The sequential scale runs from dark blue-violet to pale
// yellow with lightness rising evenly, interpolated in the OKLab space, so
// equal steps of value look like equal steps of color and the order reads
// the same in grey. The diverging scale (diff mode) runs blue (less) through
// a neutral grey to red (more). Values are cut into a few bins, which the
// legend shows, so a cell's color names a range one can read back.
#ifndef VGPROF_VIEWER_COLOR_SCALE_HPP
#define VGPROF_VIEWER_COLOR_SCALE_HPP

#include <cstdint>

namespace vgprof::viewer {

struct Rgb {
    uint8_t r = 0, g = 0, b = 0;

    friend bool operator==(Rgb a, Rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; }
};

// OKLab lightness (0 black .. 1 white) of an sRGB color.
double oklab_lightness(Rgb c);

// The sequential scale at t in [0, 1] (clamped).
Rgb sequential_color(double t);
// The diverging scale at t in [-1, 1] (clamped): 0 is neutral.
Rgb diverging_color(double t);

// Text that reads on `background`: black or white.
Rgb text_color_on(Rgb background);

// Where a value falls on a column's scale, from 0 to 1: by logarithm, as
// miss counts span orders of magnitude (log(1 + v) / log(1 + max)); 0 when
// max is 0.
double log_position(double value, double max);
// As log_position for a signed change against the largest change's size.
double signed_log_position(double delta, double max_magnitude);

// The bin (0 .. bins-1) of a position in [0, 1]; bins of equal width, 1
// falling in the last.
int bin_of(double position, int bins);
// The position at the middle of a bin, which colors it.
double bin_centre(int bin, int bins);
// The value at a bin's lower edge on a log_position scale of `max`.
double log_bin_edge(int bin, int bins, double max);

} // namespace vgprof::viewer

#endif
