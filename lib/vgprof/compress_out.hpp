// SPDX-License-Identifier: GPL-2.0-or-later
// Output compressed as its file's name asks: what `vgprof export` and
// `vgprof merge` write to a name ending in .gz is gzip data, to one ending
// in .zst zstd data, as the tools that read those files expect (heaptrack
// and the profile loader tell the two apart by their content; heaptrack_print
// by the name).
#ifndef VGPROF_COMPRESS_OUT_HPP
#define VGPROF_COMPRESS_OUT_HPP

#include <functional>
#include <iosfwd>
#include <string>

namespace vgprof {

enum class Compression { none, gzip, zstd };

// What a file named `path` should hold: gzip for ".gz", zstd for ".zst",
// else none.
Compression compression_for(const std::string& path);

// Runs `write` on a stream whose text reaches `out` compressed as asked
// (unchanged with Compression::none). Throws vgprof::Error when the
// compressor fails; a failed write to `out` shows on `out`'s state.
void write_compressed(std::ostream& out, Compression compression,
                      const std::function<void(std::ostream&)>& write);

} // namespace vgprof

#endif
