// SPDX-License-Identifier: GPL-2.0-or-later
// A data object in the shared selection (see data_selection.hpp).
#include "data_selection.hpp"

#include <algorithm>
#include <utility>

namespace vgprof::viewer {

namespace {

bool missed(const DataFunction& row)
{
    return std::any_of(std::begin(kDataMissEvents), std::end(kDataMissEvents),
                       [&](size_t e) { return row.cost[e] != 0; });
}

uint64_t misses(const DataFunction& row)
{
    uint64_t sum = 0;
    for (size_t e : kDataMissEvents)
        sum += row.cost[e];
    return sum;
}

} // namespace

// Accesses (Dr, Dw) are not counted per function: by them, and between
// functions of as many of the event, the one with the most misses of all.
Selection select_data_object(const Profile& profile, DataObjId object, size_t event)
{
    std::optional<FnId> worst;
    if (const DataProfile* data = profile.data()) {
        const auto fns = functions_of_data(*data, object, event);
        const auto by_event_then_misses = [&](const DataFunction& a, const DataFunction& b) {
            return std::make_pair(a.cost[event], misses(a)) < std::make_pair(b.cost[event], misses(b));
        };
        const auto it = std::max_element(fns.begin(), fns.end(), by_event_then_misses);
        if (it != fns.end() && misses(*it) != 0)
            worst = it->fn;
    }
    return Selection::data_object(object, worst);
}

std::optional<DataObjId> selected_data_object(const Profile& profile, const Selection& sel)
{
    const DataProfile* data = profile.data();
    if (!data)
        return std::nullopt;
    if (sel.kind == Selection::Kind::data_object && sel.object.index() < data->objects.size())
        return sel.object;
    if (sel.kind != Selection::Kind::site)
        return std::nullopt;
    for (size_t i = 0; i < data->objects.size(); ++i) {
        const DataObject& o = data->objects[i];
        if (o.kind == DataKind::heap && o.site && o.site->value == sel.site)
            return DataObjId(uint32_t(i));
    }
    return std::nullopt;
}

std::optional<SiteId> selected_site(const Profile& profile, const Selection& sel)
{
    if (sel.kind == Selection::Kind::site)
        return SiteId(sel.site);
    if (const auto object = selected_data_object(profile, sel))
        return profile.data()->object(*object).site;
    return std::nullopt;
}

std::vector<FnId> functions_missing_on(const DataProfile& data, DataObjId object)
{
    std::vector<FnId> fns;
    const auto [first, last] = data.fns_of(object);
    for (size_t i = first; i < last; ++i)
        if (missed(data.fns[i]))
            fns.push_back(data.fns[i].fn);
    std::sort(fns.begin(), fns.end());
    return fns;
}

std::vector<bool> data_missed_by(const DataProfile& data, FnId fn)
{
    std::vector<bool> by_object(data.objects.size(), false);
    for (const DataFunction& row : data.fns)
        if (row.fn == fn && missed(row))
            by_object[row.object.index()] = true;
    return by_object;
}

} // namespace vgprof::viewer
