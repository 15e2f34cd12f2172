#pragma once
/// @file The SRTCG rules engine: one entry point, apply(state, command).
///
/// apply never mutates its input and never throws for a game reason: it returns the new state
/// and what happened, or a Rejection saying why not. Replaying the same commands from the same
/// start always gives the same state. The arithmetic it uses (reputation lock, income, stack
/// limits, gear limits, team numbers) is exposed for the calculators and tests.

#include <optional>
#include <string>
#include <vector>

#include "cards/common/replay.hpp"
#include "cards/srtcg/combat.hpp"
#include "cards/srtcg/command.hpp"
#include "cards/srtcg/state.hpp"
#include "common/error.hpp"

namespace duels::cards::srtcg {

DUELS_CARDS_RULES_DECLARE(State, Command, Event, Rejection)

/// Spec C2.6: a loss is ignored while the lock is on; the lock is set below 0 and cleared
/// only above 0.
void apply_rep_change(int& reputation, bool& neg_lock, int delta);

/// Challenges each player may put on one Objective: 3 (2 players), 2 (3), 1 (4+).
int challenge_limit(int players);

/// D6 + modifier, never below 1, no cap (spec C2.7).
int d6_result(int roll, int modifier);

/// Credstick income this phase: 4 + Σ Fame of deployed runners + income printed on cards.
int income(const Player& player, int card_income = 0);

/// A runner's skills with its gear's bonuses ("+1 skill": rating 1 if missing, else +1).
Ratings effective_skills(const Runner& runner);
/// A runner's armor from its card and its gear (highest flat + Σ additive).
Armor effective_armor(const Runner& runner, bool vehicles);
/// Essence used by its cyberware.
int essence_used(const Runner& runner);
/// Why `runner` cannot hold `gear` (skills, one Armor, one Cyberdeck, cyberware on magicians),
/// or nullopt. Essence above 6 is not a refusal (it kills the runner) and is not checked here.
std::optional<std::string> gear_problem(const Runner& runner, const GearCard& gear);

/// Summed skills of a team against a requirement (spec C2.5 step 4): per skill, the total
/// and whether it is met; Anti-social fails every Social requirement.
struct SleazeLine {
  std::string skill;
  int need = 0;
  int have = 0;
  bool met = false;
  bool anti_social = false;  ///< failed because an Anti-social runner is present
};
struct SleazeCheck {
  bool can_sleaze = true;  ///< false: no requirement, it cannot be sleazed
  bool met = false;
  std::vector<SleazeLine> lines;
  std::vector<std::string> anti_social;  ///< who is Anti-social on the team
};
SleazeCheck sleaze_check(const std::vector<Ratings>& team_skills,
                         const std::vector<bool>& team_anti_social, const Ratings& requirement);

/// The combatants of the current run (team runners, active drones and spirits, Indirect Fire),
/// against `challenge_indoor` to leave vehicles out, with the names used in splits.
std::vector<Combatant> run_combatants(const State& state, bool indoor);

/// The player index with this name (case-insensitive), or -1.
int player_index(const State& state, const std::string& name);

}  // namespace duels::cards::srtcg
