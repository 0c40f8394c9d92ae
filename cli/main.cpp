// SPDX-License-Identifier: GPL-2.0-or-later
// vgprof: the command-line companion. main() only parses the command line,
// runs the chosen subcommand and turns errors into a message and exit status.
#include "commands.hpp"
#include "control.hpp"

#include "vgprof/error.hpp"
#include "vgprof/file_io.hpp"
#include "vgprof/safe_text.hpp"

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <vector>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

namespace {

// Standard output through a buffer that keeps the first write error's
// cause, so that "cannot write the report" names it (ENOSPC on a full
// disk), not whatever errno holds when the failure is noticed. Restored,
// flushed, before the stream's own teardown.
class StandardOutput {
public:
    StandardOutput() : previous_(std::cout.rdbuf(&buffer_)) {}
    ~StandardOutput()
    {
        std::cout.flush();
        std::cout.rdbuf(previous_);
    }
    StandardOutput(const StandardOutput&) = delete;
    StandardOutput& operator=(const StandardOutput&) = delete;

private:
    vgprof::DescriptorBuffer buffer_{1};
    std::streambuf* previous_;
};

} // namespace

int main(int argc, char** argv)
{
    using namespace vgprof::cli;
    const StandardOutput standard_output;
    set_command_line(argc, argv);
    CLI::App app{"Records profiles with valgrind --tool=vgprof and reads them (and callgrind's "
                 "and cachegrind's files).",
                 "vgprof"};
    app.set_version_flag("--version", "vgprof " PACKAGE_VERSION);
    app.require_subcommand(1);
    app.failure_message(CLI::FailureMessage::help);
    const std::vector<Command> commands = {add_record_command(app), add_report_command(app),
                                           add_diff_command(app), add_annotate_command(app),
                                           add_export_command(app), add_merge_command(app),
                                           add_control_command(app)};

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // exit() prints help/version (status 0) or the error and usage.
        return app.exit(e) == 0 ? kExitOk : kExitBadInput;
    }
    try {
        for (const Command& command : commands)
            if (command.app->parsed())
                return command.run();
    } catch (const vgprof::Error& e) {
        // A message may quote a profile's names: its lines (a list of
        // candidates has several) each shown escaped, none a workflow
        // command; the names it lists are escaped where it is made.
        std::cerr << vgprof::plain_lines(std::string("vgprof: ") + e.what() + "\n");
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << vgprof::plain_line(std::string("vgprof: internal error: ") + e.what())
                  << '\n';
        return kExitBadInput;
    }
    return kExitBadInput;
}
