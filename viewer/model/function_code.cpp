// SPDX-License-Identifier: GPL-2.0-or-later
// Disassembling objects in the background and listing a function's code.
#include "function_code.hpp"

#include "vgprof/annotate.hpp"
#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/source.hpp"

#include <algorithm>
#include <chrono>
#include <tuple>

namespace vgprof::viewer {

const ObjectCode* ObjectCodeCache::get(const std::string& path)
{
    if (const auto d = done_.find(path); d != done_.end())
        return &d->second;
    auto it = reads_.find(path);
    if (it == reads_.end())
        it = reads_.emplace(path, std::async(std::launch::async, read_object_code, path).share()).first;
    if (it->second.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return nullptr;
    const ObjectCode* code = &(done_[path] = it->second.get());
    reads_.erase(it);
    return code;
}

bool ObjectCodeCache::busy() const { return !reads_.empty(); }

namespace {

SourceOrigins read_origins(const std::string& path, uint64_t start, uint64_t end)
{
    try {
        return source_origins(path, start, end);
    } catch (const Error&) {
        return {};  // the listing is whole without them
    }
}

} // namespace

const SourceOrigins* OriginsCache::get(const std::string& path, uint64_t start, uint64_t end)
{
    const Key key{path, start, end};
    if (const auto d = done_.find(key); d != done_.end())
        return &d->second;
    auto it = reads_.find(key);
    if (it == reads_.end())
        it = reads_.emplace(key, std::async(std::launch::async, read_origins, path, start, end).share()).first;
    if (it->second.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return nullptr;
    const SourceOrigins* origins = &(done_[key] = it->second.get());
    reads_.erase(it);
    return origins;
}

namespace {

// The run-time addresses of every instruction executed in `obj`, ascending.
std::vector<uint64_t> executed_in(const Profile& p, ObjId obj)
{
    std::vector<uint64_t> out;
    for (const InstrCost& i : p.instrs())
        if (p.function(i.fn).obj == obj)
            out.push_back(i.addr);
    std::sort(out.begin(), out.end());
    return out;
}

// Where the code of a function without a symbol starts in its object: the
// tool names it by that address ("0x0000000000627ca0", " [PLT]" after the
// stubs' start), as callgrind does.
std::optional<uint64_t> unnamed_start(const std::string& name)
{
    std::string digits = name;
    if (digits.size() > 6 && digits.compare(digits.size() - 6, 6, " [PLT]") == 0)
        digits.resize(digits.size() - 6);
    if (digits.size() != 18 || digits.compare(0, 2, "0x") != 0 ||
        digits.find_first_not_of("0123456789abcdef", 2) != std::string::npos)
        return std::nullopt;
    return std::stoull(digits.substr(2), nullptr, 16);
}

// Where that code ends at the latest: the next symbol of the object, or the
// start of the next unnamed function of the object the profile has,
// whichever comes first.
uint64_t unnamed_end(const Profile& p, ObjId obj, const Disassembly& code, uint64_t start)
{
    uint64_t end = code.next_symbol_after(start).value_or(~uint64_t(0));
    for (const Function& f : p.functions())
        if (f.obj == obj)
            if (const std::optional<uint64_t> other = unnamed_start(p.str(f.name)); other && *other > start)
                end = std::min(end, *other);
    return end;
}

// The addresses to list: [start, end) of the object file.
struct Span {
    uint64_t start = 0, end = 0;
};

// The function's own symbol when the object has one of its name, else
// the symbol at its first executed instruction, else nothing.
const Disassembly::Symbol* symbol_of(const Disassembly& code, const std::string& name,
                                     std::optional<uint64_t> first_executed)
{
    if (first_executed) {
        const Disassembly::Symbol* s = code.symbol_before(*first_executed);
        return s && (s->names(name) || s->addr == *first_executed) ? s : nullptr;
    }
    const auto it = std::find_if(code.symbols.begin(), code.symbols.end(),
                                 [&](const Disassembly::Symbol& s) { return s.names(name); });
    return it == code.symbols.end() ? nullptr : &*it;
}

// Where a call or jump instruction goes, as objdump's text says.
struct Transfer {
    bool call = false;     // a call, not a jump
    bool indirect = false; // through a register or memory ("call   *%rax")
    std::string target;    // a direct one's symbol: "helper" for "<helper>", "strlen" for "<strlen@plt>"
};

std::optional<Transfer> transfer_of(const std::string& text)
{
    Transfer t;
    t.call = text.rfind("call", 0) == 0;
    if (!t.call && text.rfind("jmp", 0) != 0)
        return std::nullopt;
    const size_t operand = text.find_first_of(" \t");
    t.indirect = operand != std::string::npos && text.find('*', operand) != std::string::npos;
    const size_t open = text.find('<'), close = text.rfind('>');
    if (!t.indirect && open != std::string::npos && close != std::string::npos && close > open) {
        t.target = text.substr(open + 1, close - open - 1);
        if (t.target.size() > 4 && t.target.compare(t.target.size() - 4, 4, "@plt") == 0)
            t.target.resize(t.target.size() - 4);
    }
    return t;
}

// Whether a direct call or jump to `t` enters the function named `name`
// (a jump to a place inside a function, "helper+0x10", does not).
bool enters(const Transfer& t, const std::string& name)
{
    return !t.indirect && Disassembly::Symbol{0, t.target}.names(name);
}

// Adds the cost of calls row `r` to `call`.
void add_call(AsmCall& call, const Profile& p, size_t r)
{
    const CallEdge& c = p.calls()[r];
    call.callee = c.callee;
    call.count += c.count;
    call.inclusive.resize(p.num_events(), 0);
    for (size_t e = 0; e < p.num_events(); ++e)
        call.inclusive[e] += p.call_cost(r)[e];
}

// Puts each of `fn`'s calls rows that names its instruction (version 8)
// under that instruction, the rows of one callee there merged. Returns
// how many calls named an instruction the listing does not hold.
uint64_t place_calls_by_address(AsmListing& out, const Profile& p, FnId fn, uint64_t offset)
{
    std::map<uint64_t, size_t> line_at;  // object-file address -> line of out
    for (size_t i = 0; i < out.lines.size(); ++i)
        line_at[out.lines[i].addr] = i;
    std::map<std::pair<size_t, uint32_t>, AsmCall> placed;  // (line, callee) -> calls
    uint64_t unplaced = 0;
    for (size_t r = 0; r < p.calls().size(); ++r) {
        const CallEdge& c = p.calls()[r];
        if (c.caller != fn || c.addr == 0)
            continue;
        const auto at = line_at.find(c.addr - offset);
        if (at == line_at.end()) {
            unplaced += c.count;
            continue;
        }
        add_call(placed[{at->second, c.callee.index()}], p, r);
    }
    for (auto& [key, call] : placed)
        out.lines[key.first].calls.push_back(std::move(call));
    return unplaced;
}

// Ties `fn`'s calls rows to its executed call instructions in `out` (see
// function_listing); `offset` takes the profile's addresses to the file's.
void place_calls(AsmListing& out, const Profile& p, FnId fn, uint64_t offset, size_t event)
{
    const uint64_t unplaced_by_address = place_calls_by_address(out, p, fn, offset);
    using Site = std::pair<uint32_t, uint32_t>;  // file index, line
    std::map<uint64_t, Site> site_of;            // by object-file address
    for (const InstrCost& i : p.instrs())
        if (i.fn == fn)
            site_of[i.addr - offset] = {i.file.index(), i.line};
    // The executed calls and jumps of each source line.
    std::map<Site, std::vector<std::pair<size_t, Transfer>>> at_site;
    for (size_t i = 0; i < out.lines.size(); ++i) {
        const auto site = site_of.find(out.lines[i].addr);
        if (site == site_of.end())
            continue;
        if (auto t = transfer_of(out.lines[i].text))
            at_site[site->second].push_back({i, std::move(*t)});
    }
    // The calls rows of fn without an address (before version 8), merged
    // over nothing but what tells them apart here.
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, AsmCall> rows;
    for (size_t r = 0; r < p.calls().size(); ++r) {
        const CallEdge& c = p.calls()[r];
        if (c.caller == fn && c.addr == 0)
            add_call(rows[{c.file.index(), c.line, c.callee.index()}], p, r);
    }
    // How many times an instruction ran, when the profile counts
    // instructions: a call instruction that ran N times made N calls.
    const std::optional<size_t> ir = p.event_index("Ir");
    std::vector<bool> taken_by_count(out.lines.size(), false);
    uint64_t unplaced = 0, unplaced_by_line = 0;
    for (auto& [key, call] : rows) {
        const auto& here = at_site[{std::get<0>(key), std::get<1>(key)}];
        const std::string& name = p.fn_name(call.callee);
        // The instructions of the line that `fit`.
        const auto all = [&](auto fits) {
            std::vector<size_t> found;
            for (const auto& [line, t] : here)
                if (fits(t))
                    found.push_back(line);
            return found;
        };
        std::vector<size_t> lines = all([&](const Transfer& t) { return enters(t, name); });
        // The key by another name: C++17 lets no lambda capture a structured
        // binding, and clang, which builds the fuzz targets, holds to that.
        const auto& row_key = key;
        // Else the calls there that no other row's callee names (a call
        // through the PLT of a function resolved to another name, an
        // indirect call, a call into unnamed code).
        if (lines.empty())
            lines = all([&](const Transfer& t) {
                return t.call && std::none_of(rows.begin(), rows.end(), [&](const auto& other) {
                           return std::get<0>(other.first) == std::get<0>(row_key) &&
                                  std::get<1>(other.first) == std::get<1>(row_key) &&
                                  enters(t, p.fn_name(other.second.callee));
                       });
            });
        // Else the line's calls, whatever they name: the first call through
        // a PLT entry also calls the dynamic linker's resolver.
        if (lines.empty())
            lines = all([](const Transfer& t) { return t.call; });
        // Of several, the one that ran as many times as there were calls.
        if (lines.size() > 1 && ir) {
            std::vector<size_t> by_count;
            for (size_t l : lines)
                if (!taken_by_count[l] && out.lines[l].cost[*ir] == call.count)
                    by_count.push_back(l);
            lines = by_count;
            if (lines.size() == 1)
                taken_by_count[lines.front()] = true;
        }
        if (lines.size() != 1) {
            unplaced += call.count;
            unplaced_by_line += std::get<1>(key) != 0 ? call.count : 0;
            continue;
        }
        out.lines[lines.front()].calls.push_back(std::move(call));
    }
    for (AsmLine& l : out.lines)
        std::stable_sort(l.calls.begin(), l.calls.end(),
                         [event](const AsmCall& a, const AsmCall& b) { return a.inclusive[event] > b.inclusive[event]; });
    if (unplaced_by_address > 0)
        out.notes.push_back(count_text(unplaced_by_address, "call", "calls") +
                            " not shown: made at instructions outside this listing.");
    if (unplaced > 0)
        out.notes.push_back(count_text(unplaced, "call", "calls") + " not shown: the profile records calls by " +
                            (unplaced_by_line == unplaced ? "source line, and several call instructions of the line "
                                                            "could have made them (the Source view lists them)."
                                                          : "source line, and several call instructions without a "
                                                            "line could have made them."));
}

// Ties each direct jump to the line it goes to and numbers the targets.
void link_jumps(AsmListing& out)
{
    std::map<uint64_t, size_t> line_at;
    for (size_t i = 0; i < out.lines.size(); ++i)
        line_at[out.lines[i].addr] = i;
    for (AsmLine& l : out.lines)
        if (const auto target = jump_target(l.text))
            if (const auto at = line_at.find(*target); at != line_at.end())
                l.jump_to = at->second;
    for (const AsmLine& l : out.lines)
        if (l.jump_to)
            out.lines[*l.jump_to].label = 0;
    uint32_t next = 1;
    for (AsmLine& l : out.lines)
        if (l.label)
            l.label = next++;
}

} // namespace

std::optional<uint64_t> offset_from_instructions(const std::vector<uint64_t>& executed,
                                                 const Disassembly& code)
{
    constexpr uint64_t kPage = 4096;
    constexpr size_t kSamples = 256;
    if (executed.empty())
        return std::nullopt;
    // Addresses spread over the whole code executed.
    std::vector<uint64_t> sample;
    const size_t step = std::max<size_t>(1, executed.size() / kSamples);
    for (size_t i = 0; i < executed.size(); i += step)
        sample.push_back(executed[i]);
    const uint64_t lowest = executed.front();
    std::optional<uint64_t> best;
    size_t best_hits = 0;
    for (const Disassembly::Instruction& instr : code.instructions) {
        if (instr.addr > lowest || (lowest - instr.addr) % kPage != 0)
            continue;
        const uint64_t offset = lowest - instr.addr;
        size_t hits = 0;
        for (uint64_t a : sample)
            hits += a >= offset && code.instruction_at(a - offset).has_value();
        if (hits > best_hits) {
            best = offset;
            best_hits = hits;
        }
    }
    // Nearly all, or it is a coincidence of layout.
    if (best_hits * 100 < sample.size() * 95)
        return std::nullopt;
    return best;
}

AsmListing function_listing(const Profile& p, FnId fn, const ObjectCode& object, size_t event,
                            const std::string& profile_path)
{
    AsmListing out;
    if (!object.problem.empty()) {
        out.problem = object.problem;
        return out;
    }
    const Function& f = p.function(fn);
    const std::string& name = p.fn_name(fn);
    const std::string& path = p.obj_path(f.obj);
    const PositionCosts instrs = function_instr_costs(p, {fn}).front();
    out.costs = !instrs.positions.empty();
    uint64_t offset = 0;
    std::optional<uint64_t> low, high;
    if (out.costs) {
        std::optional<uint64_t> found = load_offset(p, f.obj, object.code, object.fixed);
        if (!found)
            found = offset_from_instructions(executed_in(p, f.obj), object.code);
        if (!found) {
            out.problem = "Cannot tell where " + path + " was loaded: none of its functions in the "
                          "profile is named by a symbol of the file, and no offset puts the "
                          "instructions that ran on instructions of the file.";
            return out;
        }
        offset = *found;
        low = instrs.positions.front() - offset;
        high = instrs.positions.back() - offset;
    } else if (is_unknown(name)) {
        out.problem = "This code has no name and the profile holds no instruction addresses to find "
                      "it by: record with --dump-instr=yes to see its instructions.";
        return out;
    } else {
        out.notes.push_back("Recorded without --dump-instr=yes: no cost per instruction.");
    }
    const Disassembly& code = object.code;
    Span span;
    if (const Disassembly::Symbol* s = symbol_of(code, name, low)) {
        const std::optional<uint64_t> next = code.next_symbol_after(s->addr);
        span = {s->addr, std::max(high ? *high + 1 : 0, next.value_or(high ? *high + 1 : s->addr + 1))};
    } else if (low) {
        span = {*low, *high + 1};
        out.notes.push_back("No symbol of " + path + " names this code: listed from its first to its "
                            "last executed instruction.");
    } else if (const std::optional<uint64_t> start = unnamed_start(name)) {
        const uint64_t end = unnamed_end(p, f.obj, code, *start);
        if (end == ~uint64_t(0)) {
            out.problem = "No symbol or other function of " + path + " follows " + name +
                          ": where its code ends is not known.";
            return out;
        }
        span = {*start, end};
        out.notes.push_back("No symbol of " + path + " names this code: listed from where it starts "
                            "to the next function the object or the profile knows.");
    } else {
        out.problem = "No symbol of " + path + " is named " + name + ".";
        return out;
    }
    if (modified_after(path, profile_path))
        out.notes.push_back(path + " changed after the profile was written: its instructions may not "
                                   "be those that ran.");
    out.max_cost.assign(p.num_events(), 0);
    uint64_t best = 0;
    for (size_t i = code.first_at_or_after(span.start); i < code.first_at_or_after(span.end); ++i) {
        const Disassembly::Instruction& instr = code.instructions[i];
        AsmLine line{instr.addr, instr.text, {}, {}, {}, {}, {}, {}};
        if (const auto row = instrs.row_of(instr.addr + offset)) {
            line.cost.assign(instrs.cost(*row), instrs.cost(*row) + p.num_events());
            for (size_t e = 0; e < line.cost.size(); ++e)
                out.max_cost[e] = std::max(out.max_cost[e], line.cost[e]);
            if (!out.hottest || line.cost[event] > best) {
                out.hottest = out.lines.size();
                best = line.cost[event];
            }
        }
        out.lines.push_back(std::move(line));
    }
    if (out.costs)
        place_calls(out, p, fn, offset, event);
    link_jumps(out);
    size_t off = 0;
    for (uint64_t addr : instrs.positions)
        off += !code.instruction_at(addr - offset);
    if (off > 0)
        out.notes.push_back(std::to_string(off) + " executed addresses are no instruction of the "
                            "disassembly: the object file may not be the one that ran.");
    return out;
}

void add_origins(AsmListing& listing, const SourceOrigins& origins)
{
    for (AsmLine& l : listing.lines)
        if (const auto found = origins.find(l.addr); found != origins.end())
            l.origin = found->second;
}

std::string label_name(uint32_t label) { return "L" + std::to_string(label); }

std::string listed_text(const AsmLine& line, const AsmListing& listing)
{
    if (!line.jump_to)
        return line.text;
    // The mnemonic (with any prefix), then the target's label for its
    // address and symbol.
    const std::optional<uint32_t> label = listing.lines[*line.jump_to].label;
    size_t operand = line.text.find_first_of("0123456789abcdef", line.text.find_first_of(" \t"));
    if (operand == std::string::npos || !label)
        return line.text;
    return line.text.substr(0, operand) + "-> " + label_name(*label);
}

void subtract_base(AsmListing& now, const AsmListing& base, const DiffLink& diff)
{
    if (!base.problem.empty()) {
        now.notes.push_back("The base profile's code of this function cannot be listed (" + base.problem +
                            "): the costs are the new profile's.");
        return;
    }
    if (!base.costs) {
        now.notes.push_back("The base profile has no cost per instruction (recorded without "
                            "--dump-instr=yes): the costs are the new profile's.");
        return;
    }
    std::map<uint64_t, const AsmLine*> ran_in_base;
    for (const AsmLine& l : base.lines)
        if (!l.cost.empty())
            ran_in_base[l.addr] = &l;
    const size_t events = now.max_cost.size();
    // The base's cost of event e (of the new profile) in `cost`, 0 for none.
    const auto before = [&](const std::vector<uint64_t>& cost, size_t e) -> uint64_t {
        const auto be = diff.base_event(e);
        return be && !cost.empty() ? cost[*be] : 0;
    };
    for (AsmLine& l : now.lines) {
        const auto found = ran_in_base.find(l.addr);
        const AsmLine* b = found == ran_in_base.end() ? nullptr : found->second;
        if (b)
            ran_in_base.erase(found);
        l.delta.assign(events, 0);
        for (size_t e = 0; e < events; ++e)
            l.delta[e] = signed_delta(l.cost.empty() ? 0 : l.cost[e], b ? before(b->cost, e) : 0);
        for (AsmCall& c : l.calls) {
            const AsmCall* bc = nullptr;
            for (size_t k = 0; b && k < b->calls.size() && !bc; ++k)
                if (diff.base_fn(c.callee) == b->calls[k].callee)
                    bc = &b->calls[k];
            c.delta.assign(events, 0);
            for (size_t e = 0; e < events; ++e)
                c.delta[e] = signed_delta(c.inclusive[e], bc ? before(bc->inclusive, e) : 0);
        }
    }
    if (!ran_in_base.empty())
        now.notes.push_back(count_text(ran_in_base.size(), "instruction", "instructions") +
                            " that ran in the base profile are not in this listing: the function's code "
                            "changed between the two, and the changes per instruction mean little.");
    now.diff = true;
}

} // namespace vgprof::viewer
