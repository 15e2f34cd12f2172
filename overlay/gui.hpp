#pragma once
/// @file The overlay window: `duels gui` and `duels demo` open it with `run_gui`. This header is
/// all the app needs; Dear ImGui, GLFW and OpenGL stay inside the overlay library.

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "duels/engine.hpp"
#include "overlay/calibration_feed.hpp"
#include "overlay/card_games.hpp"
#include "overlay/editor_model.hpp"
#if DUELS_OVERLAY_CAMERA
#include "overlay/camera_feed.hpp"
#endif
#include "overlay/session.hpp"
#include "overlay/table_model.hpp"
#include "overlay/widgets.hpp"

namespace duels::overlay {

/// No window could be opened (no display server, no OpenGL 3.3).
class GuiUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// How to open the window and on which match.
struct GuiOptions {
  std::string match_path;               ///< resume this journal, or…
  std::optional<MatchSetup> new_match;  ///< …start a new match with this set-up, or neither:
                                        ///< no match (and no journal) until one is started
  std::string new_journal;  ///< where the new match's journal goes ("" = the data folder)
  std::string journal_prefix = "match";  ///< file name prefix in the data folder
  std::optional<std::uint64_t> seed;     ///< the new match's seed (fresh when absent)
  TableLayout layout;                    ///< table size and terrain shapes
  SessionOptions session;
  CardGamesOptions cards;  ///< the card-game tabs' sessions
  /// The calibration wizard's feed; when set, the wizard is shown and started at once.
  std::optional<CalibrationFeedOptions> calibration;
#if DUELS_OVERLAY_CAMERA
  /// The camera (or synthetic scene) behind the table view; base positions come from it.
  std::optional<CameraFeedOptions> camera;
#endif
  /// Where the figure editor and team builder read and save figures, gear and teams; the
  /// editor panels are there when set (and shown at once with `open_editor`).
  std::optional<AssetFolders> assets;
  bool open_editor = false;
  int frames = 0;                ///< close after this many frames (0: when the window is closed)
  std::string screenshot;        ///< write the last frame here as PNG
  std::string ui_script;         ///< play this UI script (the window closes when it is done)
  double script_timeout_s = 20;  ///< how long a script action may wait for its widget
  int width = 1600;
  int height = 1000;
  float scale = 0;  ///< interface scale (0: the monitor's content scale)
  bool reset_layout = false;
  bool finish_each_frame = false;  ///< glFinish before timing a frame (benchmarks)
  bool bare = false;  ///< no panels and no menu: a bare Dear ImGui frame (benchmark baseline)
  std::string title = "Duels Companion";
};

/// What happened in the window.
struct GuiResult {
  int frames = 0;
  std::string journal;             ///< the match journal ("" when no match was opened)
  std::string script_error;        ///< when the UI script failed
  std::size_t script_actions = 0;  ///< actions of the script that were played
  bool script_finished = false;    ///< every action was played
  std::vector<double> frame_ms;    ///< time to build and render each frame
  int last_draw_calls = 0;         ///< draw commands of the last frame
  int last_vertices = 0;           ///< vertices of the last frame
  std::string renderer;            ///< the OpenGL renderer (e.g. "llvmpipe …" under Xvfb)
  /// The last frame's layout, for tests that look at the screenshot: the map's transform, the
  /// labelled widgets, and each panel's window rectangle (x, y, width, height).
  std::optional<MapTransform> map;
  std::vector<WidgetRecord> widgets;
  std::map<std::string, std::array<float, 4>> windows;
  /// Per card game whose tab was opened: its journal and the commands in effect at the end.
  std::map<std::string, std::pair<std::string, std::size_t>> card_tables;
  /// The calibration wizard's last state, when it ran.
  std::shared_ptr<const CalibrationSnapshot> calibration;
#if DUELS_OVERLAY_CAMERA
  /// The camera's last snapshot, and where its picture was on the screen (x, y of the
  /// top-left, screen pixels per camera pixel).
  std::shared_ptr<const CameraSnapshot> camera;
  std::array<float, 3> camera_view{};
  int camera_live_from_frame = -1;  ///< the window's frame that first showed a camera picture
#endif
  /// The base positions the session took from vision last (figure, table inches).
  std::vector<TrackedBasePosition> vision;
  [[nodiscard]] double median_frame_ms() const;
};

/// Whether this build shows the camera picture (the vision module was built).
bool camera_supported();

/// Whether a display server is advertised (DISPLAY or WAYLAND_DISPLAY is set).
bool display_advertised();

/// Where the window layout is kept: $XDG_CONFIG_HOME/duels-companion/imgui.ini (default
/// ~/.config/duels-companion/imgui.ini).
std::string layout_file();

/// Opens the match (if any), then the window, and runs it. Throws GuiUnavailable when no window can
/// be opened (after the match is opened, so data errors come first), DataException for bad files.
GuiResult run_gui(GuiOptions options);

}  // namespace duels::overlay
