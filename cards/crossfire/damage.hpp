#pragma once
/// @file Damage on one obstacle (spec B2.5): the best way to spend the points and level damage
/// placed beside it, and which card's point went to which level.
///
/// Levels are cleared strictly left to right. A colour level takes points of exactly its
/// colour; an any-N level takes N points of any mix; level damage clears the next uncleared
/// level(s) whatever they need. Every point beside an obstacle may go to any of its levels
/// (ambiguity B5.2). The search is a dynamic programme over the levels in order whose state is
/// what is left to spend; it maximises the levels cleared, then minimises the waste (points
/// and levels of damage that clear nothing).

#include <array>
#include <string>
#include <vector>

#include "cards/crossfire/notation.hpp"

namespace duels::cards::crossfire {

/// A block of consecutive level damage (Lightning Bolt, RA SM-4).
struct LevelRun {
  int count = 0;
  bool last_only = false;  ///< only on an obstacle down to its last `count` levels
  friend bool operator==(const LevelRun&, const LevelRun&) = default;
};

/// What is placed beside one obstacle, pooled.
struct Resources {
  Points points;
  int singles = 0;  ///< single levels of damage (Fireball's, one per obstacle)
  std::vector<LevelRun> runs;
  friend bool operator==(const Resources&, const Resources&) = default;
};

/// How one level was cleared.
struct LevelClear {
  enum class How : std::uint8_t { Points, Single, Run };
  int level = 0;  ///< 0-based
  How how = How::Points;
  Points used;         ///< How::Points: the points spent on it
  int run = -1;        ///< How::Run: index into Resources::runs (the run starts at this level)
  int run_levels = 0;  ///< How::Run: levels it cleared (the rest of the run is wasted)
};

/// The best result on one obstacle.
struct ObstacleOutcome {
  int cleared_before = 0;
  int cleared_after = 0;
  bool defeated = false;
  std::vector<LevelClear> clears;
  Points leftover;        ///< points spent on nothing
  int wasted_levels = 0;  ///< level damage that cleared nothing
  [[nodiscard]] int levels_cleared() const { return cleared_after - cleared_before; }
  [[nodiscard]] int waste() const { return leftover.total() + wasted_levels; }
};

/// Preference among colours when several would do equally well: lower rank is spent first.
using ColourRank = std::array<int, kColours>;

/// The best use of `res` on a track with `cleared` levels already cleared and `partial` points
/// already lying on the first uncleared level this turn. Ties go to colourless points first,
/// then colours by `rank`, then points before level damage.
ObstacleOutcome best_on_obstacle(const Track& track, int cleared, const Points& partial,
                                 const Resources& res, const ColourRank& rank = {0, 1, 2, 3});

/// One card's damage placed beside an obstacle.
struct Contribution {
  int card = 0;  ///< the caller's card number
  Points points;
  int singles = 0;  ///< single levels sent to this obstacle
  LevelRun run;     ///< count 0: none
};

/// A card's share of one level.
struct Placement {
  int card = 0;
  int level = 0;  ///< 0-based
  Points points;
  int levels = 0;  ///< level damage: 1 for a single, k for a run starting here
};

/// A card's damage that cleared nothing, and why.
struct Wasted {
  int card = 0;
  Points points;
  int levels = 0;
  std::string why;
};

/// best_on_obstacle for cards, with each card's placements and waste.
struct ObstacleResult {
  ObstacleOutcome outcome;
  std::vector<Placement> placements;
  std::vector<Wasted> wasted;
};
ObstacleResult resolve_obstacle(const Track& track, int cleared, const Points& partial,
                                const std::vector<Contribution>& cards);

/// What is still missing to defeat an obstacle, given what the team holds.
struct Missing {
  Points points;  ///< coloured points still needed by colour; colourless = "any" points needed
  int levels_left = 0;
  bool enough = false;
  std::string text;  ///< "needs 1 green + 3 any" / "enough to defeat it"
};
/// The smallest shortfall (fewest points, then fewest coloured) over every use of the level
/// damage in `held`; points in `held` are the team's points.
Missing still_missing(const Track& track, int cleared, const Resources& held);

}  // namespace duels::cards::crossfire
