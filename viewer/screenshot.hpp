// SPDX-License-Identifier: GPL-2.0-or-later
// Writing the window's pixels as a PNG file for --screenshot.
#ifndef VGPROF_VIEWER_SCREENSHOT_HPP
#define VGPROF_VIEWER_SCREENSHOT_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace vgprof::viewer {

// Writes `rgba` (width x height pixels, 4 bytes each, rows top to bottom)
// to `path` as a PNG: to a temporary file beside it, renamed into place
// when complete, so a failed write never leaves half a file. Throws
// vgprof::Error naming the file.
void write_png(const std::string& path, const std::vector<uint8_t>& rgba, int width, int height);

} // namespace vgprof::viewer

#endif
