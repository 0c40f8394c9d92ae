// SPDX-License-Identifier: GPL-2.0-or-later
// How far a row of a tree table is indented: a level's step at a time
// while the name column keeps room for a readable name, then no further;
// the rows deeper than that show their depth as a number in front of the
// name instead. A python3 stack is sixty and more frames deep, and a step
// per frame would push its deep rows' names out of the column.
#ifndef VGPROF_VIEWER_TREE_INDENT_HPP
#define VGPROF_VIEWER_TREE_INDENT_HPP

#include <cstdint>

namespace vgprof::viewer {

// Where a row's parts go, in pixels from the start of the name column.
struct RowIndent {
    float name = 0;       // the row's arrow and name
    bool depth_shown = false;  // a depth label goes at `label`, before the name
    float label = 0;
};

class TreeIndent {
public:
    // A column `column` wide, `step` per level, a name at least
    // `min_name` wide, and depth labels `label` wide.
    TreeIndent(float column, float step, float min_name, float label);

    RowIndent of(uint32_t depth) const;
    // The deepest level indented a step at a time.
    uint32_t last_stepped() const { return last_stepped_; }

private:
    float step_, label_;
    uint32_t last_stepped_;
};

} // namespace vgprof::viewer

#endif
