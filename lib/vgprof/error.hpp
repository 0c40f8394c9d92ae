// SPDX-License-Identifier: GPL-2.0-or-later
// The one exception type libvgprof throws. Code inside the library throws it
// wherever it finds a problem; only the program's edge (main, a viewer's load
// thread) turns it into a message and an exit status or UI state.
#ifndef VGPROF_ERROR_HPP
#define VGPROF_ERROR_HPP

#include <stdexcept>
#include <string>

namespace vgprof {

// what() is the complete one-line message, already naming the file and the
// place, so callers print it as it is.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

} // namespace vgprof

#endif
