// Movement: shortest legal paths (analytic cases and polygon-bracket oracles) and placement.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numbers>
#include <thread>
#include <vector>

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
Obstacle box(const std::string& id, double x0, double y0, double x1, double y1) {
  return {id, Shape::make_polygon({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}})};
}

// Walks the path in small steps and checks every point keeps the base off terrain and opposing
// bases (up to the grazing allowance) and on the table; checks the pieces join up.
void expect_legal_path(const PathResult& p, const Disc& mover, Vec2 goal, const MoveObstacles& w) {
  ASSERT_TRUE(p.found) << p.reason;
  ASSERT_FALSE(p.pieces.empty());
  EXPECT_NEAR(norm(p.pieces.front().from - mover.centre), 0, 1e-9);
  EXPECT_NEAR(norm(p.pieces.back().to - goal), 0, 1e-9);
  double total = 0;
  for (std::size_t i = 0; i < p.pieces.size(); ++i) {
    total += p.pieces[i].length_in;
    if (i > 0) {
      EXPECT_NEAR(norm(p.pieces[i].from - p.pieces[i - 1].to), 0, 1e-7);
    }
  }
  EXPECT_NEAR(total, p.length_in, 1e-9);
  const double r = mover.radius_in;
  // Sample along each piece.
  for (const PathPiece& piece : p.pieces) {
    const int n = std::max(2, static_cast<int>(piece.length_in / 0.005));
    for (int k = 0; k <= n; ++k) {
      const double t = static_cast<double>(k) / n;
      Vec2 q;
      if (piece.kind == PathPiece::Kind::Line) {
        q = piece.from + (piece.to - piece.from) * t;
      } else {
        EXPECT_NEAR(norm(piece.from - piece.centre), piece.radius_in, 1e-9);
        EXPECT_NEAR(norm(piece.to - piece.centre), piece.radius_in, 1e-9);
        const double a0 = std::atan2(piece.from.y - piece.centre.y, piece.from.x - piece.centre.x);
        q = piece.centre + testing::rotate({piece.radius_in, 0}, a0 + piece.sweep_rad * t);
      }
      EXPECT_GE(q.x, r - 1e-6);
      EXPECT_GE(q.y, r - 1e-6);
      EXPECT_LE(q.x, w.table.width_in - r + 1e-6);
      EXPECT_LE(q.y, w.table.depth_in - r + 1e-6);
      for (const Obstacle& o : w.terrain)
        EXPECT_GE(distance_in(q, o.shape), r - 1e-6) << o.id;
      for (const Obstacle& o : w.opposing_bases) {
        EXPECT_GE(distance_in(q, o.shape), r - 1e-6) << o.id;
      }
    }
  }
}

// ---- analytic cases -------------------------------------------------------------------------

TEST(ShortestPath, OpenTableIsAStraightLine) {
  const Disc m{{10, 10}, 1};
  const auto p = shortest_path(m, {20, 30}, {});
  expect_legal_path(p, m, {20, 30}, {});
  EXPECT_NEAR(p.length_in, std::hypot(10, 20), 1e-12);
  EXPECT_EQ(p.pieces.size(), 1u);
}

TEST(ShortestPath, GoesAroundAnOpposingBaseAlongTangentsAndAnArc) {
  // Grown radius 2 about (20, 20), from 10" away on either side: two tangents of √96 and an arc
  // of π − 2·acos(0.2).
  const Disc m{{10, 20}, 1};
  MoveObstacles w;
  w.opposing_bases = {circle("foe", 20, 20, 1)};
  const auto p = shortest_path(m, {30, 20}, w);
  expect_legal_path(p, m, {30, 20}, w);
  EXPECT_NEAR(p.length_in, 2 * std::sqrt(96.0) + 2 * (kPi - 2 * std::acos(0.2)), 1e-9);
  ASSERT_EQ(p.pieces.size(), 3u);
  EXPECT_EQ(p.pieces[1].kind, PathPiece::Kind::Arc);
}

TEST(ShortestPath, FriendlyBasesMayBePassedThrough) {
  const Disc m{{10, 20}, 1};
  MoveObstacles w;
  w.friendly_bases = {circle("pal", 20, 20, 1)};
  const auto p = shortest_path(m, {30, 20}, w);
  expect_legal_path(p, m, {30, 20}, w);
  EXPECT_NEAR(p.length_in, 20, 1e-12);
  // …but not ended on.
  const auto q = shortest_path(m, {20.5, 20}, w);
  EXPECT_FALSE(q.found);
  EXPECT_NE(q.reason.find("'pal'"), std::string::npos) << q.reason;
}

TEST(ShortestPath, GoesAroundATerrainCornerWithAnArcOfTheBaseRadius) {
  // A crate [20,30]×[0,20]; from (15, 10) to (35, 10) the base (r = 1) must pass over the top:
  // tangent to the arcs of radius 1 about the corners (20, 20) and (30, 20).
  const Disc m{{15, 10}, 1};
  MoveObstacles w;
  w.terrain = {box("crate", 20, 0, 30, 20)};
  const auto p = shortest_path(m, {35, 10}, w);
  expect_legal_path(p, m, {35, 10}, w);
  // Straight run from (15,10) tangent to the circle of radius 1 about (20,20), arc, top edge,
  // arc, run down: by symmetry 2·(√(d² − 1) + arc) + 10 with d = |(5,10)|.
  const double d = std::hypot(5.0, 10.0);
  const double run = std::sqrt(d * d - 1);
  // The run leaves the start toward the tangent point; the arc turns from the run's heading to
  // the +x heading of the top edge.
  const double heading = std::atan2(10.0, 5.0) + std::asin(1 / d);
  const double expected = 2 * (run + heading) + 10;
  EXPECT_NEAR(p.length_in, expected, 1e-9);
}

TEST(ShortestPath, ThroughAGapExactlyAsWideAsTheBase) {
  // Two crates leaving a 2" gap; a base of diameter 2 fits (touching both), 2.1 does not.
  MoveObstacles w;
  w.terrain = {box("left", 10, 0, 20, 19), box("right", 10, 21, 20, 60)};
  {
    const Disc m{{5, 20}, 1};
    const auto p = shortest_path(m, {25, 20}, w);
    expect_legal_path(p, m, {25, 20}, w);
    EXPECT_NEAR(p.length_in, 20, 1e-9);
  }
  {
    const Disc m{{5, 20}, 1.05};
    const auto p = shortest_path(m, {25, 20}, w);
    EXPECT_FALSE(p.found);
    EXPECT_NE(p.reason.find("no legal path"), std::string::npos) << p.reason;
  }
}

TEST(ShortestPath, TheTableEdgeIsAWall) {
  // A crate reaching to within 1.5" of the bottom edge: a base 2" across cannot pass under it,
  // so it must climb over the top, bending round the arcs about (15, 20) and (25, 20).
  const Disc m{{5, 10}, 1};
  MoveObstacles w;
  w.table = {40, 30};
  w.terrain = {box("crate", 15, 1.5, 25, 20)};
  const auto p = shortest_path(m, {35, 10}, w);
  expect_legal_path(p, m, {35, 10}, w);
  const double d = std::hypot(10.0, 10.0);
  EXPECT_NEAR(p.length_in,
              2 * (std::sqrt(d * d - 1) + std::atan2(10.0, 10.0) + std::asin(1 / d)) + 10, 1e-9);
  const auto off = shortest_path(m, {39.5, 10}, w);
  EXPECT_FALSE(off.found);
  EXPECT_NE(off.reason.find("table"), std::string::npos) << off.reason;
}

TEST(ShortestPath, EnclosedDestinationHasNoPath) {
  const Disc m{{5, 5}, 1};
  MoveObstacles w;
  w.terrain = {box("s", 20, 20, 30, 21), box("n", 20, 29, 30, 30), box("w", 20, 20, 21, 30),
               box("e", 29, 20, 30, 30)};
  const auto p = shortest_path(m, {25, 25}, w);
  EXPECT_FALSE(p.found);
  EXPECT_NE(p.reason.find("no legal path"), std::string::npos);
  // An opposing base plugging a 2" doorway closes it too; a friendly one does not.
  w.terrain = {box("s", 20, 20, 30, 21), box("n", 20, 29, 30, 30), box("w", 20, 20, 21, 30),
               box("e1", 29, 20, 30, 24), box("e2", 29, 26, 30, 30)};
  w.opposing_bases = {circle("guard", 29.5, 25, 0.9)};
  EXPECT_FALSE(shortest_path(m, {25, 25}, w).found);
  w.friendly_bases = w.opposing_bases;
  w.opposing_bases.clear();
  const Disc small{{5, 5}, 0.9};
  expect_legal_path(shortest_path(small, {25, 25}, w), small, {25, 25}, w);
}

TEST(ShortestPath, EndPositionMayTouchButNotOverlap) {
  const Disc m{{5, 5}, 1};
  MoveObstacles w;
  w.terrain = {box("crate", 20, 0, 30, 10)};
  w.opposing_bases = {circle("foe", 40, 5, 1)};
  EXPECT_TRUE(shortest_path(m, {19, 5}, w).found);  // touching the crate
  EXPECT_TRUE(shortest_path(m, {38, 15}, w).found);
  EXPECT_TRUE(shortest_path(m, {40, 7}, w).found);  // touching the foe
  const auto p = shortest_path(m, {19.2, 5}, w);
  EXPECT_FALSE(p.found);
  EXPECT_NE(p.reason.find("'crate'"), std::string::npos) << p.reason;
}

TEST(ShortestPath, StartTouchingAnOpposingBaseCanSlideAway) {
  const Disc m{{10, 10}, 1};
  MoveObstacles w;
  w.opposing_bases = {circle("foe", 12, 10, 1)};
  const auto p = shortest_path(m, {14, 10}, w);
  expect_legal_path(p, m, {14, 10}, w);
  EXPECT_NEAR(p.length_in, 2 * kPi, 1e-9);  // half way round the grown circle of radius 2
}

TEST(ShortestPath, NonConvexTerrainIsEscapedAroundItsCorners) {
  // The base starts inside a U open to the east and must leave it to reach the west.
  const Disc m{{25, 25}, 1};
  MoveObstacles w;
  w.terrain = {
      {"u", Shape::make_polygon(
                {{20, 20}, {30, 20}, {30, 21}, {21, 21}, {21, 29}, {30, 29}, {30, 30}, {20, 30}})}};
  const auto p = shortest_path(m, {15, 25}, w);
  expect_legal_path(p, m, {15, 25}, w);
  EXPECT_GT(p.length_in, 2 * 5 + 10);
  oracle::PolygonPaths lower(m, w, 96, false);
  oracle::PolygonPaths upper(m, w, 96, true);
  EXPECT_GE(p.length_in, lower.distance_to({15, 25}) - 1e-7);
  EXPECT_LE(p.length_in, upper.distance_to({15, 25}) + 1e-7);
}

TEST(ShortestPath, StartOverlappingTerrainIsReported) {
  const Disc m{{20.5, 5}, 1};
  MoveObstacles w;
  w.terrain = {box("crate", 20, 0, 30, 10)};
  const auto p = shortest_path(m, {5, 5}, w);
  EXPECT_FALSE(p.found);
  EXPECT_NE(p.reason.find("where it stands"), std::string::npos) << p.reason;
}

// ---- property tests -------------------------------------------------------------------------

struct MoveCase {
  Disc mover;
  Vec2 goal;
  MoveObstacles world;
};

MoveCase random_move(std::uint64_t seed, int max_obstacles) {
  Rand rng(seed);
  MoveCase c;
  c.world.table = {40, 40};
  const double r = rng.uniform(0.5, 1.2);
  // Start on the left, goal on the right, obstacles in between.
  const int n = 2 + rng.below(max_obstacles - 1);
  for (int i = 0; i < n; ++i) {
    const Vec2 at{rng.uniform(10, 30), rng.uniform(4, 36)};
    if (rng.chance(0.3)) {
      c.world.opposing_bases.push_back(
          circle("b" + std::to_string(i), at.x, at.y, rng.uniform(0.5, 1.5)));
    } else {
      Shape s = testing::random_shape(rng, at, rng.uniform(1.5, 6));
      c.world.terrain.push_back({"t" + std::to_string(i), std::move(s)});
    }
  }
  auto free_spot = [&](Vec2& out, double x0, double x1) {
    for (int tries = 0; tries < 200; ++tries) {
      const Vec2 p{rng.uniform(x0, x1), rng.uniform(r, 40 - r)};
      bool ok = true;
      for (const Obstacle& o : c.world.terrain)
        ok = ok && distance_in(p, o.shape) > r + 0.05;
      for (const Obstacle& o : c.world.opposing_bases)
        ok = ok && distance_in(p, o.shape) > r + 0.05;
      if (ok) {
        out = p;
        return true;
      }
    }
    return false;
  };
  Vec2 s;
  if (!free_spot(s, r, 12)) s = {r, r};
  c.mover = {s, r};
  if (!free_spot(c.goal, 28, 40 - r)) c.goal = {40 - r, 40 - r};
  return c;
}

TEST(ShortestPathProperty, BracketedByPolygonOraclesAndLegal) {
  // Lower bound: round things replaced by inscribed 96-gons (smaller obstacles); upper bound:
  // circumscribed ones (larger). Our exact length must lie between, within 0.02" of the lower.
  int found = 0;
  int bent = 0;
  double worst = 0;
  for (std::uint64_t seed = 1; seed <= 250; ++seed) {
    const MoveCase c = random_move(seed, 8);
    const auto p = shortest_path(c.mover, c.goal, c.world);
    const oracle::PolygonPaths lower(c.mover, c.world, 96, false);
    const oracle::PolygonPaths upper(c.mover, c.world, 96, true);
    const double lo = lower.distance_to(c.goal);
    const double hi = upper.distance_to(c.goal);
    if (p.found) {
      ++found;
      if (p.pieces.size() > 1) ++bent;
      expect_legal_path(p, c.mover, c.goal, c.world);
      EXPECT_GE(p.length_in, lo - 1e-7) << "seed " << seed;
      EXPECT_LE(p.length_in, lo + 0.02) << "seed " << seed;
      worst = std::max(worst, p.length_in - lo);
      if (hi < 1e300) {
        EXPECT_LE(p.length_in, hi + 1e-7) << "seed " << seed;
      }
    } else {
      EXPECT_FALSE(hi < 1e300) << "seed " << seed << ": the oracle found a legal path of " << hi;
    }
    if (::testing::Test::HasFailure()) FAIL() << "seed " << seed;
  }
  EXPECT_GT(found, 200);
  EXPECT_GT(bent, 120);  // most paths must actually bend round something
  std::printf("[ measured ] %d paths (%d bent): at most %.5f\" above the lower bound\n", found,
              bent, worst);
}

TEST(ShortestPathProperty, LegalMatchesTheDistanceFieldAndIsInvariantUnderMotion) {
  int found = 0;
  for (std::uint64_t seed = 1001; seed <= 3000; ++seed) {
    const MoveCase c = random_move(seed, 6);
    const MoveField field(c.mover, c.world);
    const auto p = field.path_to(c.goal);
    if (!p.found) continue;
    ++found;
    expect_legal_path(p, c.mover, c.goal, c.world);
    EXPECT_GE(p.length_in, norm(c.goal - c.mover.centre) - 1e-12);
    EXPECT_NEAR(field.distance_to(c.goal), p.length_in, 1e-12);
    EXPECT_NEAR(field.distance_below(c.goal, p.length_in + 1e-6), p.length_in, 1e-12);
    EXPECT_FALSE(field.distance_below(c.goal, p.length_in - 1e-6) < 1e300);
    // Turning the table a quarter (exactly) and mirroring keep lengths.
    MoveCase m = c;
    auto turn = [&](Vec2 v) { return Vec2{40 - v.y, v.x}; };
    m.mover.centre = turn(c.mover.centre);
    m.goal = turn(c.goal);
    m.world.terrain.clear();
    m.world.opposing_bases.clear();
    for (const Obstacle& o : c.world.terrain) {
      Shape s = o.shape;
      if (s.kind == Shape::Kind::Circle) {
        s.circle.centre = turn(s.circle.centre);
      } else {
        for (Vec2& v : s.polygon)
          v = turn(v);
      }
      m.world.terrain.push_back({o.id, s});
    }
    for (const Obstacle& o : c.world.opposing_bases) {
      m.world.opposing_bases.push_back(
          {o.id, Shape::make_circle(turn(o.shape.circle.centre), o.shape.circle.radius_in)});
    }
    const auto q = shortest_path(m.mover, m.goal, m.world);
    ASSERT_TRUE(q.found) << "seed " << seed;
    EXPECT_NEAR(q.length_in, p.length_in, 1e-6) << "seed " << seed;
    if (::testing::Test::HasFailure()) FAIL() << "seed " << seed;
  }
  EXPECT_GT(found, 1500);
}

// ---- placement ------------------------------------------------------------------------------

TEST(Placement, FortyEightInchRuleIsEdgeToEdgeAgainstOpposingBasesOnly) {
  const std::vector<PlacedBase> placed = {{"foe", 2, {{5, 5}, 1}}, {"pal", 1, {{7, 5}, 1}}};
  const TableBounds table{72, 72};
  // Centre distance 50 with radii 1 + 1: a gap of exactly 48" is allowed.
  EXPECT_TRUE(check_setup_placement({{55, 5}, 1}, 1, placed, {}, table).ok);
  const auto close = check_setup_placement({{54.9, 5}, 1}, 1, placed, {}, table);
  EXPECT_FALSE(close.ok);
  ASSERT_EQ(close.conflicts.size(), 1u);
  EXPECT_EQ(close.conflicts[0], "foe");
  EXPECT_NE(close.problems[0].find("48"), std::string::npos);
  // A team-mate may stand close.
  EXPECT_TRUE(check_setup_placement({{10, 5}, 1}, 2, {{"foe", 2, {{5, 5}, 1}}}, {}, table).ok);
}

TEST(Placement, SpotMustBeOnTheTableAndOverlapNothing) {
  const TableBounds table{60, 60};
  const Obstacles occupied = {box("crate", 20, 20, 24, 26), circle("b", 40, 40, 1)};
  EXPECT_TRUE(check_spot({{1, 1}, 1}, table, occupied).ok);       // touching two edges
  EXPECT_FALSE(check_spot({{0.9, 30}, 1}, table, occupied).ok);   // over the edge
  EXPECT_TRUE(check_spot({{19, 23}, 1}, table, occupied).ok);     // touching the crate
  EXPECT_FALSE(check_spot({{19.1, 23}, 1}, table, occupied).ok);  // overlapping it
  EXPECT_FALSE(check_spot({{22, 23}, 0.5}, table, occupied).ok);  // inside it
  EXPECT_TRUE(check_spot({{42, 40}, 1}, table, occupied).ok);     // base to base contact
  const auto bad = check_spot({{41.5, 40}, 1}, table, occupied);
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.conflicts, (std::vector<std::string>{"b"}));
}

// The terrain's tangent runs and blocked arcs are kept per thread between path graphs. Fields
// built after others on other terrain, other base sizes and other move allowances must give
// exactly the distances a thread with nothing kept gives.
TEST(ShortestPath, TerrainKeptBetweenGraphsGivesTheSameDistancesToTheBit) {
  struct Case {
    MoveObstacles world;
    Disc mover;
    double max_len;
  };
  auto world_of = [](double shift, double foe_x) {
    MoveObstacles w;
    // Grown terrain that overlaps (rock and wall, the post and the table edge): blocked arcs.
    w.terrain = {circle("rock", 20 + shift, 20, 2), box("wall", 23, 12 + shift, 25, 26),
                 box("crate", 12, 26, 16, 30), circle("tree", 34, 30 - shift, 1.5),
                 circle("post", 2.5, 30, 1)};
    w.opposing_bases = {circle("foe", foe_x, 16, 1)};
    w.friendly_bases = {circle("pal", 14, 12, 1)};
    return w;
  };
  std::vector<Case> cases;
  for (double shift : {0.0, 1.5, 0.0}) {
    for (double foe_x : {24.0, 36.0}) {
      for (double radius : {0.75, 1.0}) {
        for (double max_len : {std::numeric_limits<double>::infinity(), 12.0}) {
          cases.push_back({world_of(shift, foe_x), Disc{{8, 18}, radius}, max_len});
          cases.push_back({world_of(shift, foe_x), Disc{{2.5, 26}, radius}, max_len});
        }
      }
    }
  }
  const std::vector<Vec2> goals{{30, 20}, {27, 13}, {21, 23.5}, {2, 34},
                                {36, 36}, {26, 28}, {18, 24}};
  auto distances = [&](const Case& c) {
    const MoveField field(c.mover, c.world, c.max_len);
    std::vector<double> out;
    for (Vec2 g : goals)
      out.push_back(field.distance_to(g));
    return out;
  };
  int detours = 0;
  for (const Case& c : cases) {
    const std::vector<double> kept = distances(c);  // this thread keeps terrain from before
    std::vector<double> fresh;
    std::thread([&] { fresh = distances(c); }).join();  // a new thread keeps nothing
    ASSERT_EQ(kept.size(), fresh.size());
    for (std::size_t i = 0; i < kept.size(); ++i) {
      EXPECT_EQ(std::memcmp(&kept[i], &fresh[i], sizeof(double)), 0)
          << "goal " << i << ": " << kept[i] << " vs " << fresh[i];
      if (std::isfinite(kept[i]) && kept[i] > norm(goals[i] - c.mover.centre) + 1e-6) ++detours;
    }
  }
  EXPECT_GT(detours, 20);  // the paths really go around terrain
}

}  // namespace
}  // namespace duels
