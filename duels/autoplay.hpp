#pragma once
/// @file A built-in opponent: picks a legal, sensible command for whoever must act next.
///
/// It rolls with a seeded roller, so a match it plays is the same for the same seed. On a
/// measured table it puts the catalogue's terrain down, places its figures at legal spots,
/// attacks what it has a line of fire to (measured from the positions, as the engine measures)
/// and closes in along the shortest legal path round terrain and opposing bases. Attack choices
/// use the exact odds. `duels sim` (sim.hpp) is this opponent playing both sides.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "dice/roller.hpp"
#include "duels/commands.hpp"
#include "duels/geometry.hpp"
#include "duels/odds.hpp"
#include "duels/state.hpp"

namespace duels {

/// Expected clicks of attack queries already worked out, keyed by the query. Matches repeat the
/// same dice, dial values and shields over and over, so the opponent (and `duels sim`, which
/// shares one cache across all its games) rarely computes the same odds twice.
class OddsCache {
 public:
  double expected_clicks(const struct OddsQuery& q);
  [[nodiscard]] std::size_t size() const { return map_.size(); }

  /// A query packed into numbers (what the odds depend on: dial values, the dice as a sorted
  /// multiset, shields per colour, bonus per colour); built without allocating.
  struct Key {
    std::array<std::uint16_t, 40> v{};
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };

  /// A choice among subsets of candidate dice (the opponent's attack and dodge searches),
  /// packed into numbers: what it is for, the query the subsets are added to, the candidate
  /// dice in order, and which subsets the rules allow. The best subset is a function of these,
  /// so a choice seen before is looked up instead of searched again.
  struct ChoiceKey {
    std::array<std::uint16_t, 56> v{};
    friend bool operator==(const ChoiceKey&, const ChoiceKey&) = default;
  };
  struct ChoiceKeyHash {
    std::size_t operator()(const ChoiceKey& k) const;
  };
  /// The chosen subset (bit i: candidate i) of a choice made before, if any.
  [[nodiscard]] std::optional<std::uint8_t> find_choice(const ChoiceKey& k) const {
    auto it = choices_.find(k);
    if (it == choices_.end()) return std::nullopt;
    return it->second;
  }
  void keep_choice(const ChoiceKey& k, std::uint8_t subset) { choices_.emplace(k, subset); }

 private:
  std::unordered_map<Key, double, KeyHash> map_;
  std::unordered_map<ChoiceKey, std::uint8_t, ChoiceKeyHash> choices_;
  /// Attack sides of the situations worked out (keyed as a query without dodge dice).
  static constexpr std::size_t kMaxSides = 4096;
  std::unordered_map<Key, AttackSide, KeyHash> sides_;
};

/// The opponent. One instance plays every side.
class AutoPlayer {
 public:
  explicit AutoPlayer(std::uint64_t seed, std::shared_ptr<OddsCache> cache = nullptr)
      : seed_(seed),
        roller_(seed),
        cache_(cache ? std::move(cache) : std::make_shared<OddsCache>()) {}

  /// The next command for the current state; nullopt when the match is over. Each call rolls
  /// from a generator seeded by (seed, step), so a match resumed at step n with set_step(n)
  /// continues exactly as an uninterrupted one.
  std::optional<Command> next(const GameState& state);

  /// Sets the step counter (the number of commands already played).
  void set_step(std::uint64_t step) { step_ = step; }
  [[nodiscard]] std::uint64_t step() const { return step_; }

 private:
  std::optional<Command> decide(const GameState& state);

  std::uint64_t seed_;
  std::uint64_t step_ = 0;
  dice::Roller roller_;
  std::shared_ptr<OddsCache> cache_;
};

/// Edge-to-edge gap between two placed figures on an open table, in inches.
double open_table_gap(const FigureState& a, const FigureState& b);
/// The measurement of step A from the bases' positions: the exact line of fire past every other
/// base in play and the given terrain (geometry.hpp), with the gap and attacker chord along the
/// witness line. Both figures must have positions.
Measurement open_table_measurement(const GameState& state, FigureId attacker, FigureId target,
                                   const Obstacles& terrain = {});

}  // namespace duels
