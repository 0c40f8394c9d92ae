// SPDX-License-Identifier: GPL-2.0-or-later
// Comparing the data objects of two profiles (vgprof/data_diff.hpp).
#include "vgprof/data_diff.hpp"

#include "vgprof/profile.hpp"

#include <algorithm>
#include <map>

namespace vgprof {

namespace {

DataCost side(const DataObjectDelta& d, bool base)
{
    DataCost cost{};
    for (size_t e = 0; e < kDataEvents; ++e)
        cost[e] = base ? d.cost[e].base : d.cost[e].now;
    return cost;
}

// Adds `profile`'s objects to `objects`, as the base's or the new costs.
void add_objects(std::map<std::string, DataObjectDelta>& objects, const Profile& profile,
                 bool is_base)
{
    const DataProfile& data = *profile.data();
    for (size_t i = 0; i < data.objects.size(); ++i) {
        const DataObjId id{uint32_t(i)};
        const DataObject& o = data.object(id);
        const std::string key = data_object_key(profile, id);
        DataObjectDelta& d = objects[key];
        d.key = key;
        d.kind = data_kind_name(o.kind);
        if (!is_base || d.label.empty())
            d.label = data_object_label(profile, id);
        (is_base ? d.in_base : d.in_now) = true;
        for (size_t e = 0; e < kDataEvents; ++e)
            (is_base ? d.cost[e].base : d.cost[e].now) += o.cost[e];
    }
}

bool has_cost(const DataObjectDelta& d)
{
    return std::any_of(d.cost.begin(), d.cost.end(),
                       [](const CostDelta& c) { return c.base != 0 || c.now != 0; });
}

// |now - base|, exact however large the counts.
uint64_t change_size(const CostDelta& c)
{
    return c.now > c.base ? c.now - c.base : c.base - c.now;
}

} // namespace

std::optional<double> DataObjectDelta::base_rate(size_t event) const
{
    return data_miss_rate(side(*this, true), event);
}

std::optional<double> DataObjectDelta::now_rate(size_t event) const
{
    return data_miss_rate(side(*this, false), event);
}

std::vector<DataObjectDelta> diff_data(const Profile& base, const Profile& now, size_t event)
{
    std::vector<DataObjectDelta> out;
    if (base.data() == nullptr || now.data() == nullptr)
        return out;
    std::map<std::string, DataObjectDelta> objects;
    add_objects(objects, base, true);
    add_objects(objects, now, false);
    for (auto& entry : objects)
        if (has_cost(entry.second))
            out.push_back(std::move(entry.second));
    // Stable on the map's key order for ties.
    std::stable_sort(out.begin(), out.end(),
                     [&](const DataObjectDelta& a, const DataObjectDelta& b) {
                         return change_size(a.cost[event]) > change_size(b.cost[event]);
                     });
    return out;
}

} // namespace vgprof
