// SPDX-License-Identifier: GPL-2.0-or-later
// Dear ImGui's SDL2 platform backend and SDL-renderer backend under one set
// of names, whichever Dear ImGui the viewer is built with: their files and
// functions were renamed after 1.86 (Debian 12), imgui_impl_sdl became
// imgui_impl_sdl2 and ImGui_ImplSDLRenderer_* ImGui_ImplSDLRenderer2_*
// (Debian 13's 1.90), and the platform backend's init for the SDL renderer
// took the renderer too.  This is the one place that knows.
#pragma once

#include <SDL.h>
#include <imgui.h>

#if __has_include(<imgui_impl_sdl2.h>)
#include <imgui_impl_sdl2.h>
#else
#include <imgui_impl_sdl.h>
#endif
#if __has_include(<imgui_impl_sdlrenderer2.h>)
#include <imgui_impl_sdlrenderer2.h>
#define VGPROF_IMGUI_SDLRENDERER(name) ImGui_ImplSDLRenderer2_##name
#else
#include <imgui_impl_sdlrenderer.h>
#define VGPROF_IMGUI_SDLRENDERER(name) ImGui_ImplSDLRenderer_##name
#endif

namespace vgprof::viewer::imgui_sdl {

inline void init(SDL_Window* window, SDL_Renderer* renderer)
{
#if IMGUI_VERSION_NUM >= 18700
    ImGui_ImplSDL2_InitForSDLRenderer(window, renderer);
#else
    ImGui_ImplSDL2_InitForSDLRenderer(window);
#endif
    VGPROF_IMGUI_SDLRENDERER(Init)(renderer);
}

inline void shutdown()
{
    VGPROF_IMGUI_SDLRENDERER(Shutdown)();
    ImGui_ImplSDL2_Shutdown();
}

inline bool process_event(const SDL_Event* event) { return ImGui_ImplSDL2_ProcessEvent(event); }

inline void new_frame()
{
    VGPROF_IMGUI_SDLRENDERER(NewFrame)();
    ImGui_ImplSDL2_NewFrame();
}

inline void render(ImDrawData* data) { VGPROF_IMGUI_SDLRENDERER(RenderDrawData)(data); }

} // namespace vgprof::viewer::imgui_sdl
