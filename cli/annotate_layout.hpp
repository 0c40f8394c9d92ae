// SPDX-License-Identifier: GPL-2.0-or-later
// What `vgprof annotate`'s two listings, source lines and instructions,
// share: the columns and header, a listing printed whole or by its hot
// regions, the last block that accounts for every cost of the program, and
// the SOURCE arguments matched to the profile's files.
#ifndef VGPROF_CLI_ANNOTATE_LAYOUT_HPP
#define VGPROF_CLI_ANNOTATE_LAYOUT_HPP

#include "commands.hpp"
#include "report_layout.hpp"

#include "vgprof/profile.hpp"
#include "vgprof/source.hpp"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace vgprof::cli {

// A SOURCE argument and the profile's files it names.
struct NamedFiles {
    std::string source;
    std::vector<FileId> files;
    std::string on_disk;  // `source` itself when it is a file here, else empty
};

// Settled before anything is written, so a bad option fails with nothing on
// standard output.
struct Layout {
    // Throws vgprof::Error for a bad --events list or --subst and for a
    // SOURCE that names no file of the profile.
    Layout(const Profile& profile, const AnnotateOptions& options);

    // The profile name and events, as report_layout's helpers take them.
    ReportOptions view;
    ShownEvents shown;
    size_t rank_event;  // the first shown event: ranks and sets the threshold
    // One column per shown event. (Bytes allocated per line, with heap
    // data, are a column of the listing's text: see cmd_annotate.cpp.)
    CostColumns columns;
    SourceSearch search;
    // The files each SOURCE names (empty without SOURCE arguments): those
    // whose path, or that path after substitution, ends with the SOURCE or
    // is its end (at a '/'), so "app.c", "src/app.c" and
    // "/home/me/tree/src/app.c" all name a profile's "/build/src/app.c".
    std::vector<NamedFiles> named;
    size_t num_events;  // recorded: the length of every cost row

    // Whether `cost` (one entry per recorded event) is nonzero in a shown event.
    bool has_cost(const uint64_t* cost) const;
    // The cells of `cost` (null: nothing recorded), a dot for each zero.
    std::string cells(const uint64_t* cost) const;
};

// The header (profile, command, events, how files or functions were chosen,
// the context) and the program totals.
void write_annotation_header(std::ostream& out, const Profile& profile,
                             const AnnotateOptions& options, const Layout& layout);

// One line of a listing: its costs (null when nothing was recorded there)
// and its text.
struct ListingRow {
    const uint64_t* cost;
    std::string_view text;
};

// Writes positions 0 to count-1 of a listing (row(i) gives each) with
// options.all, else only the stretches options.context positions around
// those with a cost; each stretch is headed by a line naming its first
// position (marker(i): "line 12").
void write_listing(std::ostream& out, const Layout& layout, size_t count,
                   const AnnotateOptions& options, const std::function<ListingRow(size_t)>& row,
                   const std::function<std::string(size_t)>& marker);

// The last block: every cost of the program, summed by where it is (on the
// lines listed, or why not).
class CostLedger {
public:
    // `places` labels the rows, the first being the costs listed.
    CostLedger(size_t num_events, std::vector<std::string> places);

    void add(size_t place, const uint64_t* cost);
    // Each place with a cost in a shown event; the first place always.
    void write(std::ostream& out, const Layout& layout) const;

private:
    size_t num_events_;
    std::vector<std::string> places_;
    std::vector<std::vector<uint64_t>> sums_;
};

// --asm's listing (annotate_asm.cpp).
void write_disassembly(std::ostream& out, const Profile& profile, const AnnotateOptions& options,
                       const Layout& layout);

} // namespace vgprof::cli

#endif
