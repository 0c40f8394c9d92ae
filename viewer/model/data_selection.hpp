// SPDX-License-Identifier: GPL-2.0-or-later
// A data object (a heap allocation site or a global the data section books
// cache misses to) as part of the one selection every view shares: what
// selecting one selects, which object or heap site a selection stands for
// (a heap site and its data object are one thing seen from two views), and
// the functions and data linked through the misses the data section
// records, which the views narrow to or mark.
#ifndef VGPROF_VIEWER_DATA_SELECTION_HPP
#define VGPROF_VIEWER_DATA_SELECTION_HPP

#include "selection.hpp"

#include "vgprof/data.hpp"
#include "vgprof/profile.hpp"

#include <optional>
#include <vector>

namespace vgprof::viewer {

// The selection of `object`, with the function that missed most on it by
// `event` (a DataCost index; for Dr and Dw, by all its misses) as its
// function: the views that show one function show that one.
Selection select_data_object(const Profile& profile, DataObjId object, size_t event);

// The data object `sel` stands for: the data object selected, or the
// object of the heap site selected; nullopt for anything else, or when the
// profile has no data section.
std::optional<DataObjId> selected_data_object(const Profile& profile, const Selection& sel);

// The heap site `sel` stands for: the site selected, or the site of the
// heap data object selected.
std::optional<SiteId> selected_site(const Profile& profile, const Selection& sel);

// The functions that missed on `object` (any of D1mr, DLmr, D1mw, DLmw),
// in function id order.
std::vector<FnId> functions_missing_on(const DataProfile& data, DataObjId object);

// Whether `fn` missed on `object`, for each object by id.
std::vector<bool> data_missed_by(const DataProfile& data, FnId fn);

} // namespace vgprof::viewer

#endif
