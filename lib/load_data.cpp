// SPDX-License-Identifier: GPL-2.0-or-later
// The `data` section's reader: every row checked against the tables it
// refers to, and the counts checked to add up (the objects to meta.totals,
// each object's offsets to the object, and its functions' misses to its
// misses, each function's misses to its lines'), so that a reader can
// trust that the data objects account for every access exactly once.
#include "load_data.hpp"

#include "loader.hpp"
#include "text.hpp"
#include "vgprof/error.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <optional>
#include <tuple>

namespace json = boost::json;

namespace vgprof::detail {

namespace {

// A place in the section, rendered only for a message: "data.objects[3][1]".
struct Place {
    const char* table = nullptr;  // nullptr: the section itself
    std::optional<size_t> row, column;

    Place() = default;
    explicit Place(const char* t, std::optional<size_t> r = std::nullopt,
                   std::optional<size_t> c = std::nullopt)
        : table(t), row(r), column(c)
    {
    }
    Place at(size_t c) const { return Place(table, row, c); }
    std::string str() const
    {
        std::string s = table ? cat("data.", table) : std::string("data");
        if (row)
            s += cat('[', *row, ']');
        if (column)
            s += cat('[', *column, ']');
        return s;
    }
};

class SectionReader {
public:
    explicit SectionReader(const DataSectionContext& c) : c_(c) {}

    DataProfile read(const json::value& v);

private:
    [[noreturn]] void fail(const Place& at, const std::string& message) const
    {
        throw Error(cat(c_.file, ": ", at.str(), ": ", message));
    }

    const json::array& array_at(const json::value& v, const Place& at) const;
    uint64_t uint_at(const json::value& v, const Place& at) const;
    template <typename Id>
    std::optional<Id> id_or_null(const json::value& v, const Place& at, size_t size,
                                 const char* table) const;
    DataCost cost_at(const json::array& row, size_t first, const Place& at) const;
    const json::array& row_at(const json::array& rows, size_t i, const char* table,
                              size_t length, const char* columns) const;

    void check_events(const json::value& v) const;
    void read_objects(const json::array& rows, DataProfile& out) const;
    DataObject object_at(const json::array& row, const Place& at) const;
    void check_fields(const DataObject& o, const json::array& row, const Place& at) const;
    void check_unique(const std::vector<DataObject>& objects) const;
    void read_offsets(const json::array& rows, DataProfile& out) const;
    void read_fns(const json::array& rows, DataProfile& out) const;
    void check_function_sums(const DataProfile& out) const;
    template <typename Events>
    void check_sum(const DataCost& sum, const DataCost& expected, const Place& at,
                   const std::string& what, const std::string& of, const Events& events) const;

    const DataSectionContext& c_;
};

// "a heap object", "an unnamed object".
std::string object_of_kind(DataKind kind)
{
    const std::string name = data_kind_name(kind);
    return cat(std::string("aeiou").find(name[0]) == std::string::npos ? "a " : "an ", name,
               " object");
}

const char* const kObjectColumns =
    "[kind, site, name, obj, addr, size, width, Dr, D1mr, DLmr, Dw, D1mw, DLmw]";
const char* const kOffsetColumns = "[object, offset, Dr, D1mr, DLmr, Dw, D1mw, DLmw]";
const char* const kFnColumns = "[object, fn, D1mr, DLmr, D1mw, DLmw]";
const size_t kAllEvents[] = {0, 1, 2, 3, 4, 5};

const json::array& SectionReader::array_at(const json::value& v, const Place& at) const
{
    if (!v.is_array())
        fail(at, cat("expected an array, got ", v.is_object() ? "an object" : "a scalar"));
    return v.get_array();
}

uint64_t SectionReader::uint_at(const json::value& v, const Place& at) const
{
    if (v.is_uint64())
        return v.get_uint64();
    if (v.is_int64() && v.get_int64() >= 0)
        return uint64_t(v.get_int64());
    fail(at, cat("expected a non-negative integer, got ", json::serialize(v).substr(0, 40)));
}

template <typename Id>
std::optional<Id> SectionReader::id_or_null(const json::value& v, const Place& at, size_t size,
                                            const char* table) const
{
    if (v.is_null())
        return std::nullopt;
    const uint64_t n = uint_at(v, at);
    if (n >= size)
        fail(at, cat(table, " id ", n, " out of range (", size, " rows)"));
    return Id(uint32_t(n));
}

DataCost SectionReader::cost_at(const json::array& row, size_t first, const Place& at) const
{
    DataCost cost{};
    for (size_t e = 0; e < kDataEvents; ++e)
        cost[e] = uint_at(row[first + e], at.at(first + e));
    return cost;
}

const json::array& SectionReader::row_at(const json::array& rows, size_t i, const char* table,
                                         size_t length, const char* columns) const
{
    const Place at{table, i};
    const json::array& row = array_at(rows[i], at);
    if (row.size() != length)
        fail(at, cat("expected ", length, " entries ", columns, ", got ", row.size()));
    return row;
}

void SectionReader::check_events(const json::value& v) const
{
    const Place at{"events"};
    const json::array& a = array_at(v, at);
    bool same = a.size() == kDataEvents;
    for (size_t e = 0; same && e < kDataEvents; ++e)
        same = a[e].is_string() && a[e].get_string() == kDataEventNames[e];
    if (!same)
        fail(at, "expected [\"Dr\",\"D1mr\",\"DLmr\",\"Dw\",\"D1mw\",\"DLmw\"]");
}

DataObject SectionReader::object_at(const json::array& row, const Place& at) const
{
    DataObject o;
    const Place kind = at.at(0);
    const std::optional<DataKind> k =
        row[0].is_string() ? data_kind_named(std::string_view(row[0].get_string())) : std::nullopt;
    if (!k)
        fail(kind, "expected one of \"heap\", \"global\", \"unnamed\", \"stack\", \"allocator\", "
                   "\"other\"");
    o.kind = *k;
    o.site = id_or_null<SiteId>(row[1], at.at(1), c_.sites, "heap site");
    o.name = id_or_null<StrId>(row[2], at.at(2), c_.strs, "strs");
    o.obj = id_or_null<ObjId>(row[3], at.at(3), c_.objs, "objs");
    if (!row[4].is_null())
        o.addr = uint_at(row[4], at.at(4));
    o.size = uint_at(row[5], at.at(5));
    o.width = uint_at(row[6], at.at(6));
    o.cost = cost_at(row, 7, at);
    check_fields(o, row, at);
    return o;
}

// Which columns each kind fills, and the offsets only for heap and global.
void SectionReader::check_fields(const DataObject& o, const json::array& row,
                                 const Place& at) const
{
    const bool heap = o.kind == DataKind::heap, global = o.kind == DataKind::global,
               unnamed = o.kind == DataKind::unnamed;
    const struct {
        size_t column;
        bool present, wanted;
        const char* what;
    } fields[] = {{1, bool(o.site), heap, "a heap site id"},
                  {2, bool(o.name), global || unnamed, "a strs id (the symbol or section)"},
                  {3, bool(o.obj), global || unnamed, "an objs id"},
                  {4, bool(o.addr), global, "the symbol's address"}};
    for (const auto& f : fields)
        if (f.present != f.wanted)
            fail(at.at(f.column), f.wanted ? cat("expected ", f.what, " for ",
                                                 object_of_kind(o.kind), ", got null")
                                           : cat("expected null for ", object_of_kind(o.kind),
                                                 ", got ",
                                                 json::serialize(row[f.column]).substr(0, 40)));
    if (heap || global) {
        if (o.size == 0)
            fail(at.at(5), "an object with offsets covers at least 1 byte");
        if (o.size > kMaxDataObjectBytes)
            fail(at.at(5), cat("an object of ", o.size, " bytes, more than an address space "
                               "holds (2^56)"));
        if (o.width < 8 || (o.width & (o.width - 1)) != 0)
            fail(at.at(6), cat("expected a power of two of at least 8 bytes, got ", o.width));
        // Readers allocate a row per bucket: the tool never makes more.
        if (const uint64_t buckets = data_bucket_count(o.size, o.width);
            buckets > kMaxDataBuckets)
            fail(at.at(6), cat("buckets of ", o.width, " bytes make ", buckets, " of the object's ",
                               o.size, " bytes, more than the ", kMaxDataBuckets,
                               " an object is counted in"));
    } else if (o.size != 0 || o.width != 0) {
        fail(at.at(o.size != 0 ? 5 : 6),
             cat("expected 0: ", object_of_kind(o.kind), " has no offsets"));
    }
}

// One object per heap site and per fixed kind, one per global and per
// object section.
void SectionReader::check_unique(const std::vector<DataObject>& objects) const
{
    const auto key = [](const DataObject& o) {
        return std::make_tuple(int(o.kind), o.site ? o.site->value : 0, o.name ? o.name->value : 0,
                               o.obj ? o.obj->value : 0, o.addr.value_or(0));
    };
    std::vector<std::pair<decltype(key(objects[0])), size_t>> keys;
    for (size_t i = 0; i < objects.size(); ++i)
        keys.emplace_back(key(objects[i]), i);
    std::sort(keys.begin(), keys.end());
    for (size_t i = 1; i < keys.size(); ++i)
        if (keys[i].first == keys[i - 1].first)
            fail(Place{"objects", std::max(keys[i].second, keys[i - 1].second)},
                 cat("the same data object as data.objects[",
                     std::min(keys[i].second, keys[i - 1].second), "]"));
}

template <typename Events>
void SectionReader::check_sum(const DataCost& sum, const DataCost& expected, const Place& at,
                              const std::string& what, const std::string& of,
                              const Events& events) const
{
    for (const size_t e : events)
        if (sum[e] != expected[e])
            fail(at, cat(what, " add up to ", sum[e], ' ', kDataEventNames[e], " but ", of, ' ',
                         expected[e]));
}

void SectionReader::read_objects(const json::array& rows, DataProfile& out) const
{
    DataCost sum{};
    for (size_t i = 0; i < rows.size(); ++i) {
        const DataObject o = object_at(row_at(rows, i, "objects", 7 + kDataEvents, kObjectColumns),
                                       Place{"objects", i});
        for (size_t e = 0; e < kDataEvents; ++e)
            if (__builtin_add_overflow(sum[e], o.cost[e], &sum[e]))
                fail(Place{"objects", i}, "the objects' counts add up to more than 2^64-1");
        out.objects.push_back(o);
    }
    if (!out.objects.empty())
        check_unique(out.objects);
    check_sum(sum, c_.totals, Place{"objects"}, "the objects' counts", "meta.totals has",
              kAllEvents);
}

void SectionReader::read_offsets(const json::array& rows, DataProfile& out) const
{
    std::vector<DataCost> sums(out.objects.size(), DataCost{});
    for (size_t i = 0; i < rows.size(); ++i) {
        const Place at{"offsets", i};
        const json::array& row = row_at(rows, i, "offsets", 2 + kDataEvents, kOffsetColumns);
        DataOffset r;
        r.object = *id_or_null<DataObjId>(row[0], at.at(0), out.objects.size(), "data object");
        r.offset = uint_at(row[1], at.at(1));
        r.cost = cost_at(row, 2, at);
        const DataObject& o = out.object(r.object);
        if (o.width == 0)
            fail(at.at(0), cat(object_of_kind(o.kind), " has no offsets"));
        if (r.offset % o.width != 0 || r.offset >= o.size)
            fail(at.at(1), cat("offset ", r.offset, " is not the start of a bucket of ", o.width,
                               " bytes within the object's ", o.size));
        if (!out.offsets.empty() && std::tie(r.object, r.offset) <=
                                        std::tie(out.offsets.back().object, out.offsets.back().offset))
            fail(at, "rows must be sorted by (object, offset), each once");
        for (size_t e = 0; e < kDataEvents; ++e)
            sums[r.object.index()][e] += r.cost[e];
        out.offsets.push_back(r);
    }
    for (size_t i = 0; i < out.objects.size(); ++i)
        if (out.objects[i].width != 0)
            check_sum(sums[i], out.objects[i].cost, Place{"objects", i},
                      "the object's offsets", "the object has", kAllEvents);
}

void SectionReader::read_fns(const json::array& rows, DataProfile& out) const
{
    std::vector<DataCost> sums(out.objects.size(), DataCost{});
    for (size_t i = 0; i < rows.size(); ++i) {
        const Place at{"fns", i};
        const json::array& row = row_at(rows, i, "fns", 2 + std::size(kDataMissEvents), kFnColumns);
        DataFunction r;
        r.object = *id_or_null<DataObjId>(row[0], at.at(0), out.objects.size(), "data object");
        r.fn = *id_or_null<FnId>(row[1], at.at(1), c_.fns, "fns");
        for (size_t m = 0; m < std::size(kDataMissEvents); ++m)
            r.cost[kDataMissEvents[m]] = uint_at(row[2 + m], at.at(2 + m));
        if (!out.fns.empty() &&
            std::tie(r.object, r.fn) <= std::tie(out.fns.back().object, out.fns.back().fn))
            fail(at, "rows must be sorted by (object, fn), each once");
        for (size_t e = 0; e < kDataEvents; ++e)
            sums[r.object.index()][e] += r.cost[e];
        out.fns.push_back(r);
    }
    for (size_t i = 0; i < out.objects.size(); ++i)
        check_sum(sums[i], out.objects[i].cost, Place{"objects", i}, "the functions' misses",
                  "the object has", kDataMissEvents);
    check_function_sums(out);
}

// What a function missed on all the objects is what its lines missed.
void SectionReader::check_function_sums(const DataProfile& out) const
{
    std::vector<DataCost> sums(c_.fns, DataCost{});
    for (const DataFunction& r : out.fns)
        for (size_t e = 0; e < kDataEvents; ++e)
            sums[r.fn.index()][e] += r.cost[e];
    for (size_t fn = 0; fn < c_.fns && fn < c_.fn_lines.size(); ++fn)
        check_sum(sums[fn], c_.fn_lines[fn], Place("fns"), cat("the rows of function ", fn),
                  "its lines have", kDataMissEvents);
}

DataProfile SectionReader::read(const json::value& v)
{
    const Place section;
    if (!v.is_object())
        fail(section, "expected an object");
    const json::object& o = v.get_object();
    for (const char* key : {"events", "objects", "offsets", "fns"})
        if (!o.contains(key))
            fail(section, cat("missing \"", key, '"'));
    for (const auto& member : o)
        if (member.key() != "events" && member.key() != "objects" && member.key() != "offsets" &&
            member.key() != "fns")
            fail(section, cat("unknown key ", quote(std::string_view(member.key()))));
    check_events(o.at("events"));
    DataProfile out;
    read_objects(array_at(o.at("objects"), Place{"objects"}), out);
    read_offsets(array_at(o.at("offsets"), Place{"offsets"}), out);
    read_fns(array_at(o.at("fns"), Place{"fns"}), out);
    return out;
}

} // namespace

DataProfile read_data_section(const json::value& v, const DataSectionContext& context)
{
    return SectionReader(context).read(v);
}

// The section's own reader (above) checks it against the tables; the
// loader only gives it what it refers to: the heap's sites and the
// simulated data events.
void Loader::load_data(const json::value& v, const Where& at)
{
    if (!p_.heap)
        fail(at, "the data section needs the heap section, whose sites it refers to");
    DataSectionContext context;
    context.file = name_;
    context.strs = p_.strs.size();
    context.objs = p_.objs.size();
    context.fns = p_.functions.size();
    context.sites = p_.heap->sites.size();
    const size_t events = p_.num_events();
    size_t column[kDataEvents];
    for (size_t e = 0; e < kDataEvents; ++e) {
        const auto found = std::find(p_.meta.events.begin(), p_.meta.events.end(),
                                     kDataEventNames[e]);
        if (found == p_.meta.events.end())
            fail(at, cat("the data section needs the event ", kDataEventNames[e],
                         " in meta.events (the cache simulated)"));
        column[e] = size_t(found - p_.meta.events.begin());
        context.totals[e] = p_.meta.totals[column[e]];
    }
    context.fn_lines.assign(p_.functions.size(), DataCost{});
    for (size_t row = 0; row < p_.lines.size(); ++row)
        for (size_t e = 0; e < kDataEvents; ++e)
            context.fn_lines[p_.lines[row].fn.index()][e] +=
                p_.line_costs[row * events + column[e]];
    p_.data = read_data_section(v, context);
}

} // namespace vgprof::detail
