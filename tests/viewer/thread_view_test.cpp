// SPDX-License-Identifier: GPL-2.0-or-later
// One thread chosen in the viewer: its document's functions table, call
// tree, flame graph and call graph against `vgprof report --thread`'s
// figures (thread_costs) and the two-thread fixture's own arithmetic
// (report_fixture.hpp): thread 1 is main -> helper -> memset and main ->
// work -> memset, 5600 Ir / 3800 Dr; thread 2 starts in work, which calls
// memset and itself, 4400 Ir / 1200 Dr.
#include "call_neighbourhood.hpp"
#include "call_tree.hpp"
#include "flame_graph.hpp"
#include "function_table.hpp"
#include "thread_choice.hpp"

// report_fixture's, not viewer_fixture's (each has a cache_profile).
#include "../unit/report_fixture.hpp"
#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

#include <gtest/gtest.h>

#include <map>
#include <tuple>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

enum ThreadFn : uint32_t { kMemset = 0, kHelperFn = 1, kMainFn = 2, kWorkFn = 3 };

std::unique_ptr<Document> document_of(const ProfileText& text)
{
    return std::make_unique<Document>(parse_profile(text.str(), "app.json"), "app.json");
}

std::unique_ptr<Document> thread_document(const Document& whole, uint32_t tid)
{
    return std::make_unique<Document>(whole, *whole.profile().thread(tid));
}

using Row = std::tuple<std::string, std::vector<uint64_t>, std::vector<uint64_t>>;

TEST(ThreadDocument, FunctionsTableIsTheThreadsReportRows)
{
    const auto whole = document_of(two_thread_profile());
    for (uint32_t tid : {1u, 2u}) {
        const auto doc = thread_document(*whole, tid);
        std::vector<Row> shown;
        const FunctionTable table(*doc, nullptr);
        for (FnId fn : table.rows())
            shown.emplace_back(doc->profile().fn_name(fn), doc->cost(fn).self, doc->cost(fn).inclusive);
        std::vector<FunctionCost> expected = thread_costs(doc->profile(), *doc->profile().thread(tid)).functions;
        drop_zero_costs(expected);
        sort_by_cost(expected, doc->profile(), 0, CostKind::inclusive);
        std::vector<Row> rows;
        for (const FunctionCost& c : expected)
            rows.emplace_back(doc->profile().fn_name(c.fn), c.self, c.inclusive);
        EXPECT_EQ(shown, rows) << "thread " << tid;
    }
    // By hand: thread 2 ran work (self 4000/400, inclusive 4400/1200) and
    // memset (400/800), not main or helper.
    const auto two = thread_document(*whole, 2);
    const FunctionTable t(*two, nullptr);
    ASSERT_EQ(t.rows().size(), 2u);
    EXPECT_EQ(t.rows()[0], FnId(kWorkFn));
    EXPECT_EQ(two->cost(FnId(kWorkFn)).self, (std::vector<uint64_t>{4000, 400}));
    EXPECT_EQ(two->cost(FnId(kWorkFn)).inclusive, (std::vector<uint64_t>{4400, 1200}));
    EXPECT_EQ(two->cost(FnId(kMemset)).self, (std::vector<uint64_t>{400, 800}));
    EXPECT_EQ(two->total(0), 4400u);
    EXPECT_EQ(two->total(1), 1200u);
}

TEST(ThreadDocument, FlameGraphsRootIsTheThreadsTotal)
{
    const auto whole = document_of(two_thread_profile());
    for (const auto& [tid, ir, dr] : {std::tuple{1u, 5600u, 3800u}, std::tuple{2u, 4400u, 1200u}}) {
        const auto doc = thread_document(*whole, tid);
        const std::vector<uint64_t> totals = thread_costs(doc->profile(), *doc->profile().thread(tid)).totals;
        const FlameGraph ir_graph = build_flame_graph(*doc, 0, std::nullopt, 0);
        EXPECT_EQ(ir_graph.boxes.front().value, ir) << "thread " << tid;
        EXPECT_EQ(ir_graph.boxes.front().value, totals[0]);
        EXPECT_EQ(build_flame_graph(*doc, 1, std::nullopt, 0).boxes.front().value, dr);
        // No box of another thread's stacks: thread 2's root is work.
        for (const FlameBox& b : ir_graph.boxes) {
            if (b.path && !doc->profile().path(*b.path).parent) {
                EXPECT_EQ(doc->profile().path(*b.path).fn, FnId(tid == 1 ? kMainFn : kWorkFn));
            }
        }
    }
    // The whole program's is both threads'.
    EXPECT_EQ(build_flame_graph(*whole, 0, std::nullopt, 0).boxes.front().value, 10000u);
}

TEST(ThreadDocument, CallTreeHoldsTheThreadsStacksAlone)
{
    const auto whole = document_of(two_thread_profile());
    const auto doc = thread_document(*whole, 2);
    const CallTree tree = build_call_tree(*doc, 0, {}, "", nullptr);
    EXPECT_EQ(tree.total(), 4400u);
    ASSERT_EQ(tree.roots().size(), 1u);
    const CallTree::Node& root = tree.node(tree.roots()[0]);
    EXPECT_EQ(root.key, NodeKey::of(FnId(kWorkFn)));
    EXPECT_EQ(root.self, 2500u);
    EXPECT_FALSE(tree.heaviest(NodeKey::of(FnId(kMainFn))));
    EXPECT_EQ(tree.own(NodeKey::of(FnId(kMemset))).self, 400u);
}

TEST(ThreadDocument, CallGraphIsTheThreadsCalls)
{
    const auto whole = document_of(two_thread_profile());
    const auto doc = thread_document(*whole, 2);
    const Neighbourhood g = call_neighbourhood(*doc, FnId(kMemset), 0, 1, 10);
    // In thread 2 memset is called by work alone, once, 400 Ir; in the
    // program also by helper.
    ASSERT_EQ(g.nodes.size(), 2u);
    EXPECT_EQ(g.nodes[0].inclusive, 400u);
    EXPECT_EQ(g.nodes[1].fn, FnId(kWorkFn));
    ASSERT_EQ(g.edges.size(), 1u);
    EXPECT_EQ(g.edges[0].count, 1u);
    EXPECT_EQ(g.edges[0].cost, 400u);
    EXPECT_EQ(call_neighbourhood(*whole, FnId(kMemset), 0, 1, 10).nodes.size(), 3u);
}

TEST(ThreadChoice, ListsEachThreadWithItsShareOfTheEvent)
{
    const auto whole = document_of(two_thread_profile());
    const Profile& p = whole->profile();
    const std::vector<ThreadChoice> choices = thread_choices(p);
    ASSERT_EQ(choices.size(), 2u);
    // 5600 of 10000 Ir, 4400; 3800 of 5000 Dr, 1200.
    EXPECT_EQ(thread_choice_label(p, choices[0], 0), "Thread 1 (56.0% of Ir)");
    EXPECT_EQ(thread_choice_label(p, choices[1], 0), "Thread 2 (44.0% of Ir)");
    EXPECT_EQ(thread_choice_label(p, choices[0], 1), "Thread 1 (76.0% of Dr)");
    EXPECT_EQ(thread_choice_label(p, choices[1], 1), "Thread 2 (24.0% of Dr)");
    EXPECT_TRUE(thread_choices(document_of(two_event_call_graph_profile())->profile()).empty());
}

} // namespace
} // namespace vgprof::viewer
