#pragma once
/// @file Continuous re-registration from the corner markers: notices when the camera has been
/// bumped (the far edge would be off by more than 0.1"), warns, and re-locks once it is still.

#include <deque>
#include <optional>
#include <string>

#include "calib/table.hpp"

namespace duels::calib {

/// Tuning of TableTracker.
struct TrackerOptions {
  double moved_threshold_in = 0.1;  ///< warn when the far edge would be off by more than this
  double settled_in = 0.05;         ///< successive poses this close (far edge) count as still
  int settle_frames = 5;            ///< still frames needed to (re-)lock
  int confirm_frames = 2;           ///< frames over the threshold before "moved" is declared
  int min_markers = 3;              ///< markers needed for a usable frame
};

/// What the tracker is doing.
enum class TrackerState {
  kSearching,  ///< no registration yet: waiting for enough markers, still
  kLocked,     ///< registered and the camera has not moved
  kMoved,      ///< the camera moved: measurements are off until it settles and re-locks
};

/// The tracker's answer for one frame (shown by the GUI, printed by the CLI).
struct TrackerStatus {
  TrackerState state = TrackerState::kSearching;
  double far_edge_shift_in = 0;  ///< error the current registration would make at the far edge
  int markers_seen = 0;          ///< layout markers found in this frame
  bool relocked = false;         ///< this frame adopted a new registration
  std::string message;           ///< what is happening, in words
};

/// Follows the table pose frame by frame from marker detections. Pure: it never touches a
/// camera; feed it detections (from a live camera, a video, or synthetic frames).
class TableTracker {
 public:
  TableTracker(Intrinsics camera, MarkerLayout layout, TableGeometry table,
               TrackerOptions options = {});

  /// Starts from a registration known to be good (e.g. loaded from the calibration file).
  void set_reference(const TablePlane& plane);

  /// Takes one frame's detections and updates the state.
  TrackerStatus update(const MarkerDetections& detections);

  /// The registration in force (nothing while searching).
  [[nodiscard]] const std::optional<Registration>& reference() const { return reference_; }
  [[nodiscard]] TrackerState state() const { return state_; }

  /// How far off `reference` would be at the far edge if the camera were really at `actual`.
  [[nodiscard]] static double far_edge_shift_in(const TablePlane& reference,
                                                const TablePlane& actual);

 private:
  std::optional<Registration> settle(const Registration& candidate);

  Intrinsics camera_;
  MarkerLayout layout_;
  TableGeometry table_;
  TrackerOptions options_;
  TrackerState state_ = TrackerState::kSearching;
  std::optional<Registration> reference_;
  std::deque<Registration> pending_;  // recent still candidates while searching / moved
  int over_threshold_ = 0;
};

}  // namespace duels::calib
