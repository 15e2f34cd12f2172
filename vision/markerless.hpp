#pragma once
/// @file Markerless mode (experimental): bases found as discs in a rectified top view of the
/// table at the height of the base tops, identities kept by nearest-neighbour tracking and named
/// once by the player. Less accurate than marker mode (see docs/readme/vision.md).

#include <opencv2/core.hpp>

#include <map>
#include <string>
#include <vector>

#include "calib/table.hpp"
#include "vision/markers.hpp"

namespace duels::vision {

/// Tuning of the disc finder.
struct DiscOptions {
  double px_per_in = 20;  ///< resolution of the rectified view
  double top_height_in = 0.75;
  double radius_in = 1.0;  ///< expected base radius
};

/// Finds round base tops. Builds the rectifying map once for a table plane.
class DiscFinder {
 public:
  DiscFinder(const calib::TablePlane& plane, DiscOptions options = {});
  /// Disc centres in table inches.
  [[nodiscard]] std::vector<cv::Point2d> find(const cv::Mat& image) const;
  /// The rectified top view of a frame (for checking by eye).
  [[nodiscard]] cv::Mat rectify(const cv::Mat& image) const;

 private:
  DiscOptions options_;
  calib::TableGeometry table_;
  cv::Mat map_x_;
  cv::Mat map_y_;
};

/// Gives anonymous discs lasting identities: each disc takes the identity of the nearest known
/// base within `max_jump_in`, otherwise a new one (ids from 1000 up). The player names them.
class DiscIdentities {
 public:
  explicit DiscIdentities(double max_jump_in = 3.0) : max_jump_in_(max_jump_in) {}
  std::vector<BaseObservation> assign(const std::vector<cv::Point2d>& discs, double radius_in);

 private:
  double max_jump_in_;
  std::map<int, cv::Point2d> last_;
  int next_id_ = 1000;
};

}  // namespace duels::vision
