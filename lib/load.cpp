// SPDX-License-Identifier: GPL-2.0-or-later
// Profile loading. The input (a file or memory, plain, gzip or zstd) is read
// in chunks; its first bytes say whether it is a vgprof profile (JSON) or a
// callgrind or cachegrind file (callgrind.cpp reads those).
//
// A JSON profile is parsed as a stream of events (Boost.JSON's
// basic_parser): the rows of the large tables (lines, instrs, calls,
// inclusive, paths) go straight into the Profile as they are parsed, without
// a document in between, while the small sections (meta, the string and
// function tables, threads) are kept as documents. Loader then checks every
// invariant listed in docs/profile-format.md, section by section in a fixed
// order, so the first problem reported depends neither on the order of the
// document's keys nor on how much of a table the parser could add.
// Every problem becomes a vgprof::Error naming the file and the place;
// nothing else escapes, whatever the input.
#include "vgprof/load.hpp"

#include "callgrind.hpp"
#include "dhat.hpp"
#include "input.hpp"
#include "text.hpp"
#include "vgprof/error.hpp"

#include <boost/json.hpp>
#include <boost/json/basic_parser_impl.hpp>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace json = boost::json;

namespace vgprof {

namespace {

using detail::cat;

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
std::string describe(const Cell& v)
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

std::string quoted(json::string_view s)
{
    return detail::quote(std::string_view(s.data(), s.size()));
}

// "1 function", "3 functions"; irregular plurals ("entry") pass their own.
std::string count_of(size_t n, const char* noun, const char* nouns = nullptr)
{
    if (n == 1)
        return cat(n, ' ', noun);
    return nouns ? cat(n, ' ', nouns) : cat(n, ' ', noun, 's');
}

const char* const kTopLevelKeys[] = {"vgprof", "meta",  "strs",  "objs",
                                     "files",  "fns",   "lines", "instrs"};
// Added by version 2. A version 1 profile is read by version 1's rules, in
// which "calls" and "paths" were merely reserved (and ignored).
const char* const kCallGraphKeys[] = {"calls", "inclusive", "paths"};
// Also version 2, only beside the call graph (--separate-threads=yes).
const char* const kThreadKey = "threads";
// meta.cache's members, and the events each part of it brings.
const char* const kCacheKeys[] = {"I1", "D1", "LL", "branches"};
const char* const kCacheEvents[] = {"I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw"};
const char* const kBranchEvents[] = {"Bc", "Bcm", "Bi", "Bim"};
// Added by version 3 (reserved, and ignored, before).
const char* const kHeapKey = "heap";
// Added by version 6.
const char* const kInlineKeys[] = {"inlines", "inline_lines"};
const char* const kReservedTopLevelKeys[] = {"heap"};
const char* const kReservedTopLevelKeysV1[] = {"calls", "paths", "heap"};
// Per-offset access counts exist for blocks of at most this many bytes.
constexpr uint64_t kMaxAccessBytes = 1024;

template <typename Array>
bool contains(const Array& names, json::string_view key)
{
    return std::find(std::begin(names), std::end(names), key) != std::end(names);
}

// A sum that remembers passing 2^64-1, so a message can say so instead of
// showing a wrapped-round number.
struct CheckedSum {
    uint64_t value = 0;
    bool overflow = false;

    void add(uint64_t n) { overflow |= __builtin_add_overflow(value, n, &value); }
    bool operator==(const CheckedSum& o) const
    {
        return !overflow && !o.overflow && value == o.value;
    }
    std::string str() const { return overflow ? std::string("more than 2^64-1") : cat(value); }
};

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

} // namespace

namespace detail {

class DocumentHandler;

// The large tables, whose rows the parser adds to the profile as it reads
// them.
enum class Table { lines, instrs, calls, inclusive, paths };
constexpr size_t kTables = 5;
const char* const kTableKeys[kTables] = {"lines", "instrs", "calls", "inclusive", "paths"};

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
    Loader(const std::string& name, uint64_t max_string) : name_(name), max_string_(max_string)
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
    int version() const { return p_.meta_.version; }
    [[noreturn]] void fail_syntax(const struct TextPosition& at, const std::string& what) const;
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
    std::optional<int64_t> exit_code_at(const json::value& v, const Where& at, bool& killed) const;
    void load_dump(const json::value& v, const Where& at, std::optional<int64_t>& number,
                   std::string& label) const;
    void load_merged(const json::value& v, const Where& at);
    void load_run(const json::value& v, const Where& at);
    void load_strs(const json::value& v, const Where& at);
    void load_str_table(const json::value& v, const Where& at, std::vector<StrId>& out);
    void load_fns(const json::value& v, const Where& at);
    TableSource table_source(const json::value& v, Table table) const;
    template <typename AddRow, typename CheckIds>
    void load_table(const TableSource& source, const Where& at, AddRow add_row,
                    CheckIds check_ids);
    void load_lines(const TableSource& source, const Where& at);
    void load_instrs(const TableSource& source, const Where& at);
    template <typename Row>
    void located_at(const Row& row, const Where& at, uint64_t& addr, FnId& fn, FileId& file,
                    uint32_t& line) const;
    void check_totals(const Where& at) const;
    void load_call_graph(const json::object& root);
    void load_calls(const TableSource& source, const Where& at, CallGraph& graph);
    std::vector<size_t> load_inclusive(const TableSource& source, const Where& at,
                                       CallGraph& graph);
    void load_paths(const TableSource& source, const Where& at);
    void check_path_inclusive_costs(const Where& at) const;
    void check_inclusive_holds_self(const Where& at) const;
    void load_inlined(const json::object& root);
    void check_path_self_totals(const Where& at) const;
    void load_threads(const json::value& v, const Where& at);
    uint32_t tid_at(const json::value& v, const Where& at) const;
    void check_tid_order(uint32_t tid, const Where& at) const;
    void load_roots(const json::value& v, const Where& at, ThreadGraph& thread,
                    std::vector<uint32_t>& owner) const;
    void check_every_root_has_a_thread(const std::vector<uint32_t>& owner,
                                       const Where& threads) const;
    void load_heap(const json::value& v, const Where& at);
    HeapTotals heap_totals_at(const json::value& v, const Where& at) const;
    void load_heap_frames(const json::value& v, const Where& at, Heap& heap) const;
    void load_heap_sites(const json::value& v, const Where& at, Heap& heap) const;
    std::vector<uint32_t> accesses_at(const json::value& v, const Where& at) const;
    void check_heap_sums(const Heap& heap, const Where& at) const;
    void load_timeline(const json::value& v, const Where& at, Heap& heap) const;
    void load_snapshots(const json::value& v, const Where& at, Heap& heap) const;

    // --- one row of a large table, while parsing or while validating ---------------
    void add_line(const RowCells& row, const Where& item);
    void add_instr(const RowCells& row, const Where& item);
    void add_call(const RowCells& row, const Where& item, CallGraph& graph);
    void add_inclusive(const RowCells& row, const Where& item, size_t index, CallGraph& graph);
    void add_path(const RowCells& row, const Where& item, size_t node);
    std::optional<PathId> parent_at(const Cell& v, const Where& at, size_t node) const;
    // The checks a streamed table's rows [0, rows) skipped while parsing.
    template <typename Row>
    void check_fn_and_file_ids(const std::vector<Row>& table, const Where& at, size_t rows,
                               size_t fn_column) const;
    void check_call_ids(const Where& at, size_t rows, const CallGraph& graph) const;
    void check_inclusive_ids(const Where& at, size_t rows, const CallGraph& graph);
    void check_path_ids(const Where& at, size_t rows) const;
    void check_no_second_inclusive_row(FnId fn, size_t index, const Where& item);
    std::vector<size_t> sort_inclusive(CallGraph& graph) const;

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
    void add_thread_calls(const ThreadGraph& thread, const Where& calls, ThreadSums& sums) const;
    void add_thread_inclusive(const ThreadGraph& thread, const std::vector<size_t>& source_rows,
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
    Profile p_;

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

    // For each position of p_.graph_'s inclusive rows (sorted by fn), the
    // row the document had there: messages name rows as written.
    std::vector<size_t> inclusive_source_rows_;
    // Indexed by FnId: the row of the inclusive table being read that holds
    // the function, or kNoRow. Kept between tables (each thread has one) and
    // reset after each, so a profile with many threads allocates it once.
    static constexpr size_t kNoRow = SIZE_MAX;
    std::vector<size_t> inclusive_row_of_fn_;
};

// Where the parser is in the text, for messages about syntax errors.
struct TextPosition {
    uint64_t offset = 0;      // bytes read before
    uint64_t line = 1;        // line number at offset
    uint64_t line_start = 0;  // offset of that line's first byte

    void advance(std::string_view text)
    {
        for (const char* p = text.data(), *end = p + text.size();
             (p = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)))) != nullptr;
             ++p) {
            ++line;
            line_start = offset + uint64_t(p - text.data()) + 1;
        }
        offset += text.size();
    }
};

// The handler of Boost.JSON's basic_parser: turns the parser's events into
// the members Loader keeps and the rows it adds. Depth counts the arrays and
// objects open around an event: the top-level object's members are at
// depth 1, a table's rows at 2 and their entries at 3.
class DocumentHandler {
public:
    static constexpr size_t max_object_size = json::object::max_size();
    static constexpr size_t max_array_size = json::array::max_size();
    static constexpr size_t max_key_size = json::string::max_size();
    static constexpr size_t max_string_size = json::string::max_size();

    explicit DocumentHandler(Loader& loader) : loader_(loader) {}

    bool on_document_begin(json::error_code&) { return true; }
    bool on_document_end(json::error_code&) { return true; }

    bool on_object_begin(json::error_code&)
    {
        if (depth_ == 0)
            ++depth_;
        else
            begin_container(json::kind::object);
        return true;
    }
    bool on_object_end(size_t n, json::error_code&)
    {
        if (depth_ == 1) {
            if (n == 0)
                loader_.fail(Where{}, "not a vgprof profile (the top-level object is empty, "
                                      "expected \"vgprof\" first)");
            --depth_;
            return true;
        }
        if (mode_ == Mode::keep)
            values_.push_object(n);
        end_container();
        return true;
    }
    bool on_array_begin(json::error_code&)
    {
        begin_container(json::kind::array);
        return true;
    }
    bool on_array_end(size_t n, json::error_code&)
    {
        if (mode_ == Mode::keep)
            values_.push_array(n);
        else if (mode_ == Mode::table && depth_ == 3)
            loader_.stream_row(table_, row_);
        end_container();
        return true;
    }

    bool on_key_part(json::string_view s, size_t n, json::error_code&)
    {
        check_length(n);
        if (depth_ == 1)
            key_.append(s.data(), s.size());
        else if (mode_ == Mode::keep)
            values_.push_chars(s);
        return true;
    }
    bool on_key(json::string_view s, size_t n, json::error_code&)
    {
        check_length(n);
        if (depth_ == 1) {
            key_.append(s.data(), s.size());
            begin_member();
        } else if (mode_ == Mode::keep) {
            values_.push_key(s);
        }
        return true;
    }
    bool on_string_part(json::string_view s, size_t n, json::error_code&)
    {
        check_length(n);
        if (mode_ == Mode::keep)
            values_.push_chars(s);
        return true;
    }
    bool on_string(json::string_view s, size_t n, json::error_code&)
    {
        check_length(n);
        if (mode_ == Mode::keep)
            values_.push_string(s);
        scalar(Cell(json::kind::string));
        return true;
    }
    bool on_number_part(json::string_view, json::error_code&) { return true; }
    bool on_int64(int64_t i, json::string_view, json::error_code&)
    {
        if (mode_ == Mode::keep)
            values_.push_int64(i);
        scalar(Cell::of_int64(i));
        return true;
    }
    bool on_uint64(uint64_t u, json::string_view, json::error_code&)
    {
        if (mode_ == Mode::keep)
            values_.push_uint64(u);
        scalar(Cell::of_uint64(u));
        return true;
    }
    bool on_double(double d, json::string_view, json::error_code&)
    {
        if (mode_ == Mode::keep)
            values_.push_double(d);
        scalar(Cell::of_double(d));
        return true;
    }
    bool on_bool(bool b, json::error_code&)
    {
        if (mode_ == Mode::keep)
            values_.push_bool(b);
        scalar(Cell::of_bool(b));
        return true;
    }
    bool on_null(json::error_code&)
    {
        if (mode_ == Mode::keep)
            values_.push_null();
        scalar(Cell());
        return true;
    }
    bool on_comment_part(json::string_view, json::error_code&) { return true; }
    bool on_comment(json::string_view, json::error_code&) { return true; }

private:
    // What becomes of the value of the current top-level member: kept as a
    // document, read as a table, or passed over (a key the checks will
    // reject or ignore by name alone).
    enum class Mode { keep, table, skip };

    // A string or key that is `n` bytes long so far, refused past the limit
    // while the parser is still inside it: its bytes are never all held.
    void check_length(size_t n) const
    {
        const uint64_t limit = loader_.max_string_;
        if (n <= limit)
            return;
        if (depth_ <= 1)
            loader_.fail(Where{}, detail::longer_than("a top-level key", limit));
        loader_.fail(Where{}, detail::longer_than(cat("a string in ", quoted(key_)), limit));
    }

    // A top-level key: decides what to do with its value.
    void begin_member()
    {
        if (first_key_ && key_ != "vgprof")
            loader_.fail(Where{}, cat("not a vgprof profile (first key is ", quoted(key_),
                                      ", expected \"vgprof\")"));
        first_key_ = false;
        if (loader_.root_.contains(key_))
            loader_.fail(Where{}, cat("top-level key ", quoted(key_), " appears twice"));
        if (loader_.streams(key_, table_)) {
            mode_ = Mode::table;
            loader_.begin_table(table_);
        } else if (wanted(key_)) {
            mode_ = Mode::keep;
            values_.reset(&loader_.arena_);
        } else {
            mode_ = Mode::skip;
        }
    }

    // The keys whose values validation reads; any other is reserved or
    // unknown, which the key alone tells.
    bool wanted(std::string_view key) const
    {
        return contains(kTopLevelKeys, key) ||
               (loader_.version() >= 2 &&
                (contains(kCallGraphKeys, key) || key == kThreadKey)) ||
               (loader_.version() >= 3 && key == kHeapKey) ||
               (loader_.version() >= 6 && contains(kInlineKeys, key));
    }

    void begin_container(json::kind kind)
    {
        if (depth_ == 0)  // the document is not an object
            loader_.fail(Where{}, cat("not a vgprof profile (top level is ", describe(Cell(kind)),
                                      ", expected an object)"));
        if (mode_ == Mode::table) {
            if (depth_ == 1 && kind != json::kind::array)
                loader_.table_not_array(table_, Cell(kind));
            else if (depth_ == 2)
                begin_row(kind);
            else if (depth_ == 3)
                row_.cells.emplace_back(kind);
        }
        ++depth_;
    }

    void end_container()
    {
        --depth_;
        if (depth_ == 1)
            end_member();
    }

    void begin_row(json::kind kind)
    {
        row_.cells.clear();
        row_.is_array = kind == json::kind::array;
        if (!row_.is_array) {  // rejected as it is; its contents do not matter
            row_.cells.emplace_back(kind);
            loader_.stream_row(table_, row_);
        }
    }

    // A value that is neither an array nor an object.
    void scalar(const Cell& value)
    {
        if (depth_ == 0)
            loader_.fail(Where{}, cat("not a vgprof profile (top level is ", describe(value),
                                      ", expected an object)"));
        if (mode_ == Mode::table) {
            if (depth_ == 1) {
                loader_.table_not_array(table_, value);
            } else if (depth_ == 2) {
                row_.is_array = false;
                row_.cells.assign(1, value);
                loader_.stream_row(table_, row_);
            } else if (depth_ == 3) {
                row_.cells.push_back(value);
            }
        }
        if (depth_ == 1)
            end_member();
    }

    void end_member()
    {
        json::value value;
        if (mode_ == Mode::keep)
            value = values_.release();
        if (key_ == "vgprof")
            loader_.load_version(value);
        loader_.keep_member(key_, std::move(value));
        key_.clear();
    }

    Loader& loader_;
    size_t depth_ = 0;
    std::string key_;  // the current top-level key
    bool first_key_ = true;
    Mode mode_ = Mode::skip;
    json::value_stack values_;  // the value being kept
    Table table_ = Table::lines;
    RowCells row_;  // the table row being read
};

Profile Loader::load(Input& input)
{
    parse(input);
    return validate();
}

// The text goes to the parser a chunk at a time, as read. Its handler
// throws as soon as the document is not a profile at all; every other
// problem is left to validate(), after the whole text is known to be JSON.
void Loader::parse(Input& input)
{
    json::basic_parser<DocumentHandler> parser(json::parse_options{}, *this);
    TextPosition position;
    parsing_ = true;
    for (std::string_view chunk; !(chunk = input.next()).empty();) {
        if (parser.done()) {
            // Only white space may follow the document.
            const size_t used = std::min(chunk.find_first_not_of(" \t\r\n"), chunk.size());
            position.advance(chunk.substr(0, used));
            if (used < chunk.size())
                fail_syntax(position, "unexpected data after the end of the document");
            continue;
        }
        json::error_code ec;
        const size_t used = parser.write_some(true, chunk.data(), chunk.size(), ec);
        position.advance(chunk.substr(0, used));
        if (ec)
            fail_syntax(position, ec.message());
        if (used < chunk.size())
            fail_syntax(position, "unexpected data after the end of the document");
    }
    if (!parser.done()) {
        json::error_code ec;
        parser.write_some(false, nullptr, 0, ec);
        if (ec == json::error::incomplete)
            throw Error(cat(name_, ": truncated JSON: unexpected end of input at byte ",
                            position.offset));
        if (ec)
            fail_syntax(position, ec.message());
    }
    parsing_ = false;
}

void Loader::fail_syntax(const TextPosition& at, const std::string& what) const
{
    throw Error(cat(name_, ": line ", at.line, ", column ", at.offset - at.line_start + 1,
                    ": invalid JSON: ", what, " at byte ", at.offset));
}

// The members are kept in document order: check_top_level_keys() reports
// the first unknown key as written.
void Loader::keep_member(std::string_view key, json::value value)
{
    root_.emplace(key, std::move(value));
    // The events give every cost array its length: rows of a table that
    // comes after meta can be added as they are read.
    if (key == "meta" && root_.at(key).is_object())
        if (const json::value* events = root_.at(key).get_object().if_contains("events"))
            if (events->is_array())
                events_ = events->get_array().size();
}

// A large table is read row by row once the events are known (meta comes
// first in every profile the tool writes) and if its version has it.
bool Loader::streams(std::string_view key, Table& table) const
{
    if (!events_)
        return false;
    for (size_t t = 0; t < kTables; ++t)
        if (key == kTableKeys[t]) {
            table = Table(t);
            return p_.meta_.version >= 2 || table == Table::lines || table == Table::instrs;
        }
    return false;
}

void Loader::begin_table(Table table)
{
    tables_[size_t(table)].present = true;
}

void Loader::table_not_array(Table table, const Cell& value)
{
    tables_[size_t(table)].not_array = value;
}

// Adds a row to the profile while parsing. A row that cannot be added is
// kept, and the table's later rows are only parsed: validate() reports the
// row's problem once it has checked everything that comes before it.
void Loader::stream_row(Table table, const RowCells& row)
{
    StreamedTable& t = tables_[size_t(table)];
    if (t.bad_row || t.not_array)
        return;
    const Where top, at = top.member(kTableKeys[size_t(table)]), item = at.element(t.rows);
    try {
        switch (table) {
        case Table::lines: add_line(row, item); break;
        case Table::instrs: add_instr(row, item); break;
        case Table::calls: add_call(row, item, p_.graph_); break;
        case Table::inclusive: add_inclusive(row, item, t.rows, p_.graph_); break;
        case Table::paths: add_path(row, item, t.rows); break;
        }
        ++t.rows;
    } catch (const Error&) {
        t.bad_row = row;
    }
}

Profile Loader::validate()
{
    const Where top;
    const json::object& root = root_;
    check_top_level_keys(root);

    const Where meta = top.member("meta"), strs = top.member("strs"),
                objs = top.member("objs"), files = top.member("files"),
                fns = top.member("fns"), lines = top.member("lines"),
                instrs = top.member("instrs");
    load_meta(required(root, "meta", top), meta);
    // Even without a call graph: an empty graph still answers in events.
    p_.graph_.num_events_ = p_.num_events();
    load_strs(required(root, "strs", top), strs);
    load_str_table(required(root, "objs", top), objs, p_.objs_);
    load_str_table(required(root, "files", top), files, p_.files_);
    load_fns(required(root, "fns", top), fns);
    load_lines(table_source(required(root, "lines", top), Table::lines), lines);
    if (const json::value* v = root.if_contains("instrs"))
        load_instrs(table_source(*v, Table::instrs), instrs);
    check_totals(meta);
    if (p_.meta_.version >= 6)
        load_inlined(root);
    load_call_graph(root);
    if (p_.meta_.version >= 3)
        if (const json::value* v = root.if_contains(kHeapKey))
            load_heap(*v, top.member(kHeapKey));
    return std::move(p_);
}

void Loader::load_version(const json::value& v)
{
    const Where top;
    const Where at = top.member("vgprof");
    if (v.is_uint64() && v.get_uint64() > uint64_t(kNewestVersion))
        fail(top, cat("profile format version ", v.get_uint64(),
                      " is newer than this vgprof understands (newest: ", kNewestVersion,
                      "); upgrade vgprof"));
    if (!v.is_int64())
        fail(at, cat("expected an integer format version, got ", describe(v)));
    const int64_t version = v.get_int64();
    if (version > kNewestVersion)
        fail(top, cat("profile format version ", version,
                      " is newer than this vgprof understands (newest: ", kNewestVersion,
                      "); upgrade vgprof"));
    if (version < 1)
        fail(at, cat("invalid format version ", version, " (versions start at 1)"));
    p_.meta_.version = int(version);
}

void Loader::check_top_level_keys(const json::object& root) const
{
    const bool version1 = p_.meta_.version == 1;
    for (const auto& member : root) {
        const json::string_view key = member.key();
        const bool known = contains(kTopLevelKeys, key) ||
                           (!version1 && (contains(kCallGraphKeys, key) || key == kThreadKey)) ||
                           (p_.meta_.version >= 3 && key == kHeapKey) ||
                           (p_.meta_.version >= 6 && contains(kInlineKeys, key));
        const bool reserved = version1 ? contains(kReservedTopLevelKeysV1, key)
                                       : contains(kReservedTopLevelKeys, key);
        if (!known && !reserved)
            fail(Where{}, cat("unknown top-level key ", quoted(key), " (not part of format version ",
                              p_.meta_.version, ")"));
    }
}

void Loader::load_meta(const json::value& v, const Where& at)
{
    const json::object& o = object_at(v, at);
    Meta& m = p_.meta_;
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

    m.exit_code = exit_code_at(required(o, "exit", at), exit, m.killed);
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
    load_run(required(o, "run", at), run);
}

// meta.exit: {"code":N}; {"killed":true} for a client killed by a signal
// (it has no exit status); null for a profile dumped while the client was
// still running.
std::optional<int64_t> Loader::exit_code_at(const json::value& v, const Where& at,
                                            bool& killed) const
{
    killed = false;
    if (v.is_null())
        return std::nullopt;
    const json::object& o = object_at(v, at);
    const Where code = at.member("code"), killed_at = at.member("killed");
    if (const json::value* k = o.if_contains("killed")) {
        if (!k->is_bool())
            fail(killed_at, cat("expected true or false, got ", describe(*k)));
        killed = k->get_bool();
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
    CacheConfig& c = p_.meta_.cache.emplace();
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
    return CacheGeometry{n[0], n[1], n[2]};
}

// A reader takes meta.cache's word for which events are there (a miss
// rate, say, needs D1mr and Dr), so what it says was simulated must have
// recorded its events. The other way round is not checked: a profile may
// hold such events without meta.cache (the unit tests' fixtures do).
void Loader::check_simulated_events(const Where& cache, const Where& events) const
{
    const Meta& m = p_.meta_;
    if (!m.cache)
        return;
    const auto check = [&](const auto& group, const char* what_was) {
        for (const char* name : group)
            if (!p_.event_index(name))
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
    Meta& m = p_.meta_;
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
        run.exit_code = exit_code_at(required(o, "exit", item), exit, run.killed);
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
    Meta& m = p_.meta_;
    const Where pid = at.member("pid"), ppid = at.member("ppid"),
                elapsed = at.member("elapsed_ms");
    if (const json::value* x = o.if_contains("pid"))
        m.pid = int_at(*x, pid);
    if (const json::value* x = o.if_contains("ppid"))
        m.ppid = int_at(*x, ppid);
    if (const json::value* x = o.if_contains("elapsed_ms"))
        m.elapsed_ms = int_at(*x, elapsed);
}

void Loader::load_strs(const json::value& v, const Where& at)
{
    const json::array& a = array_at(v, at);
    p_.strs_.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        p_.strs_.emplace_back(string_at(a[i], item));
    }
}

void Loader::load_str_table(const json::value& v, const Where& at, std::vector<StrId>& out)
{
    const json::array& a = array_at(v, at);
    out.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        out.push_back(id_at<StrId>(a[i], item, "strs", p_.strs_.size(), "string"));
    }
}

void Loader::load_fns(const json::value& v, const Where& at)
{
    const json::array& a = array_at(v, at);
    p_.functions_.reserve(a.size());
    RowCells row;
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        row.assign(a[i]);
        // Since version 6 an inlined function's row carries a fifth entry, 1.
        const bool flagged = version() >= 6 && row.is_array && row.size() == 5;
        if (flagged)
            check_row(row, item, {"name", "file", "obj", "line", "inlined"}, {});
        else
            check_row(row, item, {"name", "file", "obj", "line"}, {});
        const Where name = item.element(0), file = item.element(1), obj = item.element(2),
                    line = item.element(3);
        Function f;
        f.name = id_at<StrId>(row[0], name, "strs", p_.strs_.size(), "string");
        f.file = id_at<FileId>(row[1], file, "file", p_.files_.size(), "file");
        f.obj = id_at<ObjId>(row[2], obj, "obj", p_.objs_.size(), "object");
        f.line = u32_at(row[3], line);
        if (flagged) {
            if (u32_at(row[4], item.element(4)) != 1)
                fail(item.element(4), "expected 1 (an inlined function)");
            f.inlined = true;
        }
        p_.functions_.push_back(f);
    }
}

TableSource Loader::table_source(const json::value& v, Table table) const
{
    const StreamedTable& streamed = tables_[size_t(table)];
    return streamed.present ? TableSource{nullptr, &streamed} : TableSource{&v, nullptr};
}

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

void Loader::load_lines(const TableSource& source, const Where& at)
{
    load_table(
        source, at, [&](const RowCells& row, const Where& item, size_t) { add_line(row, item); },
        [&](size_t rows) { check_fn_and_file_ids(p_.lines_, at, rows, 0); });
}

void Loader::add_line(const RowCells& row, const Where& item)
{
    check_row(row, item, {"fn", "file", "line"}, {""});
    const Where fn = item.element(0), file = item.element(1), line = item.element(2);
    LineCost l;
    l.fn = id_at<FnId>(row[0], fn, "fn", table_size(p_.functions_.size()), "function");
    l.file = id_at<FileId>(row[1], file, "file", table_size(p_.files_.size()), "file");
    l.line = u32_at(row[2], line);
    p_.lines_.push_back(l);
    append_costs(row, 3, item, p_.line_costs_);
}

// lines and instrs rows refer to a function and, in the next column, a file.
template <typename Row>
void Loader::check_fn_and_file_ids(const std::vector<Row>& table, const Where& at, size_t rows,
                                   size_t fn_column) const
{
    for (size_t i = 0; i < rows; ++i) {
        const Where item = at.element(i), fn = item.element(fn_column),
                    file = item.element(fn_column + 1);
        check_id(table[i].fn, fn, "fn", p_.functions_.size(), "function");
        check_id(table[i].file, file, "file", p_.files_.size(), "file");
    }
}

void Loader::load_instrs(const TableSource& source, const Where& at)
{
    load_table(
        source, at, [&](const RowCells& row, const Where& item, size_t) { add_instr(row, item); },
        [&](size_t rows) { check_fn_and_file_ids(p_.instrs_, at, rows, 1); });
}

void Loader::add_instr(const RowCells& row, const Where& item)
{
    check_row(row, item, {"addr", "fn", "file", "line"}, {""});
    InstrCost c;
    located_at(row, item, c.addr, c.fn, c.file, c.line);
    p_.instrs_.push_back(c);
    append_costs(row, 4, item, p_.instr_costs_);
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
    fn = id_at<FnId>(row[1], fn_at, "fn", table_size(p_.functions_.size()), "function");
    file = id_at<FileId>(row[2], file_at, "file", table_size(p_.files_.size()), "file");
    line = u32_at(row[3], line_at);
}

// meta.totals is what a reader shows as the program total; checking it
// against the lines catches a writer that dropped or double-counted rows.
void Loader::check_totals(const Where& meta) const
{
    const size_t events = p_.num_events();
    std::vector<uint64_t> sums(events, 0);
    for (size_t row = 0; row < p_.lines_.size(); ++row) {
        const uint64_t* cost = p_.line_cost(row);
        for (size_t e = 0; e < events; ++e)
            if (__builtin_add_overflow(sums[e], cost[e], &sums[e]))
                fail(Where{}, cat("lines: the ", p_.meta_.events[e],
                                  " costs add up to more than 2^64-1"));
    }
    const Where totals = meta.member("totals");
    for (size_t e = 0; e < events; ++e) {
        const Where item = totals.element(e);
        if (sums[e] != p_.meta_.totals[e])
            fail(item, cat(p_.meta_.events[e], " total is ", p_.meta_.totals[e],
                           " but the lines add up to ", sums[e]));
    }
}

// The call graph arrives with version 2 as three tables that only make sense
// together: a reader showing inclusive costs from one and callers from
// another must not find half of them missing.
void Loader::load_call_graph(const json::object& root)
{
    if (p_.meta_.version < 2)
        return;
    std::vector<const char*> present, missing;
    for (const char* key : kCallGraphKeys)
        (root.contains(key) ? present : missing).push_back(key);
    const bool threads = root.contains(kThreadKey);
    if (present.empty() && !threads)
        return;
    if (!missing.empty()) {
        const auto keys = [](const std::vector<const char*>& names) {
            std::string out;
            for (size_t i = 0; i < names.size(); ++i)
                out += cat(i == 0 ? "" : i + 1 == names.size() ? " and " : ", ", '"', names[i],
                           '"');
            return out;
        };
        if (present.empty())
            fail(Where{}, cat('"', kThreadKey, "\" is present but ", keys(missing),
                              " are missing (per-thread call graphs come only with the call "
                              "graph)"));
        fail(Where{}, cat("incomplete call graph: ", keys(present),
                          present.size() == 1 ? " is" : " are", " present but ", keys(missing),
                          missing.size() == 1 ? " is" : " are",
                          " missing (calls, inclusive and paths come together)"));
    }
    const Where top, calls = top.member("calls"), inclusive = top.member("inclusive"),
                     paths = top.member("paths");
    load_calls(table_source(root.at("calls"), Table::calls), calls, p_.graph_);
    inclusive_source_rows_ =
        load_inclusive(table_source(root.at("inclusive"), Table::inclusive), inclusive, p_.graph_);
    load_paths(table_source(root.at("paths"), Table::paths), paths);
    check_path_inclusive_costs(paths);
    check_path_self_totals(paths);
    if (version() >= 6)
        check_inclusive_holds_self(inclusive);
    p_.has_call_graph_ = true;
    if (threads) {
        const Where threads_at = top.member(kThreadKey);
        load_threads(root.at(kThreadKey), threads_at);
        p_.has_thread_graphs_ = true;
    }
}

void Loader::load_calls(const TableSource& source, const Where& at, CallGraph& graph)
{
    load_table(
        source, at,
        [&](const RowCells& row, const Where& item, size_t) { add_call(row, item, graph); },
        [&](size_t rows) { check_call_ids(at, rows, graph); });
}

void Loader::add_call(const RowCells& row, const Where& item, CallGraph& graph)
{
    check_row(row, item, {"caller", "callee", "file", "line", "count"}, {""});
    const Where caller = item.element(0), callee = item.element(1), file = item.element(2),
                line = item.element(3), count = item.element(4);
    const size_t fns = table_size(p_.functions_.size()), files = table_size(p_.files_.size());
    CallEdge c;
    c.caller = id_at<FnId>(row[0], caller, "fn", fns, "function");
    c.callee = id_at<FnId>(row[1], callee, "fn", fns, "function");
    c.file = id_at<FileId>(row[2], file, "file", files, "file");
    c.line = u32_at(row[3], line);
    c.count = uint_at(row[4], count);
    graph.calls_.push_back(c);
    append_costs(row, 5, item, graph.call_costs_);
}

void Loader::check_call_ids(const Where& at, size_t rows, const CallGraph& graph) const
{
    const size_t fns = p_.functions_.size(), files = p_.files_.size();
    for (size_t i = 0; i < rows; ++i) {
        const CallEdge& c = graph.calls_[i];
        const Where item = at.element(i), caller = item.element(0), callee = item.element(1),
                    file = item.element(2);
        check_id(c.caller, caller, "fn", fns, "function");
        check_id(c.callee, callee, "fn", fns, "function");
        check_id(c.file, file, "file", files, "file");
    }
}

// Returns, for each row of graph's inclusive table (sorted by fn), the row
// of the document it came from.
std::vector<size_t> Loader::load_inclusive(const TableSource& source, const Where& at,
                                           CallGraph& graph)
{
    inclusive_row_of_fn_.resize(p_.functions_.size(), kNoRow);
    load_table(
        source, at,
        [&](const RowCells& row, const Where& item, size_t index) {
            add_inclusive(row, item, index, graph);
        },
        [&](size_t rows) { check_inclusive_ids(at, rows, graph); });
    for (FnId fn : graph.inclusive_fns_)
        inclusive_row_of_fn_[fn.index()] = kNoRow;
    return sort_inclusive(graph);
}

void Loader::add_inclusive(const RowCells& row, const Where& item, size_t index,
                           CallGraph& graph)
{
    check_row(row, item, {"fn"}, {""});
    const Where fn_at = item.element(0);
    const FnId fn =
        id_at<FnId>(row[0], fn_at, "fn", table_size(p_.functions_.size()), "function");
    if (!parsing_)
        check_no_second_inclusive_row(fn, index, item);
    graph.inclusive_fns_.push_back(fn);
    append_costs(row, 1, item, graph.inclusive_costs_);
}

void Loader::check_inclusive_ids(const Where& at, size_t rows, const CallGraph& graph)
{
    for (size_t i = 0; i < rows; ++i) {
        const Where item = at.element(i), fn_at = item.element(0);
        const FnId fn = graph.inclusive_fns_[i];
        check_id(fn, fn_at, "fn", p_.functions_.size(), "function");
        check_no_second_inclusive_row(fn, i, item);
    }
}

// One row per function, or fn_inclusive() could not say which is meant.
void Loader::check_no_second_inclusive_row(FnId fn, size_t index, const Where& item)
{
    size_t& slot = inclusive_row_of_fn_[fn.index()];
    if (slot != kNoRow) {
        const Where fn_at = item.element(0);
        fail(fn_at, cat("fn ", fn.value, " already has a row (", item.parent->str(), '[', slot,
                        "])"));
    }
    slot = index;
}

// The tool writes the rows sorted by fn; a reader sorts them if not.
std::vector<size_t> Loader::sort_inclusive(CallGraph& graph) const
{
    std::vector<FnId>& fns = graph.inclusive_fns_;
    std::vector<uint64_t>& costs = graph.inclusive_costs_;
    const size_t events = p_.num_events();
    std::vector<size_t> source_rows(fns.size());
    for (size_t i = 0; i < source_rows.size(); ++i)
        source_rows[i] = i;
    if (!std::is_sorted(fns.begin(), fns.end())) {
        std::sort(source_rows.begin(), source_rows.end(),
                  [&](size_t x, size_t y) { return fns[x] < fns[y]; });
        std::vector<FnId> sorted_fns;
        std::vector<uint64_t> sorted_costs;
        sorted_fns.reserve(fns.size());
        sorted_costs.reserve(costs.size());
        for (size_t row : source_rows) {
            sorted_fns.push_back(fns[row]);
            sorted_costs.insert(sorted_costs.end(), costs.begin() + row * events,
                                costs.begin() + (row + 1) * events);
        }
        fns.swap(sorted_fns);
        costs.swap(sorted_costs);
    }
    return source_rows;
}

void Loader::load_paths(const TableSource& source, const Where& at)
{
    load_table(
        source, at,
        [&](const RowCells& row, const Where& item, size_t node) { add_path(row, item, node); },
        [&](size_t rows) { check_path_ids(at, rows); });
}

void Loader::add_path(const RowCells& row, const Where& item, size_t node)
{
    if (node >= std::numeric_limits<uint32_t>::max())
        fail(*item.parent, "too many nodes (limit 2^32-1)");
    check_row(row, item, {"parent", "fn", "count"}, {"self ", "inclusive "});
    const Where parent = item.element(0), fn = item.element(1), count = item.element(2);
    PathNode n;
    n.parent = parent_at(row[0], parent, node);
    if (!row[1].is_null())
        n.fn = id_at<FnId>(row[1], fn, "fn", table_size(p_.functions_.size()), "function");
    else if (!n.parent)
        fail(fn, "a [truncated] node (null fn) must have a parent, but this one is a root");
    n.count = uint_at(row[2], count);
    p_.paths_.push_back(n);
    // The row's self costs then inclusive costs are exactly the layout of
    // path_costs_.
    append_costs(row, 3, item, p_.path_costs_);
}

void Loader::check_path_ids(const Where& at, size_t rows) const
{
    for (size_t i = 0; i < rows; ++i)
        if (const std::optional<FnId> fn = p_.paths_[i].fn) {
            const Where item = at.element(i), fn_at = item.element(1);
            check_id(*fn, fn_at, "fn", p_.functions_.size(), "function");
        }
}

// Parents come before their children, which lets one backward pass total
// the tree and rules out cycles without a search.
std::optional<PathId> Loader::parent_at(const Cell& v, const Where& at, size_t node) const
{
    if (v.is_null())
        return std::nullopt;
    const uint64_t parent = uint_at(v, at);
    if (parent >= node)
        fail(at, cat("parent ", parent,
                     " is not an earlier node (expected null or a row index below ", node, ")"));
    return PathId(uint32_t(parent));
}

// A node's inclusive cost is its self cost plus its children's inclusive
// costs. Checked so that every reader can trust any node's inclusive cost
// without re-adding its subtree.
void Loader::check_path_inclusive_costs(const Where& at) const
{
    const size_t events = p_.num_events(), nodes = p_.paths_.size();
    std::vector<uint64_t> children(nodes * events, 0);
    for (size_t i = 0; i < nodes; ++i) {
        const std::optional<PathId> parent = p_.paths_[i].parent;
        if (!parent)
            continue;
        const uint64_t* inclusive = p_.path_inclusive(i);
        for (size_t e = 0; e < events; ++e) {
            uint64_t& sum = children[parent->index() * events + e];
            if (__builtin_add_overflow(sum, inclusive[e], &sum)) {
                const Where item = at.element(parent->index());
                fail(item, cat("the ", p_.meta_.events[e], " inclusive costs of the node's ",
                               "children add up to more than 2^64-1"));
            }
        }
    }
    for (size_t i = 0; i < nodes; ++i) {
        const uint64_t *self = p_.path_self(i), *inclusive = p_.path_inclusive(i);
        for (size_t e = 0; e < events; ++e) {
            const uint64_t below = children[i * events + e];
            uint64_t expected;
            const bool overflow = __builtin_add_overflow(self[e], below, &expected);
            if (!overflow && inclusive[e] == expected)
                continue;
            const Where item = at.element(i), cost = item.element(3 + events + e);
            fail(cost, cat(p_.meta_.events[e], " inclusive cost is ", inclusive[e],
                           " but self ", self[e], " plus the children's inclusive ", below,
                           overflow ? std::string(" is more than 2^64-1")
                                    : cat(" is ", expected)));
        }
    }
}

// inlines: [fn, parent, file, line], parents before their children;
// inline_lines: [fn, inl, file, line, cost...], each the inlined part of a
// lines row, its inlined call's function an inlined one.
void Loader::load_inlined(const json::object& root)
{
    const Where top;
    const auto no_streamed_ids = [](size_t) {};
    if (const json::value* v = root.if_contains("inlines"))
        load_table(TableSource{v, nullptr}, top.member("inlines"),
                   [&](const RowCells& row, const Where& item, size_t i) {
                       check_row(row, item, {"fn", "parent", "file", "line"}, {});
                       InlinedCall c;
                       c.fn = id_at<FnId>(row[0], item.element(0), "fn", p_.functions_.size(),
                                          "function");
                       if (!p_.function(c.fn).inlined)
                           fail(item.element(0),
                                cat("function ", c.fn.value, " is not an inlined function"));
                       if (row[1].kind != json::kind::null)
                           c.parent = id_at<FnId>(row[1], item.element(1), "parent", i,
                                                  "earlier inlined call").value;
                       c.file = id_at<FileId>(row[2], item.element(2), "file", p_.files_.size(),
                                              "file");
                       c.line = u32_at(row[3], item.element(3));
                       p_.inlined_calls_.push_back(c);
                   },
                   no_streamed_ids);
    if (const json::value* v = root.if_contains("inline_lines"))
        load_table(TableSource{v, nullptr}, top.member("inline_lines"),
                   [&](const RowCells& row, const Where& item, size_t) {
                       check_row(row, item, {"fn", "inl", "file", "line"}, {""});
                       InlinedLine l;
                       l.fn = id_at<FnId>(row[0], item.element(0), "fn", p_.functions_.size(),
                                          "function");
                       l.inl = id_at<FnId>(row[1], item.element(1), "inl",
                                           p_.inlined_calls_.size(), "inlined call").value;
                       l.file = id_at<FileId>(row[2], item.element(2), "file", p_.files_.size(),
                                              "file");
                       l.line = u32_at(row[3], item.element(3));
                       p_.inlined_lines_.push_back(l);
                       append_costs(row, 4, item, p_.inlined_line_costs_);
                   },
                   no_streamed_ids);
}

// What ran while a function was on a stack, or while its own code ran
// (version 6 counts that too), holds its self cost: a function's inclusive
// cost is at least its self cost, for every event.
void Loader::check_inclusive_holds_self(const Where& at) const
{
    const size_t events = p_.num_events();
    std::vector<uint64_t> self(p_.functions_.size() * events, 0);
    for (size_t row = 0; row < p_.lines_.size(); ++row) {
        const uint64_t* cost = p_.line_cost(row);
        uint64_t* sum = &self[p_.lines_[row].fn.index() * events];
        for (size_t e = 0; e < events; ++e)
            sum[e] += cost[e];   // bounded: the lines add up to meta.totals
    }
    const std::vector<FnId>& fns = p_.graph_.inclusive_fns();
    std::vector<bool> has_row(p_.functions_.size(), false);
    for (size_t row = 0; row < fns.size(); ++row) {
        has_row[fns[row].index()] = true;
        const uint64_t* inclusive = p_.graph_.inclusive_cost(row);
        const uint64_t* own = &self[fns[row].index() * events];
        for (size_t e = 0; e < events; ++e)
            if (inclusive[e] < own[e])
                fail(at.element(inclusive_source_rows_[row]).element(1 + e),
                     cat(p_.meta_.events[e], " inclusive cost of ", p_.str(p_.functions_[fns[row].index()].name),
                         " is ", inclusive[e], ", below its self cost ", own[e]));
    }
    for (size_t fn = 0; fn < p_.functions_.size(); ++fn)
        for (size_t e = 0; e < events; ++e)
            if (!has_row[fn] && self[fn * events + e] != 0)
                fail(at, cat("function ", fn, " (", p_.str(p_.functions_[fn].name), ") has a ",
                             p_.meta_.events[e], " self cost of ", self[fn * events + e],
                             " but no inclusive row"));
}

// The tree accounts for every instruction exactly once, as the lines do.
void Loader::check_path_self_totals(const Where& at) const
{
    const size_t events = p_.num_events();
    std::vector<uint64_t> sums(events, 0);
    for (size_t i = 0; i < p_.paths_.size(); ++i) {
        const uint64_t* self = p_.path_self(i);
        for (size_t e = 0; e < events; ++e)
            if (__builtin_add_overflow(sums[e], self[e], &sums[e]))
                fail(at, cat("the ", p_.meta_.events[e], " self costs add up to more than 2^64-1"));
    }
    for (size_t e = 0; e < events; ++e)
        if (sums[e] != p_.meta_.totals[e])
            fail(at, cat("the ", p_.meta_.events[e], " self costs of the nodes add up to ", sums[e],
                         " but meta.totals[", e, "] is ", p_.meta_.totals[e]));
}

// `threads` (--separate-threads=yes): each thread's own calls, inclusive
// costs and path-tree roots. The threads split the whole program's graph
// between them, so their rows must add up to the top-level ones and their
// roots must cover the tree's once: a reader can then show one thread's
// graph knowing the others hold the rest.
void Loader::load_threads(const json::value& v, const Where& at)
{
    const json::array& a = array_at(v, at);
    const size_t events = p_.num_events();
    // Indexed by path node: the threads index of the thread whose root it is.
    std::vector<uint32_t> owner(p_.paths_.size(), UINT32_MAX);
    ThreadSums sums = top_level_sums();
    p_.threads_.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        const json::object& o = object_at(a[i], item);
        const Where tid = item.member("tid"), calls = item.member("calls"),
                    inclusive = item.member("inclusive"), roots = item.member("roots");
        ThreadGraph t;
        t.num_events_ = events;
        t.tid = tid_at(required(o, "tid", item), tid);
        check_tid_order(t.tid, tid);
        load_calls(TableSource{&required(o, "calls", item)}, calls, t);
        const std::vector<size_t> source_rows =
            load_inclusive(TableSource{&required(o, "inclusive", item)}, inclusive, t);
        load_roots(required(o, "roots", item), roots, t, owner);
        add_thread_calls(t, calls, sums);
        add_thread_inclusive(t, source_rows, inclusive, sums);
        p_.threads_.push_back(std::move(t));
    }
    check_every_root_has_a_thread(owner, at);
    check_thread_sums(sums);
}

// Valgrind numbers threads from 1 (0 is its "no thread").
uint32_t Loader::tid_at(const json::value& v, const Where& at) const
{
    const uint64_t tid = uint_at(v, at);
    if (tid == 0)
        fail(at, "tid 0 is not a thread (Valgrind numbers threads from 1)");
    if (tid > std::numeric_limits<uint32_t>::max())
        fail(at, cat("tid ", tid, " is too large (limit 2^32-1)"));
    return uint32_t(tid);
}

// Sorted, each tid once, so that Profile::thread() can search them.
void Loader::check_tid_order(uint32_t tid, const Where& at) const
{
    if (p_.threads_.empty())
        return;
    const size_t previous = p_.threads_.size() - 1;
    const uint32_t before = p_.threads_.back().tid;
    if (tid == before)
        fail(at, cat("tid ", tid, " is listed twice (threads[", previous, "] has it too)"));
    if (tid < before)
        fail(at, cat("tid ", tid, " comes after tid ", before, " (threads[", previous,
                     "]); threads are sorted by tid"));
}

void Loader::load_roots(const json::value& v, const Where& at, ThreadGraph& thread,
                        std::vector<uint32_t>& owner) const
{
    const json::array& a = array_at(v, at);
    thread.roots.reserve(a.size());
    const uint32_t this_thread = uint32_t(p_.threads_.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        const PathId root = id_at<PathId>(a[i], item, "path", p_.paths_.size(), "node");
        if (const std::optional<PathId> parent = p_.path(root).parent)
            fail(item, cat("paths[", root.value, "] is not a root (its parent is paths[",
                           parent->value, "])"));
        uint32_t& slot = owner[root.index()];
        if (slot != UINT32_MAX) {
            const uint32_t tid = slot == this_thread ? thread.tid : p_.threads_[slot].tid;
            fail(item, cat("paths[", root.value, "] is already a root of tid ", tid,
                           " (threads[", slot, "])"));
        }
        slot = this_thread;
        thread.roots.push_back(root);
    }
}

void Loader::check_every_root_has_a_thread(const std::vector<uint32_t>& owner,
                                           const Where& threads) const
{
    for (size_t node = 0; node < p_.paths_.size(); ++node)
        if (!p_.paths_[node].parent && owner[node] == UINT32_MAX)
            fail(threads, cat("paths[", node, "] is a root but no thread lists it in its roots"));
}

// The top-level side of the comparison: calls rows keyed by (caller,
// callee, file, line), and room for the threads' sums.
Loader::ThreadSums Loader::top_level_sums() const
{
    const size_t width = 1 + p_.num_events();  // count, then costs
    const std::vector<CallEdge>& calls = p_.graph_.calls_;
    ThreadSums sums;
    sums.call_slot.reserve(calls.size());
    for (size_t row = 0; row < calls.size(); ++row) {
        const auto [it, added] =
            sums.call_slot.try_emplace(CallKey(calls[row]), sums.call_row.size());
        if (added) {
            sums.call_row.push_back(row);
            sums.top_calls.resize(sums.top_calls.size() + width);
        }
        CheckedSum* top = &sums.top_calls[it->second * width];
        top[0].add(calls[row].count);
        const uint64_t* cost = p_.graph_.call_cost(row);
        for (size_t e = 0; e < p_.num_events(); ++e)
            top[1 + e].add(cost[e]);
    }
    sums.thread_calls.resize(sums.top_calls.size());
    sums.thread_inclusive.resize(p_.graph_.inclusive_costs_.size());
    return sums;
}

void Loader::add_thread_calls(const ThreadGraph& thread, const Where& calls, ThreadSums& sums) const
{
    const size_t events = p_.num_events(), width = 1 + events;
    for (size_t row = 0; row < thread.calls_.size(); ++row) {
        const CallEdge& edge = thread.calls_[row];
        const auto it = sums.call_slot.find(CallKey(edge));
        if (it == sums.call_slot.end()) {
            const Where item = calls.element(row);
            fail(item, cat("no top-level calls row has this caller, callee and call site (fn ",
                           edge.caller.value, " calls fn ", edge.callee.value, " at file ",
                           edge.file.value, " line ", edge.line, ")"));
        }
        CheckedSum* sum = &sums.thread_calls[it->second * width];
        sum[0].add(edge.count);
        const uint64_t* cost = thread.call_cost(row);
        for (size_t e = 0; e < events; ++e)
            sum[1 + e].add(cost[e]);
    }
}

void Loader::add_thread_inclusive(const ThreadGraph& thread, const std::vector<size_t>& source_rows,
                                  const Where& inclusive, ThreadSums& sums) const
{
    const size_t events = p_.num_events();
    const std::vector<FnId>& top_fns = p_.graph_.inclusive_fns_;
    for (size_t i = 0; i < thread.inclusive_fns_.size(); ++i) {
        const FnId fn = thread.inclusive_fns_[i];
        const auto it = std::lower_bound(top_fns.begin(), top_fns.end(), fn);
        if (it == top_fns.end() || *it != fn) {
            const Where item = inclusive.element(source_rows[i]);
            fail(item, cat("fn ", fn.value, " has no top-level inclusive row"));
        }
        const size_t top_row = size_t(it - top_fns.begin());
        const uint64_t* cost = &thread.inclusive_costs_[i * events];
        for (size_t e = 0; e < events; ++e)
            sums.thread_inclusive[top_row * events + e].add(cost[e]);
    }
}

// A mismatch is reported at the top-level row, with what the threads'
// rows add up to: the row the threads do not account for.
void Loader::check_thread_sums(const ThreadSums& sums) const
{
    const Where top, calls = top.member("calls"), inclusive = top.member("inclusive");
    const size_t events = p_.num_events(), width = 1 + events;
    const std::vector<std::string>& names = p_.meta_.events;
    for (size_t slot = 0; slot < sums.call_row.size(); ++slot) {
        const CheckedSum *threads = &sums.thread_calls[slot * width],
                         *total = &sums.top_calls[slot * width];
        const Where item = calls.element(sums.call_row[slot]);
        if (!(threads[0] == total[0]))
            fail(item, cat("the threads' calls add up to ", threads[0].str(),
                           threads[0].value == 1 && !threads[0].overflow ? " call" : " calls",
                           ", not ", total[0].str()));
        for (size_t e = 0; e < events; ++e)
            if (!(threads[1 + e] == total[1 + e]))
                fail(item, cat("the threads' ", names[e], " costs add up to ",
                               threads[1 + e].str(), ", not ", total[1 + e].str()));
    }
    for (size_t row = 0; row < p_.graph_.inclusive_fns_.size(); ++row)
        for (size_t e = 0; e < events; ++e) {
            const CheckedSum& threads = sums.thread_inclusive[row * events + e];
            const uint64_t total = p_.graph_.inclusive_costs_[row * events + e];
            if (threads.overflow || threads.value != total) {
                const Where item = inclusive.element(inclusive_source_rows_[row]);
                fail(item, cat("the threads' ", names[e], " inclusive costs add up to ",
                               threads.str(), ", not ", total));
            }
        }
}

const json::value& Loader::required(const json::object& o, const char* key, const Where& at) const
{
    const json::value* v = o.if_contains(key);
    if (v == nullptr) {
        if (at.is_top())
            fail(at, cat("missing required top-level key \"", key, '"'));
        fail(at, cat("missing required key \"", key, '"'));
    }
    return *v;
}

const json::object& Loader::object_at(const json::value& v, const Where& at) const
{
    if (!v.is_object())
        fail(at, cat("expected an object, got ", describe(v)));
    return v.get_object();
}

const json::array& Loader::array_at(const json::value& v, const Where& at) const
{
    if (!v.is_array())
        fail(at, cat("expected an array, got ", describe(v)));
    return v.get_array();
}

const json::string& Loader::string_at(const json::value& v, const Where& at) const
{
    if (!v.is_string())
        fail(at, cat("expected a string, got ", describe(v)));
    return v.get_string();
}

std::vector<std::string> Loader::strings_at(const json::value& v, const Where& at) const
{
    const json::array& a = array_at(v, at);
    std::vector<std::string> out;
    out.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const Where item = at.element(i);
        out.emplace_back(string_at(a[i], item));
    }
    return out;
}

// Boost.JSON stores an integer as int64 when it fits and as uint64 above
// that, so both kinds are accepted; a double means the text had a fraction,
// an exponent or a value past 2^64-1, none of which the format allows.
uint64_t Loader::uint_at(const Cell& v, const Where& at) const
{
    if (v.is_uint64())
        return v.u;
    if (v.is_int64() && v.i >= 0)
        return uint64_t(v.i);
    fail(at, cat("expected a non-negative integer, got ", describe(v)));
}

int64_t Loader::int_at(const Cell& v, const Where& at) const
{
    if (v.is_int64())
        return v.i;
    if (v.is_uint64())
        fail(at, cat("integer ", v.u, " is too large (limit 2^63-1)"));
    fail(at, cat("expected an integer, got ", describe(v)));
}

uint32_t Loader::u32_at(const Cell& v, const Where& at) const
{
    const uint64_t n = uint_at(v, at);
    if (n > std::numeric_limits<uint32_t>::max())
        fail(at, cat("line number ", n, " is too large (limit 2^32-1)"));
    return uint32_t(n);
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

// A table row: an array of the fixed columns, followed by one cost per event
// for each entry of `cost_sets` (the prefix naming that set in messages:
// "" for a table with one cost array, "self " and "inclusive " for paths).
// The message lists the expected columns because a wrong row length is
// usually a writer/reader event mismatch.
void Loader::check_row(const RowCells& row, const Where& at,
                       std::initializer_list<const char*> fixed,
                       std::initializer_list<const char*> cost_sets) const
{
    if (!row.is_array)
        fail(at, cat("expected an array, got ", describe(row[0])));
    const size_t events = parsing_ ? *events_ : p_.num_events();
    const size_t expected = fixed.size() + cost_sets.size() * events;
    if (row.size() == expected)
        return;
    std::string columns;
    for (const char* c : fixed)
        columns += cat(columns.empty() ? "" : ", ", c);
    for (const char* prefix : cost_sets)
        for (const std::string& e : p_.meta_.events)
            columns += cat(", ", prefix, e);
    fail(at, cat("expected ", count_of(expected, "entry", "entries"), " [", columns, "], got ",
                 row.size()));
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

// --- the heap ---------------------------------------------------------

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
    load_heap_frames(required(o, "frames", at), frames, heap);
    load_heap_sites(required(o, "sites", at), sites, heap);
    check_heap_sums(heap, totals);
    load_timeline(required(o, "timeline", at), timeline, heap);
    load_snapshots(required(o, "snapshots", at), snapshots, heap);
    p_.heap_ = std::move(heap);
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
    if (t.peak_time > t.end_time)
        fail(at.member("peak_time"), cat("the peak (", t.peak_time, ") comes after the end (",
                                         t.end_time, ")"));
    return t;
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
        // Since version 6 the inlined calls at an address are frames of
        // their own, beside it: the depth bounds the addresses.
        size_t addresses = 0;
        for (size_t f = 0; f < fs.size(); ++f) {
            const Where frame = frames.element(f);
            s.frames.push_back(
                id_at<FrameId>(fs[f], frame, "heap frame", heap.frames.size(), "frame"));
            if (f == 0 || heap.frame(s.frames[f]).addr != heap.frame(s.frames[f - 1]).addr)
                ++addresses;
        }
        const size_t unwound = version() >= 6 ? addresses : fs.size();
        if (unwound > heap.depth)
            fail(frames, cat(version() >= 6 ? count_of(unwound, "address", "addresses")
                                            : count_of(unwound, "frame"),
                             ", more than the depth ", heap.depth));
        uint64_t* const fields[] = {&s.bytes,      &s.blocks,      &s.lifetimes, &s.max_bytes,
                                    &s.max_blocks, &s.peak_bytes,  &s.peak_blocks,
                                    &s.end_bytes,  &s.end_blocks,  &s.reads,     &s.writes};
        for (size_t f = 0; f < std::size(fields); ++f) {
            const Where cell = item.element(f + 1);
            *fields[f] = uint_at(row[f + 1], cell);
        }
        // Live figures never exceed the site's own highest, which never
        // exceeds what it allocated in all.
        const auto at_most = [&](size_t col, uint64_t value, const char* what, uint64_t limit) {
            if (value > limit) {
                const Where cell = item.element(col);
                fail(cell, cat(value, " is more than ", what, " (", limit, ")"));
            }
        };
        at_most(4, s.max_bytes, "the bytes allocated", s.bytes);
        at_most(5, s.max_blocks, "the blocks allocated", s.blocks);
        at_most(6, s.peak_bytes, "the site's highest live bytes", s.max_bytes);
        at_most(8, s.end_bytes, "the site's highest live bytes", s.max_bytes);
        at_most(9, s.end_blocks, "the blocks allocated", s.blocks);
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

// heap.totals is what a reader shows as the program's figures; the sites
// must add up to it.
void Loader::check_heap_sums(const Heap& heap, const Where& totals) const
{
    struct Column {
        const char* name;
        uint64_t HeapSite::*site;
        uint64_t total;
    };
    const HeapTotals& t = heap.totals;
    const Column columns[] = {{"bytes", &HeapSite::bytes, t.bytes},
                              {"blocks", &HeapSite::blocks, t.blocks},
                              {"peak_bytes", &HeapSite::peak_bytes, t.peak_bytes},
                              {"peak_blocks", &HeapSite::peak_blocks, t.peak_blocks},
                              {"end_bytes", &HeapSite::end_bytes, t.end_bytes},
                              {"end_blocks", &HeapSite::end_blocks, t.end_blocks},
                              {"reads", &HeapSite::reads, t.reads},
                              {"writes", &HeapSite::writes, t.writes}};
    for (const Column& c : columns) {
        CheckedSum sum;
        for (const HeapSite& s : heap.sites)
            sum.add(s.*c.site);
        if (!(sum == CheckedSum{c.total, false})) {
            const Where item = totals.member(c.name);
            fail(item, cat(c.name, " total is ", c.total, " but the sites add up to ", sum.str()));
        }
    }
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

} // namespace detail

namespace {

// The public entry points promise that only vgprof::Error escapes: anything
// else (memory exhaustion on a huge file, a library exception) is converted
// here, naming the file.
template <typename Body>
Profile guarded(const std::string& name, Body body)
{
    try {
        return body();
    } catch (const Error&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw Error(cat(name, ": out of memory while loading the profile"));
    } catch (const std::exception& e) {
        throw Error(cat(name, ": cannot load: ", e.what()));
    }
}

// The first bytes decide the format: callgrind's and cachegrind's files are
// text of "key: value" and "key=value" lines, a profile is JSON.
Profile load_input(detail::PeekableInput& input, const std::string& name,
                   const LoadLimits& limits)
{
    try {
        if (detail::is_callgrind_format(input.peek(detail::kCallgrindSniffBytes)))
            return detail::read_callgrind(input, name, limits.max_string);
        if (detail::is_dhat_format(input.peek(detail::kCallgrindSniffBytes)))
            return detail::read_dhat(input, name, limits.max_string);
        return detail::Loader(name, limits.max_string).load(input);
    } catch (const Error&) {
        // Damage inside compressed data often decompresses to text that is
        // merely wrong, and only the checksum at the end of the stream tells:
        // then that is the problem to report.
        if (input.decompresses())
            while (!input.next().empty()) {
            }
        throw;
    }
}

} // namespace

Profile parse_profile(std::string_view data, const std::string& name_for_errors,
                      const LoadLimits& limits)
{
    return guarded(name_for_errors, [&] {
        const auto input = detail::open_memory(data, name_for_errors, limits.max_decompressed);
        return load_input(*input, name_for_errors, limits);
    });
}

Profile load_profile(const std::string& path, const LoadLimits& limits,
                     const ReadProgress& progress)
{
    return guarded(path, [&] {
        const auto input = detail::open_file(path, limits.max_decompressed, progress);
        return load_input(*input, path, limits);
    });
}

} // namespace vgprof
