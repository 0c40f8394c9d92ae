// SPDX-License-Identifier: GPL-2.0-or-later
// Where the commands that write files (export, merge) put what they write,
// and the command line they were started with.
#include "commands.hpp"

#include "vgprof/error.hpp"
#include "vgprof/file_io.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

namespace vgprof::cli {

namespace {

std::vector<std::string>& recorded_command_line()
{
    static std::vector<std::string> args;
    return args;
}

} // namespace

void set_command_line(int argc, const char* const* argv)
{
    recorded_command_line().assign(argv, argv + argc);
}

const std::vector<std::string>& command_line() { return recorded_command_line(); }

void write_output(const std::string& output, const std::function<void(std::ostream&)>& write,
                  Compression compression)
{
    if (output != "-") {
        write_file_atomically(output, [&](std::ostream& out) {
            write_compressed(out, compression, write);
        });
        return;
    }
    write_compressed(std::cout, compression, write);
    check_written(std::cout, "to standard output");
}

void add_output_option(CLI::App& cmd, std::string& output, const std::string& what)
{
    cmd.add_option("-o,--output", output, "where to write " + what + " (\"-\": standard output)")
        ->type_name("OUT")
        ->required();
}

} // namespace vgprof::cli
