// Primitive distances, shapes, placement checks and the angle sets used by movement.
#include "duels/geometry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "duels/geometry_internal.hpp"

namespace duels {

namespace geom {

double point_segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const double len2 = norm2(ab);
  double t = len2 > 0 ? dot(p - a, ab) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return norm(p - (a + ab * t));
}

namespace {

int orientation(Vec2 a, Vec2 b, Vec2 c) {
  const double v = cross(b - a, c - a);
  return (v > 0) - (v < 0);
}

bool on_segment(Vec2 a, Vec2 b, Vec2 p) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

}  // namespace

bool segments_meet(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const int o1 = orientation(a, b, c);
  const int o2 = orientation(a, b, d);
  const int o3 = orientation(c, d, a);
  const int o4 = orientation(c, d, b);
  if (o1 != o2 && o3 != o4) return true;
  if (o1 == 0 && on_segment(a, b, c)) return true;
  if (o2 == 0 && on_segment(a, b, d)) return true;
  if (o3 == 0 && on_segment(c, d, a)) return true;
  if (o4 == 0 && on_segment(c, d, b)) return true;
  return false;
}

double segment_segment_distance(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  if (segments_meet(a, b, c, d)) return 0.0;
  return std::min({point_segment_distance(a, c, d), point_segment_distance(b, c, d),
                   point_segment_distance(c, a, b), point_segment_distance(d, a, b)});
}

bool point_in_polygon(Vec2 p, const std::vector<Vec2>& poly) {
  bool inside = false;
  const std::size_t n = poly.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 a = poly[i];
    const Vec2 b = poly[j];
    if (orientation(a, b, p) == 0 && on_segment(a, b, p)) return true;
    if ((a.y > p.y) != (b.y > p.y)) {
      const double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x) inside = !inside;
    }
  }
  return inside;
}

double polygon_boundary_distance(Vec2 p, const std::vector<Vec2>& poly) {
  double best = std::numeric_limits<double>::infinity();
  const std::size_t n = poly.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    best = std::min(best, point_segment_distance(p, poly[j], poly[i]));
  }
  return best;
}

double polygon_signed_distance(Vec2 p, const std::vector<Vec2>& poly) {
  bool inside = false;
  double best2 = std::numeric_limits<double>::infinity();
  const std::size_t n = poly.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 a = poly[i];
    const Vec2 b = poly[j];
    const Vec2 ab = b - a;
    const double len2 = norm2(ab);
    const double t = len2 > 0 ? std::clamp(dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    best2 = std::min(best2, norm2(p - (a + ab * t)));
    if ((a.y > p.y) != (b.y > p.y)) {
      const double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x) inside = !inside;
    }
  }
  const double d = std::sqrt(best2);
  return inside ? -d : d;
}

double polygon_distance(Vec2 p, const std::vector<Vec2>& poly) {
  if (point_in_polygon(p, poly)) return 0.0;
  return polygon_boundary_distance(p, poly);
}

double segment_polygon_distance(Vec2 a, Vec2 b, const std::vector<Vec2>& poly) {
  if (point_in_polygon(a, poly)) return 0.0;
  double best = std::numeric_limits<double>::infinity();
  const std::size_t n = poly.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    best = std::min(best, segment_segment_distance(a, b, poly[j], poly[i]));
    if (best == 0.0) return 0.0;
  }
  return best;
}

double signed_area2(const std::vector<Vec2>& poly) {
  double s = 0;
  const std::size_t n = poly.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++)
    s += cross(poly[j], poly[i]);
  return s;
}

double wrap_angle(double a) {
  if (a >= 0 && a < kTwoPi) return a;
  if (a < 0 && a >= -kTwoPi) {
    a += kTwoPi;
    return a >= kTwoPi ? 0.0 : a;
  }
  if (a >= kTwoPi && a < 2 * kTwoPi) return a - kTwoPi;
  a = std::fmod(a, kTwoPi);
  if (a < 0) a += kTwoPi;
  if (a >= kTwoPi) a = 0;
  return a;
}

double angle_of(Vec2 v) {
  return wrap_angle(std::atan2(v.y, v.x));
}

void AngleSet::add(double lo, double hi) {
  if (hi - lo >= kTwoPi) {
    add_all();
    return;
  }
  if (hi <= lo) return;
  const double a = wrap_angle(lo);
  const double b = a + (hi - lo);
  if (b <= kTwoPi) {
    spans_.emplace_back(a, b);
  } else {
    spans_.emplace_back(a, kTwoPi);
    spans_.emplace_back(0.0, b - kTwoPi);
  }
  normalise();
}

void AngleSet::normalise() {
  std::sort(spans_.begin(), spans_.end());
  std::vector<std::pair<double, double>> out;
  for (const auto& s : spans_) {
    if (s.second <= s.first) continue;
    if (!out.empty() && s.first <= out.back().second) {
      out.back().second = std::max(out.back().second, s.second);
    } else {
      out.push_back(s);
    }
  }
  spans_ = std::move(out);
}

void AngleSet::unite(const AngleSet& other) {
  spans_.insert(spans_.end(), other.spans_.begin(), other.spans_.end());
  normalise();
}

AngleSet AngleSet::intersect(const AngleSet& other) const {
  AngleSet out;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < spans_.size() && j < other.spans_.size()) {
    const double lo = std::max(spans_[i].first, other.spans_[j].first);
    const double hi = std::min(spans_[i].second, other.spans_[j].second);
    if (lo < hi) out.spans_.emplace_back(lo, hi);
    if (spans_[i].second < other.spans_[j].second) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

AngleSet AngleSet::complement() const {
  AngleSet out;
  double at = 0;
  for (const auto& s : spans_) {
    if (s.first > at) out.spans_.emplace_back(at, s.first);
    at = std::max(at, s.second);
  }
  if (at < kTwoPi) out.spans_.emplace_back(at, kTwoPi);
  return out;
}

bool AngleSet::full() const {
  return spans_.size() == 1 && spans_[0].first <= 0 && spans_[0].second >= kTwoPi;
}

bool AngleSet::contains(double a) const {
  a = wrap_angle(a);
  for (const auto& s : spans_) {
    if (a >= s.first && a < s.second) return true;
  }
  return false;
}

AngleSet AngleSet::cos_band(double k, double r, double beta, double lo, double hi) {
  AngleSet out;
  if (r <= 0) {
    if (k > lo && k < hi) out.add_all();
    return out;
  }
  const double a = (lo - k) / r;
  const double b = (hi - k) / r;
  if (a >= 1 || b <= -1 || a >= b) return out;
  if (a < -1 && b > 1) {
    out.add_all();
    return out;
  }
  const double inner = b >= 1 ? 0.0 : std::acos(b);                // |ψ| above this: cos < b
  const double outer = a <= -1 ? std::numbers::pi : std::acos(a);  // |ψ| below this: cos > a
  if (inner <= 0) {
    out.add(beta - outer, beta + outer);
  } else if (outer >= std::numbers::pi) {
    out.add(beta + inner, beta + kTwoPi - inner);
  } else {
    out.add(beta + inner, beta + outer);
    out.add(beta - outer, beta - inner);
  }
  return out;
}

}  // namespace geom

using geom::kTwoPi;

Shape Shape::make_circle(Vec2 centre, double radius_in) {
  Shape s;
  s.kind = Kind::Circle;
  s.circle = {centre, radius_in};
  return s;
}

Shape Shape::make_polygon(std::vector<Vec2> corners) {
  Shape s;
  s.kind = Kind::Polygon;
  if (geom::signed_area2(corners) < 0) std::reverse(corners.begin(), corners.end());
  s.polygon = std::move(corners);
  return s;
}

Shape Shape::make_rect(Vec2 centre, double width_in, double depth_in, double angle_deg) {
  const double a = angle_deg * std::numbers::pi / 180.0;
  const Vec2 u{std::cos(a) * width_in / 2, std::sin(a) * width_in / 2};
  const Vec2 v{-std::sin(a) * depth_in / 2, std::cos(a) * depth_in / 2};
  return make_polygon({centre - u - v, centre + u - v, centre + u + v, centre - u + v});
}

double gap_in(const Disc& a, const Disc& b) {
  return norm(b.centre - a.centre) - a.radius_in - b.radius_in;
}

double distance_in(Vec2 p, const Shape& shape) {
  if (shape.kind == Shape::Kind::Circle) {
    return std::max(0.0, norm(p - shape.circle.centre) - shape.circle.radius_in);
  }
  return geom::polygon_distance(p, shape.polygon);
}

double distance_in(const Segment& s, const Shape& shape) {
  if (shape.kind == Shape::Kind::Circle) {
    return std::max(
        0.0, geom::point_segment_distance(shape.circle.centre, s.a, s.b) - shape.circle.radius_in);
  }
  return geom::segment_polygon_distance(s.a, s.b, shape.polygon);
}

bool touches(const Segment& s, const Shape& shape) {
  if (shape.kind == Shape::Kind::Circle) {
    return geom::point_segment_distance(shape.circle.centre, s.a, s.b) <= shape.circle.radius_in;
  }
  if (geom::point_in_polygon(s.a, shape.polygon)) return true;
  const auto& poly = shape.polygon;
  const std::size_t n = poly.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    if (geom::segments_meet(s.a, s.b, poly[j], poly[i])) return true;
  }
  return false;
}

double area_in2(const Shape& shape) {
  if (shape.kind == Shape::Kind::Circle) {
    return std::numbers::pi * shape.circle.radius_in * shape.circle.radius_in;
  }
  return std::abs(geom::signed_area2(shape.polygon)) / 2;
}

bool polygon_self_intersects(const std::vector<Vec2>& corners) {
  const std::size_t n = corners.size();
  if (n < 3) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = corners[i];
    const Vec2 b = corners[(i + 1) % n];
    if (a == b) return true;
    for (std::size_t j = i + 1; j < n; ++j) {
      const Vec2 c = corners[j];
      const Vec2 d = corners[(j + 1) % n];
      const bool next = j == i + 1;
      const bool prev = (j + 1) % n == i;
      if (next || prev) {
        // Neighbouring edges share one corner; they may not fold back onto each other.
        const Vec2 shared = next ? b : a;
        const Vec2 p = next ? a : b;
        const Vec2 q = next ? d : c;
        if (std::abs(cross(p - shared, q - shared)) <= 0 && dot(p - shared, q - shared) > 0) {
          return true;
        }
        continue;
      }
      if (geom::segments_meet(a, b, c, d)) return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Placement

namespace {

// Contact is allowed; only a real overlap (beyond rounding) is a problem.
constexpr double kContactTolIn = 1e-9;

std::string fmt_in(double v) {
  return fmt::format("{:.2f}\"", v);
}

}  // namespace

PlacementCheck check_spot(const Disc& base, const TableBounds& table, const Obstacles& occupied) {
  PlacementCheck out;
  const double r = base.radius_in;
  const Vec2 c = base.centre;
  if (c.x - r < -kContactTolIn || c.y - r < -kContactTolIn ||
      c.x + r > table.width_in + kContactTolIn || c.y + r > table.depth_in + kContactTolIn) {
    out.ok = false;
    out.problems.push_back(fmt::format("the base is not wholly on the {}\" × {}\" table",
                                       table.width_in, table.depth_in));
  }
  for (const Obstacle& o : occupied) {
    double overlap = 0;
    if (o.shape.kind == Shape::Kind::Circle) {
      overlap = r - (norm(c - o.shape.circle.centre) - o.shape.circle.radius_in);
    } else {
      const double d = geom::point_in_polygon(c, o.shape.polygon)
                           ? -geom::polygon_boundary_distance(c, o.shape.polygon)
                           : geom::polygon_boundary_distance(c, o.shape.polygon);
      overlap = r - d;
    }
    if (overlap > kContactTolIn) {
      out.ok = false;
      out.problems.push_back(fmt::format("overlaps '{}' by {}", o.id, fmt_in(overlap)));
      out.conflicts.push_back(o.id);
    }
  }
  return out;
}

PlacementCheck check_setup_placement(const Disc& base, int team,
                                     const std::vector<PlacedBase>& placed,
                                     const Obstacles& terrain, const TableBounds& table,
                                     double min_gap_in) {
  Obstacles occupied = terrain;
  for (const PlacedBase& p : placed) {
    occupied.push_back({p.id, Shape::make_circle(p.disc.centre, p.disc.radius_in)});
  }
  PlacementCheck out = check_spot(base, table, occupied);
  for (const PlacedBase& p : placed) {
    if (p.team == team) continue;
    const double g = gap_in(base, p.disc);
    if (g < min_gap_in - kContactTolIn) {
      out.ok = false;
      out.problems.push_back(fmt::format("only {} from opposing base '{}' (at least {} needed)",
                                         fmt_in(g), p.id, fmt_in(min_gap_in)));
      out.conflicts.push_back(p.id);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Paths

std::vector<Vec2> PathResult::polyline(double tolerance_in) const {
  std::vector<Vec2> out;
  if (pieces.empty()) return out;
  out.push_back(pieces.front().from);
  for (const PathPiece& p : pieces) {
    if (p.kind == PathPiece::Kind::Arc && p.radius_in > 0) {
      // A chord of angle a strays r(1 − cos(a/2)) from the arc.
      const double tol = std::clamp(tolerance_in / p.radius_in, 1e-9, 1.0);
      const double step = 2 * std::acos(1 - tol);
      const int n = std::max(1, static_cast<int>(std::ceil(std::abs(p.sweep_rad) / step)));
      const double start = std::atan2(p.from.y - p.centre.y, p.from.x - p.centre.x);
      for (int k = 1; k < n; ++k) {
        const double a = start + p.sweep_rad * k / n;
        out.push_back(p.centre + geom::unit(a) * p.radius_in);
      }
    }
    out.push_back(p.to);
  }
  return out;
}

}  // namespace duels
