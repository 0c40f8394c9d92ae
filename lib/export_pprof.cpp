// SPDX-License-Identifier: GPL-2.0-or-later
// The pprof writer (see export_pprof.hpp): the Profile message of pprof's
// profile.proto in protobuf's wire format (protobuf.hpp), gzipped with zlib
// as pprof writes its own files.
//
// Ids: function i of the profile is pprof function i + 1, and so is the
// location that stands for it in CPU samples (the call-path tree knows
// functions, not addresses); the [truncated] node gets the next function
// and location. Heap frames, which know their address and line, are the
// locations after those. pprof takes the first mapping for the program's
// own: the object of `main` is mapping 1, the others follow in order.
// Data objects come last: object i is both the function and the location
// after the heap frames' (a function of its own, named by its label).
//
// Each CPU sample carries the label "own_function", the innermost function
// of the program's own code on its stack (own_code.hpp), and each heap
// sample "own_frame", its site's own frame with the line: `pprof -tags`
// and `-tagfocus` find a cost spent in library code by the program's code
// that caused it. With per-thread graphs, each CPU sample also carries the
// numeric label "thread", its stack's thread: `pprof -tagfocus thread=2`.
#include "vgprof/export_pprof.hpp"

#include "protobuf.hpp"
#include "vgprof/data.hpp"
#include "vgprof/error.hpp"
#include "vgprof/export_collapsed.hpp"
#include "vgprof/export_dhat.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/own_code.hpp"
#include "vgprof/query.hpp"

#include <zlib.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace vgprof {

namespace {

using detail::ProtoMessage;

// Field numbers of profile.proto.
namespace field {
enum Profile : uint32_t {
    sample_type = 1, sample = 2, mapping = 3, location = 4, function = 5, string_table = 6,
    period_type = 11, period = 12, comment = 13, default_sample_type = 14
};
enum ValueType : uint32_t { type = 1, unit = 2 };
enum Sample : uint32_t { location_id = 1, value = 2, label = 3 };
enum Label : uint32_t { key = 1, str = 2, num = 3 };
enum Mapping : uint32_t {
    mapping_id = 1, mapping_filename = 5, has_functions = 7, has_filenames = 8,
    has_line_numbers = 9
};
enum Location : uint32_t { location_id_ = 1, location_mapping = 2, address = 3, line = 4 };
enum Line : uint32_t { function_id = 1, line_number = 2 };
enum Function : uint32_t { function_id_ = 1, name = 2, system_name = 3, filename = 4, start_line = 5 };
} // namespace field

// The heap's sample types, in order, and the site figure each counts.
struct HeapType {
    const char* type;
    const char* unit;
    uint64_t HeapSite::*figure;
};
const HeapType kHeapTypes[] = {
    {"alloc_objects", "count", &HeapSite::blocks},
    {"alloc_space", "bytes", &HeapSite::bytes},
    {"inuse_objects", "count", &HeapSite::peak_blocks},
    {"inuse_space", "bytes", &HeapSite::peak_bytes},
    {"leaked_objects", "count", &HeapSite::end_blocks},
    {"leaked_space", "bytes", &HeapSite::end_bytes},
};

// The samples' labels naming the program's own code on their stack.
const char* const kOwnFunctionLabel = "own_function";
const char* const kOwnFrameLabel = "own_frame";
// The numeric label of a CPU sample of a profile with per-thread graphs:
// the thread whose stack it is (Valgrind's thread number).
const char* const kThreadLabel = "thread";

class PprofWriter {
public:
    explicit PprofWriter(const Profile& p)
        : p_(p), cpu_(has_call_path_tree(p)), heap_(p.heap()), data_(p.data()),
          truncated_id_(p.functions().size() + 1),
          data_function_id_(truncated_id_ + 1),
          data_location_id_(truncated_id_ + 1 + (heap_ ? heap_->frames.size() : 0)),
          program_(program_object(p))
    {
        strings_.emplace("", 0);
        message_.bytes(field::string_table, "");
    }

    std::string encode()
    {
        check_stack_frames("pprof", stack_frames());
        write_sample_types();
        if (cpu_)
            write_cpu_samples();
        if (heap_)
            write_heap_samples();
        if (data_)
            write_data_samples();
        write_mappings();
        write_functions();
        write_locations();
        write_comments();
        return message_.encoded();
    }

private:
    size_t num_values() const
    {
        return first_data_value() + (data_ ? kDataEvents : 0);
    }

    size_t first_data_value() const
    {
        return (cpu_ ? p_.num_events() : 0) + (heap_ ? std::size(kHeapTypes) : 0);
    }

    // The string's index in the string table, adding it the first time.
    uint64_t str(const std::string& s)
    {
        const auto [it, added] = strings_.emplace(s, strings_.size());
        if (added)
            message_.bytes(field::string_table, s);
        return it->second;
    }

    ProtoMessage value_type(const std::string& type, const std::string& unit)
    {
        ProtoMessage m;
        m.varint(field::type, str(type)).varint(field::unit, str(unit));
        return m;
    }

    void write_sample_types()
    {
        std::vector<ProtoMessage> types;
        if (cpu_)
            for (const std::string& event : p_.meta().events)
                types.push_back(value_type(event, "count"));
        if (heap_)
            for (const HeapType& t : kHeapTypes)
                types.push_back(value_type(t.type, t.unit));
        if (data_)
            for (const char* event : kDataEventNames)
                types.push_back(value_type(std::string("data_") + event, "count"));
        for (const ProtoMessage& t : types)
            message_.message(field::sample_type, t);
        // Costs are counted, not sampled: one event a sample.
        message_.message(field::period_type, types.front()).varint(field::period, 1);
        message_.varint(field::default_sample_type, str(cpu_ ? "Ir" : "inuse_space"));
    }

    // `labels`: (key, value) string labels, and `thread` the numeric label
    // "thread" (0: none), for pprof's -tags and -tagfocus.
    void write_sample(const std::vector<uint64_t>& locations, const std::vector<uint64_t>& values,
                      const std::vector<std::pair<std::string, std::string>>& labels = {},
                      uint32_t thread = 0)
    {
        ProtoMessage s;
        s.packed(field::location_id, locations).packed(field::value, values);
        for (const auto& [key, value] : labels) {
            ProtoMessage l;
            l.varint(field::key, str(key)).varint(field::str, str(value));
            s.message(field::label, l);
        }
        if (thread != 0) {
            ProtoMessage l;
            l.varint(field::key, str(kThreadLabel)).varint(field::num, thread);
            s.message(field::label, l);
        }
        message_.message(field::sample, s);
    }

    // The samples' locations in all: a node's whole path for each node of
    // some cost, a site's frames for each site.
    uint64_t stack_frames() const
    {
        uint64_t frames = 0;
        if (cpu_) {
            const std::vector<uint32_t> depth = path_depths(p_);
            const size_t events = p_.num_events();
            for (size_t node = 0; node < depth.size(); ++node) {
                const uint64_t* self = p_.path_self(node);
                if (std::any_of(self, self + events, [](uint64_t c) { return c != 0; }))
                    frames += depth[node];
            }
        }
        if (heap_)
            for (const HeapSite& site : heap_->sites)
                frames += site.frames.size();
        return frames;
    }

    void write_cpu_samples()
    {
        const size_t events = p_.num_events();
        const std::vector<std::optional<FnId>> own = own_functions_of_paths(p_, OwnCode(p_));
        const std::vector<uint32_t> tids = path_threads(p_);
        std::vector<uint64_t> values(num_values(), 0);
        for (size_t node = 0; node < p_.paths().size(); ++node) {
            const uint64_t* self = p_.path_self(node);
            std::copy(self, self + events, values.begin());
            if (std::all_of(self, self + events, [](uint64_t c) { return c == 0; }))
                continue;
            std::vector<uint64_t> locations;
            for (PathId id : path_from_root(p_, PathId(uint32_t(node)))) {
                const std::optional<FnId> fn = p_.path(id).fn;
                locations.push_back(fn ? fn->index() + 1 : truncated_id_);
            }
            std::reverse(locations.begin(), locations.end());  // leaf first
            std::vector<std::pair<std::string, std::string>> labels;
            if (own[node])
                labels.emplace_back(kOwnFunctionLabel, p_.fn_name(*own[node]));
            write_sample(locations, values, labels, tids[node]);
        }
    }

    void write_heap_samples()
    {
        const size_t first = cpu_ ? p_.num_events() : 0;
        const OwnCode own(p_);
        for (const HeapSite& site : heap_->sites) {
            std::vector<uint64_t> values(num_values(), 0);
            for (size_t t = 0; t < std::size(kHeapTypes); ++t)
                values[first + t] = site.*kHeapTypes[t].figure;
            std::vector<uint64_t> locations;
            for (FrameId f : caller_frames(p_, site))
                locations.push_back(truncated_id_ + 1 + f.index());
            if (const std::optional<FrameId> at = own.own_frame(site))
                write_sample(locations, values, {{kOwnFrameLabel, frame_label(p_, heap_->frame(*at))}});
            else
                write_sample(locations, values);
        }
    }

    // Per data object: its accesses (Dr, Dw: not counted per function) as
    // a sample of the object alone, then each function's misses on it with
    // the function as the object's caller, so that the misses of every
    // data type add up to the object's and the program's.
    void write_data_samples()
    {
        const size_t first = first_data_value();
        for (size_t i = 0; i < data_->objects.size(); ++i) {
            const DataObjId id{uint32_t(i)};
            const DataObject& o = data_->object(id);
            const std::vector<std::pair<std::string, std::string>> labels = {
                {"data_kind", data_kind_name(o.kind)}};
            std::vector<uint64_t> values(num_values(), 0);
            values[first + 0] = o.cost[0];
            values[first + 3] = o.cost[3];
            if (o.cost[0] != 0 || o.cost[3] != 0)
                write_sample({data_location_id_ + i}, values, labels);
            const auto [row, last] = data_->fns_of(id);
            for (size_t r = row; r < last; ++r) {
                const DataFunction& f = data_->fns[r];
                std::fill(values.begin(), values.end(), 0);
                for (size_t e : kDataMissEvents)
                    values[first + e] = f.cost[e];
                write_sample({data_location_id_ + i, f.fn.index() + 1}, values, labels);
            }
        }
    }

    static size_t program_object(const Profile& p)
    {
        for (const Function& f : p.functions())
            if (p.str(f.name) == "main")
                return f.obj.index();
        return 0;
    }

    uint64_t mapping_id(ObjId obj) const
    {
        return obj.index() == program_ ? 1 : obj.index() < program_ ? obj.index() + 2 : obj.index() + 1;
    }

    void write_mappings()
    {
        std::vector<size_t> order{program_};
        for (size_t obj = 0; obj < p_.objs().size(); ++obj)
            if (obj != program_)
                order.push_back(obj);
        for (size_t obj : order) {
            if (obj >= p_.objs().size())
                break;  // a profile without objects
            ProtoMessage m;
            m.varint(field::mapping_id, mapping_id(ObjId(uint32_t(obj))))
                .varint(field::mapping_filename, str(p_.obj_path(ObjId(uint32_t(obj)))))
                .varint(field::has_functions, 1)
                .varint(field::has_filenames, 1)
                .varint(field::has_line_numbers, 1);
            message_.message(field::mapping, m);
        }
    }

    void write_function(uint64_t id, const std::string& name, const std::string& file,
                        uint32_t line, const std::string& system_name = "")
    {
        ProtoMessage f;
        f.varint(field::function_id_, id)
            .varint(field::name, str(name))
            .varint(field::system_name, str(system_name.empty() ? name : system_name))
            .varint(field::filename, str(is_unknown(file) ? "" : file))
            .varint(field::start_line, line);
        message_.message(field::function, f);
    }

    void write_functions()
    {
        for (size_t fn = 0; fn < p_.functions().size(); ++fn) {
            const Function& f = p_.functions()[fn];
            write_function(fn + 1, p_.str(f.name), p_.file_path(f.file), f.line);
        }
        write_function(truncated_id_, kTruncatedFrame, "", 0);
        if (data_)
            for (size_t i = 0; i < data_->objects.size(); ++i)
                write_data_function(DataObjId(uint32_t(i)));
    }

    // Named short, without parentheses, which pprof would take for an
    // argument list and cut: "heap site 3", "global table", "stack"; the
    // system name is the whole label. A heap site is at its allocating
    // call's line.
    void write_data_function(DataObjId id)
    {
        const DataObject& o = data_->object(id);
        const std::string name = (o.kind == DataKind::global ? "global " : "") +
                                 data_object_short_label(p_, id);
        std::string file;
        uint32_t line = 0;
        if (o.kind == DataKind::heap) {
            if (const std::optional<FrameId> at = allocating_frame(p_, heap_->site(*o.site))) {
                const HeapFrame& call = heap_->frame(*at);
                file = p_.file_path(call.file);
                line = call.line;
            }
        }
        write_function(data_function_id_ + id.index(), name, file, line,
                       data_object_label(p_, id));
    }

    void write_location(uint64_t id, std::optional<FnId> fn, uint64_t address, uint32_t line)
    {
        write_location_of(id, fn ? fn->index() + 1 : truncated_id_,
                          fn ? mapping_id(p_.function(*fn).obj) : 0, address, line);
    }

    void write_location_of(uint64_t id, uint64_t function, uint64_t mapping, uint64_t address,
                           uint32_t line)
    {
        ProtoMessage l, at;
        at.varint(field::function_id, function).varint(field::line_number, line);
        l.varint(field::location_id_, id)
            .varint(field::location_mapping, mapping)
            .varint(field::address, address)
            .message(field::line, at);
        message_.message(field::location, l);
    }

    // A global's or an object's data is in that object's mapping, at the
    // symbol's address.
    void write_data_locations()
    {
        for (size_t i = 0; i < data_->objects.size(); ++i) {
            const DataObject& o = data_->objects[i];
            write_location_of(data_location_id_ + i, data_function_id_ + i,
                              o.obj ? mapping_id(*o.obj) : 0, o.addr.value_or(0), 0);
        }
    }

    void write_locations()
    {
        for (size_t fn = 0; fn < p_.functions().size(); ++fn)
            write_location(fn + 1, FnId(uint32_t(fn)), 0, p_.functions()[fn].line);
        write_location(truncated_id_, std::nullopt, 0, 0);
        if (heap_)
            for (size_t f = 0; f < heap_->frames.size(); ++f) {
                const HeapFrame& frame = heap_->frames[f];
                write_location(truncated_id_ + 1 + f, frame.fn, frame.addr, frame.line);
            }
        if (data_)
            write_data_locations();
    }

    void write_comments()
    {
        message_.varint(field::comment, str("vgprof profile of: " + command_text(p_)));
        if (heap_) {
            const HeapTotals& t = heap_->totals;
            message_.varint(field::comment,
                            str("inuse_*: live at the heap's peak (t-gmax), instruction " +
                                std::to_string(t.peak_time) +
                                "; leaked_*: still live at the end (t-end), instruction " +
                                std::to_string(t.end_time)));
        }
        if (data_)
            message_.varint(field::comment,
                            str("data_*: every data access and cache miss booked to the data "
                                "object it touched (the leaf) and, for misses, to the function "
                                "that missed (its caller); accesses have no function"));
    }

    const Profile& p_;
    const bool cpu_;
    const Heap* heap_;
    const DataProfile* data_;
    const uint64_t truncated_id_;
    const uint64_t data_function_id_;  // of data object 0
    const uint64_t data_location_id_;  // of data object 0
    const size_t program_;  // the object pprof names the profile after
    std::unordered_map<std::string, uint64_t> strings_;
    ProtoMessage message_;
};

// As the gzip command compresses, with no file name and no time in the
// header, so the same profile gives the same bytes.
std::string gzipped(const std::string& data)
{
    z_stream s{};
    if (deflateInit2(&s, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw Error("cannot compress the pprof profile: out of memory");
    std::string out(deflateBound(&s, uLong(data.size())), '\0');
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    s.avail_in = uInt(data.size());
    s.next_out = reinterpret_cast<Bytef*>(out.data());
    s.avail_out = uInt(out.size());
    const int status = deflate(&s, Z_FINISH);
    out.resize(s.total_out);
    deflateEnd(&s);
    if (status != Z_STREAM_END)
        throw Error("cannot compress the pprof profile");
    return out;
}

} // namespace

void write_pprof(std::ostream& out, const Profile& profile)
{
    require_tree_or_heap(profile, "pprof");
    out << gzipped(PprofWriter(profile).encode());
}

} // namespace vgprof
