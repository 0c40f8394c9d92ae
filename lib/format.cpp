// SPDX-License-Identifier: GPL-2.0-or-later
// Numbers and simulations as text (see format.hpp).
#include "vgprof/format.hpp"

namespace vgprof {

namespace {

std::string geometry_text(const char* name, const std::optional<CacheGeometry>& g)
{
    if (!g)
        return "";
    return std::string(name) + " " + std::to_string(g->size) + "," + std::to_string(g->assoc) +
           "," + std::to_string(g->line_size) + " ";
}

} // namespace

std::string simulation_text(const std::optional<CacheConfig>& cache)
{
    if (!cache)
        return "nothing simulated";
    std::string text = geometry_text("I1", cache->i1) + geometry_text("D1", cache->d1) +
                       geometry_text("LL", cache->ll);
    text += cache->branches ? "branches" : "no branches";
    return text;
}

std::string format_thousands(uint64_t n)
{
    const std::string digits = std::to_string(n);
    std::string out;
    out.reserve(digits.size() + digits.size() / 3);
    for (size_t i = 0; i < digits.size(); ++i) {
        // A separator goes before every group of three counted from the right.
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

std::string count_text(uint64_t n, const char* one, const char* many)
{
    return format_thousands(n) + " " + (n == 1 ? one : many);
}

} // namespace vgprof
