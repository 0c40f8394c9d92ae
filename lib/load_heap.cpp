// SPDX-License-Identifier: GPL-2.0-or-later
// The loader's heap section: totals, frames, allocation sites, the
// timeline, the snapshots and the changes (see loader.hpp).
#include "loader.hpp"

namespace vgprof::detail {

void Loader::load_heap(const json::value& v, const Where& at)
{
    const json::object& o = object_at(v, at);
    Heap heap;
    const Where depth = at.member("depth"), totals = at.member("totals"),
                frames = at.member("frames"), sites = at.member("sites"),
                timeline = at.member("timeline"), snapshots = at.member("snapshots");
    heap.depth = u32_at(required(o, "depth", at), depth);
    if (heap.depth == 0)
        fail(depth, "the stack depth must be at least 1");
    heap.totals = heap_totals_at(required(o, "totals", at), totals);
    if (version() >= 9) {
        load_heap_period(o.at("totals"), totals, heap);
        const Where whole = at.member("whole_run");
        heap.whole_run = heap_totals_at(required(o, "whole_run", at), whole);
        check_heap_accounting(*heap.whole_run, 0, 0, whole);
    }
    load_heap_frames(required(o, "frames", at), frames, heap);
    load_heap_sites(required(o, "sites", at), sites, heap);
    detail::check_heap_sums(heap, name_);
    load_timeline(required(o, "timeline", at), timeline, heap);
    load_snapshots(required(o, "snapshots", at), snapshots, heap);
    if (version() >= 11)
        load_changes(required(o, "changes", at), at.member("changes"), heap);
    p_.heap = std::move(heap);
}

HeapTotals Loader::heap_totals_at(const json::value& v, const Where& at) const
{
    const json::object& o = object_at(v, at);
    HeapTotals t;
    const std::pair<const char*, uint64_t*> fields[] = {
        {"bytes", &t.bytes},           {"blocks", &t.blocks},
        {"peak_bytes", &t.peak_bytes}, {"peak_blocks", &t.peak_blocks},
        {"peak_time", &t.peak_time},   {"end_bytes", &t.end_bytes},
        {"end_blocks", &t.end_blocks}, {"end_time", &t.end_time},
        {"reads", &t.reads},           {"writes", &t.writes}};
    for (const auto& [key, out] : fields) {
        const Where item = at.member(key);
        *out = uint_at(required(o, key, at), item);
    }
    if (version() >= 9)
        for (const auto& [key, out] : {std::pair{"freed_bytes", &t.freed_bytes},
                                       std::pair{"freed_blocks", &t.freed_blocks}})
            *out = uint_at(required(o, key, at), at.member(key));
    if (t.peak_time > t.end_time)
        fail(at.member("peak_time"), cat("the peak (", t.peak_time, ") comes after the end (",
                                         t.end_time, ")"));
    return t;
}

// (version 9) Where the period of heap.totals began, and what was live
// then: it comes no later than the peak.
void Loader::load_heap_period(const json::value& v, const Where& at, Heap& heap) const
{
    const json::object& o = object_at(v, at);
    const std::pair<const char*, uint64_t*> fields[] = {{"start_time", &heap.start_time},
                                                        {"start_bytes", &heap.start_bytes},
                                                        {"start_blocks", &heap.start_blocks}};
    for (const auto& [key, out] : fields)
        *out = uint_at(required(o, key, at), at.member(key));
    if (heap.start_time > heap.totals.peak_time)
        fail(at.member("start_time"), cat("the period's start (", heap.start_time,
                                          ") comes after its peak (", heap.totals.peak_time, ")"));
    check_heap_accounting(heap.totals, heap.start_bytes, heap.start_blocks, at);
}

// What was live at the start, plus what was allocated, less what was
// freed, is what is live at the end; the peak is no lower than either.
void Loader::check_heap_accounting(const HeapTotals& t, uint64_t start_bytes,
                                   uint64_t start_blocks, const Where& at) const
{
    struct Unit {
        const char *name, *end_key, *peak_key;
        uint64_t start, allocated, freed, end, peak;
    };
    const Unit units[] = {
        {"bytes", "end_bytes", "peak_bytes", start_bytes, t.bytes, t.freed_bytes, t.end_bytes,
         t.peak_bytes},
        {"blocks", "end_blocks", "peak_blocks", start_blocks, t.blocks, t.freed_blocks,
         t.end_blocks, t.peak_blocks}};
    for (const Unit& u : units) {
        const bool balanced = u.start <= UINT64_MAX - u.allocated &&
                              u.freed <= u.start + u.allocated &&
                              u.start + u.allocated - u.freed == u.end;
        if (!balanced)
            fail(at.member(u.end_key),
                 cat(u.end, " live ", u.name, " at the end, but ", u.start, " at the start + ",
                     u.allocated, " allocated - ", u.freed, " freed is not that"));
        if (u.peak < u.start || u.peak < u.end)
            fail(at.member(u.peak_key),
                 cat("the peak's ", u.peak, " live ", u.name, " are fewer than at the start (",
                     u.start, ") or the end (", u.end, ")"));
    }
}

void Loader::load_heap_frames(const json::value& v, const Where& at, Heap& heap) const
{
    const json::array& a = array_at(v, at);
    heap.frames.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        const json::array& row = array_at(a[i], item);
        if (row.size() != 4)
            fail(item, cat("expected 4 entries [addr, fn, file, line], got ", row.size()));
        HeapFrame f;
        located_at(row, item, f.addr, f.fn, f.file, f.line);
        heap.frames.push_back(f);
    }
}

void Loader::load_heap_sites(const json::value& v, const Where& at, Heap& heap) const
{
    static const char* const kColumns =
        "[frames, bytes, blocks, lifetimes, max_bytes, max_blocks, peak_bytes, peak_blocks, "
        "end_bytes, end_blocks, reads, writes, accesses]";
    const json::array& a = array_at(v, at);
    heap.sites.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        const json::array& row = array_at(a[i], item);
        if (row.size() != 13)
            fail(item, cat("expected 13 entries ", kColumns, ", got ", row.size()));
        HeapSite s;
        const Where frames = item.element(0);
        const json::array& fs = array_at(row[0], frames);
        if (fs.empty())
            fail(frames, "an allocation site needs at least one frame");
        if (fs.size() > kMaxSiteFrames)
            fail(frames, cat(fs.size(), " frames, more than the ", kMaxSiteFrames,
                             " of an allocation stack vgprof reads"));
        // Since version 7 the inlined calls at an address are frames of
        // their own, beside it: the depth bounds the addresses.
        size_t addresses = 0;
        for (size_t f = 0; f < fs.size(); ++f) {
            const Where frame = frames.element(f);
            s.frames.push_back(
                id_at<FrameId>(fs[f], frame, "heap frame", heap.frames.size(), "frame"));
            if (f == 0 || heap.frame(s.frames[f]).addr != heap.frame(s.frames[f - 1]).addr)
                ++addresses;
        }
        const size_t unwound = version() >= 7 ? addresses : fs.size();
        if (unwound > heap.depth)
            fail(frames, cat(version() >= 7 ? count_of(unwound, "address", "addresses")
                                            : count_of(unwound, "frame"),
                             ", more than the depth ", heap.depth));
        uint64_t* const fields[] = {&s.bytes,      &s.blocks,      &s.lifetimes, &s.max_bytes,
                                    &s.max_blocks, &s.peak_bytes,  &s.peak_blocks,
                                    &s.end_bytes,  &s.end_blocks,  &s.reads,     &s.writes};
        for (size_t f = 0; f < std::size(fields); ++f) {
            const Where cell = item.element(f + 1);
            *fields[f] = uint_at(row[f + 1], cell);
        }
        detail::check_site_bounds(s, i, name_, heap.start_blocks > 0);
        const Where acc = item.element(12);
        s.accesses = accesses_at(row[12], acc);
        heap.sites.push_back(std::move(s));
    }
}

// Run-length pairs [count, value, ...] expanded; null: none recorded.
std::vector<uint32_t> Loader::accesses_at(const json::value& v, const Where& at) const
{
    std::vector<uint32_t> out;
    if (v.is_null())
        return out;
    const json::array& a = array_at(v, at);
    if (a.empty() || a.size() % 2 != 0)
        fail(at, cat("expected [count, value] pairs, got ", count_of(a.size(), "entry", "entries")));
    for (size_t i = 0; i < a.size(); i += 2) {
        const Where count_at = at.element(i), value_at = at.element(i + 1);
        const uint64_t count = uint_at(a[i], count_at);
        const uint32_t value = u32_at(a[i + 1], value_at);
        if (count == 0)
            fail(count_at, "a run of zero offsets");
        if (count > kMaxAccessBytes - out.size())
            fail(at, cat("more than ", kMaxAccessBytes, " offsets (counts are kept only for blocks "
                         "of up to ", kMaxAccessBytes, " bytes)"));
        out.insert(out.end(), size_t(count), value);
    }
    return out;
}

void Loader::load_timeline(const json::value& v, const Where& at, Heap& heap) const
{
    const json::object& o = object_at(v, at);
    const Where width = at.member("width"), samples = at.member("samples");
    heap.sample_width = uint_at(required(o, "width", at), width);
    if (heap.sample_width == 0)
        fail(width, "the interval width must be at least 1");
    const json::array& a = array_at(required(o, "samples", at), samples);
    heap.samples.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = samples.element(i);
        const json::array& row = array_at(a[i], item);
        if (row.size() != 3)
            fail(item, cat("expected 3 entries [time, bytes, blocks], got ", row.size()));
        const Where time = item.element(0), bytes = item.element(1), blocks = item.element(2);
        HeapSample s{uint_at(row[0], time), uint_at(row[1], bytes), uint_at(row[2], blocks)};
        if (!heap.samples.empty() && s.time < heap.samples.back().time)
            fail(time, cat("time ", s.time, " comes before the previous sample's (",
                           heap.samples.back().time, ")"));
        if (s.bytes > heap.totals.peak_bytes)
            fail(bytes, cat(s.bytes, " live bytes, more than the peak (", heap.totals.peak_bytes,
                            ")"));
        heap.samples.push_back(s);
    }
}

void Loader::load_snapshots(const json::value& v, const Where& at, Heap& heap) const
{
    const json::array& a = array_at(v, at);
    heap.snapshots.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        const json::object& o = object_at(a[i], item);
        const Where kind = item.member("kind"), time = item.member("time"),
                    bytes = item.member("bytes"), blocks = item.member("blocks"),
                    sites = item.member("sites");
        HeapSnapshot sn;
        const json::string& k = string_at(required(o, "kind", item), kind);
        if (k == "periodic")
            sn.kind = HeapSnapshot::Kind::periodic;
        else if (k == "peak")
            sn.kind = HeapSnapshot::Kind::peak;
        else if (k == "end")
            sn.kind = HeapSnapshot::Kind::end;
        else
            fail(kind, cat("unknown snapshot kind ", quoted(k),
                           " (expected \"periodic\", \"peak\" or \"end\")"));
        sn.time = uint_at(required(o, "time", item), time);
        sn.bytes = uint_at(required(o, "bytes", item), bytes);
        sn.blocks = uint_at(required(o, "blocks", item), blocks);
        if (!heap.snapshots.empty() && sn.time < heap.snapshots.back().time)
            fail(time, cat("time ", sn.time, " comes before the previous snapshot's (",
                           heap.snapshots.back().time, ")"));
        const json::array& rows = array_at(required(o, "sites", item), sites);
        for (size_t r = 0; r < rows.size(); ++r) {
            const Where row_at_ = sites.element(r);
            const json::array& row = array_at(rows[r], row_at_);
            if (row.size() != 3)
                fail(row_at_, cat("expected 3 entries [site, bytes, blocks], got ", row.size()));
            const Where site = row_at_.element(0), rb = row_at_.element(1),
                        rk = row_at_.element(2);
            SnapshotSite s;
            s.site = id_at<SiteId>(row[0], site, "heap site", heap.sites.size(), "site");
            s.bytes = uint_at(row[1], rb);
            s.blocks = uint_at(row[2], rk);
            sn.sites.push_back(s);
        }
        heap.snapshots.push_back(std::move(sn));
    }
}

// (version 11) What each site allocated and freed over time. A site's rows
// add up to what it allocated in the period, and what it freed cannot
// exceed that and what it held when the period began; so the live bytes
// of every site at every stretch's edge follow, never below zero.
void Loader::load_changes(const json::value& v, const Where& at, Heap& heap) const
{
    const json::object& o = object_at(v, at);
    const Where width = at.member("width"), max = at.member("max"), rows = at.member("rows");
    HeapChanges c;
    c.width = uint_at(required(o, "width", at), width);
    if (c.width == 0)
        fail(width, "the width of a stretch must be at least 1");
    c.max = uint_at(required(o, "max", at), max);
    const json::array& a = array_at(required(o, "rows", at), rows);
    c.rows.reserve(a.size());
    struct Sums {
        CheckedSum bytes, blocks, freed_bytes, freed_blocks;
        uint64_t live_bytes = 0, live_blocks = 0;
    };
    std::vector<Sums> sums(heap.sites.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = rows.element(i);
        const json::array& row = array_at(a[i], item);
        if (row.size() != 6)
            fail(item, cat("expected 6 entries [site, time, bytes, blocks, freed_bytes, "
                           "freed_blocks], got ",
                           row.size()));
        HeapChange ch;
        ch.site = id_at<SiteId>(row[0], item.element(0), "heap site", heap.sites.size(), "site");
        ch.time = uint_at(row[1], item.element(1));
        ch.bytes = uint_at(row[2], item.element(2));
        ch.blocks = uint_at(row[3], item.element(3));
        ch.freed_bytes = uint_at(row[4], item.element(4));
        ch.freed_blocks = uint_at(row[5], item.element(5));
        if (ch.time % c.width != 0)
            fail(item.element(1), cat("time ", ch.time, " is not the start of a stretch of ",
                                      c.width, " instructions"));
        if (ch.time > heap.totals.end_time || ch.time / c.width < heap.start_time / c.width)
            fail(item.element(1), cat("time ", ch.time, " is outside the period (", heap.start_time,
                                      " to ", heap.totals.end_time, ")"));
        if (!c.rows.empty()) {
            const HeapChange& prev = c.rows.back();
            if (ch.site.index() < prev.site.index() ||
                (ch.site == prev.site && ch.time <= prev.time))
                fail(item, "rows must be in order of site, then of time, each once");
        }
        Sums& s = sums[ch.site.index()];
        s.bytes.add(ch.bytes);
        s.blocks.add(ch.blocks);
        s.freed_bytes.add(ch.freed_bytes);
        s.freed_blocks.add(ch.freed_blocks);
        c.rows.push_back(ch);
    }
    for (size_t i = 0; i < sums.size(); ++i) {
        const HeapSite& site = heap.sites[i];
        const Sums& s = sums[i];
        const Where site_at = at.member("rows");
        if (!(s.bytes == CheckedSum{site.bytes, false}) ||
            !(s.blocks == CheckedSum{site.blocks, false}))
            fail(site_at, cat("site ", i, "'s rows allocate ", s.bytes.str(), " bytes in ",
                              s.blocks.str(), " blocks, but the site allocated ", site.bytes,
                              " in ", site.blocks));
        // What the site held when the period began, and after each row:
        // never below zero.
        CheckedSum held_bytes, held_blocks;
        held_bytes.add(site.end_bytes);
        held_bytes.add(s.freed_bytes.value);
        held_blocks.add(site.end_blocks);
        held_blocks.add(s.freed_blocks.value);
        if (s.freed_bytes.overflow || s.freed_blocks.overflow || held_bytes.overflow ||
            held_blocks.overflow || held_bytes.value < site.bytes ||
            held_blocks.value < site.blocks)
            fail(site_at, cat("site ", i, "'s rows free more than it allocated and held"));
        sums[i].live_bytes = held_bytes.value - site.bytes;
        sums[i].live_blocks = held_blocks.value - site.blocks;
    }
    for (size_t i = 0; i < c.rows.size(); ++i) {
        const HeapChange& ch = c.rows[i];
        Sums& s = sums[ch.site.index()];
        // Every figure here is bounded by the site's checked sums.
        s.live_bytes += ch.bytes;
        s.live_blocks += ch.blocks;
        if (s.live_bytes < ch.freed_bytes || s.live_blocks < ch.freed_blocks)
            fail(rows.element(i), cat("the row frees more than site ", ch.site.value,
                                      " held (", s.live_bytes, " bytes in ", s.live_blocks,
                                      " blocks)"));
        s.live_bytes -= ch.freed_bytes;
        s.live_blocks -= ch.freed_blocks;
    }
    CheckedSum freed_bytes, freed_blocks;
    for (const Sums& s : sums) {
        freed_bytes.add(s.freed_bytes.value);
        freed_blocks.add(s.freed_blocks.value);
    }
    if (!(freed_bytes == CheckedSum{heap.totals.freed_bytes, false}) ||
        !(freed_blocks == CheckedSum{heap.totals.freed_blocks, false}))
        fail(rows, cat("the rows free ", freed_bytes.str(), " bytes in ", freed_blocks.str(),
                       " blocks, but the period freed ", heap.totals.freed_bytes, " in ",
                       heap.totals.freed_blocks));
    heap.changes = std::move(c);
}

} // namespace vgprof::detail
