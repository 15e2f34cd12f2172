// Markerless mode (vision/markerless.hpp) on degraded webcam-like scenes: the seeded CI version
// of `duels bench coverage --target markerless` (not timed; the full run is the bench). Every
// base is named once by its true place at the first frame, as a player would with `--name`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "calib/table.hpp"
#include "tests/vision/coverage_goal.hpp"
#include "vision/coverage.hpp"
#include "vision/markerless.hpp"
#include "vision/pipeline.hpp"
#include "vision/render.hpp"

namespace duels::vision {
namespace {

// A scenario of the bench (by its name), markerless, `seeds` tables of `frames` frames; checks
// the accuracy goal of issue 15 and gives the result.
CoverageResult markerless_scenario(const std::string& name, int seeds, int frames,
                                   int first_seed = 1) {
  CoverageScenario sc;
  for (const auto& s : standard_coverage_scenarios(BaseTargetKind::kSquare)) {
    if (s.name == name) sc = s;
  }
  EXPECT_EQ(sc.name, name);
  sc.markerless = true;
  sc.seeds = seeds;
  sc.first_seed = first_seed;
  sc.frames = frames;
  const CoverageResult r = run_coverage(sc);
  std::printf(
      "%s markerless: found %d/%d/%d of %d/%d/%d, centre p95 %.3f, gap p95 %.3f, "
      "%d unnamed\n",
      name.c_str(), r.found[0], r.found[1], r.found[2], r.all[0], r.all[1], r.all[2],
      r.centre_p95_in, r.gap_p95_in, r.unnamed);
  // The goal: every base located from its rim, never a centroid (before: centre p95 0.77").
  expect_accuracy_goal(r);
  return r;
}

// The bench's first scenario (720p webcam, 70° field of view, 61" at 45°, figures facing
// anywhere, 6 of 16 bases packed 0.3" apart, blur 1 px, noise, JPEG 70, uneven light, lens
// off by 0.5 %), its 2 seeds: 31 of 32 found when written.
TEST(Coverage, MarkerlessFindsBasesByTheirRimAt720p) {
  const CoverageResult r = markerless_scenario("720p 70deg 61in 45deg blur1.0", 2, 6);
  EXPECT_GE(r.found_total(), 29) << r.found_total() << "/" << r.all_total();
  for (std::size_t k = 0; k < 3; ++k)
    EXPECT_GE(r.found[k], r.all[k] - 2) << "third " << k;
  // Unnamed discs: none (before the calibration's table markers were masked, 1 on a corner
  // marker the camera sees only in part and cannot find).
  EXPECT_EQ(r.unnamed, 0);
}

// A 1080p webcam (65°, 61" at 45°, blur 1.2 px), one seed: 16 of 16 found when written.
TEST(Coverage, MarkerlessFindsBasesByTheirRimAt1080p) {
  const CoverageResult r = markerless_scenario("1080p 65deg 61in 45deg blur1.2", 1, 4);
  EXPECT_GE(r.found_total(), 15) << r.found_total() << "/" << r.all_total();
  EXPECT_EQ(r.unnamed, 0);
}

// Seeds 6–8 of the bench's first scenario: in packed groups the third base's top-view peak lay
// a fifth of a radius off its centre, where neither rim search kept half its rim, and it was
// never found (44 of 48 found). Searched again from four points around such a peak: 46.
TEST(Coverage, MarkerlessFindsTheThirdBaseOfAPackedGroup) {
  const CoverageResult r = markerless_scenario("720p 70deg 61in 45deg blur1.0", 3, 6, 6);
  EXPECT_GE(r.found_total(), 46) << r.found_total() << "/" << r.all_total();
  EXPECT_EQ(r.unnamed, 0);
}

// Table 41 of the flat 1080p camera and table 45 of the 720p 75° camera: the third base of a
// packed group was never fitted, and a new disc fitted loosely 1.3–1.5" from it (pieced
// together from its rim and others') took its name and was reported there. A loose new disc
// is now matched against fits started round it: the base's own rim fits as well and wins.
TEST(Coverage, MarkerlessPutsNoPackedBaseWhereAFalseDiscBesideItStands) {
  const CoverageResult flat = markerless_scenario("1080p 60deg 75in 35deg blur1.2", 1, 6, 41);
  EXPECT_EQ(flat.off_by_1in, 0);
  EXPECT_EQ(flat.found_total(), flat.all_total());
  const CoverageResult wide = markerless_scenario("720p 75deg 55in 50deg blur1.2", 1, 6, 45);
  EXPECT_EQ(wide.off_by_1in, 0);
}

// Table 12 of the 720p 75° camera and table 34 of the flat 720p camera: a base's own disc was
// not found at the first frame, and a false disc 1.4" (2.7") from the point the base was named
// by took its name, more than 1" off (at frame 0; on table 34 at frames 6-8 too). A name now goes
// at once only to a disc within a base's radius of its point, within 3" after a second.
TEST(Coverage, MarkerlessGivesANameAtOnceOnlyToADiscWhereItPoints) {
  const CoverageResult wide = markerless_scenario("720p 75deg 55in 50deg blur1.2", 1, 10, 12);
  EXPECT_EQ(wide.off_by_1in, 0);
  EXPECT_EQ(wide.found_total(), wide.all_total());
  const CoverageResult flat = markerless_scenario("720p 60deg 75in 40deg blur1.2", 1, 10, 34);
  EXPECT_EQ(flat.off_by_1in, 0);
}

// The table's own markers, where the calibration put them (DiscOptions::table_markers_in), are
// masked from disc candidates even when the camera cannot find them: a base standing where a
// table marker is said to be is not reported, the others are.
TEST(Markerless, LooksForNoBaseOnTheTableMarkersOfItsOptions) {
  CoverageScenario sc;
  sc.size = {1920, 1080};
  sc.hfov_deg = 60;
  sc.distance_in = 50;
  sc.elevation_deg = 70;
  sc.bases = 6;
  sc.packed = 0;
  SceneSpec spec = coverage_scene(sc, 4);
  spec.bases.resize(std::min<std::size_t>(spec.bases.size(), 6));
  for (auto& b : spec.bases)
    b.figure_height_in = 0;
  SceneRenderer renderer(spec);
  FrameTruth truth;
  const cv::Mat img = renderer.render(0, &truth);
  ASSERT_GE(truth.bases.size(), 3U);
  const auto found = [&](const DiscOptions& discs) {
    MarkerlessPipeline p(renderer.plane(), discs);
    for (int f = 0; f < 3; ++f)
      p.process(img, f, f / 10.0);
    std::vector<bool> seen;
    for (const auto& t : truth.bases) {
      const auto& d = p.last_discs();
      seen.push_back(std::any_of(d.begin(), d.end(), [&](const cv::Point2d& c) {
        return cv::norm(c - t.centre_in) < 0.25;
      }));
    }
    return seen;
  };
  DiscOptions plain;
  plain.radius_in = spec.bases.front().diameter_in / 2;
  plain.top_height_in = spec.bases.front().height_in;
  DiscOptions masked = plain;
  calib::MarkerLayout layout;
  layout.markers.push_back({7, truth.bases[0].centre_in, 1.0});  // under base 0's centre
  masked.table_markers_in = table_markers_of(layout);
  const std::vector<bool> all = found(plain);
  const std::vector<bool> some = found(masked);
  EXPECT_TRUE(all[0]);
  EXPECT_FALSE(some[0]);
  for (std::size_t i = 1; i < truth.bases.size(); ++i) {
    EXPECT_TRUE(all[i]) << i;
    EXPECT_EQ(some[i], all[i]) << i;
  }
}

}  // namespace
}  // namespace duels::vision
