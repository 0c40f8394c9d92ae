// SPDX-License-Identifier: GPL-2.0-or-later
// The loader's `meta` section: tool, events, the simulated caches, totals,
// exit, dump, the merged runs, the fingerprint and the facts of the run
// (see loader.hpp).
#include "loader.hpp"

namespace vgprof::detail {

void Loader::load_meta(const json::value& v, const Where& at)
{
    const json::object& o = object_at(v, at);
    Meta& m = p_.meta;
    const Where tool = at.member("tool"), tool_version = at.member("tool_version"),
                valgrind = at.member("valgrind"), argv = at.member("argv"),
                options = at.member("options"), events = at.member("events"),
                cache = at.member("cache"), totals = at.member("totals"),
                exit = at.member("exit"), merged = at.member("merged"), run = at.member("run");

    m.tool = string_at(required(o, "tool", at), tool);
    if (m.tool != "vgprof")
        fail(tool, cat("expected \"vgprof\", got ", quoted(m.tool)));
    m.tool_version = string_at(required(o, "tool_version", at), tool_version);
    m.valgrind = string_at(required(o, "valgrind", at), valgrind);
    m.argv = strings_at(required(o, "argv", at), argv);
    m.options = strings_at(required(o, "options", at), options);

    m.events = strings_at(required(o, "events", at), events);
    if (m.events.empty())
        fail(events, "expected at least one event, got an empty array");
    const std::string too_many = events_problem(
        m.events.size(), *std::max_element(m.events.begin(), m.events.end(),
                                           [](const std::string& a, const std::string& b) {
                                               return a.size() < b.size();
                                           }));
    if (!too_many.empty())
        fail(events, too_many);
    for (size_t i = 0; i < m.events.size(); ++i)
        if (std::find(m.events.begin(), m.events.begin() + i, m.events[i]) != m.events.begin() + i)
            fail(events.element(i), cat("event ", quoted(m.events[i]), " is listed twice"));

    const json::value& cache_value = required(o, "cache", at);
    if (!cache_value.is_null() && !cache_value.is_object())
        fail(cache, cat("expected null or an object, got ", describe(cache_value)));
    if (cache_value.is_object())
        load_cache(cache_value.get_object(), cache);
    check_simulated_events(cache, events);

    const json::array& totals_array = array_at(required(o, "totals", at), totals);
    if (totals_array.size() != m.events.size())
        fail(totals, cat("expected ", count_of(m.events.size(), "entry", "entries"),
                         " (one per event), got ", totals_array.size()));
    append_costs(totals_array, 0, totals, m.totals);

    m.exit_code = exit_code_at(required(o, "exit", at), exit, m.killed, m.signal);
    if (const json::value* d = o.if_contains("dump"))
        load_dump(*d, at.member("dump"), m.dump_number, m.dump_label);
    if (const json::value* runs = o.if_contains("merged")) {
        if (m.version < 4)
            fail(merged, cat("not part of format version ", m.version,
                             " (merged profiles are version 4)"));
        load_merged(*runs, merged);
    }
    if (const json::value* a = o.if_contains("allocators")) {
        const Where allocators = at.member("allocators");
        if (m.version < 5)
            fail(allocators, cat("not part of format version ", m.version,
                                 " (the allocators seen are version 5)"));
        m.allocators = strings_at(*a, allocators);
    }
    if (const json::value* f = o.if_contains("fingerprint")) {
        const Where fingerprint = at.member("fingerprint");
        if (m.version < 7)
            fail(fingerprint, cat("not part of format version ", m.version,
                                  " (the fingerprint is version 7)"));
        load_fingerprint(*f, fingerprint);
    }
    load_run(required(o, "run", at), run);
}

// meta.exit: {"code":N}; {"killed":true} for a client killed by a signal
// (it has no exit status), from version 6 with "signal":N when the tool
// learnt which; null for a profile dumped while the client was still
// running.
std::optional<int64_t> Loader::exit_code_at(const json::value& v, const Where& at,
                                            bool& killed, std::optional<int>& signal) const
{
    killed = false;
    signal.reset();
    if (v.is_null())
        return std::nullopt;
    const json::object& o = object_at(v, at);
    const Where code = at.member("code"), killed_at = at.member("killed");
    if (const json::value* k = o.if_contains("killed")) {
        if (!k->is_bool())
            fail(killed_at, cat("expected true or false, got ", describe(*k)));
        killed = k->get_bool();
    }
    if (const json::value* s = o.if_contains("signal"); s && version() >= 6) {
        const Where signal_at = at.member("signal");
        if (!killed)
            fail(signal_at, "a signal without \"killed\":true");
        const int64_t number = int_at(*s, signal_at);
        if (number < 1 || number > kMaxSignal)
            fail(signal_at, cat("signal ", number, " out of range (1 to ", kMaxSignal, ")"));
        signal = int(number);
    }
    if (const json::value* c = o.if_contains("code")) {
        if (killed)
            fail(at, "a client killed by a signal has no exit code");
        return int_at(*c, code);
    }
    return std::nullopt;
}

// meta.cache: {"I1":[size,assoc,line],"D1":[…],"LL":[…],"branches":bool},
// or {"branches":true} when only branches were simulated.
void Loader::load_cache(const json::object& o, const Where& at)
{
    for (const auto& member : o)
        if (!contains(kCacheKeys, member.key()))
            fail(at, cat("unknown key ", quoted(member.key()),
                         " (expected \"I1\", \"D1\", \"LL\" and \"branches\")"));
    CacheConfig& c = p_.meta.cache.emplace();
    const Where i1 = at.member("I1"), d1 = at.member("D1"), ll = at.member("LL"),
                branches = at.member("branches");
    const json::value& branches_value = required(o, "branches", at);
    if (!branches_value.is_bool())
        fail(branches, cat("expected true or false, got ", describe(branches_value)));
    c.branches = branches_value.get_bool();

    // cachegrind simulates the three caches together or not at all.
    const size_t caches = o.contains("I1") + o.contains("D1") + o.contains("LL");
    if (caches == 0)
        return;
    if (caches != 3) {
        std::string present, missing;
        for (const char* key : {"I1", "D1", "LL"}) {
            std::string& list = o.contains(key) ? present : missing;
            list += cat(list.empty() ? "" : " and ", '"', key, '"');
        }
        fail(at, cat("incomplete cache configuration: has ", present, " but not ", missing,
                     " (the three caches are simulated together)"));
    }
    c.i1 = cache_geometry_at(o.at("I1"), i1);
    c.d1 = cache_geometry_at(o.at("D1"), d1);
    c.ll = cache_geometry_at(o.at("LL"), ll);
}

CacheGeometry Loader::cache_geometry_at(const json::value& v, const Where& at) const
{
    const json::array& a = array_at(v, at);
    if (a.size() != 3)
        fail(at, cat("expected 3 entries [size, associativity, line size], got ", a.size()));
    uint64_t n[3];
    for (size_t i = 0; i < 3; ++i) {
        const Where item = at.element(i);
        const bool positive = a[i].is_uint64() || (a[i].is_int64() && a[i].get_int64() > 0);
        if (!positive)
            fail(item, cat("expected a positive integer, got ", describe(a[i])));
        n[i] = uint_at(a[i], item);
    }
    const CacheGeometry g{n[0], n[1], n[2]};
    const std::string problem = cache_geometry_problem(g);
    if (!problem.empty())
        fail(at, cat("not a cache Valgrind simulates: ", problem));
    return g;
}

// A reader takes meta.cache's word for which events are there (a miss
// rate, say, needs D1mr and Dr), so what it says was simulated must have
// recorded its events. The other way round is not checked: a profile may
// hold such events without meta.cache (the unit tests' fixtures do).
void Loader::check_simulated_events(const Where& cache, const Where& events) const
{
    const Meta& m = p_.meta;
    if (!m.cache)
        return;
    const auto check = [&](const auto& group, const char* what_was) {
        for (const char* name : group)
            if (std::find(m.events.begin(), m.events.end(), name) == m.events.end())
                fail(events, cat("no ", quoted(name), " event, but ", cache.str(), " says ",
                                 what_was));
    };
    if (m.cache->i1)
        check(kCacheEvents, "the caches were simulated");
    if (m.cache->branches)
        check(kBranchEvents, "branches were simulated");
}

void Loader::load_dump(const json::value& v, const Where& at, std::optional<int64_t>& number,
                       std::string& label) const
{
    const json::object& o = object_at(v, at);
    number = int_at(required(o, "number", at), at.member("number"));
    label = string_at(required(o, "label", at), at.member("label"));
}

// meta.merged: each run a merged profile adds up. Their totals must add up
// to the profile's, or the list would not say what was merged.
void Loader::load_merged(const json::value& v, const Where& at)
{
    const json::array& a = array_at(v, at);
    if (a.empty())
        fail(at, "expected at least one run, got an empty array");
    Meta& m = p_.meta;
    const size_t events = m.events.size();
    std::vector<CheckedSum> sums(events);
    m.merged.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i), argv = item.member("argv"),
                    options = item.member("options"), totals = item.member("totals"),
                    exit = item.member("exit");
        const json::object& o = object_at(a[i], item);
        MergedRun run;
        run.argv = strings_at(required(o, "argv", item), argv);
        run.options = strings_at(required(o, "options", item), options);
        const json::array& totals_array = array_at(required(o, "totals", item), totals);
        if (totals_array.size() != events)
            fail(totals, cat("expected ", count_of(events, "entry", "entries"),
                             " (one per event), got ", totals_array.size()));
        append_costs(totals_array, 0, totals, run.totals);
        for (size_t e = 0; e < events; ++e)
            sums[e].add(run.totals[e]);
        run.exit_code = exit_code_at(required(o, "exit", item), exit, run.killed, run.signal);
        if (const json::value* d = o.if_contains("dump"))
            load_dump(*d, item.member("dump"), run.dump_number, run.dump_label);
        m.merged.push_back(std::move(run));
    }
    for (size_t e = 0; e < events; ++e)
        if (sums[e].overflow || sums[e].value != m.totals[e])
            fail(at, cat("the runs' ", m.events[e], " totals add up to ", sums[e].str(),
                         " but meta.totals[", e, "] is ", m.totals[e]));
}

// The run section holds only facts that vary between runs; each is optional
// so that a profile normalised for comparison (facts removed) still loads.
void Loader::load_run(const json::value& v, const Where& at)
{
    const json::object& o = object_at(v, at);
    Meta& m = p_.meta;
    const Where pid = at.member("pid"), ppid = at.member("ppid"),
                elapsed = at.member("elapsed_ms");
    if (const json::value* x = o.if_contains("pid"))
        m.pid = int_at(*x, pid);
    if (const json::value* x = o.if_contains("ppid"))
        m.ppid = int_at(*x, ppid);
    if (const json::value* x = o.if_contains("elapsed_ms"))
        m.elapsed_ms = int_at(*x, elapsed);
}

// meta.fingerprint: {"cwd":…,"env_bytes":N,"env":[[name,hash],…],
// "valgrind_options":[…]}.
void Loader::load_fingerprint(const json::value& v, const Where& at)
{
    const json::object& o = object_at(v, at);
    Fingerprint& f = p_.meta.fingerprint.emplace();
    f.cwd = string_at(required(o, "cwd", at), at.member("cwd"));
    f.env_bytes = uint_at(required(o, "env_bytes", at), at.member("env_bytes"));
    const Where env = at.member("env");
    const json::array& vars = array_at(required(o, "env", at), env);
    for (size_t i = 0; i < vars.size(); ++i) {
        const Where item = env.element(i);
        const json::array& pair = array_at(vars[i], item);
        if (pair.size() != 2)
            fail(item, cat("expected [name, hash], got ", pair.size(), " entries"));
        f.env.push_back({std::string(string_at(pair[0], item.element(0))),
                         std::string(string_at(pair[1], item.element(1)))});
    }
    f.valgrind_options =
        strings_at(required(o, "valgrind_options", at), at.member("valgrind_options"));
}

} // namespace vgprof::detail
