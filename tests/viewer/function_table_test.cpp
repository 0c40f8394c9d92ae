// SPDX-License-Identifier: GPL-2.0-or-later
// The Functions view's rows: search and order, figures from the "app"
// fixture (viewer_fixture.hpp).
#include "function_table.hpp"

#include "viewer_fixture.hpp"

#include <gtest/gtest.h>

namespace vgprof::viewer {
namespace {

using namespace vgprof::test;

std::vector<std::string> names(const Document& doc, const FunctionTable& t)
{
    std::vector<std::string> out;
    for (FnId fn : t.rows())
        out.push_back(doc.profile().fn_name(fn));
    return out;
}

TEST(Document, FunctionCostsAreTheFixturesSums)
{
    const auto doc = document_of(app_profile());
    EXPECT_EQ(doc->self(FnId(kHelper), 0), 700u);
    EXPECT_EQ(doc->self(FnId(kCompute), 0), 1000u);
    EXPECT_EQ(doc->inclusive(FnId(kCompute), 0), 1500u);
    EXPECT_EQ(doc->inclusive(FnId(kMain), 0), 2100u);
    EXPECT_EQ(doc->calls_in().size_of(kHelper), 2u);
    EXPECT_EQ(doc->calls_out().size_of(kMain), 2u);
    EXPECT_EQ(doc->lines_of_fn().size_of(kCompute), 2u);
    ASSERT_EQ(doc->path_roots().size(), 1u);
    EXPECT_EQ(doc->path_children().size_of(0), 2u);
    EXPECT_EQ(doc->command(), "./app -n 3");
}

// The "inlined" fixture: erase's code (600 Ir at stl_vector.h:1278) and
// move's inlined into it (300) are work's self cost; erase's code also
// calls helper twice (400). The list gives each inlined function its own
// code and what it called, not nothing; work keeps its self cost.
TEST(Document, InlinedFunctionsCostTheirOwnCodeAndWhatTheyCalled)
{
    const auto doc = document_of(inlined_profile());
    EXPECT_EQ(doc->self(FnId(kErase), 0), 600u);
    EXPECT_EQ(doc->inclusive(FnId(kErase), 0), 600u + 300u + 400u);
    EXPECT_EQ(doc->self(FnId(kMove), 0), 300u);
    EXPECT_EQ(doc->inclusive(FnId(kMove), 0), 300u);
    EXPECT_EQ(doc->self(FnId(kWork), 0), 1000u);
    EXPECT_EQ(doc->inclusive(FnId(kWork), 0), 1400u);
}

TEST(FunctionTable, OrdersByInclusiveCostByDefault)
{
    const auto doc = document_of(app_profile());
    FunctionTable t(*doc, nullptr);
    EXPECT_EQ(names(*doc, t), (std::vector<std::string>{"main", "compute", "helper", "parse"}));
}

TEST(FunctionTable, OrdersBySelfCostAscendingOrByName)
{
    const auto doc = document_of(app_profile());
    FunctionTable t(*doc, nullptr);
    t.set_order({false, CostKind::self, 0, false});
    EXPECT_EQ(names(*doc, t), (std::vector<std::string>{"main", "parse", "helper", "compute"}));
    t.set_order({true, CostKind::self, 0, false});
    EXPECT_EQ(names(*doc, t), (std::vector<std::string>{"compute", "helper", "main", "parse"}));
}

TEST(FunctionTable, SearchKeepsNamesContainingTheTextInAnyCase)
{
    const auto doc = document_of(app_profile());
    FunctionTable t(*doc, nullptr);
    t.set_filter("PAR");
    EXPECT_EQ(names(*doc, t), (std::vector<std::string>{"parse"}));
    EXPECT_FALSE(t.row_of(FnId(kMain)));
    t.set_filter("");
    EXPECT_EQ(t.rows().size(), 4u);
    EXPECT_EQ(t.row_of(FnId(kHelper)), 2u);
}

TEST(FunctionTable, InDiffModeOrdersByChange)
{
    const auto base = document_of(app_profile());
    const auto now = document_of(app_profile_slower());
    const DiffLink diff(*base, *now);
    FunctionTable t(*now, &diff);
    t.set_order({false, CostKind::self, 0, true});
    // compute +300; the others 0, by name.
    EXPECT_EQ(names(*now, t), (std::vector<std::string>{"compute", "helper", "main", "parse"}));
}

} // namespace
} // namespace vgprof::viewer
