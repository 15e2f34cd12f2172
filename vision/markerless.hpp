#pragma once
/// @file Markerless mode (experimental): bases found as discs in a rectified top view of the
/// table at the height of the base tops, identities kept by nearest-neighbour tracking and named
/// once by the player. Less accurate than marker mode (see docs/camera.md).

#include <opencv2/core.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "calib/table.hpp"
#include "vision/markers.hpp"
#include "vision/tracker.hpp"

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

/// The whole markerless per-frame pipeline: discs → identities → tracker → measurements. The
/// player names a base once by where it stands ("Razor is the one at 12, 10").
class MarkerlessPipeline {
 public:
  MarkerlessPipeline(const calib::TablePlane& plane, DiscOptions options = {},
                     TrackerOptions tracker = {});
  /// A base first seen within 3" of `near_in` takes the name `figure` (for good); bases not
  /// named are "base 1000", "base 1001", …
  void name_near(cv::Point2d near_in, std::string figure);
  TableState process(const cv::Mat& image, std::int64_t frame, double time_s);

 private:
  struct PendingName {
    cv::Point2d near_in;
    std::string figure;
  };
  DiscOptions options_;
  DiscFinder finder_;
  DiscIdentities identities_;
  Tracker tracker_;
  std::vector<PendingName> pending_;
  std::set<int> named_;
};

}  // namespace duels::vision
