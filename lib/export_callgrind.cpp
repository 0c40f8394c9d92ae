// SPDX-License-Identifier: GPL-2.0-or-later
// The callgrind writer (see export_callgrind.hpp). The profile's tables map
// onto the format directly: `lines` rows are self cost lines, `calls` rows
// are call associations, and callgrind's notion of a function (a name in a
// file of an object) is the profile's.
//
// One thread's file takes its calls from the thread's graph and its self
// costs from the thread's part of the call-path tree (thread_costs), which
// knows functions, not lines: a function whose self cost in the thread is
// all it cost in the program keeps its lines rows; another's cost is
// written at its first line.
#include "vgprof/export_callgrind.hpp"

#include "vgprof/query.hpp"

#include <algorithm>
#include <numeric>
#include <ostream>
#include <string>
#include <vector>

namespace vgprof {

namespace {

class CallgrindWriter {
public:
    CallgrindWriter(std::ostream& out, const Profile& p, const ThreadGraph* thread)
        : out_(out), p_(p), graph_(thread ? *thread : p.call_graph()), thread_(thread),
          obj_named_(p.objs().size()), file_named_(p.files().size()),
          fn_named_(p.functions().size())
    {
        if (thread) {
            ThreadCosts costs = thread_costs(p, *thread);
            thread_self_ = std::move(costs.functions);
            totals_ = std::move(costs.totals);
            untold_ = std::move(costs.untold);
        } else {
            totals_ = p.meta().totals;
        }
    }

    void write()
    {
        write_header();
        const std::vector<LineCost>& lines = p_.lines();
        const std::vector<CallEdge>& calls = graph_.calls();
        // Lines are sorted by function; calls are by the tool, but the
        // loader does not insist on it: their rows are taken in caller order.
        std::vector<size_t> by_caller(calls.size());
        std::iota(by_caller.begin(), by_caller.end(), size_t(0));
        std::stable_sort(by_caller.begin(), by_caller.end(),
                         [&](size_t a, size_t b) { return calls[a].caller < calls[b].caller; });
        size_t line = 0, call = 0;
        for (size_t f = 0; f < p_.functions().size(); ++f) {
            const FnId fn{uint32_t(f)};
            const size_t first_line = line, first_call = call;
            while (line < lines.size() && lines[line].fn == fn)
                ++line;
            while (call < calls.size() && calls[by_caller[call]].caller == fn)
                ++call;
            const std::vector<size_t> fn_calls(by_caller.begin() + first_call,
                                               by_caller.begin() + call);
            if (thread_)
                write_thread_function(fn, first_line, line, fn_calls);
            else if (first_line != line || first_call != call)
                write_function(fn, first_line, line, fn_calls);
        }
        if (thread_ && !all_zero(untold_.data()))
            write_untold();
        out_ << "totals:";
        write_costs(totals_.data(), true);
    }

private:
    void write_header()
    {
        const Meta& m = p_.meta();
        out_ << "# callgrind format\nversion: 1\ncreator: vgprof-" << m.tool_version << '\n';
        if (m.pid)
            out_ << "pid: " << *m.pid << '\n';
        out_ << "cmd:";
        for (const std::string& arg : m.argv)
            out_ << ' ' << arg;
        out_ << '\n';
        if (m.cache && m.cache->i1) {
            write_cache_desc("I1", *m.cache->i1);
            write_cache_desc("D1", *m.cache->d1);
            write_cache_desc("LL", *m.cache->ll);
        }
        if (!m.merged.empty())
            out_ << "desc: Runs merged: " << m.merged.size() << '\n';
        if (thread_)
            out_ << "thread: " << thread_->tid << '\n';
        out_ << "positions: line\nevents:";
        for (const std::string& event : m.events)
            out_ << ' ' << event;
        out_ << "\nsummary:";
        write_costs(totals_.data(), true);
        out_ << '\n';
    }

    // As cachegrind describes the caches it simulated.
    void write_cache_desc(const char* name, const CacheGeometry& g)
    {
        out_ << "desc: " << name << " cache: " << g.size << " B, " << g.line_size << " B, "
             << g.assoc << "-way associative\n";
    }

    void write_function(FnId fn, size_t first_line, size_t end_line,
                        const std::vector<size_t>& calls)
    {
        const Function& f = begin_function(fn);
        for (size_t row = first_line; row < end_line; ++row) {
            const LineCost& l = p_.lines()[row];
            const uint64_t* cost = p_.line_cost(row);
            if (all_zero(cost))
                continue;
            switch_file(f, l.file);
            out_ << l.line;
            write_costs(cost, false);
        }
        for (size_t row : calls)
            write_call(f, graph_.calls()[row], graph_.call_cost(row));
    }

    // A function in one thread's file: its lines when the thread's self
    // cost is the function's whole self cost, else that cost at its first
    // line; and the calls it made in the thread.
    void write_thread_function(FnId fn, size_t first_line, size_t end_line,
                               const std::vector<size_t>& calls)
    {
        const std::vector<uint64_t>& self = thread_self_[fn.index()].self;
        if (all_zero(self.data()) && calls.empty())
            return;
        std::vector<uint64_t> program(p_.num_events(), 0);
        for (size_t row = first_line; row < end_line; ++row)
            for (size_t e = 0; e < program.size(); ++e)
                program[e] += p_.line_cost(row)[e];
        if (program == self) {
            write_function(fn, first_line, end_line, calls);
            return;
        }
        const Function& f = begin_function(fn);
        if (!all_zero(self.data())) {
            out_ << f.line;
            write_costs(self.data(), false);
        }
        for (size_t row : calls)
            write_call(f, graph_.calls()[row], graph_.call_cost(row));
    }

    const Function& begin_function(FnId fn)
    {
        const Function& f = p_.function(fn);
        write_name("ob", f.obj.value, obj_named_, p_.obj_path(f.obj));
        write_name("fl", f.file.value, file_named_, p_.file_path(f.file));
        write_name("fn", fn.value, fn_named_, p_.fn_name(fn));
        current_file_ = f.file;
        return f;
    }

    // What the thread spent past --max-path-nodes is in no function's
    // self cost; a function of that name holds it, so the file's costs add
    // up to its totals.
    void write_untold()
    {
        out_ << "ob=???\nfl=???\nfn=[truncated]\n0";
        write_costs(untold_.data(), false);
    }

    // The call site's line is in the current file, so it switches to the
    // site's file first; the callee is named by its object, file and name,
    // as its own costs are, so that readers join the two.
    void write_call(const Function& caller, const CallEdge& edge, const uint64_t* cost)
    {
        switch_file(caller, edge.file);
        const Function& callee = p_.function(edge.callee);
        write_name("cob", callee.obj.value, obj_named_, p_.obj_path(callee.obj));
        write_name("cfi", callee.file.value, file_named_, p_.file_path(callee.file));
        write_name("cfn", edge.callee.value, fn_named_, p_.fn_name(edge.callee));
        out_ << "calls=" << edge.count << ' ' << callee.line << '\n' << edge.line;
        write_costs(cost, true);
    }

    // fi= enters a file other than the function's own (inlined code), fe=
    // comes back to it.
    void switch_file(const Function& f, FileId file)
    {
        if (file == current_file_)
            return;
        write_name(file == f.file ? "fe" : "fi", file.value, file_named_, p_.file_path(file));
        current_file_ = file;
    }

    // "fn=(4) work" the first time, "fn=(4)" after; ids count from 1, per
    // kind (files and functions each have their own, shared by fl=, fi=,
    // fe= and cfi=, and by fn= and cfn=).
    void write_name(const char* spec, uint32_t id, std::vector<bool>& named,
                    const std::string& name)
    {
        out_ << spec << "=(" << id + 1 << ')';
        if (!named[id]) {
            out_ << ' ' << name;
            named[id] = true;
        }
        out_ << '\n';
    }

    bool all_zero(const uint64_t* cost) const
    {
        for (size_t e = 0; e < p_.num_events(); ++e)
            if (cost[e] != 0)
                return false;
        return true;
    }

    // The costs of a line, trailing zeros left out as the format allows;
    // `at_least_one` keeps the first even when zero, where a cost is due.
    void write_costs(const uint64_t* cost, bool at_least_one)
    {
        size_t shown = p_.num_events();
        while (shown > (at_least_one ? 1 : 0) && cost[shown - 1] == 0)
            --shown;
        for (size_t e = 0; e < shown; ++e)
            out_ << ' ' << cost[e];
        out_ << '\n';
    }

    std::ostream& out_;
    const Profile& p_;
    const CallGraph& graph_;
    const ThreadGraph* thread_;  // null: the whole program
    std::vector<FunctionCost> thread_self_;
    std::vector<uint64_t> totals_, untold_;
    std::vector<bool> obj_named_, file_named_, fn_named_;
    FileId current_file_;
};

} // namespace

void write_callgrind(std::ostream& out, const Profile& profile, const ThreadGraph* thread)
{
    CallgrindWriter(out, profile, thread).write();
}

} // namespace vgprof
