// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target for everything that reads a profile. The input, as a
// file's contents (a vgprof profile, a callgrind, cachegrind or DHAT file),
// goes through the loader and, when it loads, through every command that
// reads one (report in each of its forms, annotate, diff in each format,
// merge), every export format and every view of the viewer, drawn for a
// few frames by Dear ImGui without a window. Each must finish or throw
// vgprof::Error; the sanitizers (address, undefined) and libFuzzer's
// limits turn a stray read, an overflow, a hang or a blow-up into a
// finding. Inputs are mutated by json_mutator.hpp, which changes a JSON
// input's values (numbers, lengths, nesting, ids, strings) rather than
// its bytes. tests/fuzz/run-fuzzer runs it for a bounded time from the
// seeds in tests/fuzz/corpus.
#include "../../cli/commands.hpp"
#include "../viewer/headless_imgui.hpp"
#include "json_mutator.hpp"
#include "views.hpp"

#include "vgprof/error.hpp"
#include "vgprof/load.hpp"
#include "vgprof/merge.hpp"
#include "vgprof/write.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace {

using namespace vgprof;

// Output is counted and dropped: what is written is the commands' tests'
// business, and keeping it would only slow the fuzzer down.
class NullBuffer : public std::streambuf {
protected:
    int_type overflow(int_type c) override { return traits_type::not_eof(c); }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

std::ostream& discard()
{
    static NullBuffer buffer;
    static std::ostream out(&buffer);
    out.clear();
    return out;
}

// Runs one reader: a vgprof::Error is a refusal, the expected outcome for
// much of what the mutator makes.
void attempt(const std::function<void()>& reader)
{
    try {
        reader();
    } catch (const Error&) {
    }
}

void run_commands(const Profile& p)
{
    using namespace vgprof::cli;
    for (const char* format : {"text", "json"}) {
        ReportOptions o;
        o.profile = "fuzz";
        o.format = format;
        attempt([&] { write_report(discard(), p, o); });
        o.inclusive = true;
        o.miss_rates = true;
        attempt([&] { write_report(discard(), p, o); });
        if (!p.functions().empty()) {
            o.function = p.fn_name(FnId(0));
            attempt([&] { write_report(discard(), p, o); });
        }
        o = ReportOptions{};
        o.format = format;
        attempt([&] { write_heap_report(discard(), p, o); });
        attempt([&] { write_data_report(discard(), p, o); });
    }
    attempt([&] {
        Profile derived = p;
        ReportOptions o;
        o.derived = true;
        add_report_derived_events(derived, o);
        write_report(discard(), derived, o);
    });
    AnnotateOptions a;
    a.profile = "fuzz";
    attempt([&] { write_annotation(discard(), p, a); });
    a.all = true;
    a.events = {"all"};
    attempt([&] { write_annotation(discard(), p, a); });
    a.disassembly = true;
    attempt([&] { write_annotation(discard(), p, a); });
    if (p.data() != nullptr && !p.data()->objects.empty()) {
        AnnotateOptions d;
        d.data = "0";
        attempt([&] { write_data_annotation(discard(), p, d); });
    }
    for (const char* format : {"text", "markdown", "json", "github"}) {
        DiffOptions o;
        o.format = format;
        o.per_function = true;
        o.fail_above = "Ir=+1%";
        o.force = true;
        attempt([&] { write_diff(discard(), p, p, o); });
    }
    for (const char* format :
         {"callgrind", "collapsed", "dhat", "speedscope", "pprof", "massif", "heaptrack"}) {
        ExportOptions o;
        o.format = format;
        o.profiles = {"fuzz"};
        attempt([&] { write_export(discard(), {p}, o); });
    }
    ExportOptions diff;
    diff.format = "collapsed";
    diff.profiles = {"base", "fuzz"};
    attempt([&] { write_export(discard(), {p, p}, diff); });
    attempt([&] {
        ProfileMerger merger;
        merger.add(p, "a");
        merger.add(p, "b");
        write_profile(discard(), merger.result());
    });
}

// Every view, as a window holds them, drawn with the first function
// selected (and with none), alone and in diff mode against itself; the
// heap view with each of its panels.
void draw_views(const Profile& p)
{
    using namespace vgprof::viewer;
    const Document doc(p, "fuzz");
    const DiffLink link(doc, doc);
    for (const DiffLink* diff : {static_cast<const DiffLink*>(nullptr), &link}) {
        SelectionHistory selection;
        if (!p.functions().empty())
            selection.select(Selection::function(FnId(0)));
        ViewContext ctx{doc, diff, selection, 0};
        FunctionsView table(doc, diff, false), list(doc, diff, true);
        SharedCallTree call_tree;
        CallTreeView top_down(call_tree, false), bottom_up(call_tree, true);
        SandwichView sandwich(call_tree);
        CallGraphView graph;
        FlameGraphView flame;
        HeatmapView heat;
        SourceView source;
        const std::vector<std::function<void()>> draws = {
            [&] { table.draw(ctx); },     [&] { list.draw(ctx); },     [&] { top_down.draw(ctx); },
            [&] { bottom_up.draw(ctx); }, [&] { sandwich.draw(ctx); }, [&] { graph.draw(ctx); },
            [&] { flame.draw(ctx); },     [&] { heat.draw(ctx); },     [&] { source.draw(ctx); }};
        for (const auto& draw : draws)
            for (int i = 0; i < 2; ++i)
                headless_frame(draw);
        for (HeapPanel panel : {HeapPanel::sites, HeapPanel::flamegraph, HeapPanel::summary}) {
            HeapView heap;
            heap.show_panel(panel);
            for (int i = 0; i < 2; ++i)
                headless_frame([&] { heap.draw(ctx); });
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    vgprof::viewer::create_headless_context();
    // No objdump or rustc: the fuzzer is after vgprof's own code, and a
    // process a run would slow it down a hundredfold.
    setenv("PATH", "/nonexistent", 1);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    // Small enough that a crafted stream cannot run the fuzzer out of
    // memory, large enough for every seed.
    vgprof::LoadLimits limits;
    limits.max_decompressed = uint64_t(64) << 20;
    std::unique_ptr<Profile> profile;
    try {
        profile = std::make_unique<Profile>(vgprof::parse_profile(
            std::string_view(reinterpret_cast<const char*>(data), size), "fuzz", limits));
    } catch (const vgprof::Error&) {
        return 0;  // a clear message is the expected outcome for most inputs
    }
    run_commands(*profile);
    attempt([&] { draw_views(*profile); });
    return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed)
{
    return vgprof::fuzz::mutate(data, size, max_size, seed);
}
