#pragma once
/// @file Intrinsic calibration from board views: OpenCV's calibrateCameraExtended wrapped with
/// outlier-view rejection (per-view RMS), reasons in words, and the full parameter covariance.

#include <opencv2/core.hpp>

#include <string>
#include <vector>

#include "calib/detect.hpp"
#include "calib/lens.hpp"
#include "common/error.hpp"

namespace duels::calib {

/// Tuning of calibrate(). Defaults follow calib.io/kalibr practice for webcams.
struct CalibrationOptions {
  int min_views = 4;              ///< fewer usable views than this is an error
  int min_points_per_view = 6;    ///< views with fewer corners are dropped first
  double outlier_factor = 3.0;    ///< a view is an outlier when its RMS > factor × median RMS…
  double outlier_floor_px = 0.5;  ///< …and > this (never drop views that are simply good)
  double max_dropped_fraction = 0.34;  ///< never drop more than this share of the views
};

/// A view left out of the calibration, and why (shown to the player).
struct DroppedView {
  std::string name;
  std::string reason;
};

/// The names of the intrinsic parameters in the order of std_dev and covariance.
inline constexpr const char* kIntrinsicParamNames[] = {"fx", "fy", "cx", "cy", "k1",
                                                       "k2", "p1", "p2", "k3"};
/// How many intrinsic parameters calibrate() estimates (fx fy cx cy k1 k2 p1 p2 k3).
inline constexpr int kIntrinsicParamCount = 9;

/// The outcome of an intrinsic calibration: the camera, how well it fits, how sure we are.
struct CalibrationResult {
  Intrinsics intrinsics;
  double rms_px = 0;                    ///< OpenCV's RMS reprojection error over all corners
  std::vector<std::string> view_names;  ///< views used, in order
  std::vector<double> per_view_rms_px;  ///< RMS of each used view
  std::vector<Pose> view_poses;         ///< board → camera for each used view
  /// 1-σ of fx fy cx cy k1 k2 p1 p2 k3 as calibrateCameraExtended reports them. OpenCV divides
  /// the squared residual by (points − parameters), not (2·points − parameters), so these are
  /// ~√2 larger than the textbook σ: conservative, and what the live stop rule uses.
  std::vector<double> std_dev;
  /// 9×9 covariance of the same parameters with the textbook degrees of freedom (CV_64F);
  /// what the accuracy estimate samples from.
  cv::Mat covariance;
  std::vector<DroppedView> dropped;  ///< views left out, with the reason
  int points_used = 0;               ///< corners in the used views
};

/// Calibrates from views of one board (all from images of one size). Drops views with too few
/// corners, then repeatedly the worst per-view-RMS outlier, and recalibrates. Errors: fewer
/// usable views than options.min_views, mixed image sizes, OpenCV failing to converge.
Expected<CalibrationResult, std::string> calibrate(const std::vector<BoardView>& views,
                                                   const CalibrationOptions& options = {});

/// The covariance of the intrinsic parameters (fx fy cx cy k1 k2 p1 p2 k3) from the Jacobian of
/// all reprojections, marginalised over the view poses: σ²(JᵀJ)⁻¹ with σ² = residual²/(dof).
/// Same model as OpenCV's std deviations, but with the correlations kept.
cv::Mat intrinsics_covariance(const Intrinsics& cam, const std::vector<BoardView>& views,
                              const std::vector<Pose>& poses);

/// RMS reprojection error (px) of one view under a camera and pose.
double view_rms_px(const Intrinsics& cam, const BoardView& view, const Pose& pose);

}  // namespace duels::calib
