// SPDX-License-Identifier: GPL-2.0-or-later
// Lookups on the Profile model that need more than an inline accessor.
#include "vgprof/profile.hpp"

namespace vgprof {

std::optional<size_t> Profile::event_index(std::string_view event) const
{
    const auto& events = meta_.events;
    for (size_t i = 0; i < events.size(); ++i)
        if (events[i] == event)
            return i;
    return std::nullopt;
}

const uint64_t* Profile::fn_inclusive(FnId fn) const
{
    if (fn.index() >= inclusive_row_of_fn_.size())
        return nullptr;
    const uint32_t row = inclusive_row_of_fn_[fn.index()];
    if (row == kNoInclusiveRow)
        return nullptr;
    return &inclusive_costs_[size_t(row) * num_events()];
}

} // namespace vgprof
