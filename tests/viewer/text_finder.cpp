// SPDX-License-Identifier: GPL-2.0-or-later
// Template matching of drawn text, with integral images so each position
// costs only the template's inked pixels.
#include "text_finder.hpp"

#include <stb_image.h>
#include <stb_truetype.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <stdexcept>

namespace vgtest {

namespace {

Grey blurred(const Grey& in)
{
    Grey out = in;
    for (int y = 0; y < in.height; ++y)
        for (int x = 0; x < in.width; ++x) {
            float sum = 0;
            int n = 0;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const int xx = x + dx, yy = y + dy;
                    if (xx >= 0 && yy >= 0 && xx < in.width && yy < in.height) {
                        sum += in.at(xx, yy);
                        ++n;
                    }
                }
            out.pixels[size_t(y) * size_t(in.width) + size_t(x)] = sum / float(n);
        }
    return out;
}

// `text` drawn as the viewer's Dear ImGui draws it: glyphs advanced by
// their unkerned advance widths from a baseline at the font's ascent.
Grey draw_text(const std::string& text, const std::string& font_path, float pixel_height)
{
    std::ifstream in(font_path, std::ios::binary);
    const std::vector<unsigned char> data((std::istreambuf_iterator<char>(in)),
                                          std::istreambuf_iterator<char>());
    stbtt_fontinfo font;
    if (data.empty() || !stbtt_InitFont(&font, data.data(), stbtt_GetFontOffsetForIndex(data.data(), 0)))
        throw std::runtime_error(font_path + ": cannot read the font");
    const float scale = stbtt_ScaleForPixelHeight(&font, pixel_height);
    int ascent = 0, descent = 0, gap = 0;
    stbtt_GetFontVMetrics(&font, &ascent, &descent, &gap);
    const int baseline = int(std::round(float(ascent) * scale));
    float width = 0;
    for (unsigned char c : text) {
        int advance = 0, lsb = 0;
        stbtt_GetCodepointHMetrics(&font, c, &advance, &lsb);
        width += float(advance) * scale;
    }
    Grey out;
    out.width = int(std::ceil(width)) + 2;
    out.height = int(std::ceil(pixel_height)) + 2;
    out.pixels.assign(size_t(out.width) * size_t(out.height), 0);
    float pen = 1;
    for (unsigned char c : text) {
        int advance = 0, lsb = 0;
        stbtt_GetCodepointHMetrics(&font, c, &advance, &lsb);
        const float shift = pen - std::floor(pen);
        int x0, y0, x1, y1;
        stbtt_GetCodepointBitmapBoxSubpixel(&font, c, scale, scale, shift, 0, &x0, &y0, &x1, &y1);
        const int w = x1 - x0, h = y1 - y0;
        if (w > 0 && h > 0) {
            std::vector<unsigned char> glyph(size_t(w) * size_t(h));
            stbtt_MakeCodepointBitmapSubpixel(&font, glyph.data(), w, h, w, scale, scale, shift, 0, c);
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) {
                    const int px = int(std::floor(pen)) + x0 + x, py = 1 + baseline + y0 + y;
                    if (px >= 0 && py >= 0 && px < out.width && py < out.height) {
                        float& p = out.pixels[size_t(py) * size_t(out.width) + size_t(px)];
                        p = std::min(255.0f, p + glyph[size_t(y) * size_t(w) + size_t(x)]);
                    }
                }
        }
        pen += float(advance) * scale;
    }
    return out;
}

// Sums over rectangles in constant time.
struct Integral {
    int width, height;
    std::vector<double> sum, squares;

    explicit Integral(const Grey& g) : width(g.width + 1), height(g.height + 1)
    {
        sum.assign(size_t(width) * size_t(height), 0);
        squares = sum;
        for (int y = 0; y < g.height; ++y)
            for (int x = 0; x < g.width; ++x) {
                const double v = g.at(x, y);
                const size_t i = size_t(y + 1) * size_t(width) + size_t(x + 1);
                sum[i] = v + sum[i - 1] + sum[i - size_t(width)] - sum[i - size_t(width) - 1];
                squares[i] = v * v + squares[i - 1] + squares[i - size_t(width)] -
                             squares[i - size_t(width) - 1];
            }
    }

    double box(const std::vector<double>& t, int x, int y, int w, int h) const
    {
        const auto at = [&](int xx, int yy) { return t[size_t(yy) * size_t(width) + size_t(xx)]; };
        return at(x + w, y + h) - at(x, y + h) - at(x + w, y) + at(x, y);
    }
};

// A PNG's pixels as RGB bytes.
struct Rgb8 {
    int w = 0, h = 0;
    std::unique_ptr<unsigned char, void (*)(void*)> data{nullptr, &stbi_image_free};
};

Rgb8 load_rgb(const std::string& path)
{
    Rgb8 image;
    int n = 0;
    image.data.reset(stbi_load(path.c_str(), &image.w, &image.h, &n, 3));
    if (!image.data)
        throw std::runtime_error(path + ": cannot read the PNG");
    return image;
}

} // namespace

Grey load_png_luminance(const std::string& path)
{
    const Rgb8 rgb = load_rgb(path);
    const int w = rgb.w, h = rgb.h;
    const auto& data = rgb.data;
    Grey g;
    g.width = w;
    g.height = h;
    g.pixels.resize(size_t(w) * size_t(h));
    for (size_t i = 0; i < g.pixels.size(); ++i) {
        const unsigned char* p = data.get() + 3 * i;
        g.pixels[i] = 0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2];
    }
    return g;
}

ColorStats color_stats(const std::string& path)
{
    const Rgb8 rgb = load_rgb(path);
    const int w = rgb.w, h = rgb.h;
    const auto& data = rgb.data;
    std::map<uint32_t, size_t> counts;
    for (size_t i = 0; i < size_t(w) * size_t(h); ++i) {
        const unsigned char* p = data.get() + 3 * i;
        ++counts[uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]];
    }
    size_t most = 0;
    for (const auto& [color, count] : counts)
        most = std::max(most, count);
    return {counts.size(), double(most) / double(size_t(w) * size_t(h))};
}

double best_text_match(const Grey& image, Rect region, const std::string& text,
                       const std::string& font, float pixel_height)
{
    const Grey t = blurred(draw_text(text, font, pixel_height));
    const Grey img = blurred(image);
    const Integral integral(img);
    const double n = double(t.width) * double(t.height);
    double t_sum = 0, t_squares = 0;
    std::vector<std::pair<size_t, float>> inked;  // (offset in the image row-major, value)
    for (int y = 0; y < t.height; ++y)
        for (int x = 0; x < t.width; ++x) {
            const float v = t.at(x, y);
            t_sum += v;
            t_squares += double(v) * v;
            if (v > 0)
                inked.push_back({size_t(y) * size_t(img.width) + size_t(x), v});
        }
    const double t_var = t_squares - t_sum * t_sum / n;
    region.x0 = std::max(0, region.x0);
    region.y0 = std::max(0, region.y0);
    region.x1 = std::min(img.width - t.width, region.x1);
    region.y1 = std::min(img.height - t.height, region.y1);
    double best = 0;
    for (int y = region.y0; y < region.y1; ++y)
        for (int x = region.x0; x < region.x1; ++x) {
            const double i_sum = integral.box(integral.sum, x, y, t.width, t.height);
            const double i_var = integral.box(integral.squares, x, y, t.width, t.height) - i_sum * i_sum / n;
            if (i_var < 1e-3 * n)
                continue;  // a flat patch: no text here
            const float* base = img.pixels.data() + size_t(y) * size_t(img.width) + size_t(x);
            double cross = 0;
            for (const auto& [offset, v] : inked)
                cross += double(v) * base[offset];
            const double r = (cross - t_sum * i_sum / n) / std::sqrt(t_var * i_var);
            best = std::max(best, std::abs(r));
        }
    return best;
}

} // namespace vgtest
