// SPDX-License-Identifier: GPL-2.0-or-later
// Binning changes for diff mode's colors.
#include "diff_scale.hpp"

#include <algorithm>
#include <cmath>

namespace vgprof::viewer {

namespace {

// The fractions of the largest change where the count bins start: below
// a thousandth of it nothing shows.
constexpr double kCountSteps[DiffScale::kBins] = {0.001, 0.01, 0.05, 0.2, 0.5};
// And the percentages where the relative bins start.
constexpr double kPercentSteps[DiffScale::kBins] = {1, 5, 20, 50, 100};

// `v` rounded down to 1, 2 or 5 times a power of ten (at least 1).
double round_down(double v)
{
    if (v <= 1)
        return 1;
    const double power = std::pow(10.0, std::floor(std::log10(v)));
    for (const double m : {5.0, 2.0, 1.0})
        if (m * power <= v)
            return m * power;
    return power;
}

} // namespace

const char* diff_coloring_name(DiffColoring c)
{
    switch (c) {
    case DiffColoring::total: return "total change";
    case DiffColoring::own: return "own change";
    case DiffColoring::relative: return "change in %";
    }
    return "";
}

bool NoiseFloor::holds(int64_t delta, uint64_t base) const
{
    const double size = std::abs(double(delta));
    if (size < double(amount))
        return true;
    return base > 0 && 100.0 * size < percent * double(base);
}

DiffScale DiffScale::counts(int64_t largest, NoiseFloor floor)
{
    DiffScale s;
    s.floor_ = floor;
    const double top = double(largest > 0 ? largest : 1);
    for (int b = 0; b < kBins; ++b)
        s.edges_[size_t(b)] = std::max(round_down(kCountSteps[b] * top), double(floor.amount));
    return s;
}

DiffScale DiffScale::percentages(NoiseFloor floor)
{
    DiffScale s;
    s.relative_ = true;
    s.floor_ = floor;
    for (int b = 0; b < kBins; ++b)
        s.edges_[size_t(b)] = std::max(kPercentSteps[b], floor.percent);
    return s;
}

std::vector<int> DiffScale::bins() const
{
    std::vector<int> more;
    for (int b = 1; b <= kBins; ++b)
        if (b == kBins || edge(b) < edge(b + 1))
            more.push_back(b);
    std::vector<int> all;
    for (auto it = more.rbegin(); it != more.rend(); ++it)
        all.push_back(-*it);
    all.push_back(0);
    all.insert(all.end(), more.begin(), more.end());
    return all;
}

int DiffScale::bin(int64_t delta, uint64_t base) const
{
    if (delta == 0 || floor_.holds(delta, base))
        return 0;
    const double size = std::abs(double(delta));
    // A change from nothing is as large a change in % as there is.
    const double v = !relative_ ? size : base == 0 ? edges_[kBins - 1] : 100.0 * size / double(base);
    int b = 0;
    while (b < kBins && v >= edges_[size_t(b)])
        ++b;
    return delta < 0 ? -b : b;
}

Rgb DiffScale::bin_color(int b)
{
    if (b == 0)
        return diverging_color(0);
    const double t = 0.2 + 0.8 * double(std::abs(b) - 1) / double(kBins - 1);
    return diverging_color(b < 0 ? -t : t);
}

Rgb DiffScale::color(int64_t delta, uint64_t base) const { return bin_color(bin(delta, base)); }

} // namespace vgprof::viewer
