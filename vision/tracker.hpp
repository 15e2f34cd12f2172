#pragma once
/// @file Tracking bases over time: persistent identity, smoothing without lag, the states
/// moving / settled / occluded / lost, and the per-frame TableState with the gaps and lines of
/// fire between settled bases (measured with duels' geometry).

#include <opencv2/core.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "vision/markers.hpp"

namespace duels::vision {

/// Where a tracked base stands in its life cycle.
enum class BaseState {
  kMoving,    ///< seen, position changing (or not yet still long enough): not measured
  kSettled,   ///< seen and still: smoothed position, used for measurements
  kOccluded,  ///< not seen lately: last known position kept, stale, with its age
  kLost,      ///< not seen for longer than `lost_after_s`
};
std::string to_string(BaseState state);

/// One base as the tracker knows it.
struct TrackedBase {
  int marker_id = 0;
  std::string figure;
  cv::Point2d centre_in;
  double radius_in = 0;
  double angle_deg = 0;
  double confidence = 0;
  BaseState state = BaseState::kMoving;
  double last_seen_s = 0;  ///< time of the last observation
  double age_s = 0;        ///< now − last_seen_s (0 when seen this frame)
  [[nodiscard]] bool stale() const {
    return state == BaseState::kOccluded || state == BaseState::kLost;
  }
};

/// A measurement between two settled bases.
struct PairMeasure {
  std::string a;
  std::string b;
  double gap_in = 0;          ///< edge-to-edge, centre line
  bool line_of_fire = false;  ///< clear line of fire (other settled bases block)
  std::vector<std::string> blockers;
};

/// A base the camera sees this frame but cannot name: its ring is fitted (and was in the frame
/// before), but its code is not read well enough from here (hidden by its figure, too small),
/// or it is a code no base in the map carries.
struct UnnamedBase {
  cv::Point2d centre_in;
  double radius_in = 0;
  double top_height_in = 0;  ///< the height its ring was looked for at
  int frames = 0;            ///< frames it has stood still, seen
};

/// What the vision stage says about the table in one frame.
struct TableState {
  std::int64_t frame = 0;
  double time_s = 0;
  std::vector<TrackedBase> bases;         ///< sorted by marker id
  std::vector<PairMeasure> pairs;         ///< every pair of settled bases
  std::vector<std::string> not_measured;  ///< bases left out of the measurements, and why
  std::vector<UnnamedBase> unnamed;       ///< bases seen but not named (rings), not measured
};

/// Tracker tuning.
struct TrackerOptions {
  double settle_radius_in = 0.08;   ///< observations within this of each other count as still
  int settle_frames = 3;            ///< still this many frames in a row → settled
  double move_threshold_in = 0.15;  ///< a settled base that moves farther is moving again
  double max_speed_in_s = 120;      ///< faster jumps between visible frames need confirming
  double lost_after_s = 3.0;        ///< occluded longer than this → lost
  int smoothing_window = 30;        ///< settled positions average up to this many observations
};

/// Keeps identities (marker ids in marker mode) and states over time. Feed it every frame.
class Tracker {
 public:
  explicit Tracker(TrackerOptions options = {}) : options_(options) {}

  /// Sets the figure name reported for a marker (from the base map), from the next update on.
  void name(int marker_id, std::string figure) {
    if (auto t = tracks_.find(marker_id); t != tracks_.end()) t->second.base.figure = figure;
    names_[marker_id] = std::move(figure);
  }

  /// Updates with one frame's observations and returns the bases' states.
  std::vector<TrackedBase> update(const std::vector<BaseObservation>& observations, double time_s);

 private:
  struct Track {
    TrackedBase base;
    std::vector<cv::Point2d> recent;  // raw observations while not settled
    cv::Point2d sum{0, 0};            // settled: running sum of observations
    int count = 0;
    std::optional<cv::Point2d> pending;  // a jump awaiting confirmation
    bool seen_last_frame = false;
  };
  TrackerOptions options_;
  std::map<int, Track> tracks_;
  std::map<int, std::string> names_;
  double last_time_s_ = 0;
  bool started_ = false;
};

/// Pairwise gaps and lines of fire between settled bases; other bases are listed as not measured.
/// `unnamed` bases are not measured, but they stand on the table: they block lines of fire
/// (named "unnamed base (X, Y)").
TableState measure_table(std::int64_t frame, double time_s, std::vector<TrackedBase> bases,
                         std::vector<UnnamedBase> unnamed = {});

}  // namespace duels::vision
