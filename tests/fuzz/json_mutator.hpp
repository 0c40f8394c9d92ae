// SPDX-License-Identifier: GPL-2.0-or-later
// A structure-aware mutator for libFuzzer (LLVMFuzzerCustomMutator): a
// JSON input (a vgprof profile, a DHAT file) is parsed and one of its
// values changed as a hostile writer would: a number set to an extreme or
// to a small id just past a table, an array lengthened by copies of its
// rows or cut, a value nested deep, a string made huge or given control
// characters, a value of another type; the result is written back. Byte
// mutations of the input changed this way rarely stay valid JSON long
// enough to reach the readers' checks of what the values mean. Text inputs
// (callgrind and cachegrind files) get the same kinds of changes line by
// line; anything else is left to libFuzzer's own byte mutations.
#ifndef VGPROF_TESTS_FUZZ_JSON_MUTATOR_HPP
#define VGPROF_TESTS_FUZZ_JSON_MUTATOR_HPP

#include <cstddef>
#include <cstdint>

namespace vgprof::fuzz {

// Mutates data[0, size) in place into at most max_size bytes; returns the
// new size. `seed` decides every choice.
size_t mutate(uint8_t* data, size_t size, size_t max_size, unsigned int seed);

} // namespace vgprof::fuzz

#endif
