// SPDX-License-Identifier: GPL-2.0-or-later
// How diff mode colors a change. A change is put in one of a few bins on
// each side of no change, and each bin has its color on the diverging
// scale (blue for less, red for more): a change too small to matter
// against the largest one a view shows stays neutral, and the bins step
// by factors of ten and more, so that a small change and a large one never
// look alike, and a legend can say what each color stands for. Changes are
// read as counts, against the view's largest change, or as a percentage of
// the base, on fixed steps. Below the gate's noise floor (a relative and an
// absolute threshold, as `vgprof diff --fail-above 'Ir=+1%&+5000'` states
// one) a change counts as none, so a few instructions more are not painted
// as a regression.
#ifndef VGPROF_VIEWER_DIFF_SCALE_HPP
#define VGPROF_VIEWER_DIFF_SCALE_HPP

#include "color_scale.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace vgprof::viewer {

// What a box's color says in diff mode: the change of its total
// (inclusive) cost, of its own (self) cost, or its total's change as a
// percentage of what it was.
enum class DiffColoring { total, own, relative };

// "total change", "own change", "change in %".
const char* diff_coloring_name(DiffColoring c);

// The least change that is drawn as one: at least `percent` % of the base
// (any change from nothing is) and at least `amount` in size. Smaller
// changes are noise and drawn as no change.
struct NoiseFloor {
    double percent = 1;
    uint64_t amount = 5000;

    // No floor: every change shows (for figures no gate judges, such as
    // the misses on a few bytes of data).
    static NoiseFloor none() { return {0, 0}; }
    bool holds(int64_t delta, uint64_t base) const;
};

class DiffScale {
public:
    static constexpr int kBins = 5;  // on each side

    // Counts against the largest change shown (its size; at least 1).
    static DiffScale counts(int64_t largest, NoiseFloor floor = {});
    // Percentages of the base.
    static DiffScale percentages(NoiseFloor floor = {});

    // The bin of a change from `base`: 0 for none (or too small), 1 to
    // kBins more, -1 to -kBins less.
    int bin(int64_t delta, uint64_t base) const;
    Rgb color(int64_t delta, uint64_t base) const;
    // The color of bin `b` (-kBins..kBins).
    static Rgb bin_color(int b);
    // The smallest change (a count, or a percentage) that falls in bin
    // `b` (1..kBins): round numbers.
    double edge(int b) const { return edges_[size_t(b - 1)]; }
    bool relative() const { return relative_; }
    const NoiseFloor& floor() const { return floor_; }
    // The bins a change can fall in, from -kBins to kBins, each once:
    // where several bins start at one edge (a view whose largest change is
    // small, or edges raised to the noise floor) a change goes to the
    // highest of them, which alone is listed.
    std::vector<int> bins() const;

private:
    bool relative_ = false;
    NoiseFloor floor_;
    std::array<double, kBins> edges_{};
};

} // namespace vgprof::viewer

#endif
