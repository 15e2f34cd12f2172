#pragma once
/// @file What every panel draws with: the frame's context, the registry of labelled widgets
/// (how UI scripts find "Attack" on the screen), and the overlay's own widgets — die chips that
/// always name their colour, dials drawn as dials. Only the .cpp files include imgui.h.

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dice/die.hpp"
#include "duels/engine.hpp"
#include "duels/state.hpp"
#include "overlay/palette.hpp"
#include "overlay/table_model.hpp"

struct ImFont;
struct ImDrawList;

namespace duels::overlay {

class Session;
struct StatusLine;

/// What kind of thing a registered widget is (scripts can ask for one kind, e.g. dice).
enum class WidgetKind : std::uint8_t { Button, Die, Base, Field };

/// A widget drawn in the last frame: its label, its screen rectangle, whether it responds.
struct WidgetRecord {
  std::string label;  ///< the visible text (before any "##")
  std::string id;     ///< the full ImGui label
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool enabled = true;
  WidgetKind kind = WidgetKind::Button;
};

/// The labelled widgets of the current and the previous frame. Scripts look in the previous
/// frame (what is on the screen now); panels add to the current one as they draw.
class WidgetRegistry {
 public:
  void begin_frame();
  void add(WidgetRecord record);
  /// The first widget with this label (enabled ones first), optionally of one kind.
  [[nodiscard]] const WidgetRecord* find(std::string_view label,
                                         std::optional<WidgetKind> kind = std::nullopt) const;
  /// The widgets of the last complete frame.
  [[nodiscard]] const std::vector<WidgetRecord>& on_screen() const { return previous_; }
  /// The labels on the screen, for "not found" messages.
  [[nodiscard]] std::vector<std::string> labels() const;
  /// The top-down map's transform in the last frame (for click-table / drag-base).
  std::optional<MapTransform> map;
  std::optional<MapTransform> next_map;

 private:
  std::vector<WidgetRecord> current_;
  std::vector<WidgetRecord> previous_;
};

/// Everything a panel needs to draw a frame.
struct UiContext {
  /// The match on the table; null while none is open (the window then shows only the card
  /// games, the calibration wizard, the figure editor and the team builder).
  Session* session = nullptr;
  WidgetRegistry& widgets;
  float scale = 1;             ///< DPI scale (1 = 96 dpi)
  ImFont* big_font = nullptr;  ///< for dial values and headings (may be null)
  /// Asks the window to start a match with this set-up (the team builder's Start match).
  std::function<void(const MatchSetup&)> start_match;
  /// The status line under the menu bar when no match is open (the session's otherwise).
  StatusLine* idle_status = nullptr;
  /// Puts a message in the status line (the session's, or the idle one).
  void set_status(std::string text, bool error = false);
};

namespace ui {

/// The visible part of an ImGui label ("Roll##wizard" → "Roll").
std::string_view visible(std::string_view label);

/// Registers the last ImGui item under `label`.
void record_last_item(UiContext& ctx, std::string_view label, WidgetKind kind, bool enabled);

/// A button that a UI script can click by its label; disabled ones are drawn dimmed and say
/// why in a tooltip.
bool button(UiContext& ctx, const std::string& label, bool enabled = true,
            const std::string& why_not = {});

/// A die as a clickable chip in its colour, always with its name ("blue d8 ace"). `selected`
/// draws it raised with a tick; the script label is the die's notation ("blue:d8:ace").
/// `same_line` puts it after the previous item, wrapping to a new line when it does not fit.
bool die_button(UiContext& ctx, const dice::Die& die, const std::string& id, bool selected,
                bool enabled = true, std::string_view note = {}, bool same_line = false);

/// A die that is shown, not clicked: its colour, name, and the face when rolled. `mark` says
/// what happened to it ("Bad Karma", "ACE", "blocked"), drawn crossed out / starred.
void die_chip(const dice::Die& die, std::optional<int> face = std::nullopt,
              std::string_view mark = {});

/// Dice as chips, wrapped to the window's width; `none` when there are none.
void die_chips(const std::vector<dice::Die>& dice, std::string_view none = "none");

/// Text in a colour.
void text_coloured(Rgba colour, std::string_view text);
/// Wrapped text.
void text_wrapped(std::string_view text);
/// Wrapped text in a colour.
void text_coloured_wrapped(Rgba colour, std::string_view text);

/// A combat dial drawn as a dial: a ring of its click positions (the current one lit, holes
/// dark, shields in their colour), the value in the middle, then shields, holes and the next
/// clicks in words. `preview_clicks` > 0 marks where that much damage would leave it.
void dial(UiContext& ctx, const FigureState& figure, DialKind kind, int preview_clicks = 0);

/// Colour for a team's name.
Rgba team_text_colour(int team);

/// A dashed straight line from `a` to `b` (screen pixels): dashes and gaps `dash` long.
void dashed_line(ImDrawList* dl, std::array<float, 2> a, std::array<float, 2> b, Rgba colour,
                 float thickness, float dash);

}  // namespace ui

/// Labels on dark boxes over the camera picture or the map, kept from covering each other.
/// Labels are collected during a frame and drawn by draw(), most important first (lowest
/// priority number): a label that would overlap one already placed (or a reserved rectangle)
/// moves a line down, then up, then two lines, … (up to three either way), then the same beside
/// where it was asked, and goes where it is first clear, or where it was asked if nowhere is.
/// Drawn last, labels stay on top of the lines they describe.
class LabelPlacer {
 public:
  /// Adds `text` centred on (x, y). With fit_px > 0 a wider text is left out.
  void add(float x, float y, Rgba colour, std::string text, int priority = 1, float fit_px = 0,
           std::uint8_t box_alpha = 165);
  /// Keeps labels off a rectangle drawn by other means (axis numbers), this frame.
  void reserve(float x0, float y0, float x1, float y1);
  /// Places and draws every label added, then forgets them.
  void draw(ImDrawList* dl);

 private:
  struct Label {
    float x, y;
    Rgba colour;
    std::string text;
    int priority;
    float fit_px;
    std::uint8_t box_alpha;
  };
  std::vector<Label> labels_;
  std::vector<std::array<float, 4>> reserved_;
};

}  // namespace duels::overlay
