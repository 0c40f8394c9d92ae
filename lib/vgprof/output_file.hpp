// SPDX-License-Identifier: GPL-2.0-or-later
// write_file_atomically() is declared with the other file functions in
// vgprof/file_io.hpp; this header stays for the code that includes it.
#ifndef VGPROF_OUTPUT_FILE_HPP
#define VGPROF_OUTPUT_FILE_HPP

#include "vgprof/file_io.hpp"

#endif
