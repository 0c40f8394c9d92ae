// SPDX-License-Identifier: GPL-2.0-or-later
// The message a piece of library code fails with, for tests that state
// errors word for word.
#ifndef VGPROF_TESTS_ERROR_OF_HPP
#define VGPROF_TESTS_ERROR_OF_HPP

#include "vgprof/error.hpp"

#include <string>

namespace vgprof::test {

// The message of the vgprof::Error `body` throws, or "no error".
template <typename Body>
std::string error_of(Body body)
{
    try {
        body();
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

} // namespace vgprof::test

#endif
