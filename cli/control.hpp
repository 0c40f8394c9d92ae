// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof control`: lists the processes running under vgprof and sends
// them monitor commands (dump, zero, instrumentation, collect, status, mark).
#ifndef VGPROF_CLI_CONTROL_HPP
#define VGPROF_CLI_CONTROL_HPP

#include "commands.hpp"

#include <optional>
#include <string>
#include <vector>

namespace vgprof::cli {

// Exit status when a process did not carry a command out (it gave an
// error, did not answer in time, or could not be reached).
inline constexpr int kExitCommandFailed = 1;

// Throws vgprof::Error unless `words` (a command and its arguments) is one
// of the tool's monitor commands with arguments it takes, or one of
// Valgrind's own ("v.…", passed on as given).
void check_monitor_command(const std::vector<std::string>& words);

// The file a dump command's answer says it wrote, if it says so.
std::optional<std::string> dumped_path(const std::string& answer);

// What to do about a process that vgdb cannot wake because ptrace is
// refused (`why`: vgdb's reason), while `vgprof control` waits `seconds`
// for it to run by itself.
std::string ptrace_advice(long pid, const std::string& why, long seconds);

Command add_control_command(CLI::App& app);

} // namespace vgprof::cli

#endif
