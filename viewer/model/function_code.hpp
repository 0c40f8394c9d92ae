// SPDX-License-Identifier: GPL-2.0-or-later
// A function's machine code with the cost of each instruction, for the
// Source view when there is no source to show (a stripped library, code
// without debug information): objdump's disassembly of the object file the
// function ran from (lib/disasm), read on a thread of its own once per
// object since a large library takes a second or more, and the
// per-instruction costs a profile recorded with --dump-instr=yes laid over
// it, with under each call instruction the calls it made and their
// inclusive cost (as the Source view shows them under a line).
#ifndef VGPROF_VIEWER_FUNCTION_CODE_HPP
#define VGPROF_VIEWER_FUNCTION_CODE_HPP

#include "diff_link.hpp"

#include "vgprof/disasm.hpp"
#include "vgprof/object_code.hpp"
#include "vgprof/profile.hpp"

#include <cstdint>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <tuple>
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

// The source origins of ranges of object files (vgprof/disasm.hpp), read
// in the background as objects are.
class OriginsCache {
public:
    // The origins of [start, end) of `path` when read (empty when objdump
    // could not give them); starts reading them and gives nullptr until then.
    const SourceOrigins* get(const std::string& path, uint64_t start, uint64_t end);
    bool busy() const { return !reads_.empty(); }

private:
    using Key = std::tuple<std::string, uint64_t, uint64_t>;
    std::map<Key, std::shared_future<SourceOrigins>> reads_;
    std::map<Key, SourceOrigins> done_;
};

// Where an object was loaded when no symbol says (a stripped
// position-independent executable or library): among the offsets, in
// whole pages, that put the lowest of `executed` (run-time addresses of the
// object's code, ascending) on an instruction of `code`, the one that puts
// the most of them on instructions; nullopt when none puts them all but a
// few there.
std::optional<uint64_t> offset_from_instructions(const std::vector<uint64_t>& executed,
                                                 const Disassembly& code);

// The calls one instruction made to one function.
struct AsmCall {
    FnId callee;
    uint64_t count = 0;
    std::vector<uint64_t> inclusive;  // one per event
    std::vector<int64_t> delta;       // diff mode: the change of `inclusive` from the base's
};

struct AsmLine {
    uint64_t addr = 0;           // in the object file
    std::string text;            // "add    $0x1,%eax"
    std::vector<uint64_t> cost;  // one per event; empty: nothing recorded there
    std::vector<AsmCall> calls;  // a call instruction's calls, the costliest of the event first
    std::vector<int64_t> delta;  // diff mode: the change of `cost` from the base's, per event
    // Where its code came from, its own line first, then each inlined
    // call's (add_origins); empty when not known.
    std::vector<SourceFrame> origin;
    std::optional<size_t> jump_to;  // a direct jump within the listing: the line it goes to
    std::optional<uint32_t> label;  // a jump's target: its number, from 1 in address order
};

struct AsmListing {
    std::vector<AsmLine> lines;
    std::vector<uint64_t> max_cost;     // per event, the largest instruction's
    std::optional<size_t> hottest;      // the line of the costliest instruction of the event
    bool costs = false;                 // the profile has per-instruction costs of the function
    std::vector<std::string> notes;     // what to know about the listing
    std::string problem;                // non-empty: why there is no listing
    bool diff = false;                  // the lines carry their change from a base listing
};

// The instructions of `fn`: from the symbol that names it to the next
// symbol, else from its first to its last executed instruction, with the
// costs of `profile`'s instrs rows (placed by the offset the object was
// loaded at). `profile_path` is the profile's file, to notice an object
// file changed since.
// The calls of `fn` (its `calls` rows) go under the instruction that made
// them (version 8 records its address); in older profiles they are tied
// to its call instructions by call site: a row goes to the one executed
// call (or tail-call jump) of
// its source line naming the callee, else to the line's one executed
// call naming no other callee of the line, else to its one executed call;
// of several, to the one that ran as many times as the row's calls (with
// Ir counted); rows that fit no single instruction are counted in a note.
AsmListing function_listing(const Profile& profile, FnId fn, const ObjectCode& object, size_t event,
                            const std::string& profile_path);

// Sets each line's origin from `origins`, by address.
void add_origins(AsmListing& listing, const SourceOrigins& origins);

// The instruction's text as listed: a jump to a line of the listing names
// that line's label ("jne    -> L3").
std::string listed_text(const AsmLine& line, const AsmListing& listing);

// "L3", the name of a jump target's label.
std::string label_name(uint32_t label);

// Diff mode: sets the change of each of `now`'s instructions and calls from
// `base`, the same function's listing in the base profile over the same
// object code, matched by address (calls by callee); the base counts 0
// where it has nothing. Without a usable base listing, says why in a note
// and leaves `now` as it is.
void subtract_base(AsmListing& now, const AsmListing& base, const DiffLink& diff);

} // namespace vgprof::viewer

#endif
