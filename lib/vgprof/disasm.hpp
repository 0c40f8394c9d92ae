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
