#pragma once
/// @file The rotation taking one direction onto another: how the renderer and the POV-Ray
/// scene writer rest a die on its face.

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

#include <cmath>

namespace duels::vision {

/// The rotation taking `from` (unit) onto `to` (unit): the shortest turn, or half a turn.
inline cv::Matx33d rotation_between(const cv::Vec3d& from, const cv::Vec3d& to) {
  const cv::Vec3d axis = from.cross(to);
  const double sin_a = cv::norm(axis);
  const double cos_a = from.dot(to);
  if (sin_a < 1e-12) {
    if (cos_a > 0) return cv::Matx33d::eye();
    // Half a turn about any axis at right angles to `from`.
    cv::Vec3d perp = std::abs(from[0]) < 0.9 ? cv::Vec3d(1, 0, 0) : cv::Vec3d(0, 1, 0);
    perp = cv::normalize(perp - from * from.dot(perp));
    return 2 * cv::Matx33d(perp[0] * perp[0], perp[0] * perp[1], perp[0] * perp[2],
                           perp[1] * perp[0], perp[1] * perp[1], perp[1] * perp[2],
                           perp[2] * perp[0], perp[2] * perp[1], perp[2] * perp[2]) -
           cv::Matx33d::eye();
  }
  cv::Mat r;
  cv::Rodrigues(cv::Mat(axis * (std::atan2(sin_a, cos_a) / sin_a)), r);
  return cv::Matx33d(r);
}

}  // namespace duels::vision
