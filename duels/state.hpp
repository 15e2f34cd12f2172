#pragma once
/// @file The state of a Duels match: a plain, copyable value. The engine (engine.hpp) is the
/// only thing that changes it, one command at a time.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "duels/combat.hpp"
#include "duels/figure.hpp"
#include "duels/geometry.hpp"

namespace duels {

using TeamId = int;    ///< index into GameState::teams (seating order: "left" is the next one)
using FigureId = int;  ///< index into GameState::figures
using DieId = int;     ///< index into FigureState::dice

/// A point on the table plane, in inches.
struct Point {
  double x = 0;
  double y = 0;
  friend bool operator==(const Point&, const Point&) = default;
};

/// Where a die is: in the cup, on the base (chosen for this round), or out of the game
/// (its gear was lost to Technical Superiority).
enum class DieZone : std::uint8_t { Cup, Base, Removed };

/// One die of a figure's pool and where it is now.
struct DieState {
  dice::Die die;
  DieZone zone = DieZone::Cup;
  friend bool operator==(const DieState&, const DieState&) = default;
};

/// One equipped gear piece; `removed` once Technical Superiority took it.
struct GearState {
  GearDef def;
  bool removed = false;
  friend bool operator==(const GearState&, const GearState&) = default;
};

/// A figure in play: its printed data, gear, dice, dial positions and this turn's actions.
struct FigureState {
  FigureDef def;
  TeamId team = 0;
  std::vector<GearState> gear;
  std::vector<DieState> dice;
  std::array<int, 3> dial{};  ///< current position of each dial (DialKind order)
  std::optional<Point> position;
  bool eliminated = false;
  bool chose_dice = false;  ///< chose this round's dice
  bool turn_done = false;   ///< finished its turn this round
  bool moved = false;
  int attacks = 0;  ///< attacks made this turn

  [[nodiscard]] const DialPosition& showing(DialKind d) const;
  [[nodiscard]] int value(DialKind d) const { return showing(d).value; }
  [[nodiscard]] int bullet_holes() const;
  /// Gear shields of gear still equipped, plus the shields showing on the three dials.
  [[nodiscard]] std::vector<dice::Colour> shields() const;
  /// Figure points plus the points of gear still equipped ([R] spec §5).
  [[nodiscard]] int points() const;
  [[nodiscard]] std::vector<DieId> dice_in(DieZone zone) const;
  friend bool operator==(const FigureState&, const FigureState&) = default;
};

/// A team at the table, in seating order.
struct TeamState {
  std::string name;
  bool lost = false;
  int terrain_placed = 0;
  bool terrain_done = false;                     ///< placed two pieces or passed
  std::optional<std::array<int, 2>> alpha_roll;  ///< last 2d6 in the alpha roll-off
  friend bool operator==(const TeamState&, const TeamState&) = default;
};

/// A piece of terrain placed at set-up, with its outline on the table. Pieces from journals
/// written before format 2 have no shape (they were names only) and block nothing.
struct TerrainPiece {
  std::string id;
  TeamId team = 0;
  std::optional<Shape> shape;
  friend bool operator==(const TerrainPiece&, const TerrainPiece&) = default;
};

/// The table a match is played on: its size and the terrain players may put down by name.
struct TableState {
  TableBounds bounds;
  /// The table rules the match: moves follow legal paths, attacks are measured from the
  /// positions, placement stays on the table (table_rules.hpp). False only for a match from a
  /// journal written before format 2, which keeps the distances typed into it.
  bool measured = true;
  /// Terrain pieces with their places (from a scene file), shared between copies of the state.
  std::shared_ptr<const Obstacles> catalogue;
  friend bool operator==(const TableState& a, const TableState& b) {
    const bool same_catalogue =
        a.catalogue == b.catalogue || (a.catalogue && b.catalogue && *a.catalogue == *b.catalogue);
    return a.bounds == b.bounds && a.measured == b.measured && same_catalogue;
  }
};

/// The match phase.
enum class Phase : std::uint8_t {
  AlphaRoll,     ///< teams roll 2d6 for alpha (ties re-roll among the tied)
  PlaceTerrain,  ///< two pieces per team, one at a time, alpha first then to the left
  PlaceFigures,  ///< one figure at a time in the same order, 48" from opposing figures
  ChooseDice,    ///< every figure moves up to six dice from cup to base, all at once
  Turns,         ///< teams act from alpha leftwards: one move and two attacks per figure
  GameOver,
};
std::string_view phase_name(Phase p);

/// What an attack in progress waits for.
enum class AttackStage : std::uint8_t {
  Dodge,       ///< C: the defender picks dodge dice (maybe none)
  Roll,        ///< D: both roll; results come in as a command
  RemoveGear,  ///< L: the defender gives up gear for each black ace (Technical Superiority)
  Damage,      ///< M: the defender (or attacker after a Called Shot) picks the dial
};

/// An attack between declaration (A–B) and damage (M).
struct PendingAttack {
  FigureId attacker = 0;
  FigureId target = 0;
  double gap_in = 0;            ///< the gap the tape is read at
  double chord_in = 0;          ///< the attacker's chord the tape is read at
  bool manual = false;          ///< gap and chord measured by hand (the positions' are kept below)
  double positions_gap_in = 0;  ///< what the positions say (format 2 matches)
  double positions_chord_in = 0;
  std::vector<DieId> attack_dice;
  std::vector<DieId> dodge_dice;
  AttackStage stage = AttackStage::Dodge;
  AttackInput input;    ///< filled at the roll
  AttackResult result;  ///< filled at the roll
  int gear_to_remove = 0;
  bool attacker_assigns = false;  ///< Called Shot
  friend bool operator==(const PendingAttack&, const PendingAttack&) = default;
};

/// A team that must bring another team's value down to its own within two of its turns.
struct Countdown {
  TeamId team = 0;
  int turns_left = 2;
  bool counting = true;  ///< false while the team's current turn (when it started) is under way
  friend bool operator==(const Countdown&, const Countdown&) = default;
};

/// Choices the rulebook leaves open, settled per match. Defaults follow spec/duels.md.
struct RuleOptions {
  /// A black/red die rolled alone for an attack needs its own track to reach the target
  /// (true), or only that the tape has such a track (false).
  bool wild_alone_attack_needs_range = true;
  /// Check the 48" placement rule (off for quick games and tests set up mid-match).
  bool enforce_placement_distance = true;
  double placement_distance_in = 48.0;
  friend bool operator==(const RuleOptions&, const RuleOptions&) = default;
};

/// The whole match.
struct GameState {
  RuleOptions options;
  TableState table;
  Phase phase = Phase::AlphaRoll;
  int round = 0;  ///< 1-based once play starts
  std::vector<TeamState> teams;
  std::vector<FigureState> figures;
  std::vector<TerrainPiece> terrain;
  std::vector<TeamId> alpha_contenders;  ///< teams still rolling for alpha
  TeamId alpha = -1;
  TeamId placing = -1;      ///< team whose placement it is (terrain/figures)
  TeamId active_team = -1;  ///< team taking its turn
  int teams_acted = 0;      ///< teams that finished their turn this round
  std::optional<FigureId> active_figure;
  std::optional<PendingAttack> attack;
  /// The most recent attack that was rolled (its dice, result and clicks), for logs and stats.
  std::optional<PendingAttack> last_attack;
  int attacks_rolled = 0;  ///< attacks rolled so far in the match
  std::vector<Countdown> countdowns;
  std::optional<TeamId> winner;
  friend bool operator==(const GameState&, const GameState&) = default;

  [[nodiscard]] int team_points(TeamId t) const;
  [[nodiscard]] std::vector<FigureId> team_figures(TeamId t, bool in_play_only) const;
  [[nodiscard]] bool team_in_game(TeamId t) const;
  [[nodiscard]] TeamId next_team_left(TeamId t) const;  ///< next team in seating still in game
};

}  // namespace duels
