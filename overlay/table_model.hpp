#pragma once
/// @file The table as the overlay shows it: where every base stands (the match's positions,
/// overridden by hand or, later, by vision), which terrain is down, and the measurements the map
/// draws — gap, line of fire, usable tape colours, reachable region. Pure: no ImGui, no GL, so
/// it is tested on its own.

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "duels/commands.hpp"
#include "duels/engine.hpp"
#include "duels/geometry.hpp"
#include "duels/scene.hpp"
#include "duels/state.hpp"

namespace duels::overlay {

/// The physical table: its size and the shapes of the terrain pieces the players may put down
/// (by id; the match only records which ids are down). Read from a scene file, or a bare table.
struct TableLayout {
  TableBounds table;
  std::vector<SceneTerrain> terrain;
};

/// The table and terrain of a scene (its bases are set-up positions: see apply_scene_positions).
TableLayout layout_from_scene(const Scene& scene);

/// Puts each set-up figure named by a scene base (`figure:` field, case-insensitive) at that
/// base's centre. Returns how many figures got a position. When every figure has one, the match
/// skips the placement phase.
int apply_scene_positions(MatchSetup& setup, const Scene& scene);

/// Who says where a base is: the match journal, a player dragging it on the map, or the camera.
enum class PositionSource : std::uint8_t { Match, Manual, Vision };

/// A base centre reported by vision (the seam for the vision module): figure name, centre in
/// table inches, confidence 0..1. Reports below 0.5 confidence are ignored.
struct TrackedBasePosition {
  std::string figure;
  Vec2 centre_in;
  double confidence = 1;
};

/// Manual position overrides by figure (a player dragged the base on the map).
using PositionOverrides = std::map<FigureId, Point>;

/// One base on the map.
struct BaseView {
  FigureId figure = 0;
  std::string name;
  TeamId team = 0;
  Disc disc;
  PositionSource source = PositionSource::Match;
};

/// Everything on the table at one moment, in table inches.
struct TableView {
  TableBounds table;
  std::vector<BaseView> bases;         ///< figures in play with a position
  Obstacles terrain;                   ///< terrain that is down: blocks movement and line of fire
  std::vector<SceneTerrain> unplaced;  ///< layout pieces not put down (drawn faded, block nothing)
  /// Bases the camera sees but cannot name, but for those on a figure's base in `bases` (most
  /// likely that very base, placed by hand or by the match): whoever they are, they block lines
  /// of fire and a moving base goes round them.
  std::vector<Disc> unnamed;

  [[nodiscard]] const BaseView* base_of(FigureId figure) const;
  /// The base under a table point, if any (the topmost when bases overlap).
  [[nodiscard]] const BaseView* base_at(Vec2 p) const;
};

/// Builds the view: positions from the match, replaced by vision reports, replaced by manual
/// overrides (a player's hand beats the camera); `unnamed`: the bases the camera sees but
/// cannot name.
TableView make_table_view(const GameState& state, const TableLayout& layout,
                          const PositionOverrides& overrides,
                          const std::vector<TrackedBasePosition>& vision = {},
                          const std::vector<Disc>& unnamed = {});
/// How an unnamed base is named among blockers: "unnamed base (X, Y)", as `duels track` does.
std::string unnamed_base_id(const Disc& base);

/// The measurement of step A between two bases, with what the map needs to draw it.
struct AttackMeasure {
  bool valid = false;        ///< both bases are on the table
  double centre_gap_in = 0;  ///< edge to edge on the centre line
  Segment centre_line;       ///< the attacker's edge to the target's edge along the centres
  LineOfFireResult lof;      ///< witness when clear; blockers (indices into `obstacles`)
  std::vector<std::string> blocker_ids;
  std::vector<dice::Colour> usable;  ///< tape colours usable along the line of fire
  Measurement measurement;           ///< what the DeclareAttack command carries
};

/// Measures attacker → target: every other base in play, the unnamed bases and the terrain that
/// is down block.
AttackMeasure measure_attack(const TableView& view, const GameState& state, FigureId attacker,
                             FigureId target);

/// What a moving base must respect (terrain; opposing bases gone round; friendly passed through).
MoveObstacles move_world(const TableView& view, const GameState& state, FigureId mover);

/// Splits a simple counter-clockwise polygon into triangles (ear clipping), for filling concave
/// terrain; each triangle is counter-clockwise.
std::vector<std::array<Vec2, 3>> triangulate(const std::vector<Vec2>& polygon);

/// Table inches ↔ screen pixels for the top-down map (y up on the table, down on the screen).
struct MapTransform {
  float left_px = 0;  ///< screen x of the table's x = 0 edge
  float top_px = 0;   ///< screen y of the table's far edge (y = depth)
  float px_per_in = 10;
  double depth_in = 60;

  [[nodiscard]] std::array<float, 2> to_screen(Vec2 p) const;
  [[nodiscard]] Vec2 to_table(float x_px, float y_px) const;
};

/// The largest map of the table that fits a screen rectangle, centred in it.
MapTransform fit_map(const TableBounds& table, float x_px, float y_px, float width_px,
                     float height_px);

/// Movement allowance of a figure: Head plus the values of the movement dice rolled.
int move_allowance(const FigureState& figure, const std::vector<DieRoll>& rolls);

}  // namespace duels::overlay
