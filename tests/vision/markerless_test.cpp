// Markerless mode (vision/markerless.hpp) on degraded webcam-like scenes: the seeded CI version
// of `duels bench coverage --target markerless` (not timed; the full run is the bench). Every
// base is named once by its true place at the first frame, as a player would with `--name`.
#include <gtest/gtest.h>

#include <cstdio>

#include "vision/coverage.hpp"
#include "vision/markerless.hpp"

namespace duels::vision {
namespace {

// A scenario of the bench (by its name), markerless, `seeds` tables of `frames` frames; checks
// the accuracy goal of issue 15 and gives the result.
CoverageResult markerless_scenario(const std::string& name, int seeds, int frames) {
  CoverageScenario sc;
  for (const auto& s : standard_coverage_scenarios(BaseTargetKind::kSquare)) {
    if (s.name == name) sc = s;
  }
  EXPECT_EQ(sc.name, name);
  sc.markerless = true;
  sc.seeds = seeds;
  sc.frames = frames;
  const CoverageResult r = run_coverage(sc);
  std::printf(
      "%s markerless: found %d/%d/%d of %d/%d/%d, centre p95 %.3f, gap p95 %.3f, "
      "%d unnamed\n",
      name.c_str(), r.found[0], r.found[1], r.found[2], r.all[0], r.all[1], r.all[2],
      r.centre_p95_in, r.gap_p95_in, r.unnamed);
  // The goal: every base located from its rim, never a centroid (before: centre p95 0.77").
  EXPECT_LE(r.centre_p95_in, 0.10);
  EXPECT_LE(r.gap_p95_in, 0.12);
  EXPECT_EQ(r.off_by_1in, 0);
  EXPECT_EQ(r.identity_switches, 0);
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
  // Unnamed discs: on the table's corner markers where the camera sees only part of them
  // (which the pipeline cannot find and so cannot leave out); 1 when written.
  EXPECT_LE(r.unnamed, 2);
}

// A 1080p webcam (65°, 61" at 45°, blur 1.2 px), one seed: 16 of 16 found when written.
TEST(Coverage, MarkerlessFindsBasesByTheirRimAt1080p) {
  const CoverageResult r = markerless_scenario("1080p 65deg 61in 45deg blur1.2", 1, 4);
  EXPECT_GE(r.found_total(), 15) << r.found_total() << "/" << r.all_total();
  EXPECT_LE(r.unnamed, 1);  // on corner markers seen in part (0 when written)
}

}  // namespace
}  // namespace duels::vision
