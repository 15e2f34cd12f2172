#pragma once
/// @file Markerless mode (the fallback when bases carry no readable target): candidates from a
/// top view of the table at the height of the base tops, each base located by a sub-pixel fit
/// of its top's rim in the picture (vision/ring.hpp's fit_base_rim: the known radius and
/// height, the table pose, hidden rim points left out), identities kept by nearest-neighbour
/// tracking and named once by the player by where the base stands (see docs/camera.md).

#include <opencv2/core.hpp>

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "calib/table.hpp"
#include "vision/markers.hpp"
#include "vision/naming.hpp"
#include "vision/ring.hpp"
#include "vision/tracker.hpp"

namespace duels::vision {

/// Tuning of the disc finder.
struct DiscOptions {
  double px_per_in = 0;  ///< resolution of the top view searched (0: 7 pixels per base radius)
  double top_height_in = 0.75;
  double radius_in = 1.0;     ///< expected base radius
  double min_contrast = 20;   ///< top-view candidates: grey levels between top and surroundings
  int max_candidates = 80;    ///< the strongest top-view candidates measured per frame
  int search_every = 5;       ///< markerless pipeline: frames between searches of the whole
                              ///< table (between them, the bases followed are measured)
  double min_rim_step = 30;   ///< grey levels from just outside the rim to just inside (median
                              ///< over the rim points kept)
  int min_new_rim_rays = 34;  ///< a disc where none was followed and not fitted tightly needs
                              ///< its rim on this many of the 48 rays
  /// The table's own markers where the calibration put them (corners in table inches, on the
  /// table; vision/pipeline.hpp's table_markers_from_calibration or table_markers_of): no base
  /// is looked for on them, even where the camera sees one only in part and cannot find it.
  std::vector<std::array<cv::Point2d, 4>> table_markers_in;
};

/// Finds round base tops. Builds the rectifying map once for a table plane.
class DiscFinder {
 public:
  DiscFinder(const calib::TablePlane& plane, DiscOptions options = {});
  /// Disc centres in table inches. `hints`: table points where discs were seen lately, looked
  /// at even when the top view misses them.
  /// `search` false: no search of the whole table, only the hints are measured.
  /// `exclude`: table regions (polygons, inches at the tops' height) where no base is looked
  /// for — the table's corner markers, whose white margins and corners look like rims — beside
  /// the markers of DiscOptions::table_markers_in, which are always left out.
  [[nodiscard]] std::vector<cv::Point2d> find(
      const cv::Mat& image, const std::vector<cv::Point2d>& hints = {},
      const std::vector<std::vector<cv::Point2f>>& exclude = {}, bool search = true) const;
  /// The same with each disc's rim fit (vision/ring.hpp's fit_base_rim).
  [[nodiscard]] std::vector<RimFit> find_rims(
      const cv::Mat& image, const std::vector<cv::Point2d>& hints = {},
      const std::vector<std::vector<cv::Point2f>>& exclude = {}, bool search = true) const;

  /// How much a fitted disc looks like a light top: the median, over the rays that kept their
  /// rim point, of the grey levels from just outside the rim (1.12 R) to just inside (0.9 R).
  [[nodiscard]] double rim_step(const cv::Mat& gray, const RimFit& fit) const;

 private:
  DiscOptions options_;
  calib::TablePlane plane_;
  TableTopView top_;  // where candidates are looked for
  cv::Mat kernel_;    // a light top's matched filter in the top view
  // DiscOptions::table_markers_in, widened to where a base centred would stand on them (table
  // inches at the tops' height): no disc is looked for there.
  std::vector<std::vector<cv::Point2f>> known_regions_;
};

/// Gives anonymous discs lasting identities: each disc takes the identity of the nearest known
/// base within `max_jump_in` of where it was last seen (farther for a base out of sight for a
/// while: `return_speed_in_s` more per second away, at most `max_return_in`), otherwise a new
/// one (ids from 1000 up). The player names them.
class DiscIdentities {
 public:
  explicit DiscIdentities(double max_jump_in = 3.0, double return_speed_in_s = 10.0,
                          double max_return_in = 30.0)
      : max_jump_in_(max_jump_in),
        return_speed_in_s_(return_speed_in_s),
        max_return_in_(max_return_in) {}
  std::vector<BaseObservation> assign(const std::vector<cv::Point2d>& discs, double radius_in,
                                      double time_s = 0);

 private:
  struct Known {
    cv::Point2d at;
    double time_s = 0;
  };
  double max_jump_in_;
  double return_speed_in_s_;
  double max_return_in_;
  std::map<int, Known> last_;
  std::optional<double> last_time_s_;
  double frame_s_ = 0;
  int next_id_ = 1000;
};

/// The whole markerless per-frame pipeline: discs → identities → tracker → measurements. The
/// player names a base once by where it stands ("Razor is the one at 12, 10").
class MarkerlessPipeline {
 public:
  MarkerlessPipeline(const calib::TablePlane& plane, DiscOptions options = {},
                     TrackerOptions tracker = {});
  /// The base seen nearest `near_in` takes the name `figure` (for good): at once when its
  /// centre lies within a base's radius of the point (the player pointed at it), or once the
  /// name has waited a second, the base seen nearest the point within 3" (a point typed
  /// roughly; a base seen so while it waited keeps its claim if it moved away since); a base
  /// named "base N" before is renamed. Bases not named are "base 1000", "base 1001", …
  void name_near(cv::Point2d near_in, std::string figure);
  /// The names given by name_near that no base has taken yet, in the order given.
  [[nodiscard]] std::vector<WaitingName> waiting_names() const;
  TableState process(const cv::Mat& image, std::int64_t frame, double time_s);
  /// The discs found in the last frame processed (table inches), named or not.
  [[nodiscard]] const std::vector<cv::Point2d>& last_discs() const { return last_discs_; }

 private:
  struct PendingName {
    cv::Point2d near_in;
    std::string figure;
    std::optional<double> since_s;  ///< the first frame it waited at
    std::map<int, double> near;     ///< bases seen within reach while it waited: their nearest
  };
  DiscOptions options_;
  calib::TablePlane plane_;
  DiscFinder finder_;
  DiscIdentities identities_;
  Tracker tracker_;
  std::vector<PendingName> pending_;
  std::set<int> named_;
  std::set<int> by_player_;  ///< ids named by the player (`name_near`)
  std::vector<cv::Point2d> last_discs_;
  MarkerDetector detector_;
  /// The table's corner markers (ids 0-3) as last seen, widened to where a base centred would
  /// stand on them (table inches); looked for every `kCornerEvery` frames.
  std::vector<std::vector<cv::Point2f>> corner_regions_;
  static constexpr int kCornerEvery = 50;
  std::int64_t processed_ = 0;
  std::vector<TrackedBase> last_;  ///< the bases after the last frame (their places are hints)
};

}  // namespace duels::vision
