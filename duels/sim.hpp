#pragma once
/// @file The matchup simulator: many seeded 1-vs-1 matches between two loadouts, fast.
///
/// It plays the same rules as the engine (resolve_attack for steps E–L, the tape and wild-dice
/// rules for legal colours, shields from gear and dials, the four ace effects, elimination) on a
/// lean state: the two bases face each other on an open table, starting 48" apart, and each
/// figure plays the built-in opponent's policy (attack with the dice that give the most expected
/// clicks, dodge when it saves clicks, close in, take damage where it hurts least). Odds are
/// computed exactly once per distinct situation and cached, so later games cost microseconds.

#include <cstdint>
#include <memory>
#include <vector>

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
};

/// The odds cache shared by all games of a matchup (opaque).
struct SimCache;

/// Plays `games` matches, alternating nothing: each match rolls for alpha. Deterministic for a
/// seed. `round_cap` rounds without a winner count as a draw.
SimResult simulate(const SimSide& a, const SimSide& b, int games, std::uint64_t seed,
                   int round_cap = 100, std::shared_ptr<SimCache> cache = nullptr);

/// A fresh cache, to reuse across calls with the same two sides.
std::shared_ptr<SimCache> make_sim_cache();

/// 95% Wilson score interval for k successes in n trials.
Proportion wilson(int k, int n);

}  // namespace duels
