#pragma once
/// @file The one-dimensional matchup model `duels sim` ran before it played the engine: two
/// bases on an open table, a single gap that closes by the Head value each turn, the built-in
/// opponent's attack, dodge and damage policy re-implemented on a lean state.
///
/// No command uses it. It stays as the speed baseline of bench/duels_sim_bench.cpp (the engine
/// simulator is timed beside it in the same run) and as the reference tests/duels/sim_test.cpp
/// compares the engine simulator's statistics with.

#include <cstdint>
#include <memory>

#include "duels/sim.hpp"

namespace duels {

/// The model's odds cache, shared by all games of a matchup (opaque).
struct LineModelCache;
std::shared_ptr<LineModelCache> make_line_model_cache();

/// Plays `games` matches of the one-dimensional model (bases starting 48" apart). Deterministic
/// for a seed; `round_cap` rounds without a winner count as a draw.
SimResult simulate_line_model(const SimSide& a, const SimSide& b, int games, std::uint64_t seed,
                              int round_cap = 100, std::shared_ptr<LineModelCache> cache = nullptr);

}  // namespace duels
