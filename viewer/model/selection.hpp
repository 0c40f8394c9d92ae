// SPDX-License-Identifier: GPL-2.0-or-later
// The one selection every view shares, with browser-like history. A view
// that selects something calls select(); every view reads current() when it
// draws, and compares version() with the one it last saw to notice a change
// made elsewhere (to scroll to it, or lay out a graph again).
#ifndef VGPROF_VIEWER_SELECTION_HPP
#define VGPROF_VIEWER_SELECTION_HPP

#include "vgprof/ids.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace vgprof::viewer {

struct Selection {
    enum class Kind { none, function, line, site, time_range, data_object };
    Kind kind = Kind::none;
    // The function selected, the function of the line selected, the
    // function that called the allocator for the site, the function that
    // missed most on the data object, or for a time range the function
    // selected when it was chosen (a range of the heap's timeline narrows
    // the heap views and leaves the others as they were); nullopt when
    // none is.
    std::optional<FnId> fn;
    FileId file;                  // line: its file
    uint32_t line = 0;            // line: its number
    uint32_t site = 0;            // site: index into Heap::sites
    uint64_t t0 = 0, t1 = 0;      // time_range: [t0, t1) in instructions
    DataObjId object;             // data_object: a row of the data section

    static Selection function(FnId fn);
    static Selection source_line(FnId fn, FileId file, uint32_t line);
    static Selection heap_site(uint32_t site, std::optional<FnId> allocating);
    static Selection time_range(uint64_t t0, uint64_t t1, std::optional<FnId> fn = std::nullopt);
    static Selection data_object(DataObjId object, std::optional<FnId> missed_most);

    friend bool operator==(const Selection& a, const Selection& b);
    friend bool operator!=(const Selection& a, const Selection& b) { return !(a == b); }
};

class SelectionHistory {
public:
    // The selection every view shows. A copy: a view that selects while it
    // draws a table would otherwise still be reading an entry that select()
    // moved when the history grew.
    Selection current() const { return entries_[at_]; }
    // Grows by one whenever current() changes, whoever changed it.
    uint64_t version() const { return version_; }

    // Makes `s` current; what was forward of the current entry is dropped,
    // as a browser drops it when a new page is opened. Selecting what is
    // already current changes nothing.
    void select(const Selection& s);
    bool can_go_back() const { return at_ > 0; }
    bool can_go_forward() const { return at_ + 1 < entries_.size(); }
    bool back();
    bool forward();

    // At most this many entries are kept; the oldest go first.
    static constexpr size_t kLimit = 256;

private:
    std::vector<Selection> entries_{Selection{}};
    size_t at_ = 0;
    uint64_t version_ = 0;
};

} // namespace vgprof::viewer

#endif
