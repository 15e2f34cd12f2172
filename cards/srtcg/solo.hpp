#pragma once
/// @file SRTCG solo play (spec C3.1, from the optional rules): the 40¥ team budget and the 6¥
/// credstick, three Challenges per run, the pump table, the even damage split with its random
/// remainder, Maglocks guessing, re-equipping between runs and the ways to lose.
///
/// Dice are inputs: every function that needs a roll takes it (or a list of them, used in
/// order, with the rerolls the rules ask for).

#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"

namespace duels::cards::srtcg {

inline constexpr int kSoloBudget = 40;     ///< ¥ for the Runners, Gear and Locations in play
inline constexpr int kSoloCredstick = 6;   ///< ¥ for pumps, visits, Burst Fire, Recon, upkeep
inline constexpr int kSoloChallenges = 3;  ///< Challenges faced per run
inline constexpr int kSoloRunners = 6;     ///< runners per run (a Decker at home counts)
inline constexpr int kSoloHand = 20;       ///< cards dealt from the Runner/Gear deck

/// The team bought from the 20-card hand: total cost against the budget.
struct BudgetCheck {
  int total = 0;
  int budget = kSoloBudget;
  int left = 0;  ///< budget − total (negative: over)
  bool ok = false;
};
BudgetCheck solo_budget(const std::vector<int>& costs, int budget = kSoloBudget);

/// How many times a pumpable Challenge is pumped on a D6: 1–2 twice, 3–4 once, 5–6 none.
int solo_pumps(int d6);

/// How many times an activation costing `cost`¥ can be paid from `credstick`¥ (a Recon at 2¥
/// from 6¥: 3 times before the refill).
int activations(int credstick, int cost);

/// Maglocks: guesses at a hidden D6 = Technical runners on the team + 1 (ambiguity 10).
int maglock_guesses(int technical_runners);
/// The chance that one of the guesses is right (capped at 1).
double maglock_chance(int technical_runners);

/// Re-equipping after an Objective: a card enters play only if everything in play stays within
/// the budget; otherwise at least `must_trash`¥ of cards in play go, or the card waits in hand.
struct ReequipCheck {
  int in_play = 0;
  int card = 0;
  int budget = kSoloBudget;
  bool fits = false;
  int must_trash = 0;
};
ReequipCheck solo_reequip(int in_play, int card_cost, int budget = kSoloBudget);

/// One target of the even split: its armor and the Body it has left.
struct EvenTarget {
  std::string name;
  int armor = 0;
  int body_left = 0;
};

/// The even split (spec C3.1, T-S21, ambiguity 9): raw points go one per live target per pass
/// while there are at least as many points as live targets; each target's armor then reduces
/// its share, and targets whose share reaches their Body leave the rotation. The remainder r
/// goes one point each to r distinct targets picked at random: number the live targets 1..m,
/// roll (a D6, or a die of m sides when m > 6), reroll results above m, take the target out of
/// the numbering, roll again.
struct EvenSplit {
  std::vector<int> raw;
  std::vector<int> taken;  ///< after armor, never more than the Body left
  std::vector<bool> dead;
  int passes = 0;
  int remainder = 0;
  std::vector<int> picks;       ///< targets given a remainder point, in order
  std::vector<int> rolls_used;  ///< every roll read, rerolls included
  int lost = 0;                 ///< points no live target was left to take
};
/// `rolls` are read in order; when they run out before the remainder is handed out, the
/// reason says how many more are needed.
Expected<EvenSplit, std::string> even_split(const std::vector<EvenTarget>& targets, int damage,
                                            const std::vector<int>& rolls);

/// The ways a solo game is lost (spec C3.1's three rules).
struct SoloTurn {
  bool ran = true;                       ///< rule 1: a run every turn
  bool challenge_blocks = false;         ///< rule 2: a Challenge makes the Objective impossible
  bool maglock_missed = false;           ///< rule 2: every Maglocks guess missed
  int runners_alive = 1;                 ///< rule 3: all runners dead
  bool requirements_unmeetable = false;  ///< rule 3: the Objective's requirements cannot be met
  bool barrier_impassable = false;       ///< rule 3: a Barrier that cannot be passed
};
/// Why the game is lost, or nullopt.
std::optional<std::string> solo_loss(const SoloTurn& turn);

}  // namespace duels::cards::srtcg
