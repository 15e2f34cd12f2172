#pragma once
/// @file Everything a player (or the table) can tell the SRTCG tracker, as plain values.
///
/// Commands are what the journal stores: each has a stable JSON form (json.hpp) with a "type"
/// field. Dice results are inputs carried by the commands; nothing is rolled inside the rules.
/// Cards are given in their notation (notation.hpp), so a journal reads well. A runner is
/// named "Runner" (the active player's, or the only one with that name) or "Player:Runner".

#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

namespace duels::cards::srtcg {

/// Setup: a player joins (clockwise order = order added).
struct AddPlayer {
  static constexpr const char* kType = "add_player";
  std::string name;
  int deck = 60;       ///< cards in the draw deck (Objectives apart)
  int objectives = 6;  ///< cards in the Objective pile
  friend bool operator==(const AddPlayer&, const AddPlayer&) = default;
};

/// Setup: the Reputation goal (≥ 50) and the empty-pile option.
struct Configure {
  static constexpr const char* kType = "configure";
  int goal = 60;
  bool reshuffle_mid_turn = false;
  friend bool operator==(const Configure&, const Configure&) = default;
};

/// Setup ends: everyone draws 7 and has 4¥; `first_player` (random at the table) starts.
struct StartGame {
  static constexpr const char* kType = "start_game";
  std::string first_player;
  friend bool operator==(const StartGame&, const StartGame&) = default;
};

/// Before play: a player with no Challenge in hand trashes it and draws 7 new cards (once).
struct BadShuffle {
  static constexpr const char* kType = "bad_shuffle";
  std::string player;
  friend bool operator==(const BadShuffle&, const BadShuffle&) = default;
};

/// Ends the current phase (the next one's automatic steps follow: unturn and draw in Refresh,
/// the hand limit, pumps reverting and the next player at the end of the turn).
struct NextPhase {
  static constexpr const char* kType = "next_phase";
  friend bool operator==(const NextPhase&, const NextPhase&) = default;
};

/// Objective phase: the top Objective goes face down (`card` may stay empty until revealed).
struct PlaceObjective {
  static constexpr const char* kType = "place_objective";
  std::string card;
  friend bool operator==(const PlaceObjective&, const PlaceObjective&) = default;
};

/// The active player's face-down Objective is turned up (placed on an earlier turn).
struct RevealObjective {
  static constexpr const char* kType = "reveal_objective";
  std::string card;
  friend bool operator==(const RevealObjective&, const RevealObjective&) = default;
};

/// Credstick phase: income (4 + Fame + card income) or draw up to 7, then every upkeep.
struct Payday {
  static constexpr const char* kType = "payday";
  bool draw_to_seven = false;
  int card_income = 0;  ///< income printed on cards the tracker does not know
  friend bool operator==(const Payday&, const Payday&) = default;
};

/// Refresh phase: turn a damaged runner to remove all its damage.
struct Heal {
  static constexpr const char* kType = "heal";
  std::string runner;
  friend bool operator==(const Heal&, const Heal&) = default;
};

/// Refresh phase: turn a runner and the damaged gear it holds to repair the gear.
struct Repair {
  static constexpr const char* kType = "repair";
  std::string runner;
  std::string gear;
  friend bool operator==(const Repair&, const Repair&) = default;
};

/// Legwork: deploy a runner from hand, paying its cost.
struct Deploy {
  static constexpr const char* kType = "deploy";
  std::string card;  ///< runner notation
  friend bool operator==(const Deploy&, const Deploy&) = default;
};

/// Legwork: deploy a Location or Contact (or a Special that stays with upkeep).
struct DeployCard {
  static constexpr const char* kType = "deploy_card";
  std::string name;
  std::string kind = "location";  ///< location, contact, special
  int cost = 0;
  int upkeep = 0;
  int income = 0;
  friend bool operator==(const DeployCard&, const DeployCard&) = default;
};

/// Play a Special or a Stinger from hand (its effect is card text), paying its cost.
struct PlaySpecial {
  static constexpr const char* kType = "play_special";
  std::string player;  ///< "" = the active player
  std::string name;
  int cost = 0;
  friend bool operator==(const PlaySpecial&, const PlaySpecial&) = default;
};

/// Legwork: put a Challenge (or a bluff) on a player's Objective.
struct PlayChallenge {
  static constexpr const char* kType = "play_challenge";
  std::string target;  ///< the Objective's owner
  std::string card;    ///< Challenge notation; "" = played unseen (entered when revealed)
  bool bluff = false;  ///< any other card played as a Challenge
  friend bool operator==(const PlayChallenge&, const PlayChallenge&) = default;
};

/// Legwork: attach Gear from hand to an unturned runner that can use it.
struct AttachGear {
  static constexpr const char* kType = "attach_gear";
  std::string runner;
  std::string card;      ///< gear notation
  bool confirm = false;  ///< go ahead although the cyberware kills the runner (Essence > 6)
  friend bool operator==(const AttachGear&, const AttachGear&) = default;
};

/// Legwork: move Gear between two unturned runners (both turn; cyberware never moves).
struct SwapGear {
  static constexpr const char* kType = "swap_gear";
  std::string from;
  std::string to;
  std::string gear;
  friend bool operator==(const SwapGear&, const SwapGear&) = default;
};

/// Use a Spell or a Program (the card turns, not its user; limits by Sorcery / Decking).
struct UseGear {
  static constexpr const char* kType = "use_gear";
  std::string runner;
  std::string gear;
  friend bool operator==(const UseGear&, const UseGear&) = default;
};

/// Legwork: a Recon (looks at one Challenge card; Recon n allows n a turn).
struct Recon {
  static constexpr const char* kType = "recon";
  std::string runner;
  friend bool operator==(const Recon&, const Recon&) = default;
};

/// Its owner pumps a runner `times` times (reverts at end of turn).
struct PumpRunner {
  static constexpr const char* kType = "pump";
  std::string runner;
  int times = 1;
  friend bool operator==(const PumpRunner&, const PumpRunner&) = default;
};

/// During a run: the current Challenge's owner pumps it.
struct PumpChallenge {
  static constexpr const char* kType = "pump_challenge";
  int times = 1;
  friend bool operator==(const PumpChallenge&, const PumpChallenge&) = default;
};

/// Biotech: fully heal up to n present runners at once (once per turn).
struct Biotech {
  static constexpr const char* kType = "biotech";
  std::string healer;
  std::vector<std::string> targets;
  friend bool operator==(const Biotech&, const Biotech&) = default;
};

/// During a run: a Rigger activates a drone (or a Shaman a spirit) it holds.
struct Activate {
  static constexpr const char* kType = "activate";
  std::string runner;
  std::string gear;
  friend bool operator==(const Activate&, const Activate&) = default;
};

/// Shadowrun phase: run on a revealed Objective with up to 6 unturned runners; runners with
/// Indirect Fire weapons may fire from the safehouse.
struct StartRun {
  static constexpr const char* kType = "start_run";
  std::string target;  ///< the Objective's owner
  std::vector<std::string> team;
  std::vector<std::string> indirect;
  friend bool operator==(const StartRun&, const StartRun&) = default;
};

/// Multiplayer: the Objective's owner picks the order of the stacks (player names).
struct StackOrder {
  static constexpr const char* kType = "stack_order";
  std::vector<std::string> players;
  friend bool operator==(const StackOrder&, const StackOrder&) = default;
};

/// The next stack card is turned up: what it is (Challenge notation, or a bluff).
struct Reveal {
  static constexpr const char* kType = "reveal";
  std::string card;
  bool bluff = false;
  friend bool operator==(const Reveal&, const Reveal&) = default;
};

/// Sleaze the revealed Challenge: the team's summed skills against its requirement.
struct Sleaze {
  static constexpr const char* kType = "sleaze";
  friend bool operator==(const Sleaze&, const Sleaze&) = default;
};

/// A Burst Fire roll: the runner pays its weapon's cost and adds the D6.
struct BurstRoll {
  std::string runner;
  int roll = 1;
  friend bool operator==(const BurstRoll&, const BurstRoll&) = default;
};

/// Raw points of the opponent's Attack given to one target (a runner, drone or spirit).
struct SplitEntry {
  std::string target;
  int points = 0;
  friend bool operator==(const SplitEntry&, const SplitEntry&) = default;
};

/// Combat against the revealed Challenge (or the Objective's threat): simultaneous damage.
/// Without a split, the suggested one is used.
struct Fight {
  static constexpr const char* kType = "fight";
  std::vector<BurstRoll> bursts;
  std::vector<SplitEntry> split;
  friend bool operator==(const Fight&, const Fight&) = default;
};

/// A Challenge without a Threat Rating: the team dealt with its text (it is trashed).
struct Beat {
  static constexpr const char* kType = "beat";
  friend bool operator==(const Beat&, const Beat&) = default;
};

/// A Challenge's text stops the run (it goes back face down).
struct Stopped {
  static constexpr const char* kType = "stopped";
  friend bool operator==(const Stopped&, const Stopped&) = default;
};

/// After a passed Challenge: go on to the next.
struct Continue {
  static constexpr const char* kType = "continue";
  friend bool operator==(const Continue&, const Continue&) = default;
};

/// The whole team goes home.
struct PullOut {
  static constexpr const char* kType = "pull_out";
  friend bool operator==(const PullOut&, const PullOut&) = default;
};

/// Every stack is passed: meet the Objective's requirements and take it.
struct TakeObjective {
  static constexpr const char* kType = "take_objective";
  friend bool operator==(const TakeObjective&, const TakeObjective&) = default;
};

/// A player intercepts a run on an undefended Objective with unturned runners (runner against
/// runner). `targets`: for each intercepting runner, the team runner it fights; `extras`: when
/// the team is larger, for each team runner not picked (team order), the interceptor whose
/// fight it joins. Left empty: paired in order.
struct Intercept {
  static constexpr const char* kType = "intercept";
  std::string player;
  std::vector<std::string> runners;
  std::vector<std::string> targets;
  std::vector<std::string> extras;
  friend bool operator==(const Intercept&, const Intercept&) = default;
};

/// Damage from a card's text to one runner (armor applies unless armor-piercing); a Guard of
/// the same player may take `guard_takes` of it.
struct Damage {
  static constexpr const char* kType = "damage";
  std::string runner;
  int amount = 0;
  bool armor_piercing = false;
  std::string guard;
  int guard_takes = 0;
  friend bool operator==(const Damage&, const Damage&) = default;
};

/// A runner is trashed (or fragged) with everything it holds.
struct Kill {
  static constexpr const char* kType = "kill";
  std::string runner;
  bool frag = false;
  friend bool operator==(const Kill&, const Kill&) = default;
};

/// A gear card is trashed from a runner.
struct TrashGear {
  static constexpr const char* kType = "trash_gear";
  std::string runner;
  std::string gear;
  friend bool operator==(const TrashGear&, const TrashGear&) = default;
};

/// Cards drawn from the draw pile into the hand.
struct Draw {
  static constexpr const char* kType = "draw";
  std::string player;
  int count = 1;
  friend bool operator==(const Draw&, const Draw&) = default;
};

/// Cards trashed from hand (End phase: down to 7).
struct Discard {
  static constexpr const char* kType = "discard";
  std::string player;
  int count = 1;
  friend bool operator==(const Discard&, const Discard&) = default;
};

/// Nuyen gained or paid by card text.
struct Nuyen {
  static constexpr const char* kType = "nuyen";
  std::string player;
  int delta = 0;
  friend bool operator==(const Nuyen&, const Nuyen&) = default;
};

/// Reputation gained or lost by card text (the negative-reputation lock applies).
struct Reputation {
  static constexpr const char* kType = "reputation";
  std::string player;
  int delta = 0;
  friend bool operator==(const Reputation&, const Reputation&) = default;
};

/// Manual override: set any tracked field (a JSON pointer into the state's JSON, e.g.
/// "/players/0/credstick") to a value. Card text beats the rules, so this is always available.
struct Override {
  static constexpr const char* kType = "override";
  std::string path;
  nlohmann::json value;
  friend bool operator==(const Override&, const Override&) = default;
};

/// Any command.
using Command = std::variant<AddPlayer, Configure, StartGame, BadShuffle, NextPhase, PlaceObjective,
                             RevealObjective, Payday, Heal, Repair, Deploy, DeployCard, PlaySpecial,
                             PlayChallenge, AttachGear, SwapGear, UseGear, Recon, PumpRunner,
                             PumpChallenge, Biotech, Activate, StartRun, StackOrder, Reveal, Sleaze,
                             Fight, Beat, Stopped, Continue, PullOut, TakeObjective, Intercept,
                             Damage, Kill, TrashGear, Draw, Discard, Nuyen, Reputation, Override>;

/// Something that happened, for the log and the screen.
struct Event {
  std::string type;  ///< short code: "sleazed", "alarm", "died", "won", …
  std::string text;  ///< in words
  friend bool operator==(const Event&, const Event&) = default;
};

/// Why a command was refused, in words a player understands.
struct Rejection {
  std::string reason;
};

}  // namespace duels::cards::srtcg
