#pragma once
/// @file The matchup simulator: many seeded 1-vs-1 matches between two loadouts, played by the
/// built-in opponent (autoplay.hpp) through the rules engine on a real table.
///
/// There is one rule set: every match is a whole engine match (alpha roll, terrain placed from
/// the table's catalogue, placement, dice, legal 2-D moves round terrain and bases, attacks
/// measured from the positions with line of fire, damage). The odds the opponent works out are
/// shared by every game of a run (and across runs through SimOptions::odds), and the movement
/// field of a position is built once for the opponent's choice and the engine's check.

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "duels/autoplay.hpp"
#include "duels/engine.hpp"

namespace duels {

/// One side of a matchup: a figure and its gear.
struct SimSide {
  FigureDef figure;
  std::vector<GearDef> gear;
};

/// A proportion with its 95% Wilson score interval.
struct Proportion {
  double p = 0;
  double low = 0;
  double high = 0;
};

/// The outcome of `games` matches.
struct SimResult {
  int games = 0;
  int wins_a = 0;
  int wins_b = 0;
  int draws = 0;  ///< matches still undecided after the round cap
  Proportion win_a;
  Proportion win_b;
  double mean_rounds = 0;
  double damage_per_round_a = 0;  ///< clicks A dealt per round played
  double damage_per_round_b = 0;
  std::size_t odds_cached = 0;  ///< distinct situations whose odds were worked out
  long long commands = 0;       ///< engine commands played in all matches
};

/// How the matches are played.
struct SimOptions {
  /// The table and the terrain catalogue the opponent places (table_from_scene); a bare
  /// 60" × 60" table when left as it is.
  TableState table;
  /// Rounds after which a match without a winner counts as a draw.
  int round_cap = 100;
  /// Odds already worked out, shared between calls with the same loadouts (made when null).
  std::shared_ptr<OddsCache> odds;
  /// Called with the state and each command before the engine applies it (tests re-check the
  /// moves and attacks with the oracles); empty for speed.
  std::function<void(const GameState&, const Command&)> observe;
};

/// Plays `games` matches through the engine, A seated first. Game g's opponent rolls from a seed
/// derived from (seed, g), so the result is the same for the same seed and options. Throws
/// std::runtime_error if the engine refuses a command of the opponent (a bug, never expected).
SimResult simulate(const SimSide& a, const SimSide& b, int games, std::uint64_t seed,
                   const SimOptions& options = {});

/// 95% Wilson score interval for k successes in n trials.
Proportion wilson(int k, int n);

}  // namespace duels
