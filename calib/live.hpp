#pragma once
/// @file Live calibration: the logic behind `duels calibrate --camera N` (and the GUI's
/// calibration panel). Fed one frame's board view at a time, it captures a view when the board
/// is held still and the view adds image coverage or a new tilt, recalibrates, drops poor
/// views, says what to do next, and stops when fx, fy, cx, cy are known well enough.
/// Pure: no camera, no clock, no drawing; state is exposed as plain structs.

#include <opencv2/core.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "calib/detect.hpp"
#include "calib/intrinsics.hpp"

namespace duels::calib {

/// Tuning of LiveCalibrator. Frame counts assume ~30 fps.
struct LiveOptions {
  int min_views = 8;         ///< never stop with fewer views
  int target_views = 15;     ///< first guess of the views needed (refined as we go)
  int max_views = 40;        ///< stop capturing beyond this
  int still_frames = 8;      ///< frames the board must be still before a capture
  double still_px = 1.0;     ///< max corner motion between frames that counts as still
  double moved_px = 20.0;    ///< motion after a capture that counts as "moved on"
  int grid_cols = 8;         ///< coverage map cells across
  int grid_rows = 6;         ///< coverage map cells down
  int min_new_cells = 2;     ///< a capture must cover this many new cells (or a new tilt)
  double tilt_deg = 20.0;    ///< tilts beyond this count as tilted views
  double std_limit = 0.004;  ///< stop when σ(fx)/fx, σ(fy)/fy, σ(cx)/fx, σ(cy)/fy are all below
  double min_coverage = 0.5;       ///< and at least this share of the cells is covered
  CalibrationOptions calibration;  ///< outlier rejection of the views
};

/// Where the board is in the image, counted per cell (the GUI draws it as a heat map).
struct CoverageMap {
  int cols = 0;
  int rows = 0;
  std::vector<int> corners;  ///< corners captured per cell, row-major, row 0 = top
  [[nodiscard]] double covered_fraction() const;
  [[nodiscard]] int at(int col, int row) const {
    return corners[static_cast<std::size_t>(row * cols + col)];
  }
};

/// Board attitudes the views should include.
enum class Tilt { kFacing, kLeftCloser, kRightCloser, kTopCloser, kBottomCloser };
inline constexpr int kTiltCount = 5;

/// What the live calibrator is doing this frame.
enum class LivePhase {
  kNoBoard,     ///< no board in the frame
  kMoving,      ///< board seen but moving
  kHolding,     ///< board still, counting frames before a capture
  kCaptured,    ///< this frame was captured
  kNothingNew,  ///< still, but the view adds no coverage or tilt
  kDone,        ///< calibrated well enough: stop
};

/// The state the CLI prints and the GUI shows, refreshed by every feed().
struct LiveStatus {
  LivePhase phase = LivePhase::kNoBoard;
  int views_accepted = 0;
  int views_needed = 0;  ///< current estimate (from the std-dev trend once calibrated)
  double progress = 0;   ///< 0..1
  CoverageMap coverage;
  std::array<int, kTiltCount> tilts{};  ///< captured views per Tilt
  std::optional<Tilt> current_tilt;     ///< the board's tilt in this frame
  std::string hint;                     ///< what the player should do next
  std::string event;  ///< what just happened ("captured view 3", "view 5 dropped: …")
  std::optional<CalibrationResult> calibration;  ///< latest calibration (min_views reached)
  std::array<double, 4> std_relative{};  ///< σ(fx)/fx σ(fy)/fy σ(cx)/fx σ(cy)/fy (0 = unknown)
  bool done = false;
};

/// Words for a tilt, e.g. "left side toward the camera".
std::string describe(Tilt tilt);

/// The live-capture state machine. Feed every frame (nothing when no board was found).
class LiveCalibrator {
 public:
  LiveCalibrator(cv::Size image_size, LiveOptions options = {});

  /// Takes one frame's detection and returns the new state.
  const LiveStatus& feed(const std::optional<BoardView>& view);

  [[nodiscard]] const LiveStatus& status() const { return status_; }
  [[nodiscard]] const std::vector<BoardView>& views() const { return views_; }
  [[nodiscard]] const LiveOptions& options() const { return options_; }

 private:
  [[nodiscard]] std::vector<int> cells_of(const BoardView& view) const;
  [[nodiscard]] Tilt tilt_of(const BoardView& view) const;
  void add_view(const BoardView& view, Tilt tilt);
  void remove_view(std::size_t index);
  void recalibrate();
  void update_hint(const std::optional<BoardView>& view);

  cv::Size size_;
  LiveOptions options_;
  LiveStatus status_;
  std::vector<BoardView> views_;
  std::vector<Tilt> view_tilts_;
  std::optional<BoardView> previous_;
  std::optional<BoardView> last_capture_;
  int still_count_ = 0;
  bool waiting_for_move_ = false;  // evaluated this view already: the board must move on
  bool last_was_capture_ = false;  // the last evaluation captured (else it added nothing)
  int frame_ = 0;
};

/// Detection settings for video: the fast detector only (a frame without a board must cost
/// milliseconds, not the slow detector's hundreds).
inline DetectOptions live_detect_options() {
  DetectOptions o;
  o.thorough = false;
  return o;
}

/// Detects the board in a frame and feeds it (nothing found → feeds nothing).
const LiveStatus& feed_frame(LiveCalibrator& live, const cv::Mat& frame, const PatternSpec& spec,
                             const DetectOptions& options = live_detect_options());

}  // namespace duels::calib
