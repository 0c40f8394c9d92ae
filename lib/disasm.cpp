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

#include <algorithm>
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

} // namespace

Disassembly parse_objdump(std::string_view text)
{
    Disassembly out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        parse_line(text.substr(start, end - start), out);
        start = end + 1;
    }
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

} // namespace

Disassembly disassemble(const std::string& path)
{
    // VGPROF_OBJDUMP is the path configure found, not looked for on PATH.
    const Captured c =
        capture({VGPROF_OBJDUMP, "-d", "--no-show-raw-insn", "-C", "--", operand(path)});
    if (c.status != 0) {
        const std::string why = c.err.empty() ? "no message" : first_line(c.err);
        throw Error(path + ": objdump failed (" + why + ")");
    }
    return parse_objdump(c.out);
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
