// SPDX-License-Identifier: GPL-2.0-or-later
// Disassembling objects in the background and listing a function's code.
#include "function_code.hpp"

#include "vgprof/annotate.hpp"
#include "vgprof/error.hpp"
#include "vgprof/source.hpp"

#include <algorithm>
#include <chrono>

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
    } else if (name == "???") {
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
        AsmLine line{instr.addr, instr.text, {}};
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
    size_t off = 0;
    for (uint64_t addr : instrs.positions)
        off += !code.instruction_at(addr - offset);
    if (off > 0)
        out.notes.push_back(std::to_string(off) + " executed addresses are no instruction of the "
                            "disassembly: the object file may not be the one that ran.");
    return out;
}

} // namespace vgprof::viewer
