// SPDX-License-Identifier: GPL-2.0-or-later
// Drawing helpers the views share: numbers as people read them, colors of
// the scales as ImGui colors, a table cell with an inline bar, tooltips
// describing a function.
#ifndef VGPROF_VIEWER_UI_UTIL_HPP
#define VGPROF_VIEWER_UI_UTIL_HPP

#include "color_scale.hpp"
#include "views.hpp"

#include <imgui.h>

#include <cstdint>
#include <string>

namespace vgprof::viewer {

ImU32 to_imgui(Rgb c, int alpha = 255);

// 1234567 -> "1.23M", 20775 -> "20.8k"; numbers below 1000 as they are.
std::string short_count(uint64_t n);
// 1234567 -> "1.23 MB", 512 -> "512 B": bytes in decimal units, as people
// read them on an axis.
std::string bytes_text(uint64_t n);
// "+1,234" / "-56" / "0".
std::string signed_count(int64_t n);
// As short_count with a sign: "+1.2M", "-56", "0".
std::string signed_short(int64_t n);
// "+300 (+16.7%)": a change as a count and as a share of the base; "+300
// (new)" when the base was 0.
std::string change_text(int64_t delta, uint64_t base);
// 12.345 -> "12.3%"; "-" for a zero total.
std::string percent(uint64_t part, uint64_t total);

// The color of a change: red for more, blue for less, in the bin of
// DiffScale::counts(max_magnitude) it falls in (so small and large
// changes look apart, and the tiny ones stay neutral).
Rgb delta_rgb(int64_t delta, int64_t max_magnitude);
ImU32 delta_color(int64_t delta, int64_t max_magnitude, int alpha = 255);

// The scale of a view whose boxes are colored as ctx.coloring says: its
// largest change of that kind, or percentages.
DiffScale box_scale(const ViewContext& ctx, int64_t largest_total, int64_t largest_own);
// A box's color in diff mode from its total and own costs now and in the
// base, by ctx.coloring.
Rgb box_change_rgb(const ViewContext& ctx, const DiffScale& scale, uint64_t total, uint64_t base_total,
                   uint64_t own, uint64_t base_own);
// Diff mode's legend on one line: what the colors stand for, each bin's
// color with the least change it holds, less on the left and more on the
// right.
void diff_legend(const DiffScale& scale, const char* what);
// diff_legend for the boxes of a view colored by ctx.coloring.
void box_legend(const ViewContext& ctx, const DiffScale& scale);
// The choice of what box colors show in diff mode, for the toolbar.
void diff_coloring_combo(DiffColoring& coloring);

// Ten colors told apart at a glance, for the bands of a stacked chart
// (the i-th band, repeating after ten).
Rgb category_color(size_t i);

// Warm colors, varied by function name so neighbours in a flame graph are
// told apart; the same function always gets the same color.
Rgb flame_color(const std::string& name);

// A table cell showing `value` and `percent of total` (only the percentage
// when `compact`), right-aligned, with a bar as wide as the fraction behind
// the text.
void cost_cell(uint64_t value, uint64_t total, bool compact = false);
// A diff table cell: the change as a count and a percentage of the base
// (only a short count when `compact`), colored, with the base and new
// values in the tooltip.
void delta_cell(int64_t delta, uint64_t now, int64_t max_magnitude, bool compact = false);

// `text` at the right of the current table cell, as numbers stand.
void right_aligned(const std::string& text);

// A call tree node's name on screen: a function's as Names gives it (with
// its object when its name is shared), else the library's or [truncated].
std::string node_name(const Document& doc, NodeKey key);

// A tooltip naming `fn` with its file, object and its costs of every event.
void function_tooltip(const ViewContext& ctx, FnId fn);

// `text` as one line: its control characters shown escaped (a newline as \n).
std::string one_line(std::string text);
// `text` cut to fit `width` pixels, ending in "..." when cut.
std::string fit_text(const std::string& text, float width);

// `text` cut in the middle to fit `width` pixels ("a < b ... < e #2"),
// for labels whose ends tell them apart.
std::string fit_text_middle(const std::string& text, float width);

// The keys the views answer to.
enum class ViewKey { Up, Down, Left, Right, Escape, KeypadMultiply, Digit8 };

// Whether a key went down this frame while no text field has the keyboard
// (or, with `even_in_text`, whether it has or not).
bool key_pressed(ViewKey key, bool even_in_text = false);

// Text centred in the current window's remaining space, for empty views.
void centred_message(const char* text);

} // namespace vgprof::viewer

#endif
