// SPDX-License-Identifier: GPL-2.0-or-later
// The viewer's window: SDL2 and Dear ImGui set up as in Dear ImGui's SDL2
// examples, the main loop, the layout around the views (menu, toolbar, tabs,
// status bar, Open dialog), the keyboard and mouse shortcuts, and the two
// unattended modes: --screenshot and --bench-frames.
#ifndef VGPROF_VIEWER_APP_HPP
#define VGPROF_VIEWER_APP_HPP

#include "file_browser.hpp"
#include "profile_loader.hpp"
#include "thread_choice.hpp"
#include "views.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct SDL_Window;
struct SDL_Renderer;
union SDL_Event;

namespace vgprof::viewer {

struct AppOptions {
    std::vector<std::string> profiles;  // none, one, or a base and a new one
    std::string screenshot;             // write this PNG and exit
    std::optional<ViewId> view;         // the view shown first
    std::optional<HeapPanel> heap_panel;  // the heap view's panel shown first
    std::string select;                 // the function selected first
    std::string line;                   // the source line selected first, FILE:LINE
    std::optional<bool> machine_code;   // the Source view's machine code shown first (or its source)
    std::string event;                  // the event chosen first
    std::optional<uint32_t> thread;     // the thread chosen first
    std::string range;                  // the range of time the views are narrowed to first, A:B
    int width = 1400, height = 900;     // window size in pixels
    std::optional<float> scale;         // UI scale; default from the display's DPI
    size_t bench_frames = 0;            // > 0: time this many frames per view and exit
    bool trust_profile = false;         // read its sources wherever they are
    bool force = false;                 // diff mode even when the profiles do not compare
};

// The views that show the thread chosen (or every thread): built again
// for each choice, so that nothing they worked out outlives it.
struct ThreadViews {
    FunctionsView table;      // the Functions tab
    FunctionsView side_list;  // beside the other views
    SharedCallTree call_tree; // what the three tree views show
    CallTreeView calltree{call_tree, false};
    CallTreeView bottomup{call_tree, true};
    SandwichView sandwich{call_tree};
    CallGraphView callgraph;
    FlameGraphView flamegraph;

    ThreadViews(const Document& doc, const DiffLink* diff)
        : table(doc, diff, false), side_list(doc, diff, true)
    {
    }
};

// One profile (or pair) in the window: the documents, the selection and
// the views, which live as long as the profile is open.
struct Session {
    std::unique_ptr<Loaded> loaded;
    SelectionHistory selection;
    size_t event = 0;
    // The profile's threads (with --separate-threads=yes), the one chosen
    // and its document; none chosen: the whole program.
    std::vector<ThreadChoice> threads;
    std::unique_ptr<Document> thread_doc;
    std::unique_ptr<ThreadViews> views;
    // The views with no per-thread figures, and the list beside them,
    // always of the whole program.
    FunctionsView whole_list;
    HeatmapView heatmap;
    SourceView source;
    HeapView heap;
    TimelineView timeline_view;
    // The range of time the views are narrowed to, and the spans' nesting.
    TimelineFocus timeline;

    explicit Session(std::unique_ptr<Loaded> l)
        : loaded(std::move(l)), threads(thread_choices(loaded->now->profile())),
          views(std::make_unique<ThreadViews>(*loaded->now, loaded->diff.get())),
          whole_list(*loaded->now, loaded->diff.get(), true)
    {
    }

    // Shows thread `tid` (nullopt: every thread) in the views that have
    // per-thread figures. Throws vgprof::Error when the profile has no
    // such thread. Diff mode has no threads to choose.
    void choose_thread(std::optional<uint32_t> tid);
    std::optional<uint32_t> thread() const { return thread_doc ? thread_doc->thread() : std::nullopt; }

    // Diff mode: what box colors show. A function's own change at first:
    // the total change of every caller of a changed function is as large
    // as its own, so it would color the whole path to it alike.
    DiffColoring coloring = DiffColoring::own;
    // Diff mode of profiles that do not compare (DiffLink::differences)
    // shows why until the user asks for the diff anyway (or --force).
    bool compared_anyway = false;
    bool refused() const
    {
        return loaded->diff && !loaded->diff->differences().empty() && !compared_anyway;
    }
    // What the views of the whole program draw from.
    ViewContext context()
    {
        return ViewContext{*loaded->now, loaded->diff.get(), selection, event, coloring, &timeline};
    }
    // What the views of the thread chosen draw from.
    ViewContext thread_context()
    {
        ViewContext ctx = context();
        return thread_doc ? ViewContext{*thread_doc, nullptr, selection, event, coloring, &timeline} : ctx;
    }
    // Whether a view is still working in the background (disassembling).
    bool busy() const { return source.busy(); }
};

class App {
public:
    explicit App(AppOptions options);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    // Runs until the window closes (or the screenshot or benchmark is
    // done); returns the exit status.
    int run();

private:
    int run_loop();
    bool init();
    void load(std::vector<std::string> paths);
    void take_loaded();
    void handle(const SDL_Event& event);
    void frame();
    void render(bool present);

    void draw_menu();
    void draw_toolbar();
    void draw_thread_combo();
    void draw_body();
    void draw_status();
    void draw_load_state();
    void draw_refusal();
    void draw_diff_warnings();
    void draw_open_dialog();
    void show(ViewId view);

    int screenshot_loop();
    int bench_loop();
    bool capture(const std::string& path);

    AppOptions options_;
    std::chrono::steady_clock::time_point started_;
    float scale_ = 1;
    SDL_Window* window_ = nullptr;
    SDL_Renderer* renderer_ = nullptr;
    bool imgui_ready_ = false;
    bool quit_ = false;

    ProfileLoader loader_;
    std::vector<std::string> loading_;     // the paths being loaded
    std::unique_ptr<Session> session_;
    std::string error_;                    // shown in the window
    bool failed_load_ = false;             // error_ is a profile that did not load

    ViewId active_ = ViewId::callgraph;
    bool switch_tab_ = false;
    std::vector<std::string> dropped_;     // files dropped since the last frame

    bool open_dialog_ = false;
    bool compare_ = false;                 // the dialog opens for diff mode
    bool all_files_ = false;               // the dialog lists every file, not only profiles
    Listing listing_;
    char open_path_[1024] = "";
};

} // namespace vgprof::viewer

#endif
