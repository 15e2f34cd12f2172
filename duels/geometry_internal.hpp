#pragma once
/// @file Helpers shared by the geometry sources (not part of the library's interface).

#include <numbers>
#include <utility>
#include <vector>

#include "duels/geometry.hpp"

namespace duels::geom {

inline constexpr double kTwoPi = 2.0 * std::numbers::pi;

/// Distance from p to the closed segment [a, b].
double point_segment_distance(Vec2 p, Vec2 a, Vec2 b);
/// Distance between two closed segments (0 when they meet).
double segment_segment_distance(Vec2 a, Vec2 b, Vec2 c, Vec2 d);
/// Whether the closed segments [a, b] and [c, d] share a point.
bool segments_meet(Vec2 a, Vec2 b, Vec2 c, Vec2 d);
/// Whether p is inside the polygon or on its boundary (even-odd rule).
bool point_in_polygon(Vec2 p, const std::vector<Vec2>& poly);
/// Distance from p to the polygon's boundary.
double polygon_boundary_distance(Vec2 p, const std::vector<Vec2>& poly);
/// Distance from p to the polygon's boundary, negative inside (one pass).
double polygon_signed_distance(Vec2 p, const std::vector<Vec2>& poly);
/// Distance from p to the polygon region (0 inside).
double polygon_distance(Vec2 p, const std::vector<Vec2>& poly);
/// Distance from the segment to the polygon region (0 when they meet).
double segment_polygon_distance(Vec2 a, Vec2 b, const std::vector<Vec2>& poly);
/// Twice the signed area (positive for counter-clockwise).
double signed_area2(const std::vector<Vec2>& poly);
/// Angle of v in [0, 2π).
double angle_of(Vec2 v);
/// Angle reduced to [0, 2π).
double wrap_angle(double a);
/// Unit vector at angle a.
inline Vec2 unit(double a) {
  return {std::cos(a), std::sin(a)};
}

/// A set of angles on a circle: disjoint closed-open intervals within [0, 2π), sorted.
/// Used for the free arcs of circles the moving base may slide along.
class AngleSet {
 public:
  /// Adds the open interval (lo, hi) taken counter-clockwise from lo (may wrap past 2π).
  void add(double lo, double hi);
  void add_all() { spans_ = {{0.0, kTwoPi}}; }
  void unite(const AngleSet& other);
  [[nodiscard]] AngleSet intersect(const AngleSet& other) const;
  [[nodiscard]] AngleSet complement() const;
  [[nodiscard]] bool empty() const { return spans_.empty(); }
  [[nodiscard]] bool full() const;
  [[nodiscard]] bool contains(double a) const;
  [[nodiscard]] const std::vector<std::pair<double, double>>& spans() const { return spans_; }

  /// The angles φ with k + r·cos(φ − β) strictly between lo and hi.
  static AngleSet cos_band(double k, double r, double beta, double lo, double hi);

 private:
  void normalise();
  std::vector<std::pair<double, double>> spans_;
};

}  // namespace duels::geom
