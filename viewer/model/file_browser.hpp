// SPDX-License-Identifier: GPL-2.0-or-later
// The Open dialog's listing: a directory's subdirectories and the files
// that look like profiles (*.json), or every file, in the order a person
// looks for them (directories first, then by name). Dear ImGui has no file
// dialog of its own; the dialog draws this listing.
#ifndef VGPROF_VIEWER_FILE_BROWSER_HPP
#define VGPROF_VIEWER_FILE_BROWSER_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace vgprof::viewer {

struct DirEntry {
    std::string name;
    bool is_dir = false;
    uint64_t size = 0;  // files only
};

struct Listing {
    std::string dir;               // absolute, normalised
    std::vector<DirEntry> entries; // ".." first unless dir is "/"
    std::string error;             // non-empty when dir cannot be read
};

// Lists `dir`, leaving out hidden entries and, unless `all_files`, files
// whose name does not end in ".json".
Listing list_directory(const std::string& dir, bool all_files);

// `name` entered from `dir`: ".." goes up, anything else goes down.
std::string enter(const std::string& dir, const std::string& name);

} // namespace vgprof::viewer

#endif
