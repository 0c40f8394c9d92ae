// SPDX-License-Identifier: GPL-2.0-or-later
// A profile's heap data in DHAT's JSON format (dhatFileVersion 2), which
// DHAT's viewer, dh_view.html, reads.
#ifndef VGPROF_EXPORT_DHAT_HPP
#define VGPROF_EXPORT_DHAT_HPP

#include "vgprof/profile.hpp"

#include <iosfwd>

namespace vgprof {

// Writes the heap of `profile` as DHAT writes its heap mode: the command,
// pid, the run's length (te) and the time of the peak (tg) in
// instructions, one program point per allocation site with its totals,
// lifetimes, maximum, t-gmax and t-end figures, bytes read and written and
// access counts, and the frame table ("0xADDR: fn (file:line)", "fn (in
// object)" without source, "[root]" first). Throws vgprof::Error when the
// profile has no heap data.
void write_dhat(std::ostream& out, const Profile& profile);

} // namespace vgprof

#endif
