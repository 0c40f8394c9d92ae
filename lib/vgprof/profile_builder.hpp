// SPDX-License-Identifier: GPL-2.0-or-later
// The one way a Profile is made. A reader that numbers things its own way
// (the callgrind and DHAT readers, merge) interns strings, objects, files
// and functions by what they are and adds rows by their keys, summing rows
// with the same key; finish() numbers everything as the format orders it
// (docs/profile-format.md: strings by byte value, objects and files by path,
// functions by object, name, file and line, rows by their ids) and checks
// the invariants a reader relies on before it hands out the Profile. The
// loader, which keeps a file's own numbering, fills ProfileTables itself
// and hands them to finish() to the same end.
#ifndef VGPROF_PROFILE_BUILDER_HPP
#define VGPROF_PROFILE_BUILDER_HPP

#include "vgprof/profile.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vgprof {

// A function whose inclusive cost of an event is below its self cost:
// impossible for a correct call graph (everything the function's own
// instructions cost happened while it was on the stack), so a sign of
// wrong accounting in whatever wrote the profile.
struct InclusiveBelowSelf {
    FnId fn;
    size_t event = 0;
    uint64_t self = 0;
    uint64_t inclusive = 0;   // 0 when the function has no inclusive row
};

// What finish() checks, and how strictly.
struct FinishOptions {
    // The tables' structure (ids within their tables, totals, the path
    // tree's sums, the threads' sums, the heap's sums and bounds) was
    // checked as it was read, by a reader that can name the place in its
    // input (the loader): finish() does not check it again.
    bool structure_checked = false;
    // Whether a function with a call graph row whose inclusive cost is
    // below its self cost (InclusiveBelowSelf) makes finish() throw. When
    // false, such functions are only listed in the FinishReport, if one is
    // asked for.
    bool reject_inclusive_below_self = true;
};

// What finish() found that FinishOptions allowed.
struct FinishReport {
    std::vector<InclusiveBelowSelf> inclusive_below_self;  // by function, then event
};

class ProfileBuilder {
public:
    // How finish() numbers what was added: as the format orders it, or in
    // the order each thing was first added (a reader that keeps the order
    // of another tool's file, as the DHAT reader keeps DHAT's).
    enum class Numbering { canonical, as_added };

    // `name` stands for the profile in messages (its file name).
    explicit ProfileBuilder(std::string name, Numbering numbering = Numbering::canonical);

    // The graph argument of the call-graph functions: the whole program's,
    // or a thread's by its Valgrind thread number (from 1).
    static constexpr uint32_t kWholeProgram = 0;

    // meta.events gives every cost row its length: events are added with
    // add_event() only, so that the rows grow with them.
    Meta& meta();
    size_t num_events() const;
    // Appends an event; every row added so far gets a zero cost for it.
    void add_event(std::string name);

    // --- interning: the same key gives the same id --------------------------
    // The ids are provisional until finish() numbers the tables.
    StrId str(std::string_view text);
    ObjId object(StrId path);
    FileId file(StrId path);
    FnId function(StrId name, FileId file, ObjId obj, uint32_t line);
    // An inlined function (Function::inlined): known by its name in its
    // object, apart from any function of that name with code of its own.
    FnId inlined_function(StrId name, ObjId obj);
    // The text of an interned string.
    const std::string& text(StrId str) const;

    // --- rows summed by key ---------------------------------------------------
    // Each returns the row's numbers to add to, zeros when the key is new,
    // valid until the next call of the builder: num_events() costs for lines,
    // instrs and inclusive rows; a count then num_events() costs for calls;
    // a count, num_events() self costs and num_events() inclusive costs for
    // path nodes. Adding (and reporting a sum past 2^64-1) is the caller's.
    uint64_t* line(FnId fn, FileId file, uint32_t line);
    uint64_t* instr(uint64_t addr, FnId fn, FileId file, uint32_t line);
    // `addr`: the calling instruction's, 0 when not known.
    uint64_t* call(uint32_t graph, FnId caller, FnId callee, FileId file, uint32_t line,
                   uint64_t addr = 0);
    uint64_t* inclusive(uint32_t graph, FnId fn);
    // The path node under `parent` (nullopt: a root) for `fn` (nullopt: the
    // [truncated] node); `root_tid` keeps roots of different threads apart
    // (0 for a node that is no root, or a profile without threads).
    PathId path(std::optional<PathId> parent, std::optional<FnId> fn, uint32_t root_tid);
    uint64_t* path_row(PathId node);
    // Thread `tid` has a graph, even if no row is ever added to it.
    void thread_graph(uint32_t tid);

    // Whether the profile has a call graph and per-thread graphs; set by a
    // reader whose input has them even when it holds no rows.
    void set_call_graph(bool has);
    void set_thread_graphs(bool has);
    // Forget rows added so far (a part the profile will not have after all).
    void drop_instrs();
    // Forget the calls' instruction addresses: the rows that differed only
    // there become one, their numbers summed by `add`.
    void drop_call_addresses(const std::function<void(uint64_t& into, uint64_t n)>& add);
    void drop_call_graph();
    void drop_thread_graphs();
    // Matches the path tree's roots again without their threads (a profile
    // without per-thread graphs has one root per function); `add` sums two
    // nodes' numbers.
    void fold_thread_roots(const std::function<void(uint64_t& into, uint64_t n)>& add);

    // The heap, its frames' fn and file being this builder's ids.
    void set_heap(Heap heap);

    // --- finishing ------------------------------------------------------------
    // The tables numbered (see Numbering), for a reader that has something
    // to check or fill in on the final numbering before finish().
    ProfileTables take_tables();
    // The checked profile. Throws vgprof::Error naming the profile, the place
    // (as a path of the format: meta.totals[0], paths[3][5]) and the problem.
    Profile finish(const FinishOptions& options = {}, FinishReport* report = nullptr);
    // The same for tables numbered by the reader itself.
    static Profile finish(ProfileTables tables, const std::string& name,
                          const FinishOptions& options = {}, FinishReport* report = nullptr);

    ~ProfileBuilder();
    ProfileBuilder(ProfileBuilder&&) noexcept;
    ProfileBuilder& operator=(ProfileBuilder&&) noexcept;

private:
    // What was added, under provisional ids (profile_builder.cpp).
    struct State;
    std::unique_ptr<State> s_;
};

} // namespace vgprof

#endif
