#include "vision/evening.hpp"

#include <fmt/format.h>

#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <ostream>
#include <set>

#include "common/error.hpp"
#include "vision/pipeline.hpp"
#include "vision/render.hpp"

namespace duels::vision {
namespace {

constexpr double kFps = 10;
constexpr double kHandHeightIn = 5.5;  // a palm over the figures (4.5" tall)
constexpr double kPlacedS = 2.0;       // the bases stand placed, with no dice, this long
constexpr double kDiceOnS = 1.0;       // dice go on over this long at a round's start
constexpr double kTurnS = 3.0;         // one figure's turn: moved, then its dice rolled
constexpr double kReachS = 0.3;        // the hand reaching the base before it is lifted
constexpr double kCarryS = 1.0;        // the base carried to its new spot
constexpr double kSettleS = 1.0;       // after it is put down, before it is scored again
constexpr std::size_t kLagFrames = 5;  // a moving base's place may lag this many frames

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Dice put on `base` from `on_s`, as put_dice_on places them (clear of the figure and of one
// another), taken off at `off_s`.
void add_round_dice(SceneBaseSpec& base, int count, double on_s, double off_s, cv::RNG& rng) {
  SceneBaseSpec fresh = base;
  fresh.dice.clear();
  put_dice_on(fresh, count, rng);
  for (DieSpec& d : fresh.dice) {
    d.t_on_s = on_s + rng.uniform(0.0, kDiceOnS);
    d.t_off_s = off_s;
    base.dice.push_back(d);
  }
}

}  // namespace

std::vector<MatchSpot> spots_at(const EveningTable& table, double time_s) {
  std::map<std::string, cv::Point2d> at;
  std::vector<std::string> order;
  for (const SpotChange& c : table.spots) {
    if (c.time_s > time_s + 1e-9) break;
    if (!at.count(c.spot.figure)) order.push_back(c.spot.figure);
    at[c.spot.figure] = c.spot.centre_in;
  }
  std::vector<MatchSpot> out;
  for (const auto& f : order)
    out.push_back({f, at[f]});
  return out;
}

EveningTable evening_table(const EveningScenario& sc, int seed) {
  EveningTable out;
  CoverageScenario bare = sc.table;
  bare.dice_min = 0;
  bare.dice_max = 0;
  SceneSpec& s = out.spec = coverage_scene(bare, static_cast<std::uint64_t>(seed));
  s.fps = kFps;
  const calib::TablePlane plane(s.camera, s.table_to_camera, s.table);
  cv::RNG rng(static_cast<std::uint64_t>(seed) * 40503ULL + 977);
  std::vector<cv::Point2d> where;
  for (const auto& b : s.bases) {
    where.push_back({b.path.front().x_in, b.path.front().y_in});
    out.spots.push_back({0, {b.figure.empty() ? b.id : b.figure, where.back()}});
  }
  const auto clear_spot = [&](std::size_t mover, cv::Point2d c) {
    const double r = s.bases[mover].diameter_in / 2;
    for (std::size_t k = 0; k < where.size(); ++k) {
      if (k != mover && cv::norm(where[k] - c) < 2 * r + 0.5) return false;
    }
    for (double cx : {2.5, 57.5}) {
      for (double cy : {2.5, 57.5}) {
        if (std::abs(c.x - cx) < s.corner_marker_side_in / 2 + r + 0.3 &&
            std::abs(c.y - cy) < s.corner_marker_side_in / 2 + r + 0.3)
          return false;
      }
    }
    return c.x > r + 0.2 && c.y > r + 0.2 && c.x < s.table.width_in - r - 0.2 &&
           c.y < s.table.depth_in - r - 0.2 &&
           base_top_in_view(plane, c, r, s.bases[mover].height_in);
  };
  double t = kPlacedS;
  for (int round = 0; round < sc.rounds; ++round) {
    const double start = t;
    const double turns = start + kDiceOnS + 0.5;
    const double end = turns + sc.moves_per_round * kTurnS;
    // Dice go on every base as the round starts (a hand passing over the table), the rest are
    // taken off when it ends.
    std::vector<std::size_t> first_die(s.bases.size());
    for (std::size_t i = 0; i < s.bases.size(); ++i) {
      first_die[i] = s.bases[i].dice.size();
      if (sc.table.dice_max > 0) {
        add_round_dice(s.bases[i], rng.uniform(sc.table.dice_min, sc.table.dice_max + 1), start,
                       end - 0.3, rng);
      }
    }
    if (sc.hands) {
      const double y = rng.uniform(12.0, 48.0);
      const bool left = rng.uniform(0, 2) == 0;
      s.hands.push_back({start,
                         start + kDiceOnS,
                         {left ? 5.0 : 55.0, y},
                         {left ? 55.0 : 5.0, y + rng.uniform(-8.0, 8.0)},
                         kHandHeightIn,
                         1.6});
    }
    std::set<std::size_t> moved;
    for (int m = 0; m < sc.moves_per_round && moved.size() < s.bases.size(); ++m) {
      const double turn = turns + m * kTurnS;
      std::size_t who = 0;
      do {
        who = static_cast<std::size_t>(rng.uniform(0, static_cast<int>(s.bases.size())));
      } while (moved.count(who));
      moved.insert(who);
      SceneBaseSpec& b = s.bases[who];
      std::optional<cv::Point2d> to;
      for (int attempt = 0; attempt < 500 && !to; ++attempt) {
        const double a = rng.uniform(0.0, 2 * CV_PI);
        const double d = rng.uniform(3.0, 8.0);
        const cv::Point2d c = where[who] + d * cv::Point2d(std::cos(a), std::sin(a));
        if (clear_spot(who, c)) to = c;
      }
      if (!to) continue;
      const cv::Point2d from = where[who];
      const double facing = b.path.back().angle_deg;
      const double lift = turn + kReachS;
      const double down = lift + kCarryS;
      b.path.push_back({lift, from.x, from.y, facing});
      b.path.push_back({down, to->x, to->y, facing + rng.uniform(-90.0, 90.0)});
      if (sc.hands) {
        // The hand comes in from the player's side, carries the figure and goes back.
        const cv::Point2d near_side(from.x, from.y - 6);
        s.hands.push_back({turn, lift, near_side, from, kHandHeightIn, 1.4});
        s.hands.push_back({lift + 1e-3, down, from, *to, kHandHeightIn, 1.4});
        s.hands.push_back(
            {down + 1e-3, down + kReachS, *to, *to - cv::Point2d(0, 6), kHandHeightIn, 1.4});
      }
      where[who] = *to;
      const std::string name = b.figure.empty() ? b.id : b.figure;
      out.spots.push_back({down + sc.confirm_s, {name, *to}});
      out.moves.push_back({name, turn, down + kSettleS});
      // Its attack: one to three of its dice rolled and taken off, a few tenths apart.
      const std::size_t dice = b.dice.size() - first_die[who];
      const int rolled = std::min<int>(static_cast<int>(dice), rng.uniform(1, 4));
      for (int k = 0; k < rolled; ++k)
        b.dice[first_die[who] + static_cast<std::size_t>(k)].t_off_s = down + 0.6 + 0.3 * k;
    }
    t = end + 0.5;
  }
  s.duration_s = t + 1.0;
  std::stable_sort(out.spots.begin(), out.spots.end(),
                   [](const SpotChange& a, const SpotChange& b) { return a.time_s < b.time_s; });
  return out;
}

EveningResult run_evening(const EveningScenario& sc) {
  const int threads = cv::getNumThreads();
  cv::setNumThreads(1);
  EveningResult out;
  out.name = sc.table.name;
  std::vector<double> ms;
  for (int seed = sc.table.first_seed; seed < sc.table.first_seed + sc.table.seeds; ++seed) {
    const EveningTable table = evening_table(sc, seed);
    const SceneSpec& spec = table.spec;
    ++out.tables;
    out.moves += static_cast<int>(table.moves.size());
    const calib::TablePlane plane = misjudged_plane(spec, sc.table.lens_error, seed);
    RingIdentityOptions rings;
    rings.table_markers_in = table_markers_of(scene_corner_markers(spec));
    Pipeline pipeline(plane, base_map_from_scene(spec), {}, {}, {}, rings);
    auto scene = std::make_shared<const SceneRenderer>(spec);
    LiveRenderer renderer(scene, 1);
    Degradation degradation = sc.table.degradation;
    degradation.seed = degradation.seed * 1000 + static_cast<std::uint64_t>(seed);
    std::map<int, std::string> name_of;
    for (const auto& b : spec.bases)
      name_of[b.marker_id] = b.figure.empty() ? b.id : b.figure;
    if (sc.explain) {
      for (const SpotChange& c : table.spots) {
        if (c.time_s > 0)
          *sc.explain << fmt::format(
              "{} seed {}: {} moved to ({:.2f}, {:.2f}), confirmed at {:.1f} s\n", sc.table.name,
              seed, c.spot.figure, c.spot.centre_in.x, c.spot.centre_in.y, c.time_s);
      }
    }
    std::set<int> wrong_bases;
    std::map<int, std::vector<cv::Point2d>> recent;  // each base's true places, last frames
    std::map<int, std::pair<int, int>> tally;        // each base's frames right, scored
    std::map<int, std::vector<int>> missed;          // each base's frames not right
    long last_bad = 0;
    const int frames = spec.frame_count();
    for (int f = 0; f < frames; ++f) {
      const double time_s = f / spec.fps;
      FrameTruth truth;
      const cv::Mat clean = renderer.render(f, &truth);
      const cv::Mat frame = degrade(clean, degradation, f);
      if (sc.match) pipeline.set_match_spots(spots_at(table, time_s));
      const auto t0 = std::chrono::steady_clock::now();
      const PipelineResult r = pipeline.process(frame, f, time_s);
      ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      ++out.frames;
      for (const auto& b : truth.bases) {
        auto& h = recent[b.marker_id];
        h.push_back(b.centre_in);
        if (h.size() > kLagFrames + 1) h.erase(h.begin());
      }
      // Wrong: a name reported where its figure is not (seen this frame). A base on the move
      // is shown moving and not measured; there its place may lag the truth by a few frames.
      const auto off = [&](const TrackedBase& b) {
        const auto& h = recent[b.marker_id];
        if (b.state != BaseState::kMoving) return cv::norm(b.centre_in - h.back());
        double d = 1e300;
        for (const cv::Point2d& p : h)
          d = std::min(d, cv::norm(b.centre_in - p));
        return d;
      };
      for (const TrackedBase& b : r.state.bases) {
        const auto it = recent.find(b.marker_id);
        if (b.stale() || it == recent.end() || off(b) <= 1.0) continue;
        ++out.wrong;
        wrong_bases.insert(b.marker_id);
        if (sc.explain) {
          *sc.explain << fmt::format(
              "{} seed {} frame {}: {} ({}) reported at ({:.2f}, {:.2f}), {:.2f}\" from its "
              "place\n",
              sc.table.name, seed, f, name_of[b.marker_id], to_string(b.state), b.centre_in.x,
              b.centre_in.y, cv::norm(b.centre_in - it->second.back()));
        }
      }
      const long bad = out.wrong;
      for (const UnnamedBase& u : r.state.unnamed) {
        if (std::any_of(truth.bases.begin(), truth.bases.end(), [&](const BaseTruth& t) {
              return cv::norm(t.centre_in - u.centre_in) <= 1.0;
            }))
          continue;
        ++out.false_rings;
        if (sc.explain) {
          double nearest = 1e300;
          for (const BaseTruth& t : truth.bases)
            nearest = std::min(nearest, cv::norm(t.centre_in - u.centre_in));
          *sc.explain << fmt::format(
              "{} seed {} frame {}: false ring at ({:.2f}, {:.2f}), {:.2f}\" from the nearest "
              "base\n",
              sc.table.name, seed, f, u.centre_in.x, u.centre_in.y, nearest);
        }
      }
      if (!sc.save_dir.empty() && bad + out.false_rings > last_bad) {
        const std::string file = fmt::format("{}/evening-seed{}-frame{}.png", sc.save_dir, seed, f);
        if (!cv::imwrite(file, frame))
          throw DataException({file, 0, "--save", "a folder that exists and can be written"});
      }
      last_bad = bad + out.false_rings;
      // Scored: every base not being moved, from the first second on (a ring is named once it
      // has stood still three frames).
      if (time_s < 1.0 - 1e-9) continue;
      long scored = 0;
      long right = 0;
      for (const BaseTruth& t : truth.bases) {
        const std::string& name = name_of[t.marker_id];
        if (std::any_of(table.moves.begin(), table.moves.end(), [&](const EveningTable::Move& m) {
              return m.figure == name && time_s >= m.from_s - 1e-9 && time_s <= m.to_s + 1e-9;
            }))
          continue;
        ++scored;
        ++tally[t.marker_id].second;
        const bool visible = t.ring_visible >= 0.5;
        out.in_sight += visible ? 1 : 0;
        const auto it =
            std::find_if(r.state.bases.begin(), r.state.bases.end(),
                         [&](const TrackedBase& b) { return b.marker_id == t.marker_id; });
        const bool is_right = it != r.state.bases.end() && it->state != BaseState::kLost &&
                              cv::norm(it->centre_in - t.centre_in) <= 1.0;
        if (!is_right) missed[t.marker_id].push_back(f);
        if (is_right) {
          ++right;
          ++tally[t.marker_id].first;
          out.right_in_sight += visible ? 1 : 0;
          if (it->stale()) ++out.hidden_right;
        }
      }
      out.scored += scored;
      out.right += right;
      if (scored > 0)
        out.worst_frame =
            std::min(out.worst_frame, static_cast<double>(right) / static_cast<double>(scored));
    }
    out.wrong_bases += static_cast<int>(wrong_bases.size());
    if (sc.explain) {
      for (const auto& [id, n] : tally) {
        if (n.first >= 0.99 * n.second) continue;
        // The frames it was not, as ranges.
        std::string ranges;
        const std::vector<int>& m = missed[id];
        for (std::size_t a = 0; a < m.size();) {
          std::size_t b = a;
          while (b + 1 < m.size() && m[b + 1] == m[b] + 1)
            ++b;
          ranges +=
              fmt::format("{}{}", ranges.empty() ? "" : ", ",
                          a == b ? fmt::format("{}", m[a]) : fmt::format("{}-{}", m[a], m[b]));
          a = b + 1;
        }
        *sc.explain << fmt::format("{} seed {}: {} right in {} of {} frames (not in {})\n",
                                   sc.table.name, seed, name_of[id], n.first, n.second, ranges);
      }
    }
  }
  out.pipeline_ms = median(ms);
  cv::setNumThreads(threads);
  return out;
}

}  // namespace duels::vision
