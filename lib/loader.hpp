// SPDX-License-Identifier: GPL-2.0-or-later
// The JSON profile loader (load.hpp's reader of vgprof's own profiles), one
// class whose members are defined by concern: load.cpp the sections every
// profile has and the checks of values, load_stream.cpp the streaming of
// the document, load_meta.cpp meta, load_callgraph.cpp the call graph and
// the threads', load_heap.cpp the heap. Internal to libvgprof.
//
// A JSON profile is parsed as a stream of events (Boost.JSON's
// basic_parser): the rows of the large tables (lines, instrs, calls,
// inclusive, paths) go straight into the tables as they are parsed, without
// a document in between, while the small sections (meta, the string and
// function tables, threads) are kept as documents. Loader then checks every
// invariant listed in docs/profile-format.md, section by section in a fixed
// order, so the first problem reported depends neither on the order of the
// document's keys nor on how much of a table the parser could add.
// Every problem becomes a vgprof::Error naming the file and the place;
// nothing else escapes, whatever the input.
#ifndef VGPROF_LOADER_HPP
#define VGPROF_LOADER_HPP

#include "input.hpp"
#include "json_stream.hpp"
#include "profile_checks.hpp"
#include "text.hpp"
#include "vgprof/error.hpp"
#include "vgprof/load.hpp"
#include "vgprof/profile.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace vgprof::detail {

namespace json = boost::json;

// A place in the document as a chain of links to the enclosing places, kept
// on the stack. It is rendered as text ("lines[12][0]") only when an error is
// reported, so checking millions of rows builds no strings.
// A Where must not outlive its parent: name each level as a local.
struct Where {
    const Where* parent = nullptr;
    const char* key = nullptr;  // member name; null for an array element
    size_t index = 0;

    Where member(const char* k) const { return Where{this, k, 0}; }
    Where element(size_t i) const { return Where{this, nullptr, i}; }
    bool is_top() const { return parent == nullptr; }

    std::string str() const
    {
        if (is_top())
            return {};
        std::string prefix = parent->str();
        if (key == nullptr)
            return cat(prefix, '[', index, ']');
        return prefix.empty() ? std::string(key) : cat(prefix, '.', key);
    }
};

// One JSON value as far as a check of one table entry needs it: its kind
// and, for a scalar, its value; the contents of strings, arrays and objects
// are not kept. Table rows are read as cells whether they come from the
// parser's events or from a document.
struct Cell {
    json::kind kind = json::kind::null;
    union {
        int64_t i;
        uint64_t u;
        double d;
        bool b;
    };

    Cell() : u(0) {}
    explicit Cell(json::kind k) : kind(k), u(0) {}
    // Implicit: the checks below take cells, and a document's values too.
    Cell(const json::value& v) : kind(v.kind()), u(0)
    {
        switch (kind) {
        case json::kind::bool_: b = v.get_bool(); break;
        case json::kind::int64: i = v.get_int64(); break;
        case json::kind::uint64: u = v.get_uint64(); break;
        case json::kind::double_: d = v.get_double(); break;
        default: break;
        }
    }
    static Cell of_int64(int64_t v) { Cell c(json::kind::int64); c.i = v; return c; }
    static Cell of_uint64(uint64_t v) { Cell c(json::kind::uint64); c.u = v; return c; }
    static Cell of_double(double v) { Cell c(json::kind::double_); c.d = v; return c; }
    static Cell of_bool(bool v) { Cell c(json::kind::bool_); c.b = v; return c; }

    bool is_null() const { return kind == json::kind::null; }
    bool is_int64() const { return kind == json::kind::int64; }
    bool is_uint64() const { return kind == json::kind::uint64; }
};

// A table row as read: an array of cells, or the one value that stood where
// an array belonged.
struct RowCells {
    bool is_array = true;
    std::vector<Cell> cells;

    size_t size() const { return cells.size(); }
    const Cell& operator[](size_t i) const { return cells[i]; }

    void assign(const json::value& v)
    {
        cells.clear();
        is_array = v.is_array();
        if (!is_array) {
            cells.emplace_back(v);
            return;
        }
        for (const json::value& item : v.get_array())
            cells.emplace_back(item);
    }
};

// "got ..." part of a type error: the value itself when it is short, its kind
// otherwise.
inline std::string describe(const Cell& v)
{
    switch (v.kind) {
    case json::kind::null: return "null";
    case json::kind::bool_: return v.b ? "true" : "false";
    case json::kind::int64: return cat(v.i);
    case json::kind::uint64: return cat(v.u);
    case json::kind::double_: {
        std::ostringstream out;
        out.precision(17);
        out << v.d << " (a floating-point number)";
        return out.str();
    }
    case json::kind::string: return "a string";
    case json::kind::array: return "an array";
    case json::kind::object: return "an object";
    }
    return "an unknown JSON value";
}

inline std::string quoted(json::string_view s)
{
    return detail::quote(std::string_view(s.data(), s.size()));
}

// "1 function", "3 functions"; irregular plurals ("entry") pass their own.
inline std::string count_of(size_t n, const char* noun, const char* nouns = nullptr)
{
    if (n == 1)
        return cat(n, ' ', noun);
    return nouns ? cat(n, ' ', nouns) : cat(n, ' ', noun, 's');
}

inline const char* const kTopLevelKeys[] = {"vgprof", "meta",  "strs",  "objs",
                                     "files",  "fns",   "lines", "instrs"};
// Added by version 2. A version 1 profile is read by version 1's rules, in
// which "calls" and "paths" were merely reserved (and ignored).
inline const char* const kCallGraphKeys[] = {"calls", "inclusive", "paths"};
// Also version 2, only beside the call graph (--separate-threads=yes).
inline const char* const kThreadKey = "threads";
// meta.cache's members, and the events each part of it brings.
inline const char* const kCacheKeys[] = {"I1", "D1", "LL", "branches"};
inline const char* const kCacheEvents[] = {"I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw"};
inline const char* const kBranchEvents[] = {"Bc", "Bcm", "Bi", "Bim"};
// Added by version 3 (reserved, and ignored, before).
inline const char* const kHeapKey = "heap";
// Added by version 7: the data section, the inlined calls and the costs of
// inlined code.
inline const char* const kDataKey = "data";
inline const char* const kInlineKeys[] = {"inlines", "inline_lines"};
// Added by version 10, only beside the call graph.
inline const char* const kTimelineKey = "timeline";
// The tool keeps at most this many marks per profile.
inline constexpr size_t kMaxTimelineMarks = 100000;
inline const char* const kReservedTopLevelKeys[] = {"heap"};
inline const char* const kReservedTopLevelKeysV1[] = {"calls", "paths", "heap"};
// Per-offset access counts exist for blocks of at most this many bytes.
inline constexpr uint64_t kMaxAccessBytes = 1024;
// meta.exit.signal: Linux's signal numbers, real-time ones included.
inline constexpr int64_t kMaxSignal = 64;

template <typename Array>
bool contains(const Array& names, json::string_view key)
{
    return std::find(std::begin(names), std::end(names), key) != std::end(names);
}

// What identifies a row of `calls`: the threads' rows with the same key add
// up to the top-level row.
struct CallKey {
    FnId caller, callee;
    FileId file;
    uint32_t line = 0;

    explicit CallKey(const CallEdge& e)
        : caller(e.caller), callee(e.callee), file(e.file), line(e.line)
    {
    }
    bool operator==(const CallKey& o) const
    {
        return std::tie(caller, callee, file, line) == std::tie(o.caller, o.callee, o.file, o.line);
    }
};

struct CallKeyHash {
    size_t operator()(const CallKey& k) const noexcept
    {
        const uint64_t fns = uint64_t(k.caller.value) << 32 | k.callee.value;
        const uint64_t site = uint64_t(k.file.value) << 32 | k.line;
        return std::hash<uint64_t>()(fns * 0x9e3779b97f4a7c15ULL ^ site);
    }
};

class DocumentHandler;

// The large tables, whose rows the parser adds to the profile as it reads
// them.
enum class Table { lines, instrs, calls, inclusive, paths };
inline constexpr size_t kTables = 5;
inline const char* const kTableKeys[kTables] = {"lines", "instrs", "calls", "inclusive", "paths"};

// What the parser made of one large table: rows [0, rows) are in the
// profile, their ids not yet checked against the tables they refer to (the
// document may list those later); reading stopped at the first row that
// could not be added, kept for the checks to report in its turn.
struct StreamedTable {
    bool present = false;
    std::optional<Cell> not_array;  // the table's value, when it is not an array
    size_t rows = 0;
    std::optional<RowCells> bad_row;  // row number `rows`
};

// Where a table's rows are: in a document (a section kept whole, or a
// table that came before the events that give its rows their length), or
// already in the profile (`streamed`).
struct TableSource {
    const json::value* document = nullptr;
    const StreamedTable* streamed = nullptr;
};

// Turns a profile's JSON into a Profile: parse() reads the document,
// validate() checks it. Each load_* function of validate() handles one
// section and may rely on the sections loaded before it (ids are checked
// against tables already read).
class Loader {
public:
    Loader(const std::string& name, const LoadLimits& limits)
        : name_(name), max_string_(limits.max_string),
          reject_inclusive_below_self_(limits.reject_inclusive_below_self)
    {
    }
    Profile load(Input& input);

private:
    friend class DocumentHandler;

    [[noreturn]] void fail(const Where& where, const std::string& message) const
    {
        if (where.is_top())
            throw Error(cat(name_, ": ", message));
        throw Error(cat(name_, ": ", where.str(), ": ", message));
    }

    void parse(Input& input);
    int version() const { return p_.meta.version; }
    [[noreturn]] void fail_syntax(const TextPosition& at, const std::string& what) const;
    Profile validate();

    // --- called while parsing -------------------------------------------------------
    void load_version(const json::value& v);
    void keep_member(std::string_view key, json::value value);
    bool streams(std::string_view key, Table& table) const;
    void begin_table(Table table);
    void table_not_array(Table table, const Cell& value);
    void stream_row(Table table, const RowCells& row);

    // --- called by validate() ------------------------------------------------------
    void check_top_level_keys(const json::object& root) const;
    void load_meta(const json::value& v, const Where& at);
    void load_cache(const json::object& o, const Where& at);
    CacheGeometry cache_geometry_at(const json::value& v, const Where& at) const;
    void check_simulated_events(const Where& cache, const Where& events) const;
    std::optional<int64_t> exit_code_at(const json::value& v, const Where& at, bool& killed,
                                        std::optional<int>& signal) const;
    void load_dump(const json::value& v, const Where& at, std::optional<int64_t>& number,
                   std::string& label) const;
    void load_merged(const json::value& v, const Where& at);
    void load_run(const json::value& v, const Where& at);
    void load_fingerprint(const json::value& v, const Where& at);
    void load_strs(const json::value& v, const Where& at);
    void load_str_table(const json::value& v, const Where& at, std::vector<StrId>& out);
    void load_fns(const json::value& v, const Where& at);
    void load_inlined(const json::object& root);
    TableSource table_source(const json::value& v, Table table) const;
    template <typename AddRow, typename CheckIds>
    void load_table(const TableSource& source, const Where& at, AddRow add_row,
                    CheckIds check_ids);
    void load_lines(const TableSource& source, const Where& at);
    void load_instrs(const TableSource& source, const Where& at);
    template <typename Row>
    void located_at(const Row& row, const Where& at, uint64_t& addr, FnId& fn, FileId& file,
                    uint32_t& line) const;
    void load_call_graph(const json::object& root);
    void load_calls(const TableSource& source, const Where& at, CallGraphTables& graph);
    std::vector<size_t> load_inclusive(const TableSource& source, const Where& at,
                                       CallGraphTables& graph);
    void load_paths(const TableSource& source, const Where& at);
    void load_threads(const json::value& v, const Where& at);
    uint32_t tid_at(const json::value& v, const Where& at) const;
    void check_tid_order(uint32_t tid, const Where& at) const;
    void load_roots(const json::value& v, const Where& at, ThreadTables& thread,
                    std::vector<uint32_t>& owner) const;
    void check_every_root_has_a_thread(const std::vector<uint32_t>& owner,
                                       const Where& threads) const;
    void load_heap(const json::value& v, const Where& at);
    HeapTotals heap_totals_at(const json::value& v, const Where& at) const;
    void load_heap_period(const json::value& v, const Where& at, Heap& heap) const;
    void check_heap_accounting(const HeapTotals& t, uint64_t start_bytes, uint64_t start_blocks,
                               const Where& at) const;
    void load_heap_frames(const json::value& v, const Where& at, Heap& heap) const;
    void load_heap_sites(const json::value& v, const Where& at, Heap& heap) const;
    std::vector<uint32_t> accesses_at(const json::value& v, const Where& at) const;
    void load_timeline(const json::value& v, const Where& at, Heap& heap) const;
    void load_snapshots(const json::value& v, const Where& at, Heap& heap) const;
    void load_changes(const json::value& v, const Where& at, Heap& heap) const;
    void load_data(const json::value& v, const Where& at);
    void load_run_timeline(const json::value& v, const Where& at);
    TimelineMoment moment_at(const json::value& v, const Where& at, size_t fixed) const;
    void load_spans(const json::value& v, const Where& at, Timeline& t) const;
    void load_marks(const json::value& v, const Where& at, Timeline& t) const;

    // --- one row of a large table, while parsing or while validating ---------------
    void add_line(const RowCells& row, const Where& item);
    void add_instr(const RowCells& row, const Where& item);
    void add_call(const RowCells& row, const Where& item, CallGraphTables& graph);
    void add_inclusive(const RowCells& row, const Where& item, size_t index, CallGraphTables& graph);
    void add_path(const RowCells& row, const Where& item, size_t node);
    std::optional<PathId> parent_at(const Cell& v, const Where& at, size_t node) const;
    // The checks a streamed table's rows [0, rows) skipped while parsing.
    template <typename Row>
    void check_fn_and_file_ids(const std::vector<Row>& table, const Where& at, size_t rows,
                               size_t fn_column) const;
    void check_call_ids(const Where& at, size_t rows, const CallGraphTables& graph) const;
    void check_inclusive_ids(const Where& at, size_t rows, const CallGraphTables& graph);
    void check_path_ids(const Where& at, size_t rows) const;
    void check_no_second_inclusive_row(FnId fn, size_t index, const Where& item);
    std::vector<size_t> sort_inclusive(CallGraphTables& graph) const;

    // The threads' call and inclusive rows summed per top-level row, so that
    // they can be compared with it once every thread is read.
    struct ThreadSums {
        std::unordered_map<CallKey, size_t, CallKeyHash> call_slot;  // key -> slot
        std::vector<size_t> call_row;  // slot -> the first top-level calls row with that key
        // Per slot, the count then one cost per event: of the top-level rows
        // (one, unless the writer repeated a key) and of the threads' rows.
        std::vector<CheckedSum> top_calls, thread_calls;
        // Per top-level inclusive row (in fn order), one cost per event.
        std::vector<CheckedSum> thread_inclusive;
    };
    ThreadSums top_level_sums() const;
    void add_thread_calls(const ThreadTables& thread, const Where& calls, ThreadSums& sums) const;
    void add_thread_inclusive(const ThreadTables& thread, const std::vector<size_t>& source_rows,
                              const Where& inclusive, ThreadSums& sums) const;
    void check_thread_sums(const ThreadSums& sums) const;

    const json::value& required(const json::object& o, const char* key, const Where& at) const;
    const json::object& object_at(const json::value& v, const Where& at) const;
    const json::array& array_at(const json::value& v, const Where& at) const;
    const json::string& string_at(const json::value& v, const Where& at) const;
    std::vector<std::string> strings_at(const json::value& v, const Where& at) const;
    uint64_t uint_at(const Cell& v, const Where& at) const;
    int64_t int_at(const Cell& v, const Where& at) const;
    uint32_t u32_at(const Cell& v, const Where& at) const;
    // The size of a table ids refer to; while parsing, the tables may not be
    // read yet and ids are only checked to fit in 32 bits.
    size_t table_size(size_t loaded) const { return parsing_ ? kNotYetKnown : loaded; }
    template <typename Id>
    Id id_at(const Cell& v, const Where& at, const char* id_name, size_t table_size,
             const char* noun) const;
    template <typename Id>
    void check_id(Id id, const Where& at, const char* id_name, size_t table_size,
                  const char* noun) const;
    void check_row(const RowCells& row, const Where& at, std::initializer_list<const char*> fixed,
                   std::initializer_list<const char*> cost_sets) const;
    template <typename Row>
    void append_costs(const Row& row, size_t first, const Where& at,
                      std::vector<uint64_t>& out) const;

    const std::string& name_;
    const uint64_t max_string_;  // LoadLimits::max_string
    const bool reject_inclusive_below_self_;
    ProfileTables p_;

    // What the parser keeps: the members other than the streamed tables, in
    // document order (a streamed table's member holds null), and the tables.
    json::monotonic_resource arena_;
    json::object root_{&arena_};
    StreamedTable tables_[kTables];
    bool parsing_ = false;
    // The number of events, as soon as meta is read: the length of every
    // cost array, which the parser needs to add rows.
    std::optional<size_t> events_;
    static constexpr size_t kNotYetKnown = std::numeric_limits<uint32_t>::max();

    // For each position of p_.graph's inclusive rows (sorted by fn), the
    // row the document had there: messages name rows as written.
    std::vector<size_t> inclusive_source_rows_;
    // Indexed by FnId: the row of the inclusive table being read that holds
    // the function, or kNoRow. Kept between tables (each thread has one) and
    // reset after each, so a profile with many threads allocates it once.
    static constexpr size_t kNoRow = SIZE_MAX;
    std::vector<size_t> inclusive_row_of_fn_;
};

// --- the member templates, used by more than one of the loader's files ---

// Reads a table's rows from a document, or finishes what the parser began:
// checks the ids of the rows it added, then meets the row it stopped at.
template <typename AddRow, typename CheckIds>
void Loader::load_table(const TableSource& source, const Where& at, AddRow add_row,
                        CheckIds check_ids)
{
    if (source.document != nullptr) {
        const json::array& a = array_at(*source.document, at);
        RowCells row;
        for (size_t i = 0; i < a.size(); ++i) {
            row.assign(a[i]);
            add_row(row, at.element(i), i);
        }
        return;
    }
    const StreamedTable& t = *source.streamed;
    if (t.not_array)
        fail(at, cat("expected an array, got ", describe(*t.not_array)));
    check_ids(t.rows);
    if (t.bad_row) {
        // Fails as it failed while parsing, or on an id now known to be out
        // of range. The rows after it were not added: the table must not
        // load without them, whatever happens here.
        const Where item = at.element(t.rows);
        add_row(*t.bad_row, item, t.rows);
        fail(item, "row cannot be read");
    }
}

// lines and instrs rows refer to a function and, in the next column, a file.
template <typename Row>
void Loader::check_fn_and_file_ids(const std::vector<Row>& table, const Where& at, size_t rows,
                                   size_t fn_column) const
{
    for (size_t i = 0; i < rows; ++i) {
        const Where item = at.element(i), fn = item.element(fn_column),
                    file = item.element(fn_column + 1);
        check_id(table[i].fn, fn, "fn", p_.functions.size(), "function");
        check_id(table[i].file, file, "file", p_.files.size(), "file");
    }
}

// The first four columns of an `instrs` row or a heap frame: an
// instruction address and where it is.
template <typename Row>
void Loader::located_at(const Row& row, const Where& at, uint64_t& addr, FnId& fn, FileId& file,
                        uint32_t& line) const
{
    const Where addr_at = at.element(0), fn_at = at.element(1), file_at = at.element(2),
                line_at = at.element(3);
    addr = uint_at(row[0], addr_at);
    fn = id_at<FnId>(row[1], fn_at, "fn", table_size(p_.functions.size()), "function");
    file = id_at<FileId>(row[2], file_at, "file", table_size(p_.files.size()), "file");
    line = u32_at(row[3], line_at);
}

template <typename Id>
Id Loader::id_at(const Cell& v, const Where& at, const char* id_name, size_t table_size,
                 const char* noun) const
{
    const uint64_t n = uint_at(v, at);
    if (n >= table_size)
        fail(at, cat(id_name, " id ", n, " out of range (", count_of(table_size, noun), ')'));
    return Id(uint32_t(n));
}

template <typename Id>
void Loader::check_id(Id id, const Where& at, const char* id_name, size_t table_size,
                      const char* noun) const
{
    if (id.index() >= table_size)
        fail(at, cat(id_name, " id ", id.value, " out of range (", count_of(table_size, noun),
                     ')'));
}

// A row's costs from column `first` on: a table row's cells, or an array of
// a kept section (meta.totals).
template <typename Row>
void Loader::append_costs(const Row& row, size_t first, const Where& at,
                          std::vector<uint64_t>& out) const
{
    for (size_t i = first; i < row.size(); ++i) {
        const Cell cell(row[i]);
        // The common case first: a cost the parser read as a small integer.
        if (cell.is_int64() && cell.i >= 0) {
            out.push_back(uint64_t(cell.i));
            continue;
        }
        const Where item = at.element(i);
        out.push_back(uint_at(cell, item));
    }
}

} // namespace vgprof::detail

#endif
