#pragma once
/// @file The text notation for Shadowrun Trading Card Game cards (spec C1, C2.8, C2.9).
///
/// Threat Rating: `A/B` with an optional armor `A<n>` (also written `(A<n>)`), e.g. `6/4`,
/// `5/8 A2`, `2/3 (A2)`. A list of them is separated by commas: `6/4,3/3 A1`.
///
/// Cards are words separated by spaces or `;`, the name before the first `: `:
///   Runner     Tin Man: 5/5 A1; Firearms 2; Athletics; Stamina; Fame 2; cost 8/2; prime; cyborg
///   Challenge  Hellish Traffic: -; sleaze Piloting 3; street; ends-run
///              Ork Bouncer: 4/5 A1; sleaze Social 2; pump 2 +2/+0; personnel
///   Objective  Data Heist: rep 25; requires Decking 2; no-indoor
///   Gear       Ares Predator: weapon; +3/+0; cost 3
///              Skillsoft Athletics: cyberware; Athletics +1; essence 1; cost 2
///              Crawler: drone; 2/3 A1; cost 2          (needs Piloting: its user is a Rigger)
/// Words (case-insensitive):
///   `A/B` Threat Rating (`-` for none), `+a/+b` a modifier (gear, weapons), `A<n>` flat armor
///   (flat ratings do not stack: the highest counts), `A+<n>` additive armor;
///   a skill (Athletics, Conjure, Decking, Demolitions, Firearms, Gunnery, Leadership, Melee,
///   Piloting, Social, Sorcery, Stealth, Streetwise, Technical) with an optional rating
///   (`Firearms 2`, `Firearms:2`; 1 when left out); a trait (Anti-social, Biotech, Fame, Guard,
///   Hermit, Recon, Stamina) with an optional rating;
///   `cost N` or `cost N/U` (deploy / upkeep), `upkeep U`, `prime`, `unique`,
///   `pump C +a/+b` (C¥ per +a/+b, reverts at end of turn), `ap` (armor-piercing attack),
///   runner keywords `mage shaman burned-out-mage cyborg decker rigger physad troll ork elf dwarf
///   human`, Challenge / Objective keywords `awakened barrier closed-system electrical indoor
///   miscellaneous outdoor personnel street vehicle`, `keyword WORD` for any other keyword.
/// In a Challenge, skills are its sleaze requirement (`sleaze` before them is optional); in an
/// Objective they are its requirement (`requires` is optional). A Gear card starts with its
/// type (accessory armor cyberware cyberdeck drone misc program spell spirit vehicle weapon);
/// skills followed by `+N` are bonuses (skillsoft), others are what the user needs.
/// Combat extras on a runner (calculator only): `dmg N` damage tokens, `pumped N` pumps bought,
/// `burst N` a Burst Fire roll added, `drone` / `spirit` (it is one), `indirect` (fires from
/// the safehouse: adds Attack, cannot be hit), `controller` (a Rigger or Shaman running drones
/// or spirits: adds no Attack, can be hit), `protect` (the suggested split spares it first).
///
/// Every parser is total: any input gives a value or a SpecError pointing at the bad token.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cards/common/scan.hpp"
#include "common/error.hpp"

namespace duels::cards::srtcg {

/// Skill or trait name (canonical spelling) → rating.
using Ratings = std::map<std::string, int>;

/// Attack / Body of a card.
struct Threat {
  int attack = 0;
  int body = 0;
  friend bool operator==(const Threat&, const Threat&) = default;
};

/// Armor from every source: the highest flat rating plus every additive one (ambiguity 15).
struct Armor {
  int flat = 0;  ///< the highest `A<n>` (flat ratings do not stack)
  int add = 0;   ///< Σ `A+<n>`
  [[nodiscard]] int value() const { return flat + add; }
  friend bool operator==(const Armor&, const Armor&) = default;
};

/// A pump ability: each payment of `cost`¥ adds +attack/+body until the end of the turn.
struct Pump {
  int cost = 0;  ///< 0: the card cannot be pumped
  int attack = 0;
  int body = 0;
  friend bool operator==(const Pump&, const Pump&) = default;
};

/// What a runner does in a combat (calculator input; the tracker derives it).
enum class Role : std::uint8_t {
  Runner,      ///< attacks and can be hit
  Drone,       ///< an active drone: attacks, can be hit, suffers Fatigue
  Spirit,      ///< an active spirit: as a drone
  Controller,  ///< a Rigger / Shaman running drones or spirits: adds no Attack, can be hit
  Indirect,    ///< Indirect Fire from the safehouse: adds its Attack, cannot be hit
};

/// A Runner card (with the situation, for the combat calculator).
struct RunnerCard {
  std::string name;
  Threat threat;
  Threat mod;  ///< Σ `+a/+b` modifiers (gear written on the runner)
  Armor armor;
  Ratings skills;
  Ratings traits;
  std::vector<std::string> keywords;  ///< lower-case: mage, shaman, cyborg, rigger, …
  int cost = 0;
  int upkeep = 0;
  bool prime = false;
  bool unique = false;
  Pump pump;
  // Situation (combat calculator); zero for a card in hand.
  int damage = 0;  ///< damage tokens
  int pumped = 0;  ///< pumps bought this turn
  int burst = 0;   ///< Burst Fire roll added to Attack
  bool armor_piercing = false;
  bool protect = false;
  Role role = Role::Runner;
  friend bool operator==(const RunnerCard&, const RunnerCard&) = default;
};

/// A Challenge card.
struct ChallengeCard {
  std::string name;
  std::optional<Threat> threat;  ///< nullopt: no Threat Rating (follow its text)
  Threat mod;
  Armor armor;
  bool armor_piercing = false;
  Ratings sleaze;         ///< the sleaze requirement; empty: it cannot be sleazed
  bool ends_run = false;  ///< no Threat Rating and a failed sleaze ends the run (Hellish Traffic)
  std::vector<std::string> keywords;
  int cost = 0;
  bool unique = false;
  Pump pump;
  int pumped = 0;
  friend bool operator==(const ChallengeCard&, const ChallengeCard&) = default;
};

/// An Objective card.
struct ObjectiveCard {
  std::string name;
  int rep = 0;  ///< Reputation value
  std::optional<Threat> threat;
  Threat mod;
  Armor armor;
  bool armor_piercing = false;
  Ratings requirements;               ///< skills the team must have (summed) to take it
  std::vector<std::string> keywords;  ///< incl. no-indoor / no-outdoor restrictions
  bool unique = false;
  friend bool operator==(const ObjectiveCard&, const ObjectiveCard&) = default;
};

/// Gear types (spec C1).
enum class GearType : std::uint8_t {
  Accessory,
  Armor,
  Cyberware,
  Cyberdeck,
  Drone,
  Misc,
  Program,
  Spell,
  Spirit,
  Vehicle,
  Weapon,
};

/// "weapon", "cyberware", …
const char* gear_type_name(GearType type);

/// A Gear card.
struct GearCard {
  std::string name;
  GearType type = GearType::Misc;
  Threat mod;                    ///< +a/+b to its user
  std::optional<Threat> threat;  ///< drones and spirits fight on their own
  Armor armor;                   ///< armor it gives its user (or a drone's own)
  int essence = 0;               ///< cyberware
  Ratings needs;                 ///< skills its user must have (type defaults added)
  Ratings bonus;                 ///< skills it adds to its user (skillsoft: +1)
  int burst_cost = -1;           ///< Burst Fire cost, -1: none
  bool indirect = false;         ///< Indirect Fire
  bool silenced = false;
  bool armor_piercing = false;
  std::vector<std::string> keywords;
  int cost = 0;
  int upkeep = 0;
  bool unique = false;
  friend bool operator==(const GearCard&, const GearCard&) = default;
};

/// A notation mistake (cards/common/scan.hpp).
using SpecError = cards::SpecError;

/// The canonical skill name for `word` ("piloting" → "Piloting"), or "" if it is none.
std::string skill_name(std::string_view word);
/// The canonical trait name ("antisocial" → "Anti-social"), or "" if it is none.
std::string trait_name(std::string_view word);
/// Every skill, in the rulebook's order.
const std::vector<std::string>& all_skills();

/// `A/B [A<n>]` alone (the challenge / runner of the combat command without extras).
Expected<RunnerCard, SpecError> parse_threat(std::string_view text);
Expected<RunnerCard, SpecError> parse_runner(std::string_view text);
/// Comma-separated runners ("6/4,3/3 A1").
Expected<std::vector<RunnerCard>, SpecError> parse_runner_list(std::string_view text);
Expected<ChallengeCard, SpecError> parse_challenge(std::string_view text);
Expected<ObjectiveCard, SpecError> parse_objective(std::string_view text);
Expected<GearCard, SpecError> parse_gear(std::string_view text);
/// Skills and traits of one runner for a sleaze check: "Piloting:1, Stealth 2, anti-social".
Expected<RunnerCard, SpecError> parse_skills(std::string_view text);
/// A requirement "Piloting:3" or "Piloting 3, Stealth 1".
Expected<Ratings, SpecError> parse_requirement(std::string_view text);

/// Canonical texts; parse_X(to_notation(c)) == c.
std::string to_notation(const RunnerCard& card);
std::string to_notation(const ChallengeCard& card);
std::string to_notation(const ObjectiveCard& card);
std::string to_notation(const GearCard& card);
/// "5/8 A2", "6/4", "-" (no Threat Rating).
std::string threat_text(const std::optional<Threat>& threat, const Armor& armor);
/// "Piloting 3, Stealth"
std::string ratings_text(const Ratings& ratings);

}  // namespace duels::cards::srtcg
