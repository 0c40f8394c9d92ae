// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof diff --format github`: GitHub Actions workflow commands, so that
// a pull request shows each exceeded threshold on the source line whose
// cost changed most (`::error file=src/hash.c,line=42,title=...::...`),
// and each moved function as a notice; then the closing line.
#include "diff_model.hpp"

#include "vgprof/identity.hpp"
#include "vgprof/own_code.hpp"
#include "vgprof/path_display.hpp"
#include "vgprof/safe_text.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <ostream>

namespace vgprof::cli {

namespace {

// The directory GitHub places annotations' paths in: the workspace a
// workflow checked the repository out to, else the working tree of git
// holding the current directory; empty when there is neither.
std::string repository_root()
{
    if (const char* workspace = std::getenv("GITHUB_WORKSPACE"); workspace && *workspace == '/')
        return workspace;
    std::error_code error;
    for (std::filesystem::path dir = std::filesystem::current_path(error); !error && !dir.empty();
         dir = dir.parent_path()) {
        if (std::filesystem::exists(dir / ".git", error))
            return dir.string();
        if (dir == dir.root_path())
            break;
    }
    return "";
}

// `file` as GitHub names it in the repository: stripped of --strip-prefix,
// else made relative to the repository when under it (else whole); nullopt
// for a file of the toolchain's or system's code (object `object`), which
// no pull request can show.
std::optional<std::string> repository_path(const std::string& file, const std::string& object,
                                           const DiffOptions& options)
{
    if (is_unknown(file) || !is_own_code(options.own_code, file, object))
        return std::nullopt;
    const PathDisplay display = path_display(options);
    if (display.is_under_prefix(file))
        return display.stripped(file);
    static const std::string root = repository_root();
    if (file.front() != '/' || root.empty())
        return file;
    // Compared as written, "build/../src" as "src".
    const std::filesystem::path relative =
        std::filesystem::path(file).lexically_normal().lexically_relative(
            std::filesystem::path(root).lexically_normal());
    if (relative.empty() || *relative.begin() == "..")
        return file;
    return relative.string();
}

// One workflow command: `level` is error, warning or notice; `where` a
// line (its file and number) of code in `object`, or none for a message
// without a place. A line a pull request cannot show gives no place. The
// title and message are escaped as GitHub requires (vgprof/safe_text.hpp),
// so no name ends the command or starts another.
void annotate(std::ostream& out, const char* level, const LineDelta* where,
              const std::string& object, const std::string& title, const std::string& message,
              const DiffOptions& options)
{
    out << "::" << level << ' ';
    if (where != nullptr && where->line != 0)
        if (const auto file = repository_path(where->file, object, options))
            out << "file=" << workflow_property(*file) << ",line=" << where->line << ',';
    out << "title=" << workflow_property(title) << "::" << workflow_data(message) << '\n';
}

const LineDelta* first(const std::vector<LineDelta>& lines)
{
    return lines.empty() ? nullptr : &lines.front();
}

// An annotation on the own line through which most of a change came.
void annotate_caller(std::ostream& out, const char* level, const std::vector<CallerDelta>& callers,
                     const std::string& title, const std::string& message,
                     const DiffOptions& options)
{
    const CallerDelta& top = callers.front();
    const LineDelta at{top.file, top.line, top.cost};
    annotate(out, level, &at, top.object, title, message, options);
}

void annotate_breach(std::ostream& out, const BenchmarkDiff& b, const Breach& breach,
                     const char* level, const DiffOptions& options)
{
    const std::string title = "vgprof: " + b.pair.name;
    const std::string text = breach_text(breach, options);
    const size_t metric = *b.diff.metric_index(breach.threshold->event);
    if (breach.function != nullptr) {
        const auto& lines = b.lines_of(breach.function, metric);
        if (const auto& callers = b.callers_of(breach.function, metric); !callers.empty()) {
            annotate_caller(out, level, callers, title,
                            text + "; called " + callers_text(callers, options), options);
            return;
        }
        annotate(out, level, first(lines), breach.function->object, title,
                 lines.empty() ? text : text + "; changed most at " + lines_text(lines, options),
                 options);
        return;
    }
    annotate(out, level, nullptr, "", title, text, options);
    const auto it = b.risers.find(metric);
    if (it == b.risers.end())
        return;
    for (const FunctionDelta* f : it->second) {
        const auto& lines = b.lines_of(f, metric);
        const auto& callers = b.callers_of(f, metric);
        if (lines.empty() && callers.empty())
            continue;
        const std::string message =
            fmt::format("{} self of {} {} ({}), part of: {}; ", breach.threshold->event,
                        escaped_controls(f->name), signed_count(f->self[metric].delta()),
                        relative_text(f->self[metric]), text);
        // Code not the program's own is placed on the own line that called
        // it: a pull request cannot show its own lines.
        if (!callers.empty())
            annotate_caller(out, level, callers, title,
                            message + "called " + callers_text(callers, options), options);
        else
            annotate(out, level, first(lines), f->object, title,
                     message + "changed most at " + lines_text(lines, options), options);
    }
}

void annotate_benchmark(std::ostream& out, const BenchmarkDiff& b, const DiffOptions& options)
{
    if (b.verdict == Verdict::error) {
        annotate(out, "error", nullptr, "", "vgprof: " + b.pair.name, b.error, options);
        return;
    }
    for (const Breach& breach : b.failed)
        annotate_breach(out, b, breach, "error", options);
    for (const Breach& breach : b.warned)
        annotate_breach(out, b, breach, "warning", options);
    for (const FunctionDelta* f : b.moved) {
        const LineDelta at{f->file, f->line, {}};
        annotate(out, "notice", &at, f->object, "vgprof: " + b.pair.name,
                 escaped_controls(f->name) + " " + move_text(*f, options) +
                     ", compared as the same function",
                 options);
    }
}

} // namespace

void write_github(std::ostream& out, const SuiteDiff& suite, const DiffOptions& options)
{
    for (const auto& b : suite.benchmarks)
        annotate_benchmark(out, *b, options);
    // A benchmark that lost its profile would otherwise pass unseen.
    for (const std::string& name : suite.only_base)
        annotate(out, "warning", nullptr, "", "vgprof: " + name,
                 "only in base, not compared: no profile of this benchmark in NEW", options);
    for (const std::string& name : suite.only_new)
        annotate(out, "notice", nullptr, "", "vgprof: " + name,
                 "only in new, not compared: no profile of this benchmark in BASE", options);
    // Plain lines, read by the runner as commands if they looked like one.
    for (const auto& b : suite.benchmarks)
        if (b->verdict != Verdict::error)
            out << plain_line(fmt::format("{}: {}", escaped_controls(b->pair.name),
                                          verdict_name(b->verdict)))
                << '\n';
    out << closing_line(suite) << '\n';
}

} // namespace vgprof::cli
