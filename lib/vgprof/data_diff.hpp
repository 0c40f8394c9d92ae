// SPDX-License-Identifier: GPL-2.0-or-later
// Comparing the data objects of two profiles of one program: each object's
// accesses and misses in the base profile and in the new one. Ids differ
// between profiles, so objects are matched by data_object_key (a heap
// site by its allocation stack, a global by its object's path and name).
#ifndef VGPROF_DATA_DIFF_HPP
#define VGPROF_DATA_DIFF_HPP

#include "vgprof/data.hpp"
#include "vgprof/diff.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace vgprof {

class Profile;

// One data object of either profile.
struct DataObjectDelta {
    std::string key;    // data_object_key
    std::string kind;   // data_kind_name
    // data_object_label, the new profile's when in both (a heap site's
    // number is the new profile's).
    std::string label;
    bool in_base = false, in_now = false;
    std::array<CostDelta, kDataEvents> cost{};  // in DataCost order
    // The rate of each miss event over its accesses (data_miss_rate) in
    // each profile; nullopt for Dr, Dw and where there were no accesses.
    std::optional<double> base_rate(size_t event) const;
    std::optional<double> now_rate(size_t event) const;
};

// Every data object with an access or a miss in either profile, the
// largest change of `event` (a DataCost index) by magnitude first, ties by
// key. Objects of one profile that share a key are summed. Empty when
// either profile has no data section.
std::vector<DataObjectDelta> diff_data(const Profile& base, const Profile& now, size_t event);

} // namespace vgprof

#endif
