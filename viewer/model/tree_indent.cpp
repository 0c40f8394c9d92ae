// SPDX-License-Identifier: GPL-2.0-or-later
// Indentation of tree rows, capped to keep names readable (tree_indent.hpp).
#include "tree_indent.hpp"

#include <algorithm>
#include <cmath>

namespace vgprof::viewer {

TreeIndent::TreeIndent(float column, float step, float min_name, float label)
    : step_(std::max(step, 1.0f)), label_(label)
{
    // A deeper row's label goes where the deepest stepped row's name
    // starts, so the label and a name after it still fit in the column.
    const float room = std::max(0.0f, column - min_name - label);
    last_stepped_ = uint32_t(std::floor(room / step_));
}

RowIndent TreeIndent::of(uint32_t depth) const
{
    RowIndent r;
    if (depth <= last_stepped_) {
        r.name = float(depth) * step_;
        return r;
    }
    // The label where the last stepped level's name is, the name after
    // it: every deeper row sits there, told apart by its number.
    r.depth_shown = true;
    r.label = float(last_stepped_) * step_;
    r.name = r.label + label_;
    return r;
}

} // namespace vgprof::viewer
