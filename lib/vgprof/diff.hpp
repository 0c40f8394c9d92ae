// SPDX-License-Identifier: GPL-2.0-or-later
// Comparing two profiles of one program: the change of each event's total
// and of each function's self and inclusive cost, the heap's figures, the
// lines whose cost changed most, what makes two profiles not compare
// (another program, environment, cache or tool options) and the CI
// thresholds (`Ir=+1%`, `Ir=+1%&+5000`, `Ir<=8000000`) the changes are
// checked against.
#ifndef VGPROF_DIFF_HPP
#define VGPROF_DIFF_HPP

#include "vgprof/function_match.hpp"
#include "vgprof/own_code.hpp"
#include "vgprof/profile.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vgprof {

// One cost in the base profile and in the new one.
struct CostDelta {
    uint64_t base = 0;
    uint64_t now = 0;

    // now - base, negative for a decrease (signed_delta: costs beyond 2^63
    // saturate).
    int64_t delta() const;
    // delta() / base as a fraction (0.05: 5% more); nullopt when base is 0,
    // where a change has no meaningful ratio.
    std::optional<double> relative() const;
};

// A function of either profile, matched across the two (function_match.hpp).
struct FunctionDelta {
    // The new profile's name, source file (or "???"), entry line and object
    // path; the base profile's for a removed function.
    std::string name, file, object;
    uint32_t line = 0;
    FunctionChange change = FunctionChange::same;
    // The base profile's name, file and entry line (those above unless the
    // function was moved or renamed).
    std::string base_name, base_file;
    uint32_t base_line = 0;
    // The function's ids in each profile (empty on the side it is not in).
    std::vector<FnId> base_fns, now_fns;
    bool in_base = false, in_now = false;
    // One entry per DiffResult::metrics.
    std::vector<CostDelta> self;
    // One entry per DiffResult::metrics when both profiles have a call graph
    // (DiffResult::inclusive), empty otherwise.
    std::vector<CostDelta> inclusive;
};

// The heap's figures a diff compares, after the events, when both profiles
// have heap data: bytes and blocks allocated, bytes live at the peak
// (t-gmax) and bytes never freed (t-end). A function's self figure is what
// the allocations it made itself (it called the allocator) came to; its
// inclusive figure, what the allocations made under it came to.
inline constexpr const char* kHeapMetrics[] = {"HeapBytes", "HeapBlocks", "HeapPeak",
                                               "HeapLeaked"};

struct DiffResult {
    // What is compared: the events both profiles recorded, in the new
    // profile's order, then the heap metrics when both have heap data.
    // Every cost vector below has one entry per metric here.
    std::vector<std::string> metrics;
    size_t num_events = 0;  // metrics[0, num_events) are events, the rest heap metrics
    std::vector<CostDelta> totals;
    // Whether both profiles have a call graph, so inclusive costs compare.
    bool inclusive = false;
    // Every function with a cost in either profile, the largest change of
    // the first event's self cost (by magnitude) first; ties by name, object
    // basename and file, so the order depends on nothing but the figures.
    std::vector<FunctionDelta> functions;
    // What keeps the profiles from comparing: another program or
    // arguments, other events, caches, tool, heap or translation options,
    // environment or working directory. `vgprof diff` refuses such profiles
    // unless forced; each entry is one short clause ("the environments
    // differ: HOME has another value").
    std::vector<std::string> differences;
    // What may make figures differ without keeping them from comparing: a
    // call graph in one profile only, profiles without a fingerprint.
    std::vector<std::string> warnings;

    // What counts as the programs' own code: a heap site's figures are a
    // function's self figures when it holds the site's innermost own frame
    // (own_code.hpp).
    OwnCodeRules own_code;

    // The index of `metric` in metrics, or nullopt.
    std::optional<size_t> metric_index(std::string_view metric) const;
};

// Compares `now` against `base`. Throws vgprof::Error when the profiles
// have no event in common.
DiffResult diff_profiles(const Profile& base, const Profile& now, OwnCodeRules own_code = {});

// DiffResult::differences and DiffResult::warnings alone, from the
// profiles' metadata, without comparing their costs (the viewer's check
// before it shows a pair).
std::vector<std::string> comparison_differences(const Profile& base, const Profile& now);
std::vector<std::string> comparison_warnings(const Profile& base, const Profile& now);

// Orders diff.functions by the change of metrics[metric]'s self cost, by
// magnitude, largest first (ties as diff_profiles orders them).
void sort_functions(DiffResult& diff, size_t metric);

// A source line of a function whose cost changed.
struct LineDelta {
    std::string file;  // the new profile's path ("???" when unknown)
    uint32_t line = 0;
    CostDelta cost;
};

// The lines of `f` whose cost of diff.metrics[metric] changed, the largest
// change (by magnitude) first, at most `limit`. A line is named as in the
// new profile; a moved function's base lines are shifted by as much as its
// entry line moved (and its file renamed) before they are paired. For an
// event the lines are those of the function's own code; for a heap metric,
// those of the sites' innermost own frames in it (where no frame of a site
// is the program's own, its call into the allocator).
std::vector<LineDelta> changed_lines(const Profile& base, const Profile& now,
                                     const DiffResult& diff, const FunctionDelta& f,
                                     size_t metric, size_t limit);

// A line of the program's own code through which a function that is not
// its own was called (own_call_sites in own_code.hpp), and the part of the
// function's change that came through it.
struct CallerDelta {
    // The own function holding the line (a function inlined into the
    // caller, or the caller), its object, and the line: as the new profile
    // names them, the base's for a line only the base has.
    std::string function, object, file;
    uint32_t line = 0;
    CostDelta cost;
};

// The own lines through which `f`, a function not of the program's own
// code, was called, by the part of the change of its self cost of
// diff.metrics[metric] that came through each: those whose part changed
// the way f's cost did, the largest first, at most `limit`. A moved
// function's base lines are paired as changed_lines() pairs them. Empty
// for an own function, for a heap metric (its figures are at the own
// frame already) and without both call graphs.
std::vector<CallerDelta> own_callers(const Profile& base, const Profile& now,
                                     const DiffResult& diff, const FunctionDelta& f,
                                     size_t metric, size_t limit);

// own_callers for many functions of one diff: each profile's call graph
// indexed once. `diff` (its functions) must outlive it, unchanged.
class OwnCallerSearch {
public:
    OwnCallerSearch(const Profile& base, const Profile& now, const DiffResult& diff);
    ~OwnCallerSearch();

    std::vector<CallerDelta> callers(const FunctionDelta& f, size_t metric, size_t limit) const;

private:
    struct Side;
    const DiffResult& diff_;
    std::unique_ptr<Side> base_, now_;
};

// --- thresholds ----------------------------------------------------------------

// One condition of a threshold on a cost going from base to now.
struct Condition {
    enum class Kind {
        relative,  // "+1%", "-5%": the change exceeds that fraction of base
        absolute,  // "+5000", "-100": the change exceeds that count
        ceiling,   // "<=8000000": the new cost exceeds that count
    };
    Kind kind = Kind::relative;
    double percent = 0;    // relative
    int64_t amount = 0;    // absolute
    uint64_t ceiling = 0;  // ceiling

    // Whether the cost breaks this condition. A relative condition is
    // broken by any cost that rose from 0, and by a cost that stays 0 when
    // it asks for a decrease.
    bool broken_by(const CostDelta& cost) const;
};

// One item of a threshold SPEC: a metric and conditions that must all be
// broken for the threshold to be exceeded (`Ir=+1%&+5000`: more than 1%
// and more than 5,000 more). A negative limit states an expected
// improvement (`Ir=-5%`: exceeded unless Ir fell by at least 5%); a
// ceiling, a highest allowed cost (`Ir<=8000000`).
struct Threshold {
    std::string text;  // the item as given, "Ir=+1%&+5000"
    std::string event; // the metric
    std::vector<Condition> conditions;

    bool exceeded_by(const CostDelta& cost) const;
};

// Parses SPEC, a comma-separated list of items `METRIC=C[&C...]` or
// `METRIC<=N[&C...]`, each C `+N%`, `-N%`, `+N`, `-N` (the `+` may be left
// out) or `<=N`. Throws vgprof::Error, the message starting with `option`
// ("--fail-above"), for an empty list or item, a missing metric or `=`, or
// a malformed number.
std::vector<Threshold> parse_thresholds(std::string_view spec, std::string_view option);

// Which functions per-function thresholds apply to: those whose name
// matches one of `functions` or whose object path (or its basename)
// matches one of `objects` (shell patterns: *, ?, [...]); every function
// when both lists are empty.
struct FunctionFilter {
    std::vector<std::string> functions, objects;

    bool matches(const FunctionDelta& f) const;
};

// A threshold exceeded by a total or by one function's self cost.
struct Breach {
    const Threshold* threshold;        // an element of the list checked
    const FunctionDelta* function;     // nullptr: the metric's total
    CostDelta cost;
};

// What a list of thresholds is checked against.
enum class ThresholdScope { totals, functions };

// The thresholds `diff` exceeds, in threshold order: with
// ThresholdScope::totals, by the totals; with ThresholdScope::functions, by
// the self cost of each function `filter` matches (in diff.functions'
// order). Throws vgprof::Error when a threshold names a metric not in
// diff.metrics.
std::vector<Breach> exceeded_thresholds(const DiffResult& diff,
                                        const std::vector<Threshold>& thresholds,
                                        ThresholdScope scope, const FunctionFilter& filter = {});

} // namespace vgprof

#endif
