#pragma once
/// @file The damage allocation solver (spec B3.1): which card goes beside which obstacle, and
/// which of its points clears which level.
///
/// Each card's box (its points, and consecutive level damage) goes beside one obstacle; each
/// single level of "1 level to each of up to N obstacles" damage goes to a different obstacle.
/// The objective is lexicographic:
///   1. harm: the fewest runners staggered or made critical by this round's packets (only when
///      runners are given), weighted by how soon they are hit;
///   2. the worth of the obstacles defeated (weight: 1000 per defeat, + 10 × threat, + nuyen,
///      + attack × urgency, or the obstacle's own weight);
///   3. whole levels cleared (partial damage is lost at the end of the turn);
///   4. waste: points and levels of damage that clear nothing;
///   5. the fewest offered cards (hand cards and assists) used, so the rest stay in hand.
/// The solver evaluates every subset of card parts on every obstacle with the per-obstacle
/// programme (damage.hpp), then combines obstacles by a dynamic programme over subsets of parts
/// (3^parts per obstacle). It is exact: allocate_exhaustive, which tries every assignment, never
/// beats it.

#include <string>
#include <vector>

#include "cards/crossfire/damage.hpp"
#include "cards/crossfire/notation.hpp"
#include "common/error.hpp"

namespace duels::cards::crossfire {

/// Whether a card must be placed or may stay in hand.
enum class CardUse : std::uint8_t {
  Played,   ///< on the table already: if it helps nowhere, its damage is wasted
  Offered,  ///< in hand, or an assist a teammate offers: used only when it helps
};

/// A card for the allocator.
struct AllocCard {
  Bundle bundle;
  CardUse use = CardUse::Played;
  std::string owner;  ///< whose discard it goes to ("" = the current runner)
};

/// A runner, for the harm term: the current runner first, then clockwise.
struct AllocRunner {
  std::string name;
  int hp = 0;
  bool staggered = false;
};

/// An obstacle for the allocator (faces: a runner name from AllocInput::runners, or "").
struct AllocObstacle {
  ObstacleCard card;
  Points partial;  ///< points already on its first uncleared level this turn
};

/// Everything the allocator needs.
struct AllocInput {
  std::vector<AllocObstacle> obstacles;
  std::vector<AllocCard> cards;
  std::vector<AllocRunner> runners;
};

/// The lexicographic objective (see the file comment); larger is better in every field.
struct AllocScore {
  long long harm = 0;     ///< minus the harm
  long long defeats = 0;  ///< Σ weight of defeated obstacles
  long long levels = 0;
  long long waste = 0;  ///< minus the waste
  long long cards = 0;  ///< minus the offered cards used
  friend auto operator<=>(const AllocScore&, const AllocScore&) = default;
  AllocScore& operator+=(const AllocScore& o);
};

/// One obstacle's plan.
struct ObstaclePlan {
  int weight = 0;
  bool defeated = false;
  int cleared_before = 0;
  int cleared_after = 0;
  std::vector<int> cards;             ///< cards placed beside it (box or single levels)
  std::vector<Placement> placements;  ///< card = index into AllocInput::cards
};

/// A solution.
struct AllocResult {
  std::vector<ObstaclePlan> obstacles;          ///< one per input obstacle
  std::vector<int> box_target;                  ///< per card: obstacle of its box (-1: none)
  std::vector<std::vector<int>> level_targets;  ///< per card: obstacles of its single levels
  std::vector<Wasted> wasted;                   ///< card = index into AllocInput::cards
  std::vector<int> kept;                        ///< offered cards left in hand
  AllocScore score;
  std::vector<std::string> lines;  ///< the explanation, one line per obstacle / waste / kept card
};

/// The allocator's default worth of defeating an obstacle (see the file comment).
int default_weight(const AllocInput& in, int obstacle);

/// Checks sizes and names: at most 16 card parts, faces must name a runner, tracks non-empty.
std::optional<std::string> check_input(const AllocInput& in);

/// The best allocation.
Expected<AllocResult, std::string> allocate(const AllocInput& in);

/// How the exhaustive search values one obstacle's subset of parts.
enum class Evaluator : std::uint8_t {
  Programme,  ///< the per-obstacle programme (the benchmark baseline)
  Enumerate,  ///< every assignment of every point and level to a level (independent check)
};
/// Tries every assignment of card parts to obstacles (or none) and keeps the best score.
/// Only the score and the targets are filled (no placements or lines).
Expected<AllocResult, std::string> allocate_exhaustive(const AllocInput& in, Evaluator eval);

/// The score of given targets, valued obstacle by obstacle with `eval` (the tests use it to
/// check a solution independently). Fails when the targets break a rule.
Expected<AllocScore, std::string> score_targets(const AllocInput& in,
                                                const std::vector<int>& box_target,
                                                const std::vector<std::vector<int>>& level_targets,
                                                Evaluator eval);

/// The per-obstacle value by brute force over units (each point and each level of damage goes
/// to one level or nowhere): the levels cleared and the waste.
std::pair<int, int> enumerate_obstacle(const Track& track, int cleared, const Points& partial,
                                       const Resources& res);

}  // namespace duels::cards::crossfire
