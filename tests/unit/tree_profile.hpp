// SPDX-License-Identifier: GPL-2.0-or-later
// Profiles made from a call-path tree given node by node, for the tests of
// shapes no real run takes (a recursion 100,000 deep, a comb of nested
// calls, allocation stacks of thousands of frames): the tables the format
// derives from the tree (each function's lines, the calls between
// functions and their inclusive costs) are computed from it, so that the
// profile loads.
#ifndef VGPROF_TESTS_TREE_PROFILE_HPP
#define VGPROF_TESTS_TREE_PROFILE_HPP

#include <boost/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace vgprof::test {

// One event (Ir); function i is named strs[3 + i], all in /src/app.c.
struct Tree {
    std::vector<std::string> fns;
    std::vector<int64_t> parent;  // -1: a root
    std::vector<uint32_t> fn;
    std::vector<uint64_t> self;

    void add(int64_t up, uint32_t f, uint64_t cost)
    {
        parent.push_back(up);
        fn.push_back(f);
        self.push_back(cost);
    }
};

template <typename T>
inline std::string list(const std::vector<T>& items)
{
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i)
        out += (i ? "," : "") + items[i];
    return out + "]";
}

inline std::string str(uint64_t n) { return std::to_string(n); }

// The profile of `t` (format version 3), with `heap` as its heap section
// when it is not empty.
inline std::string profile_text(const Tree& t, const std::string& heap = "")
{
    const size_t n = t.self.size();
    std::vector<uint64_t> inclusive(t.self);
    for (size_t i = n; i-- > 0;)
        if (t.parent[i] >= 0)
            inclusive[size_t(t.parent[i])] += inclusive[i];
    uint64_t total = 0;
    std::vector<uint64_t> fn_self(t.fns.size()), fn_inclusive(t.fns.size());
    std::map<std::pair<uint32_t, uint32_t>, std::pair<uint64_t, uint64_t>> calls;
    std::vector<std::string> paths;
    for (size_t i = 0; i < n; ++i) {
        total += t.self[i];
        fn_self[t.fn[i]] += t.self[i];
        const bool root = t.parent[i] < 0;
        const uint32_t caller = root ? 0 : t.fn[size_t(t.parent[i])];
        if (root || caller != t.fn[i])
            fn_inclusive[t.fn[i]] += inclusive[i];
        if (!root) {
            auto& call = calls[{caller, t.fn[i]}];
            ++call.first;
            call.second += inclusive[i];
        }
        paths.push_back("[" + (root ? std::string("null") : str(uint64_t(t.parent[i]))) + "," +
                        str(t.fn[i]) + "," + (root ? "0" : "1") + "," + str(t.self[i]) + "," +
                        str(inclusive[i]) + "]");
    }
    std::vector<std::string> strs{"\"???\"", "\"/src/app.c\"", "\"/usr/bin/app\""}, fns, lines,
        call_rows, inclusive_rows;
    for (size_t f = 0; f < t.fns.size(); ++f) {
        strs.push_back(boost::json::serialize(boost::json::value(t.fns[f])));
        fns.push_back("[" + str(3 + f) + ",1,0," + str(f + 1) + "]");
        if (fn_self[f] != 0)
            lines.push_back("[" + str(f) + ",1," + str(f + 1) + "," + str(fn_self[f]) + "]");
        inclusive_rows.push_back("[" + str(f) + "," + str(fn_inclusive[f]) + "]");
    }
    for (const auto& [edge, call] : calls)
        call_rows.push_back("[" + str(edge.first) + "," + str(edge.second) + ",1," +
                            str(edge.first + 1) + "," + str(call.first) + "," + str(call.second) +
                            "]");
    return "{\"vgprof\":3,\"meta\":{\"tool\":\"vgprof\",\"tool_version\":\"0.1.0\","
           "\"valgrind\":\"3.19.0\",\"argv\":[\"./app\"],\"options\":[],\"events\":[\"Ir\"],"
           "\"cache\":null,\"totals\":[" +
           str(total) + "],\"exit\":{\"code\":0},\"run\":{\"pid\":1,\"ppid\":1,\"elapsed_ms\":1}}" +
           "\n,\"strs\":" + list(strs) + "\n,\"objs\":[2],\"files\":[0,1]\n,\"fns\":" + list(fns) +
           "\n,\"lines\":" + list(lines) + "\n,\"calls\":" + list(call_rows) +
           "\n,\"inclusive\":" + list(inclusive_rows) + "\n,\"paths\":" + list(paths) +
           (heap.empty() ? "" : "\n,\"heap\":" + heap) + "}\n";
}

// main calling f `depth` times into itself, a cost at every level or at
// the innermost only.
inline Tree chain(size_t depth, bool cost_at_every_level)
{
    Tree t{{"main", "descend"}, {}, {}, {}};
    t.add(-1, 0, 1);
    for (size_t i = 1; i <= depth; ++i)
        t.add(int64_t(i - 1), 1, cost_at_every_level || i == depth ? 1 : 0);
    return t;
}

// main calling x1, x1 calling x2 ... x`teeth`, each xi also calling leaf:
// leaf's nodes, each under a path as deep as its place in the comb.
inline Tree comb(size_t teeth)
{
    Tree t{{"main", "leaf"}, {}, {}, {}};
    t.add(-1, 0, 1);
    int64_t spine = 0;
    for (size_t i = 1; i <= teeth; ++i) {
        t.fns.push_back("x" + std::to_string(i));
        t.add(spine, uint32_t(t.fns.size() - 1), 1);
        spine = int64_t(t.parent.size() - 1);
        t.add(spine, 1, 1);
    }
    return t;
}

// A heap of `sites` sites of one byte each, the stack of site s being
// frames s*stride ... s*stride+depth-1 of a table of frames*1 addresses.
inline std::string heap_text(size_t sites, size_t depth, size_t stride)
{
    const size_t frames = (sites - 1) * stride + depth;
    std::vector<std::string> frame_rows, site_rows;
    for (size_t f = 0; f < frames; ++f)
        frame_rows.push_back("[" + str(4096 + 16 * f) + ",0,1," + str(f % 1000 + 1) + "]");
    for (size_t s = 0; s < sites; ++s) {
        std::vector<std::string> stack;
        for (size_t f = 0; f < depth; ++f)
            stack.push_back(str(s * stride + f));
        site_rows.push_back("[" + list(stack) + ",1,1,1,1,1,1,1,1,1,0,0,null]");
    }
    const std::string n = str(sites);
    return "{\"depth\":" + str(depth) + ",\"totals\":{\"bytes\":" + n + ",\"blocks\":" + n +
           ",\"peak_bytes\":" + n + ",\"peak_blocks\":" + n +
           ",\"peak_time\":1,\"end_bytes\":" + n + ",\"end_blocks\":" + n +
           ",\"end_time\":2,\"reads\":0,\"writes\":0},\"frames\":" + list(frame_rows) +
           ",\"sites\":" + list(site_rows) + ",\"timeline\":{\"width\":1,\"samples\":[[1," + n +
           "," + n + "]]},\"snapshots\":[]}";
}

} // namespace vgprof::test

#endif
