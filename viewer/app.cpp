// SPDX-License-Identifier: GPL-2.0-or-later
// The window, the main loop and the unattended modes.
#include "app.hpp"

#include "frame_stats.hpp"
#include "imgui_sdl_backend.hpp"
#include "screenshot.hpp"

#include "vgprof/error.hpp"
#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/query.hpp"

#include <SDL.h>
#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace vgprof::viewer {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void print_stats(const char* what, const std::vector<double>& ui, const std::vector<double>& total)
{
    const FrameStats u = frame_stats(ui), t = frame_stats(total);
    std::printf("%-10s ui median %6.2f ms, worst %6.2f ms;  total median %6.2f ms, worst %6.2f ms\n",
                what, u.median_ms, u.worst_ms, t.median_ms, t.worst_ms);
}

// What is selected when a profile opens without --select, so that every
// view shows something: main, else (a stripped program) the function of
// the largest inclusive cost of the first event that has a name and is the
// program's own rather than the C library's or the dynamic loader's
// start-up (Python's Py_BytesMain rather than __libc_start_main), else
// the largest that has a name.
std::optional<FnId> starting_function(const Document& doc)
{
    const Profile& p = doc.profile();
    const auto startup = [&](FnId fn) {
        const std::string& obj = p.obj_path(p.function(fn).obj);
        const std::string base = basename_of(obj);
        return base.rfind("libc.so", 0) == 0 || base.rfind("ld-linux", 0) == 0;
    };
    std::optional<FnId> best, best_own;
    for (size_t i = 0; i < doc.num_functions(); ++i) {
        const FnId fn{uint32_t(i)};
        const std::string& name = p.fn_name(fn);
        // A thread's document (--thread) never ran main unless it is the
        // main thread's.
        if (name == "main" && (!doc.thread() || doc.inclusive(fn, 0) != 0))
            return fn;
        if (is_unknown(name) || name.rfind("(below main)", 0) == 0)
            continue;
        const auto larger = [&](const std::optional<FnId>& than) {
            return !than || doc.inclusive(fn, 0) > doc.inclusive(*than, 0);
        };
        if (larger(best))
            best = fn;
        if (!startup(fn) && larger(best_own))
            best_own = fn;
    }
    return best_own ? best_own : best;
}

// The function --select names: one shown under exactly that name ("???
// [libfoo.so]", as functions that share a name are shown), else what
// find_function finds by the name.
FnId function_to_select(const Document& doc, const std::string& name)
{
    for (size_t i = 0; i < doc.num_functions(); ++i)
        if (doc.names().shared(FnId(uint32_t(i))) && doc.names().whole_function(FnId(uint32_t(i))) == name)
            return FnId(uint32_t(i));
    return find_function(doc.profile(), name);
}

// The range --range names, "A:B" with A < B, within a profile that has a
// timeline.
TimeRange range_to_show(const Profile& p, const std::string& text)
{
    unsigned long long a = 0, b = 0;
    char colon = 0, rest = 0;
    if (std::sscanf(text.c_str(), "%llu%c%llu%c", &a, &colon, &b, &rest) != 3 || colon != ':' ||
        text.find('-') != std::string::npos)
        throw Error("expected A:B, two instruction counts, got \"" + text + "\"");
    if (a >= b)
        throw Error("the range " + text + " is empty: A must be below B");
    if (!p.timeline())
        throw Error("the profile has no timeline (it was recorded with --timeline=no, --call-graph=no or "
                    "before format version 10)");
    return TimeRange{a, b};
}

// Frames drawn after the profile is in, before a screenshot is taken: the
// tables size their columns and the graph scrolls to its centre over the
// first frames.
constexpr int kSettleFrames = 4;
// How long a screenshot waits for a view's background work (a large
// library takes a few seconds to disassemble).
constexpr double kBackgroundLimitMs = 60000;

} // namespace

App::App(AppOptions options) : options_(std::move(options))
{
    if (options_.view)
        active_ = *options_.view;
    switch_tab_ = true;
}

App::~App()
{
    loader_.wait();
    session_.reset();
    if (imgui_ready_) {
        imgui_sdl::shutdown();
        ImGui::DestroyContext();
    }
    if (renderer_)
        SDL_DestroyRenderer(renderer_);
    if (window_)
        SDL_DestroyWindow(window_);
    SDL_Quit();
}

bool App::init()
{
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
        std::cerr << "vgprof-viewer: cannot start SDL: " << SDL_GetError() << '\n';
        return false;
    }
    SDL_SetHint(SDL_HINT_IME_SHOW_UI, "1");
    const bool unattended = !options_.screenshot.empty() || options_.bench_frames > 0;
    const Uint32 flags = SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI |
                         (unattended ? 0 : SDL_WINDOW_SHOWN);
    window_ = SDL_CreateWindow("vgprof-viewer", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                               options_.width, options_.height, flags);
    if (!window_) {
        std::cerr << "vgprof-viewer: cannot open a window: " << SDL_GetError() << '\n';
        return false;
    }
    // A screenshot is drawn by the software renderer so that it is the same
    // on every machine; interactive use takes the fastest there is, with
    // vsync, and falls back to software.
    if (!options_.screenshot.empty())
        SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software");
    const Uint32 vsync = unattended ? 0 : SDL_RENDERER_PRESENTVSYNC;
    renderer_ = SDL_CreateRenderer(window_, -1, SDL_RENDERER_ACCELERATED | vsync);
    if (!renderer_)
        renderer_ = SDL_CreateRenderer(window_, -1, SDL_RENDERER_SOFTWARE);
    if (!renderer_) {
        std::cerr << "vgprof-viewer: cannot draw in the window: " << SDL_GetError() << '\n';
        return false;
    }

    if (options_.scale) {
        scale_ = *options_.scale;
    } else if (options_.screenshot.empty()) {
        float dpi = 0;
        if (SDL_GetDisplayDPI(0, &dpi, nullptr, nullptr) == 0 && dpi > 0)
            scale_ = std::clamp(dpi / 96.0f, 1.0f, 3.0f);
    }

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the layout is the program's, not a file's
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    ImGui::StyleColorsLight();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 0;
    style.FrameRounding = 3;
    style.CellPadding = ImVec2(5, 2);
    // Light frames on light windows need a border to be seen.
    style.FrameBorderSize = 1;
    style.ScaleAllSizes(scale_);
    const std::string dir = VIEWER_FONT_DIR;
    const bool sans = access((dir + "/DejaVuSans.ttf").c_str(), R_OK) == 0 &&
                      io.Fonts->AddFontFromFileTTF((dir + "/DejaVuSans.ttf").c_str(), 15 * scale_);
    if (!sans)
        io.Fonts->AddFontDefault();
    const bool mono = access((dir + "/DejaVuSansMono.ttf").c_str(), R_OK) == 0 &&
                      io.Fonts->AddFontFromFileTTF((dir + "/DejaVuSansMono.ttf").c_str(), 14 * scale_);
    if (!mono)
        io.Fonts->AddFontDefault();
    imgui_sdl::init(window_, renderer_);
    imgui_ready_ = true;
    return true;
}

void Session::choose_thread(std::optional<uint32_t> tid)
{
    if (tid == thread())
        return;
    const Document& whole = *loaded->now;
    if (tid && loaded->diff)
        throw Error("a diff of two profiles shows every thread, not one");
    std::unique_ptr<Document> doc;
    if (tid)
        doc = std::make_unique<Document>(whole, thread_for_option(whole.profile(), *tid, "--thread"));
    // The old views go before the document they point into.
    views.reset();
    thread_doc = std::move(doc);
    views = std::make_unique<ThreadViews>(thread_doc ? *thread_doc : whole,
                                          thread_doc ? nullptr : loaded->diff.get());
}

void App::load(std::vector<std::string> paths)
{
    if (loader_.state() == ProfileLoader::State::loading)
        return;
    error_.clear();
    failed_load_ = false;
    loading_ = paths;
    loader_.start(std::move(paths));
}

void App::take_loaded()
{
    if (loader_.state() == ProfileLoader::State::failed && !loading_.empty()) {
        error_ = loader_.error();
        failed_load_ = true;
        loading_.clear();
        return;
    }
    if (loader_.state() != ProfileLoader::State::done)
        return;
    std::unique_ptr<Loaded> loaded = loader_.take();
    if (!loaded)
        return;
    loading_.clear();
    session_ = std::make_unique<Session>(std::move(loaded));
    session_->source.trust_profile(options_.trust_profile);
    session_->compared_anyway = options_.force;
    if (options_.heap_panel)
        session_->heap.show_panel(*options_.heap_panel);
    if (options_.machine_code)
        session_->source.show_machine_code(*options_.machine_code);
    const Document& doc = *session_->loaded->now;
    std::string title = "vgprof-viewer - " + doc.path();
    if (session_->loaded->base)
        title = "vgprof-viewer - " + session_->loaded->base->path() + " -> " + doc.path();
    SDL_SetWindowTitle(window_, title.c_str());
    // A DHAT file has nothing but its heap to show.
    if (!options_.view && doc.profile().meta().tool == "dhat")
        show(ViewId::heap);
    if (!options_.event.empty()) {
        if (const auto e = doc.profile().event_index(options_.event))
            session_->event = *e;
        else
            error_ = "--event " + options_.event + ": " + doc.path() + " did not record this event";
    }
    if (options_.thread) {
        try {
            session_->choose_thread(options_.thread);
        } catch (const Error& e) {
            error_ = doc.path() + ": " + e.what();
        }
    }
    if (!options_.range.empty()) {
        try {
            session_->timeline.range = range_to_show(doc.profile(), options_.range);
        } catch (const Error& e) {
            error_ = std::string("--range: ") + e.what();
        }
    }
    if (!options_.select.empty()) {
        try {
            session_->selection.select(Selection::function(function_to_select(doc, options_.select)));
        } catch (const Error& e) {
            error_ = std::string("--select: ") + e.what();
        }
    } else if (const auto start = starting_function(session_->thread_doc ? *session_->thread_doc : doc)) {
        session_->selection.select(Selection::function(*start));
    }
    if (!options_.line.empty()) {
        try {
            session_->selection.select(
                line_to_select(doc, options_.line, session_->selection.current().fn, session_->event));
        } catch (const Error& e) {
            error_ = std::string("--line: ") + e.what();
        }
    }
}

void App::handle(const SDL_Event& event)
{
    imgui_sdl::process_event(&event);
    switch (event.type) {
    case SDL_QUIT:
        quit_ = true;
        break;
    case SDL_WINDOWEVENT:
        if (event.window.event == SDL_WINDOWEVENT_CLOSE && event.window.windowID == SDL_GetWindowID(window_))
            quit_ = true;
        break;
    case SDL_DROPFILE:
        dropped_.push_back(event.drop.file);
        SDL_free(event.drop.file);
        break;
    case SDL_MOUSEBUTTONDOWN:
        // The mouse's back and forward buttons walk the selection history.
        if (session_ && event.button.button == SDL_BUTTON_X1)
            session_->selection.back();
        if (session_ && event.button.button == SDL_BUTTON_X2)
            session_->selection.forward();
        break;
    case SDL_KEYDOWN: {
        // The modifiers held when this key went down: a frame may come
        // after Ctrl was let go (a quick press, a busy machine).
        const Uint16 mod = event.key.keysym.mod;
        const SDL_Keycode key = event.key.keysym.sym;
        const bool typing = ImGui::GetIO().WantTextInput;
        if ((mod & KMOD_ALT) && session_ && key == SDLK_LEFT)
            session_->selection.back();
        else if ((mod & KMOD_ALT) && session_ && key == SDLK_RIGHT)
            session_->selection.forward();
        else if ((mod & KMOD_CTRL) && key == SDLK_o)
            open_dialog_ = true;
        else if ((mod & KMOD_CTRL) && key == SDLK_q)
            quit_ = true;
        else if ((mod & KMOD_CTRL) && key == SDLK_f && session_) {
            if (active_ == ViewId::functions)
                session_->views->table.focus_search();
            else if (shows_thread(active_))
                session_->views->side_list.focus_search();
            else
                session_->whole_list.focus_search();
        } else if ((mod & KMOD_CTRL) && !typing && key >= SDLK_1 &&
                   key < SDLK_1 + int(std::size(kAllViews)) && key <= SDLK_9)
            show(kAllViews[key - SDLK_1]);
        // The tenth view is on Ctrl+0, as the keyboard's row goes on.
        else if ((mod & KMOD_CTRL) && !typing && key == SDLK_0 && std::size(kAllViews) >= 10)
            show(kAllViews[9]);
        break;
    }
    default:
        break;
    }
}

void App::show(ViewId view)
{
    active_ = view;
    switch_tab_ = true;
}

void App::frame()
{
    imgui_sdl::new_frame();
    // Unattended, wherever the pointer happens to be must not hover
    // anything: no tooltip in a screenshot, no hover work in a benchmark.
    if (!options_.screenshot.empty() || options_.bench_frames > 0)
        ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();

    if (!dropped_.empty()) {
        // Two files dropped together compare the first against the second.
        if (dropped_.size() > 2)
            dropped_.resize(2);
        load(dropped_);
        dropped_.clear();
    }
    take_loaded();

    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_MenuBar |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(6 * scale_, 4 * scale_));
    ImGui::Begin("vgprof-viewer", nullptr, flags);
    ImGui::PopStyleVar();
    draw_menu();
    const float status_height = ImGui::GetFrameHeightWithSpacing();
    ImGui::BeginChild("main", ImVec2(0, -status_height), false, ImGuiWindowFlags_NoScrollbar);
    if (session_ && session_->refused()) {
        draw_refusal();
    } else if (session_) {
        draw_toolbar();
        draw_diff_warnings();
        draw_body();
    } else {
        draw_load_state();
    }
    ImGui::EndChild();
    draw_status();
    ImGui::End();
    draw_open_dialog();
    ImGui::Render();
}

void App::render(bool present)
{
    SDL_SetRenderDrawColor(renderer_, 240, 240, 240, 255);
    SDL_RenderClear(renderer_);
    imgui_sdl::render(ImGui::GetDrawData());
    if (present)
        SDL_RenderPresent(renderer_);
}

int App::run()
{
    // The views handle what they expect (a graph that cannot be laid out,
    // a source that cannot be read); anything else ends the program with a
    // message rather than a crash.
    try {
        return run_loop();
    } catch (const std::exception& e) {
        std::cerr << "vgprof-viewer: internal error: " << e.what() << '\n';
        return 2;
    }
}

int App::run_loop()
{
    started_ = std::chrono::steady_clock::now();
    // The profile loads while the window opens.
    if (!options_.profiles.empty())
        load(options_.profiles);
    if (!init())
        return 2;
    if (!options_.screenshot.empty())
        return screenshot_loop();
    if (options_.bench_frames > 0)
        return bench_loop();

    // Interactive: draw a few frames after anything happens, then sleep
    // until the next event (or poll while a profile loads, for the bar).
    int busy_frames = 3;
    while (!quit_) {
        SDL_Event event;
        const bool loading = loader_.state() == ProfileLoader::State::loading;
        if (busy_frames <= 0 && !loading) {
            if (SDL_WaitEventTimeout(&event, 500)) {
                handle(event);
                busy_frames = 3;
            }
        }
        while (SDL_PollEvent(&event)) {
            handle(event);
            busy_frames = 3;
        }
        frame();
        render(true);
        --busy_frames;
        if (ImGui::IsAnyMouseDown())
            busy_frames = 3;
    }
    return 0;
}

int App::screenshot_loop()
{
    int settled = 0;
    while (!quit_) {
        SDL_Event event;
        while (SDL_PollEvent(&event))
            handle(event);
        frame();
        // A view working in the background (disassembling an object file)
        // is waited for, up to a limit, and then given the frames to settle.
        const bool background = session_ && session_->busy() && ms_since(started_) < kBackgroundLimitMs;
        const bool ready = loader_.state() != ProfileLoader::State::loading && !background;
        if (background)
            settled = 0;
        if (ready && ++settled > kSettleFrames) {
            render(false);
            if (!capture(options_.screenshot))
                return 2;
            render(true);
            if (!error_.empty()) {
                std::cerr << "vgprof-viewer: " << error_ << '\n';
                return 2;
            }
            return 0;
        }
        render(true);
        if (!ready)
            SDL_Delay(background ? 20 : 5);
    }
    return 0;
}

bool App::capture(const std::string& path)
{
    int w = 0, h = 0;
    SDL_GetRendererOutputSize(renderer_, &w, &h);
    std::vector<uint8_t> pixels(size_t(w) * size_t(h) * 4);
    if (SDL_RenderReadPixels(renderer_, nullptr, SDL_PIXELFORMAT_ABGR8888, pixels.data(), w * 4) != 0) {
        std::cerr << "vgprof-viewer: cannot read the window's pixels: " << SDL_GetError() << '\n';
        return false;
    }
    try {
        write_png(path, pixels, w, h);
    } catch (const Error& e) {
        std::cerr << "vgprof-viewer: " << e.what() << '\n';
        return false;
    }
    return true;
}

int App::bench_loop()
{
    while (loader_.state() == ProfileLoader::State::loading) {
        SDL_Event event;
        while (SDL_PollEvent(&event))
            handle(event);
        SDL_Delay(1);
    }
    frame();
    render(true);
    // From the start of run(): opening the window, reading, parsing,
    // indexing, and the first frame that shows the profile.
    const double open_ms = ms_since(started_);
    if (!session_) {
        std::cerr << "vgprof-viewer: " << (error_.empty() ? "no profile to measure" : error_) << '\n';
        return 2;
    }
    SDL_RendererInfo info{};
    SDL_GetRendererInfo(renderer_, &info);
    std::printf("open: %.2f s (%s, %s functions)\n", open_ms / 1000,
                session_->loaded->now->path().c_str(),
                format_thousands(session_->loaded->now->num_functions()).c_str());
    std::printf("frames: %zu per view, %dx%d, SDL renderer %s; ui: building the frame, "
                "total: with drawing and presenting it\n",
                options_.bench_frames, options_.width, options_.height, info.name);
    // Half-way through each view, select the second most expensive function,
    // so the frames that rebuild a view count too.
    FunctionTable order(*session_->loaded->now, nullptr);
    std::vector<double> all_ui, all_total;
    for (ViewId view : kAllViews) {
        show(view);
        std::vector<double> ui, total;
        for (size_t i = 0; i < options_.bench_frames + 2; ++i) {
            if (i == options_.bench_frames / 2 + 2 && order.rows().size() > 1)
                session_->selection.select(Selection::function(order.rows()[1]));
            const auto t0 = Clock::now();
            SDL_Event event;
            while (SDL_PollEvent(&event))
                handle(event);
            frame();
            const double built = ms_since(t0);
            render(true);
            // The first two frames of a view switch tabs and size tables.
            if (i >= 2) {
                ui.push_back(built);
                total.push_back(ms_since(t0));
            }
        }
        print_stats(view_key(view), ui, total);
        all_ui.insert(all_ui.end(), ui.begin(), ui.end());
        all_total.insert(all_total.end(), total.begin(), total.end());
        session_->selection.back();
    }
    print_stats("all", all_ui, all_total);
    return 0;
}

} // namespace vgprof::viewer
