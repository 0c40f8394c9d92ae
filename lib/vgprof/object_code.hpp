// SPDX-License-Identifier: GPL-2.0-or-later
// An object file's machine code as a profile's reader needs it: the
// disassembly and whether the file is linked at fixed addresses, or, when
// it cannot be had, why (no such file on this machine, not ELF, objdump's
// own complaint). `vgprof annotate --asm` and the viewer's machine code
// both start from this.
#ifndef VGPROF_OBJECT_CODE_HPP
#define VGPROF_OBJECT_CODE_HPP

#include "vgprof/disasm.hpp"

#include <string>

namespace vgprof {

struct ObjectCode {
    Disassembly code;
    bool fixed = false;    // linked at fixed addresses: profile addresses are the file's
    std::string problem;   // non-empty: why there is no code; nothing else is set
};

// Reads and disassembles the object file a profile names `path` ("???"
// when it knows none). Never throws: a failure is the result's problem.
ObjectCode read_object_code(const std::string& path);

} // namespace vgprof

#endif
