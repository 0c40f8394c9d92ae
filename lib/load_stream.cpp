// SPDX-License-Identifier: GPL-2.0-or-later
// Streaming a JSON profile into the loader: the parser's events become the
// members Loader keeps and the rows it adds (see loader.hpp).
#include "loader.hpp"

namespace vgprof::detail {

// The handler of Boost.JSON's basic_parser: turns the parser's events into
// the members Loader keeps and the rows it adds. Depth counts the arrays and
// objects open around an event: the top-level object's members are at
// depth 1, a table's rows at 2 and their entries at 3.
class DocumentHandler : public JsonSizeLimits {
public:
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
               (loader_.version() >= 7 && (key == kDataKey || contains(kInlineKeys, key))) ||
               (loader_.version() >= 10 && key == kTimelineKey);
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

// The text goes to the parser a chunk at a time, as read. Its handler
// throws as soon as the document is not a profile at all; every other
// problem is left to validate(), after the whole text is known to be JSON.
void Loader::parse(Input& input)
{
    json::basic_parser<DocumentHandler> parser(json::parse_options{}, *this);
    TextPosition position;
    parsing_ = true;
    const StreamEnd end = parse_stream(parser, input, position);
    if (end.trailing_data)
        fail_syntax(position, "unexpected data after the end of the document");
    if (end.incomplete)
        throw Error(cat(name_, ": truncated JSON: unexpected end of input at byte ",
                        position.offset));
    if (end.ec)
        fail_syntax(position, end.ec.message());
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
            return p_.meta.version >= 2 || table == Table::lines || table == Table::instrs;
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
        case Table::calls: add_call(row, item, p_.graph); break;
        case Table::inclusive: add_inclusive(row, item, t.rows, p_.graph); break;
        case Table::paths: add_path(row, item, t.rows); break;
        }
        ++t.rows;
    } catch (const Error&) {
        t.bad_row = row;
    }
}

} // namespace vgprof::detail
