#pragma once
/// @file The camera model calib works with: OpenCV's pinhole + lens distortion, with an exact
/// (iterated to convergence) inverse so pixels and rays round-trip to 1e-9 px.

#include <opencv2/core.hpp>

#include <optional>
#include <vector>

namespace duels::calib {

/// A calibrated camera: image size, camera matrix K and OpenCV distortion coefficients
/// (k1 k2 p1 p2 [k3 [k4 k5 k6 [s1 s2 s3 s4]]]). What every other calib function looks through.
struct Intrinsics {
  cv::Size image_size;
  cv::Matx33d camera_matrix = cv::Matx33d::eye();
  std::vector<double> dist;  ///< 0, 4, 5, 8 or 12 coefficients

  [[nodiscard]] double fx() const { return camera_matrix(0, 0); }
  [[nodiscard]] double fy() const { return camera_matrix(1, 1); }
  [[nodiscard]] double cx() const { return camera_matrix(0, 2); }
  [[nodiscard]] double cy() const { return camera_matrix(1, 2); }
};

/// A rigid pose in OpenCV's convention: x_camera = R(rvec) * x_object + tvec.
struct Pose {
  cv::Vec3d rvec;
  cv::Vec3d tvec;
};

/// Rotation matrix of a pose.
cv::Matx33d rotation_of(const Pose& pose);

/// Where the camera centre is in the object frame (−Rᵀt).
cv::Vec3d camera_centre_in_object(const Pose& pose);

/// Applies the lens distortion to normalized (ideal) image coordinates.
cv::Point2d distort_normalized(const cv::Point2d& xy, const std::vector<double>& dist);

/// Inverts distort_normalized by fixed-point iteration polished with Newton steps; exact to
/// ~1e-12 in normalized units for any lens that is invertible there. Nothing when it fails
/// to converge (far outside the calibrated field).
std::optional<cv::Point2d> undistort_normalized(const cv::Point2d& distorted,
                                                const std::vector<double>& dist);

/// Same, starting Newton from `guess` (e.g. interpolated from neighbours): faster for dense
/// grids of rays; converged to 1e-12 in normalized units (1e-9 px at f = 1000).
std::optional<cv::Point2d> undistort_normalized(const cv::Point2d& distorted,
                                                const std::vector<double>& dist,
                                                const cv::Point2d& guess);

/// Pixel → normalized ideal coordinates (the ray through the pixel is (x, y, 1)).
std::optional<cv::Point2d> pixel_to_normalized(const Intrinsics& cam, const cv::Point2d& px);

/// Normalized ideal coordinates → pixel (with distortion).
cv::Point2d normalized_to_pixel(const Intrinsics& cam, const cv::Point2d& xy);

/// Projects a point given in an object frame through pose and lens (same as cv::projectPoints).
cv::Point2d project_point(const Intrinsics& cam, const Pose& object_to_camera,
                          const cv::Point3d& object_point);

}  // namespace duels::calib
