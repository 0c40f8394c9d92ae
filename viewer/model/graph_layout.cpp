// SPDX-License-Identifier: GPL-2.0-or-later
// The call graph laid out by Graphviz (libgvc's dot engine). One pixel is
// taken as one of Graphviz's points.
#include "graph_layout.hpp"

#include "vgprof/error.hpp"

#include <gvc.h>

#include <cstdio>
#include <memory>
#include <string>

namespace vgprof::viewer {

namespace {

// Graphviz reports problems through a callback; the last message is kept
// for the exception.
std::string graphviz_message;

int keep_message(char* text)
{
    graphviz_message = text;
    while (!graphviz_message.empty() && graphviz_message.back() == '\n')
        graphviz_message.pop_back();
    return 0;
}

GVC_t* context()
{
    // One context for the process: creating one loads the plugin list.
    static GVC_t* gvc = [] {
        agseterrf(keep_message);
        agseterr(AGERR);
        return gvContext();
    }();
    return gvc;
}

void set(void* object, const char* name, const std::string& value)
{
    agsafeset(object, const_cast<char*>(name), const_cast<char*>(value.c_str()),
              const_cast<char*>(""));
}

std::string inches(float pixels)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", pixels / 72.0);
    return text;
}

} // namespace

GraphLayout layout_graph(const Neighbourhood& graph, const LayoutInput& sizes)
{
    GVC_t* gvc = context();
    std::unique_ptr<Agraph_t, int (*)(Agraph_t*)> g(
        agopen(const_cast<char*>("calls"), Agdirected, nullptr), &agclose);
    set(g.get(), "rankdir", "TB");
    set(g.get(), "nodesep", "0.2");
    set(g.get(), "ranksep", "0.9");

    // One rank per level, whatever direction the calls between them go.
    int lowest = 0, highest = 0;
    for (const GraphNode& n : graph.nodes) {
        lowest = std::min(lowest, n.level);
        highest = std::max(highest, n.level);
    }
    std::vector<Agnode_t*> nodes;
    std::vector<Agraph_t*> ranks;
    for (int level = lowest; level <= highest; ++level) {
        const std::string name = "rank" + std::to_string(level - lowest);
        ranks.push_back(agsubg(g.get(), const_cast<char*>(name.c_str()), 1));
        set(ranks.back(), "rank", "same");
    }
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const std::string name = "n" + std::to_string(i);
        Agraph_t* rank = ranks[size_t(graph.nodes[i].level - lowest)];
        Agnode_t* n = agnode(rank, const_cast<char*>(name.c_str()), 1);
        set(n, "shape", "box");
        set(n, "fixedsize", "true");
        set(n, "label", "");
        set(n, "width", inches(sizes.node_sizes[i].x));
        set(n, "height", inches(sizes.node_sizes[i].y));
        nodes.push_back(n);
    }
    // Levels in order from top to bottom: invisible edges keep the ranks
    // stacked even when no call runs downwards between two of them.
    for (size_t r = 0; r + 1 < ranks.size(); ++r) {
        Agnode_t* a = agfstnode(ranks[r]);
        Agnode_t* b = agfstnode(ranks[r + 1]);
        if (a && b) {
            Agedge_t* e = agedge(g.get(), a, b, nullptr, 1);
            set(e, "style", "invis");
            set(e, "weight", "0");
        }
    }
    std::vector<Agedge_t*> edges;
    for (size_t i = 0; i < graph.edges.size(); ++i) {
        const GraphEdge& edge = graph.edges[i];
        const std::string name = "e" + std::to_string(i);
        Agedge_t* e = agedge(g.get(), nodes[edge.from], nodes[edge.to],
                             const_cast<char*>(name.c_str()), 1);
        // Labels are placed by the viewer (graph_labels.hpp) once the edges
        // are routed, where they overlap nothing: Graphviz's own labels
        // overlap on dense graphs and widen every rank for the longest one.
        // A call that goes upwards (a callee calling back a caller) is laid
        // out like the others but does not pull the ranks; nor does a flat one.
        if (graph.nodes[edge.to].level <= graph.nodes[edge.from].level && edge.to != edge.from)
            set(e, "constraint", "false");
        edges.push_back(e);
    }

    graphviz_message.clear();
    if (gvLayout(gvc, g.get(), "dot") != 0)
        throw Error("cannot lay out the call graph: " +
                    (graphviz_message.empty() ? std::string("Graphviz failed") : graphviz_message));

    GraphLayout out;
    const boxf bb = GD_bb(g.get());
    out.width = float(bb.UR.x - bb.LL.x);
    out.height = float(bb.UR.y - bb.LL.y);
    // Graphviz's y grows upwards.
    const auto to_pixels = [&](pointf p) {
        return Point{float(p.x - bb.LL.x), float(bb.UR.y - p.y)};
    };
    for (size_t i = 0; i < nodes.size(); ++i)
        out.nodes.push_back({to_pixels(ND_coord(nodes[i])), sizes.node_sizes[i].x,
                             sizes.node_sizes[i].y});
    for (Agedge_t* e : edges) {
        EdgeRoute route;
        if (const splines* spl = ED_spl(e); spl && spl->size > 0) {
            const bezier& bz = spl->list[0];
            for (int k = 0; k < bz.size; ++k)
                route.spline.push_back(to_pixels(bz.list[k]));
            route.arrow_end = bz.eflag ? to_pixels(bz.ep) : route.spline.back();
        }
        if (route.spline.size() >= 4) {
            // The middle of the middle piece of the curve.
            const size_t j = 3 * (((route.spline.size() - 1) / 3 - 1) / 2);
            const Point* p = &route.spline[j];
            route.label_centre = Point{(p[0].x + 3 * p[1].x + 3 * p[2].x + p[3].x) / 8,
                                       (p[0].y + 3 * p[1].y + 3 * p[2].y + p[3].y) / 8};
        }
        out.edges.push_back(std::move(route));
    }
    gvFreeLayout(gvc, g.get());
    return out;
}

} // namespace vgprof::viewer
