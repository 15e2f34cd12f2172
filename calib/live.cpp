#include "calib/live.hpp"

#include <fmt/format.h>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace duels::calib {

namespace {

// Largest motion of the corners both views share; infinity when they share none.
double motion_px(const BoardView& a, const BoardView& b) {
  double worst = -1;
  std::size_t j = 0;
  for (std::size_t i = 0; i < a.corner_ids.size(); ++i) {
    // Corner ids are increasing in both views: walk them together.
    while (j < b.corner_ids.size() && b.corner_ids[j] < a.corner_ids[i])
      ++j;
    if (j < b.corner_ids.size() && b.corner_ids[j] == a.corner_ids[i]) {
      worst = std::max(worst, static_cast<double>(cv::norm(a.image_px[i] - b.image_px[j])));
    }
  }
  return worst < 0 ? std::numeric_limits<double>::infinity() : worst;
}

constexpr const char* kZoneNames[9] = {"top-left corner",    "top edge",    "top-right corner",
                                       "left edge",          "centre",      "right edge",
                                       "bottom-left corner", "bottom edge", "bottom-right corner"};

}  // namespace

double CoverageMap::covered_fraction() const {
  if (corners.empty()) return 0;
  const auto covered = std::count_if(corners.begin(), corners.end(), [](int n) { return n > 0; });
  return static_cast<double>(covered) / static_cast<double>(corners.size());
}

std::string describe(Tilt tilt) {
  switch (tilt) {
    case Tilt::kFacing:
      return "board facing the camera squarely";
    case Tilt::kLeftCloser:
      return "left side toward the camera";
    case Tilt::kRightCloser:
      return "right side toward the camera";
    case Tilt::kTopCloser:
      return "top edge toward the camera";
    case Tilt::kBottomCloser:
      return "bottom edge toward the camera";
  }
  return "";
}

LiveCalibrator::LiveCalibrator(cv::Size image_size, LiveOptions options)
    : size_(image_size), options_(options) {
  status_.coverage.cols = std::max(1, options_.grid_cols);
  status_.coverage.rows = std::max(1, options_.grid_rows);
  status_.coverage.corners.assign(
      static_cast<std::size_t>(status_.coverage.cols * status_.coverage.rows), 0);
  status_.views_needed = std::max(options_.min_views, options_.target_views);
  status_.hint = "show the whole board to the camera";
}

std::vector<int> LiveCalibrator::cells_of(const BoardView& view) const {
  std::vector<int> cells;
  const int cols = status_.coverage.cols;
  const int rows = status_.coverage.rows;
  for (const auto& p : view.image_px) {
    const int c =
        std::clamp(static_cast<int>(static_cast<double>(p.x) * cols / size_.width), 0, cols - 1);
    const int r =
        std::clamp(static_cast<int>(static_cast<double>(p.y) * rows / size_.height), 0, rows - 1);
    cells.push_back(r * cols + c);
  }
  return cells;
}

Tilt LiveCalibrator::tilt_of(const BoardView& view) const {
  cv::Matx33d k(std::max(size_.width, size_.height), 0, size_.width / 2.0, 0,
                std::max(size_.width, size_.height), size_.height / 2.0, 0, 0, 1);
  std::vector<double> dist;
  if (status_.calibration) {
    k = status_.calibration->intrinsics.camera_matrix;
    dist = status_.calibration->intrinsics.dist;
  }
  cv::Vec3d rvec;
  cv::Vec3d tvec;
  try {
    if (!cv::solvePnP(view.board_mm, view.image_px, k, dist, rvec, tvec, false,
                      cv::SOLVEPNP_IPPE)) {
      return Tilt::kFacing;
    }
  } catch (const cv::Exception&) {
    return Tilt::kFacing;
  }
  cv::Matx33d r;
  cv::Rodrigues(rvec, r);
  cv::Vec3d n(r(0, 2), r(1, 2), r(2, 2));  // board z (into the board) in the camera frame
  if (n[2] < 0) n = -n;
  const double yaw = std::atan2(n[0], n[2]) * 180.0 / CV_PI;
  const double pitch = std::atan2(n[1], n[2]) * 180.0 / CV_PI;
  if (std::max(std::abs(yaw), std::abs(pitch)) < options_.tilt_deg) return Tilt::kFacing;
  // n leaning toward +x means the board's right side (in the picture) is nearer the camera.
  if (std::abs(yaw) >= std::abs(pitch)) return yaw > 0 ? Tilt::kRightCloser : Tilt::kLeftCloser;
  return pitch > 0 ? Tilt::kBottomCloser : Tilt::kTopCloser;
}

void LiveCalibrator::add_view(const BoardView& view, Tilt tilt) {
  views_.push_back(view);
  if (views_.back().name.empty()) views_.back().name = fmt::format("frame {}", frame_);
  view_tilts_.push_back(tilt);
  for (int cell : cells_of(view))
    ++status_.coverage.corners[static_cast<std::size_t>(cell)];
  ++status_.tilts[static_cast<std::size_t>(tilt)];
}

void LiveCalibrator::remove_view(std::size_t index) {
  for (int cell : cells_of(views_[index]))
    --status_.coverage.corners[static_cast<std::size_t>(cell)];
  --status_.tilts[static_cast<std::size_t>(view_tilts_[index])];
  views_.erase(views_.begin() + static_cast<std::ptrdiff_t>(index));
  view_tilts_.erase(view_tilts_.begin() + static_cast<std::ptrdiff_t>(index));
}

void LiveCalibrator::recalibrate() {
  const int n = static_cast<int>(views_.size());
  if (n < options_.min_views) {
    status_.views_needed = std::max(options_.min_views, options_.target_views);
    return;
  }
  auto result = calibrate(views_, options_.calibration);
  if (!result) {
    status_.event += fmt::format("; calibration failed: {}", result.error());
    return;
  }
  for (const auto& d : result->dropped) {
    for (std::size_t i = 0; i < views_.size(); ++i) {
      if (views_[i].name == d.name) {
        remove_view(i);
        status_.event += fmt::format("; {} dropped: {}", d.name, d.reason);
        break;
      }
    }
  }
  const auto& c = *result;
  const double fx = c.intrinsics.fx();
  const double fy = c.intrinsics.fy();
  status_.std_relative = {c.std_dev[0] / fx, c.std_dev[1] / fy, c.std_dev[2] / fx,
                          c.std_dev[3] / fy};
  status_.calibration = std::move(result).value();
  const double worst = *std::max_element(status_.std_relative.begin(), status_.std_relative.end());
  const int kept = static_cast<int>(views_.size());
  status_.done = kept >= options_.min_views && worst <= options_.std_limit &&
                 status_.coverage.covered_fraction() >= options_.min_coverage;
  // σ shrinks like 1/√n: estimate how many views reach the limit.
  const double ratio = worst / options_.std_limit;
  const int estimate = static_cast<int>(std::ceil(kept * ratio * ratio));
  status_.views_needed = status_.done ? kept
                                      : std::clamp(estimate, std::max(kept + 1, options_.min_views),
                                                   options_.max_views);
}

void LiveCalibrator::update_hint(const std::optional<BoardView>& view) {
  if (status_.done) {
    status_.hint = fmt::format("done: calibrated from {} views (RMS {:.2f} px); you can stop",
                               views_.size(), status_.calibration->rms_px);
    return;
  }
  if (!view) {
    status_.hint = "show the whole board to the camera";
    return;
  }
  if (status_.phase == LivePhase::kHolding || (views_.empty() && !waiting_for_move_)) {
    status_.hint = "hold the board still";
    return;
  }
  // Next goal: the emptiest part of the picture, a missing tilt, or simply somewhere new.
  const CoverageMap& cov = status_.coverage;
  double zone_covered[9] = {};
  double zone_cells[9] = {};
  for (int r = 0; r < cov.rows; ++r) {
    for (int c = 0; c < cov.cols; ++c) {
      const int zone = std::min(2, r * 3 / cov.rows) * 3 + std::min(2, c * 3 / cov.cols);
      zone_cells[zone] += 1;
      if (cov.at(c, r) > 0) zone_covered[zone] += 1;
    }
  }
  int emptiest = 0;
  double lowest = 2;
  for (int z : {0, 2, 6, 8, 1, 3, 5, 7, 4}) {  // corners first on ties: they matter most
    const double f = zone_cells[z] > 0 ? zone_covered[z] / zone_cells[z] : 1;
    if (f < lowest) {
      lowest = f;
      emptiest = z;
    }
  }
  std::optional<Tilt> missing;
  for (int t = 0; t < kTiltCount; ++t) {
    if (status_.tilts[static_cast<std::size_t>(t)] == 0) {
      missing = static_cast<Tilt>(t);
      break;
    }
  }
  std::string prefix;
  std::string suffix;
  if (!waiting_for_move_) {
    suffix = ", then hold it still";  // on the way to a new place
  } else if (status_.phase == LivePhase::kCaptured) {
    prefix = "captured; now ";
  } else if (!last_was_capture_) {
    prefix = "nothing new here; ";
  }
  const cv::Rect box = cv::boundingRect(view->image_px);
  const double area = static_cast<double>(box.area()) / size_.area();
  if (lowest < 0.25) {
    status_.hint =
        prefix + fmt::format("move the board to cover the {} of the picture", kZoneNames[emptiest]);
  } else if (missing) {
    status_.hint =
        prefix + (*missing == Tilt::kFacing
                      ? std::string("hold the board square to the camera")
                      : fmt::format("tilt the board about 30 degrees, {}", describe(*missing)));
  } else if (lowest < 0.5) {
    status_.hint =
        prefix + fmt::format("move the board to cover the {} of the picture", kZoneNames[emptiest]);
  } else if (area < 0.1) {
    status_.hint = prefix + "move the board closer to the camera";
  } else {
    status_.hint = prefix + "move the board to a new place or angle";
  }
  status_.hint += suffix;
}

const LiveStatus& LiveCalibrator::feed(const std::optional<BoardView>& view) {
  ++frame_;
  status_.event.clear();
  if (status_.done) {
    status_.phase = LivePhase::kDone;
    return status_;
  }
  status_.current_tilt.reset();
  if (!view) {
    previous_.reset();
    last_capture_.reset();
    still_count_ = 0;
    waiting_for_move_ = false;
    status_.phase = LivePhase::kNoBoard;
  } else {
    const double motion =
        previous_ ? motion_px(*previous_, *view) : std::numeric_limits<double>::infinity();
    previous_ = view;
    if (waiting_for_move_ && last_capture_ &&
        motion_px(*last_capture_, *view) > options_.moved_px) {
      waiting_for_move_ = false;
    }
    still_count_ = motion <= options_.still_px ? still_count_ + 1 : 0;
    const Tilt tilt = tilt_of(*view);
    status_.current_tilt = tilt;
    if (waiting_for_move_) {
      status_.phase = still_count_ > 0 ? LivePhase::kNothingNew : LivePhase::kMoving;
    } else if (still_count_ < options_.still_frames) {
      status_.phase = still_count_ > 0 ? LivePhase::kHolding : LivePhase::kMoving;
    } else {
      const auto cells = cells_of(*view);
      const std::set<int> unique(cells.begin(), cells.end());
      const auto new_cells = std::count_if(unique.begin(), unique.end(), [&](int c) {
        return status_.coverage.corners[static_cast<std::size_t>(c)] == 0;
      });
      const bool new_tilt = status_.tilts[static_cast<std::size_t>(tilt)] == 0;
      const bool room = static_cast<int>(views_.size()) < options_.max_views;
      waiting_for_move_ = true;
      last_capture_ = view;
      last_was_capture_ = room && (new_cells >= options_.min_new_cells || new_tilt);
      if (last_was_capture_) {
        add_view(*view, tilt);
        status_.phase = LivePhase::kCaptured;
        status_.event = fmt::format("captured view {} (+{} cells{})", views_.size(), new_cells,
                                    new_tilt ? ", new tilt: " + describe(tilt) : "");
        recalibrate();
        if (status_.done) status_.phase = LivePhase::kDone;
      } else {
        status_.phase = LivePhase::kNothingNew;
      }
    }
  }
  status_.views_accepted = static_cast<int>(views_.size());
  status_.progress =
      status_.done
          ? 1.0
          : std::min(0.99, static_cast<double>(views_.size()) / std::max(1, status_.views_needed));
  update_hint(view);
  return status_;
}

const LiveStatus& feed_frame(LiveCalibrator& live, const cv::Mat& frame, const PatternSpec& spec,
                             const DetectOptions& options) {
  auto found = detect_board(frame, spec, options);
  if (!found) return live.feed(std::nullopt);
  return live.feed(std::move(found).value());
}

}  // namespace duels::calib
