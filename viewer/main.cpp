// SPDX-License-Identifier: GPL-2.0-or-later
// vgprof-viewer: the desktop viewer of vgprof profiles. main() parses the
// command line and runs the window; everything else is in App and the views.
#include "app.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

namespace {

// "1280x800" -> width and height; false when malformed.
bool parse_size(const std::string& text, int& width, int& height)
{
    char x = 0;
    char rest = 0;
    return std::sscanf(text.c_str(), "%d%c%d%c", &width, &x, &height, &rest) == 3 && x == 'x' &&
           width >= 200 && height >= 150 && width <= 16384 && height <= 16384;
}

} // namespace

int main(int argc, char** argv)
{
    using namespace vgprof::viewer;
    CLI::App cli{"Shows profiles written by valgrind --tool=vgprof: functions, call tree (top-down, "
                 "bottom-up, sandwich), call graph, flame graph, cache-miss heatmap, source, "
                 "heap and timeline. With two profiles, shows how the second differs from the first.",
                 "vgprof-viewer"};
    cli.set_version_flag("--version", "vgprof-viewer " PACKAGE_VERSION);
    AppOptions options;
    std::string view, size;
    cli.add_option("PROFILE", options.profiles, "a profile; with two, the base then the new one")
        ->expected(0, 2);
    cli.add_option("--screenshot", options.screenshot,
                   "draw the window, write it to this PNG file and exit");
    std::vector<std::string> views;
    for (ViewId v : kAllViews)
        views.push_back(view_key(v));
    cli.add_option("--view", view, "the view shown first (sandwich: of --select's function)")
        ->check(CLI::IsMember(views));
    std::string panel;
    cli.add_option("--panel", panel,
                   "the heap view's panel shown first (sites, flamegraph, summary), or the Source "
                   "view's (source, machine-code)")
        ->check(CLI::IsMember({"sites", "flamegraph", "summary", "source", "machine-code"}));
    cli.add_option("--select", options.select,
                   "the function selected first (a name as listed, e.g. \"malloc [libc.so.6]\" or "
                   "\"work (app.c:3)\" for one of several of a name, the last part of its path, or "
                   "part of one name)");
    cli.add_option("--line", options.line,
                   "the source line selected first, FILE:LINE (FILE as the profile names it or the "
                   "last parts of its path), in --select's function when it has code there");
    cli.add_option("--event", options.event, "the event chosen first (default: the first recorded)");
    cli.add_option("--thread", options.thread,
                   "the thread chosen first, TID (Valgrind's thread number, 1: the main thread), "
                   "for a profile recorded with --separate-threads=yes: the functions, call tree, "
                   "bottom-up, sandwich, call graph and flame graph show its costs and calls")
        ->type_name("TID")
        ->check(CLI::NonNegativeNumber);
    cli.add_option("--range", options.range,
                   "narrow the views to the instructions from A to B of the run's clock, A:B (a "
                   "profile with a timeline, recorded without --timeline=no): the functions' costs are those of the "
                   "timeline's calls in it, the heap sites those live in it")
        ->type_name("A:B");
    cli.add_option("--size", size, "window size, WIDTHxHEIGHT (default 1400x900)");
    cli.add_option("--scale", options.scale, "UI scale (default: from the display's DPI; 1 for --screenshot)")
        ->check(CLI::Range(0.5f, 4.0f));
    cli.add_option("--bench-frames", options.bench_frames,
                   "time this many frames of each view, print the median and worst, and exit")
        ->check(CLI::PositiveNumber);
    cli.add_flag("--trust-profile", options.trust_profile,
                 "read the source files the profile names wherever they are, not only below the "
                 "current directory and the system's and toolchains' sources (still only regular "
                 "files, never in /proc, /sys, /dev)");
    cli.add_flag("--force", options.force,
                 "with two profiles, show the diff even when they do not compare (another "
                 "command, program, environment, working directory, cache or options), as "
                 "vgprof diff --force does; the reasons stay shown as warnings");
    cli.failure_message(CLI::FailureMessage::help);
    try {
        cli.parse(argc, argv);
        if (!size.empty() && !parse_size(size, options.width, options.height))
            throw CLI::ValidationError("--size", "expected WIDTHxHEIGHT (at least 200x150), got " + size);
        if (!options.screenshot.empty() && options.profiles.empty())
            throw CLI::ValidationError("--screenshot", "needs a PROFILE");
        if (options.bench_frames > 0 && options.profiles.empty())
            throw CLI::ValidationError("--bench-frames", "needs a PROFILE");
    } catch (const CLI::ParseError& e) {
        return cli.exit(e) == 0 ? 0 : 2;
    }
    if (!view.empty())
        options.view = view_from_key(view);
    if (panel == "source" || panel == "machine-code")
        options.machine_code = panel == "machine-code";
    else if (!panel.empty())
        options.heap_panel = heap_panel_from_key(panel);
    App app(std::move(options));
    return app.run();
}
