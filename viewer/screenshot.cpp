// SPDX-License-Identifier: GPL-2.0-or-later
// PNG output through stb_image_write (libstb).
#include "screenshot.hpp"

#include "vgprof/error.hpp"

#include <stb_image_write.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace vgprof::viewer {

void write_png(const std::string& path, const std::vector<uint8_t>& rgba, int width, int height)
{
    const std::string temp = path + ".tmp." + std::to_string(getpid());
    if (!stbi_write_png(temp.c_str(), width, height, 4, rgba.data(), width * 4)) {
        const int err = errno;
        std::remove(temp.c_str());
        throw Error(path + ": cannot write the screenshot: " + std::strerror(err));
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        std::remove(temp.c_str());
        throw Error(path + ": cannot write the screenshot: " + std::strerror(err));
    }
}

} // namespace vgprof::viewer
