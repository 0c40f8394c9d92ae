// SPDX-License-Identifier: GPL-2.0-or-later
// The tests' Dear ImGui without a window (headless_imgui.hpp), and clicks
// and drags made by moving the simulated mouse.
#ifndef VGPROF_TESTS_VIEWER_HEADLESS_HPP
#define VGPROF_TESTS_VIEWER_HEADLESS_HPP

#include "headless_imgui.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace vgprof::viewer {

class Headless : public ::testing::Test {
protected:
    void SetUp() override { create_headless_context(); }
    void TearDown() override { ImGui::DestroyContext(); }

    // One frame with `draw` in a window filling the display; returns the
    // vertices drawn.
    int frame(const std::function<void()>& draw) { return headless_frame(draw); }

    // A press at `from`, moves to `to` in steps of 10 pixels, a frame each,
    // and the release there.
    void drag(const std::function<void()>& draw, ImVec2 from, ImVec2 to)
    {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = from;
        frame(draw);
        io.MouseDown[0] = true;
        frame(draw);
        const float steps = std::max(1.0f, std::max(std::abs(to.x - from.x), std::abs(to.y - from.y)) / 10);
        for (float i = 1; i <= steps; ++i) {
            io.MousePos = ImVec2(from.x + (to.x - from.x) * i / steps, from.y + (to.y - from.y) * i / steps);
            frame(draw);
        }
        io.MouseDown[0] = false;
        frame(draw);
    }

    // A mouse press and release at (x, y), a frame each, then one more.
    void click(const std::function<void()>& draw, float x, float y)
    {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = ImVec2(x, y);
        frame(draw);
        io.MouseDown[0] = true;
        frame(draw);
        io.MouseDown[0] = false;
        frame(draw);
        frame(draw);
    }
};

} // namespace vgprof::viewer

#endif
