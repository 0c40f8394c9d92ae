// SPDX-License-Identifier: GPL-2.0-or-later
// Directory listings for the Open dialog.
#include "file_browser.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace vgprof::viewer {

namespace fs = std::filesystem;

namespace {

bool ends_with(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool starts_with(const std::string& s, const std::string& head) { return s.rfind(head, 0) == 0; }

} // namespace

bool named_like_a_profile(const std::string& name)
{
    std::string base = name;
    for (const char* compressed : {".gz", ".zst"})
        if (ends_with(base, compressed))
            base.resize(base.size() - std::string(compressed).size());
    if (ends_with(base, ".json"))
        return true;
    for (const char* tool : {"callgrind.out", "cachegrind.out", "dhat.out", "vgprof.out"})
        if (starts_with(base, tool))
            return true;
    return false;
}

Listing list_directory(const std::string& dir, bool all_files)
{
    Listing out;
    std::error_code ec;
    fs::path path = fs::weakly_canonical(fs::absolute(dir, ec), ec);
    out.dir = path.string();
    fs::directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        out.error = out.dir + ": " + ec.message();
        return out;
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) {
            out.error = out.dir + ": " + ec.message();
            break;
        }
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.')
            continue;
        std::error_code type_ec;
        const bool is_dir = it->is_directory(type_ec);
        if (!is_dir && !all_files && !named_like_a_profile(name))
            continue;
        DirEntry e{name, is_dir, 0};
        if (!is_dir) {
            std::error_code size_ec;
            e.size = it->file_size(size_ec);
        }
        out.entries.push_back(std::move(e));
    }
    std::sort(out.entries.begin(), out.entries.end(), [](const DirEntry& a, const DirEntry& b) {
        return a.is_dir != b.is_dir ? a.is_dir : a.name < b.name;
    });
    if (path != path.root_path())
        out.entries.insert(out.entries.begin(), DirEntry{"..", true, 0});
    return out;
}

std::string enter(const std::string& dir, const std::string& name)
{
    const fs::path path(dir);
    if (name == "..")
        return path.has_parent_path() && path != path.root_path() ? path.parent_path().string()
                                                                  : path.string();
    return (path / name).string();
}

} // namespace vgprof::viewer
