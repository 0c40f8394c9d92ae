// SPDX-License-Identifier: GPL-2.0-or-later
// Derived events (see derived.hpp): parsing formulas, expanding each
// derived event into weights of the recorded events, and widening every
// cost row of a profile by the derived columns.
#include "vgprof/derived.hpp"

#include "vgprof/error.hpp"
#include "vgprof/profile_builder.hpp"

#include "text.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>

namespace vgprof {

namespace {

// The derived columns of a profile's cost rows. Every widened table is
// computed from the profile as it is before any is swapped in, so that a
// formula that fails (a negative or too large cost) leaves the profile
// untouched.
class EventDeriver {
public:
    // weights[d][e]: the weight of recorded event e in derived event d.
    EventDeriver(const Profile& profile, std::vector<std::string> names,
                 const std::vector<std::vector<int64_t>>& weights, std::vector<std::string> formulas)
        : p_(profile), names_(std::move(names)), formulas_(std::move(formulas)),
          n_(profile.num_events())
    {
        // Only the events a formula uses: a large profile has millions of
        // rows, and a formula names three to six of its events.
        terms_.resize(weights.size());
        for (size_t d = 0; d < weights.size(); ++d)
            for (size_t e = 0; e < n_; ++e)
                if (weights[d][e] != 0)
                    terms_[d].push_back({e, weights[d][e]});
    }

    // The profile with the derived events after its own: its tables taken
    // apart, widened and checked into a Profile again.
    Profile run(Profile&& profile) const
    {
        const Meta& m = p_.meta();
        std::vector<uint64_t> totals = widened(m.totals.data(), 1);
        std::vector<std::vector<uint64_t>> merged;
        for (const MergedRun& run : m.merged)
            merged.push_back(widened(run.totals.data(), 1));
        std::vector<uint64_t> lines = widened(rows_at(p_.lines(), &Profile::line_cost),
                                              p_.lines().size());
        std::vector<uint64_t> instrs = widened(rows_at(p_.instrs(), &Profile::instr_cost),
                                               p_.instrs().size());
        std::vector<uint64_t> inlined = widened(rows_at(p_.inlined_lines(), &Profile::inlined_line_cost),
                                                p_.inlined_lines().size());
        // A path node's self costs, then its inclusive costs: two rows.
        std::vector<uint64_t> paths =
            widened(p_.paths().empty() ? nullptr : p_.path_self(0), 2 * p_.paths().size());
        WideGraph graph = widened(p_.call_graph());
        std::vector<WideGraph> threads;
        for (const ThreadGraph& t : p_.threads())
            threads.push_back(widened(t));
        std::optional<Timeline> timeline;
        if (const Timeline* tl = p_.timeline())
            timeline = widened(*tl);

        ProfileTables t = std::move(profile).take_tables();
        t.meta.totals = std::move(totals);
        for (size_t i = 0; i < merged.size(); ++i)
            t.meta.merged[i].totals = std::move(merged[i]);
        t.line_costs = std::move(lines);
        t.instr_costs = std::move(instrs);
        t.inlined_line_costs = std::move(inlined);
        t.path_costs = std::move(paths);
        swap_in(graph, t.graph);
        for (size_t i = 0; i < threads.size(); ++i)
            swap_in(threads[i], t.threads[i].graph);
        t.timeline = std::move(timeline);
        t.meta.events.insert(t.meta.events.end(), names_.begin(), names_.end());
        // The structure is the one already checked; a derived event that
        // subtracts may make a function's inclusive cost fall below its
        // self cost, which says nothing about the call graph.
        FinishOptions options;
        options.structure_checked = true;
        options.reject_inclusive_below_self = false;
        return ProfileBuilder::finish(std::move(t), "the profile with derived events", options);
    }

private:
    struct WideGraph {
        bool present = false;
        std::vector<uint64_t> call_costs, inclusive_costs;
    };

    template <typename Row>
    const uint64_t* rows_at(const std::vector<Row>& rows,
                            const uint64_t* (Profile::*cost)(size_t) const) const
    {
        return rows.empty() ? nullptr : (p_.*cost)(0);
    }

    // The spans' costs and every moment's totals, widened.
    Timeline widened(const Timeline& tl) const
    {
        Timeline w = tl;
        w.span_costs = widened(tl.spans.empty() ? nullptr : tl.span_costs.data(), tl.spans.size());
        w.begin.totals = widened(tl.begin.totals.data(), 1);
        w.end.totals = widened(tl.end.totals.data(), 1);
        for (TimelineMark& m : w.marks)
            m.totals = widened(m.totals.data(), 1);
        return w;
    }

    WideGraph widened(const CallGraph& g) const
    {
        WideGraph w;
        if (g.num_events() == 0)
            return w;
        w.present = true;
        w.call_costs = widened(g.calls().empty() ? nullptr : g.call_cost(0), g.calls().size());
        w.inclusive_costs = widened(g.inclusive_fns().empty() ? nullptr : g.inclusive_cost(0),
                                    g.inclusive_fns().size());
        return w;
    }

    void swap_in(WideGraph& w, CallGraphTables& g) const
    {
        if (!w.present)
            return;
        g.call_costs = std::move(w.call_costs);
        g.inclusive_costs = std::move(w.inclusive_costs);
        g.num_events = n_ + names_.size();
    }

    // `rows` rows of n_ events at `costs`, each followed by the derived
    // events' costs.
    std::vector<uint64_t> widened(const uint64_t* costs, size_t rows) const
    {
        const size_t width = n_ + names_.size();
        std::vector<uint64_t> out(rows * width);
        for (size_t r = 0; r < rows; ++r) {
            const uint64_t* row = costs + r * n_;
            uint64_t* to = &out[r * width];
            std::copy(row, row + n_, to);
            for (size_t d = 0; d < names_.size(); ++d)
                to[n_ + d] = derived_cost(d, row);
        }
        return out;
    }

    uint64_t derived_cost(size_t d, const uint64_t* row) const
    {
        __int128 sum = 0;
        for (const Term& t : terms_[d])
            sum += static_cast<__int128>(t.weight) * row[t.event];
        if (sum < 0)
            throw Error(detail::cat("derived event ", names_[d], " = ", formulas_[d],
                                    " comes out negative (", static_cast<long long>(sum),
                                    "): a formula must not subtract more than it adds"));
        if (sum > static_cast<__int128>(std::numeric_limits<uint64_t>::max()))
            throw Error(detail::cat("derived event ", names_[d], " = ", formulas_[d],
                                    " exceeds 2^64-1"));
        return static_cast<uint64_t>(sum);
    }

    struct Term {
        size_t event;
        int64_t weight;
    };

    const Profile& p_;
    std::vector<std::string> names_;
    std::vector<std::vector<Term>> terms_;  // per derived event, its nonzero weights
    std::vector<std::string> formulas_;
    size_t n_;
};

} // namespace

namespace {

using detail::cat;

DerivedEvent builtin(const char* name, const char* formula, const char* meaning)
{
    DerivedEvent e = parse_derived_event(std::string(name) + "=" + formula, "built-in");
    e.meaning = meaning;
    return e;
}

bool is_name_char(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// "10*Bm?", "10 Bm", "Bm": one term without its sign.
DerivedTerm parse_term(std::string_view text, const std::string& bad_prefix)
{
    const auto bad = [&](const std::string& why) {
        return Error(bad_prefix + why + " (expected terms such as Ir + 10*L1m + 100*LLm)");
    };
    DerivedTerm t;
    text = detail::trimmed(text);
    size_t i = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
        ++i;
    if (i > 0) {
        if (i > 15)
            throw bad(cat("weight ", std::string(text.substr(0, i)), " is too large"));
        t.weight = std::stoll(std::string(text.substr(0, i)));
        text = detail::trimmed(text.substr(i));
        if (!text.empty() && text[0] == '*')
            text = detail::trimmed(text.substr(1));
    }
    if (!text.empty() && text.back() == '?') {
        t.optional = true;
        text = detail::trimmed(text.substr(0, text.size() - 1));
    }
    if (text.empty())
        throw bad("a term names no event");
    if (!std::all_of(text.begin(), text.end(), is_name_char))
        throw bad(cat("\"", std::string(text), "\" is not an event name"));
    t.event = std::string(text);
    return t;
}

// The weights of the recorded events of `profile` that make `name`, or
// nullopt when the profile lacks an event a required term needs.
class Expander {
public:
    Expander(const Profile& profile, const std::vector<DerivedEvent>& events)
        : profile_(profile), events_(events)
    {
    }

    std::optional<std::vector<int64_t>> weights_of(const std::string& name, size_t depth = 0)
    {
        const size_t n = profile_.num_events();
        if (const auto e = profile_.event_index(name)) {
            std::vector<int64_t> w(n, 0);
            w[*e] = 1;
            return w;
        }
        const DerivedEvent* d = find(name);
        if (d == nullptr || depth > events_.size())
            return std::nullopt;
        std::vector<int64_t> w(n, 0);
        for (const DerivedTerm& t : d->terms) {
            const auto part = weights_of(t.event, depth + 1);
            if (!part) {
                if (t.optional)
                    continue;
                return std::nullopt;
            }
            for (size_t e = 0; e < n; ++e)
                w[e] += t.weight * (*part)[e];
        }
        return w;
    }

private:
    const DerivedEvent* find(const std::string& name) const
    {
        for (const DerivedEvent& d : events_)
            if (d.name == name)
                return &d;
        return nullptr;
    }

    const Profile& profile_;
    const std::vector<DerivedEvent>& events_;
};

// The built-ins with `definitions` in place of those of the same name, then
// the other definitions.
std::vector<DerivedEvent> all_definitions(const std::vector<DerivedEvent>& definitions)
{
    std::vector<DerivedEvent> all = builtin_derived_events();
    for (const DerivedEvent& d : definitions) {
        const auto same = std::find_if(all.begin(), all.end(),
                                       [&](const DerivedEvent& b) { return b.name == d.name; });
        if (same != all.end())
            *same = d;
        else
            all.push_back(d);
    }
    return all;
}

std::string names_of(const std::vector<DerivedEvent>& events)
{
    std::string text;
    for (const DerivedEvent& e : events)
        text += (text.empty() ? "" : " ") + e.name;
    return text.empty() ? "none" : text;
}

} // namespace

const std::vector<DerivedEvent>& builtin_derived_events()
{
    static const std::vector<DerivedEvent> events = {
        builtin("L1m", "I1mr + D1mr + D1mw", "L1 misses, instructions and data"),
        builtin("LLm", "ILmr + DLmr + DLmw", "LL misses, instructions and data"),
        builtin("Bm", "Bcm + Bim", "mispredicted branches, conditional and indirect"),
        builtin("TotalRW", "Ir + Dr + Dw", "memory accesses: instruction fetches, reads, writes"),
        builtin("L1hits", "TotalRW - L1m", "accesses that hit L1"),
        builtin("LLhits", "L1m - LLm", "accesses that missed L1 and hit LL"),
        builtin("RamHits", "LLm", "accesses that missed LL too"),
        builtin("EstimatedCycles", "L1hits + 5*LLhits + 35*RamHits",
                "estimated cycles, Gungraun's weights"),
        builtin("CEst", "Ir + 10*L1m + 100*LLm + 10*Bm?",
                "estimated cycles, KCachegrind's weights"),
    };
    return events;
}

DerivedEvent parse_derived_event(std::string_view definition, std::string_view option)
{
    const std::string prefix = cat(option, ": \"", std::string(definition), "\": ");
    const size_t equals = definition.find('=');
    if (equals == std::string_view::npos)
        throw Error(prefix + "no '=' (expected NAME=FORMULA, e.g. CEst=Ir+10*L1m+100*LLm)");
    DerivedEvent e;
    e.name = std::string(detail::trimmed(definition.substr(0, equals)));
    if (e.name.empty() || !std::all_of(e.name.begin(), e.name.end(), is_name_char))
        throw Error(prefix + "the name before '=' must be letters, digits and '_'");
    const std::string_view formula = definition.substr(equals + 1);
    e.formula = std::string(detail::trimmed(formula));
    size_t start = 0;
    int64_t sign = 1;
    const auto skip_blanks = [&] {
        while (start < formula.size() && (formula[start] == ' ' || formula[start] == '\t'))
            ++start;
    };
    skip_blanks();
    if (start < formula.size() && (formula[start] == '+' || formula[start] == '-')) {
        sign = formula[start] == '-' ? -1 : 1;
        ++start;
    }
    while (true) {
        const size_t op = formula.find_first_of("+-", start);
        DerivedTerm t = parse_term(formula.substr(start, op - start), prefix);
        t.weight *= sign;
        if (t.event == e.name)
            throw Error(prefix + "the formula names the event it defines");
        e.terms.push_back(std::move(t));
        if (op == std::string_view::npos)
            break;
        sign = formula[op] == '-' ? -1 : 1;
        start = op + 1;
    }
    return e;
}

std::vector<DerivedEvent> available_derived_events(const Profile& profile,
                                                   const std::vector<DerivedEvent>& definitions)
{
    for (const DerivedEvent& d : definitions)
        if (profile.event_index(d.name))
            throw Error(cat("derived event ", d.name, ": a recorded event has that name"));
    const std::vector<DerivedEvent> all = all_definitions(definitions);
    Expander expand(profile, all);
    std::vector<DerivedEvent> available;
    for (const DerivedEvent& d : all)
        if (expand.weights_of(d.name))
            available.push_back(d);
    return available;
}

bool is_derived(const std::vector<DerivedEvent>& available, std::string_view name)
{
    return std::any_of(available.begin(), available.end(),
                       [&](const DerivedEvent& d) { return d.name == name; });
}

void add_derived_events(Profile& profile, const std::vector<std::string>& names,
                        const std::vector<DerivedEvent>& definitions)
{
    const std::vector<DerivedEvent> available = available_derived_events(profile, definitions);
    Expander expand(profile, available);
    std::vector<std::string> added, formulas;
    std::vector<std::vector<int64_t>> weights;
    for (const std::string& name : names) {
        if (profile.event_index(name) ||
            std::find(added.begin(), added.end(), name) != added.end())
            continue;
        const auto it = std::find_if(available.begin(), available.end(),
                                     [&](const DerivedEvent& d) { return d.name == name; });
        if (it == available.end())
            throw Error(cat("no event \"", name, "\" recorded or derivable (derivable here: ",
                            names_of(available), ")"));
        added.push_back(name);
        formulas.push_back(it->formula);
        weights.push_back(*expand.weights_of(name));
    }
    if (!added.empty())
        profile = EventDeriver(profile, std::move(added), weights, std::move(formulas))
                      .run(std::move(profile));
}

void add_all_derived_events(Profile& profile, const std::vector<DerivedEvent>& definitions)
{
    std::vector<std::string> names;
    for (const DerivedEvent& d : available_derived_events(profile, definitions))
        names.push_back(d.name);
    add_derived_events(profile, names, definitions);
}

} // namespace vgprof
