// SPDX-License-Identifier: GPL-2.0-or-later
// Which data the program's accesses and cache misses touched (the profile's
// `data` section, format version 7): the data objects (a heap allocation
// site, a global, an object's unnamed data, the stack, the allocator's own
// bookkeeping, the rest), their counts per offset, and the functions that
// missed on each; and the questions the report, annotate, diff, the exports
// and the viewer ask of them.
#ifndef VGPROF_DATA_HPP
#define VGPROF_DATA_HPP

#include "vgprof/ids.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vgprof {

class Profile;

// The events of a data cost, in this order: reads, and those that missed
// D1 and LL; writes, likewise. A read-modify-write counts as one read, as
// in cachegrind.
inline constexpr size_t kDataEvents = 6;
inline constexpr const char* kDataEventNames[kDataEvents] = {"Dr", "D1mr", "DLmr",
                                                             "Dw", "D1mw", "DLmw"};
using DataCost = std::array<uint64_t, kDataEvents>;
// The misses among them (D1mr, DLmr, D1mw, DLmw): what is counted per
// function, in the columns of a `data.fns` row.
inline constexpr size_t kDataMissEvents[] = {1, 2, 4, 5};

// The position of `event` in a DataCost; nullopt for any other event.
std::optional<size_t> data_event_index(std::string_view event);

enum class DataKind {
    heap,       // the blocks of an allocation site
    global,     // a data symbol (a global or static variable) of an object
    unnamed,    // an object's data outside any symbol, by section
    stack,      // any thread's stack
    allocator,  // whatever the allocator touched while inside one of its calls
    other,      // the rest: anonymous mappings, thread-local storage...
};

// "heap", "global", ...: as the profile names the kind.
const char* data_kind_name(DataKind kind);
std::optional<DataKind> data_kind_named(std::string_view name);

// The most offset buckets an object is counted in (the tool widens them to
// stay within it), and the largest object: readers can allocate a row per
// bucket and add a bucket's width to an offset without overflow.
inline constexpr uint64_t kMaxDataBuckets = 4096;
inline constexpr uint64_t kMaxDataObjectBytes = uint64_t(1) << 56;

// Buckets of `width` bytes covering `size` bytes (width nonzero).
inline uint64_t data_bucket_count(uint64_t size, uint64_t width)
{
    return size / width + (size % width != 0);
}

// A row of `data.objects`.
struct DataObject {
    DataKind kind = DataKind::other;
    std::optional<SiteId> site;   // heap
    std::optional<StrId> name;    // global: the symbol; unnamed: the section
    std::optional<ObjId> obj;     // global, unnamed: the object (or mapped file)
    std::optional<uint64_t> addr; // global: the symbol's address
    uint64_t size = 0;            // heap, global: bytes the offsets cover
    uint64_t width = 0;           // heap, global: bytes per offset bucket; 0: no offsets
    DataCost cost{};              // every access to it
};

// A row of `data.offsets`: one bucket of an object's offsets.
struct DataOffset {
    DataObjId object;
    uint64_t offset = 0;   // of the bucket's first byte
    DataCost cost{};
};

// A row of `data.fns`: the misses of one function's instructions on one
// object. Accesses are not counted per function (it would slow every
// access down): Dr and Dw are zero.
struct DataFunction {
    DataObjId object;
    FnId fn;
    DataCost cost{};
};

// The `data` section. Offsets and functions are sorted by (object, offset)
// and (object, fn): an object's rows are contiguous.
struct DataProfile {
    std::vector<DataObject> objects;
    std::vector<DataOffset> offsets;
    std::vector<DataFunction> fns;

    const DataObject& object(DataObjId id) const { return objects[id.index()]; }
    // The rows of one object: [first, last) indices into offsets / fns.
    std::pair<size_t, size_t> offsets_of(DataObjId id) const;
    std::pair<size_t, size_t> fns_of(DataObjId id) const;
};

// "D1mr/Dr": a data miss event's rate over the accesses it counts, as a
// fraction; nullopt for Dr and Dw, and when there were no accesses.
std::optional<double> data_miss_rate(const DataCost& cost, size_t event);

// The objects in descending order of `event` (a DataCost index), ties by
// kind, then as the profile lists them.
std::vector<DataObjId> data_objects_by(const DataProfile& data, size_t event);

// The objects `fn` missed on, with its misses on each, in descending order
// of `event`.
std::vector<DataFunction> data_of_function(const DataProfile& data, FnId fn, size_t event);

// The functions that missed on `object`, in descending order of `event`.
std::vector<DataFunction> functions_of_data(const DataProfile& data, DataObjId object,
                                            size_t event);

// "heap site #3 (2,097,152 bytes): malloc < make_array (app.c:40) < main (app.c:98)",
// "global table [/usr/bin/app]", "unnamed .got [/lib/libc.so.6]", "stack",
// "allocator", "other": an object as a person reads it.
std::string data_object_label(const Profile& profile, DataObjId id);
// The short form: "heap site #3", "table", ".got of libc.so.6", "stack"...
std::string data_object_short_label(const Profile& profile, DataObjId id);

// What identifies an object across two profiles of the same program: the
// kind and, for a heap site, its stack (function, file and line of each
// frame); for a global, its object's path and name; for unnamed data, its
// object's path and section. A name LLVM made unique with hashes that
// change from build to build (stable_symbol_stem) is matched by its stem
// and the object's size.
std::string data_object_key(const Profile& profile, DataObjId id);

// A data symbol's name without the hashes LLVM adds to make a local
// symbol unique, which change whenever the crate's or unit's hash does:
// "anon.<hex>.<n>" (rustc's anonymous constants) -> "anon.<n>", and a
// ".llvm.<digits>" ending (a local promoted across codegen units or by
// ThinLTO) dropped. nullopt for a name without them.
std::optional<std::string> stable_symbol_stem(std::string_view name);

// The objects whose label names `spec`: "site:N" (heap site N), "stack",
// "allocator", "other", or a global's name (exact, else a part of exactly
// one). Throws vgprof::Error when none matches or several do.
DataObjId find_data_object(const Profile& profile, std::string_view spec);

// `cost` as a cost of the profile's events (one entry per meta.events, the
// events other than the data events zero), for what lays out event costs.
std::vector<uint64_t> event_costs(const Profile& profile, const DataCost& cost);

// The objects' costs summed: the program's data events.
DataCost data_total(const DataProfile& data);

} // namespace vgprof

#endif
