// SPDX-License-Identifier: GPL-2.0-or-later
// A profile in the callgrind format (Valgrind's "Callgrind Format
// Specification", version 1), which KCachegrind, QCachegrind and
// callgrind_annotate read.
#ifndef VGPROF_EXPORT_CALLGRIND_HPP
#define VGPROF_EXPORT_CALLGRIND_HPP

#include "vgprof/profile.hpp"

#include <iosfwd>

namespace vgprof {

// Writes `profile` as a callgrind file of one part, positions `line`, with
// every recorded event: per function (ob=, fl=, fn=), its self cost per
// source line (fi=/fe= where its code comes from another file), and per
// call edge (cob=, cfi=, cfn=, calls=COUNT ENTRYLINE) the call site's line
// and the calls' inclusive costs. Names are compressed ("fn=(3) main" the
// first time, "fn=(3)" after). The header carries cmd:, pid: (when the
// profile has it), the simulated caches as desc: lines, summary: and, at the
// end, totals:, both meta.totals. A profile without a call graph gives a
// file without calls, as cachegrind's are.
//
// With `thread` (one of profile.threads()), the file is that thread's, as
// callgrind --separate-threads=yes writes one per thread: a thread: line,
// the thread's calls, its self costs from its part of the call-path tree
// and its totals (thread_costs). The tree knows each function's cost, not
// its lines': a function that spent all its self cost in this thread keeps
// its lines; another's cost in the thread is at its first line.
void write_callgrind(std::ostream& out, const Profile& profile,
                     const ThreadGraph* thread = nullptr);

} // namespace vgprof

#endif
