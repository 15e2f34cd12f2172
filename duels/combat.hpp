#pragma once
/// @file One attack, steps E–L of the combat order, from rolled dice to clicks of damage.
///
/// Pure arithmetic on rolled results: the engine (engine.hpp) decides who may roll what, and
/// this file decides what the rolled dice do. `duels resolve` prints `describe_attack()`.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dice/die.hpp"

namespace duels {

/// The four named ace effects (yellow and white aces only add their click).
enum class AceEffect : std::uint8_t { Stun, CalledShot, TechSuperiority, MajorMojo };
std::string_view ace_effect_name(AceEffect e);  ///< "stun", "called_shot", …
/// The effect an ace of this colour has, if any.
std::optional<AceEffect> ace_effect_of(dice::Colour c);

/// Everything steps E–L need: the rolled dice and the numbers on the two figures.
struct AttackInput {
  int weapon = 0;                            ///< attacker's Weapon dial value
  int body = 0;                              ///< defender's Body dial value
  std::vector<dice::Roll> attack;            ///< attack dice as rolled
  std::vector<dice::Roll> dodge;             ///< dodge dice as rolled (may be empty)
  std::vector<dice::Colour> shields;         ///< defender's gear shields plus dial shields showing
  std::map<dice::Colour, int> bonus;         ///< attacker's damage bonus per colour
  std::optional<dice::Colour> bonus_choice;  ///< attacker's pick; absent = the largest bonus
  friend bool operator==(const AttackInput&, const AttackInput&) = default;
};

/// What the dice did. Indices refer to `AttackInput::attack`.
struct AttackResult {
  std::vector<int> bad_karma;  ///< E: removed because another non-ace die showed the same number
  std::vector<int> aces;       ///< F: set aside, count 0
  std::vector<int> counted;    ///< G: non-ace dice that add to the attack
  int attack_total = 0;        ///< G: weapon + counted dice
  int defence_total = 0;       ///< G: body + dodge dice (aces count 0)
  bool no_dice_left = false;   ///< E: Bad Karma took every die and no ace: automatic miss
  bool hit = false;            ///< H: attack ≥ defence (ties hit)
  std::vector<int> blocked;    ///< I–J: counted dice stopped by a shield of their colour
  std::vector<int> damaging;   ///< K: counted dice not blocked
  std::optional<dice::Colour> bonus_colour;  ///< K: the bonus applied
  int bonus = 0;
  std::vector<AceEffect> ace_effects;  ///< L: one entry per ace with a named effect
  int clicks = 0;                      ///< total damage clicks (0 on a miss)
  friend bool operator==(const AttackResult&, const AttackResult&) = default;

  [[nodiscard]] bool has_effect(AceEffect e) const;
  [[nodiscard]] int effect_count(AceEffect e) const;
};

/// Why a bonus choice was refused.
struct BonusChoiceError {
  std::string reason;
};

/// Steps E–L. Throws nothing; an impossible `bonus_choice` (no damaging die of that colour or
/// no bonus for it) is ignored in favour of the largest — use `check_bonus_choice` first when
/// the choice came from a player.
AttackResult resolve_attack(const AttackInput& in);

/// The colours the attacker may take a bonus for after a hit (dice that still do damage,
/// aces included), with their bonus. Empty when no bonus applies.
std::map<dice::Colour, int> bonus_options(const AttackInput& in, const AttackResult& r);

/// The steps in words, one line each, lettered as in the rulebook's combat order.
std::vector<std::string> describe_attack(const AttackInput& in, const AttackResult& r);

}  // namespace duels
