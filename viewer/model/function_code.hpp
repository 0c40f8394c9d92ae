// SPDX-License-Identifier: GPL-2.0-or-later
// A function's machine code with the cost of each instruction, for the
// Source view when there is no source to show (a stripped library, code
// without debug information): objdump's disassembly of the object file the
// function ran from (lib/disasm), read on a thread of its own once per
// object since a large library takes a second or more, and the
// per-instruction costs a profile recorded with --dump-instr=yes laid over
// it.
#ifndef VGPROF_VIEWER_FUNCTION_CODE_HPP
#define VGPROF_VIEWER_FUNCTION_CODE_HPP

#include "vgprof/disasm.hpp"
#include "vgprof/object_code.hpp"
#include "vgprof/profile.hpp"

#include <cstdint>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace vgprof::viewer {

// Object files read in the background, each once.
class ObjectCodeCache {
public:
    // The code of `path` when read; starts reading it and gives nullptr
    // until then.
    const ObjectCode* get(const std::string& path);
    // Whether a read is under way.
    bool busy() const;

private:
    std::map<std::string, std::shared_future<ObjectCode>> reads_;
    std::map<std::string, ObjectCode> done_;
};

// Where an object was loaded when no symbol says (a stripped
// position-independent executable or library): among the offsets, in
// whole pages, that put the lowest of `executed` (run-time addresses of the
// object's code, ascending) on an instruction of `code`, the one that puts
// the most of them on instructions; nullopt when none puts them all but a
// few there.
std::optional<uint64_t> offset_from_instructions(const std::vector<uint64_t>& executed,
                                                 const Disassembly& code);

struct AsmLine {
    uint64_t addr = 0;          // in the object file
    std::string text;           // "add    $0x1,%eax"
    std::vector<uint64_t> cost; // one per event; empty: nothing recorded there
};

struct AsmListing {
    std::vector<AsmLine> lines;
    std::vector<uint64_t> max_cost;     // per event, the largest instruction's
    std::optional<size_t> hottest;      // the line of the costliest instruction of the event
    bool costs = false;                 // the profile has per-instruction costs of the function
    std::vector<std::string> notes;     // what to know about the listing
    std::string problem;                // non-empty: why there is no listing
};

// The instructions of `fn`: from the symbol that names it to the next
// symbol, else from its first to its last executed instruction, with the
// costs of `profile`'s instrs rows (placed by the offset the object was
// loaded at). `profile_path` is the profile's file, to notice an object
// file changed since.
AsmListing function_listing(const Profile& profile, FnId fn, const ObjectCode& object, size_t event,
                            const std::string& profile_path);

} // namespace vgprof::viewer

#endif
