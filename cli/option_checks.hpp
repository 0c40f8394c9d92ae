// SPDX-License-Identifier: GPL-2.0-or-later
// Checks of option values that more than one subcommand makes.
#ifndef VGPROF_CLI_OPTION_CHECKS_HPP
#define VGPROF_CLI_OPTION_CHECKS_HPP

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

} // namespace vgprof::cli

#endif
