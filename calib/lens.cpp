#include "calib/lens.hpp"

#include <opencv2/calib3d.hpp>

#include <algorithm>
#include <cmath>

namespace duels::calib {

cv::Matx33d rotation_of(const Pose& pose) {
  cv::Matx33d r;
  cv::Rodrigues(pose.rvec, r);
  return r;
}

cv::Vec3d camera_centre_in_object(const Pose& pose) {
  const cv::Matx33d r = rotation_of(pose);
  return -(r.t() * pose.tvec);
}

cv::Point2d distort_normalized(const cv::Point2d& xy, const std::vector<double>& dist) {
  auto k = [&](std::size_t i) { return i < dist.size() ? dist[i] : 0.0; };
  const double x = xy.x;
  const double y = xy.y;
  const double r2 = x * x + y * y;
  const double r4 = r2 * r2;
  const double r6 = r4 * r2;
  const double radial =
      (1 + k(0) * r2 + k(1) * r4 + k(4) * r6) / (1 + k(5) * r2 + k(6) * r4 + k(7) * r6);
  const double xd = x * radial + 2 * k(2) * x * y + k(3) * (r2 + 2 * x * x) + k(8) * r2 + k(9) * r4;
  const double yd =
      y * radial + k(2) * (r2 + 2 * y * y) + 2 * k(3) * x * y + k(10) * r2 + k(11) * r4;
  return {xd, yd};
}

namespace {

bool no_distortion(const std::vector<double>& dist) {
  return std::all_of(dist.begin(), dist.end(), [](double d) { return d == 0.0; });
}

std::optional<cv::Point2d> newton(const cv::Point2d& distorted, const std::vector<double>& dist,
                                  cv::Point2d p, double tolerance) {
  for (int i = 0; i < 30; ++i) {
    const cv::Point2d f = distort_normalized(p, dist);
    const cv::Point2d r = f - distorted;
    if (std::abs(r.x) + std::abs(r.y) < tolerance) return p;
    const double h = 1e-7;
    const cv::Point2d fx = (distort_normalized({p.x + h, p.y}, dist) - f) / h;
    const cv::Point2d fy = (distort_normalized({p.x, p.y + h}, dist) - f) / h;
    const double det = fx.x * fy.y - fy.x * fx.y;
    if (std::abs(det) < 1e-12) return std::nullopt;
    const cv::Point2d step((fy.y * r.x - fy.x * r.y) / det, (-fx.y * r.x + fx.x * r.y) / det);
    p -= step;
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return std::nullopt;
    if (std::abs(step.x) + std::abs(step.y) < 1e-15) break;
  }
  const cv::Point2d r = distort_normalized(p, dist) - distorted;
  if (std::abs(r.x) + std::abs(r.y) < 1e-10) return p;
  return std::nullopt;
}

}  // namespace

std::optional<cv::Point2d> undistort_normalized(const cv::Point2d& distorted,
                                                const std::vector<double>& dist) {
  if (no_distortion(dist)) return distorted;
  // OpenCV's fixed-point scheme (divide out the radial factor) for a start, then Newton.
  auto k = [&](std::size_t i) { return i < dist.size() ? dist[i] : 0.0; };
  cv::Point2d p = distorted;
  for (int i = 0; i < 20; ++i) {
    const double r2 = p.x * p.x + p.y * p.y;
    const double r4 = r2 * r2;
    const double r6 = r4 * r2;
    const double radial =
        (1 + k(0) * r2 + k(1) * r4 + k(4) * r6) / (1 + k(5) * r2 + k(6) * r4 + k(7) * r6);
    const double tx = 2 * k(2) * p.x * p.y + k(3) * (r2 + 2 * p.x * p.x) + k(8) * r2 + k(9) * r4;
    const double ty = k(2) * (r2 + 2 * p.y * p.y) + 2 * k(3) * p.x * p.y + k(10) * r2 + k(11) * r4;
    const cv::Point2d next((distorted.x - tx) / radial, (distorted.y - ty) / radial);
    if (!std::isfinite(next.x) || !std::isfinite(next.y) || radial <= 0) {
      p = distorted;
      break;
    }
    const double step = std::abs(next.x - p.x) + std::abs(next.y - p.y);
    p = next;
    if (step < 1e-6) break;
  }
  if (auto exact = newton(distorted, dist, p, 1e-14)) return exact;
  return newton(distorted, dist, distorted, 1e-14);
}

std::optional<cv::Point2d> undistort_normalized(const cv::Point2d& distorted,
                                                const std::vector<double>& dist,
                                                const cv::Point2d& guess) {
  if (no_distortion(dist)) return distorted;
  if (auto p = newton(distorted, dist, guess, 1e-12)) return p;
  return undistort_normalized(distorted, dist);
}

std::optional<cv::Point2d> pixel_to_normalized(const Intrinsics& cam, const cv::Point2d& px) {
  const cv::Matx33d& k = cam.camera_matrix;
  const double yd = (px.y - k(1, 2)) / k(1, 1);
  const double xd = (px.x - k(0, 2) - k(0, 1) * yd) / k(0, 0);
  return undistort_normalized({xd, yd}, cam.dist);
}

cv::Point2d normalized_to_pixel(const Intrinsics& cam, const cv::Point2d& xy) {
  const cv::Point2d d = distort_normalized(xy, cam.dist);
  const cv::Matx33d& k = cam.camera_matrix;
  return {k(0, 0) * d.x + k(0, 1) * d.y + k(0, 2), k(1, 1) * d.y + k(1, 2)};
}

cv::Point2d project_point(const Intrinsics& cam, const Pose& object_to_camera,
                          const cv::Point3d& object_point) {
  const cv::Vec3d p =
      rotation_of(object_to_camera) * cv::Vec3d(object_point) + object_to_camera.tvec;
  return normalized_to_pixel(cam, {p[0] / p[2], p[1] / p[2]});
}

}  // namespace duels::calib
