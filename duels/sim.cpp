#include "duels/sim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace duels {

namespace {

// SplitMix64: game g's seed from the run's seed.
std::uint64_t game_seed(std::uint64_t seed, int g) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(g) + 1);
  z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31U);
}

}  // namespace

Proportion wilson(int k, int n) {
  if (n == 0) return {0, 0, 1};
  const double z = 1.959963984540054;
  const double p = static_cast<double>(k) / n;
  const double denom = 1 + z * z / n;
  const double centre = (p + z * z / (2.0 * n)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / denom;
  return {p, std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

SimResult simulate(const SimSide& a, const SimSide& b, int games, std::uint64_t seed,
                   const SimOptions& options) {
  MatchSetup setup;
  setup.table = options.table;
  setup.teams.push_back({"A", {{a.figure, a.gear, std::nullopt}}});
  setup.teams.push_back({"B", {{b.figure, b.gear, std::nullopt}}});
  auto start = new_game(setup);
  if (!start) throw std::runtime_error("the matchup can't be set up: " + start.error().reason);
  const std::shared_ptr<OddsCache> odds =
      options.odds ? options.odds : std::make_shared<OddsCache>();
  SimResult r;
  r.games = games;
  long long total_rounds = 0;
  std::array<long long, 2> dealt{};
  for (int g = 0; g < games; ++g) {
    GameState s = *start;
    AutoPlayer ai(game_seed(seed, g), odds);
    while (s.phase != Phase::GameOver && s.round <= options.round_cap) {
      auto c = ai.next(s);
      if (!c) break;
      if (options.observe) options.observe(s, *c);
      if (std::holds_alternative<AssignDamage>(*c) && s.attack) {
        dealt[static_cast<std::size_t>(
            s.figures[static_cast<std::size_t>(s.attack->attacker)].team)] +=
            s.attack->result.clicks;
      }
      // The engine's rules without its words: nobody reads a simulated match's events.
      if (auto refused = duels::apply_quietly(s, *c)) {
        throw std::runtime_error(fmt::format(
            "game {} of seed {}: the engine refused the built-in opponent's {} in round {}: {}", g,
            seed, command_name(*c), s.round, refused->reason));
      }
      ++r.commands;
    }
    total_rounds += std::min(s.round, options.round_cap);
    if (s.phase == Phase::GameOver && s.winner == 0) {
      ++r.wins_a;
    } else if (s.phase == Phase::GameOver && s.winner == 1) {
      ++r.wins_b;
    } else {
      ++r.draws;
    }
  }
  r.win_a = wilson(r.wins_a, games);
  r.win_b = wilson(r.wins_b, games);
  r.mean_rounds = games > 0 ? static_cast<double>(total_rounds) / games : 0;
  r.damage_per_round_a =
      total_rounds > 0 ? static_cast<double>(dealt[0]) / static_cast<double>(total_rounds) : 0;
  r.damage_per_round_b =
      total_rounds > 0 ? static_cast<double>(dealt[1]) / static_cast<double>(total_rounds) : 0;
  r.odds_cached = odds->size();
  return r;
}

}  // namespace duels
