// Line of fire: analytic cases, the grazing rule, and property tests against dense sampling.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "duels/geometry.hpp"
#include "duels/geometry_oracle.hpp"
#include "tests/duels/geometry_test_util.hpp"

namespace duels {
namespace {

using testing::Rand;

Obstacle circle(const std::string& id, double x, double y, double r) {
  return {id, Shape::make_circle({x, y}, r)};
}
Obstacle box(const std::string& id, double x0, double y0, double x1, double y1) {
  return {id, Shape::make_polygon({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}})};
}

// A clear result must carry a genuine certificate: a segment from edge to edge touching nothing.
void expect_valid_witness(const LineOfFireResult& r, const Disc& a, const Disc& t,
                          const Obstacles& others) {
  ASSERT_TRUE(r.clear);
  EXPECT_NEAR(norm(r.witness.a - a.centre), a.radius_in, 1e-9);
  EXPECT_NEAR(norm(r.witness.b - t.centre), t.radius_in, 1e-9);
  for (const Obstacle& o : others)
    EXPECT_FALSE(touches(r.witness, o.shape)) << o.id;
  EXPECT_NEAR(r.gap_in, r.witness.length_in(), 1e-12);
  EXPECT_GE(r.gap_in, gap_in(a, t) - 1e-9);
  EXPECT_LE(r.chord_in, 2 * a.radius_in + 1e-12);
  EXPECT_TRUE(r.blockers.empty());
}

// ---- analytic cases -------------------------------------------------------------------------

TEST(LineOfFire, OpenTableUsesTheCentreLine) {
  const Disc a{{0, 0}, 1};
  const Disc t{{10, 0}, 1.5};
  const auto r = line_of_fire(a, t, {});
  expect_valid_witness(r, a, t, {});
  EXPECT_NEAR(r.gap_in, 7.5, 1e-12);
  EXPECT_NEAR(r.chord_in, 2.0, 1e-12);
  EXPECT_NEAR(r.witness.a.x, 1.0, 1e-12);
  EXPECT_NEAR(r.witness.b.x, 8.5, 1e-12);
}

TEST(LineOfFire, GapIsEdgeToEdge) {
  EXPECT_DOUBLE_EQ(gap_in({{0, 0}, 1}, {{3, 4}, 1.5}), 2.5);
  EXPECT_DOUBLE_EQ(gap_in({{0, 0}, 1}, {{2, 0}, 1}), 0.0);
  EXPECT_LT(gap_in({{0, 0}, 1}, {{1, 0}, 1}), 0.0);
}

TEST(LineOfFire, TouchingBasesSeeEachOtherWithZeroGap) {
  const Disc a{{0, 0}, 1};
  const Disc t{{2, 0}, 1};
  const Obstacles others = {circle("c", 1, 3, 1)};
  const auto r = line_of_fire(a, t, others);
  EXPECT_TRUE(r.clear);
  EXPECT_DOUBLE_EQ(r.gap_in, 0.0);
  EXPECT_NEAR(r.witness.a.x, 1.0, 1e-12);
}

TEST(LineOfFire, BlockerOnTheCentreLineLeavesASideGap) {
  const Disc a{{0, 0}, 1};
  const Disc t{{10, 0}, 1};
  const Obstacles others = {circle("pillar", 5, 0, 0.5)};
  const auto r = line_of_fire(a, t, others);
  expect_valid_witness(r, a, t, others);
  EXPECT_GT(r.gap_in, 8.0);
  EXPECT_LE(r.gap_in, oracle::sample_line_of_fire(a, t, others, 512).min_gap_in + 1e-9);
}

TEST(LineOfFire, ColinearRowOfEqualBasesIsBlockedBecauseTangentsTouch) {
  // The middle base fills the whole corridor: the only lines past it are the common tangents,
  // which touch it. Touching blocks.
  const Disc a{{0, 0}, 1};
  const Disc t{{8, 0}, 1};
  const auto r = line_of_fire(a, t, {circle("b", 4, 0, 1)});
  EXPECT_FALSE(r.clear);
  ASSERT_EQ(r.blockers.size(), 1u);
  EXPECT_EQ(r.blockers[0], 0u);
}

TEST(LineOfFire, ColinearRowWithASlightlySmallerMiddleBaseIsClear) {
  const Disc a{{0, 0}, 1};
  const Disc t{{8, 0}, 1};
  const Obstacles others = {circle("b", 4, 0, 0.999)};
  const auto r = line_of_fire(a, t, others);
  expect_valid_witness(r, a, t, others);
  EXPECT_GT(std::abs(r.witness.a.y), 0.99);
}

TEST(LineOfFire, LongColinearRowThroughSeveralBases) {
  const Disc a{{0, 0}, 1};
  const Disc t{{20, 0}, 1};
  const auto r =
      line_of_fire(a, t, {circle("b", 5, 0, 1), circle("c", 10, 0, 1), circle("d", 15, 0, 1)});
  EXPECT_FALSE(r.clear);
  EXPECT_EQ(r.blockers.size(), 1u);
}

TEST(LineOfFire, GrazingThroughTheContactOfTwoBlockersIsBlocked) {
  // Two blockers touching at (5, 0) seal the corridor; the only line between them grazes both.
  const Disc a{{0, 0}, 1};
  const Disc t{{10, 0}, 1};
  const Obstacles others = {circle("up", 5, 1, 1), circle("down", 5, -1, 1)};
  const auto r = line_of_fire(a, t, others);
  EXPECT_FALSE(r.clear);
  EXPECT_EQ(r.blockers, (std::vector<std::size_t>{0, 1}));  // neither blocks alone
  // Open the contact by a hair and the line exists.
  const Obstacles opened = {circle("up", 5, 1.001, 1), circle("down", 5, -1.001, 1)};
  const auto r2 = line_of_fire(a, t, opened);
  expect_valid_witness(r2, a, t, opened);
  EXPECT_NEAR(r2.witness.a.y, 0.0, 0.01);
}

TEST(LineOfFire, TangentBlockerTouchingTheCentreLineForcesASideLine) {
  const Disc a{{0, 0}, 1};
  const Disc t{{10, 0}, 1};
  for (const Obstacles& others :
       {Obstacles{circle("c", 5, 1, 1)}, Obstacles{box("crate", 4, 0, 6, 3)}}) {
    const auto r = line_of_fire(a, t, others);
    expect_valid_witness(r, a, t, others);
    EXPECT_LT(r.witness.a.y + r.witness.b.y, 0.0);  // passes below
    EXPECT_GT(r.gap_in, 8.0);
    EXPECT_LT(r.gap_in, 8.0 + 1e-4);  // the centre line nudged down by a hair
  }
}

TEST(LineOfFire, TangentBlockersOnTheOuterTangentsDoNotBlock) {
  const Disc a{{0, 0}, 1};
  const Disc t{{10, 0}, 1};
  const Obstacles others = {circle("up", 5, 2, 1), circle("down", 5, -2, 1), box("b", 3, 1, 7, 4)};
  const auto r = line_of_fire(a, t, others);
  expect_valid_witness(r, a, t, others);
  EXPECT_NEAR(r.gap_in, 8.0, 1e-12);
}

TEST(LineOfFire, TargetBehindAWallWithAGapNarrowerThanTheShooter) {
  // A wall at x = 20 with a 0.5" slot at y ∈ (9.75, 10.25); the shooter is 3" wide.
  const Disc a{{10, 10}, 1.5};
  const Obstacles wall = {box("lower", 19.5, 0, 20.5, 9.75), box("upper", 19.5, 10.25, 20.5, 30)};
  {
    const Disc t{{30, 10}, 1};
    const auto r = line_of_fire(a, t, wall);
    expect_valid_witness(r, a, t, wall);
    EXPECT_NEAR(r.gap_in, gap_in(a, t), 1e-12);
  }
  {
    // Off the slot's axis: the centre line hits the wall, but lines of slope 0.1–0.15 thread it.
    const Disc t{{30, 12}, 1};
    const auto r = line_of_fire(a, t, wall);
    expect_valid_witness(r, a, t, wall);
    EXPECT_GT(r.gap_in, gap_in(a, t));
  }
  {
    // Too far off: every line meeting both bases hits the upper wall.
    const Disc t{{30, 14}, 1};
    const auto r = line_of_fire(a, t, wall);
    EXPECT_FALSE(r.clear);
    EXPECT_EQ(r.blockers, (std::vector<std::size_t>{1}));
  }
}

TEST(LineOfFire, NonConvexTerrainIsHandled) {
  // A U-shaped wall open toward the target: the shooter sits inside the U.
  const Disc a{{5, 5}, 1};
  const Obstacles u = {
      {"u", Shape::make_polygon({{2, 2}, {8, 2}, {8, 3}, {3, 3}, {3, 7}, {8, 7}, {8, 8}, {2, 8}})}};
  const Disc front{{15, 5}, 1};
  expect_valid_witness(line_of_fire(a, front, u), a, front, u);
  const Disc behind{{-5, 5}, 1};
  EXPECT_FALSE(line_of_fire(a, behind, u).clear);
}

TEST(LineOfFire, ObstacleOverlappingTheShooterStillLetsOtherLinesThrough) {
  // Positions from a camera can overlap a little; lines from the free part of the base count.
  const Disc a{{0, 0}, 1};
  const Disc t{{10, 0}, 1};
  const Obstacles others = {circle("rock", 1.2, 0, 0.5), box("slab", 0.5, -3, 1.5, -0.4)};
  const auto r = line_of_fire(a, t, others);
  expect_valid_witness(r, a, t, others);
  EXPECT_GT(r.witness.a.y, 0.0);
}

TEST(LineOfFire, ChordShrinksWhenTheLineIsOffCentre) {
  const Disc a{{0, 0}, 1};
  const Disc t{{10, 0}, 1};
  const Obstacles others = {box("w", 4, -5, 6, 0.5)};  // only a strip y > 0.5 is open
  const auto r = line_of_fire(a, t, others);
  expect_valid_witness(r, a, t, others);
  EXPECT_LT(r.chord_in, 2.0);
  EXPECT_GT(r.chord_in, 0.0);
}

TEST(LineOfFire, ObstaclesOutsideTheCorridorAreIgnored) {
  const Disc a{{0, 0}, 1};
  const Disc t{{10, 0}, 1};
  const Obstacles others = {circle("far", 5, 10, 2), box("behind", -10, -1, -5, 1)};
  const auto r = line_of_fire(a, t, others);
  expect_valid_witness(r, a, t, others);
  EXPECT_NEAR(r.gap_in, 8.0, 1e-12);
}

// ---- property tests -------------------------------------------------------------------------

// A random duel: two bases and a few obstacles scattered around the line between them.
struct Duel {
  Disc a;
  Disc t;
  Obstacles others;
};

Duel random_duel(std::uint64_t seed, int max_obstacles = 6) {
  Rand rng(seed);
  Duel d;
  d.a = {{rng.uniform(15, 45), rng.uniform(15, 45)}, rng.uniform(0.5, 1.5)};
  const double ang = rng.uniform(0, 2 * std::numbers::pi);
  const double dist = rng.uniform(d.a.radius_in + 2.5, 25);
  d.t = {d.a.centre + testing::rotate({dist, 0}, ang), rng.uniform(0.5, 1.5)};
  const int n = 1 + rng.below(max_obstacles);
  for (int tries = 0; static_cast<int>(d.others.size()) < n && tries < 100; ++tries) {
    const double along = rng.uniform(0.1, 0.9);
    const Vec2 at = d.a.centre + (d.t.centre - d.a.centre) * along +
                    testing::rotate({0, rng.uniform(-2.5, 2.5)}, ang);
    Shape s = testing::random_shape(rng, at, rng.uniform(0.3, 2.0));
    if (testing::overlaps(s, d.a, 1e-3) || testing::overlaps(s, d.t, 1e-3)) continue;
    d.others.push_back({"o" + std::to_string(d.others.size()), std::move(s)});
  }
  return d;
}

Obstacles offset_all(const Obstacles& others, double eps) {
  Obstacles out;
  for (const Obstacle& o : others)
    out.push_back({o.id, testing::offset(o.shape, eps)});
  return out;
}

TEST(LineOfFireProperty, ClearVerdictsCarryValidWitnessesAndBlockedOnesSurviveSampling) {
  int clear = 0;
  int blocked = 0;
  for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
    const Duel d = random_duel(seed);
    const auto r = line_of_fire(d.a, d.t, d.others);
    if (r.clear) {
      ++clear;
      expect_valid_witness(r, d.a, d.t, d.others);
    } else {
      ++blocked;
      ASSERT_FALSE(r.blockers.empty()) << "seed " << seed;
      // The blockers alone block, and no clear segment with real clearance exists.
      Obstacles only;
      for (std::size_t k : r.blockers)
        only.push_back(d.others[k]);
      EXPECT_FALSE(line_of_fire(d.a, d.t, only).clear) << "seed " << seed;
      const auto s = oracle::sample_line_of_fire(d.a, d.t, d.others, 64);
      EXPECT_TRUE(!s.clear || s.best_clearance_in < 1e-6)
          << "seed " << seed << ": sampling found clearance " << s.best_clearance_in;
    }
    if (::testing::Test::HasFailure()) FAIL() << "seed " << seed;
  }
  // The generator must produce both kinds, or the test proves little.
  EXPECT_GT(clear, 600);
  EXPECT_GT(blocked, 600);
}

TEST(LineOfFireProperty, AgreesWithDenseSamplingAndFindsTheShortestClearSegment) {
  // Dense sampling (256 points per edge, spacing ≤ 0.025") finds every line of fire with
  // clearance ≥ 0.03", so "clear with obstacles grown by 0.03" ⇒ sampling finds one"; and no
  // sampled clear segment is shorter than our witness.
  int compared = 0;
  for (std::uint64_t seed = 5001; seed <= 5300; ++seed) {
    const Duel d = random_duel(seed, 4);
    const auto r = line_of_fire(d.a, d.t, d.others);
    const auto s = oracle::sample_line_of_fire(d.a, d.t, d.others, 256);
    if (s.clear) {
      ASSERT_TRUE(r.clear) << "seed " << seed;
      EXPECT_LE(r.gap_in, s.min_gap_in + 1e-6) << "seed " << seed;
      ++compared;
    }
    if (line_of_fire(d.a, d.t, offset_all(d.others, 0.03)).clear) {
      EXPECT_TRUE(s.clear) << "seed " << seed;
    }
    if (::testing::Test::HasFailure()) FAIL() << "seed " << seed;
  }
  EXPECT_GT(compared, 100);
}

// Whether a scene is within `eps` of a tangency (its verdict flips when obstacles grow/shrink).
bool near_tangency(const Duel& d, double eps) {
  return line_of_fire(d.a, d.t, offset_all(d.others, eps)).clear !=
         line_of_fire(d.a, d.t, offset_all(d.others, -eps)).clear;
}

TEST(LineOfFireProperty, InvariantUnderRotationTranslationAndSwap) {
  int flips = 0;
  for (std::uint64_t seed = 9001; seed <= 11000; ++seed) {
    const Duel d = random_duel(seed);
    Rand rng(seed * 7919);
    const double ang = rng.uniform(0, 2 * std::numbers::pi);
    const Vec2 shift{rng.uniform(-30, 30), rng.uniform(-30, 30)};
    Duel m;
    m.a = {testing::rotate(d.a.centre, ang) + shift, d.a.radius_in};
    m.t = {testing::rotate(d.t.centre, ang) + shift, d.t.radius_in};
    for (const Obstacle& o : d.others)
      m.others.push_back({o.id, testing::transform(o.shape, ang, shift)});

    const auto r = line_of_fire(d.a, d.t, d.others);
    const auto moved = line_of_fire(m.a, m.t, m.others);
    const auto swapped = line_of_fire(d.t, d.a, d.others);
    if (r.clear != moved.clear || r.clear != swapped.clear) {
      ++flips;
      EXPECT_TRUE(near_tangency(d, 1e-6)) << "seed " << seed;
      continue;
    }
    if (r.clear) {
      EXPECT_NEAR(r.gap_in, moved.gap_in, 1e-6) << "seed " << seed;
      EXPECT_NEAR(r.gap_in, swapped.gap_in, 1e-6) << "seed " << seed;
    } else {
      EXPECT_EQ(r.blockers, moved.blockers) << "seed " << seed;
      EXPECT_EQ(r.blockers, swapped.blockers) << "seed " << seed;
    }
    if (::testing::Test::HasFailure()) FAIL() << "seed " << seed;
  }
  EXPECT_LE(flips, 2);
}

}  // namespace
}  // namespace duels
