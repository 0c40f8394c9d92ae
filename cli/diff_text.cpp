// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof diff`'s text and Markdown outputs: per benchmark the totals, the
// functions that changed most with the lines that changed most in them,
// the moved functions and the thresholds exceeded; for a suite, one table
// of every benchmark and the closing "N without regressions; M regressed".
#include "diff_model.hpp"

#include "vgprof/format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <sstream>

namespace vgprof::cli {

namespace {

// A table of cells; the first `left` columns are left-aligned, the rest
// right-aligned, as numbers are, except a `last_left` last column (the
// function's name in text).
struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    size_t left = 1;
    bool last_left = false;
    // Text: lines written under a row, where its last column starts.
    std::vector<std::vector<std::string>> notes;

    void write_text(std::ostream& out) const
    {
        std::vector<size_t> width(header.size());
        for (size_t i = 0; i < header.size(); ++i) {
            width[i] = header[i].size();
            for (const auto& row : rows)
                width[i] = std::max(width[i], row[i].size());
        }
        const auto line = [&](const std::vector<std::string>& cells) {
            std::string text;
            for (size_t i = 0; i < cells.size(); ++i) {
                const bool last = i + 1 == cells.size();
                text += i == 0 ? "" : "  ";
                if (i < left || (last && last_left))
                    text += last ? cells[i] : fmt::format("{:<{}}", cells[i], width[i]);
                else
                    text += fmt::format("{:>{}}", cells[i], width[i]);
            }
            // Without the blanks an empty last cell leaves.
            text.erase(text.find_last_not_of(' ') + 1);
            out << text << '\n';
        };
        line(header);
        size_t indent = 0;
        for (size_t i = 0; i + 1 < width.size(); ++i)
            indent += width[i] + 2;
        for (size_t r = 0; r < rows.size(); ++r) {
            line(rows[r]);
            if (r < notes.size())
                for (const std::string& note : notes[r])
                    out << std::string(indent + 2, ' ') << note << '\n';
        }
    }

    void write_markdown(std::ostream& out) const
    {
        const auto line = [&](const std::vector<std::string>& cells) {
            out << '|';
            for (const std::string& cell : cells)
                out << ' ' << cell << " |";
            out << '\n';
        };
        line(header);
        out << '|';
        for (size_t i = 0; i < header.size(); ++i)
            out << (i < left || (i + 1 == header.size() && last_left) ? " --- |" : " ---: |");
        out << '\n';
        for (const auto& row : rows)
            line(row);
    }
};

const std::string& rule()
{
    static const std::string line(80, '-');
    return line;
}

std::string joined(const std::vector<std::string>& words, const char* separator = " ")
{
    std::string text;
    for (const std::string& w : words)
        text += (text.empty() ? "" : separator) + w;
    return text;
}

// In Markdown a name as code, which keeps `*` and `_` as they are
// (markdown_code()).
std::string code(const std::string& text) { return markdown_code(text); }

// In Markdown text of the shared pieces (lines_text(), breach_text()...):
// shown as it is, not read as markup.
std::string md(const std::string& text) { return markdown_text(text); }

// The totals, all of them or (Markdown) only those that changed.
Table totals_table(const DiffResult& diff, bool changed_only)
{
    Table t{{"metric", "base", "new", "change", "change %"}, {}, 1, false, {}};
    for (size_t i = 0; i < diff.metrics.size(); ++i) {
        const CostDelta& c = diff.totals[i];
        if (changed_only && c.base == c.now)
            continue;
        t.rows.push_back({diff.metrics[i], format_thousands(c.base), format_thousands(c.now),
                          signed_count(c.delta()), relative_text(c)});
    }
    return t;
}

// The Markdown table's last column: the lines that changed most, and the
// own lines code not the program's own was called through.
std::string changed_at_text(const BenchmarkDiff& b, const FunctionDelta& f,
                            const DiffOptions& options)
{
    std::string text = lines_text(b.lines_of(&f, b.sort), options);
    if (const auto& callers = b.callers_of(&f, b.sort); !callers.empty())
        text += (text.empty() ? "called " : "; called ") + callers_text(callers, options);
    return text;
}

// The sort metric's self (and inclusive) cost of the functions shown.
Table functions_table(const BenchmarkDiff& b, const DiffOptions& options, bool markdown)
{
    const std::string& metric = b.diff.metrics[b.sort];
    Table t{{metric + " self base", metric + " self new", "change", "change %"}, {}, 0, false, {}};
    if (b.diff.inclusive) {
        t.header.push_back(metric + " incl change");
        t.header.push_back("incl change %");
    }
    if (markdown) {
        t.header.insert(t.header.begin(), {"function", "file", "object"});
        t.header.push_back("changed most at");
        t.left = 3;
        t.last_left = true;
    } else {
        t.header.push_back("function (file)  [object]");
        t.last_left = true;
    }
    for (const FunctionDelta* f : b.shown) {
        std::vector<std::string> row;
        if (markdown) {
            std::string name = code(f->name);
            if (const std::string moved = move_text(*f, options); !moved.empty())
                name += " (" + md(moved) + ")";
            row = {name, md(path_display(options).show(f->file)),
                   md(path_display(options).show(f->object))};
        }
        const CostDelta& self = f->self[b.sort];
        for (std::string cell : {format_thousands(self.base), format_thousands(self.now),
                                 signed_count(self.delta()), relative_text(self)})
            row.push_back(cell);
        if (b.diff.inclusive) {
            row.push_back(signed_count(f->inclusive[b.sort].delta()));
            row.push_back(relative_text(f->inclusive[b.sort]));
        }
        if (markdown)
            row.push_back(md(changed_at_text(b, *f, options)));
        else
            row.push_back(function_text(*f, options));
        t.rows.push_back(std::move(row));
    }
    return t;
}

// Under a breach: the lines that broke it (a function's), or the
// functions whose rise made the total break it, with their lines.
std::vector<std::string> breach_details(const BenchmarkDiff& b, const Breach& breach,
                                        const DiffOptions& options)
{
    const size_t metric = *b.diff.metric_index(breach.threshold->event);
    std::vector<std::string> out;
    if (breach.function != nullptr) {
        const auto& lines = b.lines_of(breach.function, metric);
        if (const auto& callers = b.callers_of(breach.function, metric); !callers.empty())
            out.push_back("called " + callers_text(callers, options));
        else if (!lines.empty())
            out.push_back("changed most at " + lines_text(lines, options));
        return out;
    }
    const auto it = b.risers.find(metric);
    if (it == b.risers.end())
        return out;
    for (const FunctionDelta* f : it->second) {
        std::string text =
            "rose in " + escaped_controls(f->name) + " " + signed_count(f->self[metric].delta());
        const auto& lines = b.lines_of(f, metric);
        // Code not the program's own is named by the own lines that called
        // it, which a change can fix, not by its own lines.
        if (const auto& callers = b.callers_of(f, metric); !callers.empty())
            text += ", called " + callers_text(callers, options);
        else if (!lines.empty())
            text += ", at " + lines_text(lines, options);
        out.push_back(text);
    }
    return out;
}

void header_line(std::ostream& out, const std::string& label, const std::string& value)
{
    out << fmt::format("{:<22}{}\n", label + ":", value);
}

void write_limits_header(std::ostream& out, const DiffOptions& options)
{
    header_line(out, "Fail above", options.fail_above.empty() ? "(none)" : options.fail_above);
    if (!options.warn_above.empty())
        header_line(out, "Warn above", options.warn_above);
    if (options.per_function)
        out << "Thresholds apply to each function's self cost too\n";
    if (!options.function_fail_above.empty())
        header_line(out, "Function fail above", options.function_fail_above);
    if (!options.function_warn_above.empty())
        header_line(out, "Function warn above", options.function_warn_above);
    if (!options.gate_functions.empty())
        header_line(out, "Functions gated", joined(options.gate_functions));
    if (!options.gate_objects.empty())
        header_line(out, "Objects gated", joined(options.gate_objects));
}

void write_breaches_text(std::ostream& out, const BenchmarkDiff& b, const DiffOptions& options)
{
    for (const auto& [list, label] : {std::pair{&b.failed, "FAIL: "}, std::pair{&b.warned, "WARN: "}})
        for (const Breach& breach : *list) {
            out << label << breach_text(breach, options) << '\n';
            for (const std::string& detail : breach_details(b, breach, options))
                out << "      " << detail << '\n';
        }
}

// "2 functions start on other lines of their files", or nothing.
std::string shifted_text(const BenchmarkDiff& b)
{
    if (b.shifted == 0)
        return {};
    return fmt::format("{} {} on other lines of {} files", count_text(b.shifted, "function",
                                                                          "functions"),
                       b.shifted == 1 ? "starts" : "start", b.shifted == 1 ? "its" : "their");
}

void write_moved_text(std::ostream& out, const BenchmarkDiff& b, const DiffOptions& options)
{
    if (!b.moved.empty()) {
        out << fmt::format("Moved or renamed functions: {} (compared as the same function)\n",
                           b.moved.size());
        for (const FunctionDelta* f : b.moved)
            out << "  " << function_text(*f, options) << ": " << move_text(*f, options) << '\n';
    }
    if (b.shifted > 0)
        out << shifted_text(b) << " (compared as the same functions)\n";
}

void write_benchmark_text(std::ostream& out, const BenchmarkDiff& b, const DiffOptions& options)
{
    out << rule() << '\n';
    header_line(out, "Benchmark", escaped_controls(b.pair.name));
    header_line(out, "Base", escaped_controls(b.pair.base));
    header_line(out, "New", escaped_controls(b.pair.now));
    header_line(out, "Command", escaped_controls(joined(b.command)));
    header_line(out, "Metrics compared", joined(b.diff.metrics));
    write_limits_header(out, options);
    for (const std::string& w : b.diff.warnings)
        out << "warning: " << escaped_controls(w) << '\n';
    out << rule() << '\n';
    totals_table(b.diff, false).write_text(out);
    out << rule() << '\n';
    out << fmt::format("Changed functions by {} self: {} (showing {})\n", b.diff.metrics[b.sort],
                       b.changed, b.shown.size());
    if (!b.shown.empty()) {
        Table t = functions_table(b, options, false);
        for (const FunctionDelta* f : b.shown) {
            std::vector<std::string> notes;
            if (const std::string moved = move_text(*f, options); !moved.empty())
                notes.push_back(moved);
            if (const auto& lines = b.lines_of(f, b.sort); !lines.empty())
                notes.push_back("changed most at " + lines_text(lines, options));
            if (const auto& callers = b.callers_of(f, b.sort); !callers.empty())
                notes.push_back("called " + callers_text(callers, options));
            t.notes.push_back(std::move(notes));
        }
        t.write_text(out);
    }
    write_moved_text(out, b, options);
    if (b.data) {
        out << rule() << '\n';
        write_data_text(out, *b.data);
    }
    out << rule() << '\n';
    write_breaches_text(out, b, options);
    out << "Result: " << verdict_name(b.verdict) << '\n';
}

const char* icon_of(Verdict v)
{
    switch (v) {
    case Verdict::fail: return ":x:";
    case Verdict::warn: return ":warning:";
    case Verdict::error: return ":grey_question:";
    case Verdict::ok: return ":white_check_mark:";
    }
    return "";
}

// The sort metric's total of each benchmark, and its verdict.
Table suite_table(const SuiteDiff& suite, bool markdown)
{
    Table t{{"benchmark", "result", "metric", "base", "new", "change", "change %", "exceeded"},
            {},
            3,
            true,
            {}};
    for (const auto& b : suite.benchmarks) {
        std::vector<std::string> row = {
            markdown ? code(b->pair.name) : escaped_controls(b->pair.name),
            markdown ? std::string(icon_of(b->verdict)) + " " + verdict_name(b->verdict)
                     : verdict_name(b->verdict)};
        if (b->verdict == Verdict::error) {
            row.insert(row.end(), {"", "", "", "", "", markdown ? md(b->error)
                                                                 : escaped_controls(b->error)});
            t.rows.push_back(std::move(row));
            continue;
        }
        const CostDelta& c = b->diff.totals[b->sort];
        row.insert(row.end(), {b->diff.metrics[b->sort], format_thousands(c.base),
                               format_thousands(c.now), signed_count(c.delta()),
                               relative_text(c)});
        std::vector<std::string> exceeded;
        for (const auto* list : {&b->failed, &b->warned})
            for (const Breach& breach : *list) {
                const std::string text =
                    breach.threshold->event +
                    (breach.function ? " of " + escaped_controls(breach.function->name) : "") +
                    " " + relative_text(breach.cost);
                if (std::find(exceeded.begin(), exceeded.end(), text) == exceeded.end())
                    exceeded.push_back(text);
            }
        if (exceeded.empty() && !b->moved.empty())
            exceeded.push_back(fmt::format("{} moved", count_text(b->moved.size(), "function",
                                                                  "functions")));
        row.push_back(markdown ? md(joined(exceeded, ", ")) : joined(exceeded, ", "));
        t.rows.push_back(std::move(row));
    }
    return t;
}

bool anything_changed(const BenchmarkDiff& b)
{
    return b.verdict != Verdict::ok || b.changed > 0 || !b.moved.empty() || b.shifted > 0 ||
           std::any_of(b.diff.totals.begin(), b.diff.totals.end(),
                       [](const CostDelta& c) { return c.base != c.now; });
}

Verdict overall(const SuiteDiff& suite)
{
    for (Verdict v : {Verdict::error, Verdict::fail, Verdict::warn})
        if (suite.count(v) > 0)
            return v;
    return Verdict::ok;
}

void write_breaches_markdown(std::ostream& out, const BenchmarkDiff& b,
                             const DiffOptions& options)
{
    for (const auto& [list, label] :
         {std::pair{&b.failed, "**FAIL**"}, std::pair{&b.warned, "**WARN**"}}) {
        for (const Breach& breach : *list) {
            out << "- " << label << ' ' << md(breach_text(breach, options));
            for (const std::string& detail : breach_details(b, breach, options))
                out << "; " << md(detail);
            out << '\n';
        }
    }
    if (!b.failed.empty() || !b.warned.empty())
        out << '\n';
}

void write_benchmark_markdown(std::ostream& out, const BenchmarkDiff& b,
                              const DiffOptions& options)
{
    out << "#### " << icon_of(b.verdict) << ' ' << code(b.pair.name) << ": "
        << verdict_name(b.verdict) << "\n\n";
    out << "Base " << code(b.pair.base) << ", new " << code(b.pair.now) << ", command "
        << code(joined(b.command)) << ".\n\n";
    for (const std::string& w : b.diff.warnings)
        out << "> :warning: " << md(w) << "\n";
    if (!b.diff.warnings.empty())
        out << '\n';
    write_breaches_markdown(out, b, options);
    const Table totals = totals_table(b.diff, true);
    if (totals.rows.empty())
        out << "No total changed.\n";
    else
        totals.write_markdown(out);
    if (b.shown.empty()) {
        out << "\nNo function's cost changed.\n";
    } else {
        out << fmt::format("\n**Top changed functions** by {} self ({} of {} changed):\n\n",
                           b.diff.metrics[b.sort], b.shown.size(), b.changed);
        functions_table(b, options, true).write_markdown(out);
    }
    if (!b.moved.empty()) {
        out << "\n**Moved or renamed** (compared as the same function):";
        const char* separator = " ";
        for (const FunctionDelta* f : b.moved) {
            out << separator << code(f->name) << ' ' << md(move_text(*f, options)) << " to "
                << code(place_text(f->file, f->line, options));
            separator = "; ";
        }
        out << ".\n";
    }
    if (b.shifted > 0)
        out << '\n' << shifted_text(b) << ".\n";
    if (b.data)
        write_data_markdown(out, *b.data);
    out << '\n';
}

} // namespace

namespace {

void write_text_lines(std::ostream& out, const SuiteDiff& suite, const DiffOptions& options)
{
    for (const auto& b : suite.benchmarks)
        if (b->verdict != Verdict::error && (!suite.suite || anything_changed(*b)))
            write_benchmark_text(out, *b, options);
    if (!suite.suite)
        return;
    out << std::string(80, '=') << '\n';
    suite_table(suite, false).write_text(out);
    for (const std::string& name : suite.only_base)
        out << escaped_controls(name) << ": only in base, not compared\n";
    for (const std::string& name : suite.only_new)
        out << escaped_controls(name) << ": only in new, not compared\n";
    out << closing_line(suite) << '\n';
}

} // namespace

void write_text(std::ostream& out, const SuiteDiff& suite, const DiffOptions& options)
{
    // A CI log runs what looks like a workflow command on a line of its
    // own: every line passes plain_line() (the names in them are escaped
    // already, so the lines are those written).
    std::ostringstream text;
    write_text_lines(text, suite, options);
    out << plain_lines(text.str());
}

void write_markdown(std::ostream& out, const SuiteDiff& suite, const DiffOptions& options)
{
    const Verdict v = overall(suite);
    out << "### vgprof diff: " << icon_of(v) << ' ' << verdict_name(v) << "\n\n";
    std::vector<std::string> limits;
    for (const auto& [option, spec] : threshold_options(options))
        limits.push_back(option + " " + code(spec));
    if (options.per_function)
        limits.push_back("--per-function");
    if (!options.gate_functions.empty() || !options.gate_objects.empty())
        limits.push_back("functions gated: " + joined(options.gate_functions, ", ") +
                         (options.gate_objects.empty()
                              ? ""
                              : " objects " + joined(options.gate_objects, ", ")));
    out << "Thresholds: " << (limits.empty() ? "none" : joined(limits, "; ")) << ".\n\n";
    suite_table(suite, true).write_markdown(out);
    out << '\n';
    for (const auto& b : suite.benchmarks)
        if (b->verdict != Verdict::error && anything_changed(*b))
            write_benchmark_markdown(out, *b, options);
    for (const std::string& name : suite.only_base)
        out << "- " << code(name) << ": only in base, not compared\n";
    for (const std::string& name : suite.only_new)
        out << "- " << code(name) << ": only in new, not compared\n";
    // A blank line ends the list: the closing line is a paragraph of its own.
    if (!suite.only_base.empty() || !suite.only_new.empty())
        out << '\n';
    out << "**" << closing_line(suite) << "**\n";
}

} // namespace vgprof::cli
