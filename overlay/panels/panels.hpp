#pragma once
/// @file The overlay's panels, one class each (ImHex's View): `draw()` opens the window at its
/// default place and calls `draw_content()`, which reads the session and calls its actions.

#include <array>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "overlay/calibration_feed.hpp"
#if DUELS_OVERLAY_CAMERA
#include "overlay/camera_feed.hpp"
#endif
#include "overlay/card_games.hpp"
#include "overlay/editor_model.hpp"
#include "overlay/widgets.hpp"

namespace duels::overlay {

/// Where a panel starts, as fractions of the work area (the window minus the menu bar). Players
/// may move and resize panels; Dear ImGui keeps that in the layout file.
struct PanelPlacement {
  float x = 0;
  float y = 0;
  float w = 0.3f;
  float h = 0.3f;
};

/// One window of the overlay.
class Panel {
 public:
  Panel(std::string title, PanelPlacement placement)
      : title_(std::move(title)), placement_(placement) {}
  virtual ~Panel() = default;
  Panel(const Panel&) = delete;
  Panel& operator=(const Panel&) = delete;

  /// Draws the window into the work area (x, y, w, h in pixels).
  void draw(UiContext& ctx, float x, float y, float w, float h);
  /// Frees graphics resources while the OpenGL context still exists.
  virtual void release_graphics() {}
  [[nodiscard]] const std::string& title() const { return title_; }
  /// Where the window was drawn last (x, y, width, height in pixels).
  [[nodiscard]] const std::array<float, 4>& last_rect() const { return last_rect_; }
  /// Changes where the panel starts (before its first frame; a saved layout wins).
  void place(PanelPlacement placement) { placement_ = placement; }
  /// Whether the window paints its own background. A panel that overlaps no other panel needs
  /// none: the frame is cleared to the same colour, and a software renderer (Mesa llvmpipe
  /// under Xvfb) spends most of a frame filling panel backgrounds.
  void set_opaque(bool opaque) { opaque_ = opaque; }
  [[nodiscard]] bool opaque() const { return opaque_; }
  bool visible = true;

 protected:
  virtual void draw_content(UiContext& ctx) = 0;

 private:
  std::string title_;
  PanelPlacement placement_;
  std::array<float, 4> last_rect_{};
  bool opaque_ = true;
};

/// Decides each visible panel's background from where the panels were last drawn: a panel that
/// overlaps another (or has not been drawn yet) paints its own, the others leave it to the
/// clear colour.
void decide_panel_backgrounds(const std::vector<Panel*>& panels);

/// The rectified table from above, in inches: bases with names and dials, terrain, the selected
/// figure's tape range rings, the measurement to the target (gap, colours, line of fire), the
/// reachable region while moving. Bases can be dragged by hand (manual override).
class TableMapPanel final : public Panel {
 public:
  TableMapPanel();
  void release_graphics() override;
#if DUELS_OVERLAY_CAMERA
  /// The camera whose bases it cannot name are shown on the map too (dashed, named there by a
  /// click as on the camera picture), or none.
  void set_camera(CameraFeed* feed) {
    camera_ = feed;
  }
#endif

 protected:
  void draw_content(UiContext& ctx) override;

 private:
#if DUELS_OVERLAY_CAMERA
  CameraFeed* camera_ = nullptr;
  cv::Point2d naming_at_;  ///< the unnamed base the player clicked (table inches)
#endif
  unsigned reach_texture_ = 0;
  std::uint64_t reach_version_ = 0;
  int reach_allowance_ = -1;
  bool pressed_ = false;  ///< the left button went down on the map
  int drag_figure_ = -1;  ///< the base under the press
  bool dragging_ = false;
  float press_x_ = 0;
  float press_y_ = 0;
  int menu_figure_ = -1;        ///< the base whose context menu is open
  int press_proposal_ = -1;     ///< the camera move whose end point the press was on
  int dragging_proposal_ = -1;  ///< the figure whose camera move's end point is being dragged
};

/// Each figure: the three dials as dials, dice on the base / in the cup / removed, gear, points.
class FiguresPanel final : public Panel {
 public:
  FiguresPanel();

 protected:
  void draw_content(UiContext& ctx) override;
};

/// Round, alpha team, whose turn, moves and attacks left; the set-up steps; choosing the dice
/// at round start one click per die; the move tool; the built-in opponent's controls.
class TurnTrackerPanel final : public Panel {
 public:
  TurnTrackerPanel();

 protected:
  void draw_content(UiContext& ctx) override;
};

/// The attack, steps A–M: measurement, legal attack dice with the advisor's exact odds, the
/// dodge choice, the roll (virtual with an animation, or typed), the resolution with Bad Karma,
/// aces and blocked dice marked, gear lost, damage with a preview of the dial.
class CombatWizardPanel final : public Panel {
 public:
  CombatWizardPanel();

 protected:
  void draw_content(UiContext& ctx) override;
};

/// Every event in words; undo, redo, jump to any event, play on from there, export the report.
class LogPanel final : public Panel {
 public:
  LogPanel();

 protected:
  void draw_content(UiContext& ctx) override;

 private:
  std::uint64_t last_seen_seq_ = 0;
};

/// Any pool in the dice notation, its roll history and the exact distribution of its sum.
class DiceRollerPanel final : public Panel {
 public:
  DiceRollerPanel();

 protected:
  void draw_content(UiContext& ctx) override;
};

/// A tab per card game (Encounters, Crossfire): the state in words beside the console's
/// transcript, a command line, one-click console words. A game's session (and its journal) is
/// opened the first time its tab is shown.
class CardGamesPanel final : public Panel {
 public:
  explicit CardGamesPanel(CardGamesOptions options);
  /// The table of a game once its tab has been opened (tests look at it).
  [[nodiscard]] const CardTable* table(const std::string& game) const;

 protected:
  void draw_content(UiContext& ctx) override;

 private:
  struct Tab {
    std::unique_ptr<CardTable> table;
    std::string error;  ///< why the session could not be opened
    std::string input;
    std::uint64_t seen_version = 0;
    bool refocus = false;
    std::vector<std::string> selected;  ///< die slots clicked for `lock`
    std::vector<std::string> faces;     ///< faces clicked for `roll`
    std::size_t actions_at = 0;         ///< commands in effect when those were clicked
  };
  /// The state's frequent actions as buttons; returns the console line a click makes ("" none).
  static std::string draw_actions(UiContext& ctx, const std::string& game, Tab& tab);
  void draw_tab(UiContext& ctx, const std::string& game, Tab& tab);
  CardGamesOptions options_;
  std::map<std::string, Tab> tabs_;
  bool select_first_ = true;
};

/// The calibration wizard: the live picture with the board's corners, the coverage map over
/// it, a progress bar, the tilts still wanted, RMS and the intrinsics with their uncertainty,
/// and what to do next — calib::LiveCalibrator fed on its own thread (CalibrationFeed).
class CalibrationPanel final : public Panel {
 public:
  /// `autostart`: start the feed at once (and show the panel).
  CalibrationPanel(CalibrationFeedOptions options, bool autostart);
  ~CalibrationPanel() override;
  void release_graphics() override;
  /// The latest snapshot (nullptr before the feed was started).
  [[nodiscard]] std::shared_ptr<const CalibrationSnapshot> snapshot() const;

 protected:
  void draw_content(UiContext& ctx) override;

 private:
  /// Registering the table and saving the file, once the lens is calibrated.
  void draw_table_and_save(UiContext& ctx, const CalibrationSnapshot& snap);
  /// Where the bases' markers can be read, from the registered pose, with advice in words.
  void draw_coverage(UiContext& ctx, const calib::TableCoverage& map, float height);

  CalibrationFeedOptions options_;
  std::unique_ptr<CalibrationFeed> feed_;
  unsigned texture_ = 0;
  std::int64_t texture_frame_ = -1;
  std::future<TableRegistrationOutcome> registering_;
  std::optional<TableRegistrationOutcome> table_;
  std::string save_path_;
  std::string saved_;  ///< what the last save did, in words
};

/// Enter a figure the way it sits on the table: name, points, base, dice, damage bonus, then
/// each dial click by click (turn it in the editor as on the base and type what it shows), then
/// the tape. The dials are drawn as in the Figures panel as they are typed; every field is
/// checked as it is typed; Save writes the figure file into the player's data folder.
class FigureEditorPanel final : public Panel {
 public:
  explicit FigureEditorPanel(EditorLibrary& library);
  /// The file the last save wrote ("" before).
  [[nodiscard]] const std::string& saved() const { return saved_; }

 protected:
  void draw_content(UiContext& ctx) override;

 private:
  EditorLibrary& library_;
  FigureDraft draft_;
  std::string editing_;  ///< the file being edited ("" for a new figure)
  std::string saved_;
  std::array<bool, 3> refocus_{};
};

/// Pick figures and gear into a team, with each figure's gear points against the 12-point
/// limit and the team's value as it grows; save it into the data folder and start a match
/// against another team.
class TeamBuilderPanel final : public Panel {
 public:
  explicit TeamBuilderPanel(EditorLibrary& library);

 protected:
  void draw_content(UiContext& ctx) override;

 private:
  EditorLibrary& library_;
  TeamDef team_;
  int member_ = -1;  ///< the member whose gear is being picked
  std::string opponent_;
  std::string saved_;
};

#if DUELS_OVERLAY_CAMERA
/// The camera picture (CameraFeed) with the overlay drawn in perspective through the camera's
/// pose: base outlines, names and dials, the selected figure's tape rings as ellipses on the
/// table plane, the line of fire; hover a base in the picture to target it. A banner when the
/// camera is lost (the match goes on by hand on the map meanwhile).
class CameraPanel final : public Panel {
 public:
  explicit CameraPanel(CameraFeed* feed);
  void release_graphics() override;
  /// The picture's top-left on the screen and screen pixels per camera pixel, last frame.
  [[nodiscard]] const std::array<float, 3>& last_view() const { return last_view_; }

 protected:
  void draw_content(UiContext& ctx) override;

 private:
  /// Shades the reachable region on the picture (the table plane as the camera sees it).
  void draw_reach(UiContext& ctx, const CameraSnapshot& snap, float x, float y, float w, float h,
                  double screen_per_px);

  CameraFeed* feed_;
  unsigned texture_ = 0;
  std::int64_t texture_frame_ = -1;
  std::array<int, 2> texture_size_{0, 0};
  std::array<float, 3> last_view_{};
  // Table inches under every second screen pixel of the picture (x, y; NaN off the table
  // plane), kept while the picture's size and the camera's pose stay the same.
  cv::Mat table_x_;
  cv::Mat table_y_;
  std::array<double, 5> table_map_key_{};
  unsigned reach_texture_ = 0;
  std::array<double, 7> reach_key_{};
  cv::Point2d naming_at_;  ///< the unnamed base the player clicked (table inches)
};

/// The menu a click on a base the camera cannot name opens (popup "name base", opened by the
/// caller): the figures whose bases carry rings; the one picked names the base at `at`.
void naming_menu(UiContext& ctx, CameraFeed& feed, const CameraSnapshot& snap, cv::Point2d at);
#endif

}  // namespace duels::overlay
