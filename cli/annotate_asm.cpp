// SPDX-License-Identifier: GPL-2.0-or-later
// `vgprof annotate --asm`: the costliest functions instruction by
// instruction, from objdump's disassembly of the object file each ran
// from, with the costs the profile recorded per instruction (a profile
// recorded with --dump-instr=yes).
#include "annotate_layout.hpp"

#include "vgprof/annotate.hpp"
#include "vgprof/disasm.hpp"
#include "vgprof/object_code.hpp"
#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/query.hpp"
#include "vgprof/source.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <set>

namespace vgprof::cli {

namespace {

// The rows of the last block, in order.
enum AsmPlace : size_t { kOnInstructions, kOffInstructions, kNoCode, kNotChosen };

CostLedger asm_ledger(const Profile& profile, const AnnotateOptions& options)
{
    return CostLedger(profile.num_events(),
                      {"on the instructions listed above",
                       "in listed functions, at addresses where the disassembly has no "
                       "instruction",
                       "in listed functions whose object file could not be disassembled",
                       options.sources.empty()
                           ? fmt::format("in functions below the {}% threshold",
                                         options.threshold)
                           : fmt::format("in functions not in the files named or below the {}% "
                                         "threshold",
                                         options.threshold)});
}

// An object file, disassembled once for all its functions listed.
struct ObjectListing {
    ObjectCode object;
    uint64_t offset = 0;        // profile address - the file's address
    bool modified = false;      // changed after the profile was written
};

ObjectListing object_listing(const Profile& profile, const AnnotateOptions& options, ObjId obj)
{
    ObjectListing o{read_object_code(profile.obj_path(obj))};
    if (!o.object.problem.empty())
        return o;
    const std::string& path = profile.obj_path(obj);
    const std::optional<uint64_t> offset = load_offset(profile, obj, o.object.code, o.object.fixed);
    if (!offset) {
        o.object.problem = fmt::format("cannot tell where {} was loaded: the profile holds run-time "
                                       "addresses only, and none of its functions there is named by "
                                       "a symbol of the file",
                                       path);
        return o;
    }
    o.offset = *offset;
    o.modified = modified_after(path, options.profile);
    return o;
}

std::vector<FunctionCost> chosen_functions(const Profile& profile, const AnnotateOptions& options,
                                           const Layout& layout)
{
    std::vector<FunctionCost> costs = function_self_costs(profile);
    drop_zero_costs(costs);
    sort_by_cost(costs, profile, layout.rank_event);
    std::set<FileId> files;
    for (const NamedFiles& n : layout.named)
        files.insert(n.files.begin(), n.files.end());
    const uint64_t total = profile.meta().totals[layout.rank_event];
    std::vector<FunctionCost> chosen;
    for (FunctionCost& c : costs) {
        const uint64_t cost = c.self[layout.rank_event];
        const bool named = options.sources.empty() ||
                           files.count(profile.function(c.fn).file) != 0;
        if (named && cost != 0 && reaches_threshold(cost, total, options.threshold))
            chosen.push_back(std::move(c));
    }
    return chosen;
}

// The addresses of the object file to list for a function whose executed
// instructions span [low, high]: from its symbol to the next symbol when
// the file has a symbol of its name there, else the executed span.
struct Span {
    uint64_t start, end;  // end excluded
    bool whole_function;
};

Span span_of(const Disassembly& code, const std::string& name, uint64_t low, uint64_t high)
{
    const Disassembly::Symbol* symbol = code.symbol_before(low);
    if (symbol == nullptr || (!symbol->names(name) && symbol->addr != low))
        return {low, high + 1, false};
    const std::optional<uint64_t> next = code.next_symbol_after(symbol->addr);
    return {symbol->addr, std::max(high + 1, next.value_or(high + 1)), true};
}

// The source origins of the span's instructions, from the object file's
// debug information; none when objdump gives none (no debug information).
SourceOrigins origins_of(const std::string& path, const Span& span)
{
    try {
        return source_origins(path, span.start, span.end);
    } catch (const Error&) {
        return {};
    }
}

// A row of the listing: an instruction, or before it, where the source line
// its code came from changes, that line.
struct AsmRow {
    size_t instruction;  // index in the disassembly (of the next instruction, for a source row)
    bool source;
    std::string text;
};

// "; stl_algobase.h:1463 <- stl_algo.h:2236 <- app.cpp:21  <its text>":
// the line and the inlined calls it lies in, as perf annotate shows them
// between instructions, with the line's text where the file can be read.
std::string source_row_text(const std::vector<SourceFrame>& origin, const SourceSearch& search,
                            std::map<std::string, std::vector<std::string>>& files)
{
    const SourceFrame& own = origin.front();
    auto file = files.find(own.file);
    if (file == files.end()) {
        std::vector<std::string> lines;
        try {
            lines = split_lines(read_source(own.file, search));
        } catch (const Error&) {
            // Listed without its text, as a line of a file not found.
        }
        file = files.emplace(own.file, std::move(lines)).first;
    }
    std::string text = "; " + chain_places(origin);
    if (own.line >= 1 && own.line <= file->second.size())
        text += "  " + file->second[own.line - 1];
    return text;
}

std::vector<AsmRow> asm_rows(const Disassembly& code, size_t first, size_t count, size_t width,
                             const SourceOrigins& origins, const SourceSearch& search)
{
    std::vector<AsmRow> rows;
    std::map<std::string, std::vector<std::string>> files;
    const std::vector<SourceFrame>* last = nullptr;
    for (size_t i = first; i < first + count; ++i) {
        const Disassembly::Instruction& instr = code.instructions[i];
        const auto origin = origins.find(instr.addr);
        if (origin != origins.end() && (!last || *last != origin->second)) {
            rows.push_back({i, true, source_row_text(origin->second, search, files)});
            last = &origin->second;
        }
        rows.push_back({i, false, fmt::format("{:>{}x}:  {}", instr.addr, width, instr.text)});
    }
    return rows;
}

void write_function(std::ostream& out, const Profile& profile, const AnnotateOptions& options,
                    const Layout& layout, const FunctionCost& f, const PositionCosts& instrs,
                    const ObjectListing& listing, CostLedger& ledger)
{
    print_line(out, rule());
    print_line(out, fmt::format("Function:         {}", function_label(profile, f.fn)));
    const std::string& path = profile.obj_path(profile.function(f.fn).obj);
    const auto all_to = [&](size_t place) {
        for (size_t row = 0; row < instrs.positions.size(); ++row)
            ledger.add(place, instrs.cost(row));
    };
    if (!listing.object.problem.empty() || instrs.positions.empty()) {
        print_line(out, "note: " + (instrs.positions.empty()
                                        ? std::string("no per-instruction costs recorded")
                                        : listing.object.problem));
        print_line(out, rule());
        print_line(out, layout.columns.header());
        print_line(out, layout.cells(f.self.data()) + "  function total");
        print_line(out, "");
        all_to(kNoCode);
        return;
    }
    print_line(out, listing.object.fixed
                        ? fmt::format("Object:           {}", path)
                        : fmt::format("Object:           {}, loaded at offset {:#x}", path,
                                      listing.offset));
    if (listing.modified)
        print_line(out, fmt::format("note: {} was modified after the profile was written; its "
                                    "instructions may not be those that ran",
                                    path));
    const Disassembly& code = listing.object.code;
    const uint64_t low = instrs.positions.front() - listing.offset;
    const uint64_t high = instrs.positions.back() - listing.offset;
    const Span span = span_of(code, profile.fn_name(f.fn), low, high);
    if (!span.whole_function)
        print_line(out, "note: no symbol of the object file names this function; listing from "
                        "its first to its last executed instruction");
    const size_t first = code.first_at_or_after(span.start);
    const size_t count = code.first_at_or_after(span.end) - first;
    size_t unmatched = 0;
    for (size_t row = 0; row < instrs.positions.size(); ++row) {
        const bool matched = code.instruction_at(instrs.positions[row] - listing.offset).has_value();
        unmatched += !matched;
        ledger.add(matched ? kOnInstructions : kOffInstructions, instrs.cost(row));
    }
    if (unmatched != 0)
        print_line(out, fmt::format("note: {} executed address{} of this function {} no "
                                    "instruction of the disassembly; the object file may not be "
                                    "the one that ran",
                                    unmatched, unmatched == 1 ? "" : "es",
                                    unmatched == 1 ? "is at" : "are at"));
    print_line(out, rule());
    print_line(out, layout.columns.header());
    print_line(out, layout.cells(f.self.data()) + "  function total");

    const size_t width =
        count == 0 ? 0 : fmt::format("{:x}", code.instructions[first + count - 1].addr).size();
    const std::vector<AsmRow> rows = asm_rows(code, first, count, width, origins_of(path, span), layout.search);
    write_listing(
        out, layout, rows.size(), options,
        [&](size_t i) {
            if (rows[i].source)
                return ListingRow{nullptr, rows[i].text};
            const std::optional<size_t> row =
                instrs.row_of(code.instructions[rows[i].instruction].addr + listing.offset);
            return ListingRow{row ? instrs.cost(*row) : nullptr, rows[i].text};
        },
        [&](size_t i) { return fmt::format("address {:x}", code.instructions[rows[i].instruction].addr); });
    print_line(out, "");
}

} // namespace

void write_disassembly(std::ostream& out, const Profile& profile, const AnnotateOptions& options,
                       const Layout& layout)
{
    const std::vector<FunctionCost> chosen = chosen_functions(profile, options, layout);
    std::vector<FnId> fns;
    for (const FunctionCost& f : chosen)
        fns.push_back(f.fn);
    const std::vector<PositionCosts> instrs = function_instr_costs(profile, fns);

    // Each object is disassembled once, when its first function is listed.
    std::map<ObjId, ObjectListing> objects;
    CostLedger ledger = asm_ledger(profile, options);
    for (size_t i = 0; i < chosen.size(); ++i) {
        const ObjId obj = profile.function(chosen[i].fn).obj;
        auto it = objects.find(obj);
        if (it == objects.end())
            it = objects.emplace(obj, object_listing(profile, options, obj)).first;
        write_function(out, profile, options, layout, chosen[i], instrs[i], it->second, ledger);
    }
    if (chosen.empty()) {
        print_line(out, "No function to list.");
        print_line(out, "");
    }
    const std::set<FnId> listed(fns.begin(), fns.end());
    for (size_t row = 0; row < profile.instrs().size(); ++row)
        if (listed.count(profile.instrs()[row].fn) == 0)
            ledger.add(kNotChosen, profile.instr_cost(row));
    ledger.write(out, layout);
}

} // namespace vgprof::cli
