// SPDX-License-Identifier: GPL-2.0-or-later
// An object file's machine code as objdump (GNU binutils) disassembles it,
// and how the instruction addresses a profile recorded map onto it. The
// profile holds addresses as they were in the running process; an
// executable linked at a fixed address runs at its own addresses, but a
// position-independent executable or a shared library runs wherever the
// loader put it, and the profile does not say where, so the offset is
// worked out from the functions both name (load_offset).
#ifndef VGPROF_DISASM_HPP
#define VGPROF_DISASM_HPP

#include "vgprof/profile.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vgprof {

struct Disassembly {
    struct Instruction {
        uint64_t addr = 0;
        std::string text;  // "add    $0x1,%eax"
    };
    // A label objdump puts before the code at a symbol's address.
    struct Symbol {
        uint64_t addr = 0;
        std::string name;

        // Whether this label is the symbol of the function Valgrind named
        // `function`. Symbol versions ("@@GLIBC_2.14") do not count, as
        // Valgrind keeps them for some names and not for others; a PLT
        // entry ("printf@plt") or a place objdump names by its distance
        // from another symbol ("main+0x10") names no function.
        bool names(std::string_view function) const;
    };
    std::vector<Instruction> instructions;  // ascending address
    std::vector<Symbol> symbols;            // ascending address

    // The index of the instruction that starts at `addr`, or nullopt.
    std::optional<size_t> instruction_at(uint64_t addr) const;
    // The index of the first instruction at or after `addr` (size() when none).
    size_t first_at_or_after(uint64_t addr) const;
    // The last symbol at or before `addr`, or nullptr.
    const Symbol* symbol_before(uint64_t addr) const;
    // The address of the first symbol after `addr`, or nullopt.
    std::optional<uint64_t> next_symbol_after(uint64_t addr) const;
};

// Parses what `objdump -d --no-show-raw-insn` prints: symbol labels
// ("0000000000001139 <main>:") and instructions ("    1139:\tpush   %rbp").
Disassembly parse_objdump(std::string_view text);

// Disassembles the object file at `path` with objdump, C++ names
// demangled as Valgrind shows them. Throws vgprof::Error naming the file,
// with objdump's own message, when objdump cannot be run or fails.
Disassembly disassemble(const std::string& path);

// One place in the source an instruction came from: a line and the
// function whose code that line is.
struct SourceFrame {
    std::string file;
    uint32_t line = 0;
    std::string function;  // demangled; empty when the debug information gives none

    friend bool operator==(const SourceFrame& a, const SourceFrame& b)
    {
        return a.file == b.file && a.line == b.line && a.function == b.function;
    }
};

// Where each instruction came from, by address: its line first, then the
// line of each inlined call it lies in, outward, the last being the line
// of the function the code belongs to. Instructions without line
// information are absent.
using SourceOrigins = std::map<uint64_t, std::vector<SourceFrame>>;

// "stl_vector.h:1278": the frame's file name, without its directories,
// and its line.
std::string frame_place(const SourceFrame& frame);
// The places of `frames` in their order, innermost first:
// "stl_algobase.h:1463 <- stl_algo.h:2236 <- app.cpp:21".
std::string chain_places(const std::vector<SourceFrame>& frames);

// Parses what `objdump -d -l --inlines --no-show-raw-insn -C` prints: before
// the instructions of a new place, the function's name ("erase():"), its
// line ("/usr/include/c++/12/bits/stl_vector.h:1530") and one line per
// inlined call it lies in ("inlined by /src/app.cpp:5 (_Z4workRSt6vectorIiE)",
// the name mangled), which objdump leaves out while they do not change.
SourceOrigins parse_objdump_origins(std::string_view text);

// The origins of the instructions of [start, end) of the object file at
// `path`, from its debug information (objdump, for that range only: the
// line tables of a whole large program take seconds). Throws vgprof::Error
// as disassemble() does.
SourceOrigins source_origins(const std::string& path, uint64_t start, uint64_t end);

// Where a direct jump goes: the address objdump gives as a jump's operand
// ("jne    1653 <work+0x63>" -> 0x1653); nullopt for any other instruction,
// an indirect jump ("jmp    *%rax") and a call.
std::optional<uint64_t> jump_target(std::string_view text);

// Whether the ELF file at `path` is linked to run at fixed addresses (an
// ET_EXEC executable, not position-independent); nullopt when the file
// cannot be read or is not ELF.
std::optional<bool> linked_at_fixed_address(const std::string& path);

// What to subtract from the profile's addresses of the instructions of
// object `obj` to get the addresses of `code`, that object's disassembly:
// 0 when `fixed` (linked at fixed addresses). Otherwise, among the offsets
// (multiples of the 4 KiB page the loader maps objects at) that put the
// first executed instruction of some function of `obj` on a symbol of
// `code` of the same name, the one that puts the most of the profile's
// instructions of `obj` on instructions of `code`. nullopt when no
// function's name matches a symbol that way.
std::optional<uint64_t> load_offset(const Profile& profile, ObjId obj, const Disassembly& code,
                                    bool fixed);

} // namespace vgprof

#endif
