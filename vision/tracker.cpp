#include "vision/tracker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "duels/geometry.hpp"

namespace duels::vision {

std::string to_string(BaseState state) {
  switch (state) {
    case BaseState::kMoving:
      return "moving";
    case BaseState::kSettled:
      return "settled";
    case BaseState::kOccluded:
      return "occluded";
    case BaseState::kLost:
      return "lost";
  }
  return "?";
}

std::vector<TrackedBase> Tracker::update(const std::vector<BaseObservation>& observations,
                                         double time_s) {
  const double dt = started_ ? std::max(1e-3, time_s - last_time_s_) : 0.1;
  started_ = true;
  last_time_s_ = time_s;
  std::map<int, const BaseObservation*> seen;
  for (const auto& o : observations) {
    auto it = seen.find(o.marker_id);
    if (it == seen.end() || o.confidence > it->second->confidence) seen[o.marker_id] = &o;
  }
  for (auto& [id, track] : tracks_) {
    if (!seen.count(id)) {
      // Not seen: keep the last position, marked stale with its age.
      TrackedBase& b = track.base;
      b.age_s = time_s - b.last_seen_s;
      b.state = b.age_s > options_.lost_after_s ? BaseState::kLost : BaseState::kOccluded;
      track.seen_last_frame = false;
      track.pending.reset();
      track.recent.clear();
    }
  }
  for (const auto& [id, o] : seen) {
    auto [it, inserted] = tracks_.try_emplace(id);
    Track& t = it->second;
    TrackedBase& b = t.base;
    const cv::Point2d p = o->centre_in;
    if (inserted || !t.seen_last_frame) {
      // New, or back after an occlusion: the base may have been moved meanwhile. Start afresh
      // at the observation (same identity), moving until it is seen still again.
      b.marker_id = id;
      b.figure = names_.count(id) ? names_[id] : fmt::format("marker {}", id);
      b.centre_in = p;
      b.state = BaseState::kMoving;
      t.recent = {p};
      t.sum = {0, 0};
      t.count = 0;
      t.pending.reset();
    } else {
      const double jump = cv::norm(p - b.centre_in);
      if (jump > options_.max_speed_in_s * dt + 0.5) {
        // Too fast for a hand: a false or swapped detection, unless the next frame agrees.
        if (t.pending && cv::norm(p - *t.pending) < 0.5) {
          t.pending.reset();
          b.state = BaseState::kMoving;
          b.centre_in = p;
          t.recent = {p};
          t.count = 0;
        } else {
          t.pending = p;
          b.age_s = time_s - b.last_seen_s;
          continue;  // keep the previous state this frame
        }
      } else if (b.state == BaseState::kSettled) {
        const cv::Point2d mean = t.sum / std::max(1, t.count);
        if (cv::norm(p - mean) > options_.move_threshold_in) {
          b.state = BaseState::kMoving;
          b.centre_in = p;  // raw while moving: no lag
          t.recent = {p};
          t.count = 0;
        } else {
          if (t.count >= options_.smoothing_window) {
            t.sum -= mean;
            --t.count;
          }
          t.sum += p;
          ++t.count;
          b.centre_in = t.sum / t.count;
        }
      } else {
        t.recent.push_back(p);
        b.centre_in = p;
        const int n = options_.settle_frames;
        if (static_cast<int>(t.recent.size()) > n) t.recent.erase(t.recent.begin());
        bool still = static_cast<int>(t.recent.size()) >= n;
        for (std::size_t i = 0; still && i < t.recent.size(); ++i) {
          for (std::size_t j = i + 1; still && j < t.recent.size(); ++j) {
            still = cv::norm(t.recent[i] - t.recent[j]) <= options_.settle_radius_in;
          }
        }
        if (still) {
          b.state = BaseState::kSettled;
          t.sum = {0, 0};
          for (const auto& q : t.recent)
            t.sum += q;
          t.count = static_cast<int>(t.recent.size());
          b.centre_in = t.sum / t.count;
        } else {
          b.state = BaseState::kMoving;
        }
      }
      t.pending.reset();
    }
    b.radius_in = o->radius_in;
    b.angle_deg = o->angle_deg;
    b.confidence = o->confidence;
    b.last_seen_s = time_s;
    b.age_s = 0;
    t.seen_last_frame = true;
  }
  std::vector<TrackedBase> out;
  for (const auto& [id, t] : tracks_)
    out.push_back(t.base);
  return out;
}

TableState measure_table(std::int64_t frame, double time_s, std::vector<TrackedBase> bases,
                         std::vector<UnnamedBase> unnamed) {
  TableState s;
  s.frame = frame;
  s.time_s = time_s;
  s.bases = std::move(bases);
  s.unnamed = std::move(unnamed);
  Obstacles unnamed_bases;
  for (const auto& u : s.unnamed) {
    unnamed_bases.push_back(
        {fmt::format("unnamed base ({:.1f}, {:.1f})", u.centre_in.x, u.centre_in.y),
         Shape::make_circle({u.centre_in.x, u.centre_in.y}, u.radius_in)});
  }
  std::vector<std::size_t> settled;
  for (std::size_t i = 0; i < s.bases.size(); ++i) {
    const auto& b = s.bases[i];
    if (b.state == BaseState::kSettled) {
      settled.push_back(i);
    } else {
      s.not_measured.push_back(fmt::format("{} ({})", b.figure, to_string(b.state)));
    }
  }
  auto disc = [&](std::size_t i) {
    return Disc{{s.bases[i].centre_in.x, s.bases[i].centre_in.y}, s.bases[i].radius_in};
  };
  for (std::size_t ai = 0; ai < settled.size(); ++ai) {
    for (std::size_t bi = ai + 1; bi < settled.size(); ++bi) {
      const std::size_t a = settled[ai];
      const std::size_t b = settled[bi];
      Obstacles others = unnamed_bases;
      for (std::size_t k : settled) {
        if (k == a || k == b) continue;
        others.push_back(
            {s.bases[k].figure, Shape::make_circle(disc(k).centre, disc(k).radius_in)});
      }
      PairMeasure m;
      m.a = s.bases[a].figure;
      m.b = s.bases[b].figure;
      m.gap_in = gap_in(disc(a), disc(b));
      const LineOfFireResult lof = line_of_fire(disc(a), disc(b), others);
      m.line_of_fire = lof.clear;
      for (std::size_t k : lof.blockers)
        m.blockers.push_back(others[k].id);
      s.pairs.push_back(std::move(m));
    }
  }
  return s;
}

}  // namespace duels::vision
