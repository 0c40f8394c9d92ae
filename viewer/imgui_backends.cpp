// SPDX-License-Identifier: GPL-2.0-or-later
// Dear ImGui's SDL2 platform backend and SDL-renderer backend. Debian's
// libimgui-dev ships these as sources only (configure finds their
// directory), so the viewer compiles them here as they are.
#include "imgui_impl_sdl.cpp"
#include "imgui_impl_sdlrenderer.cpp"
