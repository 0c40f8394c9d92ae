// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof annotate PROFILE [SOURCE...]`: source files printed line by line
// with what each line cost, as cg_annotate prints them (Valgrind 3.19), and
// the command's registration. Only the stretches around costly lines are
// printed unless --all asks for whole files, and a last block accounts for
// every cost of the program: on the lines printed, or why not there. --asm's
// listing of instructions lives in annotate_asm.cpp, --data's listing of a
// data object by offset in annotate_data.cpp.
#include "annotate_layout.hpp"
#include "commands.hpp"
#include "option_checks.hpp"

#include "vgprof/annotate.hpp"
#include "vgprof/error.hpp"
#include "vgprof/file_io.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/heap.hpp"
#include "vgprof/load.hpp"
#include "vgprof/path_display.hpp"
#include "vgprof/source.hpp"

#include <CLI/CLI.hpp>
#include <boost/json.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <map>
#include <set>
#include <utility>

namespace vgprof::cli {

namespace {

// The rows of the last block, in order.
enum SourcePlace : size_t { kOnLines, kOffLines, kUnread, kNotChosen, kNoFile };

CostLedger source_ledger(const Profile& profile, const AnnotateOptions& options)
{
    return CostLedger(profile.num_events(),
                      {"on the source lines listed above",
                       "in listed files, on no line of the source read (line 0: code "
                       "without line information)",
                       "in listed files whose source could not be read",
                       options.sources.empty()
                           ? fmt::format("in files below the {}% threshold", options.threshold)
                           : std::string("in files not named"),
                       "in code without source file information (\"???\" in the profile)"});
}

// The files to list, costliest first, and for each the path to read it
// from when SOURCE named it as it is on disk.
struct ChosenFile {
    const FileLineCosts* costs;
    std::string given;  // a SOURCE naming this file only, that exists; else empty
};

std::vector<ChosenFile> chosen_files(const Profile& profile, const AnnotateOptions& options,
                                     const Layout& layout,
                                     const std::vector<FileLineCosts>& files)
{
    std::vector<ChosenFile> chosen;
    if (options.sources.empty()) {
        const uint64_t total = profile.meta().totals[layout.rank_event];
        for (const FileLineCosts& f : files) {
            const uint64_t cost = f.lines.total[layout.rank_event];
            if (!is_unknown(profile.file_path(f.file)) && cost != 0 &&
                reaches_threshold(cost, total, options.threshold))
                chosen.push_back({&f, ""});
        }
        return chosen;
    }
    for (const FileLineCosts& f : files)
        for (const NamedFiles& n : layout.named)
            if (std::find(n.files.begin(), n.files.end(), f.file) != n.files.end()) {
                chosen.push_back({&f, n.files.size() == 1 ? n.on_disk : ""});
                break;
            }
    return chosen;
}

// Reads the source of `file`, or says in a note why it cannot be used.
// Returns false, the note written, when there are no lines to list.
bool read_source(std::ostream& out, const Profile& profile, const AnnotateOptions& options,
                 const Layout& layout, const ChosenFile& file, std::vector<std::string>& lines)
{
    const std::string& recorded = profile.file_path(file.costs->file);
    std::string path = file.given;
    if (path.empty()) {
        const SourceLookup lookup = find_source(recorded, layout.search);
        if (!lookup.refused.empty()) {
            print_line(out, "note: source file skipped: " + lookup.refused);
            return false;
        }
        if (lookup.found.empty()) {
            print_line(out, fmt::format("note: source file not found (looked for {})",
                                        fmt::join(lookup.tried, ", ")));
            if (rustc_prefix_length(recorded) != 0 && layout.search.rust_library_dirs.empty())
                print_line(out, "note: Rust's standard library sources are not installed "
                                "(rustup component add rust-src, or --rust-src DIR or RUST_SRC_PATH)");
            return false;
        }
        path = lookup.found;
    }
    if (path != recorded)
        print_line(out, fmt::format("Read from:        {}", path));
    try {
        lines = split_lines(read_named_file(path, kMaxSourceBytes));
    } catch (const Error& e) {
        print_line(out, fmt::format("note: source file cannot be read: {}", e.what()));
        return false;
    }
    if (modified_after(path, options.profile))
        print_line(out, fmt::format("note: {} was modified after the profile was written; "
                                    "the costs may belong to other lines than those shown",
                                    path));
    return true;
}

// The functions whose code in the file reaches the threshold, under the
// file's total.
void write_file_summary(std::ostream& out, const Profile& profile,
                        const AnnotateOptions& options, const Layout& layout,
                        const FileLineCosts& file)
{
    std::vector<FunctionCost> functions = function_costs_in_file(profile, file.file);
    sort_by_cost(functions, profile, layout.rank_event);
    print_line(out, layout.columns.header());
    print_line(out, layout.cells(file.lines.total.data()) + "  file total");
    const uint64_t total = profile.meta().totals[layout.rank_event];
    for (const FunctionCost& f : functions)
        if (f.self[layout.rank_event] != 0 &&
            reaches_threshold(f.self[layout.rank_event], total, options.threshold))
            print_line(out, layout.cells(f.self.data()) + "    " +
                                function_label(profile, f.fn, PathDisplay{options.strip_prefixes}));
}

// Costs recorded on lines the source does not have: line 0, or past its end.
void note_lines_off_source(std::ostream& out, const FileLineCosts& file, size_t line_count)
{
    const std::vector<uint64_t>& positions = file.lines.positions;
    if (!positions.empty() && positions.front() == 0)
        print_line(out, "note: some of the file's code has no line information (line 0); its "
                        "costs are counted at the end");
    if (!positions.empty() && positions.back() > line_count)
        print_line(out, fmt::format("note: the profile has costs on lines up to {}, past the "
                                    "end of the file's {} lines: the file may have changed "
                                    "since the program was built; those costs are counted at "
                                    "the end",
                                    positions.back(), line_count));
}

// What the calls on each line allocated, by (file, line); empty without
// heap data.
using AllocatedByLine = std::map<std::pair<FileId, uint32_t>, Allocated>;

// With heap data, each source line is prefixed with the bytes and blocks
// allocated by the calls made on it, inclusively ("." for none), a column
// between the costs and the text.
std::vector<std::string> with_allocated(std::vector<std::string> source, FileId file,
                                              const AllocatedByLine& allocated)
{
    for (size_t i = 0; i < source.size(); ++i) {
        const auto it = allocated.find({file, uint32_t(i + 1)});
        const std::string figure =
            it == allocated.end()
                ? "."
                : fmt::format("{} ({})", format_thousands(it->second.bytes),
                              format_thousands(it->second.blocks));
        source[i] = fmt::format("{:>22}  {}", figure, source[i]);
    }
    return source;
}

void write_file(std::ostream& out, const Profile& profile, const AnnotateOptions& options,
                const Layout& layout, const ChosenFile& file, CostLedger& ledger,
                const AllocatedByLine& allocated)
{
    const FileLineCosts& f = *file.costs;
    print_line(out, rule());
    print_line(out, fmt::format("File:             {}",
                                PathDisplay{options.strip_prefixes}.show(profile.file_path(f.file))));
    std::vector<std::string> source;
    const bool readable = read_source(out, profile, options, layout, file, source);
    print_line(out, rule());
    write_file_summary(out, profile, options, layout, f);
    if (!readable) {
        for (size_t row = 0; row < f.lines.positions.size(); ++row)
            ledger.add(kUnread, f.lines.cost(row));
        print_line(out, "");
        return;
    }
    note_lines_off_source(out, f, source.size());
    if (profile.heap() != nullptr)
        source = with_allocated(std::move(source), f.file, allocated);
    for (size_t row = 0; row < f.lines.positions.size(); ++row) {
        const uint64_t line = f.lines.positions[row];
        ledger.add(line >= 1 && line <= source.size() ? kOnLines : kOffLines, f.lines.cost(row));
    }
    // Position i of the listing is line i + 1.
    write_listing(
        out, layout, source.size(), options,
        [&](size_t i) {
            const std::optional<size_t> row = f.lines.row_of(i + 1);
            return ListingRow{row ? f.lines.cost(*row) : nullptr, source[i]};
        },
        [](size_t i) { return fmt::format("line {}", i + 1); });
    print_line(out, "");
}

void write_sources(std::ostream& out, const Profile& profile, const AnnotateOptions& options,
                   const Layout& layout)
{
    std::vector<FileLineCosts> files = file_line_costs(profile);
    sort_by_cost(files, profile, layout.rank_event);
    const std::vector<ChosenFile> chosen = chosen_files(profile, options, layout, files);
    CostLedger ledger = source_ledger(profile, options);
    const AllocatedByLine allocated = allocated_by_line(profile);
    std::set<FileId> listed;
    for (const ChosenFile& file : chosen) {
        write_file(out, profile, options, layout, file, ledger, allocated);
        listed.insert(file.costs->file);
    }
    for (const FileLineCosts& f : files) {
        if (listed.count(f.file) != 0)
            continue;
        const bool unknown = is_unknown(profile.file_path(f.file));
        for (size_t row = 0; row < f.lines.positions.size(); ++row)
            ledger.add(unknown ? kNoFile : kNotChosen, f.lines.cost(row));
    }
    if (chosen.empty()) {
        print_line(out, "No source file to list.");
        print_line(out, "");
    }
    ledger.write(out, layout);
}

// --format json: each chosen file's lines that have a cost or, with heap
// data, an allocation, with the costs of the shown events and what the
// calls made on the line allocated (as the text's column: inclusively).
void write_sources_json(std::ostream& out, const Profile& profile,
                        const AnnotateOptions& options, const Layout& layout)
{
    std::vector<FileLineCosts> files = file_line_costs(profile);
    sort_by_cost(files, profile, layout.rank_event);
    const AllocatedByLine allocated = allocated_by_line(profile);
    const std::vector<uint64_t> none(layout.num_events, 0);
    boost::json::array listed;
    for (const ChosenFile& file : chosen_files(profile, options, layout, files)) {
        const FileLineCosts& f = *file.costs;
        std::map<uint32_t, std::vector<uint64_t>> costs;
        for (size_t row = 0; row < f.lines.positions.size(); ++row)
            costs[uint32_t(f.lines.positions[row])].assign(
                f.lines.cost(row), f.lines.cost(row) + layout.num_events);
        for (auto it = allocated.lower_bound({f.file, 0});
             it != allocated.end() && it->first.first == f.file; ++it)
            costs.emplace(it->first.second, none);
        boost::json::array lines;
        for (const auto& [line, cost] : costs) {
            boost::json::object o{{"line", line},
                                  {"costs", costs_by_event(profile, layout.shown, cost)}};
            if (profile.heap() != nullptr) {
                const auto it = allocated.find({f.file, line});
                const Allocated a = it == allocated.end() ? Allocated{} : it->second;
                o["allocated"] = {{"bytes", a.bytes}, {"blocks", a.blocks}};
            }
            lines.push_back(std::move(o));
        }
        listed.push_back(
            {{"file", PathDisplay{options.strip_prefixes}.stripped(profile.file_path(f.file))},
             {"totals", costs_by_event(profile, layout.shown, std::vector<uint64_t>(
                                                                  f.lines.total.begin(),
                                                                  f.lines.total.end()))},
             {"lines", std::move(lines)}});
    }
    boost::json::object report =
        json_header(profile, layout.view, layout.shown, layout.rank_event, "self");
    report["files"] = std::move(listed);
    out << boost::json::serialize(report) << '\n';
}

int run_annotate(const AnnotateOptions& options)
{
    // Malformed options are reported before the profile is read.
    for (const std::string& s : options.substitutions)
        parse_substitution(s, "--subst");
    const Profile profile = load_profile(options.profile);
    write_annotation(std::cout, profile, options);
    check_written(std::cout, "the annotation");
    return kExitOk;
}

} // namespace

void write_annotation(std::ostream& out, const Profile& profile, const AnnotateOptions& options)
{
    if (options.format == "json" && (options.disassembly || !options.data.empty()))
        throw Error(fmt::format("--format json lists source lines: not with {}",
                                options.disassembly ? "--asm" : "--data"));
    if (!options.data.empty())
        return write_data_annotation(out, profile, options);
    const Layout layout(profile, options);
    if (options.format == "json")
        return write_sources_json(out, profile, options, layout);
    if (options.disassembly && profile.instrs().empty())
        throw Error(fmt::format("{}: --asm needs per-instruction costs, which this profile does "
                                "not have (recorded without --dump-instr=yes)",
                                options.profile));
    write_annotation_header(out, profile, options, layout);
    if (options.disassembly)
        write_disassembly(out, profile, options, layout);
    else
        write_sources(out, profile, options, layout);
}

Command add_annotate_command(CLI::App& app)
{
    auto options = std::make_shared<AnnotateOptions>();
    CLI::App* cmd = app.add_subcommand(
        "annotate",
        "Print source files line by line with each line's costs (like cg_annotate), the "
        "costliest files first, or with --asm the costliest functions' instructions.");
    cmd->add_option("PROFILE", options->profile, "profile written by valgrind --tool=vgprof")
        ->required();
    cmd->add_option("--format", options->format,
                    "output format: text, or json (each line's costs and allocations, without "
                    "the sources' text)")
        ->check(CLI::IsMember({"text", "json"}))
        ->capture_default_str();
    cmd->add_option("SOURCE", options->sources,
                    "source files to annotate: a profile's path, or its last components "
                    "(default: the files above the threshold)");
    cmd->add_option("--events", options->events,
                    "events to show, comma-separated, in this order; the first ranks files and "
                    "sets the threshold; LLm and Bm sum the last-level misses and the "
                    "mispredictions; all: every recorded event (default: Ir and LLm or Bm when "
                    "recorded)")
        ->type_name("LIST")
        ->delimiter(',')
        ->allow_extra_args(false);
    cmd->add_option("--threshold", options->threshold,
                    "list the files (with --asm, functions) of at least PCT percent of the "
                    "first event's total")
        ->type_name("PCT")
        ->check(CLI::Range(0.0, 100.0))
        ->capture_default_str();
    CLI::Option* context =
        cmd->add_option("--context", options->context,
                        "lines (with --asm, instructions) shown around each costly one")
            ->type_name("N")
            ->check(not_negative())
            ->capture_default_str();
    cmd->add_flag("--all", options->all, "list whole files (with --asm, whole functions)")
        ->excludes(context);
    cmd->add_option("--source-dir", options->source_dirs,
                    "look for relative source paths in DIR (repeatable, tried in order before "
                    "the current directory)")
        ->type_name("DIR")
        ->allow_extra_args(false);
    cmd->add_option("--subst", options->substitutions,
                    "read the sources whose path starts with FROM from TO instead (repeatable, "
                    "the first matching applies)")
        ->type_name("FROM=TO")
        ->allow_extra_args(false);
    cmd->add_option("--rust-src", options->rust_src,
                    "Rust's standard library sources (a rust-src component's .../library), "
                    "tried before the installed ones")
        ->type_name("DIR");
    cmd->add_flag("--trust-profile", options->trust_profile,
                  "read the source files the profile names wherever they are, not only below "
                  "the current directory, --source-dir, --subst and the system's and "
                  "toolchains' sources (still only regular files, never in /proc, /sys, /dev)");
    cmd->add_option("--strip-prefix", options->strip_prefixes,
                    "show paths starting with PREFIX without it (whole components); may be "
                    "given more than once")
        ->type_name("PREFIX")
        ->allow_extra_args(false);
    CLI::Option* disassembly =
        cmd->add_flag("--asm", options->disassembly,
                      "annotate the functions' disassembly (objdump) instead of source lines; "
                      "needs a profile recorded with --dump-instr=yes");
    cmd->add_option("--data", options->data,
                    "annotate a data object by offset instead: its accesses and misses per "
                    "bucket and the functions that missed on it (OBJECT: site:N for heap site N, "
                    "a global's name, stack, allocator or other)")
        ->type_name("OBJECT")
        ->excludes(disassembly);
    return Command{cmd, [options] { return run_annotate(*options); }};
}

} // namespace vgprof::cli
