#include "calib/table_tracker.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace duels::calib {

TableTracker::TableTracker(Intrinsics camera, MarkerLayout layout, TableGeometry table,
                           TrackerOptions options)
    : camera_(std::move(camera)), layout_(std::move(layout)), table_(table), options_(options) {
  // A layout of two markers must be able to register (two markers = 8 points is enough).
  options_.min_markers =
      std::clamp(static_cast<int>(layout_.markers.size()), 2, std::max(2, options_.min_markers));
}

void TableTracker::set_reference(const TablePlane& plane) {
  Registration reg;
  reg.plane = plane;
  reference_ = reg;
  state_ = TrackerState::kLocked;
  pending_.clear();
  over_threshold_ = 0;
}

double TableTracker::far_edge_shift_in(const TablePlane& reference, const TablePlane& actual) {
  const TableGeometry& t = reference.table();
  double worst = 0;
  constexpr int kSamples = 9;
  for (int i = 0; i < kSamples; ++i) {
    const cv::Point2d p(t.width_in * i / (kSamples - 1), t.depth_in);
    const auto px = actual.table_to_image({p.x, p.y, 0});
    if (!px) return 1e9;
    const auto seen = reference.image_to_table(*px);
    if (!seen) return 1e9;
    worst = std::max(worst, cv::norm(*seen - p));
  }
  return worst;
}

std::optional<Registration> TableTracker::settle(const Registration& candidate) {
  if (!pending_.empty() &&
      far_edge_shift_in(pending_.back().plane, candidate.plane) > options_.settled_in) {
    pending_.clear();  // still moving: start counting again
  }
  pending_.push_back(candidate);
  if (static_cast<int>(pending_.size()) < options_.settle_frames) return std::nullopt;
  // Solve once from every still frame's points together: averages the corner noise.
  TableCorrespondences all;
  for (const auto& r : pending_) {
    all.table_in.insert(all.table_in.end(), r.points.table_in.begin(), r.points.table_in.end());
    all.image_px.insert(all.image_px.end(), r.points.image_px.begin(), r.points.image_px.end());
    for (int id : r.points.marker_ids) {
      if (std::find(all.marker_ids.begin(), all.marker_ids.end(), id) == all.marker_ids.end())
        all.marker_ids.push_back(id);
    }
  }
  std::sort(all.marker_ids.begin(), all.marker_ids.end());
  all.method = candidate.points.method;
  pending_.clear();
  auto reg = register_table(camera_, all, table_);
  if (!reg) return std::nullopt;
  return *reg;
}

TrackerStatus TableTracker::update(const MarkerDetections& detections) {
  TrackerStatus status;
  const TableCorrespondences points = marker_correspondences(detections, layout_);
  status.markers_seen = static_cast<int>(points.table_in.size() / 4);
  std::optional<Registration> candidate;
  if (status.markers_seen >= options_.min_markers) {
    if (auto reg = register_table(camera_, points, table_)) candidate = *reg;
  }
  if (!candidate) {
    status.state = state_;
    status.message = fmt::format("only {} of {} table markers visible; keep the corners clear",
                                 status.markers_seen, layout_.markers.size());
    return status;
  }
  if (state_ == TrackerState::kLocked) {
    status.far_edge_shift_in = far_edge_shift_in(reference_->plane, candidate->plane);
    if (status.far_edge_shift_in <= options_.moved_threshold_in) {
      over_threshold_ = 0;
      status.state = state_;
      status.message = "table locked";
      return status;
    }
    if (++over_threshold_ < options_.confirm_frames) {
      status.state = state_;
      status.message = "table locked (checking a jump)";
      return status;
    }
    state_ = TrackerState::kMoved;
    pending_.clear();
  }
  if (state_ == TrackerState::kMoved && reference_) {
    status.far_edge_shift_in = far_edge_shift_in(reference_->plane, candidate->plane);
  }
  if (auto settled = settle(*candidate)) {
    const bool first = !reference_.has_value();
    reference_ = std::move(settled);
    state_ = TrackerState::kLocked;
    over_threshold_ = 0;
    status.state = state_;
    status.relocked = true;
    status.far_edge_shift_in = 0;
    status.message = first ? "table registered" : "camera settled: table re-registered";
    return status;
  }
  status.state = state_;
  status.message = state_ == TrackerState::kMoved
                       ? fmt::format(
                             "camera moved: measurements off by {:.2f}\" at the far edge; hold the "
                             "camera still to re-register",
                             status.far_edge_shift_in)
                       : "registering the table: keep the camera still";
  return status;
}

}  // namespace duels::calib
