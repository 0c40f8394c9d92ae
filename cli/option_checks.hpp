// SPDX-License-Identifier: GPL-2.0-or-later
// Checks of option values that more than one subcommand makes, and the
// options that several subcommands share.
#ifndef VGPROF_CLI_OPTION_CHECKS_HPP
#define VGPROF_CLI_OPTION_CHECKS_HPP

#include "vgprof/own_code.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace vgprof::cli {

// Refuses a negative count, which CLI11 would wrap round into a huge
// unsigned one.
inline CLI::Validator not_negative()
{
    return CLI::Validator(
        [](std::string& text) {
            return text.rfind('-', 0) == 0 ? std::string("must be 0 or more") : std::string();
        },
        "");
}

// --own and --not-own: what counts as the program's own code, where a cost
// is named by its innermost own frame (vgprof/own_code.hpp).
inline void add_own_code_options(CLI::App* cmd, OwnCodeRules& rules)
{
    cmd->add_option("--own", rules.own,
                    "count source files and objects under PATH (a directory, or a glob with * "
                    "and ?) as the program's own code, where costs are named; may be given more "
                    "than once")
        ->type_name("PATH")
        ->allow_extra_args(false);
    cmd->add_option("--not-own", rules.not_own,
                    "count source files and objects under PATH (a directory or a glob) as "
                    "another's code (vendored libraries), named only when no own frame is on "
                    "the stack; may be given more than once")
        ->type_name("PATH")
        ->allow_extra_args(false);
}

} // namespace vgprof::cli

#endif
