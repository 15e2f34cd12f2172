// Reachable region: analytic areas, exact per-cell agreement, and brute-force oracles.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "duels/geometry.hpp"
#include "duels/geometry_oracle.hpp"
#include "tests/duels/geometry_test_util.hpp"

namespace duels {
namespace {

using testing::Rand;
constexpr double kPi = std::numbers::pi;

Obstacle circle(const std::string& id, double x, double y, double r) {
  return {id, Shape::make_circle({x, y}, r)};
}

Vec2 cell_centre(const ReachResult& r, int i, int j) {
  return {(r.first_col + i + 0.5) * r.cell_in, (r.first_row + j + 0.5) * r.cell_in};
}
bool cell(const ReachResult& r, int i, int j) {
  return r.mask[static_cast<std::size_t>(j) * static_cast<std::size_t>(r.cols) +
                static_cast<std::size_t>(i)] != 0;
}

TEST(Reach, OpenTableIsADiscOfTheAllowance) {
  const Disc m{{30, 30}, 1};
  const auto r = reachable_region(m, 10, {});
  EXPECT_NEAR(r.area_in2, kPi * 100, 0.5);
  EXPECT_TRUE(r.contains({39.9, 30}));
  EXPECT_FALSE(r.contains({40.1, 30}));
  EXPECT_TRUE(r.contains({30, 30}));
}

TEST(Reach, TheTableEdgeClipsTheRegion) {
  // In a corner: only a quarter of the disc is on the table (the centre stays ≥ r from edges).
  const Disc m{{1, 1}, 1};
  const auto r = reachable_region(m, 8, {});
  EXPECT_NEAR(r.area_in2, kPi * 64 / 4, 0.3);
}

TEST(Reach, FriendlyBasesArePassedOpposingOnesGoneAround) {
  const Disc m{{10, 10}, 1};
  MoveObstacles w;
  w.friendly_bases = {circle("pal", 14, 10, 1)};
  const auto friendly = reachable_region(m, 7, w);
  EXPECT_TRUE(friendly.contains({16.5, 10}));   // straight through the friend: 6.5"
  EXPECT_FALSE(friendly.contains({14.5, 10}));  // but not ending on it
  w.opposing_bases = w.friendly_bases;
  w.friendly_bases.clear();
  const auto opposing = reachable_region(m, 7, w);
  EXPECT_FALSE(opposing.contains({16.5, 10}));  // around the foe it is 7.86"
  EXPECT_TRUE(opposing.contains({14, 12.5}));
  EXPECT_LT(opposing.area_in2, friendly.area_in2);
}

TEST(Reach, ABaseThatCannotMoveReachesNothing) {
  const Disc m{{10, 10}, 1};
  MoveObstacles w;
  w.terrain = {circle("rock", 10.5, 10, 1)};
  const auto r = reachable_region(m, 5, w);
  EXPECT_FALSE(r.start_problem.empty());
  EXPECT_EQ(r.area_in2, 0.0);
}

// A random table around one base with terrain and other bases near it.
struct ReachCase {
  Disc mover;
  double move = 0;
  MoveObstacles world;
};

ReachCase random_reach(std::uint64_t seed) {
  Rand rng(seed);
  ReachCase c;
  c.world.table = {36, 36};
  c.mover = {{rng.uniform(10, 26), rng.uniform(10, 26)}, rng.uniform(0.6, 1.2)};
  c.move = rng.uniform(4, 9);
  const int n = 3 + rng.below(5);
  for (int i = 0; i < n; ++i) {
    Vec2 at;
    for (int tries = 0; tries < 50; ++tries) {
      at = c.mover.centre + testing::rotate({rng.uniform(2.5, 9), 0}, rng.uniform(0, 2 * kPi));
      if (norm(at - c.mover.centre) > 2.5) break;
    }
    const int kind = rng.below(4);
    const std::string id = "o" + std::to_string(i);
    if (kind == 0) {
      c.world.opposing_bases.push_back(circle(id, at.x, at.y, rng.uniform(0.5, 1.2)));
    } else if (kind == 1) {
      c.world.friendly_bases.push_back(circle(id, at.x, at.y, rng.uniform(0.5, 1.2)));
    } else {
      c.world.terrain.push_back({id, testing::random_shape(rng, at, rng.uniform(0.8, 3))});
    }
  }
  // Keep the mover's own spot legal.
  auto clear_of = [&](const Obstacles& obs) {
    Obstacles out;
    for (const Obstacle& o : obs) {
      if (distance_in(c.mover.centre, o.shape) > c.mover.radius_in + 0.05) out.push_back(o);
    }
    return out;
  };
  c.world.terrain = clear_of(c.world.terrain);
  c.world.opposing_bases = clear_of(c.world.opposing_bases);
  c.world.friendly_bases = clear_of(c.world.friendly_bases);
  return c;
}

TEST(ReachProperty, EveryCellIsClassifiedExactlyByItsCentre) {
  // The block shortcuts must never change a cell's verdict.
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const ReachCase c = random_reach(seed);
    const auto r = reachable_region(c.mover, c.move, c.world);
    const MoveField field(c.mover, c.world);
    int in = 0;
    for (int j = 0; j < r.rows; ++j) {
      for (int i = 0; i < r.cols; ++i) {
        const Vec2 p = cell_centre(r, i, j);
        const bool expected = field.legal_end(p) && field.distance_to(p) <= c.move;
        ASSERT_EQ(cell(r, i, j), expected) << "seed " << seed << " at " << p.x << "," << p.y;
        in += expected ? 1 : 0;
      }
    }
    EXPECT_NEAR(r.area_in2, in * r.cell_in * r.cell_in, 1e-9);
    EXPECT_GT(in, 1000);
  }
}

TEST(ReachProperty, ContainsTheGridSearchRegionAndTheRestIsConfirmed) {
  // A grid path is a legal path, so every cell the grid search reaches must be in our region.
  // Grid paths zig-zag (16 neighbours: up to ~1.3% longer), so the grid reaches a little less;
  // every cell we add must be confirmed by the circumscribed-polygon oracle, whose paths are
  // legal and at most a few thousandths of an inch longer than exact ones.
  for (std::uint64_t seed = 11; seed <= 12; ++seed) {
    const ReachCase c = random_reach(seed);
    const auto r = reachable_region(c.mover, c.move, c.world);
    const auto g = oracle::grid_reach(c.mover, c.move, c.world);
    const oracle::PolygonPaths upper(c.mover, c.world, 96, true);
    ASSERT_EQ(g.cols, r.cols);
    ASSERT_EQ(g.rows, r.rows);
    int extra = 0;
    for (int j = 0; j < r.rows; ++j) {
      for (int i = 0; i < r.cols; ++i) {
        const Vec2 p = cell_centre(r, i, j);
        if (cell(g, i, j)) {
          ASSERT_TRUE(cell(r, i, j)) << "seed " << seed << " at " << p.x << "," << p.y;
        } else if (cell(r, i, j)) {
          ++extra;
          ASSERT_LE(upper.distance_to(p), c.move + 0.01)
              << "seed " << seed << " at " << p.x << "," << p.y;
        }
      }
    }
    EXPECT_GT(extra, 0);  // the grid is the weaker method
    EXPECT_GE(r.area_in2, g.area_in2);
  }
}

TEST(ReachProperty, AgreesWithPolygonOracleBounds) {
  // At random cell centres: surely reachable by the upper bound ⇒ in; surely not by the lower
  // bound ⇒ out; and the distances themselves are bracketed.
  int checked = 0;
  for (std::uint64_t seed = 21; seed <= 25; ++seed) {
    const ReachCase c = random_reach(seed);
    const auto r = reachable_region(c.mover, c.move, c.world);
    const MoveField field(c.mover, c.world);
    const oracle::PolygonPaths lower(c.mover, c.world, 96, false);
    const oracle::PolygonPaths upper(c.mover, c.world, 96, true);
    Rand rng(seed);
    for (int k = 0; k < 150; ++k) {
      const int i = rng.below(r.cols);
      const int j = rng.below(r.rows);
      const Vec2 p = cell_centre(r, i, j);
      if (!field.legal_end(p)) {
        EXPECT_FALSE(cell(r, i, j));
        continue;
      }
      const double lo = lower.distance_to(p);
      const double hi = upper.distance_to(p);
      const double d = field.distance_to(p);
      if (lo < 1e300) {
        EXPECT_GE(d, lo - 1e-7) << "seed " << seed;
      }
      if (hi < 1e300) {
        EXPECT_LE(d, hi + 1e-7) << "seed " << seed;
      }
      if (hi <= c.move - 1e-6) {
        EXPECT_TRUE(cell(r, i, j)) << "seed " << seed;
      }
      if (lo > c.move + 1e-6) {
        EXPECT_FALSE(cell(r, i, j)) << "seed " << seed;
      }
      ++checked;
    }
    if (::testing::Test::HasFailure()) FAIL() << "seed " << seed;
  }
  EXPECT_GT(checked, 400);
}

}  // namespace
}  // namespace duels
