#pragma once
/// @file The Duels rules engine: one entry point, `apply(state, command)`.
///
/// State is a value; a legal command changes it and returns what happened in words, an illegal
/// one leaves it untouched and returns a Rejection with a reason a player understands. Dice
/// results and table measurements come in with the commands, so every rule is deterministic.

#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "duels/commands.hpp"
#include "duels/state.hpp"

namespace duels {

/// One figure at set-up: its data, the gear picked for it, and optionally where it already
/// stands (when every figure has a position, the placement phase is skipped).
struct FigureSetup {
  FigureDef figure;
  std::vector<GearDef> gear;
  std::optional<Point> position;
};
/// One team at set-up, in seating order (the team to a team's left is the next one).
struct TeamSetup {
  std::string name;
  std::vector<FigureSetup> figures;
};
/// A match's set-up.
struct MatchSetup {
  std::vector<TeamSetup> teams;
  RuleOptions options;
  TableState table;  ///< 60" × 60" with no terrain catalogue unless given
};

/// Set-up step 1: checks gear (≤ 12 points per figure), sets every dial to its green arrow and
/// puts every die in the cup. The match starts in Phase::AlphaRoll.
Expected<GameState, Rejection> new_game(const MatchSetup& setup);

/// Applies a command. On success the state has changed and the events say how; on rejection the
/// state is exactly as it was.
Expected<std::vector<Event>, Rejection> apply(GameState& state, const Command& command);

/// `apply` without the words: the same rules and the same state afterwards, but no events are
/// written (a simulation plays thousands of matches and reads none of them). Nothing on
/// success, or the rejection with its reason.
std::optional<Rejection> apply_quietly(GameState& state, const Command& command);

/// Whether a command would be accepted (nullopt) or why not.
std::optional<Rejection> legal(const GameState& state, const Command& command);

/// What roll a set of dice is for: the colours allowed differ.
enum class RollPurpose : std::uint8_t { Move, Dodge, Attack };

/// Checks the colours of a roll for a figure (spec §1 colour use, wild dice rule). For an
/// attack, `gap_in` and `chord_in` decide which tracks touch both bases.
std::optional<Rejection> check_roll_colours(const FigureState& figure,
                                            const std::vector<dice::Die>& dice, RollPurpose purpose,
                                            double gap_in = 0, double chord_in = 0,
                                            const RuleOptions& options = {});
/// The same answer as `!check_roll_colours(...)`, without writing the reason (for searches).
bool roll_colours_ok(const FigureState& figure, const std::vector<dice::Die>& dice,
                     RollPurpose purpose, double gap_in = 0, double chord_in = 0,
                     const RuleOptions& options = {});

/// The dice on a figure's base that may take part in an attack at this range, in die order
/// (any legal attack uses only these; wild dice are listed whenever some attack could use them).
std::vector<DieId> attack_dice_candidates(const GameState& state, FigureId attacker, double gap_in,
                                          double chord_in);

/// What the match waits for, in words ("Round 2 — Team Red: Ghost's turn (move, 2 attacks)").
std::string prompt(const GameState& state);

/// Whether a figure could act now (its team's turn, not done, no other figure mid-turn).
bool can_act(const GameState& state, FigureId figure);

/// A stable 64-bit hash of the state (same state → same hash on every machine and run).
std::uint64_t state_hash(const GameState& state);

}  // namespace duels
