// SPDX-License-Identifier: GPL-2.0-or-later
// The pieces `vgprof report`'s two outputs (the function summary and the
// --function call-graph view) share, so both look alike: the cg_annotate
// style header, cost columns with shares of the program total, and the JSON
// shapes of costs and functions.
#ifndef VGPROF_CLI_REPORT_LAYOUT_HPP
#define VGPROF_CLI_REPORT_LAYOUT_HPP

#include "commands.hpp"

#include "vgprof/own_code.hpp"
#include "vgprof/profile.hpp"
#include "vgprof/query.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace vgprof::cli {

// The frame an allocation site is titled by in the reports: the innermost
// of the program's own code (OwnCode::named_frame), else the allocator's
// own when nothing recorded called it; nullopt for a site without frames.
std::optional<FrameId> site_title_frame(const OwnCode& own, const HeapSite& site);

// The event options.sort names (the first recorded when empty). Throws
// vgprof::Error naming the recorded events when the profile lacks it.
size_t sort_event_of(const Profile& profile, const ReportOptions& options);

// The events a report's columns show, settled before anything is written so
// that a bad --events fails with nothing on standard output.
// A column that sums several events: LLm, every last-level miss (ILmr +
// DLmr + DLmw, cachegrind's "LL misses"), or Bm, every mispredicted branch
// (Bcm + Bim).
struct SummedEvent {
    std::string name;
    std::vector<size_t> parts;  // event indices
};

// The summed events a profile has every part of, by name.
std::vector<SummedEvent> summed_events(const Profile& profile);

struct ShownEvents {
    std::vector<size_t> events;  // event indices, in column order
    std::vector<SummedEvent> sums;  // shown after `events`
    // With --miss-rates, per entry of `events`: the rate of that miss event
    // over its reference event (D1mr/Dr), shown beside it; nullopt for an
    // event that is not a miss event. Without it, all nullopt.
    std::vector<std::optional<MissRate>> rates;
    // With --miss-rates: cachegrind's summary rates, shown under the totals.
    std::vector<MissRate> summary_rates;
    bool miss_rates = false;
};

// The events options.events names, in its order (a summed event's name
// among them shown as its sum, after the others); "all": every recorded
// event; none: in text, the first recorded event and one miss summary (LLm,
// else Bm, when recorded), so that the table fits a terminal; in JSON every
// recorded event.
// Throws vgprof::Error naming the recorded events when options.events names
// one the profile lacks, when it names one twice, and when
// options.miss_rates has no cache or branch events to rate.
ShownEvents shown_events(const Profile& profile, const ReportOptions& options);

// Throws vgprof::Error, saying why, when the profile has no call graph for
// `option` to show.
void require_call_graph(const Profile& profile, const ReportOptions& options, const char* option);

// The function --function names (find_function's rules), the profile's
// name prefixed to any error; when it was chosen as the only name holding
// the text, says so on stderr.
FnId function_of_option(const Profile& profile, const ReportOptions& options);

// The graph whose inclusive costs and calls the report shows: the thread
// options.thread names, else the whole program's. Throws vgprof::Error when
// the profile has no per-thread graphs or none of that thread, listing the
// threads it has.
const CallGraph& chosen_graph(const Profile& profile, const ReportOptions& options);
// The thread options.thread names (which must be set), with the same errors.
const ThreadGraph& chosen_thread(const Profile& profile, const ReportOptions& options);

// With options.thread, the header line saying which thread the report
// shows and which of its costs are that thread's; nothing otherwise.
std::vector<std::string> thread_header(const ReportOptions& options);

// Whether `cost` is at least `threshold_percent` percent of `total`.
bool reaches_threshold(uint64_t cost, uint64_t total, double threshold_percent);

// "(40.2%)"; a zero total has no meaningful share, so it shows as 0.
std::string percent(uint64_t part, uint64_t whole);

// Writes `line` without the trailing blanks padded columns leave, as one
// line however the names in it are made: through plain_line()
// (vgprof/safe_text.hpp), so a newline or escape sequence in a name is shown
// escaped.
void print_line(std::ostream& out, std::string line);

// The rule between the blocks of a report.
const std::string& rule();

// The header block: profile, command, events recorded and shown, the
// simulated caches and branches (when meta.cache says), then `more` (lines
// such as "Threshold:        0.1%"), between rules.
void write_header(std::ostream& out, const Profile& profile, const ReportOptions& options,
                  const ShownEvents& shown, const std::vector<std::string>& more);

// The block holding the program totals, one plain column per shown event,
// followed with --miss-rates by the summary rates, one a line.
void write_totals(std::ostream& out, const Profile& profile, const ShownEvents& shown);

// With --thread, the line of the thread's own totals under the program's,
// and the part of them the call-path tree's [truncated] node holds when
// there is one.
void write_thread_totals(std::ostream& out, const Profile& profile, const ShownEvents& shown,
                         uint32_t tid, const std::vector<uint64_t>& totals,
                         const std::vector<uint64_t>& untold);

// "1.25%": a miss rate as text; "-" when there was nothing to miss.
std::string rate_text(std::optional<double> rate);

// Lays out cost columns: per shown event, one column per cost set (a plain
// cost; or self and inclusive), then with --miss-rates, for a miss event,
// one rate column per set. A cost column holds the count right-aligned to
// the widest count it will show and its share of the event's program total;
// a rate column the rate of that set's costs.
class CostColumns {
public:
    // `sets` are the label suffixes of the cost sets, in order: {""} for
    // one column per event labelled "Ir", {" self", " incl"} for two
    // labelled "Ir self" and "Ir incl".
    CostColumns(const Profile& profile, const ShownEvents& shown,
                const std::vector<std::string>& sets);

    // Widens set `set`'s columns to fit `costs` (the totals always fit; a
    // recursive call edge can exceed them).
    void fit(size_t set, const std::vector<uint64_t>& costs);

    std::string header() const;
    // One entry per cost set, each one cost per event; a null entry leaves
    // its columns blank.
    std::string cells(const std::vector<const std::vector<uint64_t>*>& sets) const;
    // As cells() for one cost set, with a '.' where a count would end for
    // each zero cost (every cost when `costs` is null), its share left
    // blank, as cg_annotate marks what a source line did not cost.
    std::string dotted_cells(const std::vector<uint64_t>* costs) const;

private:
    static constexpr size_t kPercentWidth = 8;  // "(100.0%)"
    static constexpr size_t kRateWidth = 7;     // "100.00%"
    struct Column {
        std::string label;
        size_t set, event;
        size_t number_width;           // the count's, or the whole rate column's
        std::optional<MissRate> rate;  // set: a rate column
        std::vector<size_t> parts;     // set: a summed event's column, of these events
        size_t width() const { return rate ? number_width : number_width + 1 + kPercentWidth; }
        uint64_t of(const std::vector<uint64_t>& costs) const;
    };
    static uint64_t summed(const std::vector<size_t>& parts, const std::vector<uint64_t>& costs);
    // One column's cell of `costs`.
    std::string cell(const Column& c, const std::vector<uint64_t>& costs) const;

    const Profile& profile_;
    std::vector<Column> columns_;  // by event, then by set
};

// {"Ir":2485947,...}: `costs` of the shown events, keyed by event name.
boost::json::object costs_by_event(const Profile& profile, const ShownEvents& shown,
                                   const std::vector<uint64_t>& costs);

// {"D1mr/Dr":0.0125,...}: the shown miss events' rates of `costs`, from 0
// to 1, null when there was nothing to miss (empty without --miss-rates).
boost::json::object miss_rates_json(const ShownEvents& shown, const std::vector<uint64_t>& costs);

// Adds `costs` as member `key` ("self") and, with --miss-rates, their
// rates as `key`_miss_rates ("self_miss_rates").
void add_costs(boost::json::object& o, const char* key, const Profile& profile,
               const ShownEvents& shown, const std::vector<uint64_t>& costs);

// {"name":…,"file":…,"line":…,"object":…}: where a function is.
boost::json::object function_json(const Profile& profile, FnId fn);

// The members both JSON reports start with: profile, command, events (the
// shown ones), cache (when meta.cache is not null), sort (the event),
// sort_cost ("self" or "inclusive"), thread (with options.thread only),
// totals and, with --miss-rates, miss_rates (the summary rates).
boost::json::object json_header(const Profile& profile, const ReportOptions& options,
                                const ShownEvents& shown, size_t sort_event,
                                const char* sort_cost);

// The function-summary and --function writers.
void write_summary(std::ostream& out, const Profile& profile, const ReportOptions& options);
void write_function_report(std::ostream& out, const Profile& profile,
                           const ReportOptions& options);

} // namespace vgprof::cli

#endif
