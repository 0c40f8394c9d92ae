// SPDX-License-Identifier: GPL-2.0-or-later
// OKLab interpolation between a few anchor colors, and binning.
#include "color_scale.hpp"

#include <algorithm>
#include <cmath>

namespace vgprof::viewer {

namespace {

struct Lab {
    double l, a, b;
};

double to_linear(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double to_srgb(double c)
{
    c = std::clamp(c, 0.0, 1.0);
    return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055;
}

// The sRGB <-> OKLab conversion of Björn Ottosson's published definition.
Lab to_oklab(Rgb c)
{
    const double r = to_linear(c.r / 255.0), g = to_linear(c.g / 255.0), b = to_linear(c.b / 255.0);
    const double l = std::cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
    const double m = std::cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
    const double s = std::cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
    return {0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
            1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s};
}

Rgb from_oklab(Lab c)
{
    const double l = std::pow(c.l + 0.3963377774 * c.a + 0.2158037573 * c.b, 3);
    const double m = std::pow(c.l - 0.1055613458 * c.a - 0.0638541728 * c.b, 3);
    const double s = std::pow(c.l - 0.0894841775 * c.a - 1.2914855480 * c.b, 3);
    const auto byte = [](double v) { return uint8_t(std::lround(to_srgb(v) * 255)); };
    return {byte(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
            byte(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
            byte(-0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s)};
}

// Piecewise-linear in OKLab through `anchors` spaced evenly over [0, 1].
template <size_t N>
Rgb through(const Rgb (&anchors)[N], double t)
{
    t = std::clamp(t, 0.0, 1.0) * double(N - 1);
    const size_t i = std::min(size_t(t), N - 2);
    const double f = t - double(i);
    const Lab a = to_oklab(anchors[i]), b = to_oklab(anchors[i + 1]);
    return from_oklab({a.l + (b.l - a.l) * f, a.a + (b.a - a.a) * f, a.b + (b.b - a.b) * f});
}

// Anchors chosen with OKLab lightness 0.27, 0.45, 0.62, 0.78, 0.95 so that
// lightness rises steadily from one end to the other.
constexpr Rgb kSequential[] = {
    {45, 16, 84}, {40, 84, 150}, {32, 144, 140}, {122, 196, 80}, {250, 235, 120}};
constexpr Rgb kDiverging[] = {{33, 102, 172}, {146, 197, 222}, {232, 232, 232},
                              {244, 165, 130}, {178, 24, 43}};

} // namespace

double oklab_lightness(Rgb c) { return to_oklab(c).l; }

Rgb sequential_color(double t) { return through(kSequential, t); }

Rgb diverging_color(double t) { return through(kDiverging, (std::clamp(t, -1.0, 1.0) + 1) / 2); }

Rgb text_color_on(Rgb background)
{
    return oklab_lightness(background) > 0.62 ? Rgb{0, 0, 0} : Rgb{255, 255, 255};
}

double log_position(double value, double max)
{
    if (max <= 0 || value <= 0)
        return 0;
    return std::clamp(std::log1p(value) / std::log1p(max), 0.0, 1.0);
}

double signed_log_position(double delta, double max_magnitude)
{
    const double p = log_position(std::abs(delta), max_magnitude);
    return delta < 0 ? -p : p;
}

int bin_of(double position, int bins)
{
    return std::clamp(int(position * bins), 0, bins - 1);
}

double bin_centre(int bin, int bins) { return (bin + 0.5) / bins; }

double log_bin_edge(int bin, int bins, double max)
{
    return std::expm1(std::log1p(max) * double(bin) / double(bins));
}

} // namespace vgprof::viewer
