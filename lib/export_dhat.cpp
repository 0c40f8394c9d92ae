// SPDX-License-Identifier: GPL-2.0-or-later
#include "vgprof/export_dhat.hpp"

#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"

#include <boost/json.hpp>

#include <fmt/format.h>

#include <ostream>
#include <string>

namespace vgprof {

namespace {

// As Valgrind describes a code address: the file's name without its
// directory, or the object when there is no source.
std::string frame_text(const Profile& profile, const HeapFrame& f)
{
    const std::string& fn = profile.fn_name(f.fn);
    const std::string& file = profile.file_path(f.file);
    if (!is_unknown(file))
        return fmt::format("0x{:X}: {} ({}:{})", f.addr, fn, basename_of(file), f.line);
    return fmt::format("0x{:X}: {} (in {})", f.addr, fn,
                       profile.obj_path(profile.function(f.fn).obj));
}

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

std::string command_of(const Profile& profile)
{
    std::string cmd;
    for (const std::string& arg : profile.meta().argv)
        cmd += (cmd.empty() ? "" : " ") + arg;
    return cmd;
}

} // namespace

void write_dhat(std::ostream& out, const Profile& profile)
{
    const Heap* heap = profile.heap();
    if (heap == nullptr)
        throw Error("the profile has no heap data (recorded with --heap=no, or by a vgprof "
                    "older than format version 3)");
    // Frame 0 is DHAT's "[root]"; the profile's frame i is DHAT's i + 1.
    boost::json::array ftbl;
    ftbl.emplace_back("[root]");
    for (const HeapFrame& f : heap->frames)
        ftbl.emplace_back(frame_text(profile, f));

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
                               {"cmd", command_of(profile)},
                               {"pid", profile.meta().pid.value_or(0)},
                               {"te", heap->totals.end_time},
                               {"tg", heap->totals.peak_time},
                               {"pps", std::move(pps)},
                               {"ftbl", std::move(ftbl)}};
    out << boost::json::serialize(doc) << '\n';
}

} // namespace vgprof
