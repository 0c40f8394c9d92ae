// SPDX-License-Identifier: GPL-2.0-or-later
// The shared selection and its history.
#include "selection.hpp"

namespace vgprof::viewer {

Selection Selection::function(FnId fn)
{
    Selection s;
    s.kind = Kind::function;
    s.fn = fn;
    return s;
}

Selection Selection::source_line(FnId fn, FileId file, uint32_t line)
{
    Selection s;
    s.kind = Kind::line;
    s.fn = fn;
    s.file = file;
    s.line = line;
    return s;
}

Selection Selection::heap_site(uint32_t site, std::optional<FnId> allocating)
{
    Selection s;
    s.kind = Kind::site;
    s.site = site;
    s.fn = allocating;
    return s;
}

Selection Selection::time_range(uint64_t t0, uint64_t t1, std::optional<FnId> fn)
{
    Selection s;
    s.kind = Kind::time_range;
    s.fn = fn;
    s.t0 = t0;
    s.t1 = t1;
    return s;
}

Selection Selection::data_object(DataObjId object, std::optional<FnId> missed_most)
{
    Selection s;
    s.kind = Kind::data_object;
    s.object = object;
    s.fn = missed_most;
    return s;
}

bool operator==(const Selection& a, const Selection& b)
{
    return a.kind == b.kind && a.fn == b.fn && a.file == b.file && a.line == b.line &&
           a.site == b.site && a.t0 == b.t0 && a.t1 == b.t1 &&
           a.object == b.object;
}

void SelectionHistory::select(const Selection& s)
{
    if (s == current())
        return;
    entries_.resize(at_ + 1);
    entries_.push_back(s);
    if (entries_.size() > kLimit)
        entries_.erase(entries_.begin());
    at_ = entries_.size() - 1;
    ++version_;
}

bool SelectionHistory::back()
{
    if (!can_go_back())
        return false;
    --at_;
    ++version_;
    return true;
}

bool SelectionHistory::forward()
{
    if (!can_go_forward())
        return false;
    ++at_;
    ++version_;
    return true;
}

} // namespace vgprof::viewer
