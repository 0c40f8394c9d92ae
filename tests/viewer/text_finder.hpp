// SPDX-License-Identifier: GPL-2.0-or-later
// Finding a piece of text in a screenshot without OCR: the text is drawn
// with stb_truetype in the viewer's font and size, both images are blurred
// a little (the viewer's glyphs sit at other sub-pixel offsets), and the
// drawing is slid over a region of the screenshot; the best normalised
// correlation says how well it matched, whatever the text's color.
#ifndef VGPROF_TESTS_VIEWER_TEXT_FINDER_HPP
#define VGPROF_TESTS_VIEWER_TEXT_FINDER_HPP

#include <string>
#include <vector>

namespace vgtest {

// A grey image, one float per pixel, rows top to bottom.
struct Grey {
    int width = 0, height = 0;
    std::vector<float> pixels;
    float at(int x, int y) const { return pixels[size_t(y) * size_t(width) + size_t(x)]; }
};

// Loads a PNG as luminance (0..255). Throws std::runtime_error.
Grey load_png_luminance(const std::string& path);

// How many different colors the PNG at `path` has, and the share of its
// most common one: a blank or single-color window has 1 and 1.0.
struct ColorStats {
    size_t colors = 0;
    double commonest_share = 0;
};
ColorStats color_stats(const std::string& path);

struct Rect {
    int x0, y0, x1, y1;
};

// The best match of `text`, drawn from the TrueType font `font` at
// `pixel_height`, anywhere in `region` of `image`: a correlation between
// 0 (nothing like it) and 1 (the same picture, in any contrast).
double best_text_match(const Grey& image, Rect region, const std::string& text,
                       const std::string& font, float pixel_height);

} // namespace vgtest

#endif
