#pragma once
/// @file Everything the Crossfire tracker knows about a run (spec B1), as one copyable value.
///
/// The cards stay on the table; this is the team's shared record of them. A State only changes
/// through apply(state, command) (rules.hpp), so undo is "replay without the last command".
/// Runners are kept in clockwise seat order; in Extraction the Client sits among them (on the
/// starting runner's right, so it acts last in every round).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cards/crossfire/calc.hpp"
#include "cards/crossfire/notation.hpp"

namespace duels::cards::crossfire {

/// Where the run stands: which commands make sense now.
enum class Phase : std::uint8_t {
  Setup,       ///< choosing the mission, adding runners
  RoundStart,  ///< the starting runner's Crossfire step (and a mission's flips)
  Turn,        ///< a runner's turn (see TurnStep)
  SceneEnd,    ///< the buy round after a Scene: one buy or a pass each
  GameOver,
};
/// Words for a phase.
const char* phase_name(Phase phase);

/// The steps of a turn that the tracker enforces (spec B2.4).
enum class TurnStep : std::uint8_t {
  Play,        ///< play cards and assists, place them beside obstacles
  TakeDamage,  ///< damage applied: the obstacles facing the runner attack next
  DrawBuy,     ///< draw 2 if the hand is 3 or fewer (done), buy from the Black Market
};
const char* step_name(TurnStep step);

/// A runner (or the Extraction Client).
struct Runner {
  std::string name;
  std::string metatype;
  std::vector<Colour> roles;  ///< the first is the main role (its starting deck)
  bool client = false;
  int hp = 0;
  int max_hp = 0;
  bool staggered = false;
  bool critical = false;
  int nuyen = 0;
  int hand = 0;
  int deck = 0;
  int discard = 0;
  int karma_in_upgrades = 0;  ///< for the Karma award's scaling
  bool pulled = false;        ///< Extraction: pulled an obstacle off the Client this turn
  friend bool operator==(const Runner&, const Runner&) = default;
};

/// An obstacle or boss in play.
struct Obstacle {
  int id = 0;
  ObstacleCard card;           ///< track, cleared count, attack, nuyen, flags (card.faces unused)
  int facing = 0;              ///< seat it faces
  Points partial;              ///< points left short on its first uncleared level this turn
  int attack_bonus = 0;        ///< modifiers from events and cards (can be negative)
  bool cannot_attack = false;  ///< this turn (Whip, Striker, …)
  bool abilities_cancelled = false;
  friend bool operator==(const Obstacle&, const Obstacle&) = default;
};

/// A card played this turn, beside the obstacle it will damage.
struct PlayedCard {
  std::string name;
  int owner = 0;               ///< seat: its discard gets the card
  std::optional<Colour> type;  ///< Weapon / Spell / Hacking / Skill as a colour (none: other)
  Bundle bundle;
  int target = -1;                 ///< obstacle id of its box (-1: none)
  std::vector<int> level_targets;  ///< obstacle ids of its single levels
  bool assist = false;
  bool applied = false;  ///< its damage has been applied
  friend bool operator==(const PlayedCard&, const PlayedCard&) = default;
};

/// The active Crossfire event.
struct CrossfireEvent {
  std::string name;
  bool continuous = false;
  bool timebomb = false;
  int threshold = 0;  ///< N for "N+" (0: none)
  std::string text;
  friend bool operator==(const CrossfireEvent&, const CrossfireEvent&) = default;
};

/// Card counts of the shared decks.
struct Decks {
  int crossfire = 50;
  int crossfire_discard = 0;  ///< = the Crossfire level
  int normal = 40;
  int normal_discard = 0;
  int hard = 40;
  int hard_discard = 0;
  int market = 54;  ///< Black Market deck (60 less the 6 dealt)
  int market_discard = 0;
  int market_slots = 6;
  bool out_of_stock = false;
  friend bool operator==(const Decks&, const Decks&) = default;
};

/// Mission, bonus challenges and house rules.
struct Settings {
  Mission mission = Mission::Crossfire;
  std::vector<std::string> bonuses;  ///< bonus challenge keys (danger-zone may repeat)
  bool bonus_on_abort = false;       ///< house rule (B5.13)
  friend bool operator==(const Settings&, const Settings&) = default;
};

/// The whole run.
struct State {
  Settings settings;
  std::vector<Runner> runners;  ///< clockwise seat order
  Phase phase = Phase::Setup;
  TurnStep step = TurnStep::Play;
  int starting = 0;  ///< seat of the starting runner (keeps the Crossfire deck)
  int current = 0;   ///< seat whose turn it is (or who buys in a Scene-end buy round)
  int round = 0;
  int scene = 1;
  Decks decks;
  std::optional<CrossfireEvent> active_event;
  bool drew_this_round = false;
  std::vector<Obstacle> obstacles;
  int next_obstacle_id = 1;
  std::vector<PlayedCard> played;      ///< this turn
  std::vector<Colour> types_played;    ///< card types the current runner played this turn
  int last_defeater = -1;              ///< seat current when the last obstacle fell
  int aspects_defeated = 0;            ///< Dragon Fight
  bool aspect_fell_this_turn = false;  ///< Dragon Fight
  std::vector<int> buy_queue;          ///< Scene-end buy round: seats still to buy
  int first_buyer = -1;
  bool flip_pending = false;     ///< a Scene (or track step) waits for its flips
  int progress = 0;              ///< Extraction track step (1-7)
  bool abort_pending = false;    ///< a runner went critical: abort after this turn
  bool aborting = false;         ///< the abort round is under way
  std::vector<int> abort_queue;  ///< seats still to play in the abort round
  std::optional<Result> result;  ///< when the game is over
  std::string end_reason;
  friend bool operator==(const State&, const State&) = default;
};

/// The Crossfire level: the number of cards in the Crossfire discard.
inline int crossfire_level(const State& s) {
  return s.decks.crossfire_discard;
}

}  // namespace duels::cards::crossfire
