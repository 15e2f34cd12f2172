#pragma once
/// @file The SRTCG combat calculator (spec C2.10, C2.8, C4.2, C4.3): runners against a
/// Challenge or an Objective, the damage split with its "no more than kills it" cap and the
/// suggested split, Guard, runner-against-runner fights and the minimum pump spend.
///
/// Readings taken where the book is unclear (spec C6): armor is subtracted from each attacker
/// separately and, for incoming damage, from the raw points given to each target (1);
/// Fatigue lowers Attack only, Body is lowered once by the damage (2); the Challenge deals its
/// damage even when the team fails to beat its Body (3). Everything here is pure.

#include <optional>
#include <string>
#include <vector>

#include "cards/srtcg/notation.hpp"
#include "common/error.hpp"

namespace duels::cards::srtcg {

/// One card on the team's side of a combat, with every number that changes its result.
struct Combatant {
  std::string name;
  Role role = Role::Runner;
  int attack = 0;     ///< printed + gear + pumps + Burst Fire, before Fatigue
  int body = 0;       ///< printed + gear + pumps
  int pump_body = 0;  ///< the part of `body` bought with pumps (reverts at end of turn)
  int armor = 0;
  int damage = 0;  ///< damage tokens already on it
  bool stamina = false;
  bool guard = false;
  bool armor_piercing = false;  ///< its own attack ignores armor
  bool protect = false;         ///< the suggested split spares it before the others
  int value = 0;                ///< what losing it costs (deploy ¥), for the suggestion
  friend bool operator==(const Combatant&, const Combatant&) = default;
};

/// The other side of a team combat: a Challenge or an Objective with a Threat Rating.
struct Opponent {
  std::string name;
  int attack = 0;
  int body = 0;
  int armor = 0;
  bool armor_piercing = false;  ///< its damage ignores the runners' armor
  friend bool operator==(const Opponent&, const Opponent&) = default;
};

/// A runner spec's numbers: printed + `+a/+b` + pumps bought + Burst Fire roll, armor.
Combatant combatant_from(const RunnerCard& card);
/// A Challenge's numbers with its pumps bought; nullopt when it has no Threat Rating.
std::optional<Opponent> opponent_from(const ChallengeCard& card);
std::optional<Opponent> opponent_from(const ObjectiveCard& card);

/// Damage tokens that lower its Attack (0 with Stamina).
int fatigue(const Combatant& c);
/// What it adds to the team total before armor: Attack − Fatigue, at least 0; a Controller 0.
int effective_attack(const Combatant& c);
/// Body − damage tokens.
int remaining_body(const Combatant& c);
/// False for Indirect Fire from the safehouse and for cards already at Body 0.
bool can_be_hit(const Combatant& c);
/// The most raw points it may be given: its armor (unless `armor_piercing`) + remaining Body.
int damage_capacity(const Combatant& c, bool armor_piercing);

/// Step 1: each attacker's damage after the opponent's armor, the total, and the verdict.
struct TeamDamage {
  std::vector<int> dealt;  ///< per combatant, ≥ 0
  int total = 0;
  bool defeated = false;  ///< total ≥ the opponent's Body
  int shortfall = 0;      ///< Body − total when not defeated
};
/// `armor_piercing`: the whole team's damage ignores the opponent's armor (per-runner `ap`
/// counts too).
TeamDamage team_damage(const std::vector<Combatant>& team, const Opponent& opponent,
                       bool armor_piercing = false);

/// Step 2: raw points given to each combatant and what they do.
struct Split {
  std::vector<int> raw;                ///< points given (0 for those not hit)
  std::vector<int> taken;              ///< after its armor; never more than its remaining Body
  std::vector<bool> dies;              ///< now (damage reaches Body, or a pump took Body to 0)
  std::vector<bool> dies_end_of_turn;  ///< alive now only thanks to a pump that will revert
  int assigned = 0;                    ///< Σ raw
  int lost = 0;                        ///< points no one could legally take
  friend bool operator==(const Split&, const Split&) = default;
};

/// The outcome of giving `raw` (not checked).
Split make_split(const std::vector<Combatant>& team, std::vector<int> raw, bool armor_piercing,
                 int incoming);
/// Checks a player's split: no one above its cap ("no more than kills it"), no one who cannot
/// be hit, and every point given while someone can still take it. The reason in words if not.
Expected<Split, std::string> check_split(const std::vector<Combatant>& team, int incoming,
                                         bool armor_piercing, const std::vector<int>& raw);
/// The split that keeps the most alive: first the protected ones, then runners, then drones
/// and spirits, then the cheapest losses; then the least Attack lost to Fatigue; then the
/// fewest damage tokens. Deaths at end of turn (a pump reverting) count as deaths.
Split suggest_split(const std::vector<Combatant>& team, int incoming, bool armor_piercing);

/// Damage aimed at one target (a Special's "target runner takes N"): a Guard may take up to
/// `guard_takes` raw points of it (at most what kills the Guard), the rest goes to the target
/// (at most what kills it; the excess is lost). `guard` -1: no Guard steps in.
Expected<Split, std::string> targeted_split(const std::vector<Combatant>& team, int target,
                                            int amount, bool armor_piercing, int guard,
                                            int guard_takes);

/// A whole team combat: Step 1, the damage to assign, and the suggested split.
struct CombatResult {
  TeamDamage attack;
  int incoming = 0;  ///< the opponent's Attack, dealt even if it is beaten
  bool incoming_armor_piercing = false;
  Split suggested;
  /// The other reading of "the Attack Value of each attacking card": the opponent's Attack less
  /// the armor of one card it hits (the best armored one that can be hit), once, however it is
  /// divided. The suggested split subtracts each card's armor from its own share (the reading
  /// this program plays by); this is what the team would take if armor counted once.
  int taken_if_armor_once = 0;
  /// P(one Burst Fire D6 added to combatant i beats the opponent) when it is not beaten yet.
  std::vector<double> burst_chance;
  std::vector<std::string> warnings;
};
CombatResult resolve_combat(const std::vector<Combatant>& team, const Opponent& opponent,
                            bool armor_piercing = false);

/// The cheapest pumps that make the team beat the opponent (spec C4.2): a knapsack over the
/// pumpable runners (`pumps[i]` is runner i's pump, cost 0 = none).
struct PumpPlan {
  bool possible = false;
  int cost = 0;                       ///< ¥
  std::vector<int> times;             ///< pumps per runner
  std::vector<std::string> warnings;  ///< pumps that take Body to 0 kill the runner
};
PumpPlan min_pump_plan(const std::vector<Combatant>& team, const std::vector<Pump>& pumps,
                       const Opponent& opponent, bool armor_piercing = false, int budget = 1000);

/// One individual conflict of a runner-against-runner combat: one side has exactly one card.
struct Bout {
  std::vector<int> attackers;  ///< indices into the attacking side
  std::vector<int> defenders;  ///< indices into the defending side
  friend bool operator==(const Bout&, const Bout&) = default;
};

/// Builds the fights (spec C2.10, T-S11): the attacker picks an opponent for each of their
/// runners (`opponent_of`, one entry per attacker); when the defender has more runners, the
/// attacker's picks must differ and the defender places each extra runner (`extra_fight`, one
/// entry per defender not picked, in index order: the fight it joins, 0-based).
Expected<std::vector<Bout>, std::string> pair_up(int attackers, int defenders,
                                                 const std::vector<int>& opponent_of,
                                                 const std::vector<int>& extra_fight);
/// Why a set of fights is not a legal pairing, or nullopt.
std::optional<std::string> check_pairing(int attackers, int defenders,
                                         const std::vector<Bout>& fights);

/// The outcome of runner-against-runner fights (simultaneous, armor per attacker).
struct FightResult {
  std::vector<int> taken_a;  ///< damage taken by each attacking card (after armor)
  std::vector<int> taken_b;
  std::vector<bool> dead_a;
  std::vector<bool> dead_b;
};
/// A lone runner facing several splits its Attack as its owner likes: `lone_split` gives, per
/// fight with a lone card facing several, the raw points for each of its opponents (in the
/// fight's order); a fight left out gets the split that defeats the most.
Expected<FightResult, std::string> resolve_fights(
    const std::vector<Combatant>& side_a, const std::vector<Combatant>& side_b,
    const std::vector<Bout>& fights, const std::vector<std::vector<int>>& lone_split = {});

/// P(D6 ≥ k) with the roll floored at 1 and no cap (k ≤ 1 → 1, k > 6 → 0).
double p_d6_at_least(int k);

}  // namespace duels::cards::srtcg
