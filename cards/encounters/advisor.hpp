#pragma once
/// @file The push-your-luck advisor (spec A3.2–A3.7): push, score or escalate by expected
/// Nuyen, how many dice to lock, Datasteal or a fresh start, Burn the Run, retain or hire, and
/// the solo planner. Every answer carries its numbers.
///
/// The model (A3.3): a decision point after a defeat is (column c, unlocked dice u, banked B),
/// B being what the tableau scores now. Scoring is worth B (or, for the "reach the target"
/// objective, 1 when B covers the Nuyen still needed, else 0). Pushing flips an Encounter whose
/// value follows the mix, rolls u dice and locks the best achievable number s of them, moving
/// to (c, u − s, B + c); no match is worth 0. With every die locked the player may escalate to
/// (c + 1, all dice). Future Encounters are matched with plain dice (cards are spent when used)
/// and carry no bonus Nuyen; the column depth is capped (8 by default).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cards/encounters/match.hpp"
#include "cards/encounters/notation.hpp"
#include "common/error.hpp"
#include "dice/roller.hpp"

namespace duels::cards::encounters {

/// The Encounter Values still to come, as (value, weight) pairs; weights need not sum to 1.
struct ValueMix {
  std::vector<std::pair<int, double>> weights;
};

/// Uniform over lo..hi (the default mix is 1..12).
ValueMix uniform_mix(int lo = 1, int hi = 12);
/// The histogram of values seen (repeats weigh more); the default mix when none are given.
ValueMix mix_from_values(const std::vector<int>& values);
/// Parses "1-12", "3,5,7,7" (repeats weigh more) or "5:2,7:1" (value:weight); values 1..48.
Expected<ValueMix, SpecError> parse_value_mix(std::string_view text);

/// What the advisor maximises.
enum class Objective : std::uint8_t {
  ExpectedNuyen,  ///< the Nuyen this run is expected to score
  ReachTarget,    ///< the chance this run scores at least `nuyen_needed`
};

/// Inputs of the dynamic programme.
struct AdvisorSettings {
  ValueMix mix = uniform_mix();
  int column_cap = 8;
  int standard_dice = 6;  ///< dice recovered on escalation
  Objective objective = Objective::ExpectedNuyen;
  int nuyen_needed = 0;  ///< ReachTarget: Nuyen still needed to win
};

/// The push / score / escalate dynamic programme, memoised per (column, unlocked, banked).
/// Not thread-safe (it fills its memo as it answers); copy one per thread.
class Advisor {
 public:
  explicit Advisor(AdvisorSettings settings);

  /// Value of a decision point after a defeat: the best of score, push and (all locked) escalate.
  double value(int column, int unlocked, int banked);
  /// Value of pushing now with `unlocked` ≥ 1 dice (also the value of a Datasteal attempt, and
  /// of a fresh turn at (1, 6, 0)).
  double push(int column, int unlocked, int banked);
  /// Value of escalating with every die locked; -infinity at the column cap.
  double escalate(int column, int banked);
  /// Value of scoring `banked` now.
  [[nodiscard]] double score(int banked) const;
  /// P(the next Encounter is beaten with plain dice) for `unlocked` fresh dice, over the mix.
  double p_beat(int unlocked);

  [[nodiscard]] const AdvisorSettings& settings() const { return settings_; }

 private:
  /// For `u` dice: (mask of achievable lock sizes, probability) over rolls and the mix.
  const std::vector<std::pair<std::uint32_t, double>>& size_masks(int u);

  AdvisorSettings settings_;
  double mix_total_ = 0;
  std::vector<std::vector<std::pair<std::uint32_t, double>>> masks_;  // by u
  std::vector<std::vector<std::vector<double>>> memo_;                // [column][u][banked]
};

/// What to do at a decision point after a defeat, with the numbers.
struct PushAdvice {
  int column = 1;
  int unlocked = 6;
  int banked = 0;
  double score_value = 0;
  double push_value = 0;
  std::optional<double> escalate_value;  ///< only when every die is locked
  double p_beat_next = 0;  ///< with the dice that would roll next (all after escalating)
  std::string verdict;     ///< "score", "push" or "escalate"
  std::string why;
};
PushAdvice advise_push(Advisor& advisor, int column, int unlocked, int banked);

/// One achievable number of dice to lock against the rolled Encounter.
struct LockOption {
  int dice_locked = 0;
  int dice_left = 0;
  double value = 0;   ///< value of the decision point it leads to
  int solution = -1;  ///< index of the best-ranked way of that size in the MatchResult
  int cards_used = 0;
  int retain_cost_nuyen = 0;
};
/// Which number of dice to lock (A3.2): one option per achievable size, best value first.
struct LockAdvice {
  std::vector<LockOption> options;
  std::string why;
};
LockAdvice advise_lock(Advisor& advisor, int column, int banked, int encounter_bonus,
                       const MatchResult& found, int unlocked);

/// Datasteal against a fresh start (A3.6), for the player who may steal.
struct StealAdvice {
  double steal_value = 0;  ///< pushing from the inherited (column, unlocked, banked)
  double fresh_value = 0;  ///< a new run from (1, all dice, 0)
  bool steal = false;
  std::string why;
};
StealAdvice advise_steal(Advisor& advisor, int column, int unlocked, int banked);

/// Burn the Run (A3.6), for the player who just failed: is denying the next player's Datasteal
/// worth a Shadowrunner?
struct BurnAdvice {
  double denied_value = 0;  ///< the next player's gain from stealing over starting fresh
  double runner_value = 0;  ///< what the cheapest Shadowrunner is taken to be worth (its cost)
  bool burn = false;
  std::string why;
};
BurnAdvice advise_burn(Advisor& advisor, int column, int unlocked, int banked, double runner_value);

/// Retain a Shadowrunner just used, or let it go and hire blind later (A3.5).
struct RetainAdvice {
  double p_plain = 0;      ///< P(beat the next Encounter) without the card
  double p_with_card = 0;  ///< … with it
  double stake = 0;        ///< what failing the next Encounter costs (banked + its column)
  double card_value = 0;   ///< (p_with_card − p_plain) × stake
  int retain_cost = 3;
  double expected_hire_cost = 3;
  bool retain = false;
  std::string why;
};
Expected<RetainAdvice, std::string> advise_retain(Advisor& advisor, const RunnerCard& card,
                                                  int column, int unlocked, int banked, int nuyen,
                                                  const std::vector<int>& hire_costs);

/// The solo planner (A3.7): P(reaching the target within the turns left), by simulating whole
/// turns with the expected-Nuyen policy.
struct SoloPlan {
  double p_win = 0;
  int trials = 0;
  double mean_nuyen = 0;  ///< average Nuyen at the end of the simulated turns
};
SoloPlan plan_solo(Advisor& ev_advisor, int nuyen, int target, int turns_left, dice::Rng& rng,
                   int trials);

/// Every achievable plain lock size for these faces against `value`, as a bit mask.
std::uint32_t plain_lock_sizes(const std::vector<int>& faces, int value);

/// The same value function without the per-size tables: walks every ordered roll and every
/// subset at each state. The benchmark's baseline; answers must equal Advisor::push.
double brute_force_push(const AdvisorSettings& settings, int column, int unlocked, int banked);

}  // namespace duels::cards::encounters
