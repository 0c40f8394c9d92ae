// SPDX-License-Identifier: GPL-2.0-or-later
// Shared layout of `vgprof annotate` (see annotate_layout.hpp).
#include "annotate_layout.hpp"

#include "vgprof/annotate.hpp"
#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/path_display.hpp"

#include <fmt/format.h>

#include <optional>
#include <ostream>

namespace vgprof::cli {

namespace {

ReportOptions view_of(const AnnotateOptions& options)
{
    ReportOptions view;
    view.profile = options.profile;
    view.events = options.events;
    view.strip_prefixes = options.strip_prefixes;
    view.format = options.format;
    return view;
}

// The commit of the first of the profile's paths into Rust's standard
// library (/rustc/<commit>/...); nullopt when it has none.
std::optional<std::string> rust_library_commit(const Profile& profile)
{
    for (const StrId path : profile.files()) {
        const std::string& text = profile.str(path);
        if (const size_t n = rustc_prefix_length(text); n != 0)
            return text.substr(7, n - 8);   // between "/rustc/" and the next '/'
    }
    return std::nullopt;
}

SourceSearch search_of(const AnnotateOptions& options, const Profile& profile)
{
    SourceSearch search;
    for (const std::string& s : options.substitutions)
        search.substitutions.push_back(parse_substitution(s, "--subst"));
    search.dirs = options.source_dirs;
    search.trust_profile = options.trust_profile;
    if (const std::optional<std::string> commit = rust_library_commit(profile)) {
        if (!options.rust_src.empty())
            search.rust_library_dirs.push_back(options.rust_src);
        for (std::string& dir : installed_rust_library_dirs(*commit))
            search.rust_library_dirs.push_back(std::move(dir));
    }
    return search;
}

std::string without_leading_dot_slash(std::string path)
{
    while (path.rfind("./", 0) == 0)
        path.erase(0, 2);
    return path;
}

// A SOURCE names a recorded path when either ends with the other: a
// shortened path (src/app.c) or the file's place on this machine
// (/home/me/tree/src/app.c for a profile's src/app.c).
bool names(const std::string& path, const std::string& source)
{
    return ends_with_component(path, source) || ends_with_component(source, path);
}

// The files each SOURCE names (Layout::named). Throws vgprof::Error for a
// SOURCE that names none.
std::vector<NamedFiles> named_files(const Profile& profile, const AnnotateOptions& options,
                                    const SourceSearch& search)
{
    std::vector<NamedFiles> named;
    for (const std::string& given : options.sources) {
        // A file the user names is read wherever it is.
        SourceSearch as_named;
        as_named.trust_profile = true;
        NamedFiles n{given, {}, find_source(given, as_named).found};
        const std::string source = without_leading_dot_slash(given);
        for (size_t i = 0; i < profile.files().size(); ++i) {
            const FileId file(static_cast<uint32_t>(i));
            const std::string& path = profile.file_path(file);
            if (!is_unknown(path) && !source.empty() &&
                (names(path, source) ||
                 names(apply_substitutions(path, search.substitutions), source)))
                n.files.push_back(file);
        }
        if (n.files.empty())
            throw Error(fmt::format("{}: \"{}\" names no source file of the profile (none is "
                                    "that path, ends with it or is its end)",
                                    options.profile, given));
        named.push_back(std::move(n));
    }
    return named;
}

} // namespace

Layout::Layout(const Profile& profile, const AnnotateOptions& options)
    : view(view_of(options)),
      shown(shown_events(profile, view)),
      rank_event(shown.events.front()),
      columns(profile, shown, {""}),
      search(search_of(options, profile)),
      named(named_files(profile, options, search)),
      num_events(profile.num_events())
{
}

bool Layout::has_cost(const uint64_t* cost) const
{
    for (size_t e : shown.events)
        if (cost[e] != 0)
            return true;
    for (const SummedEvent& sum : shown.sums)
        for (size_t e : sum.parts)
            if (cost[e] != 0)
                return true;
    return false;
}

std::string Layout::cells(const uint64_t* cost) const
{
    if (cost == nullptr)
        return columns.dotted_cells(nullptr);
    const std::vector<uint64_t> costs(cost, cost + num_events);
    return columns.dotted_cells(&costs);
}

void write_annotation_header(std::ostream& out, const Profile& profile,
                             const AnnotateOptions& options, const Layout& layout)
{
    const std::string& rank = profile.meta().events[layout.rank_event];
    const char* const unit = options.disassembly ? (options.context == 1 ? "instruction" : "instructions")
                                                 : (options.context == 1 ? "line" : "lines");
    std::vector<std::string> more;
    if (!options.sources.empty())
        more.push_back(fmt::format("Sources named:    {}", fmt::join(options.sources, " ")));
    if (options.sources.empty() || options.disassembly)
        more.push_back(fmt::format("Threshold:        {}% of {} ({} listed by it)",
                                   options.threshold, rank,
                                   options.disassembly ? "functions" : "files"));
    if (options.all)
        more.push_back(fmt::format("Context:          whole {}",
                                   options.disassembly ? "functions" : "files"));
    else
        more.push_back(fmt::format("Context:          {} {} around each costly one",
                                   options.context, unit));
    if (options.disassembly)
        more.push_back("Listing:          instructions, disassembled by objdump");
    else if (profile.heap() != nullptr)
        more.push_back("Allocated:        the column before each source line: bytes (blocks) "
                       "allocated by the calls made on it, through every call below them");
    write_header(out, profile, layout.view, layout.shown, more);
    write_totals(out, profile, layout.shown);
}

void write_listing(std::ostream& out, const Layout& layout, size_t count,
                   const AnnotateOptions& options, const std::function<ListingRow(size_t)>& row,
                   const std::function<std::string(size_t)>& marker)
{
    std::vector<Region> regions;
    if (options.all) {
        if (count != 0)
            regions.push_back({0, count - 1});
    } else {
        std::vector<size_t> hot;
        for (size_t i = 0; i < count; ++i) {
            const uint64_t* cost = row(i).cost;
            if (cost != nullptr && layout.has_cost(cost))
                hot.push_back(i);
        }
        regions = hot_regions(hot, count, options.context);
    }
    for (const Region& region : regions) {
        const std::string head = "-- " + marker(region.first) + " ";
        print_line(out, head + std::string(head.size() < 80 ? 80 - head.size() : 0, '-'));
        for (size_t i = region.first; i <= region.last; ++i) {
            const ListingRow r = row(i);
            print_line(out, layout.cells(r.cost) + "  " + std::string(r.text));
        }
    }
}

CostLedger::CostLedger(size_t num_events, std::vector<std::string> places)
    : num_events_(num_events),
      places_(std::move(places)),
      sums_(places_.size(), std::vector<uint64_t>(num_events, 0))
{
}

void CostLedger::add(size_t place, const uint64_t* cost)
{
    for (size_t e = 0; e < num_events_; ++e)
        sums_[place][e] += cost[e];
}

void CostLedger::write(std::ostream& out, const Layout& layout) const
{
    print_line(out, rule());
    print_line(out, "Where the program's costs are");
    print_line(out, rule());
    print_line(out, layout.columns.header());
    for (size_t place = 0; place < places_.size(); ++place)
        if (place == 0 || layout.has_cost(sums_[place].data()))
            print_line(out, layout.cells(sums_[place].data()) + "  " + places_[place]);
}

} // namespace vgprof::cli
