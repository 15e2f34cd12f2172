#pragma once
/// @file Exact odds of beating an Encounter with k fresh dice (spec A3.4, Appendix A-1).
///
/// Counts are whole numbers of outcomes out of 6^k (k ≤ 8, so at most 1,679,616), so every
/// probability is an exact fraction. Rolls are grouped by the multiset of faces they show
/// (1,287 multisets for 8 dice) and weighted by their number of orderings.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cards/encounters/match.hpp"
#include "common/error.hpp"

namespace duels::cards::encounters {

/// The most dice ever rolled at once (6 plus 2 bonus dice).
inline constexpr int kMaxDice = 8;
/// The highest sum of kMaxDice dice.
inline constexpr int kMaxSum = 6 * kMaxDice;

/// An exact probability: `count` outcomes out of `total`.
struct ExactOdds {
  std::uint64_t count = 0;
  std::uint64_t total = 1;
  /// Reduced "n/d".
  [[nodiscard]] std::string fraction() const;
  [[nodiscard]] double p() const { return static_cast<double>(count) / static_cast<double>(total); }
};

/// A sorted multiset of faces and how many of the 6^k ordered rolls show it.
struct FaceMultiset {
  std::vector<int> faces;
  std::uint64_t orderings = 0;
};

/// Every multiset of k faces (k in 0..kMaxDice), in lexicographic order.
std::vector<FaceMultiset> face_multisets(int k);

/// For one roll: bit s of result[v] is set when some s of the dice sum to v (s ≥ 1).
std::array<std::uint32_t, kMaxSum + 1> subset_size_masks(const std::vector<int>& faces);

/// P(some non-empty subset of k fresh d6 sums exactly to V), no cards. k in 1..8, V ≥ 1.
ExactOdds plain_odds(int dice, int value);

/// The same by walking all 6^k ordered rolls and all subsets: the test and benchmark oracle.
ExactOdds brute_force_plain_odds(int dice, int value);

/// P(some legal way beats the Encounter) with the query's cards, keywords and icons, for k fresh
/// dice (query.dice is ignored). Errors as find_matches.
Expected<ExactOdds, std::string> odds_with_cards(int dice, const MatchQuery& query);

}  // namespace duels::cards::encounters
