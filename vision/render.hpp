#pragma once
/// @file Rendering synthetic scenes: the table through calib's exact lens renderer, then bases
/// (cylinders carrying their marker), rough figures and sweeping hands ray-cast per sub-pixel
/// with a depth test, motion blur over the exposure, uneven lighting, blur and seeded noise.
/// Each frame comes with its ground truth.

#include <opencv2/core.hpp>

#include <memory>
#include <string>
#include <vector>

#include "calib/synthetic.hpp"
#include "vision/scene.hpp"

namespace duels::vision {

/// The truth about one base in one frame.
struct BaseTruth {
  std::string id;
  std::string figure;
  int marker_id = 0;
  cv::Point2d centre_in;
  double angle_deg = 0;
  double radius_in = 0;
  bool moving = false;        ///< its position changes during this frame's exposure
  double marker_visible = 0;  ///< share of the marker's top face the camera sees (0..1)
  double ring_visible = 0;    ///< share of a base ring's code band the camera sees (0..1):
                              ///< hidden by its own figure, other figures or bases
  std::array<cv::Point2d, 4> marker_corners_px;  ///< exact projections (picture TL, TR, BR, BL)
};

/// The truth of one frame.
struct FrameTruth {
  std::int64_t index = 0;
  double time_s = 0;
  std::vector<BaseTruth> bases;
  bool hand_in_view = false;
};

/// Renders a scene frame by frame. Building it precomputes the lens rays and the table
/// picture, so each frame costs only the moving parts.
class SceneRenderer {
 public:
  explicit SceneRenderer(SceneSpec spec);
  ~SceneRenderer();
  SceneRenderer(const SceneRenderer&) = delete;
  SceneRenderer& operator=(const SceneRenderer&) = delete;

  [[nodiscard]] const SceneSpec& spec() const { return spec_; }
  /// The exact table plane of the scene's camera (what a perfect calibration gives).
  [[nodiscard]] const calib::TablePlane& plane() const { return plane_; }

  /// The truth at a time (no rendering).
  [[nodiscard]] FrameTruth truth_at(std::int64_t index, double time_s) const;
  /// Renders frame `index` (time index / fps) as 8-bit BGR.
  [[nodiscard]] cv::Mat render(std::int64_t index, FrameTruth* truth = nullptr) const;

 private:
  friend class LiveRenderer;
  struct Impl;
  struct Painter;
  SceneSpec spec_;
  calib::TablePlane plane_;
  std::unique_ptr<Impl> impl_;
};

/// Renders one scene's frames for a live picture (the demo camera): each frame repaints only
/// where something changed since the previous one (a base that moved, a hand), so a still table
/// costs little more than adding the sensor noise. Without noise the pictures are the ones
/// SceneRenderer::render gives, bit for bit; the sensor noise comes from a bank of
/// `noise_patterns` seeded patterns used in turn instead of being drawn anew for every frame.
/// Keeps the last frame: use it from one thread.
class LiveRenderer {
 public:
  explicit LiveRenderer(std::shared_ptr<const SceneRenderer> scene, int noise_patterns = 8);
  ~LiveRenderer();
  LiveRenderer(const LiveRenderer&) = delete;
  LiveRenderer& operator=(const LiveRenderer&) = delete;

  [[nodiscard]] const SceneRenderer& scene() const { return *scene_; }
  /// Renders frame `index` (any order; consecutive frames are the cheap case).
  [[nodiscard]] cv::Mat render(std::int64_t index, FrameTruth* truth = nullptr);
  /// Share of the canvas the last render() repainted (1 for the first frame, 0 for a still one).
  [[nodiscard]] double last_dirty_share() const { return dirty_share_; }

 private:
  struct State;
  std::shared_ptr<const SceneRenderer> scene_;
  std::unique_ptr<State> state_;
  double dirty_share_ = 1;
};

}  // namespace duels::vision
