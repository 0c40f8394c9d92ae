// SPDX-License-Identifier: GPL-2.0-or-later
// A DHAT file has no instruction costs: the profile read from it has one
// event, Ir, with no cost anywhere, and a heap. Frames are DHAT's text
// ("0x10A1C4: main (app.c:42)", "0x4848F5: malloc (in /usr/lib/x.so)"),
// split back into address, function, file or object, and line. DHAT's
// figures go where the heap section puts vgprof's; the peak's and the
// end's times are DHAT's tg and te, and the timeline has those two points.
#include "dhat.hpp"
#include "json_stream.hpp"
#include "profile_checks.hpp"
#include "text.hpp"

#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/profile_builder.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

namespace vgprof::detail {

namespace {

// A frame's text taken apart.
struct FrameText {
    uint64_t addr = 0;
    std::string fn, file, obj;
    uint32_t line = 0;
};

bool parse_frame(const std::string& text, FrameText& f)
{
    const size_t colon = text.find(": ");
    if (text.rfind("0x", 0) != 0 || colon == std::string::npos)
        return false;
    try {
        size_t used = 0;
        f.addr = std::stoull(text.substr(2, colon - 2), &used, 16);
        if (used != colon - 2)
            return false;
    } catch (const std::exception&) {
        return false;
    }
    std::string rest = text.substr(colon + 2);
    f.fn = rest;
    // The place is the last parenthesis: function names (C++) have their own.
    const size_t open = rest.rfind(" (");
    if (open == std::string::npos || rest.back() != ')')
        return true;
    const std::string place = rest.substr(open + 2, rest.size() - open - 3);
    f.fn = rest.substr(0, open);
    if (place.rfind("in ", 0) == 0) {
        f.obj = place.substr(3);
        return true;
    }
    const size_t sep = place.rfind(':');
    if (sep == std::string::npos || sep + 1 == place.size() ||
        !std::all_of(place.begin() + long(sep) + 1, place.end(),
                     [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    f.file = place.substr(0, sep);
    if (place.size() - sep - 1 > 9)
        return false;   // no line number has ten digits
    f.line = uint32_t(std::stoul(place.substr(sep + 1)));
    return true;
}

} // namespace

class DhatReader {
public:
    DhatReader(const std::string& name, uint64_t max_string)
        : name_(name), max_string_(max_string),
          builder_(name, ProfileBuilder::Numbering::as_added)
    {
    }
    Profile read(Input& input);

private:
    [[noreturn]] void fail(const std::string& where, const std::string& what) const
    {
        throw Error(where.empty() ? cat(name_, ": ", what) : cat(name_, ": ", where, ": ", what));
    }
    const json::value& member(const json::object& o, const char* key, const std::string& at) const;
    uint64_t uint_member(const json::object& o, const char* key, const std::string& at) const;
    FrameId frame_id(uint64_t ftbl_index, const json::array& ftbl, const std::string& at);
    std::vector<uint32_t> accesses(const json::value& v, const std::string& at) const;

    json::value parse(Input& input) const;

    const std::string& name_;
    const uint64_t max_string_;  // LoadLimits::max_string
    // DHAT's own order is kept: sites in the order of its program points,
    // frames, functions and strings in the order first used.
    ProfileBuilder builder_;
    Heap heap_;
    std::map<uint64_t, FrameId> frames_;                                 // ftbl index -> row
};

const json::value& DhatReader::member(const json::object& o, const char* key,
                                      const std::string& at) const
{
    const json::value* v = o.if_contains(key);
    if (v == nullptr)
        fail(at, cat("missing required key \"", key, '"'));
    return *v;
}

uint64_t DhatReader::uint_member(const json::object& o, const char* key,
                                 const std::string& at) const
{
    const json::value& v = member(o, key, at);
    if (v.is_uint64())
        return v.get_uint64();
    if (v.is_int64() && v.get_int64() >= 0)
        return uint64_t(v.get_int64());
    fail(at.empty() ? std::string(key) : cat(at, '.', key), "expected a non-negative integer");
}

FrameId DhatReader::frame_id(uint64_t index, const json::array& ftbl, const std::string& at)
{
    if (const auto it = frames_.find(index); it != frames_.end())
        return it->second;
    if (index >= ftbl.size())
        fail(at, cat("frame ", index, " out of range (", ftbl.size(), " in ftbl)"));
    if (!ftbl[index].is_string())
        fail(cat("ftbl[", index, "]"), "expected a string");
    const std::string text(ftbl[index].get_string());
    FrameText f;
    if (!parse_frame(text, f))
        fail(cat("ftbl[", index, "]"), cat("not a frame of the form \"0xADDR: function "
                                           "(file:line)\": ", quote(text)));
    const StrId unknown = builder_.str(kUnknown);
    const StrId name = f.fn.empty() ? unknown : builder_.str(f.fn);
    const StrId file_str = f.file.empty() ? unknown : builder_.str(f.file);
    const StrId obj_str = f.obj.empty() ? unknown : builder_.str(f.obj);
    const FileId file = builder_.file(file_str);
    const ObjId obj = builder_.object(obj_str);
    HeapFrame frame{f.addr, builder_.function(name, file, obj, 0), file, f.line};
    const FrameId id(uint32_t(heap_.frames.size()));
    heap_.frames.push_back(frame);
    frames_.emplace(index, id);
    return id;
}

// DHAT's run-length form: -N followed by a count is N offsets of it.
std::vector<uint32_t> DhatReader::accesses(const json::value& v, const std::string& at) const
{
    std::vector<uint32_t> out;
    if (!v.is_array())
        fail(at, "expected an array");
    const json::array& a = v.get_array();
    for (size_t i = 0; i < a.size(); ++i) {
        if (!a[i].is_int64() && !a[i].is_uint64())
            fail(cat(at, '[', i, ']'), "expected an integer");
        const int64_t x = a[i].is_uint64() ? int64_t(std::min<uint64_t>(a[i].get_uint64(), INT64_MAX))
                                           : a[i].get_int64();
        uint64_t run = 1, value = uint64_t(x);
        if (x < 0) {
            if (x < -1024)
                fail(cat(at, '[', i, ']'), "a run of more than 1024 offsets");
            if (i + 1 == a.size() || !a[i + 1].is_int64() || a[i + 1].get_int64() < 0)
                fail(cat(at, '[', i, ']'), "a run length not followed by a count");
            run = uint64_t(-x);
            value = uint64_t(a[++i].get_int64());
        }
        if (run > 1024 - out.size() || value > UINT32_MAX)
            fail(at, "more than 1024 offsets, or a count out of range");
        out.insert(out.end(), size_t(run), uint32_t(value));
    }
    return out;
}

// The document, parsed a chunk at a time as it is read.
json::value DhatReader::parse(Input& input) const
{
    json::basic_parser<BoundedDocument> parser(json::parse_options{}, max_string_);
    TextPosition position;
    const StreamEnd end = parse_stream(parser, input, position);
    if (end.trailing_data)
        fail("", "invalid JSON: unexpected data after the end of the document");
    if (parser.handler().too_long())
        fail("", longer_than("a string", max_string_));
    if (end.ec)
        fail("", cat("invalid JSON: ", end.ec.message()));
    return parser.handler().release();
}

Profile DhatReader::read(Input& input)
{
    const json::value doc = parse(input);
    if (!doc.is_object())
        fail("", "not a DHAT file (expected an object)");
    const json::object& o = doc.get_object();
    if (uint_member(o, "dhatFileVersion", "") != 2)
        fail("dhatFileVersion", "only version 2 is read");
    const json::value& mode = member(o, "mode", "");
    if (!mode.is_string() || mode.get_string() != "heap")
        fail("mode", "only DHAT's heap mode has heap data (not copy or ad-hoc)");

    Meta& m = builder_.meta();
    m.tool = "dhat";
    builder_.add_event("Ir");
    m.totals = {0};
    if (const json::value* cmd = o.if_contains("cmd"); cmd && cmd->is_string()) {
        std::istringstream words{std::string(cmd->get_string())};
        for (std::string w; words >> w;)
            m.argv.push_back(w);
    }
    if (const json::value* pid = o.if_contains("pid"); pid && pid->is_int64())
        m.pid = pid->get_int64();

    HeapTotals& t = heap_.totals;
    t.end_time = uint_member(o, "te", "");
    t.peak_time = uint_member(o, "tg", "");
    if (t.peak_time > t.end_time)
        fail("tg", "the peak comes after the end (te)");
    const json::value& ftbl_v = member(o, "ftbl", "");
    const json::value& pps_v = member(o, "pps", "");
    if (!ftbl_v.is_array() || !pps_v.is_array())
        fail("", "\"pps\" and \"ftbl\" must be arrays");
    const json::array& ftbl = ftbl_v.get_array();
    const json::array& pps = pps_v.get_array();
    for (size_t i = 0; i < pps.size(); ++i) {
        const std::string at = cat("pps[", i, ']');
        if (!pps[i].is_object())
            fail(at, "expected an object");
        const json::object& pp = pps[i].get_object();
        HeapSite s;
        s.bytes = uint_member(pp, "tb", at);
        s.blocks = uint_member(pp, "tbk", at);
        s.lifetimes = uint_member(pp, "tl", at);
        s.peak_bytes = uint_member(pp, "gb", at);
        s.peak_blocks = uint_member(pp, "gbk", at);
        s.end_bytes = uint_member(pp, "eb", at);
        s.end_blocks = uint_member(pp, "ebk", at);
        s.reads = uint_member(pp, "rb", at);
        s.writes = uint_member(pp, "wb", at);
        // DHAT updates a site's maximum only when the whole program reaches
        // a new peak, so its "mb" can be below what the site had live at
        // t-gmax or t-end; those are live figures too.
        s.max_bytes = std::max({uint_member(pp, "mb", at), s.peak_bytes, s.end_bytes});
        s.max_blocks = std::max({uint_member(pp, "mbk", at), s.peak_blocks, s.end_blocks});
        if (s.max_bytes > s.bytes || s.end_blocks > s.blocks)
            fail(at, "more live than was ever allocated");
        if (const json::value* acc = pp.if_contains("acc"))
            s.accesses = accesses(*acc, at + ".acc");
        const json::value& fs = member(pp, "fs", at);
        if (!fs.is_array() || fs.get_array().empty())
            fail(at + ".fs", "expected a non-empty array of frame numbers");
        if (fs.get_array().size() > detail::kMaxSiteFrames)
            fail(at + ".fs", cat(fs.get_array().size(), " frames, more than the ",
                                 detail::kMaxSiteFrames, " of an allocation stack vgprof reads"));
        for (const json::value& f : fs.get_array()) {
            if (!f.is_int64() || f.get_int64() <= 0)
                fail(at + ".fs", "expected frame numbers (1 and up: 0 is [root])");
            s.frames.push_back(frame_id(uint64_t(f.get_int64()), ftbl, at + ".fs"));
        }
        heap_.depth = std::max(heap_.depth, uint32_t(s.frames.size()));
        t.bytes += s.bytes;  t.blocks += s.blocks;
        t.peak_bytes += s.peak_bytes;  t.peak_blocks += s.peak_blocks;
        t.end_bytes += s.end_bytes;  t.end_blocks += s.end_blocks;
        t.reads += s.reads;  t.writes += s.writes;
        heap_.sites.push_back(std::move(s));
    }
    heap_.depth = std::max(heap_.depth, 1u);
    heap_.sample_width = 1;
    heap_.samples = {{t.peak_time, t.peak_bytes, t.peak_blocks},
                     {t.end_time, t.end_bytes, t.end_blocks}};
    for (const auto kind : {HeapSnapshot::Kind::peak, HeapSnapshot::Kind::end}) {
        const bool peak = kind == HeapSnapshot::Kind::peak;
        HeapSnapshot sn;
        sn.kind = kind;
        sn.time = peak ? t.peak_time : t.end_time;
        sn.bytes = peak ? t.peak_bytes : t.end_bytes;
        sn.blocks = peak ? t.peak_blocks : t.end_blocks;
        for (size_t i = 0; i < heap_.sites.size(); ++i) {
            const HeapSite& s = heap_.sites[i];
            const uint64_t bytes = peak ? s.peak_bytes : s.end_bytes;
            if (bytes > 0)
                sn.sites.push_back({SiteId(uint32_t(i)), bytes, peak ? s.peak_blocks : s.end_blocks});
        }
        std::stable_sort(sn.sites.begin(), sn.sites.end(),
                         [](const SnapshotSite& a, const SnapshotSite& b) { return a.bytes > b.bytes; });
        if (sn.sites.size() > 10)
            sn.sites.resize(10);
        heap_.snapshots.push_back(std::move(sn));
    }
    builder_.set_heap(std::move(heap_));
    return builder_.finish();
}

bool is_dhat_format(std::string_view head)
{
    const size_t brace = head.find_first_not_of(" \t\r\n");
    if (brace == std::string_view::npos || head[brace] != '{')
        return false;
    const size_t key = head.find_first_not_of(" \t\r\n", brace + 1);
    return key != std::string_view::npos && head.substr(key, 17) == "\"dhatFileVersion\"";
}

Profile read_dhat(Input& input, const std::string& name, uint64_t max_string)
{
    return DhatReader(name, max_string).read(input);
}

} // namespace vgprof::detail
