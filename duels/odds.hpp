#pragma once
/// @file Exact odds of one attack, and the advisor that ranks attack and dodge choices.
///
/// Exact means counted, not sampled: every probability is a whole number of outcomes out of
/// the product of all dice's sides (≤ 12^12 for six attack and six dodge dice, within 64 bits).

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "dice/die.hpp"
#include "duels/combat.hpp"

namespace duels {

/// The question: these attack dice against these dodge dice, with the figures' numbers.
struct OddsQuery {
  int weapon = 0;
  int body = 0;
  std::vector<dice::Die> attack;
  std::vector<dice::Die> dodge;
  std::vector<dice::Colour> shields;
  std::map<dice::Colour, int> bonus;
};

/// The answer, as outcome counts out of `total`.
struct OddsResult {
  std::uint64_t total = 1;
  std::uint64_t hit = 0;
  std::vector<std::uint64_t> clicks;  ///< clicks[k] = outcomes doing exactly k clicks (misses: 0)
  std::map<AceEffect, std::uint64_t> effect;  ///< outcomes that hit with ≥ 1 ace of that effect

  [[nodiscard]] double p_hit() const { return ratio(hit); }
  [[nodiscard]] double p_clicks(std::size_t k) const {
    return k < clicks.size() ? ratio(clicks[k]) : 0.0;
  }
  [[nodiscard]] double p_effect(AceEffect e) const;
  [[nodiscard]] double expected_clicks() const;
  [[nodiscard]] double ratio(std::uint64_t n) const {
    return static_cast<double>(n) / static_cast<double>(total);
  }
};

/// The most attack dice `attack_odds` accepts (a base holds six; the CLI may ask for more).
inline constexpr std::size_t kMaxOddsAttackDice = 8;
/// The most dodge dice.
inline constexpr std::size_t kMaxOddsDodgeDice = 12;

/// Exact odds by dynamic programming over die faces (Bad Karma couples only dice showing the
/// same number, so the faces are processed one number at a time). Requires
/// attack.size() ≤ kMaxOddsAttackDice and dodge.size() ≤ kMaxOddsDodgeDice.
OddsResult attack_odds(const OddsQuery& q);

/// The attack side of attack_odds worked out once (the query's dodge dice are left out): what
/// the attack dice come to, survivors, aces and sums. The odds against any dodge dice then take
/// only the fold of the dodge sum, with the very counts attack_odds gives. Choosing a dodge
/// (trying every subset of the dice on the base against one attack) works the attack out once.
class AttackSide {
 public:
  /// Same requirements as attack_odds for the attack dice.
  explicit AttackSide(const OddsQuery& q);
  /// attack_odds of the query with these dodge dice (≤ kMaxOddsDodgeDice).
  [[nodiscard]] OddsResult against(const std::vector<dice::Die>& dodge) const;

 private:
  struct Outcome {
    int lo = 0;  ///< by_sum[s - lo]: outcomes whose survivors sum to s
    std::vector<std::uint64_t> by_sum;
    int clicks = 0;
    std::array<bool, 4> effect{};
  };
  int weapon_ = 0;
  int body_ = 0;
  std::uint64_t attack_total_ = 1;
  std::vector<Outcome> outcomes_;  ///< in the order attack_odds meets them
};

/// The same numbers by running every combination of faces through resolve_attack(). Slow
/// (the product of all sides); the reference the fast method is tested and benchmarked against.
OddsResult attack_odds_enumerated(const OddsQuery& q);

/// One ranked option of the advisor.
struct AdvisedAttack {
  std::vector<int> dice;  ///< indices into the offered attack dice
  OddsResult odds;
};

/// Every non-empty subset of `offered` (attack dice on the base of legal colours), with its odds
/// against the defender's best dodge answer for that subset (the dodge subset of `dodge_offered`
/// that minimises expected clicks), sorted by expected clicks then hit chance, best first.
/// `is_legal` filters subsets (e.g. the wild-dice rule); nullptr accepts all.
struct AdvisedDodge {
  std::vector<int> dice;  ///< indices into the offered dodge dice
  OddsResult odds;
};
struct Advice {
  AdvisedAttack attack;
  AdvisedDodge best_dodge;
};
using SubsetFilter = bool (*)(const std::vector<dice::Die>& dice, const void* context);
std::vector<Advice> advise_attacks(const OddsQuery& base, const std::vector<dice::Die>& offered,
                                   const std::vector<dice::Die>& dodge_offered,
                                   SubsetFilter attack_filter = nullptr,
                                   SubsetFilter dodge_filter = nullptr,
                                   const void* context = nullptr);

}  // namespace duels
