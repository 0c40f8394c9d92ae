// SPDX-License-Identifier: GPL-2.0-or-later
// PNG output through stb_image_write (libstb), written as every file vgprof
// writes is (vgprof/file_io.hpp).
#include "screenshot.hpp"

#include "vgprof/error.hpp"
#include "vgprof/file_io.hpp"

#include <stb_image_write.h>

#include <ostream>

namespace vgprof::viewer {

namespace {

void append_to_stream(void* context, void* data, int size)
{
    static_cast<std::ostream*>(context)->write(static_cast<const char*>(data), size);
}

} // namespace

void write_png(const std::string& path, const std::vector<uint8_t>& rgba, int width, int height)
{
    try {
        write_file_atomically(path, [&](std::ostream& out) {
            if (!stbi_write_png_to_func(append_to_stream, &out, width, height, 4, rgba.data(),
                                        width * 4))
                throw Error(path + ": cannot encode the image");
        });
    } catch (const Error& e) {
        throw Error(std::string("cannot write the screenshot: ") + e.what());
    }
}

} // namespace vgprof::viewer
