#pragma once
/// @file The calibration wizard's engine: frames (a camera, a video, or a synthetic board held in
/// seeded poses) go through board detection and calib::LiveCalibrator on a thread of their own;
/// the window takes the latest snapshot each frame and never waits for them. No ImGui here.

#include <opencv2/core.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "calib/camera_file.hpp"
#include "calib/coverage.hpp"
#include "calib/live.hpp"
#include "calib/pattern.hpp"
#include "calib/table.hpp"

namespace duels::overlay {

/// The table the wizard registers once the lens is calibrated: its size and its four corner
/// markers (duels print markers --ids 0-3), ids 0–3 of DICT_4X4_50 near-left, near-right,
/// far-right, far-left, `inset_in` from both edges.
struct TableSetupOptions {
  calib::TableGeometry table;  ///< 60" × 60" by default
  double marker_in = 5.0;
  double inset_in = 2.0;
  int frames_to_try = 30;
  calib::BaseTargetSpec base_target;  ///< the bases' markers, for the coverage map  ///<
                                      ///< camera/video: frames read until all four markers are seen
};

/// Where the wizard's frames come from and how fast.
struct CalibrationFeedOptions {
  /// "synthetic" / "synthetic:SEED" (a 9×6 chessboard moved through seeded poses in front of a
  /// 640×360 webcam-like lens), "cam:N" (a camera) or a video file.
  std::string source = "synthetic";
  calib::PatternSpec pattern;  ///< the board looked for (default: 9×6 chessboard, 25 mm)
  double fps = 30;             ///< synthetic frames per second (0: as fast as they are made)
  int hold_frames = 12;        ///< synthetic: frames each pose is held (the board "still")
  int max_frames = 2400;       ///< stop after this many frames
  calib::LiveOptions live;
  std::string out_file;     ///< where "Save calibration" writes (default: the data folder)
  TableSetupOptions table;  ///< the table "Register the table" looks for
};

/// What the wizard shows: the latest frame with its detected corners and the live state.
struct CalibrationSnapshot {
  std::int64_t frame = 0;            ///< frames fed so far
  cv::Mat image;                     ///< the latest frame, 8-bit grey
  std::vector<cv::Point2f> corners;  ///< the board corners found in it (none: no board)
  calib::LiveStatus status;          ///< views, coverage, tilts, hint, calibration
  std::string source;                ///< "synthetic board (seed 1)", "camera 0", …
  bool running = false;              ///< the thread is still feeding frames
  std::string error;                 ///< why the feed stopped early ("" = it did not)
  double frames_per_s = 0;           ///< the thread's own rate
  /// The calibration's RMS reprojection error (px) and its fx fy cx cy, when calibrated.
  [[nodiscard]] double rms_px() const;
};

/// Runs the feed on its own thread from construction to destruction (or stop()).
class CalibrationFeed {
 public:
  explicit CalibrationFeed(CalibrationFeedOptions options);
  ~CalibrationFeed();
  CalibrationFeed(const CalibrationFeed&) = delete;
  CalibrationFeed& operator=(const CalibrationFeed&) = delete;

  /// The latest snapshot (never null).
  [[nodiscard]] std::shared_ptr<const CalibrationSnapshot> snapshot() const;
  /// Asks the thread to stop and waits for it.
  void stop();

 private:
  void run();
  void publish(std::shared_ptr<const CalibrationSnapshot> s);

  CalibrationFeedOptions options_;
  mutable std::mutex mutex_;
  std::shared_ptr<const CalibrationSnapshot> latest_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

/// A table registration from one frame of the wizard's source, with its expected error.
struct TableRegistrationOutcome {
  std::optional<calib::Registration> registration;
  std::optional<calib::AccuracyReport> accuracy;  ///< Monte Carlo over the table, inches
  std::optional<calib::TableCoverage> coverage;   ///< where a base marker can be read
  std::string error;                              ///< why there is none, in words
};

/// Finds the corner markers in a frame of `source` (for "synthetic": the simulated webcam
/// looking at a table with its markers from synthetic_table_pose()), solves the camera's pose
/// with the calibrated lens and estimates the measuring error from the lens' uncertainty.
/// Takes a second or so; run it off the UI thread.
TableRegistrationOutcome register_table_from_source(const std::string& source,
                                                    const calib::CalibrationResult& lens,
                                                    const TableSetupOptions& setup);

/// The synthetic wizard's lens: the 1080p example webcam scaled to 640×360 (same field of view
/// and distortion).
calib::Intrinsics synthetic_wizard_webcam();

/// Where the synthetic wizard's webcam stands over the table (table → camera), for tests.
calib::Pose synthetic_table_pose(const calib::TableGeometry& table);

/// The calibration file the wizard saves: the lens, and the table when it was registered.
calib::CameraFile wizard_camera_file(const calib::CalibrationResult& lens,
                                     const calib::PatternSpec& pattern,
                                     const TableRegistrationOutcome* table);

}  // namespace duels::overlay
