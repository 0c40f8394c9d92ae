// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof merge PROFILE... -o OUT`: one profile holding the sum of several
// runs' costs, and the command's registration. The sum is libvgprof's
// (vgprof/merge.hpp), the writing too (vgprof/write.hpp).
#include "commands.hpp"

#include "vgprof/load.hpp"
#include "vgprof/merge.hpp"
#include "vgprof/write.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace vgprof::cli {

namespace {

// One profile in memory at a time besides the sum: runs can be many.
int run_merge(const MergeOptions& options)
{
    ProfileMerger merger;
    for (const std::string& path : options.profiles)
        merger.add(load_profile(path), path);
    const Profile merged = merger.result();
    for (const std::string& note : merger.notes())
        std::cerr << "vgprof: note: " << note << '\n';
    // A merged profile named .gz or .zst is compressed: the loader reads both.
    write_output(options.output, [&](std::ostream& out) { write_profile(out, merged); },
                 compression_for(options.output));
    return kExitOk;
}

} // namespace

Command add_merge_command(CLI::App& app)
{
    auto options = std::make_shared<MergeOptions>();
    CLI::App* cmd = app.add_subcommand(
        "merge",
        "Add up the profiles of several runs (same events and cache simulation) into one, as "
        "cg_merge does for cachegrind.");
    cmd->add_option("PROFILE", options->profiles, "the profiles to add up")->required();
    add_output_option(*cmd, options->output, "the merged profile");
    return Command{cmd, [options] { return run_merge(*options); }};
}

} // namespace vgprof::cli
