#pragma once
/// @file The table rules of a match: what the positions in a GameState say about movement,
/// line of fire, terrain and placement, measured exactly with the geometry of geometry.hpp.
///
/// Rulebook sentences implemented here (each is a test in tests/duels/table_rules_test.cpp):
///   - "Terrain blocks movement and ranged attacks."
///   - "When measuring movement, the tape must show the exact path of movement."
///   - "you must measure around the bases of opposing figures—not through them."
///   - "the figure may not end its movement with any part of its base overlapping terrain or
///     another figure's base."
///   - "When your figure moves, no part of its base may exceed its final movement value."
///   - "If any part of another figure's base or a piece of terrain blocks this straight line,
///     the attack cannot be made."
///   - "Teams must place their figures at least 48" away from any other opposing figure
///     already in the play area." (plus: on the table, not on terrain or another base)
///
/// Friendly bases may be passed through while moving (the rulebook only says to go around
/// *opposing* bases); a move may not end on any base. Touching is allowed for movement and
/// placement, and blocks a line of fire (geometry.hpp, contact conventions).

#include <optional>
#include <string>
#include <vector>

#include "duels/commands.hpp"
#include "duels/geometry.hpp"
#include "duels/scene.hpp"
#include "duels/state.hpp"

namespace duels {

/// How far a typed movement distance may differ from the measured path and still be taken as
/// the same move (a tape read to the tenth of an inch).
inline constexpr double kTypedDistanceToleranceIn = 0.1;
/// How much longer than the allowance a path may be from rounding alone (inches).
inline constexpr double kMoveLengthToleranceIn = 1e-6;

/// A placed figure's base as a disc (the figure must have a position).
Disc base_disc(const FigureState& f);

/// Terrain that is down and has a shape (shapeless pieces of old journals block nothing).
Obstacles terrain_obstacles(const GameState& s);

/// What may block a line of fire between two figures: shaped terrain and every other base on
/// the table.
Obstacles line_of_fire_blockers(const GameState& s, FigureId attacker, FigureId target);

/// The measurement of step A from the bases' positions: the exact line of fire past every other
/// base in play and the terrain, with the gap and attacker chord along the witness line, or the
/// blockers by name. Both figures must have positions.
Measurement measure_from_positions(const GameState& s, FigureId attacker, FigureId target);

/// What a moving figure must respect: the table edge, terrain, opposing bases (gone round) and
/// friendly bases (passed through, not ended on).
MoveObstacles move_obstacles_of(const GameState& s, FigureId mover);

/// The movement field of a placed figure in this state (the exact shortest-path graph among
/// move_obstacles_of). The last few fields built on this thread are kept and handed out again
/// while the mover and everything it must respect are the same, so the built-in opponent's
/// choice of move and the engine's check of it build the visibility graph once.
MoveField move_field_of(const GameState& s, FigureId mover);

/// The verdict on a move to `to` within `allowance_in`.
struct MoveCheck {
  bool ok = false;
  double length_in = 0;  ///< length of the shortest legal path (when one exists)
  double straight_in = 0;
  std::vector<std::string> detour;  ///< what the shortest path goes round, when not straight
  PathResult path;
  RejectCode code = RejectCode::Other;
  std::string reason;  ///< why not, in a player's words
};

/// Checks a move of a placed figure (spec §3 Movement) and names what the path goes round.
MoveCheck check_move(const GameState& s, FigureId figure, Point to, double allowance_in);

/// Whether a figure may be put down at `at` during set-up: wholly on the table, not on terrain
/// or another base, and (when the option is on) the placement distance from opposing figures.
std::optional<Rejection> check_placement(const GameState& s, FigureId figure, Point at);

/// Whether a terrain piece may be put down: a valid shape wholly on the table, not on a base.
std::optional<Rejection> check_terrain_shape(const GameState& s, const std::string& id,
                                             const Shape& shape);

/// The catalogue piece called `id` (case-insensitive), if the table has one.
const Obstacle* catalogue_piece(const GameState& s, std::string_view id);

/// Things a player should know about the table (e.g. terrain without a shape in a journal
/// written before format 2, which blocks nothing).
std::vector<std::string> table_notes(const GameState& s);

/// The table of a scene file: its size, and its terrain as the catalogue players place from.
TableState table_from_scene(const Scene& scene);

/// A shape in words: "rect 4.0 x 6.0 at (22.5, 19.0)", "circle r 1.5 at (30.0, 20.0)".
std::string describe_shape(const Shape& shape);

}  // namespace duels
