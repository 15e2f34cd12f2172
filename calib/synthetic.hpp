#pragma once
/// @file Synthetic camera images with known geometry: flat pictures (calibration boards, the
/// table with its corner markers) seen through an exact OpenCV lens model. Tests use it to
/// check calibration against the truth; vision/ reuses it to render whole table scenes (draw
/// the table, then figures using rays(), then finish()).
///
/// How an image is made: every pixel is split into supersample² sub-pixels; each sub-pixel's
/// ray is found by inverting the lens model exactly (undistort_normalized), intersected with
/// the picture's plane, and the picture is sampled there from a mip-map level matched to the
/// footprint (no aliasing on far, foreshortened markers). finish() averages the sub-pixels
/// (pixel-area integration), applies an optical blur and adds seeded Gaussian pixel noise.

#include <opencv2/core.hpp>

#include <cstdint>
#include <vector>

#include "calib/detect.hpp"
#include "calib/lens.hpp"
#include "calib/pattern.hpp"
#include "calib/table.hpp"

namespace duels::calib {

/// A flat picture lying in the z = 0 plane of some frame (a board frame in mm, the table frame
/// in inches): its pixels, and where plane points fall on them.
struct PlanarTexture {
  cv::Mat image;                ///< 8-bit, 1 or 3 channels
  cv::Matx23d plane_to_px;      ///< plane (x, y) → picture coordinates; pixel i covers [i, i+1)
  std::vector<cv::Mat> levels;  ///< mip-map (level 0 = image); filled by make_texture
};

/// Wraps a picture as a texture and builds its mip-map.
PlanarTexture make_texture(cv::Mat image, const cv::Matx23d& plane_to_px);

/// A calibration board as a texture in its own board frame (mm), with a white margin.
PlanarTexture board_texture(const PatternSpec& spec, double px_per_mm, double margin_mm = 10.0);

/// Looks of the synthetic table.
struct TableLook {
  double px_per_in = 40.0;       ///< texture resolution
  int felt_grey = 110;           ///< the playing surface
  double paper_margin_in = 1.5;  ///< white paper around each marker (a quarter of its side or more)
};

/// The table (table frame, inches) with the markers of a layout printed on white paper.
PlanarTexture table_texture(const TableGeometry& table, const MarkerLayout& layout,
                            const TableLook& look = {});

/// How finish() turns a canvas into a camera frame.
struct FinishOptions {
  double blur_sigma_px = 0.5;  ///< optical blur (Gaussian, output pixels); 0 = none
  double noise_sigma = 2.0;    ///< Gaussian pixel noise, grey levels; 0 = none
  std::uint64_t seed = 0;      ///< noise seed
};

/// A virtual camera that renders planes exactly through its lens. Holds the ray of every
/// sub-pixel (computed once), so each frame costs one homography and a few remaps.
class SyntheticCamera {
 public:
  explicit SyntheticCamera(Intrinsics camera, int supersample = 2);

  [[nodiscard]] const Intrinsics& intrinsics() const { return camera_; }
  [[nodiscard]] int supersample() const { return ss_; }

  /// A blank canvas (supersampled size) filled with `background`.
  [[nodiscard]] cv::Mat canvas(const cv::Scalar& background, int type = CV_8UC1) const;

  /// Draws a texture lying in the plane z = 0 of the frame given by `plane_to_camera`. Canvas
  /// pixels whose ray misses the picture (or hits the plane behind the camera) are untouched.
  void draw_plane(cv::Mat& canvas, const PlanarTexture& texture, const Pose& plane_to_camera) const;

  /// The normalized ray (x, y, 1) of each canvas pixel as CV_32FC2, exact through the lens.
  /// Canvas pixel (U, V) is image position ((U + 0.5) / ss − 0.5, (V + 0.5) / ss − 0.5).
  [[nodiscard]] const cv::Mat& rays() const { return rays_; }
  /// The field of view in normalized coordinates: the extremes of the border rays (where a
  /// lens's extremes lie) grown by a tenth on each side.
  [[nodiscard]] const cv::Rect2d& ray_bounds() const { return ray_bounds_; }

  /// Image pixel position → canvas position (for drawing shapes straight onto the canvas).
  [[nodiscard]] cv::Point2d to_canvas(const cv::Point2d& px) const {
    return {(px.x + 0.5) * ss_ - 0.5, (px.y + 0.5) * ss_ - 0.5};
  }

  /// Canvas → camera frame: pixel-area average, blur, seeded noise.
  [[nodiscard]] cv::Mat finish(const cv::Mat& canvas, const FinishOptions& options) const;

  /// Convenience: background + one plane + finish.
  [[nodiscard]] cv::Mat render(const PlanarTexture& texture, const Pose& plane_to_camera,
                               const FinishOptions& options, int background = 160) const;

 private:
  Intrinsics camera_;
  int ss_;
  cv::Mat rays_;           // CV_32FC2, normalized (x, y); NaN where the lens cannot be inverted
  cv::Rect2d ray_bounds_;  // the field of view in normalized coordinates, with a margin
};

/// Pose of a camera at `eye` looking at `target` (world → camera), image "up" toward `up`.
Pose look_at(const cv::Vec3d& eye, const cv::Vec3d& target, const cv::Vec3d& up);

/// Random but fully visible board poses for calibration: tilted up to `max_tilt_deg` in a random
/// direction, positions spread over the image, board filling 30–65 % of the image width.
/// Reproducible from the seed.
std::vector<Pose> calibration_poses(const Intrinsics& camera, const PatternSpec& spec, int count,
                                    std::uint64_t seed, double max_tilt_deg = 40.0);

/// The exact corner positions of the board in a view (no detection, no noise).
BoardView project_board(const Intrinsics& camera, const PatternSpec& spec, const Pose& pose,
                        const std::string& name = "");

/// Adds Gaussian noise to every corner: `rms_px` is the 2-D RMS displacement, i.e. σ = rms/√2
/// per axis (comparable with OpenCV's RMS reprojection error).
void jitter_corners(BoardView& view, double rms_px, cv::RNG& rng);

/// A webcam-like 1920×1080 camera (fx = fy = 1000, mild barrel distortion) used in tests and
/// benchmarks when no other camera is given.
Intrinsics example_webcam_1080p();

}  // namespace duels::calib
