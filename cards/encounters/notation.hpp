#pragma once
/// @file The small text notation for Encounters cards: Shadowrunner abilities, Encounters, dice.
///
/// Shadowrunner (abilities separated by ';', the name before the first ':'):
///   Topshelf: wild 2,5; metahuman: +1; red
///   Contrary Mary: wild 4,6; megacorporation: +1
///   Fixer: +-1; cost 4; purple
///   Contacts: special +1          (a Special Shadowrunner won from an Encounter)
///   Tulio: lift                    (discard to lift a No-Shadowrunners icon)
///   +1                             (a nameless card; ": metahuman: +1" if it starts with a
///   keyword)
/// Items: `wild F,F…` (a die showing one of the faces may be set to any value 1..6), `+N`, `-N`,
/// `+-N` (change one die by N, 1 ≤ N ≤ 5), `KEYWORD: <+N|-N|+-N|wild …>` (only against an
/// Encounter with that keyword), `special +N`, `lift`, `red` (cannot Retain), `purple` (always
/// Retained, free), `cost N` (hire cost, 2 when not given).
///
/// Encounter (the name before ':', then the value or '-' for none, then words in any order):
///   Ancients Captain: 7 metahuman underworld
///   Vampire: 5 twice paracritter
///   Spirit of Fire: 6 no-runners magic rotate
///   Spirit of Air: 5 bonus 2 spirit
///   Contacts: 4 special +1
///   Data Worm: -
/// Words: a keyword, `bonus N` (green Nuyen icon), `rotate [N]` (Rotate-District icons),
/// `no-runners` (No-Shadowrunners icon), `twice` (defeat twice with the same roll),
/// `special +N` (becomes a Special Shadowrunner "+N to any die" when defeated).
///
/// Every parser is total: any input gives a value or a SpecError pointing at the bad token.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cards/common/scan.hpp"
#include "common/error.hpp"

namespace duels::cards::encounters {

/// What an ability does: change a die by N, make a matching face wild, or lift the icon.
enum class AbilityKind : std::uint8_t { Modify, Wild, Lift };

/// One ability printed on a Shadowrunner, usable once per Encounter.
struct Ability {
  AbilityKind kind = AbilityKind::Modify;
  int amount = 1;               ///< Modify: N in 1..5
  bool up = true;               ///< Modify: may add N
  bool down = false;            ///< Modify: may subtract N
  std::uint8_t wild_faces = 0;  ///< Wild: bit f set when face f (1..6) is wild
  std::string keyword;          ///< empty: always usable; else only against that keyword

  friend bool operator==(const Ability&, const Ability&) = default;
};

/// How a Shadowrunner may be kept after use: 3¥ (normal), never (red icon), free (purple icon).
enum class RetainMode : std::uint8_t { Normal, Never, Always };

/// A Shadowrunner card as the helper knows it: name, hire cost, retain icon and abilities.
struct RunnerCard {
  std::string name;
  int hire_cost = 2;
  RetainMode retain = RetainMode::Normal;
  bool special = false;  ///< a Special Shadowrunner: one "+X", then to the Encounter discard
  std::vector<Ability> abilities;

  friend bool operator==(const RunnerCard&, const RunnerCard&) = default;
};

/// An Encounter card: value (none for token cards), icons, keywords and card rules.
struct EncounterCard {
  std::string name;
  std::optional<int> value;  ///< nullopt: no Encounter Value (handed to players as a token)
  int bonus_nuyen = 0;       ///< green Nuyen icon
  int rotate_icons = 0;      ///< Rotate-District icons
  std::vector<std::string> keywords;  ///< lower-case
  bool no_runners = false;            ///< No-Shadowrunners icon
  bool twice = false;                 ///< "must be defeated twice with the same roll"
  int special_plus = 0;               ///< > 0: a Special Shadowrunner "+X" once defeated

  friend bool operator==(const EncounterCard&, const EncounterCard&) = default;
};

/// A notation mistake (cards/common/scan.hpp).
using SpecError = cards::SpecError;

/// Parses a Shadowrunner ("Topshelf: wild 2,5; metahuman: +1; red").
Expected<RunnerCard, SpecError> parse_runner(std::string_view text);
/// Parses an Encounter ("Vampire: 5 twice paracritter").
Expected<EncounterCard, SpecError> parse_encounter(std::string_view text);
/// Parses die faces "1,1,3" (commas or spaces; each 1..6; at most `max_dice`).
Expected<std::vector<int>, SpecError> parse_dice(std::string_view text, int max_dice = 8);
/// Parses keywords "metahuman,underworld" (lower-cased).
Expected<std::vector<std::string>, SpecError> parse_keywords(std::string_view text);
/// Parses an Encounter Value 1..48.
Expected<int, SpecError> parse_value(std::string_view text);

/// Canonical text of one ability ("metahuman: +1", "wild 2,5", "lift").
std::string to_notation(const Ability& ability);
/// Canonical text of a Shadowrunner; parse_runner(to_notation(c)) == c.
std::string to_notation(const RunnerCard& card);
/// Canonical text of an Encounter; parse_encounter(to_notation(e)) == e.
std::string to_notation(const EncounterCard& card);

/// True when `ability` may be used against an Encounter with these keywords. "metahuman" on an
/// ability also answers to human, elf, dwarf, ork and troll.
bool keyword_matches(const Ability& ability, const std::vector<std::string>& encounter_keywords);

/// The values a die showing `face` can become by one use of `ability` (bit v for value v, 1..6).
/// Only changes count: a +1 on a 6 gives nothing (the [1, 6] clamp), a wild 6 never "becomes" 6.
/// Larger steps stop at the edge (5 + 2 → 6).
std::uint8_t ability_targets(const Ability& ability, int face);

/// Starting Shadowrunners must cost exactly 2¥ and must not be Tulio, Corium or Osi. Returns the
/// reason in words when `card` may not start, nullopt when it may.
std::optional<std::string> starter_problem(const RunnerCard& card);

}  // namespace duels::cards::encounters
