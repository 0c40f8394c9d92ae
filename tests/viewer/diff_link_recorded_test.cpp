// SPDX-License-Identifier: GPL-2.0-or-later
// Diff mode pairs the functions of two real profiles as `vgprof diff` does,
// so its colours and the CI gate never disagree: gate_sort recorded under
// vgprof in its base build and in the build whose compare_keys moved from
// gate_keys.c into gate_sort.c. The reference is lib's diff_profiles, run
// on the same two profiles.
#include "diff_link.hpp"

#include "../tool/harness.hpp"

#include "vgprof/diff.hpp"
#include "vgprof/load.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

namespace vgprof::viewer {
namespace {

using namespace vgtest;

// `program` recorded as dir/side/gate_sort, so both builds are one
// program (one object basename) in two directories.
std::unique_ptr<Document> recorded(const TempDir& dir, const std::string& program,
                                   const std::string& side)
{
    const std::string bin = dir / side;
    std::filesystem::create_directories(bin);
    std::filesystem::copy_file(progs_dir() + "/" + program, bin + "/gate_sort");
    const std::string out = dir / (side + ".json");
    const RunResult r = run_tool("vgprof", {"--vgprof-out-file=" + out}, {"./gate_sort"}, bin);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return std::make_unique<Document>(load_profile(out), out);
}

TEST(DiffLinkRecorded, PairsEveryFunctionAsVgprofDiffDoes)
{
    const TempDir dir;
    const auto base = recorded(dir, "gate_sort", "base");
    const auto now = recorded(dir, "gate_sort_moved", "new");
    const DiffLink link(*base, *now);
    const DiffResult diff = diff_profiles(base->profile(), now->profile());

    const auto ir = now->profile().event_index("Ir");
    ASSERT_TRUE(ir);
    ASSERT_EQ(diff.metrics[0], "Ir");
    std::map<FunctionChange, size_t> changes;
    size_t removed_fns = 0;
    for (const FunctionDelta& f : diff.functions) {
        ++changes[f.change];
        if (!f.in_now)
            removed_fns += f.base_fns.size();
        for (const FnId fn : f.now_fns) {
            const std::string label = f.name + " [" + f.object + "]";
            if (!f.in_base) {
                EXPECT_FALSE(link.base_fn(fn)) << label;
                continue;
            }
            ASSERT_TRUE(link.base_fn(fn)) << label << " (" << change_name(f.change) << ")";
            EXPECT_EQ(*link.base_fn(fn), f.base_fns.front()) << label;
            if (f.now_fns.size() == 1 && f.base_fns.size() == 1) {
                EXPECT_EQ(link.self_delta(fn, *ir), f.self[0].delta()) << label;
                EXPECT_EQ(link.inclusive_delta(fn, *ir), f.inclusive[0].delta()) << label;
            }
        }
    }
    EXPECT_EQ(link.functions_only_in_base(), removed_fns);
    // What the pairing has to follow here: compare_keys moved, the rest
    // the same.
    EXPECT_EQ(changes[FunctionChange::moved], 1u);
    EXPECT_GT(changes[FunctionChange::same], 10u);
}

} // namespace
} // namespace vgprof::viewer
