#pragma once
/// @file Measuring the table (spec §3): edge-to-edge gaps, exact line of fire, shortest legal
/// movement paths, the reachable region and placement checks. Pure geometry in table inches:
/// x runs along the table's width, y along its depth, the origin is a table corner.
///
/// Contact conventions (each one tested):
///   - Line of fire: a segment that *touches* another base or a terrain piece is blocked (the
///     spec says "touches no other base and no terrain"). Witnesses pass the pieces they skirt
///     by about kLineOfFireClearanceIn, so an opening narrower than that may count as closed.
///   - Movement and placement: touching is allowed. A moving base may slide along terrain and
///     opposing bases, and may end in contact with them; it may not overlap them.
///   - Friendly bases may be passed through while moving (the rulebook only says to measure
///     around *opposing* bases), but a move may not end overlapping any base.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace duels {

/// A point or a direction on the table plane, in inches.
struct Vec2 {
  double x = 0;
  double y = 0;

  friend Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
  friend Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
  friend Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
  friend Vec2 operator*(Vec2 a, double k) { return {a.x * k, a.y * k}; }
  friend Vec2 operator*(double k, Vec2 a) { return {a.x * k, a.y * k}; }
  friend Vec2 operator/(Vec2 a, double k) { return {a.x / k, a.y / k}; }
  friend bool operator==(const Vec2&, const Vec2&) = default;
};
inline double dot(Vec2 a, Vec2 b) {
  return a.x * b.x + a.y * b.y;
}
/// z of the 3-D cross product: > 0 when b is counter-clockwise of a.
inline double cross(Vec2 a, Vec2 b) {
  return a.x * b.y - a.y * b.x;
}
inline double norm(Vec2 a) {
  return std::sqrt(a.x * a.x + a.y * a.y);
}
inline double norm2(Vec2 a) {
  return a.x * a.x + a.y * a.y;
}
/// `a` turned a quarter turn counter-clockwise.
inline Vec2 perp(Vec2 a) {
  return {-a.y, a.x};
}

/// A round base (or round terrain) on the table: centre and radius in inches.
struct Disc {
  Vec2 centre;
  double radius_in = 0;
  friend bool operator==(const Disc&, const Disc&) = default;
};

/// A straight piece between two table points.
struct Segment {
  Vec2 a;
  Vec2 b;
  [[nodiscard]] double length_in() const { return norm(b - a); }
};

/// The outline of something on the table: a circle or a simple polygon.
struct Shape {
  enum class Kind : std::uint8_t { Circle, Polygon };
  Kind kind = Kind::Circle;
  Disc circle;                ///< when kind == Circle
  std::vector<Vec2> polygon;  ///< when kind == Polygon: simple, counter-clockwise, ≥ 3 corners

  static Shape make_circle(Vec2 centre, double radius_in);
  /// Any simple polygon; its corners are reordered counter-clockwise.
  static Shape make_polygon(std::vector<Vec2> corners);
  /// A rectangle `width_in` × `depth_in` centred on `centre`, turned `angle_deg` counter-clockwise.
  static Shape make_rect(Vec2 centre, double width_in, double depth_in, double angle_deg = 0);
  friend bool operator==(const Shape&, const Shape&) = default;
};

/// Something that blocks lines of fire or movement: a base or a terrain piece, with its id.
struct Obstacle {
  std::string id;
  Shape shape;
  friend bool operator==(const Obstacle&, const Obstacle&) = default;
};
using Obstacles = std::vector<Obstacle>;

/// The playing area: x ∈ [0, width_in], y ∈ [0, depth_in].
struct TableBounds {
  double width_in = 60;
  double depth_in = 60;
  friend bool operator==(const TableBounds&, const TableBounds&) = default;
};

// ---------------------------------------------------------------------------------------------
// Distances

/// Edge-to-edge gap between two bases (negative when they overlap, 0 when they touch).
double gap_in(const Disc& a, const Disc& b);
/// Distance from a point to a shape (0 inside it).
double distance_in(Vec2 p, const Shape& shape);
/// Distance from a segment to a shape (0 when they meet).
double distance_in(const Segment& s, const Shape& shape);
/// Whether the closed segment meets the closed shape (touching counts).
bool touches(const Segment& s, const Shape& shape);
/// The area of a shape in square inches.
double area_in2(const Shape& shape);
/// Whether a polygon's edges cross or touch anywhere but at shared corners of neighbours.
bool polygon_self_intersects(const std::vector<Vec2>& corners);

// ---------------------------------------------------------------------------------------------
// Line of fire

/// How far a witness line of fire is nudged off the pieces it skirts (inches): the precision of
/// the verdict. Openings narrower than this may be reported as blocked.
inline constexpr double kLineOfFireClearanceIn = 1e-7;

/// The answer to "may the attacker see the target?" (spec §3, Line of fire).
struct LineOfFireResult {
  bool clear = false;
  /// When clear: a clear segment from a point on the attacker's edge to a point on the target's
  /// edge. It is the clear segment with the smallest gap, so it is also the best tape
  /// measurement: when the centre line is clear it is the centre line.
  Segment witness;
  double gap_in = 0;    ///< d: edge-to-edge gap along the witness (its length)
  double chord_in = 0;  ///< D: the attacker's chord along the witness line (≤ its diameter)
  /// When blocked: indices into `others` of pieces that alone block every line, none of which
  /// could be left out (the pieces nearest the centre line are preferred). Empty when clear.
  std::vector<std::size_t> blockers;
};

/// Whether any straight segment from some point of `attacker` to some point of `target` avoids
/// every obstacle in `others` (which must not include the two bases themselves). Exact up to
/// floating point: every critical line (tangent to two features) is examined. Bases that touch
/// or overlap always see each other (gap 0).
LineOfFireResult line_of_fire(const Disc& attacker, const Disc& target, const Obstacles& others);

// ---------------------------------------------------------------------------------------------
// Placement

/// The set-up rule: each figure at least 48" (edge to edge) from every opposing figure.
inline constexpr double kSetupMinGapIn = 48.0;

/// A base already on the table, with its team, for placement checks.
struct PlacedBase {
  std::string id;
  int team = 0;
  Disc disc;
};

/// Whether a spot is legal, and if not every reason in words.
struct PlacementCheck {
  bool ok = true;
  std::vector<std::string> problems;   ///< e.g. "overlaps base 'b'", "within 48\" of base 'c'"
  std::vector<std::string> conflicts;  ///< ids of the bases / terrain involved
};

/// Is this spot legal for a base: wholly on the table, overlapping no base and no terrain
/// (touching is allowed). `occupied` holds the other bases and terrain.
PlacementCheck check_spot(const Disc& base, const TableBounds& table, const Obstacles& occupied);

/// A set-up placement: a legal spot (check_spot against `placed` and `terrain`) that is also at
/// least `min_gap_in` from every base of another team in `placed`.
PlacementCheck check_setup_placement(const Disc& base, int team,
                                     const std::vector<PlacedBase>& placed,
                                     const Obstacles& terrain, const TableBounds& table,
                                     double min_gap_in = kSetupMinGapIn);

// ---------------------------------------------------------------------------------------------
// Movement

/// What a moving base must respect. The mover itself is in none of the lists.
struct MoveObstacles {
  TableBounds table;
  Obstacles terrain;         ///< never crossed, never ended on
  Obstacles opposing_bases;  ///< gone around (never crossed), never ended on
  Obstacles friendly_bases;  ///< may be passed through, never ended on
  friend bool operator==(const MoveObstacles&, const MoveObstacles&) = default;
};

/// One piece of a movement path of the base's centre: a straight run, or an arc around a
/// terrain corner or a base.
struct PathPiece {
  enum class Kind : std::uint8_t { Line, Arc };
  Kind kind = Kind::Line;
  Vec2 from;
  Vec2 to;
  Vec2 centre;           ///< arc only
  double radius_in = 0;  ///< arc only
  double sweep_rad = 0;  ///< arc only: signed, positive = counter-clockwise
  double length_in = 0;
};

/// A shortest legal path, or why there is none. Lengths are of the base's centre, which is also
/// what every point of the base travels (the base does not turn).
struct PathResult {
  bool found = false;
  double length_in = std::numeric_limits<double>::infinity();
  std::vector<PathPiece> pieces;
  std::string reason;  ///< when not found

  /// The corners of the path, arcs flattened so no point is more than `tolerance_in` off.
  [[nodiscard]] std::vector<Vec2> polyline(double tolerance_in = 0.01) const;
};

/// Whether a base may end its move here (on the table, overlapping nothing), and why not.
struct EndCheck {
  bool ok = true;
  std::string reason;
};

namespace detail {
struct MoveGraph;
}

/// Shortest-path distances for one base from its current position, for many queries. Builds
/// the exact visibility graph of the base's centre among obstacles grown by its radius (tangent
/// segments and arcs) once, then answers each query in about a microsecond. The graph is built
/// at the first query a clear straight run does not answer.
class MoveField {
 public:
  /// `max_length_in` lets the field ignore everything farther away than any move could reach;
  /// distances above it are then only known to be above it.
  MoveField(const Disc& mover, const MoveObstacles& world,
            double max_length_in = std::numeric_limits<double>::infinity());

  /// Length of the shortest path of the centre to `centre` (ignores whether the base may end
  /// there); +infinity when no path exists.
  [[nodiscard]] double distance_to(Vec2 centre) const;
  /// The same when it is below `cap`, else +infinity (faster: longer routes are not tried).
  /// `hint`, when given, carries the route of the previous query to the next (queries at
  /// nearby points run faster in sequence); start it at -1.
  [[nodiscard]] double distance_below(Vec2 centre, double cap, int* hint = nullptr) const;
  /// Whether the straight run from the start to `centre` is clear (it is then the shortest
  /// path, found without building the graph; distance_to and path_to also take it so).
  [[nodiscard]] bool straight_run_clear(Vec2 centre) const;
  /// The shortest path itself, including the end-position check.
  [[nodiscard]] PathResult path_to(Vec2 centre) const;
  /// Whether the base may end a move with its centre here.
  [[nodiscard]] EndCheck end_check(Vec2 centre) const;
  /// Whether the base may end here, without a reason (fast).
  [[nodiscard]] bool legal_end(Vec2 centre) const;
  /// Distance from `centre` to the nearest thing the base may not end on (negative inside),
  /// counting the table edge; a legal spot has clearance ≥ 0.
  [[nodiscard]] double end_clearance_in(Vec2 centre) const;
  /// Why no path can start (the base overlaps terrain or an opposing base), or empty.
  [[nodiscard]] const std::string& start_problem() const;
  [[nodiscard]] const Disc& mover() const;
  /// A number no other field made in this process has (copies share it): answers worked out
  /// from a field may be kept under it, since a field's answers never change.
  [[nodiscard]] std::uint64_t serial() const { return serial_; }

 private:
  std::shared_ptr<const detail::MoveGraph> graph_;
  std::uint64_t serial_ = 0;
};

/// The shortest legal path for `mover` to put its centre on `goal`.
PathResult shortest_path(const Disc& mover, Vec2 goal, const MoveObstacles& world);

/// The legal end positions within a movement allowance, as a raster of cells in table
/// coordinates: cell (i, j) covers x ∈ [i·cell, (i+1)·cell), y ∈ [j·cell, (j+1)·cell) and is in
/// the region when its centre is a legal end reached by a path no longer than the allowance.
/// The boundary is therefore within cell·√2/2 of the exact one.
struct ReachResult {
  double move_in = 0;
  double cell_in = 0.05;
  int first_col = 0;  ///< i of mask column 0
  int first_row = 0;  ///< j of mask row 0
  int cols = 0;
  int rows = 0;
  std::vector<std::uint8_t> mask;  ///< rows × cols, row-major, row 0 = lowest y; 1 = reachable
  double area_in2 = 0;             ///< cells in the region × cell²
  std::string start_problem;       ///< set when the base cannot move at all

  /// Whether the cell holding `p` is in the region.
  [[nodiscard]] bool contains(Vec2 p) const;
};

/// The reachable region for a movement allowance (what the overlay shades).
ReachResult reachable_region(const Disc& mover, double move_in, const MoveObstacles& world,
                             double cell_in = 0.05);

}  // namespace duels
