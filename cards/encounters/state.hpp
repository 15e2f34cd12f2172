#pragma once
/// @file Everything the Encounters tracker knows about a game (spec A1), as one copyable value.
///
/// The cards stay on the table; this is the helper's record of them. A State only changes
/// through apply(state, command) (rules.hpp), so undo is "replay without the last command".

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cards/encounters/notation.hpp"

namespace duels::cards::encounters {

/// Where the game stands: which commands make sense now.
enum class Phase : std::uint8_t {
  Setup,            ///< adding players, settings, Districts, starting Shadowrunners
  DatastealChoice,  ///< the new active player chooses Datasteal or a fresh start
  TurnStart,        ///< before the first flip: ignore or change the District, then flip
  MustFlip,         ///< an Encounter without a value was handed out: flip the next at once
  Encounter,        ///< an Encounter is revealed: hire (once), add bonus dice, then roll
  Rolled,           ///< dice rolled: defeat the Encounter or fail
  Between,          ///< every revealed Encounter is defeated: retain, score, push or escalate
  BurnChoice,       ///< the active player failed with Encounters locked: burn the run or not
  GameOver,
};

/// Words for a phase ("choose Datasteal or a fresh start", …).
const char* phase_name(Phase phase);

/// A Megacorporation card: name and the cost of its ability.
struct Megacorp {
  std::string name;
  int ability_cost = 0;
  bool can_target_self = true;
  friend bool operator==(const Megacorp&, const Megacorp&) = default;
};

/// A Shadowrunner in a player's area.
struct Runner {
  RunnerCard card;
  bool face_up = true;
  friend bool operator==(const Runner&, const Runner&) = default;
};

/// One player: Nuyen, Megacorporation, Shadowrunners, Special Shadowrunners, tokens.
struct Player {
  std::string name;
  int nuyen = 0;
  int earned_nuyen = 0;  ///< everything ever scored (for the "cumulative" win setting)
  Megacorp megacorp;
  std::vector<Runner> runners;       ///< normal Shadowrunners, at most 5
  std::vector<RunnerCard> specials;  ///< Special Shadowrunners (do not count toward the 5)
  std::vector<std::string> tokens;   ///< Encounters without a value held (Data Worm, …)
  friend bool operator==(const Player&, const Player&) = default;
};

/// A defeated Encounter in the run tableau.
struct Defeated {
  EncounterCard card;
  int column = 1;
  int defeated_by = 0;  ///< player index
  friend bool operator==(const Defeated&, const Defeated&) = default;
};

/// One die of the run: its face (0 before a roll), whether it is locked, on which Encounter.
struct RunDie {
  int face = 0;
  bool locked = false;
  int locked_on = -1;  ///< index into Run::tableau
  bool bonus = false;  ///< a bonus die (set aside on escalation)
  friend bool operator==(const RunDie&, const RunDie&) = default;
};

/// The shared run tableau (kept through a Datasteal chain) and this Encounter's bookkeeping.
struct Run {
  std::vector<Defeated> tableau;
  int column = 1;
  std::optional<EncounterCard> current;  ///< revealed and not defeated (or the failed one)
  std::vector<RunDie> dice;
  bool hired_this_encounter = false;
  std::vector<std::string> used_abilities;  ///< "Runner#i" used against the current Encounter
  std::vector<std::string> pending_retain;  ///< runners just used: retain now or discard
  int origin = -1;         ///< the player who locked the first Encounters still in play
  std::vector<int> chain;  ///< players who played on this tableau, in order
  int defeated_this_turn = 0;
  friend bool operator==(const Run&, const Run&) = default;
};

/// Game settings (spec A2.12, A2.13, A5.1).
struct Settings {
  int target_nuyen = 30;    ///< 20, 30 or 40
  bool solo = false;        ///< solo mode: 20¥ within turn_limit turns, no Datasteal
  int turn_limit = 12;      ///< solo: 12, or 10 for the hard mode
  bool cumulative = false;  ///< win on Nuyen earned rather than Nuyen held
  friend bool operator==(const Settings&, const Settings&) = default;
};

/// Card counts of the two decks; a deck count of -1 means "not tracked".
struct Decks {
  int encounter_deck = -1;
  int encounter_discard = 0;
  int runner_deck = -1;
  int runner_discard = 0;
  friend bool operator==(const Decks&, const Decks&) = default;
};

/// The whole game.
struct State {
  Settings settings;
  std::vector<Player> players;  ///< seat order; play passes left (to the next index)
  int active = 0;
  Phase phase = Phase::Setup;
  int turn_number = 0;                  ///< turns begun so far (solo counts these)
  std::vector<std::string> districts;   ///< standing Districts, front first
  bool districts_need_shuffle = false;  ///< 5+ icons: shuffle and enter the new order
  std::string district_this_turn;       ///< frozen at the first flip; "" when ignored/unknown
  bool district_frozen = false;
  bool district_ignored = false;
  int ignores_left = 1;  ///< Shadowrunners that may still be turned face down this turn
  bool district_changed = false;
  int pending_district_icons = 0;         ///< Rotate-District icons since the last rotation
  int megacorp_used_against_active = -1;  ///< the opponent who used theirs this turn, or -1
  Decks decks;
  Run run;
  bool must_discard = false;  ///< the active player holds 6 Shadowrunners: discard one now
  int winner = -1;
  bool solo_lost = false;
  std::vector<int> seen_values;  ///< Encounter Values flipped so far (the advisor's default mix)
  friend bool operator==(const State&, const State&) = default;
};

}  // namespace duels::cards::encounters
