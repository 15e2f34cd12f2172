#pragma once
/// @file Table scenes: bases and terrain on a table, read from YAML (`schema_version: 1`,
/// `units: in`), and the all-pairs table check built on the geometry in geometry.hpp.
///
/// ```yaml
/// schema_version: 1
/// units: in
/// table: {width: 60, depth: 60}
/// bases:
///   - {id: a, figure: <figure name, optional>, team: 1, x: 10, y: 10, diameter: 3}
/// terrain:
///   - {id: crate, polygon: [[20, 20], [24, 20], [24, 26], [20, 26]]}
///   - {id: wall, rect: {x: 30, y: 40, width: 8, depth: 1, angle: 30}}   # centre, degrees
///   - {id: pillar, circle: {x: 40, y: 30, r: 2}}
/// ```

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dice/die.hpp"
#include "duels/figure.hpp"
#include "duels/geometry.hpp"
#include "duels/tape.hpp"

namespace duels {

/// The schema version of scene files this program reads.
inline constexpr int kSceneSchemaVersion = 1;

/// A base standing on the table.
struct SceneBase {
  std::string id;
  std::string figure;  ///< figure name as written, empty when not given
  int team = 0;
  Disc disc;
  std::optional<Tape> tape;  ///< the figure's tape, when the base names a known figure
};

/// A terrain piece on the table.
struct SceneTerrain {
  std::string id;
  Shape shape;
};

/// A table with its bases and terrain, in inches.
struct Scene {
  TableBounds table;
  std::vector<SceneBase> bases;
  std::vector<SceneTerrain> terrain;

  /// The index of the base with this id.
  [[nodiscard]] std::optional<std::size_t> base_index(std::string_view id) const;
};

/// Finds a figure by name for a scene (nullptr when unknown), e.g. AssetLibrary::find_figure.
using FigureLookup = std::function<const FigureDef*(std::string_view name)>;

/// Parses a scene. Every problem (bad field, overlapping bases, base off the table or on
/// terrain, negative size, self-intersecting polygon, unknown figure, duplicate id) is
/// collected; a DataException names the file, line, entry and what was expected.
Scene parse_scene(const std::string& text, const std::string& file, const FigureLookup& figures);
/// Same, reading a file.
Scene load_scene_file(const std::string& path, const FigureLookup& figures);

/// What blocks a line of fire between two bases: every other base and all terrain.
Obstacles line_of_fire_obstacles(const Scene& scene, std::size_t attacker, std::size_t target);
/// What a base must respect when it moves (opposing = any other team).
MoveObstacles move_obstacles(const Scene& scene, std::size_t mover);

/// The attacker's chord along the line through a segment (its diameter for a zero-length one).
double chord_along(const Disc& base, const Segment& line);

/// One ordered pair of bases on different teams, as `duels table check` reports it.
struct PairCheck {
  std::size_t from = 0;               ///< attacker (base index)
  std::size_t to = 0;                 ///< target
  double gap_in = 0;                  ///< edge-to-edge gap (on the centre line)
  LineOfFireResult line_of_fire;      ///< gap and chord along the best line, when clear
  std::vector<std::string> blockers;  ///< ids of the blocking pieces, when blocked
  bool has_tape = false;              ///< the attacker names a figure with a tape
  std::vector<dice::Colour> usable;   ///< usable track colours along the line of fire
};

/// Every ordered pair of bases on different teams (line of fire is computed once per
/// unordered pair; the reverse direction reuses the witness with the other base's chord).
std::vector<PairCheck> check_scene(const Scene& scene);

}  // namespace duels
