#pragma once
/// @file Where the camera can read a base target: from the registered pose and the picture's
/// size, how many pixels each cell of a target gets at every spot of the table, a map shaded by
/// whether a target can be read there, and advice in words for the player.

#include <opencv2/core.hpp>

#include <array>
#include <string>
#include <vector>

#include "calib/table.hpp"

namespace duels::calib {

/// The printed target on a base, as the camera must resolve it.
struct BaseTargetSpec {
  double side_in = 1.0;     ///< side of the printed square (black border included)
  int cells = 6;            ///< cells across it, border included (4×4 ArUco: 6)
  double height_in = 0.75;  ///< height of the base's top above the table
  /// Fewest image pixels per cell, at the target's worst facing, for a reliable read. The
  /// pipeline read every marker from 1.6 px on in clean renders
  /// (tests/vision/coverage_agreement_test.cpp); 2 px keeps a quarter in hand for a real
  /// webcam's blur and noise.
  double min_px_per_cell = 2.0;
};

/// One spot of the table in the coverage map.
struct TableCoverageCell {
  cv::Point2d centre_in;
  bool in_view = false;    ///< a target there lies wholly inside the picture
  double px_per_cell = 0;  ///< the fewest pixels a cell gets there, whichever way it faces
  bool readable = false;   ///< in view and px_per_cell >= the target's minimum
};

/// How a spot of the map reads: outside the picture, too small, read with under 25 % to spare,
/// or read.
enum class Readability { kOutOfView, kTooSmall, kNearLimit, kReadable };

/// The shade of one spot for a target.
[[nodiscard]] Readability readability(const TableCoverageCell& cell, const BaseTargetSpec& target);

/// The whole table, in square spots of `cell_in`, row by row from the near edge.
struct TableCoverage {
  TableGeometry table;
  BaseTargetSpec target;
  cv::Size image_size;
  double cell_in = 1.0;
  int cols = 0;
  int rows = 0;
  std::vector<TableCoverageCell> cells;
  double readable_share = 0;  ///< of the whole table
  double in_view_share = 0;
  std::array<double, 3> readable_by_third{};  ///< near, middle, far third of the depth
  /// The smallest target side that would be read everywhere in view (inches, to 1/8").
  double side_needed_in = 0;
  /// Advice in words, most important first; says so when everything is fine.
  std::vector<std::string> advice;

  [[nodiscard]] const TableCoverageCell& at(int col, int row) const {
    return cells[static_cast<std::size_t>(row * cols + col)];
  }
};

/// Computes the map for a registered camera. `cell_in` is the map's resolution.
TableCoverage table_coverage(const TablePlane& plane, const BaseTargetSpec& target,
                             double cell_in = 1.0);

/// The map as a picture, far edge on top, `px_per_in` pixels per inch: green where targets are
/// read, amber where they are within 25 % of the limit, red where they are too small, grey out
/// of view. BGR.
cv::Mat draw_coverage(const TableCoverage& map, int px_per_in = 8);

}  // namespace duels::calib
