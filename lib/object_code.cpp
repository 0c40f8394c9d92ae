// SPDX-License-Identifier: GPL-2.0-or-later
// Reading an object file's code, or saying why it cannot be read.
#include "vgprof/object_code.hpp"

#include "vgprof/error.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/source.hpp"

#include <sys/stat.h>

namespace vgprof {

namespace {

// The largest object file disassembled: a program with its full debug
// information is a few hundred megabytes.
constexpr uint64_t kMaxObjectBytes = uint64_t(4) << 30;

} // namespace

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
    // Only a regular file, wherever it is: objects are not printed, only
    // disassembled, and one that is not ELF is refused below.
    if (std::string why = file_refusal(path, kMaxObjectBytes); !why.empty()) {
        o.problem = std::move(why);
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
