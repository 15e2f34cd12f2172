// The coverage map (calib/coverage) against the detector: on a rendered table full of bases,
// the spots the map calls readable are where the pipeline reads the markers, and the spots it
// calls too small are where it does not. This ties the map's 2-pixels-per-cell limit to what
// the vision pipeline really reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "calib/coverage.hpp"
#include "vision/pipeline.hpp"
#include "vision/render.hpp"

namespace duels::vision {
namespace {

// The vision tests' camera (1080p, 51.2" from the table at 45°), bases without figures on an
// 8" grid over the whole table, each turned its own way.
SceneSpec grid_scene(double marker_side) {
  SceneSpec s;
  s.name = "coverage";
  s.seed = 5;
  s.fps = 10;
  s.duration_s = 0.1;
  s.camera = calib::example_webcam_1080p();
  s.table_to_camera = camera_pose_over_table({30, 24}, 51.2, 45, 0);
  s.look.supersample = 2;
  s.look.motion_blur = false;
  int id = 4;  // 0-3 are the table's corner markers
  for (double y = 6; y <= 54; y += 8) {
    for (double x = 6; x <= 54; x += 8) {
      if ((x < 10 || x > 50) && (y < 10 || y > 50)) continue;  // the corner markers' spots
      SceneBaseSpec b;
      b.id = "b" + std::to_string(id);
      b.marker_id = id++;
      b.diameter_in = 2.5;
      b.height_in = 0.75;
      b.marker_side_in = marker_side;
      b.marker_offset_in = {0, 0};
      b.figure_height_in = 0;
      b.path.push_back({0, x, y, 37.0 * id});
      s.bases.push_back(b);
    }
  }
  return s;
}

struct Agreement {
  int sure_readable = 0;  ///< the map says readable with 15 % to spare
  int sure_readable_found = 0;
  int sure_small = 0;  ///< the map says too small, with under 60 % of the pixels needed
  int sure_small_found = 0;
};

Agreement agreement(double marker_side) {
  const SceneRenderer renderer(grid_scene(marker_side));
  FrameTruth truth;
  const cv::Mat image = renderer.render(0, &truth);
  Pipeline pipeline(renderer.plane(), base_map_from_scene(renderer.spec()));
  const auto result = pipeline.process(image, 0, 0);
  calib::BaseTargetSpec target;
  target.side_in = marker_side;
  const calib::TableCoverage map = calib::table_coverage(renderer.plane(), target, 1.0);
  Agreement a;
  for (const auto& t : truth.bases) {
    const auto col = std::clamp(static_cast<int>(t.centre_in.x), 0, map.cols - 1);
    const auto row = std::clamp(static_cast<int>(t.centre_in.y), 0, map.rows - 1);
    const calib::TableCoverageCell& cell = map.at(col, row);
    const bool found =
        std::any_of(result.observations.begin(), result.observations.end(),
                    [&](const BaseObservation& o) { return o.marker_id == t.marker_id; });
    if (std::getenv("DUELS_COVERAGE_DUMP"))
      std::printf("  %.2f %d %d\n", cell.px_per_cell, cell.in_view ? 1 : 0, found ? 1 : 0);
    if (cell.in_view && cell.px_per_cell >= 1.15 * target.min_px_per_cell) {
      ++a.sure_readable;
      a.sure_readable_found += found;
    } else if (cell.in_view && cell.px_per_cell <= 0.6 * target.min_px_per_cell) {
      ++a.sure_small;
      a.sure_small_found += found;
    }
  }
  std::printf(
      "coverage vs detection, %.2f\" markers: readable by the map %d, found %d; too small by the "
      "map %d, found %d\n",
      marker_side, a.sure_readable, a.sure_readable_found, a.sure_small, a.sure_small_found);
  return a;
}

// Measured here (clean renders, every facing): every marker with at least 1.6 px per cell at
// its worst facing is read, between 1.1 and 1.6 px some are, under 1.1 px almost none. The
// map's limit of 2 px keeps a quarter in hand for a real webcam's blur and noise; it calls a
// spot readable only where a marker is read whichever way its base faces.
TEST(CoverageAgreement, TheMapSaysWhereThePipelineReadsMarkers) {
  Agreement all;
  for (double side : {1.0, 1.25}) {
    const Agreement a = agreement(side);
    EXPECT_EQ(a.sure_readable_found, a.sure_readable) << side;
    all.sure_readable += a.sure_readable;
    all.sure_small += a.sure_small;
    all.sure_small_found += a.sure_small_found;
  }
  ASSERT_GT(all.sure_readable, 20);
  ASSERT_GE(all.sure_small, 4);
  EXPECT_LE(all.sure_small_found, all.sure_small / 4);
}

}  // namespace
}  // namespace duels::vision
