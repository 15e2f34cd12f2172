#include "calib/coverage.hpp"

#include <fmt/format.h>

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace duels::calib {
namespace {

// The fewest pixels per cell of a target centred at `p`, over the ways it can face (every 15°),
// and whether every facing keeps it inside the picture. Nothing when it cannot be projected.
std::optional<std::pair<double, bool>> px_per_cell_at(const TablePlane& plane,
                                                      const BaseTargetSpec& target, cv::Point2d p) {
  const cv::Size size = plane.camera().image_size;
  double fewest = std::numeric_limits<double>::infinity();
  bool inside = true;
  const double h = target.side_in / 2;
  for (int step = 0; step < 6; ++step) {  // a square repeats every 90°
    const double a = step * CV_PI / 12;
    const double c = std::cos(a);
    const double s = std::sin(a);
    std::array<cv::Point2d, 4> px;
    const cv::Point2d local[4] = {{-h, -h}, {h, -h}, {h, h}, {-h, h}};
    for (std::size_t k = 0; k < 4; ++k) {
      const cv::Point2d q(p.x + c * local[k].x - s * local[k].y,
                          p.y + s * local[k].x + c * local[k].y);
      const auto image = plane.table_to_image({q.x, q.y, target.height_in});
      if (!image) return std::nullopt;
      px[k] = *image;
      inside &= image->x >= 0 && image->y >= 0 && image->x < size.width && image->y < size.height;
    }
    for (std::size_t k = 0; k < 4; ++k) {
      fewest = std::min(fewest, cv::norm(px[(k + 1) % 4] - px[k]) / target.cells);
    }
  }
  return std::make_pair(fewest, inside);
}

std::string resolution_name(cv::Size size) {
  if (size.height == 720 || size.height == 1080 || size.height == 480)
    return fmt::format("{}p", size.height);
  return fmt::format("{}x{}", size.width, size.height);
}

// Rounds a side up to the next 1/8 inch.
double eighths_up(double in) {
  return std::ceil(in * 8 - 1e-9) / 8;
}

}  // namespace

TableCoverage table_coverage(const TablePlane& plane, const BaseTargetSpec& target,
                             double cell_in) {
  TableCoverage map;
  map.table = plane.table();
  map.target = target;
  map.image_size = plane.camera().image_size;
  map.cell_in = cell_in;
  map.cols = std::max(1, static_cast<int>(std::ceil(map.table.width_in / cell_in - 1e-9)));
  map.rows = std::max(1, static_cast<int>(std::ceil(map.table.depth_in / cell_in - 1e-9)));
  int readable = 0;
  int in_view = 0;
  std::array<int, 3> third_readable{};
  std::array<int, 3> third_total{};
  double worst_ratio = 0;  // largest min_px / px over spots in view that are too small
  double closer_in = 0;    // how much closer the camera must come to read every such spot
  double far_gap_in = 0;   // depth from the far edge that holds a spot too small to read
  bool out_near = false;
  bool out_far = false;
  bool out_sides = false;
  const cv::Point3d eye = plane.camera_position_in();
  for (int r = 0; r < map.rows; ++r) {
    for (int c = 0; c < map.cols; ++c) {
      TableCoverageCell cell;
      cell.centre_in = {std::min(map.table.width_in, (c + 0.5) * cell_in),
                        std::min(map.table.depth_in, (r + 0.5) * cell_in)};
      const auto seen = px_per_cell_at(plane, target, cell.centre_in);
      if (seen) {
        cell.px_per_cell = seen->first;
        cell.in_view = seen->second;
      }
      cell.readable = cell.in_view && cell.px_per_cell >= target.min_px_per_cell;
      const auto third = static_cast<std::size_t>(
          std::clamp(static_cast<int>(3 * cell.centre_in.y / map.table.depth_in), 0, 2));
      ++third_total[third];
      if (cell.readable) {
        ++readable;
        ++third_readable[third];
      }
      if (cell.in_view) {
        ++in_view;
        if (!cell.readable) {
          // A cell's size in pixels falls off about as the distance grows, so coming closer
          // by the missing share reaches the spot.
          const double ratio = target.min_px_per_cell / std::max(cell.px_per_cell, 1e-9);
          worst_ratio = std::max(worst_ratio, ratio);
          const double range =
              cv::norm(cv::Point3d(cell.centre_in.x, cell.centre_in.y, target.height_in) - eye);
          closer_in = std::max(closer_in, range * (1 - 1 / ratio));
          far_gap_in = std::max(far_gap_in, map.table.depth_in - r * cell_in);
        }
      } else {
        if (cell.centre_in.y < map.table.depth_in / 3)
          out_near = true;
        else if (cell.centre_in.y > 2 * map.table.depth_in / 3)
          out_far = true;
        else
          out_sides = true;
      }
      map.cells.push_back(cell);
    }
  }
  const double total = static_cast<double>(map.cells.size());
  map.readable_share = readable / total;
  map.in_view_share = in_view / total;
  for (std::size_t k = 0; k < 3; ++k) {
    map.readable_by_third[k] =
        third_total[k] > 0 ? static_cast<double>(third_readable[k]) / third_total[k] : 0;
  }
  map.side_needed_in = eighths_up(target.side_in * std::max(1.0, worst_ratio));

  const std::string res = resolution_name(map.image_size);
  if (worst_ratio > 0) {
    map.advice.push_back(fmt::format(
        "the far {:.0f} inches are out of reach at {} for {}-inch targets: move the camera about "
        "{:.0f} inches closer or use {}-inch targets",
        far_gap_in, res, target.side_in, std::ceil(closer_in), map.side_needed_in));
  }
  if (out_near || out_far || out_sides) {
    std::vector<std::string> parts;
    if (out_near) parts.emplace_back("the near edge");
    if (out_far) parts.emplace_back("the far edge");
    if (out_sides) parts.emplace_back("the sides");
    std::string where = parts[0];
    for (std::size_t k = 1; k < parts.size(); ++k)
      where += (k + 1 == parts.size() ? " and " : ", ") + parts[k];
    map.advice.push_back(fmt::format(
        "{:.0f}% of the table is outside the picture ({}): aim the camera at the table's middle "
        "or raise it",
        100 * (1 - map.in_view_share), where));
  }
  if (map.advice.empty()) {
    map.advice.push_back(
        fmt::format("every base target ({}-inch) can be read anywhere on the table at {}",
                    target.side_in, res));
  }
  return map;
}

Readability readability(const TableCoverageCell& cell, const BaseTargetSpec& target) {
  if (!cell.in_view) return Readability::kOutOfView;
  if (!cell.readable) return Readability::kTooSmall;
  return cell.px_per_cell < 1.25 * target.min_px_per_cell ? Readability::kNearLimit
                                                          : Readability::kReadable;
}

cv::Mat draw_coverage(const TableCoverage& map, int px_per_in) {
  const int w = static_cast<int>(std::lround(map.table.width_in * px_per_in));
  const int h = static_cast<int>(std::lround(map.table.depth_in * px_per_in));
  cv::Mat out(h, w, CV_8UC3, cv::Scalar(60, 60, 60));
  for (int r = 0; r < map.rows; ++r) {
    for (int c = 0; c < map.cols; ++c) {
      const TableCoverageCell& cell = map.at(c, r);
      cv::Scalar colour(110, 110, 110);  // out of view: grey
      switch (readability(cell, map.target)) {
        case Readability::kOutOfView:
          break;
        case Readability::kTooSmall:
          colour = cv::Scalar(60, 60, 215);  // red
          break;
        case Readability::kNearLimit:
          colour = cv::Scalar(40, 170, 230);  // amber
          break;
        case Readability::kReadable:
          colour = cv::Scalar(80, 175, 60);  // green
          break;
      }
      const int x0 = static_cast<int>(std::lround(c * map.cell_in * px_per_in));
      const int x1 = std::min(w, static_cast<int>(std::lround((c + 1) * map.cell_in * px_per_in)));
      const int y1 = h - static_cast<int>(std::lround(r * map.cell_in * px_per_in));
      const int y0 =
          std::max(0, h - static_cast<int>(std::lround((r + 1) * map.cell_in * px_per_in)));
      cv::rectangle(out, cv::Rect(cv::Point(x0, y0), cv::Point(x1, y1)), colour, cv::FILLED);
    }
  }
  // A line every foot.
  for (int k = 12; k < map.table.width_in; k += 12)
    cv::line(out, {k * px_per_in, 0}, {k * px_per_in, h}, cv::Scalar(30, 30, 30), 1);
  for (int k = 12; k < map.table.depth_in; k += 12)
    cv::line(out, {0, h - k * px_per_in}, {w, h - k * px_per_in}, cv::Scalar(30, 30, 30), 1);
  return out;
}

}  // namespace duels::calib
