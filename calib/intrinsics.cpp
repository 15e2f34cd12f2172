#include "calib/intrinsics.hpp"

#include <fmt/format.h>

#include <opencv2/calib3d.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace duels::calib {

namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  double m = v[v.size() / 2];
  if (v.size() % 2 == 0) {
    m = (m + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2))) /
        2.0;
  }
  return m;
}

// One run of OpenCV's calibration, before outlier views are looked at.
struct RawCalibration {
  Intrinsics cam;
  double rms = 0;
  std::vector<Pose> poses;
  std::vector<double> per_view;
  std::vector<double> std_dev;
};

Expected<RawCalibration, std::string> run_opencv(const std::vector<const BoardView*>& views,
                                                 cv::Size size) {
  std::vector<std::vector<cv::Point3f>> object;
  std::vector<std::vector<cv::Point2f>> image;
  for (const auto* v : views) {
    object.push_back(v->board_mm);
    image.push_back(v->image_px);
  }
  cv::Mat k = cv::Mat::eye(3, 3, CV_64F);
  cv::Mat dist = cv::Mat::zeros(5, 1, CV_64F);
  std::vector<cv::Mat> rvecs;
  std::vector<cv::Mat> tvecs;
  cv::Mat std_intr;
  cv::Mat std_extr;
  cv::Mat per_view;
  RawCalibration out;
  try {
    out.rms = cv::calibrateCamera(
        object, image, size, k, dist, rvecs, tvecs, std_intr, std_extr, per_view, 0,
        cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 100, DBL_EPSILON));
  } catch (const cv::Exception& e) {
    return fmt::format("OpenCV could not calibrate from these views: {}", e.err);
  }
  if (!std::isfinite(out.rms) || !cv::checkRange(k) || !cv::checkRange(dist)) {
    return std::string("the calibration did not converge (views too similar or corners wrong)");
  }
  out.cam.image_size = size;
  out.cam.camera_matrix = cv::Matx33d(k);
  out.cam.dist.assign(dist.begin<double>(), dist.end<double>());
  for (std::size_t i = 0; i < rvecs.size(); ++i) {
    out.poses.push_back({cv::Vec3d(rvecs[i]), cv::Vec3d(tvecs[i])});
  }
  out.per_view.assign(per_view.begin<double>(), per_view.end<double>());
  for (int i = 0; i < kIntrinsicParamCount; ++i)
    out.std_dev.push_back(std_intr.at<double>(i));
  return out;
}

}  // namespace

double view_rms_px(const Intrinsics& cam, const BoardView& view, const Pose& pose) {
  if (view.image_px.empty()) return 0;
  std::vector<cv::Point2f> projected;
  cv::projectPoints(view.board_mm, pose.rvec, pose.tvec, cam.camera_matrix, cam.dist, projected);
  double sum = 0;
  for (std::size_t i = 0; i < projected.size(); ++i) {
    const cv::Point2f d = projected[i] - view.image_px[i];
    sum += d.dot(d);
  }
  return std::sqrt(sum / static_cast<double>(projected.size()));
}

cv::Mat intrinsics_covariance(const Intrinsics& cam, const std::vector<BoardView>& views,
                              const std::vector<Pose>& poses) {
  constexpr int ni = kIntrinsicParamCount;
  const int nv = static_cast<int>(views.size());
  int rows = 0;
  for (const auto& v : views)
    rows += 2 * static_cast<int>(v.image_px.size());
  const int cols = ni + 6 * nv;
  cv::Mat jac = cv::Mat::zeros(rows, cols, CV_64F);
  double residual_sq = 0;
  int row = 0;
  std::vector<double> dist5(5, 0.0);
  for (std::size_t i = 0; i < 5 && i < cam.dist.size(); ++i)
    dist5[i] = cam.dist[i];
  for (int v = 0; v < nv; ++v) {
    const auto& view = views[static_cast<std::size_t>(v)];
    std::vector<cv::Point2d> projected;
    std::vector<cv::Point3d> object(view.board_mm.begin(), view.board_mm.end());
    cv::Mat j;  // 2n × (3 rvec, 3 tvec, 2 f, 2 c, 5 dist)
    cv::projectPoints(object, poses[static_cast<std::size_t>(v)].rvec,
                      poses[static_cast<std::size_t>(v)].tvec, cam.camera_matrix, dist5, projected,
                      j);
    const int n2 = 2 * static_cast<int>(object.size());
    j.colRange(6, 15).copyTo(jac(cv::Rect(0, row, ni, n2)));
    j.colRange(0, 6).copyTo(jac(cv::Rect(ni + 6 * v, row, 6, n2)));
    for (std::size_t p = 0; p < projected.size(); ++p) {
      const cv::Point2d d = projected[p] - cv::Point2d(view.image_px[p]);
      residual_sq += d.dot(d);
    }
    row += n2;
  }
  const int dof = std::max(1, rows - cols);
  const double sigma_sq = residual_sq / dof;
  cv::Mat normal;
  cv::mulTransposed(jac, normal, true);
  cv::Mat inv;
  cv::invert(normal, inv, cv::DECOMP_SVD);
  cv::Mat cov = inv(cv::Rect(0, 0, ni, ni)) * sigma_sq;
  return cov.clone();
}

Expected<CalibrationResult, std::string> calibrate(const std::vector<BoardView>& views,
                                                   const CalibrationOptions& options) {
  CalibrationResult result;
  if (views.empty()) return std::string("no board views to calibrate from");
  const cv::Size size = views.front().image_size;
  for (const auto& v : views) {
    if (v.image_size != size) {
      return fmt::format(
          "mixed image sizes: {} is {}x{} but {} is {}x{} (use one camera at one "
          "resolution)",
          views.front().name, size.width, size.height, v.name, v.image_size.width,
          v.image_size.height);
    }
  }
  std::vector<const BoardView*> used;
  for (const auto& v : views) {
    if (static_cast<int>(v.image_px.size()) < options.min_points_per_view) {
      result.dropped.push_back(
          {v.name, fmt::format("only {} corners (at least {} needed)", v.image_px.size(),
                               options.min_points_per_view)});
    } else {
      used.push_back(&v);
    }
  }
  if (static_cast<int>(used.size()) < options.min_views) {
    return fmt::format("{} usable board views; at least {} are needed", used.size(),
                       options.min_views);
  }
  const auto max_dropped = static_cast<std::size_t>(
      std::floor(options.max_dropped_fraction * static_cast<double>(used.size())));
  std::size_t outliers_dropped = 0;
  for (;;) {
    auto raw = run_opencv(used, size);
    if (!raw) return raw.error();
    const double median = median_of(raw->per_view);
    const auto worst = static_cast<std::size_t>(
        std::max_element(raw->per_view.begin(), raw->per_view.end()) - raw->per_view.begin());
    const double worst_rms = raw->per_view[worst];
    const bool outlier =
        worst_rms > options.outlier_factor * median && worst_rms > options.outlier_floor_px;
    if (outlier &&
        outliers_dropped<max_dropped&& static_cast<int>(used.size())> options.min_views) {
      result.dropped.push_back(
          {used[worst]->name,
           fmt::format("reprojection error {:.2f} px is {:.1f}x the median {:.2f} px (blurred, "
                       "moving or misdetected board)",
                       worst_rms, worst_rms / median, median)});
      used.erase(used.begin() + static_cast<std::ptrdiff_t>(worst));
      ++outliers_dropped;
      continue;
    }
    result.intrinsics = raw->cam;
    result.rms_px = raw->rms;
    result.per_view_rms_px = raw->per_view;
    result.view_poses = raw->poses;
    result.std_dev = raw->std_dev;
    break;
  }
  std::vector<BoardView> kept;
  for (const auto* v : used) {
    result.view_names.push_back(v->name);
    result.points_used += static_cast<int>(v->image_px.size());
    kept.push_back(*v);
  }
  result.covariance = intrinsics_covariance(result.intrinsics, kept, result.view_poses);
  return result;
}

}  // namespace duels::calib
