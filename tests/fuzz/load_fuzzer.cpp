// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target for the loader: any bytes, as a file's contents, must
// load or fail with vgprof::Error, and what loads must be a model the
// queries can read (every id within its table). Sanitizers (address,
// undefined) turn a stray read or an overflow into a crash the fuzzer
// reports. tests/fuzz/run-load-fuzzer runs it from the seeds in
// tests/fuzz/corpus for a bounded time.
#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    // Small enough that a crafted stream cannot run the fuzzer out of
    // memory, large enough for every seed.
    vgprof::LoadLimits limits;
    limits.max_decompressed = uint64_t(64) << 20;
    try {
        const vgprof::Profile profile = vgprof::parse_profile(
            std::string_view(reinterpret_cast<const char*>(data), size), "fuzz", limits);
        std::vector<vgprof::FunctionCost> costs = vgprof::function_costs(profile);
        vgprof::sort_by_cost(costs, profile, 0,
                             profile.has_call_graph() ? vgprof::CostKind::inclusive
                                                      : vgprof::CostKind::self);
        for (const vgprof::FunctionCost& cost : costs) {
            vgprof::function_label(profile, cost.fn);
            vgprof::callers_of(profile, cost.fn);
            vgprof::callees_of(profile, cost.fn);
        }
    } catch (const vgprof::Error&) {
        // A clear message is the expected outcome for most inputs.
    }
    return 0;
}
