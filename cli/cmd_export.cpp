// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof export --format FORMAT -o OUT PROFILE...`: a profile in another
// tool's format, and the command's registration. Each format is one entry
// of kFormats, which says what it takes; the writers are libvgprof's
// (vgprof/export_*.hpp), so the viewer can export too.
#include "commands.hpp"
#include "option_checks.hpp"

#include "vgprof/error.hpp"
#include "vgprof/export_callgrind.hpp"
#include "vgprof/export_chrome.hpp"
#include "vgprof/export_collapsed.hpp"
#include "vgprof/export_dhat.hpp"
#include "vgprof/export_heaptrack.hpp"
#include "vgprof/export_massif.hpp"
#include "vgprof/export_pprof.hpp"
#include "vgprof/export_speedscope.hpp"
#include "vgprof/load.hpp"
#include "vgprof/query.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <ostream>

namespace vgprof::cli {

namespace {

void export_callgrind(std::ostream& out, const std::vector<Profile>& profiles,
                      const ExportOptions& options)
{
    const ThreadGraph* thread = nullptr;
    if (options.thread) {
        try {
            thread = &thread_for_option(profiles[0], *options.thread, "--thread");
        } catch (const Error& e) {
            throw Error(fmt::format("{}: {}", options.profiles[0], e.what()));
        }
    }
    write_callgrind(out, profiles[0], thread);
}

// A format of one profile whose writer refuses a profile that lacks what
// it needs before writing anything; the message gets the profile's name.
template <void (*write)(std::ostream&, const Profile&)>
void export_one(std::ostream& out, const std::vector<Profile>& profiles, const ExportOptions& options)
{
    try {
        write(out, profiles[0]);
    } catch (const Error& e) {
        throw Error(fmt::format("{}: {}", options.profiles[0], e.what()));
    }
}

void export_speedscope(std::ostream& out, const std::vector<Profile>& profiles,
                       const ExportOptions& options)
{
    if (options.timeline)
        export_one<write_speedscope_timeline>(out, profiles, options);
    else
        export_one<write_speedscope>(out, profiles, options);
}

// Every stack is found before anything is written, so a profile without a
// call graph fails with nothing on the output.
void export_collapsed(std::ostream& out, const std::vector<Profile>& profiles,
                      const ExportOptions& options)
{
    CollapsedOptions collapsed;
    collapsed.event = options.event.value_or("Ir");
    collapsed.threads = options.threads;
    std::vector<std::map<std::string, uint64_t>> stacks;
    for (size_t i = 0; i < profiles.size(); ++i)
        stacks.push_back(collapsed_stacks(profiles[i], options.profiles[i], collapsed));
    if (stacks.size() == 1)
        write_collapsed(out, stacks[0]);
    else
        write_collapsed_diff(out, stacks[0], stacks[1]);
}

struct ExportFormat {
    const char* name;
    size_t max_profiles;     // 2: a second profile asks for a differential form
    bool stack_options;      // --event and --threads apply
    void (*write)(std::ostream&, const std::vector<Profile>&, const ExportOptions&);
};

const ExportFormat kFormats[] = {
    {"callgrind", 1, false, export_callgrind},
    {"collapsed", 2, true, export_collapsed},
    {"dhat", 1, false, export_one<write_dhat>},
    {"speedscope", 1, false, export_speedscope},
    {"chrome", 1, false, export_one<write_chrome_trace>},
    {"pprof", 1, false, export_one<write_pprof>},
    {"massif", 1, false, export_one<write_massif>},
    {"heaptrack", 1, false, export_one<write_heaptrack>},
};

const ExportFormat& format_of(const ExportOptions& options)
{
    const auto it = std::find_if(std::begin(kFormats), std::end(kFormats),
                                 [&](const ExportFormat& f) { return options.format == f.name; });
    if (it == std::end(kFormats))
        throw Error(fmt::format("--format: unknown format \"{}\"", options.format));
    return *it;
}

// Compressed as the output's name asks, except pprof's, which is gzip data
// whatever its name (pprof reads no other compression).
Compression export_compression(const ExportOptions& options)
{
    const Compression asked = options.output == "-" ? Compression::none
                                                    : compression_for(options.output);
    if (options.format != "pprof")
        return asked;
    if (asked == Compression::zstd)
        throw Error(fmt::format("-o {}: a pprof profile is gzip data, which pprof reads; name it "
                                "without .zst (e.g. profile.pb.gz)",
                                options.output));
    return Compression::none;
}

int run_export(const ExportOptions& options)
{
    check_export_options(options);
    std::vector<Profile> profiles;
    for (const std::string& path : options.profiles)
        profiles.push_back(load_profile(path));
    write_output(options.output,
                 [&](std::ostream& out) { write_export(out, profiles, options); },
                 export_compression(options));
    return kExitOk;
}

} // namespace

void check_export_options(const ExportOptions& options)
{
    const ExportFormat& format = format_of(options);
    export_compression(options);
    if (options.profiles.size() > format.max_profiles)
        throw Error(fmt::format("--format {} takes one profile, got {}", format.name,
                                options.profiles.size()));
    if (!format.stack_options && options.event)
        throw Error(fmt::format("--event applies to --format collapsed, not {}", format.name));
    if (!format.stack_options && options.threads)
        throw Error(fmt::format("--threads applies to --format collapsed, not {}", format.name));
    if (options.timeline && options.format != "speedscope")
        throw Error(fmt::format("--timeline applies to --format speedscope, not {} (--format "
                                "chrome always writes the timeline)",
                                format.name));
    if (options.thread && options.format != "callgrind")
        throw Error(fmt::format("--thread applies to --format callgrind, not {} (speedscope and "
                                "pprof files hold every thread's costs apart already)",
                                format.name));
}

void write_export(std::ostream& out, const std::vector<Profile>& profiles,
                  const ExportOptions& options)
{
    format_of(options).write(out, profiles, options);
}

Command add_export_command(CLI::App& app)
{
    auto options = std::make_shared<ExportOptions>();
    CLI::App* cmd = app.add_subcommand(
        "export",
        "Write a profile in another tool's format: callgrind (KCachegrind, callgrind_annotate), "
        "DHAT's JSON (dh_view), collapsed stacks (flame graphs; with two profiles, a "
        "differential flame graph), speedscope, pprof (go tool pprof), massif (ms_print, "
        "massif-visualizer), heaptrack (heaptrack_print, heaptrack_gui) or, of a profile "
        "recorded with --timeline=yes, the Chrome trace event format (Perfetto, "
        "chrome://tracing).");
    std::vector<std::string> names;
    for (const ExportFormat& f : kFormats)
        names.push_back(f.name);
    cmd->add_option("--format", options->format, fmt::format("the format: {}", fmt::join(names, " or ")))
        ->check(CLI::IsMember(names))
        ->required();
    add_output_option(*cmd, options->output, "the export");
    // Two positionals rather than a list of one or two, so the usage line
    // reads PROFILE [NEW].
    auto profile = std::make_shared<std::string>(), now = std::make_shared<std::string>();
    cmd->add_option("PROFILE", *profile, "the profile (for a differential export, BASE)")
        ->required();
    cmd->add_option("NEW", *now,
                    "collapsed: the profile to compare with BASE, for the differential form");
    cmd->add_option("--event", options->event,
                    "collapsed: the event whose self costs are counted (default: Ir)")
        ->type_name("EVENT");
    cmd->add_flag("--threads", options->threads,
                  "collapsed: begin each stack with its thread (needs a profile recorded with "
                  "--separate-threads=yes)");
    cmd->add_flag("--timeline", options->timeline,
                  "speedscope: the timeline's calls of each thread in time order (evented "
                  "profiles, speedscope's Time Order view), instructions as time (needs a profile "
                  "recorded with --timeline=yes)");
    cmd->add_option("--thread", options->thread,
                    "callgrind: write thread TID's costs and calls alone, as callgrind "
                    "--separate-threads=yes writes one file per thread (needs a profile recorded "
                    "with --separate-threads=yes)")
        ->type_name("TID")
        ->check(not_negative());
    return Command{cmd, [options, profile, now] {
                       options->profiles = {*profile};
                       if (!now->empty())
                           options->profiles.push_back(*now);
                       return run_export(*options);
                   }};
}

} // namespace vgprof::cli
