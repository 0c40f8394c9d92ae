// SPDX-License-Identifier: GPL-2.0-or-later
// DHAT's JSON from the heap tables (see export_dhat.hpp), and the helpers the
// other heap exporters share.
#include "vgprof/export_dhat.hpp"

#include "vgprof/error.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/identity.hpp"

#include <boost/json.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <string>

namespace vgprof {

namespace {

// DHAT's run-length form: a run of n > 1 equal counts is -n, count.
boost::json::array dhat_accesses(const std::vector<uint32_t>& acc)
{
    boost::json::array out;
    for (size_t i = 0; i < acc.size();) {
        size_t j = i;
        while (j < acc.size() && acc[j] == acc[i])
            ++j;
        if (j - i > 1)
            out.emplace_back(-int64_t(j - i));
        out.emplace_back(acc[i]);
        i = j;
    }
    return out;
}

} // namespace

std::string command_text(const Profile& profile)
{
    std::string cmd;
    for (const std::string& arg : profile.meta().argv)
        cmd += (cmd.empty() ? "" : " ") + arg;
    return cmd;
}

std::string one_line(std::string text)
{
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text;
}

std::vector<FrameId> caller_frames(const Profile& profile, const HeapSite& site)
{
    const std::optional<FrameId> caller = allocating_frame(profile, site);
    if (!caller)
        return site.frames;
    return {std::find(site.frames.begin(), site.frames.end(), *caller), site.frames.end()};
}

const Heap& exported_heap(const Profile& profile)
{
    if (profile.heap() == nullptr)
        throw Error(std::string("the profile has no heap data (") + kWhyNoHeap + ")");
    return *profile.heap();
}

std::string valgrind_frame_text(const Profile& profile, const HeapFrame& f)
{
    const std::string& fn = profile.fn_name(f.fn);
    const std::string& file = profile.file_path(f.file);
    if (!is_unknown(file))
        return fmt::format("0x{:X}: {} ({}:{})", f.addr, fn, basename_of(file), f.line);
    return fmt::format("0x{:X}: {} (in {})", f.addr, fn,
                       profile.obj_path(profile.function(f.fn).obj));
}

void write_dhat(std::ostream& out, const Profile& profile)
{
    const Heap* heap = &exported_heap(profile);
    // Frame 0 is DHAT's "[root]"; the profile's frame i is DHAT's i + 1.
    boost::json::array ftbl;
    ftbl.emplace_back("[root]");
    for (const HeapFrame& f : heap->frames)
        ftbl.emplace_back(valgrind_frame_text(profile, f));

    boost::json::array pps;
    for (const HeapSite& s : heap->sites) {
        boost::json::array fs;
        for (FrameId f : s.frames)
            fs.emplace_back(f.value + 1);
        boost::json::object pp = {{"tb", s.bytes},           {"tbk", s.blocks},
                                  {"tl", s.lifetimes},       {"mb", s.max_bytes},
                                  {"mbk", s.max_blocks},     {"gb", s.peak_bytes},
                                  {"gbk", s.peak_blocks},    {"eb", s.end_bytes},
                                  {"ebk", s.end_blocks},     {"rb", s.reads},
                                  {"wb", s.writes}};
        if (!s.accesses.empty())
            pp["acc"] = dhat_accesses(s.accesses);
        pp["fs"] = std::move(fs);
        pps.push_back(std::move(pp));
    }

    boost::json::object doc = {{"dhatFileVersion", 2},
                               {"mode", "heap"},
                               {"verb", "Allocated"},
                               {"bklt", true},
                               {"bkacc", true},
                               {"tu", "instrs"},
                               {"Mtu", "Minstr"},
                               {"tuth", 500},
                               {"cmd", command_text(profile)},
                               {"pid", profile.meta().pid.value_or(0)},
                               {"te", heap->totals.end_time},
                               {"tg", heap->totals.peak_time},
                               {"pps", std::move(pps)},
                               {"ftbl", std::move(ftbl)}};
    out << boost::json::serialize(doc) << '\n';
}

} // namespace vgprof
