#pragma once
/// @file A seeded, platform-independent dice roller. The seed is always reported so any roll
/// can be replayed; hand-entered physical results bypass it entirely (see notation.hpp).

#include <cstdint>
#include <vector>

#include "dice/die.hpp"

namespace duels::dice {

/// A small deterministic generator (SplitMix64 seeding a xoshiro256**): the same seed gives the
/// same rolls on every machine and compiler, unlike std::uniform_int_distribution.
class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  std::uint64_t next();
  /// Uniform integer in [1, n], unbiased (rejection sampling).
  int uniform(int n);
  [[nodiscard]] std::uint64_t seed() const { return seed_; }

 private:
  std::uint64_t seed_;
  std::uint64_t s_[4];
};

/// Rolls dice with an Rng. Each roll is a Roll value the rules take as input.
class Roller {
 public:
  explicit Roller(std::uint64_t seed) : rng_(seed) {}
  Roll roll(const Die& die) { return Roll{die, rng_.uniform(die.sides)}; }
  std::vector<Roll> roll(const std::vector<Die>& dice);
  [[nodiscard]] std::uint64_t seed() const { return rng_.seed(); }
  Rng& rng() { return rng_; }

 private:
  Rng rng_;
};

/// A seed from the clock and address-space randomness, for when the player gives none.
std::uint64_t fresh_seed();

}  // namespace duels::dice
