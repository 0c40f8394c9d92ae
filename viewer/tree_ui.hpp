// SPDX-License-Identifier: GPL-2.0-or-later
// What the tree views (Call tree, Bottom-up, Sandwich) and the heap's
// allocation flame graph share: the bar of transforms applied (as
// breadcrumbs, each one a way back), the right-click menu that applies a
// transform to a node's function or library, and a merged tree drawn as a
// flame graph.
#ifndef VGPROF_VIEWER_TREE_UI_HPP
#define VGPROF_VIEWER_TREE_UI_HPP

#include "icicle.hpp"
#include "views.hpp"

#include <imgui.h>

#include <functional>
#include <optional>
#include <string>

namespace vgprof::viewer {

// "Complete tree > Merge malloc > Collapse [libc.so.6]": clicking an entry
// goes back to the tree as it was then.
void draw_transform_bar(SharedCallTree& shared, const Profile& profile);

// What a node's menu asked for besides a transform.
enum class NodeAction { none, expand_hottest, expand_all, select };

// The items of a right-click menu on a node of `key`: the transforms of its
// function or library and, given the node's `path` in the top-down tree,
// focusing on that subtree. Call between BeginPopup and EndPopup.
NodeAction node_menu_items(SharedCallTree& shared, const Profile& profile, NodeKey key,
                           const std::vector<NodeKey>* path);

// A tooltip on a merged tree's node: its name, library, costs and calls.
void tree_node_tooltip(const ViewContext& ctx, const MergedTree& tree, uint32_t id,
                       const char* what);

// Draws `icicle`'s boxes across `width` from `origin`, each `row` high,
// row 0 at the top (or, `upward`, at the bottom with deeper rows above).
// Returns the index of the box under the mouse. Boxes of the selected
// function stand out; in diff mode colors are the change of each box on
// `scale` (see icicle_scale).
std::optional<size_t> draw_icicle(const ViewContext& ctx, const Icicle& icicle,
                                  const MergedTree& tree, ImVec2 origin, float width, float row,
                                  bool upward, const DiffScale& scale);

// Diff mode's scale for the boxes of icicles drawn together: their largest
// change of the kind ctx.coloring chooses.
struct IcicleOf {
    const Icicle* icicle;
    const MergedTree* tree;
};
DiffScale icicle_scale(const ViewContext& ctx, const std::vector<IcicleOf>& icicles);

} // namespace vgprof::viewer

#endif
