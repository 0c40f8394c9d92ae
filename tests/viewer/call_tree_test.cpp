// SPDX-License-Identifier: GPL-2.0-or-later
// The call tree and its transforms, the trees merged from it (bottom-up,
// callers and callees of a function), on the "app" fixture, whose call
// paths are: main (self 100) > parse (300) > helper (200), and main >
// compute (1000) > helper (500); and on a recursive program.
#include "call_tree.hpp"
#include "merged_tree.hpp"

#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;
using Kind = TreeTransform::Kind;

NodeKey fn(uint32_t id) { return NodeKey::of(FnId(id)); }

std::vector<TreeTransform> just(Kind kind, uint32_t fn) { return {TreeTransform::of(kind, FnId(fn))}; }

const CallTree::Node& at(const CallTree& t, std::vector<NodeKey> path)
{
    const auto n = t.find(path);
    if (!n)
        throw std::runtime_error("no node at that path");
    return t.node(*n);
}

TEST(CallTree, IsThePathTreeWithInclusiveTotals)
{
    const auto doc = document_of(app_profile());
    const CallTree t = build_call_tree(*doc, 0, {}, "", nullptr);
    ASSERT_EQ(t.roots().size(), 1u);
    EXPECT_EQ(t.total(), 2100u);
    const CallTree::Node& main = t.node(t.roots()[0]);
    EXPECT_EQ(main.key, fn(kMain));
    EXPECT_EQ(main.self, 100u);
    EXPECT_EQ(main.total, 2100u);
    // Children most expensive first: compute (1500) before parse (500).
    const uint32_t* first = t.children_begin(t.roots()[0]);
    EXPECT_EQ(t.node(first[0]).key, fn(kCompute));
    EXPECT_EQ(t.node(first[1]).key, fn(kParse));
    EXPECT_EQ(at(t, {fn(kMain), fn(kCompute), fn(kHelper)}).calls, 5u);
    EXPECT_EQ(at(t, {fn(kMain), fn(kParse), fn(kHelper)}).total, 200u);
}

// Where the function it was inlined into ran on one stack only, and none
// of its code ran off that stack, inlined code is its inlined function's
// own; elsewhere the profile does not say which stack ran it, and it stays
// where it ran.
TEST(CallTree, InlinedCodeIsItsInlinedFunctionsOwnWhereTheProfileSaysWhichStackRanIt)
{
    const auto doc = document_of(inlined_profile());
    const CallTree t = build_call_tree(*doc, 0, {}, "", nullptr);
    EXPECT_EQ(t.total(), 1450u);
    const std::vector<NodeKey> work{fn(kInlMain), fn(kWork)};
    EXPECT_EQ(at(t, work).self, 100u);  // app.cpp:31 alone
    EXPECT_EQ(at(t, work).total, 1400u);
    const std::vector<NodeKey> erase{fn(kInlMain), fn(kWork), fn(kErase)};
    EXPECT_EQ(at(t, erase).self, 600u);
    EXPECT_EQ(at(t, erase).total, 600u + 300 + 400);
    EXPECT_EQ(at(t, {fn(kInlMain), fn(kWork), fn(kErase), fn(kMove)}).self, 300u);
    EXPECT_EQ(at(t, {fn(kInlMain), fn(kWork), fn(kErase), fn(kInlHelper)}).total, 400u);
    // Bottom-up, erase is a function with a cost of its own.
    EXPECT_EQ(t.own(fn(kErase)).self, 600u);

    // work's 1000 Ir: 700 under main, 300 on a stack of its own (another
    // thread's); which of them is erase's the profile does not say.
    ProfileText two_stacks = inlined_profile();
    two_stacks.set("paths", "[[null,2,0,50,1150],[0,4,1,700,1100],[1,0,0,0,400],[2,1,2,400,400],"
                            "[null,4,0,300,300]]")
        .set("calls", "[[2,4,1,12,1,1100],[4,1,2,1279,2,400]]")
        .set("inclusive", "[[1,400],[2,1150],[4,1400]]");
    const CallTree t2 = build_call_tree(*document_of(two_stacks), 0, {}, "", nullptr);
    EXPECT_EQ(at(t2, {fn(kInlMain), fn(kWork)}).self, 700u);
    EXPECT_EQ(at(t2, {fn(kWork)}).self, 300u);
    EXPECT_EQ(at(t2, {fn(kInlMain), fn(kWork), fn(kErase)}).self, 0u);
    EXPECT_FALSE(t2.find({fn(kInlMain), fn(kWork), fn(kErase), fn(kMove)}));

    // work's inclusive cost 100 more than its one node's: 100 Ir of its
    // code ran while it was not on the stack, and they may be erase's.
    ProfileText off_stack = inlined_profile();
    off_stack.set("inclusive", "[[1,400],[2,1450],[4,1500]]");
    const CallTree t3 = build_call_tree(*document_of(off_stack), 0, {}, "", nullptr);
    EXPECT_EQ(at(t3, work).self, 1000u);
    EXPECT_EQ(at(t3, erase).self, 0u);
}

TEST(CallTree, MergingAFunctionGivesItsCostToItsCallers)
{
    const auto doc = document_of(app_profile());
    const CallTree t = build_call_tree(*doc, 0, just(Kind::merge_function, kHelper), "", nullptr);
    EXPECT_EQ(t.total(), 2100u);
    EXPECT_EQ(at(t, {fn(kMain), fn(kParse)}).self, 500u);
    EXPECT_EQ(at(t, {fn(kMain), fn(kCompute)}).self, 1500u);
    EXPECT_FALSE(t.find({fn(kMain), fn(kCompute), fn(kHelper)}));
    EXPECT_TRUE(t.outermost(fn(kHelper)).empty());
}

TEST(CallTree, CollapsingAFunctionMakesItsCalleesItsOwnCost)
{
    const auto doc = document_of(app_profile());
    const CallTree t = build_call_tree(*doc, 0, just(Kind::collapse_function, kCompute), "", nullptr);
    const auto compute = t.find({fn(kMain), fn(kCompute)});
    ASSERT_TRUE(compute);
    EXPECT_EQ(t.node(*compute).self, 1500u);
    EXPECT_FALSE(t.has_children(*compute));
    // parse's helper is untouched.
    EXPECT_EQ(at(t, {fn(kMain), fn(kParse), fn(kHelper)}).self, 200u);
}

TEST(CallTree, CollapsingALibraryMakesItsConsecutiveFramesOneNode)
{
    const auto doc = document_of(app_profile());
    // /usr/bin/app, every function's object.
    const CallTree t = build_call_tree(*doc, 0, {TreeTransform::collapse(ObjId(0))}, "", nullptr);
    ASSERT_EQ(t.nodes().size(), 1u);
    EXPECT_EQ(t.node(0).key, NodeKey::of(ObjId(0)));
    EXPECT_EQ(t.node(0).self, 2100u);
    EXPECT_EQ(key_name(doc->profile(), t.node(0).key), "[app]");
}

TEST(CallTree, FocusingOnASubtreeMakesItTheOnlyRoot)
{
    const auto doc = document_of(app_profile());
    const CallTree t =
        build_call_tree(*doc, 0, {TreeTransform::focus({fn(kMain), fn(kCompute)})}, "", nullptr);
    ASSERT_EQ(t.roots().size(), 1u);
    EXPECT_EQ(t.node(t.roots()[0]).key, fn(kCompute));
    EXPECT_EQ(t.total(), 1500u);
    EXPECT_EQ(at(t, {fn(kCompute), fn(kHelper)}).total, 500u);
}

TEST(CallTree, FocusingOnAFunctionMergesEveryCallOfIt)
{
    const auto doc = document_of(app_profile());
    const CallTree t = build_call_tree(*doc, 0, just(Kind::focus_function, kHelper), "", nullptr);
    ASSERT_EQ(t.roots().size(), 1u);
    EXPECT_EQ(t.total(), 700u);
    EXPECT_EQ(t.node(t.roots()[0]).calls, 7u);  // 2 from parse, 5 from compute
}

TEST(CallTree, DroppingAFunctionLeavesOutTheStacksThroughIt)
{
    const auto doc = document_of(app_profile());
    const CallTree t = build_call_tree(*doc, 0, just(Kind::drop_function, kParse), "", nullptr);
    EXPECT_EQ(t.total(), 1600u);  // main's 100 and compute's 1500
    EXPECT_FALSE(t.find({fn(kMain), fn(kParse)}));
}

TEST(CallTree, TransformsApplyInOrder)
{
    const auto doc = document_of(app_profile());
    // helper merged first, then focusing on compute: compute holds 1500 itself.
    const TreeTransform focus = TreeTransform::focus({fn(kMain), fn(kCompute)});
    const CallTree t = build_call_tree(
        *doc, 0, {TreeTransform::of(Kind::merge_function, FnId(kHelper)), focus}, "", nullptr);
    ASSERT_EQ(t.nodes().size(), 1u);
    EXPECT_EQ(t.node(0).self, 1500u);
}

TEST(CallTree, SearchKeepsTheStacksThroughAMatchingFunction)
{
    const auto doc = document_of(app_profile());
    const CallTree t = build_call_tree(*doc, 0, {}, "HELP", nullptr);
    // Both helpers and the way to them; only the helpers' own cost counts.
    EXPECT_EQ(t.total(), 700u);
    EXPECT_EQ(t.nodes().size(), 5u);
    EXPECT_EQ(at(t, {fn(kMain)}).self, 0u);
    EXPECT_EQ(at(t, {fn(kMain), fn(kCompute), fn(kHelper)}).self, 500u);
    // Matching nothing leaves nothing.
    EXPECT_TRUE(build_call_tree(*doc, 0, {}, "nowhere", nullptr).nodes().empty());
}

TEST(CallTree, OutermostCallsOfARecursiveFunctionCountOnce)
{
    const auto doc = document_of(recursive_profile());
    const CallTree t = build_call_tree(*doc, 0, {}, "", nullptr);
    const std::vector<uint32_t> rec = t.outermost(fn(1));
    ASSERT_EQ(rec.size(), 1u);
    EXPECT_EQ(t.node(rec[0]).total, 90u);
    EXPECT_EQ(t.heaviest(fn(1)), rec[0]);
    // Its own cost and its calls are every call's: 20 + 30 (the profile's
    // line cost of rec), in 2 calls.
    EXPECT_EQ(t.own(fn(1)).self, 50u);
    EXPECT_EQ(t.own(fn(1)).calls, 2u);
}

TEST(CallTree, DiffModeCarriesTheBaseCostOfTheSamePaths)
{
    const auto base = document_of(app_profile());
    const auto now = document_of(app_profile_slower());
    const DiffLink diff(*base, *now);
    const CallTree t = build_call_tree(*now, 0, {}, "", &diff);
    EXPECT_EQ(t.total(), 2400u);
    EXPECT_EQ(t.base_total(), 2100u);
    EXPECT_EQ(at(t, {fn(kMain), fn(kCompute)}).total, 1800u);
    EXPECT_EQ(at(t, {fn(kMain), fn(kCompute)}).base_total, 1500u);
}

TEST(MergedTree, BottomUpListsWhereCostWasSpentWithItsCallersBelow)
{
    const auto doc = document_of(app_profile());
    const CallTree t = build_call_tree(*doc, 0, {}, "", nullptr);
    MergedTree up = MergedTree::bottom_up(t);
    ASSERT_EQ(up.roots().size(), 4u);
    EXPECT_EQ(up.node(up.roots()[0]).key, fn(kCompute));  // 1000
    const uint32_t helper = up.roots()[1];
    EXPECT_EQ(up.node(helper).key, fn(kHelper));
    EXPECT_EQ(up.node(helper).total, 700u);
    EXPECT_EQ(up.node(helper).self, 700u);
    EXPECT_EQ(up.total(), 2100u);
    const std::vector<uint32_t> callers = up.children(helper);
    ASSERT_EQ(callers.size(), 2u);
    EXPECT_EQ(up.node(callers[0]).key, fn(kCompute));
    EXPECT_EQ(up.node(callers[0]).total, 500u);
    EXPECT_EQ(up.node(callers[0]).calls, 5u);
    EXPECT_EQ(up.node(callers[1]).total, 200u);
    const auto main = up.find({fn(kHelper), fn(kCompute), fn(kMain)});
    ASSERT_TRUE(main);
    EXPECT_EQ(up.node(*main).total, 500u);
    EXPECT_FALSE(up.node(*main).has_children);
}

TEST(MergedTree, SandwichMergesEveryCallOfTheFunction)
{
    const auto doc = document_of(app_profile());
    const CallTree t = build_call_tree(*doc, 0, {}, "", nullptr);
    MergedTree callers = MergedTree::callers_of(t, fn(kHelper));
    ASSERT_EQ(callers.roots().size(), 1u);
    EXPECT_EQ(callers.node(callers.roots()[0]).total, 700u);
    EXPECT_EQ(callers.node(callers.roots()[0]).calls, 7u);
    EXPECT_EQ(callers.children(callers.roots()[0]).size(), 2u);

    MergedTree callees = MergedTree::callees_of(t, fn(kMain));
    const std::vector<uint32_t> below = callees.children(callees.roots()[0]);
    ASSERT_EQ(below.size(), 2u);
    EXPECT_EQ(callees.node(below[0]).key, fn(kCompute));
    EXPECT_EQ(callees.node(below[0]).self, 1000u);

    // A recursive function's callees start at its outermost calls: the
    // inner call is one of its callees.
    const auto rdoc = document_of(recursive_profile());
    const CallTree rt = build_call_tree(*rdoc, 0, {}, "", nullptr);
    MergedTree rec = MergedTree::callees_of(rt, fn(1));
    EXPECT_EQ(rec.node(rec.roots()[0]).total, 90u);
    const auto inner = rec.find({fn(1), fn(1)});
    ASSERT_TRUE(inner);
    EXPECT_EQ(rec.node(*inner).total, 70u);
}

TEST(MergedTree, ExpandingTheHottestPathOpensTheMostExpensiveChildren)
{
    const auto doc = document_of(app_profile());
    const CallTree t = build_call_tree(*doc, 0, {}, "", nullptr);
    MergedTree down = MergedTree::top_down(t);
    EXPECT_EQ(down.rows().size(), 1u);
    const uint32_t last = down.expand_hottest(down.roots()[0]);
    EXPECT_EQ(down.key_path(last), (std::vector<NodeKey>{fn(kMain), fn(kCompute), fn(kHelper)}));
    // main, compute, helper under compute, parse.
    EXPECT_EQ(down.rows().size(), 4u);

    // The same nodes open again in a tree built again.
    MergedTree again = MergedTree::top_down(t);
    again.open(down.open_paths());
    EXPECT_EQ(again.rows().size(), 4u);
    again.set_expanded(again.roots()[0], false);
    EXPECT_EQ(again.rows().size(), 1u);
    again.expand_all(again.roots()[0], 100);
    EXPECT_EQ(again.rows().size(), 5u);
}

} // namespace
} // namespace vgprof::viewer
