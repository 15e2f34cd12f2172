#pragma once
/// @file Everything a player can do in a Duels match, as plain values. Dice results and table
/// measurements are inputs: the engine never rolls and never looks at the table itself.

#include <array>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "duels/state.hpp"

namespace duels {

/// Set-up 2: the 2d6 of each team still contending for alpha (ties re-roll among the tied).
struct RollForAlpha {
  std::map<TeamId, std::array<int, 2>> rolls;
};
/// Set-up 3: the placing team puts down a terrain piece: its shape, or (none given) the table
/// catalogue's piece of that name…
struct PlaceTerrain {
  TeamId team = 0;
  std::string id;
  std::optional<Shape> shape;
};
/// …or declines to place any more.
struct PassTerrain {
  TeamId team = 0;
};
/// Set-up 4: the placing team puts a figure on the table (centre in inches).
struct PlaceFigure {
  FigureId figure = 0;
  Point at;
};
/// Round start: a figure moves up to six dice from its cup to its base.
struct ChooseDice {
  FigureId figure = 0;
  std::vector<DieId> dice;
};
/// A rolled die of a figure: which die and the face it shows (1..sides; 1 on an ace die = ace).
struct DieRoll {
  DieId die = 0;
  int face = 1;
  friend bool operator==(const DieRoll&, const DieRoll&) = default;
};
/// The move action: optional movement dice with their results, and where the base ends. The
/// table measures the shortest legal path there; a distance the player typed must agree with it
/// (in a match from before format 2 the typed distance was all there was).
struct Move {
  FigureId figure = 0;
  std::vector<DieRoll> rolls;
  std::optional<double> distance_in;
  std::optional<Point> to;
};
/// The measurement behind an attack (step A): edge-to-edge gap and attacker chord along the
/// line of fire, and whether any clear line exists. Comes from the table geometry or a tape.
struct Measurement {
  double gap_in = 0;
  double chord_in = 0;
  bool line_of_fire = true;
  std::vector<std::string> blockers;  ///< what blocks the line, when it is blocked
  /// Gap and chord measured by hand: the tape is read at them, while the line of fire still
  /// comes from the positions.
  bool manual = false;
};
/// Steps A–B: attack a target with dice from the base.
struct DeclareAttack {
  FigureId attacker = 0;
  FigureId target = 0;
  Measurement measurement;
  std::vector<DieId> dice;
  /// Beside a manual measurement: what the positions said when it was typed (for the journal;
  /// the engine measures again).
  std::optional<Measurement> from_positions;
};
/// Step C: the defender's dodge dice (empty: no dodge).
struct ChooseDodge {
  std::vector<DieId> dice;
};
/// Step D: the faces rolled, in the order the dice were declared; the attacker's bonus pick.
struct RollAttack {
  std::vector<int> attack_faces;
  std::vector<int> dodge_faces;
  std::optional<dice::Colour> bonus;
};
/// Step L, black ace: the defender gives up one gear piece (by gear id).
struct RemoveGear {
  std::string gear_id;
};
/// Step M: all the damage goes to one dial.
struct AssignDamage {
  DialKind dial = DialKind::Body;
};
/// The figure's player ends its turn (unused actions are lost).
struct EndTurn {
  FigureId figure = 0;
};

/// Any command.
using Command =
    std::variant<RollForAlpha, PlaceTerrain, PassTerrain, PlaceFigure, ChooseDice, Move,
                 DeclareAttack, ChooseDodge, RollAttack, RemoveGear, AssignDamage, EndTurn>;

/// Short name of a command kind ("roll_for_alpha", "move", …) for logs and the journal.
std::string_view command_name(const Command& c);

/// Why the engine refused a command.
enum class RejectCode : std::uint8_t {
  WrongPhase,
  NotYourTurn,
  UnknownFigure,
  UnknownDie,
  DieNotAvailable,
  IllegalColour,
  TooManyDice,
  NoDice,
  OutOfRange,
  NoLineOfFire,
  AlreadyMoved,
  NoAttacksLeft,
  TooFar,
  BadResult,
  BadTarget,
  PlacementTooClose,
  Other,
};

/// A refusal, with a reason a player understands.
struct Rejection {
  RejectCode code = RejectCode::Other;
  std::string reason;
};

/// Something that happened, in words, for the log; `figure` when it concerns one.
struct Event {
  std::string kind;  ///< "alpha", "move", "attack", "hit", "miss", "damage", "eliminated", …
  std::string text;
  std::optional<FigureId> figure;
};

}  // namespace duels
