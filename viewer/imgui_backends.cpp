// SPDX-License-Identifier: GPL-2.0-or-later
// Dear ImGui's SDL2 platform backend and SDL-renderer backend. Debian's
// libimgui-dev ships these as sources only (configure finds their
// directory), so the viewer compiles them here as they are, under the
// names of the Dear ImGui at hand (see imgui_sdl_backend.hpp).
#if __has_include("imgui_impl_sdl2.cpp")
#include "imgui_impl_sdl2.cpp"
#else
#include "imgui_impl_sdl.cpp"
#endif
#if __has_include("imgui_impl_sdlrenderer2.cpp")
#include "imgui_impl_sdlrenderer2.cpp"
#else
#include "imgui_impl_sdlrenderer.cpp"
#endif
