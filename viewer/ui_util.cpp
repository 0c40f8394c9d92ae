// SPDX-License-Identifier: GPL-2.0-or-later
// Shared drawing helpers.
#include "ui_util.hpp"

#include "vgprof/format.hpp"
#include "vgprof/identity.hpp"
#include "vgprof/safe_text.hpp"

#include <SDL.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <functional>

namespace vgprof::viewer {

ImU32 to_imgui(Rgb c, int alpha) { return IM_COL32(c.r, c.g, c.b, alpha); }

std::string short_count(uint64_t n)
{
    char text[32];
    if (n < 1000)
        std::snprintf(text, sizeof text, "%" PRIu64, n);
    else if (n < 1000000)
        std::snprintf(text, sizeof text, "%.1fk", double(n) / 1e3);
    else if (n < 1000000000)
        std::snprintf(text, sizeof text, "%.2fM", double(n) / 1e6);
    else
        std::snprintf(text, sizeof text, "%.2fG", double(n) / 1e9);
    return text;
}

std::string bytes_text(uint64_t n)
{
    if (n < 1000)
        return std::to_string(n) + " B";
    std::string text = short_count(n);
    const char unit = text.back();
    text.pop_back();
    return text + " " + (unit == 'k' ? "kB" : unit == 'M' ? "MB" : "GB");
}

std::string signed_count(int64_t n)
{
    if (n == 0)
        return "0";
    const uint64_t magnitude = n < 0 ? uint64_t(0) - uint64_t(n) : uint64_t(n);
    return (n < 0 ? "-" : "+") + format_thousands(magnitude);
}

std::string signed_short(int64_t n)
{
    if (n == 0)
        return "0";
    const uint64_t magnitude = n < 0 ? uint64_t(0) - uint64_t(n) : uint64_t(n);
    return (n < 0 ? "-" : "+") + short_count(magnitude);
}

std::string change_text(int64_t delta, uint64_t base)
{
    if (delta == 0)
        return "0";
    if (base == 0)
        return signed_count(delta) + " (new)";
    char share[32];
    std::snprintf(share, sizeof share, " (%+.1f%%)", 100.0 * double(delta) / double(base));
    return signed_count(delta) + share;
}

std::string percent(uint64_t part, uint64_t total)
{
    if (total == 0)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100.0 * double(part) / double(total));
    return text;
}

Rgb delta_rgb(int64_t delta, int64_t max_magnitude)
{
    return DiffScale::counts(max_magnitude).color(delta, 0);
}

DiffScale box_scale(const ViewContext& ctx, int64_t largest_total, int64_t largest_own)
{
    switch (ctx.coloring) {
    case DiffColoring::total: return DiffScale::counts(largest_total);
    case DiffColoring::own: return DiffScale::counts(largest_own);
    case DiffColoring::relative: break;
    }
    return DiffScale::percentages();
}

Rgb box_change_rgb(const ViewContext& ctx, const DiffScale& scale, uint64_t total, uint64_t base_total,
                   uint64_t own, uint64_t base_own)
{
    if (ctx.coloring == DiffColoring::own)
        return scale.color(signed_delta(own, base_own), base_own);
    return scale.color(signed_delta(total, base_total), base_total);
}

void diff_legend(const DiffScale& scale, const char* what)
{
    const float font = ImGui::GetFontSize();
    ImGui::TextDisabled("%s:", what);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    // Where a line ends: a bin that would pass it starts the next line.
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const auto label = [&](double edge, int sign) {
        if (scale.relative()) {
            char text[32];
            std::snprintf(text, sizeof text, "%+.0f%%", sign * edge);
            return std::string(text);
        }
        return signed_short(int64_t(sign * edge));
    };
    // The neutral bin: changes under the first edge, and those under the
    // noise floor's share of the base.
    std::string neutral = "less than " + label(scale.edge(1), 1).substr(1);
    if (scale.floor().percent > 0 && !scale.relative()) {
        char share[32];
        std::snprintf(share, sizeof share, " or %g%%", scale.floor().percent);
        neutral += share;
    }
    for (const int b : scale.bins()) {
        const std::string text = b == 0 ? neutral
                                        : (b < 0 ? "<= " : ">= ") + label(scale.edge(std::abs(b)), b < 0 ? -1 : 1);
        const Rgb color = DiffScale::bin_color(b);
        const float w = ImGui::CalcTextSize(text.c_str()).x + font * 0.6f;
        if (ImGui::GetItemRectMax().x + 1 + w <= right)
            ImGui::SameLine(0, 1);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        draw->AddRectFilled(at, ImVec2(at.x + w, at.y + font + 2), to_imgui(color));
        draw->AddText(ImVec2(at.x + font * 0.3f, at.y + 1), to_imgui(text_color_on(color)), text.c_str());
        ImGui::Dummy(ImVec2(w, font + 2));
    }
}

void box_legend(const ViewContext& ctx, const DiffScale& scale)
{
    diff_legend(scale, ("Box colors, " + std::string(diff_coloring_name(ctx.coloring))).c_str());
}

void diff_coloring_combo(DiffColoring& coloring)
{
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ImGui::BeginCombo("##coloring", diff_coloring_name(coloring))) {
        for (DiffColoring c : {DiffColoring::total, DiffColoring::own, DiffColoring::relative})
            if (ImGui::Selectable(diff_coloring_name(c), c == coloring))
                coloring = c;
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("What a box's color shows: the change of its total cost, of its own cost, or its "
                          "total's change as a share of the base's");
}

ImU32 delta_color(int64_t delta, int64_t max_magnitude, int alpha)
{
    return to_imgui(delta_rgb(delta, max_magnitude), alpha);
}

Rgb category_color(size_t i)
{
    // Tableau's ten-color palette, chosen to be told apart by most people.
    static const Rgb kColors[] = {{78, 121, 167}, {242, 142, 43}, {89, 161, 79},   {225, 87, 89},
                                  {118, 183, 178}, {237, 201, 72}, {176, 122, 161}, {255, 157, 167},
                                  {156, 117, 95},  {160, 200, 90}};
    return kColors[i % std::size(kColors)];
}

Rgb flame_color(const std::string& name)
{
    const size_t h = std::hash<std::string>()(name);
    const double a = double(h % 1000) / 1000.0, b = double((h / 1000) % 1000) / 1000.0;
    return Rgb{uint8_t(205 + 50 * a), uint8_t(90 + 110 * b), uint8_t(40 + 30 * a)};
}

void cost_cell(uint64_t value, uint64_t total, bool compact)
{
    const std::string number = format_thousands(value);
    const std::string share = percent(value, total);
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    const float height = ImGui::GetTextLineHeight();
    if (total > 0 && value > 0) {
        const float w = std::max(1.0f, width * float(double(value) / double(total)));
        ImGui::GetWindowDrawList()->AddRectFilled(pos, ImVec2(pos.x + w, pos.y + height),
                                                  IM_COL32(230, 140, 60, 80));
    }
    if (compact) {
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() +
                             std::max(0.0f, width - ImGui::CalcTextSize(share.c_str()).x));
        ImGui::TextUnformatted(share.c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", number.c_str());
        return;
    }
    const std::string text = number + "  " + share;
    const float text_width = ImGui::CalcTextSize(text.c_str()).x;
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, width - text_width));
    ImGui::TextUnformatted(number.c_str());
    ImGui::SameLine(0, ImGui::CalcTextSize("  ").x);
    ImGui::TextDisabled("%s", share.c_str());
}

void delta_cell(int64_t delta, uint64_t now, int64_t max_magnitude, bool compact)
{
    const uint64_t base = uint64_t(int64_t(now) - delta);
    const std::string text = compact ? signed_short(delta) : change_text(delta, base);
    const float width = ImGui::GetContentRegionAvail().x;
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const float height = ImGui::GetTextLineHeight();
    if (delta != 0)
        ImGui::GetWindowDrawList()->AddRectFilled(pos, ImVec2(pos.x + width, pos.y + height),
                                                  delta_color(delta, max_magnitude, 110));
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() +
                         std::max(0.0f, width - ImGui::CalcTextSize(text.c_str()).x));
    ImGui::TextUnformatted(text.c_str());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s -> %s: %s", format_thousands(base).c_str(), format_thousands(now).c_str(),
                          change_text(delta, base).c_str());
}

void right_aligned(const std::string& text)
{
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() +
                         std::max(0.0f, ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(text.c_str()).x));
    ImGui::TextUnformatted(text.c_str());
}

std::string node_name(const Document& doc, NodeKey key)
{
    if (const auto fn = key.fn())
        return doc.names().function(*fn);
    return key_name(doc.profile(), key);
}

void function_tooltip(const ViewContext& ctx, FnId fn)
{
    const Profile& p = ctx.doc.profile();
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
    ImGui::TextUnformatted(drawable(escaped_controls(p.fn_name(fn))).c_str());
    ImGui::PopTextWrapPos();
    const Function& f = p.function(fn);
    if (!is_unknown(p.file_path(f.file)))
        ImGui::TextDisabled("%s:%u", drawable(escaped_controls(p.file_path(f.file))).c_str(), f.line);
    ImGui::TextDisabled("%s", drawable(escaped_controls(p.obj_path(f.obj))).c_str());
    ImGui::Separator();
    if (ImGui::BeginTable("costs", ctx.diff ? 5 : 3, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("event");
        ImGui::TableSetupColumn("self");
        ImGui::TableSetupColumn("inclusive");
        if (ctx.diff) {
            ImGui::TableSetupColumn("self change");
            ImGui::TableSetupColumn("incl. change");
        }
        ImGui::TableHeadersRow();
        for (size_t e = 0; e < ctx.doc.num_events(); ++e) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(p.meta().events[e].c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%s (%s)", format_thousands(ctx.doc.self(fn, e)).c_str(),
                        percent(ctx.doc.self(fn, e), ctx.doc.total(e)).c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%s (%s)", format_thousands(ctx.doc.inclusive(fn, e)).c_str(),
                        percent(ctx.doc.inclusive(fn, e), ctx.doc.total(e)).c_str());
            if (ctx.diff) {
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(signed_count(ctx.diff->self_delta(fn, e)).c_str());
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(signed_count(ctx.diff->inclusive_delta(fn, e)).c_str());
            }
        }
        ImGui::EndTable();
    }
    ImGui::EndTooltip();
}

std::string one_line(std::string text)
{
    return escaped_controls(text);
}

std::string fit_text(const std::string& text, float width)
{
    if (ImGui::CalcTextSize(text.c_str()).x <= width)
        return text;
    const float dots = ImGui::CalcTextSize("...").x;
    // Binary search on the length that fits with the dots.
    size_t lo = 0, hi = text.size();
    while (lo < hi) {
        const size_t mid = (lo + hi + 1) / 2;
        if (ImGui::CalcTextSize(text.c_str(), text.c_str() + mid).x + dots <= width)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo == 0 ? std::string() : text.substr(0, lo) + "...";
}

std::string fit_text_middle(const std::string& text, float width)
{
    if (ImGui::CalcTextSize(text.c_str()).x <= width)
        return text;
    const float dots = ImGui::CalcTextSize("...").x;
    // Binary search on how many characters to keep, half from each end.
    size_t lo = 0, hi = text.size();
    const auto cut = [&](size_t keep) {
        const size_t head = (keep + 1) / 2, tail = keep / 2;
        return text.substr(0, head) + "..." + text.substr(text.size() - tail);
    };
    while (lo < hi) {
        const size_t mid = (lo + hi + 1) / 2;
        if (ImGui::CalcTextSize(cut(mid).c_str()).x <= width)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo == 0 ? (dots <= width ? "..." : std::string()) : cut(lo);
}

// Dear ImGui names its keys from 1.87 on (ImGuiKey_*, Debian 13's 1.90);
// before (Debian 12's 1.86) it took the platform backend's key codes,
// which for SDL are scancodes.
#if IMGUI_VERSION_NUM >= 18700
#define VGPROF_KEY(imgui_name, sdl_name) ImGuiKey_##imgui_name
#else
#define VGPROF_KEY(imgui_name, sdl_name) SDL_SCANCODE_##sdl_name
#endif

bool key_pressed(ViewKey key, bool even_in_text)
{
    if (!even_in_text && ImGui::GetIO().WantTextInput)
        return false;
    switch (key) {
    case ViewKey::Up: return ImGui::IsKeyPressed(VGPROF_KEY(UpArrow, UP));
    case ViewKey::Down: return ImGui::IsKeyPressed(VGPROF_KEY(DownArrow, DOWN));
    case ViewKey::Left: return ImGui::IsKeyPressed(VGPROF_KEY(LeftArrow, LEFT));
    case ViewKey::Right: return ImGui::IsKeyPressed(VGPROF_KEY(RightArrow, RIGHT));
    case ViewKey::Escape: return ImGui::IsKeyPressed(VGPROF_KEY(Escape, ESCAPE));
    case ViewKey::KeypadMultiply: return ImGui::IsKeyPressed(VGPROF_KEY(KeypadMultiply, KP_MULTIPLY));
    case ViewKey::Digit8: return ImGui::IsKeyPressed(VGPROF_KEY(8, 8));
    }
    return false;
}

void centred_message(const char* text)
{
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float wrap = std::min(avail.x - 20, ImGui::GetFontSize() * 36);
    const ImVec2 size = ImGui::CalcTextSize(text, nullptr, false, wrap);
    ImGui::SetCursorPos(ImVec2(ImGui::GetCursorPosX() + std::max(0.0f, (avail.x - size.x) / 2),
                               ImGui::GetCursorPosY() + std::max(0.0f, (avail.y - size.y) / 2)));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
}

} // namespace vgprof::viewer
