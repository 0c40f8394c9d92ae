// SPDX-License-Identifier: GPL-2.0-or-later
// The profile writer: the same layout as the Valgrind tool's writer
// (vgtool/vp_dump.c), version key first, one table row a line, items
// comma-first, so a profile vgprof rewrites (a merge) reads like one the tool
// wrote, and rewriting a tool's profile changes nothing.
#include "vgprof/write.hpp"

#include "vgprof/file_io.hpp"

#include <algorithm>
#include <charconv>
#include <ostream>
#include <string>
#include <string_view>

namespace vgprof {

namespace {

// Text goes into a buffer handed to the stream in large pieces: a large
// profile is tens of millions of numbers, and ostream's formatted output
// would spend most of the time in locale handling.
class JsonOut {
public:
    explicit JsonOut(std::ostream& out) : out_(out) { buffer_.reserve(kChunk + 4096); }
    ~JsonOut() { flush(); }
    JsonOut(const JsonOut&) = delete;
    JsonOut& operator=(const JsonOut&) = delete;

    JsonOut& raw(std::string_view text)
    {
        buffer_.append(text);
        return spill();
    }

    template <typename Integer>
    JsonOut& number(Integer n)
    {
        char digits[24];
        const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
        buffer_.append(digits, size_t(end - digits));
        return spill();
    }

    // A JSON string. Control characters are escaped as the tool escapes
    // them (\u001f); everything else, UTF-8 included, is written as it is.
    JsonOut& string(std::string_view s)
    {
        static const char kHex[] = "0123456789abcdef";
        buffer_.push_back('"');
        for (const char c : s) {
            const auto byte = static_cast<unsigned char>(c);
            if (c == '"' || c == '\\') {
                buffer_.push_back('\\');
                buffer_.push_back(c);
            } else if (byte < 0x20) {
                buffer_.append("\\u00");
                buffer_.push_back(kHex[byte >> 4]);
                buffer_.push_back(kHex[byte & 0xf]);
            } else {
                buffer_.push_back(c);
            }
        }
        buffer_.push_back('"');
        return spill();
    }

    // `,c0,c1,…`: the costs that end a table row.
    JsonOut& costs(const uint64_t* cost, size_t n)
    {
        for (size_t i = 0; i < n; ++i)
            raw(",").number(cost[i]);
        return *this;
    }

    void flush()
    {
        out_.write(buffer_.data(), std::streamsize(buffer_.size()));
        buffer_.clear();
    }

private:
    static constexpr size_t kChunk = 1 << 16;

    JsonOut& spill()
    {
        if (buffer_.size() >= kChunk)
            flush();
        return *this;
    }

    std::ostream& out_;
    std::string buffer_;
};

void write_strings(JsonOut& j, const std::vector<std::string>& strings)
{
    j.raw("[");
    for (size_t i = 0; i < strings.size(); ++i)
        (i ? j.raw(",") : j).string(strings[i]);
    j.raw("]");
}

void write_numbers(JsonOut& j, const std::vector<uint64_t>& numbers)
{
    j.raw("[");
    for (size_t i = 0; i < numbers.size(); ++i)
        (i ? j.raw(",") : j).number(numbers[i]);
    j.raw("]");
}

// `[row0\n,row1…]`: a table, one row a line.
template <typename WriteRow>
void write_rows(JsonOut& j, size_t rows, WriteRow write_row)
{
    j.raw("[");
    for (size_t i = 0; i < rows; ++i) {
        if (i)
            j.raw("\n,");
        write_row(i);
    }
    j.raw("]");
}

void write_geometry(JsonOut& j, const char* name, const CacheGeometry& g)
{
    j.raw("\"").raw(name).raw("\":[").number(g.size).raw(",").number(g.assoc).raw(",");
    j.number(g.line_size).raw("],");
}

void write_cache(JsonOut& j, const std::optional<CacheConfig>& cache)
{
    if (!cache) {
        j.raw("null");
        return;
    }
    j.raw("{");
    if (cache->i1) {
        write_geometry(j, "I1", *cache->i1);
        write_geometry(j, "D1", *cache->d1);
        write_geometry(j, "LL", *cache->ll);
    }
    j.raw("\"branches\":").raw(cache->branches ? "true" : "false").raw("}");
}

void write_exit(JsonOut& j, const std::optional<int64_t>& code, bool killed,
                const std::optional<int>& signal)
{
    if (killed && signal)
        j.raw("{\"killed\":true,\"signal\":").number(*signal).raw("}");
    else if (killed)
        j.raw("{\"killed\":true}");
    else if (code)
        j.raw("{\"code\":").number(*code).raw("}");
    else
        j.raw("null");
}

// `separator"key":`
JsonOut& write_key(JsonOut& j, const char* separator, const char* key)
{
    return j.raw(separator).raw("\"").raw(key).raw("\":");
}

// How a run ended: its totals, exit and dump, in meta and in each entry of
// meta.merged, the members separated by `separator`.
void write_outcome(JsonOut& j, const char* separator, const std::vector<uint64_t>& totals,
                   const std::optional<int64_t>& exit_code, bool killed,
                   const std::optional<int>& signal,
                   const std::optional<int64_t>& dump_number, const std::string& dump_label)
{
    write_key(j, separator, "totals");
    write_numbers(j, totals);
    write_key(j, separator, "exit");
    write_exit(j, exit_code, killed, signal);
    if (dump_number) {
        write_key(j, separator, "dump").raw("{\"number\":").number(*dump_number);
        j.raw(",\"label\":").string(dump_label).raw("}");
    }
}

void write_merged(JsonOut& j, const std::vector<MergedRun>& runs)
{
    write_key(j, "\n ,", "merged").raw("[");
    for (size_t i = 0; i < runs.size(); ++i) {
        const MergedRun& run = runs[i];
        write_key(j, i ? "\n  ,{" : "{", "argv");
        write_strings(j, run.argv);
        write_key(j, ",", "options");
        write_strings(j, run.options);
        write_outcome(j, ",", run.totals, run.exit_code, run.killed, run.signal,
                      run.dump_number, run.dump_label);
        j.raw("}");
    }
    j.raw("]");
}

void write_run(JsonOut& j, const Meta& m)
{
    write_key(j, "\n ,", "run").raw("{");
    const char* separator = "";
    const auto member = [&](const char* key, const std::optional<int64_t>& value) {
        if (!value)
            return;
        write_key(j, separator, key).number(*value);
        separator = ",";
    };
    member("pid", m.pid);
    member("ppid", m.ppid);
    member("elapsed_ms", m.elapsed_ms);
    j.raw("}");
}

void write_fingerprint(JsonOut& j, const Fingerprint& f)
{
    write_key(j, "\n ,", "fingerprint").raw("{");
    write_key(j, "", "cwd").string(f.cwd);
    write_key(j, ",", "env_bytes").number(f.env_bytes);
    write_key(j, ",", "env").raw("[");
    for (size_t i = 0; i < f.env.size(); ++i) {
        j.raw(i ? ",[" : "[").string(f.env[i].name).raw(",").string(f.env[i].hash).raw("]");
    }
    j.raw("]");
    write_key(j, ",", "valgrind_options");
    write_strings(j, f.valgrind_options);
    j.raw("}");
}

void write_meta(JsonOut& j, const Meta& m)
{
    write_key(j, "\n,", "meta").raw("{");
    write_key(j, "", "tool").string(m.tool);
    write_key(j, ",", "tool_version").string(m.tool_version);
    write_key(j, ",", "valgrind").string(m.valgrind);
    const char* const separator = "\n ,";
    write_key(j, separator, "argv");
    write_strings(j, m.argv);
    write_key(j, separator, "options");
    write_strings(j, m.options);
    write_key(j, separator, "events");
    write_strings(j, m.events);
    write_key(j, separator, "cache");
    write_cache(j, m.cache);
    write_outcome(j, separator, m.totals, m.exit_code, m.killed, m.signal, m.dump_number,
                  m.dump_label);
    if (m.allocators) {
        write_key(j, separator, "allocators");
        write_strings(j, *m.allocators);
    }
    if (m.fingerprint)
        write_fingerprint(j, *m.fingerprint);
    if (!m.merged.empty())
        write_merged(j, m.merged);
    write_run(j, m);
    j.raw("\n }");
}

void write_tables(JsonOut& j, const Profile& p)
{
    const size_t events = p.num_events();
    j.raw("\n,\"strs\":");
    write_rows(j, p.strs().size(), [&](size_t i) { j.string(p.strs()[i]); });
    j.raw("\n,\"objs\":");
    write_rows(j, p.objs().size(), [&](size_t i) { j.number(p.objs()[i].value); });
    j.raw("\n,\"files\":");
    write_rows(j, p.files().size(), [&](size_t i) { j.number(p.files()[i].value); });
    j.raw("\n,\"fns\":");
    write_rows(j, p.functions().size(), [&](size_t i) {
        const Function& f = p.functions()[i];
        j.raw("[").number(f.name.value).raw(",").number(f.file.value).raw(",");
        j.number(f.obj.value).raw(",").number(f.line).raw(f.inlined ? ",1]" : "]");
    });
    j.raw("\n,\"lines\":");
    write_rows(j, p.lines().size(), [&](size_t i) {
        const LineCost& l = p.lines()[i];
        j.raw("[").number(l.fn.value).raw(",").number(l.file.value).raw(",").number(l.line);
        j.costs(p.line_cost(i), events).raw("]");
    });
    if (written_version(p) >= 7) {
        j.raw("\n,\"inlines\":");
        write_rows(j, p.inlined_calls().size(), [&](size_t i) {
            const InlinedCall& c = p.inlined_calls()[i];
            j.raw("[").number(c.fn.value).raw(",");
            if (c.parent) j.number(*c.parent); else j.raw("null");
            j.raw(",").number(c.file.value).raw(",").number(c.line).raw("]");
        });
        j.raw("\n,\"inline_lines\":");
        write_rows(j, p.inlined_lines().size(), [&](size_t i) {
            const InlinedLine& l = p.inlined_lines()[i];
            j.raw("[").number(l.fn.value).raw(",").number(l.inl).raw(",").number(l.file.value);
            j.raw(",").number(l.line).costs(p.inlined_line_cost(i), events).raw("]");
        });
    }
    if (p.instrs().empty())
        return;
    j.raw("\n,\"instrs\":");
    write_rows(j, p.instrs().size(), [&](size_t i) {
        const InstrCost& c = p.instrs()[i];
        j.raw("[").number(c.addr).raw(",").number(c.fn.value).raw(",");
        j.number(c.file.value).raw(",").number(c.line);
        j.costs(p.instr_cost(i), events).raw("]");
    });
}

// Version 8 on, each call with its instruction's address.
void write_calls(JsonOut& j, const CallGraph& g, int version)
{
    write_rows(j, g.calls().size(), [&](size_t i) {
        const CallEdge& e = g.calls()[i];
        j.raw("[").number(e.caller.value).raw(",").number(e.callee.value).raw(",");
        j.number(e.file.value).raw(",").number(e.line).raw(",");
        if (version >= 8)
            j.number(e.addr).raw(",");
        j.number(e.count);
        j.costs(g.call_cost(i), g.num_events()).raw("]");
    });
}

void write_inclusive(JsonOut& j, const CallGraph& g)
{
    write_rows(j, g.inclusive_fns().size(), [&](size_t i) {
        j.raw("[").number(g.inclusive_fns()[i].value);
        j.costs(g.inclusive_cost(i), g.num_events()).raw("]");
    });
}

void write_paths(JsonOut& j, const Profile& p)
{
    const size_t events = p.num_events();
    write_rows(j, p.paths().size(), [&](size_t i) {
        const PathNode& node = p.paths()[i];
        j.raw("[");
        if (node.parent)
            j.number(node.parent->value);
        else
            j.raw("null");
        j.raw(",");
        if (node.fn)
            j.number(node.fn->value);
        else
            j.raw("null");
        j.raw(",").number(node.count);
        j.costs(p.path_self(i), events).costs(p.path_inclusive(i), events).raw("]");
    });
}

void write_threads(JsonOut& j, const Profile& p, int version)
{
    j.raw("\n,\"threads\":[");
    for (size_t i = 0; i < p.threads().size(); ++i) {
        const ThreadGraph& t = p.threads()[i];
        j.raw(i ? "\n,{\"tid\":" : "{\"tid\":").number(t.tid);
        j.raw("\n ,\"calls\":");
        write_calls(j, t, version);
        j.raw("\n ,\"inclusive\":");
        write_inclusive(j, t);
        j.raw("\n ,\"roots\":[");
        for (size_t r = 0; r < t.roots.size(); ++r)
            (r ? j.raw(",") : j).number(t.roots[r].value);
        j.raw("]}");
    }
    j.raw("]");
}

// `,live_bytes,live_blocks,total…]`: the end of a moment whose time (and a
// mark's thread and label) the caller wrote.
void write_moment(JsonOut& j, const TimelineMoment& m)
{
    j.raw(",").number(m.live_bytes).raw(",").number(m.live_blocks);
    j.costs(m.totals.data(), m.totals.size()).raw("]");
}

// The timeline section as the tool writes it (vgtool/vp_timeline.c).
void write_timeline(JsonOut& j, const Profile& p)
{
    const Timeline& t = *p.timeline();
    j.raw("\n,\"timeline\":{\"clock\":\"instructions\",\"threshold\":").number(t.threshold);
    j.raw(",\"max_spans\":").number(t.max_spans);
    j.raw("\n ,\"begin\":[").number(t.begin.time);
    write_moment(j, t.begin);
    j.raw("\n ,\"end\":[").number(t.end.time);
    write_moment(j, t.end);
    j.raw("\n ,\"spans\":[");
    for (size_t i = 0; i < t.spans.size(); ++i) {
        const TimelineSpan& s = t.spans[i];
        j.raw(i ? "\n ,[" : "\n  [").number(s.thread).raw(",").number(s.depth).raw(",");
        j.number(s.fn.value).raw(",").number(s.node.value).raw(",").number(s.start).raw(",");
        j.number(s.end).raw(",").number(int(s.open));
        j.costs(p.span_cost(i), p.num_events()).raw("]");
    }
    j.raw("]\n ,\"dropped\":").number(t.dropped);
    j.raw("\n ,\"marks\":[");
    for (size_t i = 0; i < t.marks.size(); ++i) {
        const TimelineMark& m = t.marks[i];
        j.raw(i ? "\n ,[" : "\n  [").number(m.time).raw(",").number(m.thread).raw(",");
        j.string(m.label);
        write_moment(j, m);
    }
    j.raw("]\n ,\"marks_dropped\":").number(t.marks_dropped).raw("}");
}

// `[count, value, …]`: per-offset access counts, each run of equal
// counts as its length and the count.
void write_accesses(JsonOut& j, const std::vector<uint32_t>& accesses)
{
    if (accesses.empty()) {
        j.raw("null");
        return;
    }
    j.raw("[");
    for (size_t i = 0; i < accesses.size();) {
        size_t end = i;
        while (end < accesses.size() && accesses[end] == accesses[i])
            ++end;
        (i ? j.raw(",") : j).number(end - i).raw(",").number(accesses[i]);
        i = end;
    }
    j.raw("]");
}

// `totals` (with the period's start, given `heap`) or `whole_run`; the
// figures of version 9 only where the heap has them.
void write_heap_totals(JsonOut& j, const HeapTotals& t, const Heap& heap, bool period)
{
    const char* first = "{";
    if (period && heap.whole_run) {
        write_key(j, "{", "start_time").number(heap.start_time);
        write_key(j, ",", "start_bytes").number(heap.start_bytes);
        write_key(j, ",", "start_blocks").number(heap.start_blocks);
        first = ",";
    }
    write_key(j, first, "bytes").number(t.bytes);
    write_key(j, ",", "blocks").number(t.blocks);
    if (heap.whole_run) {
        write_key(j, ",", "freed_bytes").number(t.freed_bytes);
        write_key(j, ",", "freed_blocks").number(t.freed_blocks);
    }
    write_key(j, ",", "peak_bytes").number(t.peak_bytes);
    write_key(j, ",", "peak_blocks").number(t.peak_blocks);
    write_key(j, ",", "peak_time").number(t.peak_time);
    write_key(j, ",", "end_bytes").number(t.end_bytes);
    write_key(j, ",", "end_blocks").number(t.end_blocks);
    write_key(j, ",", "end_time").number(t.end_time);
    write_key(j, ",", "reads").number(t.reads);
    write_key(j, ",", "writes").number(t.writes).raw("}");
}

// A site's columns, its frames first.
void write_heap_site(JsonOut& j, const HeapSite& s)
{
    j.raw("[");
    for (size_t f = 0; f < s.frames.size(); ++f)
        (f ? j.raw(",") : j).number(s.frames[f].value);
    j.raw("]");
    for (uint64_t n : {s.bytes, s.blocks, s.lifetimes, s.max_bytes, s.max_blocks, s.peak_bytes,
                       s.peak_blocks, s.end_bytes, s.end_blocks, s.reads, s.writes})
        j.raw(",").number(n);
    j.raw(",");
    write_accesses(j, s.accesses);
}

const char* snapshot_kind(HeapSnapshot::Kind kind)
{
    switch (kind) {
    case HeapSnapshot::Kind::peak: return "peak";
    case HeapSnapshot::Kind::end: return "end";
    case HeapSnapshot::Kind::periodic: break;
    }
    return "periodic";
}

void write_snapshot(JsonOut& j, const HeapSnapshot& sn)
{
    write_key(j, "{", "kind").raw("\"").raw(snapshot_kind(sn.kind)).raw("\"");
    write_key(j, ",", "time").number(sn.time);
    write_key(j, ",", "bytes").number(sn.bytes);
    write_key(j, ",", "blocks").number(sn.blocks);
    write_key(j, ",", "sites").raw("[");
    for (size_t r = 0; r < sn.sites.size(); ++r) {
        const SnapshotSite& site = sn.sites[r];
        j.raw(r ? ",[" : "[").number(site.site.value).raw(",").number(site.bytes);
        j.raw(",").number(site.blocks).raw("]");
    }
    j.raw("]}");
}

// The heap section, its long tables one row a line indented by two.
void write_heap(JsonOut& j, const Heap& heap)
{
    write_key(j, "\n,", "heap").raw("{");
    write_key(j, "", "depth").number(heap.depth);
    write_key(j, "\n ,", "totals");
    write_heap_totals(j, heap.totals, heap, true);
    if (heap.whole_run) {
        write_key(j, "\n ,", "whole_run");
        write_heap_totals(j, *heap.whole_run, heap, false);
    }
    write_key(j, "\n ,", "frames").raw("[");
    for (size_t f = 0; f < heap.frames.size(); ++f) {
        const HeapFrame& frame = heap.frames[f];
        j.raw(f ? "\n  ,[" : "\n  [").number(frame.addr).raw(",").number(frame.fn.value);
        j.raw(",").number(frame.file.value).raw(",").number(frame.line).raw("]");
    }
    write_key(j, "]\n ,", "sites").raw("[");
    for (size_t s = 0; s < heap.sites.size(); ++s) {
        j.raw(s ? "\n  ,[" : "\n  [");
        write_heap_site(j, heap.sites[s]);
        j.raw("]");
    }
    write_key(j, "]\n ,", "timeline").raw("{");
    write_key(j, "", "width").number(heap.sample_width);
    write_key(j, ",", "samples").raw("[");
    for (size_t i = 0; i < heap.samples.size(); ++i) {
        const HeapSample& sample = heap.samples[i];
        j.raw(i ? ",[" : "[").number(sample.time).raw(",").number(sample.bytes).raw(",");
        j.number(sample.blocks).raw("]");
    }
    write_key(j, "]}\n ,", "snapshots").raw("[");
    for (size_t i = 0; i < heap.snapshots.size(); ++i) {
        j.raw(i ? "\n  ," : "\n  ");
        write_snapshot(j, heap.snapshots[i]);
    }
    j.raw("]");
    if (heap.changes) {
        write_key(j, "\n ,", "changes").raw("{");
        write_key(j, "", "width").number(heap.changes->width);
        write_key(j, ",", "max").number(heap.changes->max);
        write_key(j, ",", "rows").raw("[");
        for (size_t i = 0; i < heap.changes->rows.size(); ++i) {
            const HeapChange& c = heap.changes->rows[i];
            j.raw(i ? "\n  ,[" : "\n  [").number(c.site.value).raw(",").number(c.time);
            for (uint64_t n : {c.bytes, c.blocks, c.freed_bytes, c.freed_blocks})
                j.raw(",").number(n);
            j.raw("]");
        }
        j.raw("]}");
    }
    j.raw("}");
}

// `,n` or `,null`: a column of a data object that its kind may lack.
template <typename Value>
void write_optional(JsonOut& j, const std::optional<Value>& v)
{
    if (v)
        j.raw(",").number(*v);
    else
        j.raw(",null");
}

// A data object's optional ids, as their numbers.
template <typename Id>
std::optional<uint32_t> id_value(const std::optional<Id>& id)
{
    return id ? std::optional<uint32_t>(id->value) : std::nullopt;
}

// The data section, laid out as the tool writes it.
void write_data(JsonOut& j, const DataProfile& data)
{
    j.raw("\n,\"data\":{\"events\":[\"Dr\",\"D1mr\",\"DLmr\",\"Dw\",\"D1mw\",\"DLmw\"]");
    j.raw("\n ,\"objects\":[");
    for (size_t i = 0; i < data.objects.size(); ++i) {
        const DataObject& o = data.objects[i];
        j.raw(i ? "\n  ,[\"" : "\n  [\"").raw(data_kind_name(o.kind)).raw("\"");
        write_optional(j, id_value(o.site));
        write_optional(j, id_value(o.name));
        write_optional(j, id_value(o.obj));
        write_optional(j, o.addr);
        j.raw(",").number(o.size).raw(",").number(o.width).costs(o.cost.data(), kDataEvents);
        j.raw("]");
    }
    j.raw("]\n ,\"offsets\":[");
    for (size_t i = 0; i < data.offsets.size(); ++i) {
        const DataOffset& r = data.offsets[i];
        j.raw(i ? "\n  ,[" : "\n  [").number(r.object.value).raw(",").number(r.offset);
        j.costs(r.cost.data(), kDataEvents).raw("]");
    }
    j.raw("]\n ,\"fns\":[");
    for (size_t i = 0; i < data.fns.size(); ++i) {
        const DataFunction& r = data.fns[i];
        j.raw(i ? "\n  ,[" : "\n  [").number(r.object.value).raw(",").number(r.fn.value);
        for (const size_t e : kDataMissEvents)
            j.raw(",").number(r.cost[e]);
        j.raw("]");
    }
    j.raw("]}");
}

} // namespace

int written_version(const Profile& profile)
{
    int version = std::max(profile.meta().version, 1);
    if (profile.has_call_graph())
        version = std::max(version, 2);
    if (profile.heap())
        version = std::max(version, 3);
    if (!profile.meta().merged.empty())
        version = std::max(version, 4);
    if (profile.meta().allocators)
        version = std::max(version, 5);
    const auto names_a_signal = [](const MergedRun& run) { return run.signal.has_value(); };
    if (profile.meta().signal ||
        std::any_of(profile.meta().merged.begin(), profile.meta().merged.end(), names_a_signal))
        version = std::max(version, 6);
    if (profile.data() || profile.meta().fingerprint ||
        std::any_of(profile.functions().begin(), profile.functions().end(),
                    [](const Function& f) { return f.inlined; }))
        version = std::max(version, 7);
    const auto has_addr = [](const CallEdge& c) { return c.addr != 0; };
    if (std::any_of(profile.calls().begin(), profile.calls().end(), has_addr))
        version = std::max(version, 8);
    if (profile.heap() && profile.heap()->whole_run)
        version = std::max(version, 9);
    if (profile.timeline())
        version = std::max(version, 10);
    if (profile.heap() && profile.heap()->changes)
        version = std::max(version, 11);
    else if (profile.heap() && version >= 11)
        version = 10;   // version 11's heap has its changes
    return version;
}

void write_profile(std::ostream& out, const Profile& profile)
{
    JsonOut j(out);
    const int version = written_version(profile);
    j.raw("{\"vgprof\":").number(version);
    write_meta(j, profile.meta());
    write_tables(j, profile);
    if (profile.has_call_graph()) {
        j.raw("\n,\"calls\":");
        write_calls(j, profile.call_graph(), version);
        j.raw("\n,\"inclusive\":");
        write_inclusive(j, profile.call_graph());
        j.raw("\n,\"paths\":");
        write_paths(j, profile);
        if (profile.has_thread_graphs())
            write_threads(j, profile, version);
        if (profile.timeline())
            write_timeline(j, profile);
    }
    if (const Heap* heap = profile.heap())
        write_heap(j, *heap);
    if (const DataProfile* data = profile.data())
        write_data(j, *data);
    j.raw("\n}\n");
    j.flush();
}

void save_profile(const std::string& path, const Profile& profile)
{
    write_file_atomically(path, [&](std::ostream& out) { write_profile(out, profile); });
}

} // namespace vgprof
