// SPDX-License-Identifier: GPL-2.0-or-later
// Gathering a function's callers and callees level by level, from the
// call-path tree (or, without one, the call edges), and the calls between
// them.
#include "call_neighbourhood.hpp"

#include "vgprof/inlined.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace vgprof::viewer {

namespace {

// A side of the graph: the callers above the centre, the callees below.
enum Side { kCallers = -1, kCentre = 0, kCallees = 1 };

int side_of(int level) { return level < 0 ? kCallers : level > 0 ? kCallees : kCentre; }

class Builder {
public:
    Builder(const Document& doc, FnId centre, size_t event, size_t per_level)
        : doc_(doc), centre_(centre), event_(event), per_level_(per_level)
    {
        add(centre, 0);
    }

    // Whether `fn` may be added on `side`: not the centre, not there yet.
    bool candidate(FnId fn, int side) const
    {
        return fn != centre_ && !index_.count({fn, side});
    }

    // Keeps the `per_level` largest of `weights` as nodes of `level`;
    // returns the functions kept.
    std::set<FnId> keep_best(const std::map<FnId, uint64_t>& weights, int level)
    {
        std::vector<std::pair<FnId, uint64_t>> ranked(weights.begin(), weights.end());
        std::stable_sort(ranked.begin(), ranked.end(),
                         [](const auto& a, const auto& b) { return a.second > b.second; });
        if (ranked.size() > per_level_)
            ranked.resize(per_level_);
        std::set<FnId> kept;
        for (const auto& [fn, weight] : ranked) {
            add(fn, level);
            kept.insert(fn);
        }
        return kept;
    }

    // Adds to the node of `fn` on `side` the functions in `others` that
    // are not among `kept`.
    void count_hidden(FnId fn, int side, const std::set<FnId>& others, const std::set<FnId>& kept)
    {
        const auto node = index_.find({fn, side});
        if (node == index_.end())
            return;
        for (FnId other : others)
            out_.nodes[node->second].hidden += kept.count(other) ? 0 : 1;
    }

    void from_paths(int depth);
    void from_call_edges(int depth);
    void connect(size_t extra_edges);
    Neighbourhood take() { return std::move(out_); }

private:
    void add(FnId fn, int level)
    {
        index_.emplace(std::pair{fn, side_of(level)}, out_.nodes.size());
        if (doc_.profile().function(fn).inlined)
            out_.nodes.push_back({fn, level, inlined_cost(fn).inclusive[event_], inlined_cost(fn).self[event_], 0});
        else
            out_.nodes.push_back({fn, level, doc_.inclusive(fn, event_), doc_.self(fn, event_), 0});
    }
    // An inlined function's costs: the profile books its code to the
    // functions it was inlined into, with no call.
    const InlinedFunctionCost& inlined_cost(FnId fn)
    {
        auto it = inlined_.find(fn);
        if (it == inlined_.end())
            it = inlined_.emplace(fn, inlined_function_cost(doc_.profile(), fn)).first;
        return it->second;
    }
    // Merges calls from nodes[from] to `callee`'s nodes into `merged`.
    void link(std::map<std::pair<size_t, size_t>, GraphEdge>& merged, size_t from, FnId callee, uint64_t count,
              uint64_t cost);
    uint64_t path_cost(PathId node) const
    {
        return doc_.profile().path_inclusive(node.index())[event_];
    }
    std::vector<PathId> calls_below(PathId p) const;
    // The frame above `p` of another function than p's (past the frames of
    // its own function that called it), or nullopt at a root.
    std::optional<PathId> caller_of(PathId p) const
    {
        const auto& paths = doc_.profile().paths();
        auto up = paths[p.index()].parent;
        while (up && paths[up->index()].fn == paths[p.index()].fn)
            up = paths[up->index()].parent;
        return up;
    }
    std::vector<PathId> outermost_paths() const;
    void callers_from_paths(const std::vector<PathId>& outermost, int depth);
    void callees_from_paths(const std::vector<PathId>& outermost, int depth);
    // The functions inlined into the centre's code (the outermost inlined
    // calls in it), with the cost of the event of their code there.
    std::map<FnId, uint64_t> inlined_in_centre() const;

    const Document& doc_;
    FnId centre_;
    size_t event_, per_level_;
    Neighbourhood out_;
    std::map<std::pair<FnId, int>, size_t> index_;  // (function, side) -> node
    std::map<FnId, InlinedFunctionCost> inlined_;
};

std::vector<PathId> Builder::outermost_paths() const
{
    const auto& paths = doc_.profile().paths();
    std::vector<PathId> out;
    for (size_t i = 0; i < paths.size(); ++i) {
        if (paths[i].fn != centre_ || !doc_.has_path(i))
            continue;
        bool nested = false;
        for (auto up = paths[i].parent; up && !nested; up = paths[up->index()].parent)
            nested = paths[up->index()].fn == centre_;
        if (!nested)
            out.push_back(PathId(uint32_t(i)));
    }
    return out;
}

void Builder::from_paths(int depth)
{
    const std::vector<PathId> outermost = outermost_paths();
    callers_from_paths(outermost, depth);
    callees_from_paths(outermost, depth);
}

// Each stack through the centre is followed upwards one frame per level;
// a caller's weight is the centre's cost along the stacks through it.
void Builder::callers_from_paths(const std::vector<PathId>& outermost, int depth)
{
    const auto& paths = doc_.profile().paths();
    struct Chain {
        PathId at;      // the frame reached, whose function is shown
        uint64_t cost;  // the centre's cost along this stack
    };
    std::vector<Chain> chains;
    for (PathId c : outermost)
        chains.push_back({c, path_cost(c)});
    for (int level = 1; level <= depth + 1 && !chains.empty(); ++level) {
        std::map<FnId, uint64_t> weights;
        std::map<FnId, std::set<FnId>> callers_of;  // shown function -> callers found
        for (const Chain& c : chains) {
            const auto up = caller_of(c.at);
            if (!up || !paths[up->index()].fn)
                continue;
            const FnId fn = *paths[up->index()].fn;
            callers_of[*paths[c.at.index()].fn].insert(fn);
            if (candidate(fn, kCallers))
                weights[fn] += c.cost;
        }
        // One level past the last only counts what is not shown.
        const std::set<FnId> kept = level <= depth ? keep_best(weights, -level) : std::set<FnId>{};
        for (const auto& [fn, callers] : callers_of)
            count_hidden(fn, level == 1 ? kCentre : kCallers, callers, kept);
        std::vector<Chain> next;
        for (const Chain& c : chains) {
            const auto up = caller_of(c.at);
            if (up && paths[up->index()].fn && kept.count(*paths[up->index()].fn))
                next.push_back({*up, c.cost});
        }
        chains = std::move(next);
    }
}

// The calls made below path node `p` by other functions than its own: its
// children, and through any child of its own function (a recursive call,
// or a `???` that is a library's unnamed code calling more of it) that
// child's, so the unnamed code's real callees are not hidden behind it.
std::vector<PathId> Builder::calls_below(PathId p) const
{
    const auto& paths = doc_.profile().paths();
    const RowIndex& children = doc_.path_children();
    std::vector<PathId> out, todo{p};
    while (!todo.empty()) {
        const PathId at = todo.back();
        todo.pop_back();
        for (const uint32_t* ch = children.begin_of(at.index()); ch != children.end_of(at.index()); ++ch) {
            if (!paths[*ch].fn)
                continue;
            if (paths[*ch].fn == paths[p.index()].fn)
                todo.push_back(PathId(*ch));
            else
                out.push_back(PathId(*ch));
        }
    }
    return out;
}

// Below the centre's calls, level by level: a callee's weight is its cost
// under the functions of the level above.
void Builder::callees_from_paths(const std::vector<PathId>& outermost, int depth)
{
    const auto& paths = doc_.profile().paths();
    std::vector<PathId> frontier = outermost;
    for (int level = 1; level <= depth + 1 && (!frontier.empty() || level == 1); ++level) {
        std::map<FnId, uint64_t> weights;
        std::map<FnId, std::set<FnId>> callees_of;
        // The functions inlined into the centre are below it too, whether
        // or not calls were made from their code (which alone puts them in
        // the path tree), weighed with what their code cost there.
        if (level == 1)
            for (const auto& [fn, cost] : inlined_in_centre()) {
                callees_of[centre_].insert(fn);
                if (candidate(fn, kCallees))
                    weights[fn] += cost;
            }
        std::vector<std::pair<PathId, std::vector<PathId>>> below;
        for (PathId p : frontier) {
            below.push_back({p, calls_below(p)});
            for (PathId ch : below.back().second) {
                const FnId fn = *paths[ch.index()].fn;
                callees_of[*paths[p.index()].fn].insert(fn);
                if (candidate(fn, kCallees))
                    weights[fn] += path_cost(ch);
            }
        }
        const std::set<FnId> kept = level <= depth ? keep_best(weights, level) : std::set<FnId>{};
        for (const auto& [fn, callees] : callees_of)
            count_hidden(fn, level == 1 ? kCentre : kCallees, callees, kept);
        std::vector<PathId> next;
        for (const auto& [p, calls] : below)
            for (PathId ch : calls)
                if (kept.count(*paths[ch.index()].fn))
                    next.push_back(ch);
        frontier = std::move(next);
    }
}

std::map<FnId, uint64_t> Builder::inlined_in_centre() const
{
    const Profile& p = doc_.profile();
    const std::vector<InlinedCall>& calls = p.inlined_calls();
    // For each inlined call (parents come first), the call of the chain
    // down to it that the centre's code holds: the outermost for a
    // function's own code; for an inlined centre, the one just inside its
    // outermost call. kNone: none.
    constexpr uint32_t kNone = UINT32_MAX, kInCentre = UINT32_MAX - 1;
    const bool inlined = p.function(centre_).inlined;
    std::vector<uint32_t> held(calls.size(), kNone);
    for (uint32_t i = 0; i < calls.size(); ++i) {
        const std::optional<uint32_t> up = calls[i].parent;
        if (!inlined)
            held[i] = up ? held[*up] : i;
        else if (up && held[*up] == kInCentre)
            held[i] = i;
        else if (up && held[*up] != kNone)
            held[i] = held[*up];
        else if (calls[i].fn == centre_)
            held[i] = kInCentre;
    }
    std::map<FnId, uint64_t> out;
    for (size_t r = 0; r < p.inlined_lines().size(); ++r) {
        const InlinedLine& l = p.inlined_lines()[r];
        const uint32_t call = held[l.inl];
        if ((!inlined && l.fn != centre_) || call == kNone || call == kInCentre)
            continue;
        out[calls[call].fn] += p.inlined_line_cost(r)[event_];
    }
    return out;
}

// Without paths: the call edges, each side growing from the functions
// added to it last.
void Builder::from_call_edges(int depth)
{
    const CallGraph& graph = doc_.graph();
    for (const int side : {kCallers, kCallees}) {
        const RowIndex& rows = side == kCallers ? doc_.calls_in() : doc_.calls_out();
        std::set<FnId> frontier{centre_};
        for (int level = 1; level <= depth + 1 && !frontier.empty(); ++level) {
            std::map<FnId, uint64_t> weights;
            std::map<FnId, std::set<FnId>> neighbours;
            for (FnId fn : frontier)
                for (const uint32_t* r = rows.begin_of(fn.index()); r != rows.end_of(fn.index()); ++r) {
                    const CallEdge& call = graph.calls()[*r];
                    const FnId other = side == kCallers ? call.caller : call.callee;
                    neighbours[fn].insert(other);
                    if (candidate(other, side))
                        weights[other] += graph.call_cost(*r)[event_];
                }
            const std::set<FnId> kept =
                level <= depth ? keep_best(weights, side * level) : std::set<FnId>{};
            for (const auto& [fn, others] : neighbours)
                count_hidden(fn, level == 1 ? kCentre : side, others, kept);
            frontier = kept;
        }
    }
}

// Every call between two nodes on one side (or to and from the centre),
// merged over call sites; then the cap.
void Builder::connect(size_t extra_edges)
{
    const Profile& p = doc_.profile();
    const CallGraph& graph = doc_.graph();
    std::map<std::pair<size_t, size_t>, GraphEdge> merged;
    for (size_t from = 0; from < out_.nodes.size(); ++from) {
        const RowIndex& rows = doc_.calls_out();
        const FnId fn = out_.nodes[from].fn;
        for (const uint32_t* r = rows.begin_of(fn.index()); r != rows.end_of(fn.index()); ++r)
            link(merged, from, graph.calls()[*r].callee, graph.calls()[*r].count,
                 graph.call_cost(*r)[event_]);
        if (!p.function(fn).inlined)
            continue;
        // An inlined function is linked to what its code was inlined into
        // (no call: count 0) and to the calls made from its code.
        for (const CallCost& c : inlined_cost(fn).callees)
            link(merged, from, c.fn, c.count, c.inclusive[event_]);
    }
    std::set<FnId> inlined_shown;
    for (const GraphNode& n : out_.nodes)
        if (p.function(n.fn).inlined)
            inlined_shown.insert(n.fn);
    for (FnId inlined : inlined_shown) {
        std::map<FnId, uint64_t> by_host;  // merged over the call sites
        for (const CallCost& c : inlined_cost(inlined).inlined_into)
            by_host[c.fn] += c.inclusive[event_];
        for (size_t from = 0; from < out_.nodes.size(); ++from)
            if (const auto host = by_host.find(out_.nodes[from].fn); host != by_host.end())
                link(merged, from, inlined, 0, host->second);
    }
    // Drawn whatever the cap: the centre's calls, and for each other node
    // the most expensive call linking it to the next level towards the
    // centre.
    std::map<size_t, std::pair<size_t, size_t>> link;  // node -> its linking edge
    for (const auto& [key, e] : merged) {
        const GraphNode& a = out_.nodes[e.from];
        const GraphNode& b = out_.nodes[e.to];
        const size_t outer = b.level > 0 ? e.to : e.from;
        const bool towards_centre = b.level == a.level + 1 && (a.level < 0 || b.level > 0);
        if (towards_centre && (!link.count(outer) || merged.at(link[outer]).cost < e.cost))
            link[outer] = key;
    }
    std::vector<const GraphEdge*> extra;
    std::set<std::pair<size_t, size_t>> drawn;
    for (const auto& [key, e] : merged) {
        const bool central = e.from == 0 || e.to == 0;
        const bool linking = (link.count(e.from) && link[e.from] == key) ||
                             (link.count(e.to) && link[e.to] == key);
        // Of the other calls, only those going down the graph: a call
        // within a level or back up one is the way round a cycle, and
        // every one of them crosses the calls that do go down.
        const bool downwards = out_.nodes[e.to].level > out_.nodes[e.from].level;
        if (central || linking)
            drawn.insert(key);
        else if (downwards)
            extra.push_back(&e);
        else
            ++out_.edges_left_out;
    }
    std::stable_sort(extra.begin(), extra.end(),
                     [](const GraphEdge* x, const GraphEdge* y) { return x->cost > y->cost; });
    for (size_t i = 0; i < extra.size(); ++i) {
        if (i < extra_edges)
            drawn.insert({extra[i]->from, extra[i]->to});
        else
            ++out_.edges_left_out;
    }
    for (const auto& [key, e] : merged)
        if (drawn.count(key))
            out_.edges.push_back(e);
}

void Builder::link(std::map<std::pair<size_t, size_t>, GraphEdge>& merged, size_t from, FnId callee,
                   uint64_t count, uint64_t cost)
{
    const int from_side = side_of(out_.nodes[from].level);
    for (const int side : {kCallers, kCentre, kCallees}) {
        const auto to = index_.find({callee, side});
        if (to == index_.end())
            continue;
        // From the callees' side (or the centre) back up to the callers'
        // side: the way round a cycle; from the callers' side straight to
        // the callees', past the centre: calls made elsewhere. Neither is
        // drawn.
        if ((side == kCallers && from_side != kCallers) || (side == kCallees && from_side == kCallers)) {
            ++out_.edges_left_out;
            continue;
        }
        GraphEdge& e = merged[{from, to->second}];
        e.from = from;
        e.to = to->second;
        e.count += count;
        e.cost += cost;
    }
}

} // namespace

Neighbourhood call_neighbourhood(const Document& doc, FnId centre, size_t event, int depth,
                                 size_t per_level, size_t extra_edges)
{
    Builder b(doc, centre, event, per_level);
    if (!doc.profile().paths().empty())
        b.from_paths(depth);
    else
        b.from_call_edges(depth);
    b.connect(extra_edges);
    return b.take();
}

} // namespace vgprof::viewer
