#pragma once
/// @file Exact probability distributions of dice statistics, as whole-number outcome counts.
///
/// Every distribution counts outcomes out of the product of the dice's sides, so probabilities
/// are exact fractions (12 twelve-siders have 12^12 ≈ 8.9e12 outcomes: well within 64 bits).

#include <cstdint>
#include <string>
#include <vector>

#include "dice/die.hpp"

namespace duels::dice {

/// A distribution over integers `offset + i`, with `counts[i]` outcomes each, out of `total`.
struct Distribution {
  int offset = 0;
  std::vector<std::uint64_t> counts{1};
  std::uint64_t total = 1;

  [[nodiscard]] int min() const { return offset; }
  [[nodiscard]] int max() const { return offset + static_cast<int>(counts.size()) - 1; }
  /// Outcomes with value exactly v.
  [[nodiscard]] std::uint64_t count(int v) const;
  /// Outcomes with value ≤ v.
  [[nodiscard]] std::uint64_t count_at_most(int v) const;
  [[nodiscard]] double p(int v) const { return static_cast<double>(count(v)) / total_d(); }
  [[nodiscard]] double p_at_most(int v) const {
    return static_cast<double>(count_at_most(v)) / total_d();
  }
  [[nodiscard]] double mean() const;
  [[nodiscard]] double total_d() const { return static_cast<double>(total); }
};

/// The value of one die: faces 1..sides, an ace face counting 0.
Distribution die_value(const Die& die);
/// Sum of independent distributions (convolution).
Distribution convolve(const Distribution& a, const Distribution& b);
/// Sum of the values of some dice (aces count 0). No dice → always 0.
Distribution sum_of(const std::vector<Die>& dice);

/// Cumulative counts: cum[i] = outcomes with value ≤ offset + i. Reused by hot loops.
std::vector<std::uint64_t> cumulative(const Distribution& d);

/// An exact probability as a reduced fraction "n/d".
std::string fraction_string(std::uint64_t numerator, std::uint64_t denominator);

}  // namespace duels::dice
