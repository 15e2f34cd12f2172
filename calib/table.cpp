#include "calib/table.hpp"

#include <fmt/format.h>

#include <opencv2/aruco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "calib/units.hpp"

namespace duels::calib {

TablePlane::TablePlane(Intrinsics camera, Pose table_to_camera, TableGeometry table)
    : camera_(std::move(camera)), pose_(table_to_camera), table_(table) {
  r_ = rotation_of(pose_);
  centre_ = -(r_.t() * pose_.tvec);
}

std::optional<cv::Point2d> TablePlane::table_to_image(const cv::Point3d& table_in) const {
  const cv::Vec3d p = r_ * cv::Vec3d(table_in) + pose_.tvec;
  if (p[2] <= 1e-9) return std::nullopt;
  return normalized_to_pixel(camera_, {p[0] / p[2], p[1] / p[2]});
}

std::optional<cv::Point2d> TablePlane::image_to_table(const cv::Point2d& px,
                                                      double height_in) const {
  const auto n = pixel_to_normalized(camera_, px);
  if (!n) return std::nullopt;
  const cv::Vec3d ray = r_.t() * cv::Vec3d(n->x, n->y, 1.0);  // in the table frame
  if (std::abs(ray[2]) < 1e-12) return std::nullopt;
  const double s = (height_in - centre_[2]) / ray[2];
  if (s <= 0) return std::nullopt;
  return cv::Point2d(centre_[0] + s * ray[0], centre_[1] + s * ray[1]);
}

cv::Point3d TablePlane::camera_position_in() const {
  return {centre_[0], centre_[1], centre_[2]};
}

double TablePlane::camera_tilt_deg() const {
  const cv::Vec3d axis = r_.t() * cv::Vec3d(0, 0, 1);  // optical axis in the table frame
  return std::acos(std::clamp(-axis[2], -1.0, 1.0)) * 180.0 / CV_PI;
}

double TablePlane::px_per_in_at(const cv::Point2d& table_in) const {
  const auto a = table_to_image({table_in.x, table_in.y, 0});
  const auto b = table_to_image({table_in.x + 0.5, table_in.y, 0});
  const auto c = table_to_image({table_in.x, table_in.y + 0.5, 0});
  if (!a || !b || !c) return 0;
  return std::sqrt(cv::norm(*b - *a) * cv::norm(*c - *a)) / 0.5;
}

bool TablePlane::on_table(const cv::Point2d& table_in) const {
  return table_in.x >= 0 && table_in.y >= 0 && table_in.x <= table_.width_in &&
         table_in.y <= table_.depth_in;
}

MarkerLayout corner_marker_layout(const TableGeometry& table, double side_in, double inset_in,
                                  const std::string& dictionary, int first_id) {
  MarkerLayout layout;
  layout.dictionary = dictionary;
  const double lo = inset_in + side_in / 2;
  const double hx = table.width_in - lo;
  const double hy = table.depth_in - lo;
  layout.markers = {{first_id, {lo, lo}, side_in},
                    {first_id + 1, {hx, lo}, side_in},
                    {first_id + 2, {hx, hy}, side_in},
                    {first_id + 3, {lo, hy}, side_in}};
  return layout;
}

Expected<MarkerDetections, std::string> detect_markers(const cv::Mat& image,
                                                       const std::string& dictionary) {
  const auto dict = dictionary_by_name(dictionary);
  if (!dict) return fmt::format("unknown ArUco dictionary '{}'", dictionary);
  MarkerDetections out;
  if (image.empty()) return out;
  const cv::Mat gray = to_gray(image);
  auto params = cv::aruco::DetectorParameters::create();
  params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_NONE;
  std::vector<std::vector<cv::Point2f>> corners;
  cv::aruco::detectMarkers(gray, dict, corners, out.ids, params);
  const int cells = dict->markerSize + 2;
  for (auto& c : corners) {
    double side = 1e9;
    for (int i = 0; i < 4; ++i)
      side = std::min(side, cv::norm(c[i] - c[(i + 1) % 4]));
    // The window must stay inside the black border cell next to each corner.
    const int half = std::clamp(static_cast<int>(side / cells * 0.9), 2, 6);
    cv::cornerSubPix(gray, c, cv::Size(half, half), cv::Size(-1, -1),
                     cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 40, 0.001));
    out.corners_px.push_back({c[0], c[1], c[2], c[3]});
  }
  return out;
}

TableCorrespondences marker_correspondences(const MarkerDetections& found,
                                            const MarkerLayout& layout) {
  TableCorrespondences out;
  std::vector<int> used;
  for (std::size_t i = 0; i < found.ids.size(); ++i) {
    const auto it = std::find_if(layout.markers.begin(), layout.markers.end(),
                                 [&](const MarkerPlacement& m) { return m.id == found.ids[i]; });
    if (it == layout.markers.end()) continue;
    if (std::find(used.begin(), used.end(), it->id) != used.end()) continue;  // seen twice
    used.push_back(it->id);
    const double h = it->side_in / 2;
    // Picture top-left, top-right, bottom-right, bottom-left; the picture's top faces +y.
    const cv::Point3d corners[4] = {{it->centre_in.x - h, it->centre_in.y + h, 0},
                                    {it->centre_in.x + h, it->centre_in.y + h, 0},
                                    {it->centre_in.x + h, it->centre_in.y - h, 0},
                                    {it->centre_in.x - h, it->centre_in.y - h, 0}};
    for (int k = 0; k < 4; ++k) {
      out.table_in.push_back(corners[k]);
      out.image_px.emplace_back(found.corners_px[i][static_cast<std::size_t>(k)]);
    }
  }
  std::sort(used.begin(), used.end());
  out.marker_ids = used;
  std::string ids;
  for (int id : used)
    ids += (ids.empty() ? "" : ",") + std::to_string(id);
  out.method = fmt::format("markers {} ({})", ids.empty() ? "none" : ids, layout.dictionary);
  return out;
}

TableCorrespondences board_correspondences(const BoardView& view, const PatternSpec& spec,
                                           const BoardPlacement& placement) {
  TableCorrespondences out;
  const cv::Point2d o = board_outer_corner_mm(spec);
  const double a = placement.angle_deg * CV_PI / 180.0;
  const double ca = std::cos(a);
  const double sa = std::sin(a);
  for (std::size_t i = 0; i < view.board_mm.size(); ++i) {
    // Face up with the picture's top away from the player: board x → +x, board y (down) → −y.
    const double bx = (view.board_mm[i].x - o.x) / kMmPerInch;
    const double by = -(view.board_mm[i].y - o.y) / kMmPerInch;
    out.table_in.emplace_back(placement.corner_in.x + ca * bx - sa * by,
                              placement.corner_in.y + sa * bx + ca * by, 0.0);
    out.image_px.emplace_back(view.image_px[i]);
  }
  out.method = fmt::format("board ({}) at {:g},{:g} in, {:g} deg", describe(spec),
                           placement.corner_in.x, placement.corner_in.y, placement.angle_deg);
  return out;
}

namespace {

double rms_of(const Intrinsics& cam, const Pose& pose, const TableCorrespondences& pts) {
  double sum = 0;
  for (std::size_t i = 0; i < pts.table_in.size(); ++i) {
    const cv::Point2d d = project_point(cam, pose, pts.table_in[i]) - pts.image_px[i];
    sum += d.dot(d);
  }
  return pts.table_in.empty() ? 0 : std::sqrt(sum / static_cast<double>(pts.table_in.size()));
}

std::optional<Pose> solve_pose(const Intrinsics& cam, const TableCorrespondences& pts,
                               const std::optional<Pose>& guess) {
  cv::Mat rvec;
  cv::Mat tvec;
  const bool planar = std::all_of(pts.table_in.begin(), pts.table_in.end(),
                                  [](const cv::Point3d& p) { return p.z == 0.0; });
  try {
    if (guess) {
      rvec = cv::Mat(guess->rvec).clone();
      tvec = cv::Mat(guess->tvec).clone();
      cv::solvePnP(pts.table_in, pts.image_px, cam.camera_matrix, cam.dist, rvec, tvec, true,
                   cv::SOLVEPNP_ITERATIVE);
    } else {
      cv::solvePnP(pts.table_in, pts.image_px, cam.camera_matrix, cam.dist, rvec, tvec, false,
                   planar ? cv::SOLVEPNP_IPPE : cv::SOLVEPNP_ITERATIVE);
      cv::solvePnPRefineLM(pts.table_in, pts.image_px, cam.camera_matrix, cam.dist, rvec, tvec);
    }
  } catch (const cv::Exception&) {
    return std::nullopt;
  }
  if (!cv::checkRange(rvec) || !cv::checkRange(tvec)) return std::nullopt;
  return Pose{cv::Vec3d(rvec), cv::Vec3d(tvec)};
}

}  // namespace

Expected<Registration, std::string> register_table(const Intrinsics& camera,
                                                   const TableCorrespondences& points,
                                                   const TableGeometry& table) {
  const std::size_t n = points.table_in.size();
  if (n < 4 || points.image_px.size() != n) {
    return fmt::format(
        "{} table points found; at least 4 are needed (is the board or are the "
        "markers in view?)",
        n);
  }
  // Collinear points leave the pose undetermined.
  cv::Point2d mean(0, 0);
  for (const auto& p : points.table_in)
    mean += cv::Point2d(p.x, p.y);
  mean *= 1.0 / static_cast<double>(n);
  double sxx = 0;
  double syy = 0;
  double sxy = 0;
  for (const auto& p : points.table_in) {
    const double dx = p.x - mean.x;
    const double dy = p.y - mean.y;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const double tr = sxx + syy;
  const double det = sxx * syy - sxy * sxy;
  const double small = tr / 2 - std::sqrt(std::max(0.0, tr * tr / 4 - det));
  if (small < 1e-6 * std::max(tr, 1e-12)) {
    return std::string("the table points found lie on one line: show more of the board or markers");
  }
  const auto pose = solve_pose(camera, points, std::nullopt);
  if (!pose) return std::string("the camera pose could not be solved from these points");
  Registration reg;
  reg.plane = TablePlane(camera, *pose, table);
  reg.points = points;
  reg.rms_px = rms_of(camera, *pose, points);
  if (reg.plane.camera_position_in().z <= 0) {
    return std::string(
        "the solved camera is under the table: the marker ids, layout or board "
        "placement do not match what is on the table");
  }
  return reg;
}

double registration_noise_px(const Registration& registration) {
  const auto n = static_cast<double>(registration.points.table_in.size());
  if (n * 2 <= 6) return registration.rms_px;
  return registration.rms_px * std::sqrt(2 * n / (2 * n - 6));
}

AccuracyReport estimate_accuracy(const TablePlane& plane, const cv::Mat& intrinsics_covariance,
                                 const TableCorrespondences& points, double noise_rms_px,
                                 const AccuracyOptions& options) {
  AccuracyReport report;
  report.grid = std::max(2, options.grid);
  report.samples = std::max(1, options.samples);
  report.registration_noise_px = noise_rms_px;
  const int g = report.grid;
  const Intrinsics& cam = plane.camera();
  const TableGeometry& table = plane.table();

  // √Σ by eigen-decomposition (robust to a near-singular covariance).
  cv::Mat sqrt_cov;
  if (!intrinsics_covariance.empty()) {
    cv::Mat cov;
    intrinsics_covariance.convertTo(cov, CV_64F);
    cv::Mat evals;
    cv::Mat evecs;
    cv::eigen((cov + cov.t()) / 2, evals, evecs);
    cv::Mat scale = cv::Mat::zeros(cov.rows, cov.rows, CV_64F);
    for (int i = 0; i < cov.rows; ++i) {
      scale.at<double>(i, i) = std::sqrt(std::max(0.0, evals.at<double>(i)));
    }
    sqrt_cov = evecs.t() * scale;
  }

  // Ideal pixels of the registration points and of the grid, under the nominal calibration.
  TableCorrespondences ideal = points;
  for (std::size_t i = 0; i < ideal.table_in.size(); ++i) {
    if (const auto px = plane.table_to_image(ideal.table_in[i])) ideal.image_px[i] = *px;
  }
  // A table point whose error is measured, its true pixel and its cell in the report map.
  struct GridPoint {
    cv::Point2d table_in;
    cv::Point2d px;
    int cell;
  };
  std::vector<GridPoint> grid;
  const cv::Rect2d frame(0, 0, cam.image_size.width, cam.image_size.height);
  for (int r = 0; r < g; ++r) {
    for (int c = 0; c < g; ++c) {
      const cv::Point2d t(table.width_in * c / (g - 1), table.depth_in * r / (g - 1));
      const auto px = plane.table_to_image({t.x, t.y, options.height_in});
      if (px && (frame.width <= 0 || frame.contains(*px))) grid.push_back({t, *px, r * g + c});
    }
  }
  report.visible_fraction = static_cast<double>(grid.size()) / (g * g);
  report.cell_rms_in.assign(static_cast<std::size_t>(g * g), 0.0);
  report.cell_draws.assign(static_cast<std::size_t>(g * g), 0);
  if (grid.empty()) return report;

  cv::RNG rng(options.seed);
  const double sigma_axis = noise_rms_px / std::sqrt(2.0);
  std::vector<double> all_errors;
  all_errors.reserve(grid.size() * static_cast<std::size_t>(report.samples));
  std::vector<double> cell_sum(static_cast<std::size_t>(g * g), 0.0);
  std::vector<int> cell_n(static_cast<std::size_t>(g * g), 0);
  for (int s = 0; s < report.samples; ++s) {
    Intrinsics drawn = cam;
    drawn.dist.resize(std::max<std::size_t>(drawn.dist.size(), 5), 0.0);
    if (!sqrt_cov.empty()) {
      cv::Mat z(sqrt_cov.cols, 1, CV_64F);
      rng.fill(z, cv::RNG::NORMAL, 0.0, 1.0);
      const cv::Mat d = sqrt_cov * z;
      drawn.camera_matrix(0, 0) += d.at<double>(0);
      drawn.camera_matrix(1, 1) += d.at<double>(1);
      drawn.camera_matrix(0, 2) += d.at<double>(2);
      drawn.camera_matrix(1, 2) += d.at<double>(3);
      for (int i = 4; i < d.rows && i - 4 < static_cast<int>(drawn.dist.size()); ++i) {
        drawn.dist[static_cast<std::size_t>(i - 4)] += d.at<double>(i);
      }
    }
    TableCorrespondences noisy = ideal;
    for (auto& p : noisy.image_px) {
      p.x += rng.gaussian(sigma_axis);
      p.y += rng.gaussian(sigma_axis);
    }
    const auto pose = solve_pose(drawn, noisy, plane.pose());
    if (!pose) continue;
    const TablePlane trial(drawn, *pose, table);
    for (const auto& gp : grid) {
      const auto back = trial.image_to_table(gp.px, options.height_in);
      if (!back) continue;  // a draw so wrong the ray misses the plane: not a measurement
      const double err = cv::norm(*back - gp.table_in);
      all_errors.push_back(err);
      cell_sum[static_cast<std::size_t>(gp.cell)] += err * err;
      ++cell_n[static_cast<std::size_t>(gp.cell)];
    }
  }
  if (all_errors.empty()) return report;
  double sum_sq = 0;
  for (double e : all_errors)
    sum_sq += e * e;
  report.rms_in = std::sqrt(sum_sq / static_cast<double>(all_errors.size()));
  std::sort(all_errors.begin(), all_errors.end());
  report.p95_in =
      all_errors[static_cast<std::size_t>(0.95 * static_cast<double>(all_errors.size() - 1))];
  report.max_in = all_errors.back();
  auto edge_rms = [&](int row) {
    double sum = 0;
    int n = 0;
    for (int c = 0; c < g; ++c) {
      const auto k = static_cast<std::size_t>(row * g + c);
      sum += cell_sum[k];
      n += cell_n[k];
    }
    return n > 0 ? std::sqrt(sum / n) : 0.0;
  };
  for (std::size_t k = 0; k < cell_sum.size(); ++k) {
    report.cell_rms_in[k] = cell_n[k] > 0 ? std::sqrt(cell_sum[k] / cell_n[k]) : 0.0;
    report.cell_draws[k] = cell_n[k];
  }
  report.measured_fraction =
      static_cast<double>(all_errors.size()) /
      (static_cast<double>(grid.size()) * static_cast<double>(report.samples));
  report.near_rms_in = edge_rms(0);
  report.far_rms_in = edge_rms(g - 1);
  return report;
}

std::optional<std::string> accuracy_problem(const AccuracyReport& report, double limit_in) {
  if (report.visible_fraction <= 0) {
    return std::string(
        "no point of the table is in the camera's view: check --table and the marker layout");
  }
  if (report.measured_fraction < 0.9) {
    return fmt::format(
        "the calibration is too uncertain to measure with: in {:.0f}% of the simulated "
        "draws a table point could not be measured at all (recalibrate with more photos of the "
        "board, tilted and in every part of the picture)",
        100 * (1 - report.measured_fraction));
  }
  if (report.p95_in > limit_in) {
    return fmt::format(
        "95% of measurements would be off by up to {:.2f} in (the limit is {:.2f} in). "
        "Recalibrate the lens with more photos of the board, tilted and in every part of the "
        "picture, or bring the camera closer",
        report.p95_in, limit_in);
  }
  return std::nullopt;
}

}  // namespace duels::calib
