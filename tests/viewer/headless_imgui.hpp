// SPDX-License-Identifier: GPL-2.0-or-later
// Dear ImGui without a window, for the view tests and the reader fuzzer: a
// context with a font atlas and a display size is all the views need to
// draw, and a frame is a window filling the display.
#ifndef VGPROF_TESTS_VIEWER_HEADLESS_IMGUI_HPP
#define VGPROF_TESTS_VIEWER_HEADLESS_IMGUI_HPP

#include <imgui.h>

#include <functional>

namespace vgprof::viewer {

// Creates the current context, 1280x800.
inline void create_headless_context()
{
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280, 800);
    io.DeltaTime = 1.0f / 60;
    // As the viewer's SDL renderer backend says: a window's vertices may
    // pass 64K, split into draw commands of 16-bit indices each.
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
    io.Fonts->AddFontDefault();
    unsigned char* pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
}

// One frame with `draw` in a window filling the display; returns the
// vertices drawn.
inline int headless_frame(const std::function<void()>& draw)
{
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
    ImGui::Begin("test", nullptr, ImGuiWindowFlags_NoDecoration);
    draw();
    ImGui::End();
    ImGui::Render();
    return ImGui::GetDrawData()->TotalVtxCount;
}

} // namespace vgprof::viewer

#endif
