// SPDX-License-Identifier: GPL-2.0-or-later
// Reading callgrind and cachegrind output files into the Profile model (see
// callgrind.hpp). The format is Valgrind's "callgrind format": header lines
// "key: value" (events:, positions:, cmd:, desc:, summary:, totals: ...),
// then position lines "spec=name" (ob=, fl=, fi=, fe=, fn=, and for calls
// cob=, cfi=/cfl=, cfn=, calls=) and cost lines "subpositions costs...".
// Cachegrind writes a subset of it: fl=, fn= and "line costs..." lines.
//
// How it maps onto the model:
//   - a function is (object, file, name): the object of the last ob= (none
//     in cachegrind's files: "???"), the file current when its fn= line came
//     and its name. fi=/fe= lines move the cost lines that follow into
//     another file (inlined code) without leaving the function.
//   - callgrind's names for recursion levels, fn'2, fn'3, ..., are folded
//     into fn: their costs and calls are fn's. Other suffixes (the contexts
//     of --separate-callers) stay part of the name.
//   - cost lines are self costs per (function, file, line) and, when the
//     positions include instr, per instruction; calls= lines give call edges
//     with their counts and inclusive costs, and when the positions include
//     instr, the address of the instruction that made the calls.
//   - a function's inclusive cost is what callgrind_annotate --inclusive=yes
//     shows for its outermost recursion level: the cost of the calls into
//     it, or for a function nothing called (the root of a stack) its self
//     cost plus that of the calls it made.
#include "callgrind.hpp"

#include "profile_checks.hpp"
#include "text.hpp"
#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/profile_builder.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace vgprof::detail {

namespace {

// The header keys a callgrind or cachegrind file starts with.
const char* const kHeaderKeys[] = {"version", "creator", "pid",    "cmd",     "part",
                                   "desc",    "positions", "events", "event", "thread",
                                   "summary", "totals"};

// The first word of a line "key: value", or empty when the line is not one.
std::string_view header_key(std::string_view line)
{
    size_t n = 0;
    while (n < line.size() && line[n] >= 'a' && line[n] <= 'z')
        ++n;
    return n > 0 && n < line.size() && line[n] == ':' ? line.substr(0, n) : std::string_view();
}

// Splits at runs of spaces and tabs, into `out` (reused: cost lines are
// most of a file, and allocating for each would be most of the work).
void split_words(std::string_view s, std::vector<std::string_view>& out)
{
    out.clear();
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
            ++i;
        const size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t')
            ++i;
        if (i > start)
            out.push_back(s.substr(start, i - start));
    }
}

std::vector<std::string_view> words(std::string_view s)
{
    std::vector<std::string_view> out;
    split_words(s, out);
    return out;
}

// An unsigned number, decimal or "0x" hexadecimal, as the whole of `text`.
std::optional<uint64_t> number(std::string_view text)
{
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        text.remove_prefix(2);
        base = 16;
    }
    uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return value;
}

// A subposition: absolute, or relative to the same position of the last
// cost line ("+N", "-N", "*"). Nothing for one that is malformed or leaves
// the range of a position.
std::optional<uint64_t> subposition(std::string_view text, uint64_t last)
{
    if (text == "*")
        return last;
    if (text[0] == '+') {
        const std::optional<uint64_t> n = number(text.substr(1));
        if (!n || *n > std::numeric_limits<uint64_t>::max() - last)
            return std::nullopt;
        return last + *n;
    }
    if (text[0] == '-') {
        const std::optional<uint64_t> n = number(text.substr(1));
        if (!n || *n > last)
            return std::nullopt;
        return last - *n;
    }
    return number(text);
}

// "fn'2" -> ("fn", 2): the recursion level callgrind appends to a function
// entered while already on the stack; 1 for a name without one.
std::pair<std::string_view, uint64_t> recursion_level(std::string_view name)
{
    const size_t quote = name.rfind('\'');
    if (quote == std::string_view::npos || quote == 0 || quote + 1 == name.size())
        return {name, 1};
    const std::optional<uint64_t> level = number(name.substr(quote + 1));
    if (!level || name[quote + 1] == '0' || name.substr(quote + 1, 2) == "0x")
        return {name, 1};
    return {name.substr(0, quote), *level};
}

// Costs kept in rows of `width` counts, one per event, in one vector. The
// width grows when a later part of the file names more events.
class CostRows {
public:
    size_t add_row()
    {
        costs_.resize(costs_.size() + width_, 0);
        return rows_++;
    }
    uint64_t* row(size_t r) { return costs_.data() + r * width_; }
    const uint64_t* row(size_t r) const { return costs_.data() + r * width_; }
    void widen(size_t width)
    {
        std::vector<uint64_t> wider(rows_ * width, 0);
        for (size_t r = 0; r < rows_; ++r)
            std::copy(row(r), row(r) + width_, wider.data() + r * width);
        costs_.swap(wider);
        width_ = width;
    }

private:
    size_t width_ = 0, rows_ = 0;
    std::vector<uint64_t> costs_;
};

// A function as the file names it: object, file and name (strings
// interned in the builder).
struct FnKey {
    uint32_t obj, file, name;
    bool operator==(const FnKey& o) const
    {
        return obj == o.obj && file == o.file && name == o.name;
    }
};

struct FnKeyHash {
    size_t operator()(const FnKey& k) const
    {
        const uint64_t a = uint64_t(k.obj) << 32 | k.file;
        return size_t((a * 0x9e3779b97f4a7c15ULL) ^ (k.name + 0x7f4a7c15ULL + (a << 6) + (a >> 2)));
    }
};

// A function as the file names it, before recursion levels are folded: its
// own self cost and the costs of the calls into it and out of it, from
// which callgrind_annotate computes inclusive costs.
struct NamedFunction {
    FnId fn;                // the folded function
    uint64_t level = 1;     // recursion level: 1 for fn, 2 for fn'2 ...
    bool called = false;    // some calls= line names it as callee
};

} // namespace

class CallgrindReader {
public:
    CallgrindReader(const std::string& name, uint64_t max_line)
        : name_(name), max_line_(max_line), builder_(name)
    {
    }
    Profile read(Input& input);

private:
    [[noreturn]] void fail(const std::string& message) const
    {
        throw Error(cat(name_, ": line ", line_number_, ": ", message));
    }
    [[noreturn]] void fail_file(const std::string& message) const
    {
        throw Error(cat(name_, ": ", message));
    }

    void read_line(std::string_view line);
    void header_line(std::string_view key, std::string_view value);
    void spec_line(std::string_view key, std::string_view value);
    void cost_line(std::string_view line);
    void read_events(std::string_view value);
    void read_positions(std::string_view value);
    void read_cache_description(std::string_view value);
    void read_totals(std::string_view value, const char* key,
                     std::optional<std::vector<uint64_t>>& sums);

    uint32_t intern(std::string_view s);
    uint32_t compressed_name(std::string_view value, std::unordered_map<uint64_t, uint32_t>& ids,
                             std::string_view spec);
    uint32_t object_id(uint32_t name);
    uint32_t file_id(uint32_t name);
    uint32_t named_function(uint32_t obj, uint32_t file, uint32_t name);
    void add_costs(uint64_t* into, const uint64_t* costs);
    uint32_t require_function() const;

    Profile build();
    std::vector<uint64_t> line_totals() const;
    std::vector<std::vector<uint64_t>> inclusive_costs() const;
    void check_totals(const std::vector<uint64_t>& sums) const;
    std::optional<CacheConfig> simulated() const;

    const std::string& name_;
    const uint64_t max_line_;  // LoadLimits::max_string
    uint64_t line_number_ = 0;
    bool has_calls_ = false;
    bool seen_events_ = false;

    // Strings, objects, files, folded functions and the rows, under the
    // builder's ids; meta_ is the builder's.
    ProfileBuilder builder_;
    Meta& meta_ = builder_.meta();
    size_t folded_functions_ = 0;
    std::vector<NamedFunction> named_;                   // functions as named in the file
    std::unordered_map<FnKey, uint32_t, FnKeyHash> named_ids_;
    CostRows named_self_, named_in_, named_out_;
    // The lines' costs summed per event as they are added.
    std::vector<detail::CheckedSum> line_totals_;

    // Name compression: "(id) name" defines, "(id)" refers.
    std::unordered_map<uint64_t, uint32_t> object_names_, file_names_, fn_names_;

    // Where the cost lines are.
    std::optional<uint32_t> obj_;   // ob= (objects id)
    std::optional<uint32_t> file_;  // fl=, fi=, fe= (files id)
    std::optional<uint32_t> fn_;    // fn= (named_ id)
    // The call being described: cob=, cfi=/cfl=, cfn=, then calls=.
    std::optional<uint32_t> call_obj_, call_file_, call_fn_name_;
    std::optional<uint64_t> call_count_;
    bool position_line_next_ = false;  // after jump= or jcnd=

    // The columns of a cost line: positions, then the events of the current
    // part, which map_ places among all the file's events.
    bool has_instr_ = false, has_bb_ = false, has_line_ = true;
    uint64_t last_instr_ = 0, last_line_ = 0;
    std::vector<size_t> map_;
    std::vector<std::string_view> fields_;  // of the cost line being read
    std::vector<uint64_t> costs_;           // its counts, one per event

    std::optional<std::vector<uint64_t>> totals_, summary_;
    std::optional<CacheGeometry> i1_, d1_, ll_;
};

bool is_callgrind_format(std::string_view head)
{
    while (!head.empty()) {
        const size_t end = std::min(head.find('\n'), head.size());
        const std::string_view line = trimmed(head.substr(0, end));
        head.remove_prefix(std::min(end + 1, head.size()));
        if (line.empty() || line[0] == '#')
            continue;
        const std::string_view key = header_key(line);
        return std::find(std::begin(kHeaderKeys), std::end(kHeaderKeys), key) !=
               std::end(kHeaderKeys);
    }
    return false;
}

Profile read_callgrind(Input& input, const std::string& name, uint64_t max_line)
{
    return CallgrindReader(name, max_line).read(input);
}

Profile CallgrindReader::read(Input& input)
{
    std::string partial;  // a line split between chunks
    for (std::string_view chunk; !(chunk = input.next()).empty();) {
        size_t start = 0;
        for (size_t end; (end = chunk.find('\n', start)) != std::string_view::npos;
             start = end + 1) {
            if (partial.empty()) {
                read_line(chunk.substr(start, end - start));
            } else {
                partial.append(chunk.substr(start, end - start));
                read_line(partial);
                partial.clear();
            }
        }
        partial.append(chunk.substr(start));
        // A line split between chunks is kept only until it is too long.
        if (partial.size() > max_line_)
            read_line(partial);
    }
    if (!partial.empty())
        read_line(partial);
    ++line_number_;  // a message about the end names the line after the last
    if (call_count_)
        fail("the file ends after a calls= line, before its cost line");
    return build();
}

void CallgrindReader::read_line(std::string_view line)
{
    ++line_number_;
    if (line.size() > max_line_)
        fail(longer_than("the line", max_line_));
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    const std::string_view text = trimmed(line);
    if (text.empty() || text[0] == '#')
        return;
    const char c = text[0];
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*')
        return cost_line(text);
    if (call_count_)
        fail("expected the cost line of the calls= line before");
    if (position_line_next_)
        fail("expected the position line of the jump before");
    const size_t equals = text.find('='), colon = text.find(':');
    if (c >= 'a' && c <= 'z' && colon < equals && !header_key(text).empty())
        return header_line(text.substr(0, colon), trimmed(text.substr(colon + 1)));
    if (c >= 'a' && c <= 'z' && equals != std::string_view::npos)
        return spec_line(text.substr(0, equals), trimmed(text.substr(equals + 1)));
    fail(cat("not a line of the callgrind format: ", quote(text)));
}

void CallgrindReader::header_line(std::string_view key, std::string_view value)
{
    if (key == "version") {
        const std::optional<uint64_t> v = number(value);
        if (!v)
            fail(cat("version: expected a number, got ", quote(value)));
        if (*v > 1)
            fail(cat("callgrind format version ", *v,
                     " is newer than this vgprof reads (version 1)"));
    } else if (key == "creator") {
        // "callgrind-3.19.0": the tool and Valgrind's version.
        const size_t dash = value.rfind('-');
        meta_.tool = std::string(value.substr(0, dash));
        if (dash != std::string_view::npos)
            meta_.valgrind = meta_.tool_version = std::string(value.substr(dash + 1));
    } else if (key == "pid") {
        const std::optional<uint64_t> pid = number(value);
        if (!pid || *pid > uint64_t(std::numeric_limits<int64_t>::max()))
            fail(cat("pid: expected a process id, got ", quote(value)));
        meta_.pid = int64_t(*pid);
    } else if (key == "cmd") {
        meta_.argv.clear();
        for (std::string_view word : words(value))
            meta_.argv.emplace_back(word);
    } else if (key == "desc") {
        read_cache_description(value);
    } else if (key == "positions") {
        read_positions(value);
    } else if (key == "events") {
        read_events(value);
    } else if (key == "totals") {
        read_totals(value, "totals:", totals_);
    } else if (key == "summary") {
        read_totals(value, "summary:", summary_);
    }
    // Others (part:, thread:, event: long names ...) describe; they do not
    // change what the costs mean.
}

// "events: Ir Dr ...": the cost columns from here on. A file holding
// several parts may name other events in a later part: the profile has
// every event any part named, in the order first named.
void CallgrindReader::read_events(std::string_view value)
{
    const std::vector<std::string_view> names = words(value);
    if (names.empty())
        fail("events: names no event");
    std::string_view longest;
    size_t events = meta_.events.size();
    for (std::string_view name : names) {
        longest = name.size() > longest.size() ? name : longest;
        events += std::find(meta_.events.begin(), meta_.events.end(), name) == meta_.events.end();
    }
    const std::string too_many = events_problem(events, std::string(longest));
    if (!too_many.empty())
        fail(cat("events: ", too_many));
    map_.clear();
    for (size_t i = 0; i < names.size(); ++i) {
        if (std::find(names.begin(), names.begin() + i, names[i]) != names.begin() + i)
            fail(cat("events: ", quote(names[i]), " is listed twice"));
        const auto known = std::find(meta_.events.begin(), meta_.events.end(), names[i]);
        map_.push_back(size_t(known - meta_.events.begin()));
        if (known == meta_.events.end())
            builder_.add_event(std::string(names[i]));
    }
    const size_t width = meta_.events.size();
    for (CostRows* rows : {&named_self_, &named_in_, &named_out_})
        rows->widen(width);
    line_totals_.resize(width);
    for (std::optional<std::vector<uint64_t>>* sums : {&totals_, &summary_})
        if (*sums)
            (*sums)->resize(width, 0);
    seen_events_ = true;
}

void CallgrindReader::read_positions(std::string_view value)
{
    has_instr_ = has_bb_ = has_line_ = false;
    for (std::string_view word : words(value)) {
        if (word == "instr" || word == "addr")
            has_instr_ = true;
        else if (word == "bb")
            has_bb_ = true;
        else if (word == "line")
            has_line_ = true;
        else
            fail(cat("positions: unknown position ", quote(word), " (expected instr, bb, line)"));
    }
    if (!has_instr_ && !has_bb_ && !has_line_)
        fail("positions: names no position");
    last_instr_ = last_line_ = 0;
}

// "I1 cache: 32768 B, 64 B, 8-way associative" as cachegrind and callgrind
// describe a simulated cache; callgrind leaves the value empty when it
// simulated nothing. Other descriptions are free text.
void CallgrindReader::read_cache_description(std::string_view value)
{
    const size_t colon = value.find(':');
    if (colon == std::string_view::npos)
        return;
    const std::string_view what = trimmed(value.substr(0, colon));
    std::optional<CacheGeometry>* cache = what == "I1 cache"   ? &i1_
                                          : what == "D1 cache" ? &d1_
                                          : what == "LL cache" || what == "L2 cache" ? &ll_
                                                                                      : nullptr;
    if (cache == nullptr)
        return;
    unsigned long long size = 0, line = 0, assoc = 0;
    const std::string text(trimmed(value.substr(colon + 1)));
    if (std::sscanf(text.c_str(), "%llu B, %llu B, %llu-way associative", &size, &line, &assoc) ==
            3 &&
        size > 0 && line > 0 && assoc > 0)
        *cache = CacheGeometry{size, assoc, line};
    else if (std::sscanf(text.c_str(), "%llu B, %llu B, direct-mapped", &size, &line) == 2 &&
             size > 0 && line > 0)
        *cache = CacheGeometry{size, 1, line};
    else if (std::sscanf(text.c_str(), "%llu B, %llu B, fully associative", &size, &line) == 2 &&
             size > 0 && line > 0)
        *cache = CacheGeometry{size, size / line, line};
    if (*cache) {
        const std::string problem = detail::cache_geometry_problem(**cache);
        if (!problem.empty())
            fail(cat(what, ": not a cache Valgrind simulates: ", problem));
    }
}

// totals: and summary: give the costs of a part; a file holding several
// parts has one of each per part, which add up.
void CallgrindReader::read_totals(std::string_view value, const char* key,
                                  std::optional<std::vector<uint64_t>>& sums)
{
    if (!seen_events_)
        fail(cat(key, " comes before the events: line"));
    const std::vector<std::string_view> costs = words(value);
    if (costs.size() > map_.size())
        fail(cat(key, " has ", costs.size(), " counts but the events: line names ", map_.size(),
                 " events"));
    if (!sums)
        sums.emplace(meta_.events.size(), 0);
    for (size_t i = 0; i < costs.size(); ++i) {
        const std::optional<uint64_t> n = number(costs[i]);
        if (!n)
            fail(cat(key, " expected a count, got ", quote(costs[i])));
        add_costs(&(*sums)[map_[i]], &*n);
    }
}

uint32_t CallgrindReader::intern(std::string_view s) { return builder_.str(s).value; }

// "(id) name" defines id as name, "(id)" uses it, a plain name is itself.
uint32_t CallgrindReader::compressed_name(std::string_view value,
                                          std::unordered_map<uint64_t, uint32_t>& ids,
                                          std::string_view spec)
{
    if (value.size() < 2 || value[0] != '(' || value[1] < '0' || value[1] > '9')
        return intern(value);
    const size_t close = value.find(')');
    const std::optional<uint64_t> id =
        close == std::string_view::npos ? std::nullopt : number(value.substr(1, close - 1));
    if (!id)
        fail(cat(spec, "=: bad compressed name ", quote(value)));
    const std::string_view name = trimmed(value.substr(close + 1));
    if (name.empty()) {
        const auto it = ids.find(*id);
        if (it == ids.end())
            fail(cat(spec, "=: name (", *id, ") is used before it is defined"));
        return it->second;
    }
    const uint32_t s = intern(name);
    ids[*id] = s;
    return s;
}

uint32_t CallgrindReader::object_id(uint32_t name) { return builder_.object(StrId(name)).value; }

uint32_t CallgrindReader::file_id(uint32_t name) { return builder_.file(StrId(name)).value; }

// The function named `name` in obj and file, as the file names it (with its
// recursion level), and the folded function it belongs to.
uint32_t CallgrindReader::named_function(uint32_t obj, uint32_t file, uint32_t name)
{
    const FnKey key{obj, file, name};
    const auto found = named_ids_.find(key);
    if (found != named_ids_.end())
        return found->second;
    const auto [base, level] = recursion_level(builder_.text(StrId(name)));
    const FnId fn = builder_.function(StrId(intern(base)), FileId(file), ObjId(obj), 0);
    folded_functions_ = std::max(folded_functions_, fn.index() + 1);
    const uint32_t id = uint32_t(named_.size());
    named_.push_back(NamedFunction{fn, level, false});
    named_ids_.emplace(key, id);
    for (CostRows* rows : {&named_self_, &named_in_, &named_out_})
        rows->add_row();
    return id;
}

void CallgrindReader::spec_line(std::string_view key, std::string_view value)
{
    if (key == "ob") {
        obj_ = object_id(compressed_name(value, object_names_, key));
    } else if (key == "fl" || key == "fi" || key == "fe") {
        if (key != "fl" && !fn_)
            fail(cat(key, "= before any fn= line"));
        file_ = file_id(compressed_name(value, file_names_, key));
    } else if (key == "fn") {
        const uint32_t name = compressed_name(value, fn_names_, key);
        if (!obj_)
            obj_ = object_id(intern(kUnknown));
        if (!file_)
            file_ = file_id(intern(kUnknown));
        fn_ = named_function(*obj_, *file_, name);
    } else if (key == "cob") {
        call_obj_ = object_id(compressed_name(value, object_names_, key));
    } else if (key == "cfi" || key == "cfl") {
        call_file_ = file_id(compressed_name(value, file_names_, key));
    } else if (key == "cfn") {
        call_fn_name_ = compressed_name(value, fn_names_, key);
    } else if (key == "calls") {
        const std::vector<std::string_view> fields = words(value);
        const std::optional<uint64_t> count = fields.empty() ? std::nullopt : number(fields[0]);
        if (!count)
            fail(cat("calls=: expected a call count, got ", quote(value)));
        if (!call_fn_name_)
            fail("calls= without a cfn= line naming the function called");
        require_function();
        call_count_ = count;
    } else if (key == "jump" || key == "jcnd") {
        // Jumps within a function: not part of the model, but the line
        // after one is its source position, not a cost.
        position_line_next_ = true;
    } else if (key == "jfi") {
        compressed_name(value, file_names_, key);
    } else if (key == "jfn") {
        compressed_name(value, fn_names_, key);
    } else {
        fail(cat("unknown specification ", quote(cat(key, '='))));
    }
}

uint32_t CallgrindReader::require_function() const
{
    if (!fn_)
        fail("cost line before any fn= line");
    return *fn_;
}

void CallgrindReader::add_costs(uint64_t* into, const uint64_t* costs)
{
    if (__builtin_add_overflow(*into, *costs, into))
        fail("costs add up to more than 2^64-1");
}

// "subpositions costs...": a position relative to the last cost line's
// ("+N", "-N", "*") or absolute, then up to one count per event (missing
// ones are 0). A call's cost line follows its calls= line and, as a jump's
// position line, leaves the last position where it was (so callgrind
// writes them).
void CallgrindReader::cost_line(std::string_view line)
{
    if (!seen_events_)
        fail("cost line before the events: line");
    std::vector<std::string_view>& fields = fields_;
    split_words(line, fields);
    const size_t positions = size_t(has_instr_) + size_t(has_bb_) + size_t(has_line_);
    if (fields.size() < positions)
        fail(cat("expected ", positions, " positions, got ", quote(line)));
    const auto position = [&](std::string_view text, uint64_t last) {
        const std::optional<uint64_t> value = subposition(text, last);
        if (!value)
            fail(cat("bad position ", quote(text)));
        return *value;
    };
    size_t f = 0;
    const uint64_t instr = has_instr_ ? position(fields[f++], last_instr_) : 0;
    if (has_bb_)
        position(fields[f++], 0);
    const uint64_t line_number = has_line_ ? position(fields[f++], last_line_) : 0;
    if (line_number > std::numeric_limits<uint32_t>::max())
        fail(cat("line number ", line_number, " is too large (limit 2^32-1)"));
    if (fields.size() - positions > map_.size())
        fail(cat("cost line has ", fields.size() - positions, " counts but the events: line names ",
                 map_.size(), " events"));
    std::vector<uint64_t>& costs = costs_;
    costs.assign(meta_.events.size(), 0);
    for (size_t i = 0; f < fields.size(); ++i, ++f) {
        const std::optional<uint64_t> n = number(fields[f]);
        if (!n)
            fail(cat("expected a count, got ", quote(fields[f])));
        costs[map_[i]] = *n;
    }

    if (position_line_next_) {
        position_line_next_ = false;
        return;
    }
    const uint32_t fn = require_function();
    const uint32_t file = *file_, line32 = uint32_t(line_number);
    if (call_count_) {
        const uint32_t obj = call_obj_ ? *call_obj_ : *obj_;
        const uint32_t callee_file = call_file_ ? *call_file_ : file;
        const uint32_t callee = named_function(obj, callee_file, *call_fn_name_);
        named_[callee].called = true;
        uint64_t* call = builder_.call(ProfileBuilder::kWholeProgram, named_[fn].fn,
                                       named_[callee].fn, FileId(file), line32, instr);
        if (__builtin_add_overflow(call[0], *call_count_, &call[0]))
            fail("call counts add up to more than 2^64-1");
        for (size_t e = 0; e < costs.size(); ++e) {
            add_costs(&call[1 + e], &costs[e]);
            add_costs(&named_in_.row(callee)[e], &costs[e]);
            add_costs(&named_out_.row(fn)[e], &costs[e]);
        }
        call_obj_.reset();
        call_file_.reset();
        call_fn_name_.reset();
        call_count_.reset();
        has_calls_ = true;
        return;
    }
    last_instr_ = instr;
    last_line_ = line_number;
    const FnId folded = named_[fn].fn;
    uint64_t* row = builder_.line(folded, FileId(file), line32);
    for (size_t e = 0; e < costs.size(); ++e) {
        add_costs(&row[e], &costs[e]);
        add_costs(&named_self_.row(fn)[e], &costs[e]);
        line_totals_[e].add(costs[e]);
    }
    if (has_instr_) {
        uint64_t* irow = builder_.instr(instr, folded, FileId(file), line32);
        for (size_t e = 0; e < costs.size(); ++e)
            add_costs(&irow[e], &costs[e]);
    }
}

// callgrind_annotate --inclusive=yes: the cost of the calls into a function,
// or for one nothing called its self cost plus the cost of its calls out;
// of the function's outermost recursion level in the file, whose calls are
// the ones that entered it while it was not already running.
std::vector<std::vector<uint64_t>> CallgrindReader::inclusive_costs() const
{
    const size_t events = meta_.events.size();
    std::vector<std::vector<uint64_t>> inclusive(folded_functions_);
    std::vector<uint64_t> level(folded_functions_, std::numeric_limits<uint64_t>::max());
    for (size_t n = 0; n < named_.size(); ++n) {
        const NamedFunction& named = named_[n];
        if (named.level >= level[named.fn.index()])
            continue;
        level[named.fn.index()] = named.level;
        std::vector<uint64_t>& costs = inclusive[named.fn.index()];
        costs.assign(events, 0);
        const uint64_t *in = named_in_.row(n), *self = named_self_.row(n),
                       *out = named_out_.row(n);
        for (size_t e = 0; e < events; ++e)
            if (named.called)
                costs[e] = in[e];
            else if (__builtin_add_overflow(self[e], out[e], &costs[e]))
                fail_file("inclusive costs add up to more than 2^64-1");
    }
    return inclusive;
}

// What the file says the costs add up to: totals: (callgrind's sum of its
// cost lines), else summary: (cachegrind's). callgrind's summary: can
// count a little more than its cost lines hold when it simulated caches,
// so it is only the check of a file without totals:.
void CallgrindReader::check_totals(const std::vector<uint64_t>& sums) const
{
    // callgrind ends every part with totals:, cachegrind its file with
    // summary:; without them the file was cut short.
    if (!totals_ && (meta_.tool == "callgrind" || !summary_))
        fail_file(cat("no ", meta_.tool == "cachegrind" ? "summary:" : "totals:",
                      " line: the file is incomplete"));
    const std::optional<std::vector<uint64_t>>& stated = totals_ ? totals_ : summary_;
    const char* key = totals_ ? "totals:" : "summary:";
    for (size_t e = 0; e < sums.size(); ++e)
        if ((*stated)[e] != sums[e])
            fail_file(cat(key, " line says ", meta_.events[e], ' ', (*stated)[e],
                          " but the cost lines add up to ", sums[e]));
}

// meta.cache says what was simulated: the caches when the file describes
// all three and has their events, branches when it has their events.
std::optional<CacheConfig> CallgrindReader::simulated() const
{
    const auto has = [&](const auto& names) {
        return std::all_of(std::begin(names), std::end(names), [&](const char* name) {
            return std::find(meta_.events.begin(), meta_.events.end(), name) !=
                   meta_.events.end();
        });
    };
    static const char* const cache_events[] = {"I1mr", "ILmr", "Dr",   "D1mr",
                                               "DLmr", "Dw",   "D1mw", "DLmw"};
    static const char* const branch_events[] = {"Bc", "Bcm", "Bi", "Bim"};
    CacheConfig c;
    c.branches = has(branch_events);
    if (i1_ && d1_ && ll_ && has(cache_events)) {
        c.i1 = i1_;
        c.d1 = d1_;
        c.ll = ll_;
    }
    if (!c.i1 && !c.branches)
        return std::nullopt;
    return c;
}

// The lines' totals, which cannot pass 2^64-1 (the format's costs are
// 64-bit).
std::vector<uint64_t> CallgrindReader::line_totals() const
{
    std::vector<uint64_t> totals;
    for (size_t e = 0; e < line_totals_.size(); ++e) {
        if (line_totals_[e].overflow)
            fail_file(cat("the ", meta_.events[e], " costs add up to more than 2^64-1"));
        totals.push_back(line_totals_[e].value);
    }
    return totals;
}

// The profile, numbered by the builder as the format orders it so that it
// reads like one the tool wrote. callgrind's own inclusive costs can be
// below a function's self cost (clone, which returns in two threads), so
// such functions are accepted.
Profile CallgrindReader::build()
{
    if (!seen_events_)
        fail_file("no events: line: not a complete callgrind or cachegrind file");
    if (meta_.tool.empty())
        meta_.tool = "cachegrind";  // callgrind always names itself in creator:
    const std::vector<uint64_t> totals = line_totals();
    check_totals(totals);
    meta_.totals = totals;
    const bool call_graph = meta_.tool == "callgrind" || has_calls_;
    builder_.set_call_graph(call_graph);
    if (call_graph) {
        const std::vector<std::vector<uint64_t>> inclusive = inclusive_costs();
        for (size_t f = 0; f < inclusive.size(); ++f)
            std::copy(inclusive[f].begin(), inclusive[f].end(),
                      builder_.inclusive(ProfileBuilder::kWholeProgram, FnId(uint32_t(f))));
    }
    meta_.cache = simulated();
    FinishOptions options;
    options.reject_inclusive_below_self = false;
    return builder_.finish(options);
}

} // namespace vgprof::detail
