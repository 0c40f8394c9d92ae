// SPDX-License-Identifier: GPL-2.0-or-later
// The views' names, on the command line and on their tabs, and which of
// them show the thread chosen.
#include "views.hpp"

namespace vgprof::viewer {

const char* view_key(ViewId view)
{
    switch (view) {
    case ViewId::functions: return "functions";
    case ViewId::calltree: return "calltree";
    case ViewId::bottomup: return "bottomup";
    case ViewId::sandwich: return "sandwich";
    case ViewId::callgraph: return "callgraph";
    case ViewId::flamegraph: return "flamegraph";
    case ViewId::heatmap: return "heatmap";
    case ViewId::source: return "source";
    case ViewId::heap: return "heap";
    case ViewId::timeline: return "timeline";
    }
    return "";
}

bool shows_thread(ViewId view)
{
    return view != ViewId::heatmap && view != ViewId::source && view != ViewId::heap &&
           view != ViewId::timeline;
}

const char* view_title(ViewId view)
{
    switch (view) {
    case ViewId::functions: return "Functions";
    case ViewId::calltree: return "Call tree";
    case ViewId::bottomup: return "Bottom-up";
    case ViewId::sandwich: return "Sandwich";
    case ViewId::callgraph: return "Call graph";
    case ViewId::flamegraph: return "Flame graph";
    case ViewId::heatmap: return "Cache heatmap";
    case ViewId::source: return "Source";
    case ViewId::heap: return "Heap";
    case ViewId::timeline: return "Timeline";
    }
    return "";
}

const SpanTree* TimelineFocus::spans(const Profile& p)
{
    if (!p.timeline())
        return nullptr;
    if (!tree_)
        tree_.emplace(*p.timeline(), p.num_events());
    return &*tree_;
}

std::optional<ViewId> view_from_key(const std::string& key)
{
    for (ViewId v : kAllViews)
        if (key == view_key(v))
            return v;
    return std::nullopt;
}

} // namespace vgprof::viewer
