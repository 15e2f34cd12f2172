#pragma once
/// @file The camera behind the table view: frames from a camera, a video, a folder or a
/// synthetic scene go through the vision pipeline (markers → bases on the table → tracking) on a
/// thread of their own; the window takes the latest snapshot each frame and never waits for
/// capture or vision. No ImGui here.

#include <opencv2/core.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "calib/table.hpp"
#include "overlay/table_model.hpp"
#include "vision/naming.hpp"
#include "vision/tracker.hpp"

namespace duels::overlay {

/// Where the camera picture comes from.
struct CameraFeedOptions {
  std::string source;      ///< cam:N, a video file, a folder, a URL, or synthetic:NAME|FILE
  std::string calib_file;  ///< the camera's calibration with its table registration (not
                           ///< needed for synthetic scenes, whose camera is known exactly)
  std::string base_map;    ///< marker → figure file (not needed for synthetic scenes)
  std::string assets_dir;  ///< where synthetic:NAME scenes are found (ASSETS/scenes/NAME.yaml)
  bool realtime = true;    ///< synthetic scenes play at their own frame rate (else flat out)
  int max_picture_width_px = 1280;  ///< the picture handed to the window is scaled down to this
  /// Synthetic scenes: render this many frames once, then play them in a loop like a recording
  /// (capture then costs what a webcam's does: nothing); 0 = render every frame as it is due.
  int prerender_frames = 0;
  double stream_fps = 0;  ///< synthetic scenes: frames per second (0 = the scene file's); the
                          ///< scene is sampled that often, so its motion keeps its speed
};

/// What the window shows of the camera: the latest picture and what vision made of it.
struct CameraSnapshot {
  std::int64_t frame = -1;  ///< frame index (-1: no frame yet)
  double time_s = 0;
  cv::Mat picture;  ///< BGR, scaled to the window's display width (at most max_picture_width_px)
  double picture_scale = 1;  ///< picture pixels per camera pixel
  calib::TablePlane plane;   ///< camera pixels ↔ table inches
  vision::TableState table;  ///< tracked bases (inches) and their states
  std::string source_name;
  bool connected = false;  ///< frames are arriving (false: the camera is lost, reconnecting)
  std::string problem;     ///< the source's latest problem in words
  std::int64_t reconnects = 0;
  bool ended = false;       ///< the source is finished (end of a video)
  std::string error;        ///< why the feed could not start or stopped
  double frames_per_s = 0;  ///< the vision thread's own rate
  double vision_ms = 0;     ///< time of the last frame through the pipeline
  double capture_ms = 0;    ///< time to get the last frame (rendering, for synthetic scenes)
  /// The figures of the base map whose bases carry rings: a ring the camera cannot name may be
  /// named as one of them (CameraFeed::name_base).
  std::vector<std::string> ring_figures;
  std::string naming_problem;  ///< why the player's last naming was refused (empty: it was not)
};

/// The positions the session takes from a snapshot: settled bases fully trusted, moving ones a
/// little less, occluded ones kept at their last place below the trust line, lost ones dropped.
std::vector<TrackedBasePosition> vision_positions(const vision::TableState& table);
/// The bases the camera sees but cannot name, as discs on the table.
std::vector<Disc> unnamed_discs(const vision::TableState& table);
/// Whether a click at table point `at` (inches, at the base's top) is on a base the camera
/// cannot name: within its outline, with a little slack. Shared by the camera picture and the
/// table map.
bool on_unnamed_base(const vision::UnnamedBase& base, cv::Point2d at);

/// Where the match has its figures' bases, for the camera's memory (vision::Pipeline::
/// set_match_spots): every figure on the table and not eliminated, where it was placed or its
/// last move ended, or where a player dragged it on the map.
std::vector<vision::MatchSpot> match_spots(const GameState& state,
                                           const PositionOverrides& overrides);

/// Runs capture and vision on their own thread from construction to destruction.
class CameraFeed {
 public:
  explicit CameraFeed(CameraFeedOptions options);
  ~CameraFeed();
  CameraFeed(const CameraFeed&) = delete;
  CameraFeed& operator=(const CameraFeed&) = delete;

  /// The latest snapshot (never null).
  [[nodiscard]] std::shared_ptr<const CameraSnapshot> snapshot() const;
  /// The width (pixels) the window shows the picture at: later pictures are scaled to it on
  /// the vision thread (never above max_picture_width_px), so the window draws them 1:1.
  void set_display_width(int px) { display_width_.store(px); }
  /// The player names the ring at `near_in` (table inches) as `figure`'s base from the next
  /// frame it is seen in (vision::Pipeline::name_near: the ring seen where the point lies, or,
  /// once the name has waited a second, the one seen nearest it within 3"); a refusal is told
  /// in the snapshot's naming_problem.
  void name_base(cv::Point2d near_in, std::string figure);
  /// Tells the vision thread where the match has its figures (from its next frame on): a ring
  /// seen there keeps that figure's name whatever dice lie on it (vision::Pipeline::
  /// set_match_spots).
  void set_match_spots(std::vector<vision::MatchSpot> spots);
  void stop();

 private:
  void run();
  void publish(std::shared_ptr<const CameraSnapshot> s);

  CameraFeedOptions options_;
  mutable std::mutex mutex_;
  std::shared_ptr<const CameraSnapshot> latest_;
  std::vector<std::pair<cv::Point2d, std::string>> name_requests_;  ///< under mutex_
  std::optional<std::vector<vision::MatchSpot>> match_spots_;       ///< under mutex_: new ones
  std::atomic<bool> stop_{false};
  std::atomic<int> display_width_{0};
  std::thread thread_;
};

}  // namespace duels::overlay
