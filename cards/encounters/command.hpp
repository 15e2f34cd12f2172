#pragma once
/// @file Everything a player (or the table) can tell the Encounters tracker, as plain values.
///
/// Commands are what the journal stores: each has a stable JSON form (json.hpp) with a "type"
/// field. Dice results and drawn cards are inputs carried by the commands; nothing is rolled
/// or drawn inside the rules. Players and Shadowrunners are named, so a journal reads well.

#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

namespace duels::cards::encounters {

/// Setup: a player joins (seat order = order added).
struct AddPlayer {
  static constexpr const char* kType = "add_player";
  std::string name;
  std::string megacorp;  ///< Megacorporation name (none in solo)
  int megacorp_cost = 0;
  bool megacorp_self = true;  ///< the Megacorporation may target its own player
  int nuyen = 0;
  friend bool operator==(const AddPlayer&, const AddPlayer&) = default;
};

/// Setup: victory threshold, solo mode and turn limit, cumulative-earnings win.
struct Configure {
  static constexpr const char* kType = "configure";
  int target_nuyen = 30;
  bool solo = false;
  int turn_limit = 12;
  bool cumulative = false;
  friend bool operator==(const Configure&, const Configure&) = default;
};

/// The standing Districts, front first (setup, or after a shuffle).
struct SetDistricts {
  static constexpr const char* kType = "set_districts";
  std::vector<std::string> order;
  friend bool operator==(const SetDistricts&, const SetDistricts&) = default;
};

/// Card counts of the decks (-1: not tracked).
struct SetDecks {
  static constexpr const char* kType = "set_decks";
  int encounter_deck = -1;
  int encounter_discard = 0;
  int runner_deck = -1;
  int runner_discard = 0;
  friend bool operator==(const SetDecks&, const SetDecks&) = default;
};

/// Setup: a flipped candidate becomes the player's starting Shadowrunner (if legal).
struct DealStarter {
  static constexpr const char* kType = "deal_starter";
  std::string player;
  std::string runner;  ///< Shadowrunner notation
  friend bool operator==(const DealStarter&, const DealStarter&) = default;
};

/// Setup ends; `first_player` (chosen at random at the table) takes the dice.
struct StartGame {
  static constexpr const char* kType = "start_game";
  std::string first_player;
  friend bool operator==(const StartGame&, const StartGame&) = default;
};

/// Turn start: turn a Shadowrunner face down to ignore the District this turn.
struct IgnoreDistrict {
  static constexpr const char* kType = "ignore_district";
  std::string runner;
  friend bool operator==(const IgnoreDistrict&, const IgnoreDistrict&) = default;
};

/// Turn start: discard a Shadowrunner to put any District in front.
struct ChangeDistrict {
  static constexpr const char* kType = "change_district";
  std::string runner;
  std::string district;
  friend bool operator==(const ChangeDistrict&, const ChangeDistrict&) = default;
};

/// A card (Mitsuhamma Computer Technologies) changes the active player's District mid-turn;
/// the player may then turn one more Shadowrunner face down to ignore it.
struct MidTurnDistrict {
  static constexpr const char* kType = "mid_turn_district";
  std::string district;
  friend bool operator==(const MidTurnDistrict&, const MidTurnDistrict&) = default;
};

/// The next Encounter is revealed (first of the turn, a push, or after an escalation).
struct Flip {
  static constexpr const char* kType = "flip";
  std::string encounter;             ///< Encounter notation
  std::vector<std::string> holders;  ///< for a card without a value: who gets it (default: you)
  friend bool operator==(const Flip&, const Flip&) = default;
};

/// A blind hire: the drawn card, and whether it is paid for (a 2¥ card must be).
struct Hire {
  static constexpr const char* kType = "hire";
  std::string runner;  ///< Shadowrunner notation of the drawn card
  bool pay = true;
  friend bool operator==(const Hire&, const Hire&) = default;
};

/// Discard a Shadowrunner because a hire made six.
struct DiscardRunner {
  static constexpr const char* kType = "discard_runner";
  std::string runner;
  friend bool operator==(const DiscardRunner&, const DiscardRunner&) = default;
};

/// A card calls for bonus dice: add them unlocked (rolled with the next roll).
struct AddBonusDice {
  static constexpr const char* kType = "add_bonus_dice";
  int count = 1;
  friend bool operator==(const AddBonusDice&, const AddBonusDice&) = default;
};

/// The roll of every unlocked die, in die order (physical results or a seeded roller's).
struct Roll {
  static constexpr const char* kType = "roll";
  std::vector<int> faces;
  friend bool operator==(const Roll&, const Roll&) = default;
};

/// One ability use inside a Defeat: card, ability index, die (-1 for lift), value it becomes.
struct DefeatStep {
  std::string card;
  bool special = false;  ///< `card` names a Special Shadowrunner
  int ability = 0;
  int die = -1;
  int to = 0;
  friend bool operator==(const DefeatStep&, const DefeatStep&) = default;
};

/// Lock dice on the current Encounter: one set of die indices (two for "twice"), and the
/// ability steps that make them sum to its value.
struct Defeat {
  static constexpr const char* kType = "defeat";
  std::vector<std::vector<int>> groups;
  std::vector<DefeatStep> steps;
  friend bool operator==(const Defeat&, const Defeat&) = default;
};

/// No match (or the player declines the cards that would make one): the turn ends in defeat.
struct Fail {
  static constexpr const char* kType = "fail";
  friend bool operator==(const Fail&, const Fail&) = default;
};

/// Pay to keep a Shadowrunner just used (3¥; purple ones are kept free automatically).
struct Retain {
  static constexpr const char* kType = "retain";
  std::string runner;
  friend bool operator==(const Retain&, const Retain&) = default;
};

/// Score the tableau and end the turn.
struct Score {
  static constexpr const char* kType = "score";
  friend bool operator==(const Score&, const Score&) = default;
};

/// Every die is locked: take them back and start the next column.
struct Escalate {
  static constexpr const char* kType = "escalate";
  friend bool operator==(const Escalate&, const Escalate&) = default;
};

/// After failing: discard a Shadowrunner so no Datasteal can happen.
struct Burn {
  static constexpr const char* kType = "burn";
  std::string runner;
  friend bool operator==(const Burn&, const Burn&) = default;
};

/// After failing: do not burn; the next player may Datasteal.
struct DeclineBurn {
  static constexpr const char* kType = "decline_burn";
  friend bool operator==(const DeclineBurn&, const DeclineBurn&) = default;
};

/// The new active player keeps the failed tableau and plays on.
struct Datasteal {
  static constexpr const char* kType = "datasteal";
  friend bool operator==(const Datasteal&, const Datasteal&) = default;
};

/// The new active player discards the failed tableau and starts in Column 1.
struct FreshStart {
  static constexpr const char* kType = "fresh_start";
  friend bool operator==(const FreshStart&, const FreshStart&) = default;
};

/// A player pays for their Megacorporation's ability against the active player (or their own
/// turn). Its effect is card text: apply it with other commands or an override.
struct UseMegacorp {
  static constexpr const char* kType = "use_megacorp";
  std::string player;
  friend bool operator==(const UseMegacorp&, const UseMegacorp&) = default;
};

/// Manual override: set any tracked field (a JSON pointer into the state's JSON, e.g.
/// "/players/0/nuyen") to a value. Card text beats the rules, so this is always available.
struct Override {
  static constexpr const char* kType = "override";
  std::string path;
  nlohmann::json value;
  friend bool operator==(const Override&, const Override&) = default;
};

/// Any command.
using Command =
    std::variant<AddPlayer, Configure, SetDistricts, SetDecks, DealStarter, StartGame,
                 IgnoreDistrict, ChangeDistrict, MidTurnDistrict, Flip, Hire, DiscardRunner,
                 AddBonusDice, Roll, Defeat, Fail, Retain, Score, Escalate, Burn, DeclineBurn,
                 Datasteal, FreshStart, UseMegacorp, Override>;

/// Something that happened, for the log and the screen.
struct Event {
  std::string type;  ///< short code: "scored", "rotated", "won", …
  std::string text;  ///< in words
  friend bool operator==(const Event&, const Event&) = default;
};

/// Why a command was refused, in words a player understands.
struct Rejection {
  std::string reason;
};

}  // namespace duels::cards::encounters
