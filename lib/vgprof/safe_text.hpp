// SPDX-License-Identifier: GPL-2.0-or-later
// Names as data in every output. A profile may come from a stranger (the
// profile a pull request brings to a CI job): its function names, paths,
// labels and benchmark file names can hold any bytes, newlines and escape
// sequences included. Each kind of output writes them through one function
// here, so that a name can neither start nor end a line, nor act as a
// terminal's control sequence, a GitHub workflow command or Markdown.
// (JSON is escaped by its writer.)
#ifndef VGPROF_SAFE_TEXT_HPP
#define VGPROF_SAFE_TEXT_HPP

#include <string>
#include <string_view>

namespace vgprof {

// `text` with what a terminal or a log would act on shown as escapes:
// control characters as \n, \r, \t or \xNN, the C1 controls and the
// Unicode controls that reorder text (bidirectional overrides and
// isolates) as \uNNNN, and bytes that are not UTF-8 as \xNN. Everything
// else, backslashes included, as it is.
std::string escaped_controls(std::string_view text);

// One line of plain-text output (a terminal, a CI log): `line` with its
// control characters shown as escaped_controls() shows them, tabs kept,
// and never read by GitHub Actions as a workflow command: a line whose
// first characters after blanks are "::" gets its first ':' written as
// \x3a, and "##[" anywhere (the older form) is written "##\x5b".
std::string plain_line(std::string_view line);

// Each line of `text` (ending at '\n') through plain_line().
std::string plain_lines(std::string_view text);

// --- Markdown (GitHub's flavour) --------------------------------------------

// `text` as a code span: between as many backticks as it needs (one more
// than its longest run of them), with a space inside each end when it
// starts or ends with a backtick, control characters escaped. Text with a
// '|' is written as markdown_text() writes it instead, so that it can stand
// in a table cell.
std::string markdown_code(std::string_view text);

// `text` as inline Markdown, not at the start of a line, that shows it as it
// is: control characters escaped and each ASCII punctuation character that
// can start markup there (emphasis, links, images, HTML, autolinks, code,
// table cells, strikethrough) preceded by a backslash; an '_' inside a
// word, which cannot, is left as it is.
std::string markdown_text(std::string_view text);

// --- GitHub workflow commands ----------------------------------------------

// The message of a workflow command (after the second "::"): GitHub's
// escaping of '%', '\r' and '\n'.
std::string workflow_data(std::string_view text);

// A property's value (file=..., title=...): workflow_data() and ':' and ','.
std::string workflow_property(std::string_view text);

} // namespace vgprof

#endif
