#pragma once
/// @file Brute-force references for the table geometry, used by the tests and the benchmark to
/// check (and time) the exact methods in geometry.hpp. Slow on purpose; never used by the game.

#include <memory>
#include <vector>

#include "duels/geometry.hpp"

namespace duels::oracle {

/// What dense sampling of segments between two bases found.
struct LineOfFireSample {
  bool clear = false;            ///< some sampled segment touches no obstacle
  double min_gap_in = 0;         ///< shortest clear sampled segment (infinite when none)
  double best_clearance_in = 0;  ///< largest distance to the obstacles over clear samples
};

/// Tries every segment between `samples` evenly spaced points on each base's edge (every clear
/// line of fire contains a clear segment between the two edges). With `stop_at_first` it returns
/// at the first clear one (then min_gap_in and best_clearance_in are of that one).
LineOfFireSample sample_line_of_fire(const Disc& attacker, const Disc& target,
                                     const Obstacles& others, int samples,
                                     bool stop_at_first = false);

/// Bounds on path lengths from one start position, by the classic polygon visibility graph
/// with every round thing replaced by a polygon of `sides` sides: inscribed polygons shrink the
/// obstacles (every true path is still allowed, so lengths are lower bounds); circumscribed
/// polygons grow them (every path found is truly legal, so lengths are upper bounds).
class PolygonPaths {
 public:
  PolygonPaths(const Disc& mover, const MoveObstacles& world, int sides, bool outer);
  ~PolygonPaths();
  PolygonPaths(const PolygonPaths&) = delete;
  PolygonPaths& operator=(const PolygonPaths&) = delete;
  /// Length of the shortest path of the centre to `goal` (+infinity when none).
  [[nodiscard]] double distance_to(Vec2 goal) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The reachable region by a plain grid search: Dijkstra over cell centres with 16 neighbours,
/// each step checked against every obstacle. Grid paths are longer than true ones, so this
/// region is slightly smaller than the exact one. Used as the benchmark's baseline.
ReachResult grid_reach(const Disc& mover, double move_in, const MoveObstacles& world,
                       double cell_in = 0.05);

}  // namespace duels::oracle
