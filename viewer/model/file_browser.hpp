// SPDX-License-Identifier: GPL-2.0-or-later
// The Open dialog's listing: a directory's subdirectories and the files
// that look like profiles (every format the loader reads: vgprof's JSON,
// callgrind's, cachegrind's and DHAT's files, each also compressed), or
// every file, in the order a person looks for them (directories first,
// then by name). Dear ImGui has no file dialog of its own; the dialog
// draws this listing.
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

// Whether a file's name is one a profile goes by: *.json, callgrind.out.*,
// cachegrind.out.*, dhat.out.* (DHAT's default), vgprof.out.*, and any of
// these ending in .gz or .zst. The loader recognises a format by its
// content, so another name still opens; it is just not listed.
bool named_like_a_profile(const std::string& name);

// Lists `dir`, leaving out hidden entries and, unless `all_files`, files
// not named_like_a_profile.
Listing list_directory(const std::string& dir, bool all_files);

// `name` entered from `dir`: ".." goes up, anything else goes down.
std::string enter(const std::string& dir, const std::string& name);

} // namespace vgprof::viewer

#endif
