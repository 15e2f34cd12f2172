#pragma once
/// @file Everything the table can tell the Crossfire tracker, as plain values.
///
/// Commands are what the journal stores: each has a stable JSON form (json.hpp) with a "type"
/// field. Cards drawn and revealed are inputs carried by the commands (Crossfire uses no
/// dice). Runners, obstacles and cards are named, and card damage and obstacles are kept in
/// their text notation (notation.hpp), so a journal reads well.

#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

namespace duels::cards::crossfire {

/// Setup: the mission, the bonus challenges (keys; danger-zone may repeat) and house rules.
struct Configure {
  static constexpr const char* kType = "configure";
  std::string mission = "crossfire";
  std::vector<std::string> bonuses;
  bool bonus_on_abort = false;
  friend bool operator==(const Configure&, const Configure&) = default;
};

/// Setup: a runner joins (seat order = order added). Metatype numbers are taken from the
/// Runner card (the console fills them from the editable metatype table).
struct AddRunner {
  static constexpr const char* kType = "add_runner";
  std::string name;
  std::string metatype;
  std::vector<std::string> roles;  ///< colour or role words; the first is the main role
  int hp = 0;
  int nuyen = 0;           ///< starting nuyen, before the +1 for several roles
  int starting_cards = 0;  ///< cards drawn at setup
  int deck = 7;            ///< starting deck size
  int karma_in_upgrades = 0;
  friend bool operator==(const AddRunner&, const AddRunner&) = default;
};

/// Setup ends: roles are checked, hands dealt, the mission set up; `starting` keeps the
/// Crossfire deck all game.
struct StartGame {
  static constexpr const char* kType = "start_game";
  std::string starting;
  friend bool operator==(const StartGame&, const StartGame&) = default;
};

/// The starting runner's Crossfire step: the active card goes to the discard (its timebomb
/// checks the level), and this card becomes active.
struct DrawCrossfire {
  static constexpr const char* kType = "draw_crossfire";
  std::string name;
  bool continuous = false;
  bool timebomb = false;
  int threshold = 0;  ///< N for "N+" (0: none)
  std::string text;
  friend bool operator==(const DrawCrossfire&, const DrawCrossfire&) = default;
};

/// The Crossfire step when no card is drawn this round (or the deck is empty).
struct BeginRound {
  static constexpr const char* kType = "begin_round";
  friend bool operator==(const BeginRound&, const BeginRound&) = default;
};

/// Obstacles (or bosses) flipped, in flip order, in obstacle notation. Those without faces:
/// follow the mission (Crossfire: the first faces the runner of its colour, the rest clockwise;
/// Extraction: the Client; Dragon Fight: from the left of the Dragon's runner).
struct Flip {
  static constexpr const char* kType = "flip";
  std::vector<std::string> obstacles;
  friend bool operator==(const Flip&, const Flip&) = default;
};

/// Extraction: as the turn opens, a runner pulls one obstacle of a role colour off the Client.
struct Pull {
  static constexpr const char* kType = "pull";
  std::string obstacle;
  friend bool operator==(const Pull&, const Pull&) = default;
};

/// An obstacle moves to face another runner (Whip, Striker, card text); optionally it can't
/// attack this turn.
struct MoveObstacle {
  static constexpr const char* kType = "move_obstacle";
  std::string obstacle;
  std::string to;
  bool cannot_attack = false;
  friend bool operator==(const MoveObstacle&, const MoveObstacle&) = default;
};

/// Changes an obstacle's attack modifier, or stops it attacking this turn.
struct ModifyObstacle {
  static constexpr const char* kType = "modify_obstacle";
  std::string obstacle;
  int attack_bonus = 0;  ///< added to its modifier
  bool cannot_attack = false;
  bool cancel_abilities = false;
  friend bool operator==(const ModifyObstacle&, const ModifyObstacle&) = default;
};

/// Obstacle healing: cleared levels become uncleared, right-most first (B5.3). 0 = all.
struct HealObstacle {
  static constexpr const char* kType = "heal_obstacle";
  std::string obstacle;
  int levels = 1;
  friend bool operator==(const HealObstacle&, const HealObstacle&) = default;
};

/// A card played (from hand; an assist when its owner is not the current runner), with its
/// damage in bundle notation and where it goes.
struct PlayCard {
  static constexpr const char* kType = "play_card";
  std::string card;
  std::string owner;            ///< "" = the current runner
  std::string card_type;        ///< weapon, spell, hacking, skill or "" (other)
  std::string damage = "none";  ///< bundle notation without the name: "blue+1", "levels:2"
  std::string target;           ///< obstacle for its box ("" = none yet)
  std::vector<std::string> level_targets;  ///< obstacles for its single levels
  friend bool operator==(const PlayCard&, const PlayCard&) = default;
};

/// Changes where a card played this turn goes: the card at `index` in this turn's plays, or
/// (index -1) the first not yet applied with that name.
struct PlaceCard {
  static constexpr const char* kType = "place_card";
  std::string card;
  int index = -1;
  std::string target;
  std::vector<std::string> level_targets;
  friend bool operator==(const PlaceCard&, const PlaceCard&) = default;
};

/// Step 2: every placed card's damage is applied, obstacle by obstacle (best use of the points
/// beside each), defeated obstacles pay out and go, cards go to their owners' discards.
struct ApplyDamage {
  static constexpr const char* kType = "apply_damage";
  friend bool operator==(const ApplyDamage&, const ApplyDamage&) = default;
};

/// Damage outside the play (Grenade!, an event, a DEFEATED ability): a bundle straight onto an
/// obstacle. `defeater`: who counts as current for the payout ("" = the current runner).
struct DirectDamage {
  static constexpr const char* kType = "direct_damage";
  std::string obstacle;
  std::string damage;
  std::string defeater;
  friend bool operator==(const DirectDamage&, const DirectDamage&) = default;
};

/// Step 3: the obstacles facing the current runner attack as one packet; `extra` is "when it
/// attacks" damage and modifiers not tracked; `stopped` names attackers prevented this time.
struct TakeDamage {
  static constexpr const char* kType = "take_damage";
  int extra = 0;
  std::vector<std::string> stopped;
  friend bool operator==(const TakeDamage&, const TakeDamage&) = default;
};

/// Damage to runners outside step 3 (an event, a DEFEATED ability): one packet each, current
/// runner first then clockwise.
struct Hurt {
  static constexpr const char* kType = "hurt";
  std::vector<std::string> runners;
  int amount = 1;
  friend bool operator==(const Hurt&, const Hurt&) = default;
};

/// Healing a runner (or the Client).
struct Heal {
  static constexpr const char* kType = "heal";
  std::string runner;
  int amount = 1;
  friend bool operator==(const Heal&, const Heal&) = default;
};

/// A runner draws (deck, then the discard reshuffled; stops when both are empty).
struct Draw {
  static constexpr const char* kType = "draw";
  std::string runner;
  int count = 1;
  friend bool operator==(const Draw&, const Draw&) = default;
};

/// A runner discards cards from hand.
struct DiscardCards {
  static constexpr const char* kType = "discard_cards";
  std::string runner;
  int count = 1;
  friend bool operator==(const DiscardCards&, const DiscardCards&) = default;
};

/// A runner gains (or spends, when negative) nuyen outside a buy.
struct GainNuyen {
  static constexpr const char* kType = "gain_nuyen";
  std::string runner;
  int amount = 0;
  friend bool operator==(const GainNuyen&, const GainNuyen&) = default;
};

/// Buying a Black Market card (step 4, or a Scene-end buy); it goes to the hand and the slot
/// is refilled.
struct Buy {
  static constexpr const char* kType = "buy";
  std::string card;
  int cost = 0;
  bool requires_spell = false;
  friend bool operator==(const Buy&, const Buy&) = default;
};

/// "Cycle": a Black Market card is discarded and replaced.
struct Cycle {
  static constexpr const char* kType = "cycle";
  friend bool operator==(const Cycle&, const Cycle&) = default;
};

/// Scene-end buy round: the buyer passes.
struct Pass {
  static constexpr const char* kType = "pass";
  friend bool operator==(const Pass&, const Pass&) = default;
};

/// Step 5: the turn ends.
struct EndTurn {
  static constexpr const char* kType = "end_turn";
  friend bool operator==(const EndTurn&, const EndTurn&) = default;
};

/// Manual override: set any tracked field (a JSON pointer into the state's JSON, e.g.
/// "/runners/0/nuyen") to a value. Card text beats the rules, so this is always available.
struct Override {
  static constexpr const char* kType = "override";
  std::string path;
  nlohmann::json value;
  friend bool operator==(const Override&, const Override&) = default;
};

/// Any command.
using Command = std::variant<Configure, AddRunner, StartGame, DrawCrossfire, BeginRound, Flip, Pull,
                             MoveObstacle, ModifyObstacle, HealObstacle, PlayCard, PlaceCard,
                             ApplyDamage, DirectDamage, TakeDamage, Hurt, Heal, Draw, DiscardCards,
                             GainNuyen, Buy, Cycle, Pass, EndTurn, Override>;

/// Something that happened, for the log and the screen.
struct Event {
  std::string type;  ///< short code: "defeated", "staggered", "timebomb", …
  std::string text;  ///< in words
  friend bool operator==(const Event&, const Event&) = default;
};

/// Why a command was refused, in words a player understands.
struct Rejection {
  std::string reason;
};

}  // namespace duels::cards::crossfire
