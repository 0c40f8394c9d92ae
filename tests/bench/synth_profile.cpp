// SPDX-License-Identifier: GPL-2.0-or-later
// synth-profile: writes a large, valid vgprof profile of a made-up program,
// for measuring how the viewer copes with size (scripts/bench). The program
// has FUNCTIONS functions in a call-path tree of NODES nodes; every event of
// cache and branch simulation is recorded, and every table holds together as
// the loader checks it (costs add up along the tree, lines add up to the
// totals, calls and inclusive rows are the tree's).
//
//   synth-profile FUNCTIONS NODES OUT.json [SEED]
#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace {

constexpr int kEvents = 13;  // Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim
using Cost = std::array<uint64_t, kEvents>;

// A small deterministic generator, so a seed gives the same profile.
struct Random {
    uint64_t state;
    uint64_t next()
    {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    }
    uint64_t below(uint64_t n) { return next() % n; }
};

Cost self_cost(Random& r)
{
    Cost c{};
    c[0] = 1 + r.below(20000);                   // Ir
    c[1] = r.below(c[0] / 400 + 1);              // I1mr
    c[2] = r.below(c[1] + 1);                    // ILmr
    c[3] = c[0] / 4 + r.below(c[0] / 8 + 1);     // Dr
    c[4] = r.below(c[3] / 20 + 1);               // D1mr
    c[5] = r.below(c[4] / 4 + 1);                // DLmr
    c[6] = c[0] / 8 + r.below(c[0] / 16 + 1);    // Dw
    c[7] = r.below(c[6] / 30 + 1);               // D1mw
    c[8] = r.below(c[7] / 3 + 1);                // DLmw
    c[9] = c[0] / 6 + r.below(c[0] / 12 + 1);    // Bc
    c[10] = r.below(c[9] / 10 + 1);              // Bcm
    c[11] = r.below(c[0] / 50 + 1);              // Bi
    c[12] = r.below(c[11] / 5 + 1);              // Bim
    return c;
}

void add(Cost& to, const Cost& c)
{
    for (int e = 0; e < kEvents; ++e)
        to[e] += c[e];
}

struct Node {
    int parent;
    uint32_t fn;
    uint64_t count;
    Cost self, inclusive;
    std::vector<int> children;
};

class Out {
public:
    explicit Out(const char* path) : f_(std::fopen(path, "w"))
    {
        if (!f_) {
            std::perror(path);
            std::exit(2);
        }
        std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
    }
    ~Out() { std::fclose(f_); }
    void text(const char* s) { std::fputs(s, f_); }
    void number(uint64_t n) { std::fprintf(f_, "%" PRIu64, n); }
    void cost(const Cost& c)
    {
        for (int e = 0; e < kEvents; ++e) {
            text(",");
            number(c[e]);
        }
    }

private:
    std::FILE* f_;
};

} // namespace

int main(int argc, char** argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: synth-profile FUNCTIONS NODES OUT.json [SEED]\n");
        return 2;
    }
    const uint32_t fns = uint32_t(std::max(2L, std::atol(argv[1])));
    const size_t nodes_wanted = size_t(std::max(1L, std::atol(argv[2])));
    Random r{argc > 4 ? std::strtoull(argv[4], nullptr, 10) | 1 : 88172645463325252ULL};

    // Strings: "???", one object, a file per 25 functions, the names.
    const uint32_t files = fns / 25 + 1;
    std::vector<std::string> strs{"???", "/usr/bin/synthetic"};
    for (uint32_t f = 0; f < files; ++f)
        strs.push_back("/src/synthetic/module_" + std::to_string(f) + ".c");
    static const char* const words[] = {"parse", "render", "update", "hash", "lookup", "encode",
                                        "decode", "alloc", "flush", "scan", "merge", "visit"};
    for (uint32_t i = 0; i < fns; ++i)
        strs.push_back(std::string(words[i % 12]) + "_" + words[(i / 12) % 12] + "_" + std::to_string(i));
    const uint32_t first_file = 2, first_name = 2 + files;

    // The tree, grown breadth-first: each node calls functions with larger
    // ids than its own, so no function is on a stack twice and a function's
    // inclusive cost is the sum of its nodes'.
    std::vector<Node> nodes;
    nodes.push_back({-1, 0, 0, self_cost(r), {}, {}});
    for (size_t at = 0; at < nodes.size() && nodes.size() < nodes_wanted; ++at) {
        const uint32_t fn = nodes[at].fn;
        if (fn + 1 >= fns)
            continue;
        const uint64_t children = 1 + r.below(at == 0 ? 40 : 6);
        std::vector<uint32_t> callees;
        for (uint64_t c = 0; c < children && nodes.size() < nodes_wanted; ++c) {
            const uint32_t callee = fn + 1 + uint32_t(r.below(std::min<uint64_t>(fns - fn - 1, fns / 6)));
            if (std::find(callees.begin(), callees.end(), callee) != callees.end())
                continue;
            callees.push_back(callee);
            nodes[at].children.push_back(int(nodes.size()));
            nodes.push_back({int(at), callee, 1 + r.below(1000), self_cost(r), {}, {}});
        }
    }
    for (size_t i = nodes.size(); i-- > 0;) {
        add(nodes[i].inclusive, nodes[i].self);
        if (nodes[i].parent >= 0)
            add(nodes[size_t(nodes[i].parent)].inclusive, nodes[i].inclusive);
    }

    // Per function: self (split over two lines), inclusive; per edge: calls.
    std::vector<Cost> fn_self(fns, Cost{}), fn_incl(fns, Cost{});
    std::vector<bool> seen(fns, false);
    std::map<std::pair<uint32_t, uint32_t>, std::pair<uint64_t, Cost>> calls;
    for (const Node& n : nodes) {
        add(fn_self[n.fn], n.self);
        add(fn_incl[n.fn], n.inclusive);
        seen[n.fn] = true;
        if (n.parent >= 0) {
            auto& call = calls[{nodes[size_t(n.parent)].fn, n.fn}];
            call.first += n.count;
            add(call.second, n.inclusive);
        }
    }
    const auto file_of = [&](uint32_t fn) { return fn / 25; };
    const auto line_of = [&](uint32_t fn) { return 10 + (fn % 25) * 40; };

    Out out(argv[3]);
    Cost totals{};
    for (const Node& n : nodes)
        add(totals, n.self);
    out.text("{\"vgprof\":2\n,\"meta\":{\"tool\":\"vgprof\",\"tool_version\":\"0.1.0\",\"valgrind\":\"3.19.0\"");
    out.text(",\"argv\":[\"/usr/bin/synthetic\"],\"options\":[\"--cache-sim=yes\",\"--branch-sim=yes\"]");
    out.text(",\"events\":[\"Ir\",\"I1mr\",\"ILmr\",\"Dr\",\"D1mr\",\"DLmr\",\"Dw\",\"D1mw\",\"DLmw\",\"Bc\",\"Bcm\",\"Bi\",\"Bim\"]");
    out.text(",\"cache\":{\"I1\":[32768,8,64],\"D1\":[32768,8,64],\"LL\":[8388608,16,64],\"branches\":true}");
    out.text(",\"totals\":[");
    for (int e = 0; e < kEvents; ++e) {
        if (e)
            out.text(",");
        out.number(totals[e]);
    }
    out.text("],\"exit\":{\"code\":0},\"run\":{\"pid\":1,\"ppid\":1,\"elapsed_ms\":1}}\n,\"strs\":[");
    for (size_t i = 0; i < strs.size(); ++i) {
        out.text(i ? ",\"" : "\"");
        out.text(strs[i].c_str());
        out.text("\"");
    }
    out.text("]\n,\"objs\":[1]\n,\"files\":[0");
    for (uint32_t f = 0; f < files; ++f) {
        out.text(",");
        out.number(first_file + f);
    }
    out.text("]\n,\"fns\":[");
    for (uint32_t i = 0; i < fns; ++i) {
        out.text(i ? ",[" : "[");
        out.number(first_name + i);
        out.text(",");
        out.number(1 + file_of(i));
        out.text(",0,");
        out.number(line_of(i));
        out.text("]");
    }
    // Two lines per function: a quarter of its cost on the first.
    out.text("]\n,\"lines\":[");
    bool first = true;
    for (uint32_t i = 0; i < fns; ++i) {
        if (!seen[i])
            continue;
        Cost a{}, b{};
        for (int e = 0; e < kEvents; ++e) {
            a[e] = fn_self[i][e] / 4;
            b[e] = fn_self[i][e] - a[e];
        }
        for (int k = 0; k < 2; ++k) {
            out.text(first ? "[" : "\n,[");
            first = false;
            out.number(i);
            out.text(",");
            out.number(1 + file_of(i));
            out.text(",");
            out.number(line_of(i) + 1 + uint32_t(k) * 3);
            out.cost(k ? b : a);
            out.text("]");
        }
    }
    out.text("]\n,\"calls\":[");
    first = true;
    for (const auto& [edge, call] : calls) {
        out.text(first ? "[" : "\n,[");
        first = false;
        out.number(edge.first);
        out.text(",");
        out.number(edge.second);
        out.text(",");
        out.number(1 + file_of(edge.first));
        out.text(",");
        out.number(line_of(edge.first) + 2);
        out.text(",");
        out.number(call.first);
        out.cost(call.second);
        out.text("]");
    }
    out.text("]\n,\"inclusive\":[");
    first = true;
    for (uint32_t i = 0; i < fns; ++i) {
        if (!seen[i])
            continue;
        out.text(first ? "[" : "\n,[");
        first = false;
        out.number(i);
        out.cost(fn_incl[i]);
        out.text("]");
    }
    // Depth-first, children by function id, renumbered as written.
    out.text("]\n,\"paths\":[");
    std::vector<uint64_t> row_of(nodes.size());
    uint64_t row = 0;
    std::vector<int> stack{0};
    while (!stack.empty()) {
        const int i = stack.back();
        stack.pop_back();
        Node& n = nodes[size_t(i)];
        row_of[size_t(i)] = row;
        out.text(row ? "\n,[" : "[");
        if (n.parent < 0)
            out.text("null");
        else
            out.number(row_of[size_t(n.parent)]);
        out.text(",");
        out.number(n.fn);
        out.text(",");
        out.number(n.count);
        out.cost(n.self);
        out.cost(n.inclusive);
        out.text("]");
        ++row;
        std::sort(n.children.begin(), n.children.end(),
                  [&](int a, int b) { return nodes[size_t(a)].fn > nodes[size_t(b)].fn; });
        for (int c : n.children)
            stack.push_back(c);
    }
    out.text("]\n}\n");
    return 0;
}
