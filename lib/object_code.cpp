// SPDX-License-Identifier: GPL-2.0-or-later
// Reading an object file's code, or saying why it cannot be read.
#include "vgprof/object_code.hpp"

#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"

#include <sys/stat.h>

namespace vgprof {

ObjectCode read_object_code(const std::string& path)
{
    ObjectCode o;
    struct stat st;
    if (is_unknown(path)) {
        o.problem = "the code is in no object file the profile knows";
        return o;
    }
    if (::stat(path.c_str(), &st) != 0) {
        o.problem = "object file " + path + " not found";
        return o;
    }
    const std::optional<bool> fixed = linked_at_fixed_address(path);
    if (!fixed) {
        o.problem = path + " is not an ELF object file that can be read";
        return o;
    }
    o.fixed = *fixed;
    try {
        o.code = disassemble(path);
    } catch (const Error& e) {
        o.problem = e.what();
    }
    return o;
}

} // namespace vgprof
