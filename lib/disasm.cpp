// SPDX-License-Identifier: GPL-2.0-or-later
// Disassembling object files with objdump and placing the profile's
// instruction addresses in them.
#include "vgprof/disasm.hpp"

#include "text.hpp"

#include "vgprof/error.hpp"
#include "vgprof/subprocess.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cxxabi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <unordered_map>

// configure finds objdump; a build without it still names the usual one.
#ifndef VGPROF_OBJDUMP
#define VGPROF_OBJDUMP "objdump"
#endif

namespace vgprof {

using detail::trimmed;

std::optional<size_t> Disassembly::instruction_at(uint64_t addr) const
{
    const size_t i = first_at_or_after(addr);
    if (i == instructions.size() || instructions[i].addr != addr)
        return std::nullopt;
    return i;
}

size_t Disassembly::first_at_or_after(uint64_t addr) const
{
    const auto it = std::lower_bound(
        instructions.begin(), instructions.end(), addr,
        [](const Instruction& instr, uint64_t a) { return instr.addr < a; });
    return static_cast<size_t>(it - instructions.begin());
}

const Disassembly::Symbol* Disassembly::symbol_before(uint64_t addr) const
{
    const auto it = std::upper_bound(symbols.begin(), symbols.end(), addr,
                                     [](uint64_t a, const Symbol& s) { return a < s.addr; });
    return it == symbols.begin() ? nullptr : &*std::prev(it);
}

std::optional<uint64_t> Disassembly::next_symbol_after(uint64_t addr) const
{
    const auto it = std::upper_bound(symbols.begin(), symbols.end(), addr,
                                     [](uint64_t a, const Symbol& s) { return a < s.addr; });
    if (it == symbols.end())
        return std::nullopt;
    return it->addr;
}

namespace {

// "memcpy@@GLIBC_2.14" -> "memcpy".
std::string_view without_version(std::string_view name)
{
    return name.substr(0, name.find('@'));
}

} // namespace

bool Disassembly::Symbol::names(std::string_view function) const
{
    const std::string_view label = name;
    const bool plt = label.size() >= 4 && label.substr(label.size() - 4) == "@plt";
    const bool derived =
        label.find("+0x") != std::string_view::npos || label.find("-0x") != std::string_view::npos;
    return !plt && !derived && without_version(label) == without_version(function);
}

namespace {

bool parse_hex(std::string_view text, uint64_t& value)
{
    if (text.empty() || text.size() > 16)
        return false;
    value = 0;
    for (char c : text) {
        const int digit = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                 : -1;
        if (digit < 0)
            return false;
        value = value * 16 + uint64_t(digit);
    }
    return true;
}


// "0000000000001139 <main>:" adds a symbol; "    1139:\tpush   %rbp" an
// instruction. Everything else objdump prints (the file format, section
// headings, "..." for skipped zeros) is neither.
void parse_line(std::string_view line, Disassembly& out)
{
    if (!line.empty() && line[0] != ' ') {
        const size_t open = line.find(" <");
        uint64_t addr;
        if (open == std::string_view::npos || line.size() < open + 4 ||
            line.substr(line.size() - 2) != ">:" || !parse_hex(line.substr(0, open), addr))
            return;
        out.symbols.push_back({addr, std::string(line.substr(open + 2, line.size() - open - 4))});
        return;
    }
    const size_t colon = line.find(":\t");
    uint64_t addr;
    if (colon == std::string_view::npos || !parse_hex(trimmed(line.substr(0, colon)), addr))
        return;
    const std::string_view text = trimmed(line.substr(colon + 2));
    if (!text.empty())
        out.instructions.push_back({addr, std::string(text)});
}

std::string first_line(const std::string& text)
{
    return text.substr(0, text.find('\n'));
}

// Calls read(line) for each line of `text`, without its '\n'.
template <typename Read>
void for_each_line(std::string_view text, Read read)
{
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        read(text.substr(start, end - start));
        start = end + 1;
    }
}

} // namespace

Disassembly parse_objdump(std::string_view text)
{
    Disassembly out;
    for_each_line(text, [&](std::string_view line) { parse_line(line, out); });
    // objdump lists sections in file order, which need not be address order.
    const auto by_addr = [](const auto& a, const auto& b) { return a.addr < b.addr; };
    std::stable_sort(out.instructions.begin(), out.instructions.end(), by_addr);
    std::stable_sort(out.symbols.begin(), out.symbols.end(), by_addr);
    return out;
}

namespace {

// `path` as an operand objdump cannot read as anything else: an option
// ("-..."), a response file of options ("@...").
std::string operand(const std::string& path)
{
    return !path.empty() && path[0] == '/' ? path : "./" + path;
}

// objdump's output for the object file at `path`, run with `options`
// (the disassembly's, C++ names demangled as Valgrind shows them).
std::string objdump_output(std::vector<std::string> options, const std::string& path)
{
    // VGPROF_OBJDUMP is the path configure found, not looked for on PATH.
    std::vector<std::string> argv{VGPROF_OBJDUMP, "-d", "--no-show-raw-insn", "-C"};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back("--");
    argv.push_back(operand(path));
    const Captured c = capture(argv);
    if (c.status != 0) {
        const std::string why = c.err.empty() ? "no message" : first_line(c.err);
        throw Error(path + ": objdump failed (" + why + ")");
    }
    return c.out;
}

} // namespace

Disassembly disassemble(const std::string& path)
{
    return parse_objdump(objdump_output({}, path));
}

namespace {

// "/src/app.cpp:5" or "/src/app.cpp:5 (discriminator 2)": the file and line;
// nullopt for any other text ("??:?" when objdump knows no line).
std::optional<std::pair<std::string, uint32_t>> location_of(std::string_view text)
{
    if (const size_t d = text.find(" (discriminator "); d != std::string_view::npos)
        text = text.substr(0, d);
    const size_t colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size() || colon + 11 < text.size())
        return std::nullopt;
    uint32_t line = 0;
    for (char c : text.substr(colon + 1)) {
        if (c < '0' || c > '9')
            return std::nullopt;
        line = line * 10 + uint32_t(c - '0');
    }
    return std::make_pair(std::string(text.substr(0, colon)), line);
}

std::string demangled(const std::string& name)
{
    int status = 0;
    char* text = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    if (status != 0 || text == nullptr)
        return name;
    std::string out(text);
    std::free(text);
    return out;
}

// What objdump last said of the place the next instructions come from.
struct OriginState {
    std::string function;                  // of the innermost line
    std::optional<SourceFrame> innermost;
    std::vector<SourceFrame> inlined_by;   // outward
    bool in_chain = false;                 // the last line read was part of the place
};

void parse_origin_line(std::string_view line, OriginState& s, SourceOrigins& out)
{
    constexpr std::string_view kInlinedBy = "inlined by ";
    if (line.empty()) {
        s.in_chain = false;
        return;
    }
    if (line[0] == ' ' || line[0] == '\t') {
        const size_t colon = line.find(":\t");
        uint64_t addr;
        if (colon != std::string_view::npos && parse_hex(trimmed(line.substr(0, colon)), addr) && s.innermost) {
            std::vector<SourceFrame>& frames = out[addr];
            frames.push_back(*s.innermost);
            frames.insert(frames.end(), s.inlined_by.begin(), s.inlined_by.end());
        }
        s.in_chain = false;
        return;
    }
    if (line.substr(0, kInlinedBy.size()) == kInlinedBy) {
        std::string_view rest = line.substr(kInlinedBy.size());
        std::string caller;
        if (rest.size() > 2 && rest.back() == ')') {
            const size_t open = rest.rfind(" (");
            if (open != std::string_view::npos && rest.substr(open, 16) != " (discriminator ") {
                caller = demangled(std::string(rest.substr(open + 2, rest.size() - open - 3)));
                rest = rest.substr(0, open);
            }
        }
        if (!s.in_chain)
            s.inlined_by.clear();
        if (const auto loc = location_of(rest))
            s.inlined_by.push_back({loc->first, loc->second, caller});
        s.in_chain = true;
        return;
    }
    if (const auto loc = location_of(line)) {
        s.innermost = SourceFrame{loc->first, loc->second, s.function};
        s.inlined_by.clear();
        s.in_chain = true;
        return;
    }
    uint64_t addr;
    const size_t open = line.find(" <");
    if (line.back() == ':' && !(open != std::string_view::npos && parse_hex(line.substr(0, open), addr)) &&
        line.rfind("Disassembly of section ", 0) != 0) {
        // "erase():", or "work(std::vector<int>&):" when the demangled name
        // has its parameters already.
        std::string_view name = line.substr(0, line.size() - 1);
        if (name.size() > 2 && name.substr(name.size() - 2) == "()")
            name.remove_suffix(2);
        s.function = std::string(name);
        if (s.innermost)
            s.innermost->function = s.function;
        s.inlined_by.clear();
        s.in_chain = true;
        return;
    }
    // A symbol's label, a section's heading: a new place begins.
    s = OriginState{};
}

} // namespace

std::string frame_place(const SourceFrame& frame)
{
    const size_t slash = frame.file.rfind('/');
    return (slash == std::string::npos ? frame.file : frame.file.substr(slash + 1)) + ":" +
           std::to_string(frame.line);
}

std::string chain_places(const std::vector<SourceFrame>& frames)
{
    std::string out;
    for (const SourceFrame& f : frames)
        out += (out.empty() ? "" : " <- ") + frame_place(f);
    return out;
}

SourceOrigins parse_objdump_origins(std::string_view text)
{
    SourceOrigins out;
    OriginState state;
    for_each_line(text, [&](std::string_view line) { parse_origin_line(line, state, out); });
    return out;
}

SourceOrigins source_origins(const std::string& path, uint64_t start, uint64_t end)
{
    const auto hex = [](uint64_t a) {
        char text[24];
        std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(a));
        return std::string(text);
    };
    return parse_objdump_origins(
        objdump_output({"-l", "--inlines", "--start-address=" + hex(start), "--stop-address=" + hex(end)}, path));
}

std::optional<uint64_t> jump_target(std::string_view text)
{
    // Prefixes objdump writes before a jump's mnemonic.
    for (std::string_view prefix : {"bnd ", "notrack "})
        if (text.substr(0, prefix.size()) == prefix)
            text = trimmed(text.substr(prefix.size()));
    if (text.empty() || text[0] != 'j')
        return std::nullopt;
    const size_t space = text.find_first_of(" \t");
    if (space == std::string_view::npos)
        return std::nullopt;
    std::string_view operand = trimmed(text.substr(space));
    operand = operand.substr(0, operand.find(' '));
    uint64_t addr;
    if (!parse_hex(operand, addr))
        return std::nullopt;
    return addr;
}

std::optional<bool> linked_at_fixed_address(const std::string& path)
{
    // e_ident (16 bytes) then e_type, in the file's byte order. Opened
    // without waiting: a FIFO in the file's place would block.
    unsigned char header[18];
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    struct stat st;
    const bool read_whole = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                            ::read(fd, header, sizeof header) == ssize_t(sizeof header);
    ::close(fd);
    if (!read_whole)
        return std::nullopt;
    if (std::memcmp(header, "\x7f" "ELF", 4) != 0)
        return std::nullopt;
    const bool little_endian = header[5] == 1;
    const unsigned type = little_endian ? header[16] | header[17] << 8 : header[17] | header[16] << 8;
    constexpr unsigned kExecutable = 2;  // ET_EXEC
    return type == kExecutable;
}

std::optional<uint64_t> load_offset(const Profile& profile, ObjId obj, const Disassembly& code,
                                    bool fixed)
{
    if (fixed)
        return 0;
    // The lowest executed address of each function of the object: its entry,
    // unless the function was only ever entered part-way.
    std::unordered_map<FnId, uint64_t> lowest;
    std::vector<uint64_t> executed;
    for (const InstrCost& instr : profile.instrs()) {
        if (profile.function(instr.fn).obj != obj)
            continue;
        executed.push_back(instr.addr);
        const auto [it, added] = lowest.try_emplace(instr.fn, instr.addr);
        if (!added)
            it->second = std::min(it->second, instr.addr);
    }
    std::unordered_multimap<std::string_view, const Disassembly::Symbol*> symbols;
    for (const Disassembly::Symbol& s : code.symbols)
        symbols.emplace(without_version(s.name), &s);
    constexpr uint64_t kPage = 4096;
    std::map<uint64_t, size_t> candidates;  // offset -> functions placing it
    for (const auto& [fn, addr] : lowest) {
        const std::string& name = profile.fn_name(fn);
        const auto range = symbols.equal_range(without_version(name));
        for (auto it = range.first; it != range.second; ++it) {
            const Disassembly::Symbol& s = *it->second;
            if (s.names(name) && addr >= s.addr && (addr - s.addr) % kPage == 0)
                ++candidates[addr - s.addr];
        }
    }
    std::optional<uint64_t> best;
    size_t best_landed = 0, best_votes = 0;
    for (const auto& [offset, votes] : candidates) {
        size_t landed = 0;
        for (uint64_t addr : executed)
            landed += code.instruction_at(addr - offset).has_value();
        if (!best || landed > best_landed || (landed == best_landed && votes > best_votes)) {
            best = offset;
            best_landed = landed;
            best_votes = votes;
        }
    }
    return best;
}

} // namespace vgprof
