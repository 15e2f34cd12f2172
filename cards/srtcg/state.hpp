#pragma once
/// @file Everything the SRTCG tracker knows about a game (spec C1), as one copyable value.
///
/// The cards stay on the table; this is the helper's record of them. A State only changes
/// through apply(state, command) (rules.hpp), so undo is "replay without the last command".
/// Hidden cards (a face-down Objective, the Challenges on a stack) may be entered when played
/// or only when revealed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cards/srtcg/notation.hpp"

namespace duels::cards::srtcg {

/// The six turn phases (spec C2.3), plus set-up and game over.
enum class Phase : std::uint8_t {
  Setup,
  Objective,
  Credstick,
  Refresh,
  Legwork,
  Shadowrun,
  End,
  GameOver,
};

/// "Objective", "Credstick", …
const char* phase_name(Phase phase);

/// A Gear card held by a runner in play.
struct HeldGear {
  GearCard card;
  bool turned = false;
  int damage = 0;       ///< drones and spirits take damage
  bool active = false;  ///< a drone or spirit activated on the current run
  friend bool operator==(const HeldGear&, const HeldGear&) = default;
};

/// A runner in a safehouse, with its turn-scope bookkeeping.
struct Runner {
  RunnerCard card;  ///< as printed (its situation fields stay zero)
  bool turned = false;
  int damage = 0;
  std::vector<HeldGear> gear;
  int pumps = 0;          ///< pumps bought this turn (revert at end of turn)
  bool healed = false;    ///< healed itself this turn
  bool repaired = false;  ///< repaired a held gear card this turn
  int spells_used = 0;
  int programs_used = 0;
  bool biotech_used = false;
  int recons_used = 0;
  friend bool operator==(const Runner&, const Runner&) = default;
};

/// A Location, Contact or Special in play that pays income or costs upkeep.
struct SupportCard {
  std::string name;
  std::string kind;  ///< "location", "contact", "special"
  int upkeep = 0;
  int income = 0;
  friend bool operator==(const SupportCard&, const SupportCard&) = default;
};

/// A card on a Challenge stack; the helper may not know it until it is revealed.
struct StackCard {
  std::optional<ChallengeCard> card;  ///< nullopt: face down and not entered yet
  bool bluff = false;                 ///< not a Challenge: trashed when it is reached
  int pumps = 0;                      ///< bought by its owner this turn
  friend bool operator==(const StackCard&, const StackCard&) = default;
};

/// The Objective a player has in play and the stacks on it.
struct Objective {
  std::optional<ObjectiveCard> card;  ///< nullopt until revealed (unless entered when placed)
  bool revealed = false;
  int placed_turn = 0;
  std::vector<std::vector<StackCard>> stacks;  ///< per player; back() is faced first
  bool intercepted = false;                    ///< one interception per Objective per game
  friend bool operator==(const Objective&, const Objective&) = default;
};

/// One player: reputation, credstick, card counts, Objective and safehouse.
struct Player {
  std::string name;
  int reputation = 0;
  bool neg_lock = false;  ///< set below 0, cleared above 0 (spec C2.6)
  int credstick = 0;
  int hand = 0;
  int draw_pile = 0;
  int trash = 0;
  int objective_pile = 0;
  int objectives_taken = 0;  ///< the reputation pile
  std::optional<Objective> objective;
  std::vector<Runner> runners;
  std::vector<SupportCard> cards;
  bool bad_shuffled = false;
  friend bool operator==(const Player&, const Player&) = default;
};

/// Where a shadowrun stands.
enum class RunStep : std::uint8_t {
  Reveal,     ///< the next card of the stack must be entered (it was played unseen)
  Face,       ///< a Challenge is revealed: sleaze it, or face it
  Decide,     ///< the Challenge is passed: continue or pull out
  Objective,  ///< every stack is passed: fight the Objective's threat if any, then take it
};

/// The current shadowrun (spec C2.5).
struct Run {
  bool active = false;
  int owner = -1;                     ///< whose Objective
  std::vector<std::string> team;      ///< runner names (alive)
  std::vector<std::string> indirect;  ///< runners firing from the safehouse
  bool alarm = false;
  std::vector<int> order;  ///< stacks (player indices) in the order faced
  int stack = 0;           ///< index into `order`
  RunStep step = RunStep::Reveal;
  bool objective_beaten = false;  ///< its own threat is beaten
  int faced = 0;                  ///< Challenges reached so far
  friend bool operator==(const Run&, const Run&) = default;
};

/// Agreed before play (spec C1, C6.14).
struct Settings {
  int goal = 60;                    ///< Reputation to win, ≥ 50
  bool reshuffle_mid_turn = false;  ///< a mid-turn draw from an empty pile reshuffles at once
  friend bool operator==(const Settings&, const Settings&) = default;
};

/// The whole game.
struct State {
  Settings settings;
  std::vector<Player> players;  ///< clockwise
  int active = 0;
  Phase phase = Phase::Setup;
  int turn = 0;          ///< turns begun
  bool opening = false;  ///< before the first phase change: Bad Shuffles allowed
  bool paid = false;     ///< this turn's Credstick phase is done
  bool ran = false;      ///< a shadowrun was attempted this turn
  Run run;
  int winner = -1;
  friend bool operator==(const State&, const State&) = default;
};

}  // namespace duels::cards::srtcg
