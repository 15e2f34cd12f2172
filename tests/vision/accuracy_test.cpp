// Accuracy of marker mode on synthetic scenes with ground truth: 1920x1080, camera 1.3 m from a
// 60"x60" table at 45 degrees (the issue's set-up), bases spread over the whole table.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "duels/geometry.hpp"
#include "vision/markerless.hpp"
#include "vision/pipeline.hpp"
#include "vision/render.hpp"

namespace duels::vision {
namespace {

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto i = static_cast<std::size_t>(pos);
  const double f = pos - static_cast<double>(i);
  return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

// The issue's camera: 1080p webcam (calib's example lens), 51.2" (1.3 m) from the table centre
// region at 45 degrees.
SceneSpec issue_scene(std::uint64_t seed, double diameter, double marker_side, double figure_h,
                      double marker_offset_in = 0.28) {
  SceneSpec s;
  s.name = "accuracy";
  s.seed = seed;
  s.fps = 10;
  s.duration_s = 0.1;
  s.camera = calib::example_webcam_1080p();
  s.table_to_camera = camera_pose_over_table({30, 24}, 51.2, 45, 0);
  s.look.supersample = 3;
  s.look.motion_blur = false;
  cv::RNG rng(seed);
  // Random non-overlapping bases over the whole table.
  int next_marker = 10;
  for (int attempt = 0; attempt < 2000 && s.bases.size() < 24; ++attempt) {
    const double r = diameter / 2;
    const cv::Point2d c(rng.uniform(r + 0.5, 60 - r - 0.5), rng.uniform(r + 0.5, 60 - r - 0.5));
    bool clear = true;
    for (const auto& b : s.bases)
      clear &= cv::norm(c - cv::Point2d(b.path[0].x_in, b.path[0].y_in)) > diameter + 1.5;
    // Keep clear of the corner registration markers.
    for (double cx : {2.5, 57.5}) {
      for (double cy : {2.5, 57.5})
        clear &= cv::norm(c - cv::Point2d(cx, cy)) > r + 4;
    }
    if (!clear) continue;
    SceneBaseSpec b;
    b.id = fmt::format("b{}", next_marker);
    b.marker_id = next_marker++;
    b.diameter_in = diameter;
    b.height_in = 0.75;
    b.marker_side_in = marker_side;
    b.marker_offset_in = {0, marker_offset_in};
    b.figure_height_in = figure_h;
    // Facing the camera, give or take (the figure stands behind its marker).
    b.path.push_back({0, c.x, c.y, -90 + rng.uniform(-60.0, 60.0)});
    s.bases.push_back(b);
  }
  return s;
}

// Line of fire between two bases among others, with every obstacle grown or shrunk by `grow`.
bool lof(const std::vector<Disc>& discs, std::size_t a, std::size_t b, double grow) {
  Obstacles others;
  for (std::size_t k = 0; k < discs.size(); ++k) {
    if (k == a || k == b) continue;
    others.push_back({"o", Shape::make_circle(discs[k].centre, discs[k].radius_in + grow)});
  }
  return line_of_fire(discs[a], discs[b], others).clear;
}

// Whole-table accuracy for one base/marker size: two seeded scenes of 24 bases each.
struct WholeTable {
  int expected = 0;
  int found = 0;
  int lof_wrong = 0;
  double centre_median = 0;
  double centre_p95 = 0;
  double gap_p95 = 0;
};

WholeTable whole_table(double diameter, double marker_side, double marker_offset_in) {
  std::vector<double> centre_err;
  std::vector<double> gap_err;
  int expected = 0;
  int found = 0;
  int lof_checked = 0;
  int lof_wrong = 0;
  int lof_near_tangent = 0;
  std::vector<double> missed_y;
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    SceneRenderer renderer(issue_scene(seed, diameter, marker_side, 4.5, marker_offset_in));
    FrameTruth truth;
    const cv::Mat image = renderer.render(0, &truth);
    Pipeline p(renderer.plane(), base_map_from_scene(renderer.spec()));
    const auto r = p.process(image, 0, 0);
    std::vector<Disc> est;
    std::vector<Disc> tru;
    for (const auto& t : truth.bases) {
      ++expected;
      const auto it =
          std::find_if(r.observations.begin(), r.observations.end(),
                       [&](const BaseObservation& o) { return o.marker_id == t.marker_id; });
      if (it == r.observations.end()) {
        missed_y.push_back(t.centre_in.y);
        continue;
      }
      ++found;
      centre_err.push_back(cv::norm(it->centre_in - t.centre_in));
      est.push_back({{it->centre_in.x, it->centre_in.y}, it->radius_in});
      tru.push_back({{t.centre_in.x, t.centre_in.y}, t.radius_in});
    }
    for (std::size_t a = 0; a < est.size(); ++a) {
      for (std::size_t b = a + 1; b < est.size(); ++b) {
        gap_err.push_back(std::abs(gap_in(est[a], est[b]) - gap_in(tru[a], tru[b])));
        // Verdicts within 0.1" of tangency are exempt: growing or shrinking every obstacle by
        // 0.1" flips them.
        const bool truth_clear = lof(tru, a, b, 0);
        if (lof(tru, a, b, 0.1) != lof(tru, a, b, -0.1)) {
          ++lof_near_tangent;
          continue;
        }
        ++lof_checked;
        lof_wrong += lof(est, a, b, 0) != truth_clear;
      }
    }
  }
  std::sort(missed_y.begin(), missed_y.end());
  std::string missed;
  for (double y : missed_y)
    missed += fmt::format(" {:.0f}", y);
  std::printf(
      "accuracy 1920x1080, 51.2\" at 45 deg, %.1f\" bases with %.1f\" DICT_4X4_50 markers, 4.5\" "
      "figures:\n"
      "  found %d/%d bases (missed at table depth y =%s)\n"
      "  centre error median %.4f in, p95 %.4f in, max %.4f in\n"
      "  gap error p95 %.4f in over %zu pairs\n"
      "  line of fire: %d/%d verdicts wrong (%d pairs within 0.1\" of tangency exempt)\n",
      diameter, marker_side, found, expected, missed.c_str(), percentile(centre_err, 0.5),
      percentile(centre_err, 0.95), percentile(centre_err, 1.0), percentile(gap_err, 0.95),
      gap_err.size(), lof_wrong, lof_checked, lof_near_tangent);
  return {expected,
          found,
          lof_wrong,
          percentile(centre_err, 0.5),
          percentile(centre_err, 0.95),
          percentile(gap_err, 0.95)};
}

// 1" markers on 2" bases: read to about 30" deep from this camera; beyond, a marker is under
// 8 px tall and is not found (reported, never guessed).
TEST(Accuracy, WholeTableAt1080p) {
  const WholeTable r = whole_table(2.0, 1.0, 0.28);
  EXPECT_GE(r.found, r.expected * 3 / 4);
  EXPECT_LE(r.centre_median, 0.05);
  EXPECT_LE(r.centre_p95, 0.15);
  EXPECT_LE(r.gap_p95, 0.1);
  EXPECT_EQ(r.lof_wrong, 0);
}

// A scripted match: three figures, moves, two hands sweeping over them. Checks the tracker
// against the truth frame by frame.
TEST(ScriptedMatch, NoIdentitySwitchNoStaleMeasurementEveryOcclusionReported) {
  const std::string text = R"(schema_version: 1
seed: 11
fps: 10
duration: 6
table: {width: 60, depth: 60, corner_markers: 4}
camera: {width: 1920, height: 1080, fx: 1000, distance: 51.2, elevation: 45, target: [30, 24],
         dist: [-0.12, 0.08, 0.0008, -0.0005, -0.02]}
look: {supersample: 1, noise: 2.0, blur: 0.6, motion_blur: true, lighting: 0.25}
bases:
  - {id: razor, marker: 10, marker_offset: [0, 0.28], colour: [40, 50, 190],
     path: [{t: 0, x: 18, y: 14, angle: -80}, {t: 0.8, x: 18, y: 14}, {t: 2.0, x: 24, y: 20, angle: -60}]}
  - {id: hex, marker: 12, marker_offset: [0, 0.28], colour: [60, 160, 60],
     path: [{t: 0, x: 30, y: 16, angle: -100}]}
  - {id: gridlock, marker: 11, marker_offset: [0, 0.28], colour: [170, 110, 40],
     path: [{t: 0, x: 40, y: 26, angle: -110}, {t: 3.0, x: 40, y: 26}, {t: 4.0, x: 36, y: 23}]}
hands:
  - {t0: 2.2, t1: 3.4, from: [64, 26], to: [26, 24], height: 4, radius: 1.8}
  - {t0: 4.4, t1: 5.2, from: [-4, 14], to: [36, 18], height: 3, radius: 1.6}
)";
  SceneRenderer renderer(parse_scene_spec(text, "match.yaml"));
  Pipeline pipeline(renderer.plane(), base_map_from_scene(renderer.spec()));
  int identity_switches = 0;
  int stale_measured = 0;
  int occlusions = 0;
  int occlusions_reported = 0;
  int settled_frames = 0;
  std::vector<double> settled_err;
  const int frames = renderer.spec().frame_count();
  for (int i = 0; i < frames; ++i) {
    FrameTruth truth;
    const cv::Mat image = renderer.render(i, &truth);
    const auto r = pipeline.process(image, i, truth.time_s);
    for (const auto& t : truth.bases) {
      const auto it =
          std::find_if(r.state.bases.begin(), r.state.bases.end(),
                       [&](const TrackedBase& b) { return b.marker_id == t.marker_id; });
      const bool seen = it != r.state.bases.end() && it->age_s == 0 && !it->stale();
      if (t.marker_visible == 0) {
        ++occlusions;
        occlusions_reported += !seen;
      }
      if (!seen) continue;
      // Seen now: it must be where that very base is (an identity switch would put it elsewhere).
      if (cv::norm(it->centre_in - t.centre_in) > 0.6) ++identity_switches;
      if (it->state == BaseState::kSettled) {
        ++settled_frames;
        settled_err.push_back(cv::norm(it->centre_in - t.centre_in));
      }
    }
    // Measurements use settled bases only, each seen in this very frame and where it truly is
    // now (a position from before a move would be stale).
    for (const auto& p : r.state.pairs) {
      for (const std::string& name : {p.a, p.b}) {
        const auto b = std::find_if(r.state.bases.begin(), r.state.bases.end(),
                                    [&](const TrackedBase& x) { return x.figure == name; });
        const auto t = std::find_if(truth.bases.begin(), truth.bases.end(),
                                    [&](const BaseTruth& x) { return x.id == name; });
        if (b == r.state.bases.end() || t == truth.bases.end() || b->state != BaseState::kSettled ||
            b->age_s != 0 || cv::norm(b->centre_in - t->centre_in) > 0.15) {
          ++stale_measured;
        }
      }
    }
  }
  std::printf(
      "scripted match: %d frames, %d identity switches, %d stale measurements, "
      "%d/%d full occlusions reported, settled error median %.4f in p95 %.4f in over %d\n",
      frames, identity_switches, stale_measured, occlusions_reported, occlusions,
      percentile(settled_err, 0.5), percentile(settled_err, 0.95), settled_frames);
  EXPECT_GT(occlusions, 0);  // the hands must really hide something, or the test proves nothing
  EXPECT_EQ(identity_switches, 0);
  EXPECT_EQ(stale_measured, 0);
  EXPECT_EQ(occlusions_reported, occlusions);
  EXPECT_LE(percentile(settled_err, 0.95), 0.15);
}

// Markerless mode on the same scenes, reported beside marker mode (no accuracy goal yet: the
// test only guards against it getting worse than this first version).
TEST(Accuracy, MarkerlessWholeTableAt1080p) {
  std::vector<double> centre_err;
  int expected = 0;
  int found = 0;
  int false_discs = 0;
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    SceneRenderer renderer(issue_scene(seed, 2.0, 1.0, 4.5));
    FrameTruth truth;
    const cv::Mat image = renderer.render(0, &truth);
    const DiscFinder finder(renderer.plane());
    const auto discs = finder.find(image);
    std::vector<bool> used(discs.size(), false);
    for (const auto& t : truth.bases) {
      ++expected;
      double best = 1e9;
      std::size_t best_i = 0;
      for (std::size_t i = 0; i < discs.size(); ++i) {
        const double d = cv::norm(discs[i] - t.centre_in);
        if (d < best) {
          best = d;
          best_i = i;
        }
      }
      if (best < 1.0 && !used[best_i]) {
        used[best_i] = true;
        ++found;
        centre_err.push_back(best);
      }
    }
    false_discs += static_cast<int>(std::count(used.begin(), used.end(), false));
  }
  std::printf(
      "markerless: found %d/%d bases, %d false discs, centre error median %.4f in, "
      "p95 %.4f in\n",
      found, expected, false_discs, percentile(centre_err, 0.5), percentile(centre_err, 0.95));
  EXPECT_GE(found, expected / 2);
  EXPECT_LE(percentile(centre_err, 0.5), 0.25);
}

}  // namespace
}  // namespace duels::vision
